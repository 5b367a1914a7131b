import { type MissAnatomy, OFFICIAL_METRIC_NAMES, type OfficialMetricName } from '../../core';
import { describeResolution } from '../../shared/texts';
import { ANATOMY_CATEGORIES, type AnatomySummary } from '../../shared/anatomy';
import { METRIC_INFO } from '../../shared/metricInfo';
import { type CompareSide, type CompareState, type CurvePoint, type ExplorerComparison, type ExplorerMacroRow, type ScoresState } from '../../shared/scoresProtocol';
import type { ExplorerOnInstance, InstanceView } from '../model/instanceView';
import type { InspectorModel } from '../model/model';
import { RECALL_CURVE } from '../model/slices/recallCurve';

/** `wrong_region` spans listed under the anatomy bar; the rest are only counted. */
const WRONG_REGION_SHOWN = 3;

/** What the Scores webview shows, read from the model (pure; no `vscode`). */
export function buildScoresState(model: InspectorModel): ScoresState {
  const { store } = model;
  const { selection } = store;
  const base = {
    instanceId: selection.instanceId ?? '',
    explorer: selection.explorer ?? '',
    explorers: store.explorers,
    budget: selection.budget,
    profile: selection.profile,
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
    anatomy: anatomySummary(view.anatomy),
    compare: view.compared === undefined ? null : compareState(view, view.compared),
  };
}

/** The anatomy as the webview shows it: six counts in the core's order and the first wrong-region spans. */
export function anatomySummary(anatomy: MissAnatomy): AnatomySummary {
  return {
    budget: anatomy.budget,
    coreLines: anatomy.coreLines,
    categories: ANATOMY_CATEGORIES.map((category) => ({ category, lines: anatomy.counts[category] })),
    wrongRegion: anatomy.wrongRegion.slice(0, WRONG_REGION_SHOWN).map(({ path, start, end, nearest }) => ({ path, start, end, nearest: nearest === null ? null : { ...nearest } })),
    wrongRegionSpans: anatomy.wrongRegion.length,
  };
}

/**
 * A (the shown explorer, with any audit applied) against B on the same instance, budget and
 * profile. A side without a row has null numbers: missing, not zero.
 */
function compareState(view: InstanceView, compared: ExplorerOnInstance): CompareState {
  const side = (on: ExplorerOnInstance): CompareSide => ({
    explorer: on.explorer ?? '',
    hasRow: on.hasRow,
    ndcgAtBudget: on.hasRow ? on.explanation.ndcg.ndcg : null,
    recallAtBudget: on.hasRow ? on.explanation.recallAtBudget : null,
    anatomy: on.hasRow ? anatomySummary(on.anatomy) : null,
  });
  return {
    a: side(view),
    b: side(compared),
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
