import * as path from 'node:path';
import {
  intersect,
  lineArrivals,
  lineViewing,
  MISS_CATEGORIES,
  subtract,
  type MissAnatomy,
  OFFICIAL_METRIC_NAMES,
  type OfficialMetricName,
  type PatchAnatomy,
  type PatchReach,
  patchReachSummary,
} from '../../core';
import type { InstanceWhatIf } from '../../data';
import { describeResolution, lineArrivalsText, lineViewingText, runStatusText, runSummaryText, whatIfCoreSummary, whatIfLabel, whatIfRunsSummary } from '../../shared/texts';
import { ANATOMY_CATEGORIES, type AnatomySummary, type RunMissedSpan, type RunSummary } from '../../shared/anatomy';
import { METRIC_INFO } from '../../shared/metricInfo';
import {
  type CompareSide,
  type CompareState,
  type CurvePoint,
  type ExplorerComparison,
  type ExplorerMacroRow,
  type GroundTruthChoice,
  type PatchReachRow,
  type ScoresState,
  type WhatIfNote,
} from '../../shared/scoresProtocol';
import type { ExplorerOnInstance, InstanceView } from '../model/instanceView';
import type { InspectorModel } from '../model/model';
import { COMPARED_EXPLORER_RUN, EXPLORER_RUN, type ExplorerRunState } from '../model/slices/explorerRun';
import { RECALL_CURVE } from '../model/slices/recallCurve';
import { REPAIR_RUNS, type RepairRunsState } from '../model/slices/repairRuns';

/** Missed spans listed with what the runs say about them; the rest are counted. */
const RUN_SPANS_SHOWN = 6;

/** `wrong_region` spans listed under the anatomy bar; the rest are only counted. */
const WRONG_REGION_SHOWN = 3;

/** What the ground-truth selector offers, and the what-if in use (the what-if controller's; none in unit tests). */
export interface ScoresGroundTruth {
  readonly choice: GroundTruthChoice;
  /** The what-if in use: its rules as text and the open instance's variant (undefined: none, or not computed for it). */
  readonly whatIf: { readonly text: string; readonly instance: (id: string) => InstanceWhatIf | undefined } | undefined;
}

const AS_WRITTEN_ONLY: ScoresGroundTruth = { choice: { options: [{ id: 'as-written', label: 'as written' }], selected: 'as-written', pending: null }, whatIf: undefined };

function whatIfNote(groundTruth: ScoresGroundTruth, instanceId: string): WhatIfNote | null {
  const whatIf = groundTruth.whatIf;
  const computed = whatIf?.instance(instanceId);
  if (whatIf === undefined || computed === undefined) return null;
  const v = computed.variant;
  return {
    label: whatIfLabel(whatIf.text),
    core: whatIfCoreSummary(v.coreLinesBefore, v.coreLinesAfter, v.joinedLines, v.leftLines),
    runs: whatIfRunsSummary(v.runCounts.rebuilt, v.runCounts.asRecorded, v.runCounts.dropped),
    joined: v.joinedLines,
    left: v.leftLines,
  };
}

/**
 * What the Scores webview shows, read from the model (pure; no `vscode`). `shownPath` words the
 * bench file's path (the view passes it relative to the workspace folder).
 */
export function buildScoresState(model: InspectorModel, groundTruth: ScoresGroundTruth = AS_WRITTEN_ONLY, shownPath: (file: string) => string = path.basename): ScoresState {
  const { store } = model;
  const { selection } = store;
  const base = {
    groundTruthChoice: groundTruth.choice,
    afterLabel: groundTruth.whatIf === undefined ? 'Audited' : 'What-if',
    whatIf: null,
    instanceId: selection.instanceId ?? '',
    explorer: selection.explorer ?? '',
    explorers: store.explorers,
    budget: selection.budget,
    profile: selection.profile,
    bench: store.data.benchFile === undefined ? '' : shownPath(store.data.benchFile),
    groundTruth: '',
    metrics: [],
    ndcgAtBudget: 0,
    recallAtBudget: 0,
    ndcgAtBudgetBefore: null,
    recallAtBudgetBefore: null,
    audit: null,
    curve: [],
    predictions: [],
    quirks: [],
    comparison: [],
    macros: macroRows(model),
    anatomy: null,
    compare: null,
    patchReach: null,
  };
  if (store.loading) return { ...base, status: 'loading', message: 'Loading SWE-Explore data…' };
  const view = model.view;
  if (view === undefined) {
    const count = store.data.instances.size;
    const message =
      count === 0
        ? 'No bench file loaded. Open a folder with a SWE-Explore bench JSONL, or set sweExplore.data.benchFile.'
        : `${count} instance${count === 1 ? '' : 's'} loaded. Run "SWE-Explore: Open Instance" or pick one in the Instances view.`;
    return { ...base, status: 'empty', message };
  }
  const { explanation, original } = view;
  const comparison: ExplorerComparison[] = store.explorers.flatMap((explorer): ExplorerComparison[] => {
    // Without a row the explorer stays listed as missing; with one, it waits for the line counts.
    if (!store.hasRow(view.instance.instanceId, explorer)) return [{ explorer, values: null }];
    const values = model.scoreOf(view.instance.instanceId, explorer);
    return values === undefined ? [] : [{ explorer, values }];
  });
  const curve: CurvePoint[] = [...(model.slice(RECALL_CURVE) ?? [])];
  return {
    ...base,
    status: 'ready',
    message: snapshotMessage(view),
    groundTruth: view.groundTruthLabel,
    metrics: OFFICIAL_METRIC_NAMES.map((name: OfficialMetricName) => ({
      name,
      label: METRIC_INFO[name].label,
      definition: METRIC_INFO[name].definition,
      // `value` is the ground truth as written; `audited` the same metric with the removals applied.
      value: original === undefined ? explanation.metrics[name] : original.metrics[name],
      audited: original === undefined ? null : explanation.metrics[name],
    })),
    ndcgAtBudget: explanation.ndcg.ndcg,
    recallAtBudget: explanation.recallAtBudget,
    ndcgAtBudgetBefore: original === undefined ? null : original.ndcgAtBudget,
    recallAtBudgetBefore: original === undefined ? null : original.recallAtBudget,
    audit: view.removals.length === 0 ? null : { removals: view.removals.length, drifted: view.removals.filter((r) => store.audit.drifted.has(r.id)).length },
    curve,
    predictions: explanation.predictions.map((p) => ({
      rank: p.rank,
      path: p.region.path,
      start: p.region.start,
      end: p.region.end,
      resolved: describeResolution(p.resolution),
      lines: p.lines,
      cumulative: p.cumulativeLength,
      gain: p.gain,
      discount: p.discount,
      linesInBudget: p.linesInBudget,
      budgetStatus: p.budgetStatus,
      ndcgAdmitted: p.ndcgAdmitted,
      noise: p.noise,
    })),
    quirks: explanation.quirks.map((q) => q.message),
    comparison,
    anatomy: anatomySummary(
      view.anatomy,
      view.patchAnatomy,
      runFacts(store, view.anatomy, model.slice(EXPLORER_RUN), () => model.slice(REPAIR_RUNS)),
    ),
    compare:
      view.compared === undefined
        ? null
        : compareState(view, view.compared, {
            a: runFacts(store, view.anatomy, model.slice(EXPLORER_RUN), () => model.slice(REPAIR_RUNS)),
            b: runFacts(store, view.compared.anatomy, model.slice(COMPARED_EXPLORER_RUN), () => model.slice(REPAIR_RUNS)),
          }),
    whatIf: whatIfNote(groundTruth, view.instance.instanceId),
    patchReach: view.patchReach === null ? null : patchReachRow(view.patchReach, view.patchAnatomy),
  };
}

/** What an explorer's run adds to its anatomy: per category the lines it viewed (when read), and the run's summary (null: no run folder). */
interface RunFacts {
  readonly seen: Readonly<Record<string, number>> | undefined;
  readonly run: RunSummary | null;
}

const NO_RUN: RunFacts = { seen: undefined, run: null };

/** The anatomy as the webview shows it: six counts in the core's order (with the lines the explorer's run viewed), the first wrong-region spans, the run. */
export function anatomySummary(anatomy: MissAnatomy, patch: PatchAnatomy | null = null, facts: RunFacts = NO_RUN): AnatomySummary {
  return {
    budget: anatomy.budget,
    coreLines: anatomy.coreLines,
    categories: ANATOMY_CATEGORIES.map((category) =>
      facts.seen === undefined ? { category, lines: anatomy.counts[category] } : { category, lines: anatomy.counts[category], seen: facts.seen[category] ?? 0 },
    ),
    wrongRegion: anatomy.wrongRegion.slice(0, WRONG_REGION_SHOWN).map(({ path, start, end, nearest }) => ({ path, start, end, nearest: nearest === null ? null : { ...nearest } })),
    wrongRegionSpans: anatomy.wrongRegion.length,
    run: facts.run,
    patch: patch === null ? null : ANATOMY_CATEGORIES.map((category) => ({ category, lines: patch.counts[category] })),
  };
}

/**
 * The explorer's run on the instance as the Scores view shows it: the seen lines per category, a
 * summary line, and the missed spans (the ones the run saw first) each with "seen at step N" /
 * "never viewed" and how the repair runs got there.
 */
function runFacts(store: InspectorModel['store'], anatomy: MissAnatomy, run: ExplorerRunState | undefined, repairRuns: () => RepairRunsState | undefined): RunFacts {
  if (run === undefined || run.kind === 'none' || run.kind === 'no-folder') return NO_RUN;
  if (run.kind !== 'loaded') {
    const text = runStatusText(run.kind === 'failed' ? { kind: 'failed', explorer: run.explorer, message: run.message } : { kind: run.kind, explorer: run.explorer });
    return { seen: undefined, run: { text, loaded: false, seenMissed: 0, missed: 0, notes: [], spans: [], moreSpans: 0 } };
  }
  const seen = run.seen;
  const seenMissed = seen?.seenMissed ?? 0;
  const missed = seen?.missed ?? anatomy.coreLines - anatomy.counts.hit;
  const pieces: { path: string; start: number; end: number; seen: boolean }[] = [];
  for (const category of MISS_CATEGORIES) {
    if (category === 'hit') continue;
    for (const [path, set] of anatomy.spans[category]) {
      const shown = run.viewed.get(path) ?? [];
      for (const [start, end] of intersect(set, shown)) pieces.push({ path, start, end, seen: true });
      for (const [start, end] of subtract(set, shown)) pieces.push({ path, start, end, seen: false });
    }
  }
  // Seen spans first (they are the question: why not reported?), then by place.
  pieces.sort((a, b) => Number(b.seen) - Number(a.seen) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.start - b.start));
  // The repair runs are read only for an explorer with a run (they can be large).
  const repair = pieces.length === 0 ? undefined : repairRuns();
  const spans: RunMissedSpan[] = pieces.slice(0, RUN_SPANS_SHOWN).map(({ path, start, end }) => ({
    path,
    start,
    end,
    viewing: lineViewingText(lineViewing(run.run.viewed, path, start)),
    arrivals: repair === undefined || repair.kind === 'loading' ? 'reading the repair runs…' : lineArrivalsText(lineArrivals(repair.runs, path, start)),
  }));
  const { steps, reads, viewedLines } = run.run.length;
  const benchFile = store.data.benchFile;
  // Shown relative to the bench folder when it lies inside it (the CLI prints it as given).
  const relative = benchFile === undefined ? run.run.path : path.relative(path.dirname(benchFile), run.run.path);
  const shownPath = relative.startsWith('..') || path.isAbsolute(relative) ? run.run.path : relative.split(path.sep).join('/');
  return {
    seen: seen?.seen,
    run: {
      text: runSummaryText(run.explorer, { path: shownPath, format: run.run.format, steps, reads, viewedLines }, seenMissed, missed),
      loaded: true,
      seenMissed,
      missed,
      notes: run.run.notes,
      spans,
      moreSpans: Math.max(0, pieces.length - RUN_SPANS_SHOWN),
    },
  };
}

/** Patch runs named under the patch-reach row; the rest are counted. */
const PATCH_MISSED_SHOWN = 3;

/** The patch-reach row: the summary, the first runs not reached, and the patch lines outside the core. */
export function patchReachRow(reach: PatchReach, anatomy: PatchAnatomy | null): PatchReachRow {
  return {
    summary: patchReachSummary(reach),
    patchLines: reach.patchLines,
    reachedLines: reach.reachedLines,
    firstRank: reach.firstRank,
    missed: reach.missed.slice(0, PATCH_MISSED_SHOWN).map(({ path, start, end }) => ({ path, start, end })),
    missedSpans: reach.missed.length,
    outsideCore: anatomy?.outsideCore ?? 0,
  };
}

/**
 * A (the shown explorer, with any audit applied) against B on the same instance, budget and
 * profile. A side without a row has null numbers: missing, not zero.
 */
function compareState(view: InstanceView, compared: ExplorerOnInstance, runs: { readonly a: RunFacts; readonly b: RunFacts }): CompareState {
  const side = (on: ExplorerOnInstance, facts: RunFacts): CompareSide => ({
    explorer: on.explorer ?? '',
    hasRow: on.hasRow,
    ndcgAtBudget: on.hasRow ? on.explanation.ndcg.ndcg : null,
    recallAtBudget: on.hasRow ? on.explanation.recallAtBudget : null,
    anatomy: on.hasRow ? anatomySummary(on.anatomy, on.patchAnatomy, facts) : null,
  });
  return {
    a: side(view, runs.a),
    b: side(compared, runs.b),
    metrics: OFFICIAL_METRIC_NAMES.map((name: OfficialMetricName) => {
      const a = view.hasRow ? view.explanation.metrics[name] : null;
      const b = compared.hasRow ? compared.explanation.metrics[name] : null;
      return { name, label: METRIC_INFO[name].label, definition: METRIC_INFO[name].definition, a, b, delta: a === null || b === null ? null : b - a };
    }),
  };
}

/** Every explorer's macro averages, through the same scoring path as `swe-explore score`. */
function macroRows(model: InspectorModel): ExplorerMacroRow[] {
  if (model.store.loading) return [];
  const rows: ExplorerMacroRow[] = [];
  for (const macro of model.macros.values()) rows.push({ explorer: macro.explorer, values: macro.macro as ExplorerMacroRow['values'], instances: macro.instances, expected: macro.expected });
  return rows;
}

/** A banner for what is wrong with the instance's snapshot, shown in place above the scores. */
function snapshotMessage(view: InstanceView): string {
  const { instance, prepared, predictions } = view;
  if (view.explorer !== undefined && !view.hasRow)
    return `${view.explorer} has no row for ${instance.instanceId}: its scores here are missing, not zero (shown as an empty list; left out of the macro averages).`;
  if (instance.snapshotRoot === undefined) {
    return `The snapshot folder of ${instance.instanceId} is missing (or its repo_dir is refused): whole-file and tail regions cannot be resolved. See the Problems panel.`;
  }
  if (!view.lineCountsReady) return 'Reading snapshot line counts…';
  const referenced = [...instance.groundTruth.coreRegions, ...Object.values(instance.groundTruth.optionalRegionsByModel).flat(), ...predictions].map((r) => r.path);
  const missing = [...new Set(referenced)].filter((path) => !prepared.knownLineCounts.has(path));
  if (missing.length === 0) return '';
  const shown = missing.slice(0, 3).join(', ') + (missing.length > 3 ? ` and ${missing.length - 3} more` : '');
  return `Not in the snapshot: ${shown}. Regions on ${missing.length === 1 ? 'it' : 'them'} that need a line count are unresolvable.`;
}
