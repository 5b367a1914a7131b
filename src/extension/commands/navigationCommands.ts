/**
 * Moving through the benchmark: Open Instance, reveal a region, and the next/previous missed span,
 * core region, prediction and instance. Commands only change the selection and open places; the
 * model's change event repaints every surface once.
 */
import * as vscode from 'vscode';
import type { Region } from '../../core';
import { safeNotificationText as safe } from '../../shared/escape';
import { runStatusText } from '../../shared/texts';
import { isRecord } from '../../shared/guards';
import { COMMANDS } from '../base/ids';
import { activeCursor, openSnapshotPlace } from '../base/navigation';
import { nextPlace, type Place, type RevealTarget } from '../base/places';
import type { Probe } from '../base/probe';
import { placeOf } from '../model/lineFacts';
import { EXPLORER_RUN, type ExplorerRunState } from '../model/slices/explorerRun';
import type { InspectorModel } from '../model/model';
import type { Selection } from '../state/store';
import type { WorkspaceLoader } from '../workspace/loader';

export interface NavigationServices {
  readonly model: InspectorModel;
  readonly loader: WorkspaceLoader;
  /** The order the Instances tree shows (next/previous instance follow it). */
  readonly orderedInstanceIds: () => string[];
  readonly probe: Probe;
  /** Resolves when the most recent data load has finished; commands wait for it. */
  readonly whenLoaded: () => Promise<void>;
}

/** Longest Open Instance waits for the explorers' runs before it paints (the issue's target for a run: under 100 ms). */
const RUN_PREFETCH_MS = 100;

/** Longest Next/Previous Seen-but-Missed waits for the explorer's run being read before it answers. */
const RUN_WAIT_MS = 30_000;

/** The open instance's explorer run once it is no longer being read (or as it is after `timeoutMs`). */
function settledRun(model: InspectorModel, timeoutMs: number): Promise<ExplorerRunState | undefined> {
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve(model.slice(EXPLORER_RUN));
    };
    const timer = setTimeout(finish, timeoutMs);
    const listener = model.onDidChange(() => {
      if (model.slice(EXPLORER_RUN)?.kind !== 'loading') finish();
    });
    if (model.slice(EXPLORER_RUN)?.kind !== 'loading') finish();
  });
}

/** What Open Instance may change together with the instance (a deep link, a leaderboard click): one selection, one paint. */
type AlsoSelected = Partial<Pick<Selection, 'explorer' | 'budget' | 'compareWith'>>;

export function registerNavigationCommands(services: NavigationServices): vscode.Disposable[] {
  const { model, loader, orderedInstanceIds, probe, whenLoaded } = services;
  const { store } = model;
  let predictionCursor = -1;

  const openPlace = async (place: Place): Promise<vscode.TextEditor | undefined> => {
    const view = model.view;
    return view === undefined ? undefined : openSnapshotPlace(view.instance, place);
  };

  /**
   * Opens an instance at its main file's first core region. The line counts are read before the
   * instance is selected, so the views repaint once, with the counts, instead of twice.
   */
  const openInstance = async (instanceId?: unknown, also?: unknown): Promise<void> => {
    await whenLoaded();
    const id = typeof instanceId === 'string' ? instanceId : await pickInstance(model);
    if (id === undefined) return;
    if (!store.data.instances.has(id)) {
      void vscode.window.showErrorMessage(`SWE-Explore: no instance ${safe(id)} in the loaded bench file.`);
      return;
    }
    const started = performance.now();
    predictionCursor = -1;
    await loader.ensureLineCounts(id);
    const selected = { ...alsoSelected(also, store.explorers), instanceId: id };
    // The explorers' own runs on it are read before it is selected too (one paint, with them), for
    // a bounded time: a long run keeps loading and paints when it lands.
    const prefetched = performance.now();
    const explorers = [selected.explorer ?? store.selection.explorer, selected.compareWith ?? store.selection.compareWith];
    await Promise.race([model.prefetchRuns(id, explorers), new Promise((resolve) => setTimeout(resolve, RUN_PREFETCH_MS))]);
    probe.report({ kind: 'timing', name: 'open instance: explorer runs read', ms: performance.now() - prefetched });
    store.select(selected);
    const view = model.view;
    if (view === undefined) return;
    const first = firstCoreRegion(view.instance.groundTruth.coreRegions, view.instance.groundTruth.mainFiles);
    const editorStarted = performance.now();
    if (first !== undefined) await openPlace(first);
    probe.report({ kind: 'timing', name: 'open instance: VS Code opening the editor', ms: performance.now() - editorStarted });
    probe.report({ kind: 'timing', name: 'open instance', ms: performance.now() - started });
  };

  const revealRegion = async (target: RevealTarget): Promise<void> => {
    const view = model.view;
    const place = view === undefined ? undefined : placeOf(view, target);
    if (place !== undefined) await openPlace(place);
  };

  /** Positional navigation: the next/previous place after the cursor, across the instance's files. */
  const step = async (places: (view: NonNullable<InspectorModel['view']>) => Place[], direction: 1 | -1, what: string): Promise<void> => {
    const view = model.view;
    if (view === undefined) {
      // A key pressed with no instance open would otherwise do nothing silently.
      void vscode.window.setStatusBarMessage('SWE-Explore: no instance is open (Open Instance first).', 5000);
      return;
    }
    const landing = (p: Place): number => Math.min(p.start, view.prepared.knownLineCounts.get(p.path) ?? p.start);
    const target = nextPlace(places(view), activeCursor(view), direction, { files: 'listed', landing });
    if (target === undefined) {
      // Keys with nothing to act on answer in the status bar, not with a toast to dismiss.
      void vscode.window.setStatusBarMessage(`SWE-Explore: no ${what} in ${safe(view.instance.instanceId)}.`, 5000);
      return;
    }
    await openPlace(target);
  };
  const missedPlaces = (view: NonNullable<InspectorModel['view']>): Place[] => [...view.explanation.lines.missed].flatMap(([path, set]) => set.map(([start, end]) => ({ path, start, end })));
  const seenMissedPlaces = (): Place[] => {
    const run = model.slice(EXPLORER_RUN);
    return run?.kind === 'loaded' && run.seenMissed !== undefined ? [...run.seenMissed].flatMap(([path, set]) => set.map(([start, end]) => ({ path, start, end }))) : [];
  };
  /**
   * Next / previous missed span the explorer's run viewed; says why there is none when the run is not
   * there. A run still being read (just opened, or read again once line counts arrived) is waited
   * for, so the key does what it says a moment later instead of answering "reading…".
   */
  const stepSeenMissed = async (direction: 1 | -1): Promise<void> => {
    let run = model.slice(EXPLORER_RUN);
    if (run?.kind === 'loading') {
      const reading = runStatusText({ kind: 'loading', explorer: run.explorer });
      run = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `SWE-Explore: ${safe(reading)}` }, () => settledRun(model, RUN_WAIT_MS));
    }
    if (run !== undefined && run.kind !== 'loaded' && run.kind !== 'none') {
      void vscode.window.showInformationMessage(
        `SWE-Explore: ${safe(runStatusText(run.kind === 'failed' ? { kind: 'failed', explorer: run.explorer, message: run.message } : { kind: run.kind, explorer: run.explorer }))}.`,
      );
      return;
    }
    await step(seenMissedPlaces, direction, 'missed core lines the explorer’s run viewed');
  };
  const corePlaces = (view: NonNullable<InspectorModel['view']>): Place[] =>
    view.explanation.coreRegions.flatMap((r) => (r.resolution.kind === 'resolved' ? [{ path: r.region.path, start: r.resolution.start, end: r.resolution.end }] : []));

  const stepPrediction = async (direction: 1 | -1): Promise<void> => {
    const n = model.view?.explanation.predictions.length ?? 0;
    if (n === 0) {
      void vscode.window.setStatusBarMessage('SWE-Explore: no predictions for this instance and explorer.', 5000);
      return;
    }
    predictionCursor = predictionCursor < 0 ? (direction === 1 ? 0 : n - 1) : (predictionCursor + direction + n) % n;
    await revealRegion({ kind: 'prediction', rank: predictionCursor + 1 });
  };
  const stepInstance = async (direction: 1 | -1): Promise<void> => {
    const ids = orderedInstanceIds();
    if (ids.length === 0) return;
    const index = ids.indexOf(store.selection.instanceId ?? '');
    await openInstance(index < 0 ? ids[0]! : ids[(index + direction + ids.length) % ids.length]!);
  };

  return [
    vscode.commands.registerCommand(COMMANDS.openInstance, openInstance),
    vscode.commands.registerCommand(COMMANDS.revealRegion, revealRegion),
    vscode.commands.registerCommand(COMMANDS.nextMissedSpan, () => step(missedPlaces, 1, 'missed core lines')),
    vscode.commands.registerCommand(COMMANDS.previousMissedSpan, () => step(missedPlaces, -1, 'missed core lines')),
    vscode.commands.registerCommand(COMMANDS.nextSeenMissedSpan, () => stepSeenMissed(1)),
    vscode.commands.registerCommand(COMMANDS.previousSeenMissedSpan, () => stepSeenMissed(-1)),
    vscode.commands.registerCommand(COMMANDS.nextCoreRegion, () => step(corePlaces, 1, 'core regions')),
    vscode.commands.registerCommand(COMMANDS.previousCoreRegion, () => step(corePlaces, -1, 'core regions')),
    vscode.commands.registerCommand(COMMANDS.nextPrediction, () => stepPrediction(1)),
    vscode.commands.registerCommand(COMMANDS.previousPrediction, () => stepPrediction(-1)),
    vscode.commands.registerCommand(COMMANDS.nextInstance, () => stepInstance(1)),
    vscode.commands.registerCommand(COMMANDS.previousInstance, () => stepInstance(-1)),
  ];
}

/** Open Instance's second argument, checked field by field: known explorers, a positive whole budget. */
function alsoSelected(value: unknown, explorers: readonly string[]): AlsoSelected {
  if (!isRecord(value)) return {};
  const known = (name: unknown): name is string => typeof name === 'string' && explorers.includes(name);
  const { explorer, budget, compareWith } = value;
  return {
    ...(known(explorer) ? { explorer } : {}),
    ...(Number.isSafeInteger(budget) && (budget as number) >= 1 ? { budget: budget as number } : {}),
    ...(known(compareWith) ? { compareWith } : {}),
  };
}

/** The main file's first core region, else the first core region. */
function firstCoreRegion(regions: readonly Region[], mainFiles: readonly string[]): Region | undefined {
  return regions.find((r) => mainFiles.includes(r.path)) ?? regions[0];
}

async function pickInstance(model: InspectorModel): Promise<string | undefined> {
  const { store } = model;
  const explorer = store.selection.explorer;
  const items = store.instanceIds.map((id) => {
    const entry = store.data.instances.get(id)!;
    const metrics = model.scoreOf(id, explorer);
    return {
      label: safe(id),
      description: safe(entry.repo),
      instanceId: id,
      detail:
        metrics === undefined
          ? explorer !== undefined && !store.hasRow(id, explorer)
            ? `${safe(explorer)}: missing (no row for this instance)`
            : undefined
          : `${safe(explorer ?? '')}: recall ${metrics.recall.toFixed(3)} · nDCG@500 ${metrics.ndcg_at_500.toFixed(3)} · Recall@500 ${metrics.recall_at_500.toFixed(3)}`,
    };
  });
  const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: Open Instance', placeHolder: 'Instance id or repo', matchOnDescription: true });
  return picked?.instanceId;
}
