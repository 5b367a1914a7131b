/**
 * The leave-one-out layer: pick one trajectory of the open instance and see which core lines would
 * change consensus status if it were dropped (`Provenance.leaveOneOut`): lines that would **join**
 * the consensus (that trajectory alone kept them out) and lines that would **leave** it (only when
 * it is the last trajectory). A layer of its own, with its own theme colours, painted next to the
 * consensus/promoted layers and cleared when the instance changes or "none" is picked.
 */
import * as vscode from 'vscode';
import { containsLine, EMPTY_SET, type IntervalSet, type LeaveOneOut } from '../../core';
import { safeNotificationText as safe } from '../../shared/escape';
import { Disposable } from '../base/lifecycle';
import { leaveOneOutLabel, leaveOneOutSentence, trajectoryLabel } from '../../shared/texts';
import { provenanceOf } from '../model/viewCaches';
import { lineRange } from '../base/ranges';
import { snapshotPathOf } from '../base/snapshot';
import { changesView, type InstanceView, type Store } from '../state/store';
import { COMMANDS } from '../base/ids';

const color = (id: string): vscode.ThemeColor => new vscode.ThemeColor(`sweExplore.${id}`);

interface Choice {
  readonly instanceId: string;
  readonly trajectory: string;
}

/** The painted ranges of one editor (1-based lines), for integration tests: the API cannot read decorations back. */
export interface LeaveOneOutApplied {
  readonly join: [number, number][];
  readonly leave: [number, number][];
}

export class LeaveOneOutController extends Disposable {
  /** Background tint and overview-ruler mark; the label carries the non-colour signal (⊕ / ⊖). */
  private readonly lines = this.register(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: color('leaveOneOutBackground'),
      overviewRulerColor: color('leaveOneOutForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
    }),
  );
  private readonly labels = this.register(
    vscode.window.createTextEditorDecorationType({
      after: { color: color('leaveOneOutForeground'), margin: '0 0 0 2em', fontStyle: 'italic' },
    }),
  );
  private choice: Choice | undefined;
  /** Computed once per (instance view, trajectory): a repaint of another editor reuses it. */
  private cached: { view: InstanceView; trajectory: string; result: LeaveOneOut | null } | undefined;
  readonly applied = new Map<string, LeaveOneOutApplied>();

  constructor(private readonly store: Store) {
    super();
    this.register(
      store.onDidChange((change) => {
        if (changesView(change)) this.paintAll();
      }),
    );
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.paintAll()));
    this.register(vscode.commands.registerCommand(COMMANDS.leaveOneOutTrajectory, (trajectory?: unknown) => this.run(trajectory)));
  }

  /** The trajectory left out for the open instance, if any (a choice made on another instance no longer applies). */
  get trajectory(): string | undefined {
    const view = this.store.view;
    return view !== undefined && this.choice?.instanceId === view.instance.instanceId ? this.choice.trajectory : undefined;
  }

  /**
   * With an argument (tests, keybindings): a trajectory path of the open instance, or null / ""
   * to clear. Without: a quick pick of the instance's trajectories plus "none".
   */
  private async run(argument: unknown): Promise<void> {
    const view = this.store.view;
    if (view === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: open an instance first ("SWE-Explore: Open Instance").');
      return;
    }
    const provenance = provenanceOf(view, this.store.getLineCounts(view.instance.instanceId));
    let chosen: string | null;
    if (argument === null || argument === '') chosen = null;
    else if (typeof argument === 'string') chosen = argument;
    else {
      if (provenance.trajectories.length === 0) {
        void vscode.window.showInformationMessage(`SWE-Explore: ${safe(view.instance.instanceId)} has no read steps, so no trajectory to leave out.`);
        return;
      }
      const current = this.trajectory;
      const items: (vscode.QuickPickItem & { trajectory: string | null })[] = [{ label: 'None', description: 'clear the leave-one-out layer', trajectory: null }];
      for (const trajectory of provenance.trajectories) {
        const result = provenance.leaveOneOut(trajectory);
        items.push({
          label: safe(trajectoryLabel(trajectory)),
          description: `${countLines(result?.wouldJoin)} would join, ${countLines(result?.wouldLeave)} would leave the consensus${trajectory === current ? ' · shown' : ''}`,
          detail: safe(trajectory),
          trajectory,
        });
      }
      const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: leave one trajectory out — core lines whose consensus status depends on it' });
      if (picked === undefined) return;
      chosen = picked.trajectory;
    }
    if (chosen !== null && !provenance.trajectories.includes(chosen)) {
      void vscode.window.showWarningMessage(`SWE-Explore: ${safe(chosen)} is not a trajectory of ${safe(view.instance.instanceId)}.`);
      return;
    }
    this.choice = chosen === null ? undefined : { instanceId: view.instance.instanceId, trajectory: chosen };
    this.paintAll();
  }

  private resultFor(view: InstanceView, trajectory: string): LeaveOneOut | null {
    if (this.cached === undefined || this.cached.view !== view || this.cached.trajectory !== trajectory) {
      const result = provenanceOf(view, this.store.getLineCounts(view.instance.instanceId)).leaveOneOut(trajectory);
      this.cached = { view, trajectory, result };
    }
    return this.cached.result;
  }

  paintAll(): void {
    this.applied.clear();
    const view = this.store.view;
    const trajectory = this.trajectory;
    const result = view === undefined || trajectory === undefined ? null : this.resultFor(view, trajectory);
    for (const editor of vscode.window.visibleTextEditors) this.paint(editor, view, result);
  }

  private paint(editor: vscode.TextEditor, view: InstanceView | undefined, result: LeaveOneOut | null): void {
    const path = snapshotPathOf(view, editor.document.uri);
    if (result === null || path === undefined) {
      editor.setDecorations(this.lines, []);
      editor.setDecorations(this.labels, []);
      return;
    }
    const lineCount = editor.document.lineCount;
    const join = (result.wouldJoin.get(path) ?? EMPTY_SET).filter(([s]) => s <= lineCount);
    const leave = (result.wouldLeave.get(path) ?? EMPTY_SET).filter(([s]) => s <= lineCount);
    const ranges: vscode.Range[] = [];
    const labels: vscode.DecorationOptions[] = [];
    for (const [spans, text] of [
      [join, leaveOneOutLabel('join', result.trajectory)],
      [leave, leaveOneOutLabel('leave', result.trajectory)],
    ] as const) {
      for (const [s, e] of spans) {
        ranges.push(lineRange(s, e, editor.document));
        labels.push({ range: lineRange(s, s, editor.document), renderOptions: { after: { contentText: text } } });
      }
    }
    editor.setDecorations(this.lines, ranges);
    editor.setDecorations(this.labels, labels);
    this.applied.set(editor.document.uri.toString(), { join: join.map(([s, e]) => [s, e]), leave: leave.map(([s, e]) => [s, e]) });
  }

  /** Hover text for a line of the open instance when the layer marks it (plain text: the caller escapes it). */
  describeLine(path: string, line: number): string | undefined {
    const view = this.store.view;
    const trajectory = this.trajectory;
    if (view === undefined || trajectory === undefined) return undefined;
    const result = this.resultFor(view, trajectory);
    if (result === null) return undefined;
    if (containsLine(result.wouldJoin.get(path) ?? EMPTY_SET, line)) return leaveOneOutSentence('join', trajectory);
    if (containsLine(result.wouldLeave.get(path) ?? EMPTY_SET, line)) return leaveOneOutSentence('leave', trajectory);
    const isCore = provenanceOf(view, this.store.getLineCounts(view.instance.instanceId)).runAt(path, line) !== undefined;
    return isCore ? leaveOneOutSentence('none', trajectory) : undefined;
  }
}

function countLines(byPath: ReadonlyMap<string, IntervalSet> | undefined): number {
  let total = 0;
  for (const set of byPath?.values() ?? []) for (const [s, e] of set) total += e - s + 1;
  return total;
}
