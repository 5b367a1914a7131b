import * as vscode from 'vscode';
import { OFFICIAL_METRIC_NAMES, parseQuery, PROFILES, queryProblem, type OfficialMetricName, type Profile, type Region } from '../../core';
import { safeNotificationText as safe } from '../../shared/escape';
import { METRIC_INFO } from '../../shared/metricInfo';
import type { DecorationController } from '../editor/decorations';
import type { WorkspaceLoader } from '../workspace/loader';
import { COMMANDS, SETTINGS, WORKBENCH_COMMANDS, type CommandId } from '../base/ids';
import { activeCursor, openSnapshotPlace } from '../base/navigation';
import { nextPlace, type Place } from '../base/places';
import { readLayerSettings, toggleSetting, updateSetting } from '../base/settings';
import type { Store } from '../state/store';
import type { InstancesTreeProvider, RevealTarget } from '../trees/trees';

/** Timings of the last user-visible operations, exported for measurement. */
export interface Timings {
  /** Open Instance: command start → decorations painted. */
  openInstanceMs: number;
  /** The part of it spent in VS Code opening and showing the editor. */
  openInstanceEditorMs: number;
  /** Open Instance: command start → the opened editor first received its decorations. */
  openInstanceFirstPaintMs: number;
}

interface Services {
  readonly store: Store;
  readonly loader: WorkspaceLoader;
  readonly decorations: DecorationController;
  readonly instancesTree: InstancesTreeProvider;
  readonly timings: Timings;
  /** Resolves when the most recent data load has finished; commands wait for it. */
  readonly whenLoaded: () => Promise<void>;
}

export function registerCommands(services: Services): vscode.Disposable[] {
  const { store, loader, decorations, instancesTree, timings, whenLoaded } = services;
  let predictionCursor = -1;

  const openPlace = async (place: Place): Promise<vscode.TextEditor | undefined> => {
    const view = store.view;
    return view === undefined ? undefined : openSnapshotPlace(view.instance, place);
  };

  const openInstance = async (instanceId?: unknown): Promise<void> => {
    await whenLoaded();
    const id = typeof instanceId === 'string' ? instanceId : await pickInstance(store);
    if (id === undefined) return;
    if (!store.data.instances.has(id)) {
      void vscode.window.showErrorMessage(`SWE-Explore: no instance ${safe(id)} in the loaded bench file.`);
      return;
    }
    const started = performance.now();
    predictionCursor = -1;
    store.select({ instanceId: id });
    await loader.ensureLineCounts(id);
    const view = store.view;
    if (view === undefined) return;
    const first = firstCoreRegion(view.instance.groundTruth.coreRegions, view.instance.groundTruth.mainFiles);
    const editorStarted = performance.now();
    const editor = first === undefined ? undefined : await openPlace(first);
    timings.openInstanceEditorMs = performance.now() - editorStarted;
    decorations.paintAll();
    timings.openInstanceMs = performance.now() - started;
    // The editor is painted as soon as VS Code makes it visible, often before showTextDocument returns.
    const paintedAt = editor === undefined ? undefined : decorations.paintedAt.get(editor.document.uri.toString());
    timings.openInstanceFirstPaintMs = paintedAt === undefined ? timings.openInstanceMs : paintedAt - started;
  };

  const revealRegion = async (target: RevealTarget): Promise<void> => {
    const view = store.view;
    if (view === undefined) return;
    // A place named directly (an Instance panel read step) must be one of the instance's paths' lines.
    const place = target.kind === 'place' ? { path: target.path, start: target.start, end: target.end } : placeOf(view.explanation, view.prepared.optionalRegions, target);
    if (place !== undefined) await openPlace(place);
  };

  /** Positional navigation: the next/previous place after the cursor, across the instance's files. */
  const step = async (places: Place[], direction: 1 | -1, what: string): Promise<void> => {
    const view = store.view;
    if (view === undefined) return;
    const target = nextPlace(places, activeCursor(view), direction, { files: 'listed', landing: (p) => Math.min(p.start, view.prepared.knownLineCounts.get(p.path) ?? p.start) });
    if (target === undefined) {
      void vscode.window.showInformationMessage(`SWE-Explore: no ${what} in ${safe(view.instance.instanceId)}.`);
      return;
    }
    await openPlace(target);
  };

  const missedPlaces = (): Place[] => {
    const view = store.view;
    if (view === undefined) return [];
    return [...view.explanation.lines.missed].flatMap(([path, set]) => set.map(([start, end]) => ({ path, start, end })));
  };
  const corePlaces = (): Place[] => {
    const view = store.view;
    if (view === undefined) return [];
    return view.explanation.coreRegions.flatMap((r) => (r.resolution.kind === 'resolved' ? [{ path: r.region.path, start: r.resolution.start, end: r.resolution.end }] : []));
  };
  const stepPrediction = async (direction: 1 | -1): Promise<void> => {
    const view = store.view;
    if (view === undefined || view.explanation.predictions.length === 0) {
      void vscode.window.showInformationMessage('SWE-Explore: no predictions for this instance and explorer.');
      return;
    }
    const n = view.explanation.predictions.length;
    predictionCursor = predictionCursor < 0 ? (direction === 1 ? 0 : n - 1) : (predictionCursor + direction + n) % n;
    await revealRegion({ kind: 'prediction', rank: predictionCursor + 1 });
  };
  const stepInstance = async (direction: 1 | -1): Promise<void> => {
    const ids = instancesTree.orderedInstanceIds();
    if (ids.length === 0) return;
    const index = ids.indexOf(store.selection.instanceId ?? '');
    const next = index < 0 ? ids[0]! : ids[(index + direction + ids.length) % ids.length]!;
    await openInstance(next);
  };

  const register = (id: CommandId, handler: (...args: never[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, handler);

  return [
    register(COMMANDS.openInstance, openInstance),
    register(COMMANDS.revealRegion, revealRegion),
    register(COMMANDS.reload, () => loader.load()),
    register(COMMANDS.pickExplorer, async (explorer?: unknown) => {
      // Quick-pick labels render $(icon) syntax: show the name escaped, keep the real one aside.
      const chosen =
        typeof explorer === 'string'
          ? explorer
          : (
              await vscode.window.showQuickPick(
                store.explorers.map((name) => ({ label: safe(name), explorer: name })),
                { title: 'SWE-Explore: explorer to score' },
              )
            )?.explorer;
      if (chosen !== undefined && store.explorers.includes(chosen)) store.select({ explorer: chosen });
    }),
    register(COMMANDS.setBudget, async (budget?: unknown) => {
      const chosen = typeof budget === 'number' ? budget : await pickBudget(store.selection.budget);
      if (chosen !== undefined && Number.isInteger(chosen) && chosen >= 1) store.select({ budget: chosen });
    }),
    register(COMMANDS.setProfile, async (profile?: unknown) => {
      const chosen =
        typeof profile === 'string'
          ? profile
          : (
              await vscode.window.showQuickPick(
                [
                  { label: 'official', description: 'line counts only for ground-truth-region files, like the official runner (citable)' },
                  { label: 'snapshot', description: 'line counts for every snapshot file (debugging)' },
                ],
                { title: 'SWE-Explore: scoring profile' },
              )
            )?.label;
      const valid = PROFILES.find((p) => p === chosen);
      if (valid !== undefined) store.select({ profile: valid as Profile });
    }),
    register(COMMANDS.nextMissedSpan, () => step(missedPlaces(), 1, 'missed core lines')),
    register(COMMANDS.previousMissedSpan, () => step(missedPlaces(), -1, 'missed core lines')),
    register(COMMANDS.nextCoreRegion, () => step(corePlaces(), 1, 'core regions')),
    register(COMMANDS.previousCoreRegion, () => step(corePlaces(), -1, 'core regions')),
    register(COMMANDS.nextPrediction, () => stepPrediction(1)),
    register(COMMANDS.previousPrediction, () => stepPrediction(-1)),
    register(COMMANDS.nextInstance, () => stepInstance(1)),
    register(COMMANDS.previousInstance, () => stepInstance(-1)),
    register(COMMANDS.toggleCoreLayer, () => toggleSetting(SETTINGS.coreLayer)),
    register(COMMANDS.toggleOptionalLayer, () => toggleSetting(SETTINGS.optionalLayer)),
    register(COMMANDS.togglePredictionsLayer, () => toggleSetting(SETTINGS.predictionsLayer)),
    register(COMMANDS.toggleMissedLayer, () => toggleSetting(SETTINGS.missedLayer)),
    register(COMMANDS.togglePatchLayer, () => toggleSetting(SETTINGS.patchLayer)),
    register(COMMANDS.toggleConsensusLayer, () => toggleSetting(SETTINGS.consensusLayer)),
    register(COMMANDS.togglePromotedLayer, () => toggleSetting(SETTINGS.promotedLayer)),
    register(COMMANDS.toggleCodeLens, () => toggleSetting(SETTINGS.codeLens)),
    register(COMMANDS.toggleOptionalModel, async () => {
      const models = [...new Set(store.instanceIds.flatMap((id) => Object.keys(store.data.instances.get(id)!.groundTruth.optionalRegionsByModel)))].sort();
      const hidden = new Set(readLayerSettings().hiddenOptionalModels);
      const picked = await vscode.window.showQuickPick(
        models.map((model) => ({ label: safe(model), model, picked: !hidden.has(model) })),
        { canPickMany: true, title: 'SWE-Explore: optional regions to show, per model' },
      );
      if (picked === undefined) return;
      const shown = new Set(picked.map((p) => p.model));
      await updateSetting(
        SETTINGS.hiddenOptionalModels,
        models.filter((m) => !shown.has(m)),
      );
    }),
    register(COMMANDS.filterInstances, async () => {
      const text = await vscode.window.showInputBox({ title: 'SWE-Explore: filter instances', prompt: 'Part of an instance id or repo (empty: show all)', value: instancesTree.filter });
      if (text !== undefined) instancesTree.filter = text;
    }),
    register(COMMANDS.queryInstances, async () => {
      await whenLoaded();
      const text = await vscode.window.showInputBox({
        title: 'SWE-Explore: query instances',
        prompt: 'Terms joined by "and": recall@bm25 < 0.2 · ndcg_at_500@agent - ndcg_at_500@bm25 > 0.3 · repo = org/repo · audited (empty: clear)',
        value: instancesTree.query?.text ?? '',
        validateInput: (value) => {
          const problem = queryProblem(value, store.explorers);
          return problem === undefined ? undefined : safe(problem.message);
        },
      });
      if (text === undefined) return;
      const parsed = parseQuery(text);
      if (parsed.ok) instancesTree.query = parsed.query;
    }),
    register(COMMANDS.sortInstances, async () => {
      const items = [
        { label: 'Bench order', metric: undefined as OfficialMetricName | undefined },
        ...OFFICIAL_METRIC_NAMES.map((metric) => ({ label: METRIC_INFO[metric].label, description: metric, metric })),
      ];
      const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: sort instances (highest first) by' });
      if (picked !== undefined) instancesTree.sortMetric = picked.metric;
    }),
    register(COMMANDS.showProblems, () => vscode.commands.executeCommand(WORKBENCH_COMMANDS.showProblems)),
  ];
}

/** The main file's first core region, else the first core region. */
function firstCoreRegion(regions: readonly Region[], mainFiles: readonly string[]): Region | undefined {
  return regions.find((r) => mainFiles.includes(r.path)) ?? regions[0];
}

function placeOf(explanation: NonNullable<Store['view']>['explanation'], optional: NonNullable<Store['view']>['prepared']['optionalRegions'], target: RevealTarget): Place | undefined {
  if (target.kind === 'place') return { path: target.path, start: target.start, end: target.end };
  const entry = target.kind === 'core' ? explanation.coreRegions[target.index] : target.kind === 'optional' ? optional[target.index] : explanation.predictions[target.rank - 1];
  if (entry === undefined) return undefined;
  const r = entry.resolution;
  if (r.kind === 'resolved') return { path: entry.region.path, start: Math.min(r.start, r.end), end: Math.max(r.start, r.end) };
  return { path: entry.region.path, start: 1, end: 1 };
}

async function pickInstance(store: Store): Promise<string | undefined> {
  const explorer = store.selection.explorer;
  const items = store.instanceIds.map((id) => {
    const entry = store.data.instances.get(id)!;
    const metrics = store.scoreOf(id, explorer);
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

async function pickBudget(current: number): Promise<number | undefined> {
  const items = [100, 300, 500].map((b) => ({ label: String(b), description: b === current ? 'current' : 'official budget' }));
  items.push({ label: 'Custom…', description: current === 100 || current === 300 || current === 500 ? '' : `current: ${current}` });
  const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: line budget B' });
  if (picked === undefined) return undefined;
  if (picked.label !== 'Custom…') return Number(picked.label);
  const text = await vscode.window.showInputBox({
    title: 'SWE-Explore: custom line budget',
    value: String(current),
    validateInput: (value) => (/^\d+$/.test(value) && Number(value) >= 1 ? undefined : 'A whole number of lines, at least 1'),
  });
  return text === undefined ? undefined : Number(text);
}
