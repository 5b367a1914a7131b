/**
 * Wires the Trajectory view: which run it shows, the read being stepped through, and the "read at
 * step N" decoration that follows it through the snapshot's files.
 *
 * - `sweExplore.showTrajectory` opens a run: a `{file}` (any trajectory file, in any format, e.g.
 *   an explorer's run), a `{trajPath}` the open instance's record cites, or — without an argument —
 *   one of the open instance's cited runs picked from a list; optionally at a `step` with `context`
 *   messages around it, and with the cursor on read `read`.
 * - `sweExplore.nextReadStep` / `previousReadStep` move the cursor through the run's reads (opening
 *   the instance's first loaded run when none is shown) and reveal each in the editor.
 * - `sweExplore.showReadStepsOfLine` lists the reads of the instance's runs that cover a line (the
 *   cursor's, a `{path, line}`, or a core region of the Regions tree) and opens the run at the step
 *   with `sweExplore.trajectory.contextMessages` messages around it.
 * - `sweExplore.showExplorerRunAtLine` opens the explorer's own run (issue 19; EXPLORER_RUN knows its
 *   file) at the step that first saw a line (the cursor's, or a `{path, line}` from the hover's link).
 *   The view says it is the explorer's run, not a repair run, and claims no verification.
 *
 * The run shown and the cursor are this view's own state (like a scroll position, nothing else
 * derives from them), so stepping repaints only this panel and this decoration.
 */
import * as vscode from 'vscode';
import { safeNotificationText as safe } from '../../shared/escape';
import { isRecord } from '../../shared/guards';
import { lineViewing } from '../../core';
import { readCreditText, runStatusText, runViewingSentence } from '../../shared/texts';
import { COMMANDS, SETTING_GROUPS } from '../base/ids';
import { Disposable } from '../base/lifecycle';
import { activeCursor, openSnapshotPlace, resolveSnapshotFile } from '../base/navigation';
import type { Probe } from '../base/probe';
import { lineRange } from '../base/ranges';
import { readTrajectorySettings } from '../base/settings';
import { themeColor } from '../editor/decorationTypes';
import type { InspectorModel } from '../model/model';
import { EXPLORER_RUN, type ExplorerRunState } from '../model/slices/explorerRun';
import type { InstanceSlice } from '../model/slices';
import { currentReports, loadTrajectoryRun, TRAJECTORY_RUNS, type RunContext, type TrajectoryRun } from '../model/slices/trajectoryRuns';
import { TrajectoryPanel } from './trajectoryPanel';
import { buildTrajectoryState, readAtStep, readLines, readsOverlapping, seenSpan, stepText, type TrajectoryFocus } from './trajectoryState';

/** What `sweExplore.showTrajectory` accepts (checked field by field: it can come from a link or another extension). */
export interface OpenTrajectoryTarget {
  /** Any trajectory file. */
  readonly file?: string;
  /** A `traj_path` the open instance's record cites. */
  readonly trajPath?: string;
  /** The message to open at. */
  readonly step?: number;
  /** Messages on each side of `step`; absent = the whole run. */
  readonly context?: number;
  /** The read to put the stepping cursor on. */
  readonly read?: number;
}

function targetOf(value: unknown): OpenTrajectoryTarget | undefined {
  if (!isRecord(value)) return undefined;
  const count = (v: unknown): number | undefined => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : undefined);
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' && v.length <= 4096 ? v : undefined);
  const target = { file: text(value['file']), trajPath: text(value['trajPath']), step: count(value['step']), context: count(value['context']), read: count(value['read']) };
  if (target.file === undefined && target.trajPath === undefined) return undefined;
  return Object.fromEntries(Object.entries(target).filter(([, v]) => v !== undefined)) as OpenTrajectoryTarget;
}

interface Shown {
  readonly run: TrajectoryRun;
  readonly instanceId: string;
  /** The explorer whose own run this is; undefined for a repair run (or any run opened by its file). */
  readonly explorer: string | undefined;
  focus: TrajectoryFocus | undefined;
  cursor: number | undefined;
}

/** Puts the cursor on the first line of a range of a visible editor and reveals the range. */
function revealIn(editor: vscode.TextEditor, start: number, end: number): vscode.TextEditor {
  const range = lineRange(start, Math.max(start, end), editor.document);
  editor.selection = new vscode.Selection(range.start, range.start);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

export class TrajectoryController extends Disposable {
  private readonly panel: TrajectoryPanel;
  private shown: Shown | undefined;
  private readonly decoration: vscode.TextEditorDecorationType;
  /** The file and lines the decoration is on. */
  private decorated: { readonly file: string; readonly start: number; readonly end: number; readonly step: number } | undefined;

  constructor(
    private readonly model: InspectorModel,
    extensionUri: vscode.Uri,
    private readonly probe: Probe,
    log: (line: string) => void,
  ) {
    super();
    this.decoration = this.register(
      vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        backgroundColor: themeColor('readStepBackground'),
        borderColor: themeColor('readStepBorder'),
        borderStyle: 'solid',
        borderWidth: '0 0 0 4px',
        overviewRulerColor: themeColor('readStepBorder'),
        overviewRulerLane: vscode.OverviewRulerLane.Full,
      }),
    );
    this.panel = this.register(
      new TrajectoryPanel(extensionUri, probe, log, {
        onRevealRead: (read) => void this.stepTo(read),
        onShowWholeRun: () => {
          if (this.shown === undefined) return;
          this.shown.focus = this.shown.focus === undefined ? undefined : { step: this.shown.focus.step, context: undefined };
          this.repaint();
        },
        stepText: (step) => {
          const message = this.shown?.run.trajectory?.messages[step];
          return message === undefined ? undefined : stepText(message);
        },
        onClosed: () => {
          this.shown = undefined;
          this.setDecoration(undefined);
        },
      }),
    );
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.paintDecoration()));
    this.register(
      model.onDidChange((change) => {
        const shown = this.shown;
        if (shown === undefined || !change.view) return;
        // Another instance: the decoration belongs to the run's instance, the panel stays as it is.
        if (model.store.selection.instanceId !== shown.instanceId) this.setDecoration(undefined);
      }),
    );
  }

  /** The run shown and the cursor, for tests. */
  get current():
    { readonly trajectory: string; readonly cursor: number | undefined; readonly decorated: Readonly<{ file: string; start: number; end: number; step: number }> | undefined } | undefined {
    return this.shown === undefined ? undefined : { trajectory: this.shown.run.trajPath, cursor: this.shown.cursor, decorated: this.decorated };
  }

  commands(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(COMMANDS.showTrajectory, (arg?: unknown) => this.showCommand(arg)),
      vscode.commands.registerCommand(COMMANDS.nextReadStep, () => this.step(1)),
      vscode.commands.registerCommand(COMMANDS.previousReadStep, () => this.step(-1)),
      vscode.commands.registerCommand(COMMANDS.showReadStepsOfLine, (arg?: unknown) => this.showReadStepsOfLine(arg)),
      vscode.commands.registerCommand(COMMANDS.showExplorerRunAtLine, (arg?: unknown) => this.showExplorerRunAtLine(arg)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING_GROUPS.trajectory) && this.shown?.focus?.context !== undefined) {
          this.shown.focus = { step: this.shown.focus.step, context: readTrajectorySettings().contextMessages };
          this.repaint();
        }
      }),
    ];
  }

  /** The open instance's runs once loaded (undefined without an instance, or when another opens meanwhile). */
  async runsOfOpenInstance(): Promise<readonly TrajectoryRun[] | undefined> {
    const runs = await this.settled(TRAJECTORY_RUNS, (value) => value.status === 'loaded');
    return runs?.status === 'loaded' ? runs.runs : undefined;
  }

  /** A slice of the open instance once `done` says it is (undefined without an instance, or when another opens meanwhile). */
  private settled<T>(slice: InstanceSlice<T>, done: (value: T) => boolean): Promise<T | undefined> {
    const instanceId = this.model.store.selection.instanceId;
    const now = this.model.slice(slice);
    if (now === undefined || done(now)) return Promise.resolve(now);
    return new Promise((resolve) => {
      const subscription = this.model.onDidChange(() => {
        if (this.model.store.selection.instanceId !== instanceId) {
          subscription.dispose();
          resolve(undefined);
          return;
        }
        const value = this.model.slice(slice);
        if (value !== undefined && done(value)) {
          subscription.dispose();
          resolve(value);
        }
      });
    });
  }

  /** Opens a run (see {@link OpenTrajectoryTarget}); false when there was nothing to open (a message says why). */
  async open(target: OpenTrajectoryTarget): Promise<boolean> {
    const view = this.model.view;
    const instanceId = view?.instance.instanceId ?? '';
    let run: TrajectoryRun | undefined;
    if (target.trajPath !== undefined) {
      run = (await this.runsOfOpenInstance())?.find((r) => r.trajPath === target.trajPath);
      if (run === undefined) {
        void vscode.window.showWarningMessage(`SWE-Explore: the open instance cites no run ${safe(target.trajPath)}.`);
        return false;
      }
    } else if (target.file !== undefined) {
      const context: RunContext = {
        instanceId,
        repoPath: typeof view?.instance.record.repo_path === 'string' ? view.instance.record.repo_path : undefined,
        snapshotRoot: view?.instance.snapshotRoot,
        readStepInfo: view?.instance.record.read_step_info,
      };
      // A cited run opened by its file is verified against the record like any cited run.
      const cited = (await this.runsOfOpenInstance())?.find((r) => r.file === target.file);
      const started = performance.now();
      run = cited ?? (await loadTrajectoryRun(target.file, target.file, context, currentReports(this.model.store.selection.trajectorySources, this.model.store.data.benchFile)));
      this.probe.report({ kind: 'timing', name: 'trajectory: load', ms: performance.now() - started });
    }
    if (run === undefined) return false;
    await this.show(run, instanceId, target, undefined);
    return true;
  }

  /** Shows a loaded run at `target`'s step and read; `explorer` when it is that explorer's own run. */
  private async show(run: TrajectoryRun, instanceId: string, target: OpenTrajectoryTarget, explorer: string | undefined): Promise<void> {
    if (run.trajectory === undefined) void vscode.window.showWarningMessage(`SWE-Explore: the run ${safe(run.trajPath)} could not be loaded: ${safe(run.problem ?? '')}`);
    const step = target.step ?? (target.read !== undefined ? run.reads[target.read]?.stepIdx : undefined);
    this.shown = {
      run,
      instanceId,
      explorer,
      focus: step === undefined ? undefined : { step, context: target.context },
      cursor: target.read !== undefined && target.read < run.reads.length ? target.read : undefined,
    };
    this.setDecoration(undefined);
    const painting = performance.now();
    this.repaint(true);
    this.probe.report({ kind: 'timing', name: 'trajectory: state built and posted', ms: performance.now() - painting });
    if (this.shown.cursor !== undefined) await this.reveal(this.shown.cursor);
  }

  private async showCommand(arg: unknown): Promise<void> {
    const target = targetOf(arg);
    if (target !== undefined) {
      await this.open(target);
      return;
    }
    const run = await this.pickRun();
    if (run !== undefined) await this.open({ trajPath: run.trajPath });
  }

  private async pickRun(): Promise<TrajectoryRun | undefined> {
    if (this.model.view === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: open an instance first ("SWE-Explore: Open Instance").');
      return undefined;
    }
    const runs = await this.runsOfOpenInstance();
    if (runs === undefined || runs.length === 0) {
      void vscode.window.showInformationMessage('SWE-Explore: the open instance cites no repair run (read_step_info is empty).');
      return undefined;
    }
    if (runs.length === 1) return runs[0];
    const picked = await vscode.window.showQuickPick(
      runs.map((run) => ({
        label: safe(run.model !== '' ? run.model : run.trajPath),
        description: safe(run.trajPath),
        detail:
          run.trajectory === undefined
            ? `not loaded: ${safe(run.problem ?? '')}`
            : `${run.reads.length} reads · ${run.verification?.verified === true ? 'verified' : 'not verified'} · ${run.resolution}`,
        run,
      })),
      { title: 'Show a repair run', placeHolder: 'Which run of the open instance?' },
    );
    return picked?.run;
  }

  private async step(direction: 1 | -1): Promise<void> {
    if (this.shown === undefined || this.shown.instanceId !== (this.model.store.selection.instanceId ?? '')) {
      const runs = await this.runsOfOpenInstance();
      const first = runs?.find((r) => r.reads.length > 0);
      if (first === undefined) {
        void vscode.window.showInformationMessage('SWE-Explore: no loaded repair run with reads for the open instance.');
        return;
      }
      await this.open({ trajPath: first.trajPath });
    }
    const shown = this.shown;
    if (shown === undefined || shown.run.reads.length === 0) return;
    const n = shown.run.reads.length;
    const next = shown.cursor === undefined ? (direction === 1 ? 0 : n - 1) : (shown.cursor + direction + n) % n;
    await this.stepTo(next);
  }

  /** Puts the cursor on a read: the view shows it, the editor reveals and decorates it. */
  private async stepTo(read: number): Promise<void> {
    const shown = this.shown;
    if (shown === undefined || read >= shown.run.reads.length) return;
    const started = performance.now();
    shown.cursor = read;
    const stepIdx = shown.run.reads[read]!.stepIdx;
    const windowed = shown.focus?.context !== undefined;
    // A window follows the read's step (a few messages: drawn again); the whole run is drawn once
    // and only the cursor moves in it.
    shown.focus = { step: stepIdx, context: shown.focus?.context };
    if (windowed) this.repaint();
    else this.panel.moveCursor(buildTrajectoryState(shown.run, shown.instanceId, shown.focus, shown.cursor, shown.explorer), read);
    await this.reveal(read);
    this.probe.report({ kind: 'timing', name: 'readStep', ms: performance.now() - started });
  }

  private async reveal(read: number): Promise<void> {
    const shown = this.shown;
    const instance = this.model.view?.instance;
    if (shown === undefined || instance === undefined || instance.instanceId !== shown.instanceId) return;
    const r = shown.run.reads[read]!;
    const count = this.model.store.getLineCounts(instance.instanceId)?.get(r.path);
    // An explorer's run is opened to show what it saw, so its reads reveal the lines the agent saw,
    // not the builder's (often whole-file) credit.
    const linesOf = (lineCount: number | undefined): { start: number; end: number } | undefined => (shown.explorer === undefined ? readLines(r, lineCount) : seenSpan(r, lineCount));
    const lines = linesOf(count) ?? { start: 1, end: 1 };
    const place = { path: r.path, start: lines.start, end: Math.min(lines.end, count ?? lines.start) };
    // A file already on screen is revealed where it is (opening a document again costs VS Code far
    // more than a step may take); another file is opened.
    const file = await resolveSnapshotFile(instance, r.path);
    const visible = file.ok ? vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'file' && e.document.uri.fsPath === file.file) : undefined;
    // Not in the view's own column: the code goes beside the run, not over it.
    const panelColumn = this.panel.column;
    const column =
      vscode.window.visibleTextEditors.find((e) => e.viewColumn !== undefined && e.viewColumn !== panelColumn)?.viewColumn ??
      (panelColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    const editor = visible !== undefined ? revealIn(visible, place.start, place.end) : await openSnapshotPlace(instance, place, { column });
    if (editor === undefined || this.shown !== shown || shown.cursor !== read) return;
    const documentLines = linesOf(editor.document.lineCount) ?? { start: 1, end: 1 };
    this.setDecoration({ file: editor.document.uri.fsPath, start: documentLines.start, end: Math.min(documentLines.end, editor.document.lineCount), step: r.stepIdx });
  }

  private setDecoration(decorated: TrajectoryController['decorated']): void {
    this.decorated = decorated;
    this.paintDecoration();
  }

  private paintDecoration(): void {
    const decorated = this.decorated;
    for (const editor of vscode.window.visibleTextEditors) {
      if (decorated === undefined || editor.document.uri.fsPath !== decorated.file) {
        editor.setDecorations(this.decoration, []);
        continue;
      }
      // The label goes on the read's first line, where the editor reveals it.
      const first = lineRange(decorated.start, decorated.start, editor.document);
      editor.setDecorations(this.decoration, [
        { range: lineRange(decorated.start, decorated.end, editor.document) },
        { range: first, renderOptions: { after: { contentText: `  ◆ read at step ${decorated.step}`, color: themeColor('readStepBorder'), fontStyle: 'italic' } } },
      ]);
      this.probe.report({ kind: 'editorPainted', surface: 'readStep', uri: editor.document.uri.toString(), layers: { readStep: [[decorated.start, decorated.end]] } });
    }
    this.probe.report({ kind: 'paint', surface: 'readStep' });
  }

  private repaint(show = false): void {
    const shown = this.shown;
    if (shown === undefined) return;
    const state = buildTrajectoryState(shown.run, shown.instanceId, shown.focus, shown.cursor, shown.explorer);
    if (show) this.panel.show(state);
    else this.panel.update(state);
  }

  /** "Show the steps that read this line": the reads covering the line, one picked, the run opened at its step. */
  private async showReadStepsOfLine(arg: unknown): Promise<void> {
    const view = this.model.view;
    if (view === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: open an instance first ("SWE-Explore: Open Instance").');
      return;
    }
    let place: { path: string; start: number; end: number } | undefined;
    if (isRecord(arg) && typeof arg['path'] === 'string' && Number.isSafeInteger(arg['line'])) place = { path: arg['path'], start: arg['line'] as number, end: arg['line'] as number };
    else if (isRecord(arg) && isRecord(arg['target']) && arg['target']['kind'] === 'core' && Number.isSafeInteger(arg['target']['index'])) {
      const region = view.explanation.coreRegions.find((r) => r.index === (arg['target'] as Record<string, unknown>)['index']);
      if (region !== undefined && region.resolution.kind === 'resolved') place = { path: region.region.path, start: region.resolution.start, end: region.resolution.end };
    } else {
      const cursor = activeCursor(view);
      if (cursor?.path !== undefined) place = { path: cursor.path, start: cursor.line, end: cursor.line };
    }
    if (place === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: put the cursor on a line of the open instance first.');
      return;
    }
    const runs = await this.runsOfOpenInstance();
    if (runs === undefined) return;
    const found = readsOverlapping(runs, place.path, place.start, place.end, this.model.store.getLineCounts(view.instance.instanceId) ?? new Map());
    const where = `${place.path} ${place.start === place.end ? `line ${place.start}` : `lines ${place.start}–${place.end}`}`;
    if (found.length === 0) {
      const notLoaded = runs.filter((r) => r.trajectory === undefined).length;
      void vscode.window.showInformationMessage(`SWE-Explore: no read of the loaded runs covers ${safe(where)}${notLoaded > 0 ? ` (${notLoaded} of ${runs.length} runs not loaded)` : ''}.`);
      return;
    }
    let chosen = found[0]!;
    if (found.length > 1) {
      const picked = await vscode.window.showQuickPick(
        found.map((f) => {
          const read = f.run.reads[f.read]!;
          return { label: `${safe(f.run.model !== '' ? f.run.model : f.run.trajPath)} · step ${read.stepIdx}`, description: `${read.idiom} · ${readCreditText(read.start, read.end)}`, found: f };
        }),
        { title: `Steps that read ${safe(where)}`, placeHolder: 'Open the run at which step?' },
      );
      if (picked === undefined) return;
      chosen = picked.found;
    }
    const read = chosen.run.reads[chosen.read]!;
    await this.open({ trajPath: chosen.run.trajPath, step: read.stepIdx, context: readTrajectorySettings().contextMessages, read: chosen.read });
  }

  /** "Show the Explorer's Run at This Line": explorer A's own run opened at the step that first saw the line. */
  private async showExplorerRunAtLine(arg: unknown): Promise<void> {
    const view = this.model.view;
    if (view === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: open an instance first ("SWE-Explore: Open Instance").');
      return;
    }
    const cursor = isRecord(arg) && typeof arg['path'] === 'string' && Number.isSafeInteger(arg['line']) ? { path: arg['path'], line: arg['line'] as number } : activeCursor(view);
    if (cursor?.path === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: put the cursor on a line of the open instance first.');
      return;
    }
    const instanceId = view.instance.instanceId;
    const state: ExplorerRunState | undefined = await this.settled(EXPLORER_RUN, (value) => value.kind !== 'loading');
    if (state === undefined) return;
    if (state.kind === 'none') {
      void vscode.window.showInformationMessage('SWE-Explore: pick an explorer first ("SWE-Explore: Pick Explorer").');
      return;
    }
    if (state.kind !== 'loaded') {
      const status = state.kind === 'failed' ? { kind: state.kind, explorer: state.explorer, message: state.message } : { kind: state.kind, explorer: state.explorer };
      void vscode.window.showInformationMessage(`SWE-Explore: ${safe(runStatusText(status))}.`);
      return;
    }
    const viewing = lineViewing(state.run.viewed, cursor.path, cursor.line);
    if (viewing.kind !== 'seen') {
      void vscode.window.showInformationMessage(`SWE-Explore: ${safe(`${cursor.path} line ${cursor.line}: ${runViewingSentence(state.explorer, viewing)}`)}.`);
      return;
    }
    const started = performance.now();
    // Read like the explorer's viewed lines were (same base), and against no record: no repair run's
    // reads to verify it with.
    const run = await loadTrajectoryRun(
      state.run.file,
      state.run.path,
      {
        instanceId,
        repoPath: typeof view.instance.record.repo_path === 'string' ? view.instance.record.repo_path : undefined,
        snapshotRoot: view.instance.snapshotRoot,
        readStepInfo: undefined,
        base: state.run.base,
      },
      undefined,
    );
    this.probe.report({ kind: 'timing', name: 'trajectory: load', ms: performance.now() - started });
    if (this.model.store.selection.instanceId !== instanceId) return;
    const read = readAtStep(run.reads, viewing.step, cursor.path, cursor.line, this.model.store.getLineCounts(instanceId)?.get(cursor.path));
    await this.show(run, instanceId, { step: viewing.step, context: readTrajectorySettings().contextMessages, ...(read === undefined ? {} : { read }) }, state.explorer);
  }
}
