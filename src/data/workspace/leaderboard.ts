/**
 * The leaderboard of a loaded workspace: per explorer, the macro averages `swe-explore score`
 * prints (overall and per repo, as `score --group-by repo`), and the miss anatomy totals
 * `swe-explore misses` prints at one budget, with the instances that carry most of each category.
 * Rows are walked with {@link forEachScoredRow} and scored with {@link scoreRow} / {@link summarise} /
 * {@link summariseByRepo}, so the same folder gives the same numbers as the CLI; the "patch reach"
 * column sums the rows' patch reach (`swe-explore misses`' `patch_lines` / `patch_hit`). With the
 * explorers' own runs (issue 19), "viewed but not reported" and the runs' lengths sum the rows' seen
 * anatomy (`misses --explorer-trajs`' totals); with the runner's `token_usage` on the rows, tokens per
 * instance and per core line hit. Linear in rows.
 */
import {
  addMissCounts,
  addSeenAnatomy,
  emptyMissCounts,
  MISS_CATEGORIES,
  missAnatomy,
  preparePredictions,
  type LineSet,
  type MissAnatomy,
  type MissCategory,
  type MissCounts,
  type PatchReach,
  type PreparedGroundTruth,
} from '../../core';
import type { RowSeen } from './explorerSeen';
import { goldPatchLines, rowPatchReach, type InstancePatchReach } from './patchReach';
import { forEachScoredRow, isScored, metricFields, scoreRow, summarise, summariseByRepo, topK, type MetricValues, type ScoredRow } from './scoring';
import { repoPathOf, type InstanceEntry, type PredictionEntry, type WorkspaceModel } from './workspace';

/** How many instances per category a leaderboard keeps (the ones carrying most lines). */
export const LEADERBOARD_TOP_INSTANCES = 20;

export interface LeaderboardOptions {
  /** Predictions are sliced to the top k, as the official runner does. */
  readonly k: number;
  /** Score instances whose core is empty too (the official runner skips them by default). */
  readonly keepEmptyCore?: boolean;
}

export interface LeaderboardAnatomyOptions extends LeaderboardOptions {
  /** The line budget B of the miss anatomy. */
  readonly budget: number;
  /** Instances kept per category; default {@link LEADERBOARD_TOP_INSTANCES}. */
  readonly top?: number;
}

/** Macro averages of one explorer over one repo's instances. */
export interface LeaderboardRepo {
  readonly repo: string;
  readonly macro: MetricValues;
  readonly instances: number;
}

/** One explorer's scores: the numbers of `score` and `score --group-by repo`. */
export interface LeaderboardScores {
  readonly explorer: string;
  /** Null when no row is scored yet (missing, not zero). */
  readonly macro: MetricValues | null;
  /** Instances averaged. */
  readonly instances: number;
  /** Instances that take part once every line count is known (bench records with a core, and a row). */
  readonly expected: number;
  /** Repos in code-unit order. */
  readonly repos: readonly LeaderboardRepo[];
}

/** An instance and how many core lines of one category it holds. */
export interface CategoryCarrier {
  readonly instanceId: string;
  readonly lines: number;
}

/** One explorer's miss anatomy totals: the numbers of `misses` (totals line). */
export interface LeaderboardAnatomy {
  readonly explorer: string;
  readonly budget: number;
  readonly instances: number;
  readonly totals: MissCounts & { readonly coreLines: number };
  /** Per category, the instances carrying most of its lines (lines descending, then id), at most `top`. */
  readonly top: Readonly<Record<MissCategory, readonly CategoryCarrier[]>>;
}

export interface Leaderboard {
  readonly k: number;
  readonly budget: number;
  /** Every explorer of the model, in model order, with or without scored rows. */
  readonly scores: readonly LeaderboardScores[];
  /** Same explorers, same order. */
  readonly anatomy: readonly LeaderboardAnatomy[];
}

/**
 * One explorer's patch reach over the scored rows whose instance has a gold patch: the "patch reach"
 * column is `reachedLines / patchLines` (summed over those rows, not averaged per instance).
 */
export interface LeaderboardPatchReach {
  readonly explorer: string;
  readonly budget: number;
  /** Scored rows whose instance has a patch. */
  readonly instances: number;
  /** Σ patch lines and Σ patch lines reached within B over those rows. */
  readonly patchLines: number;
  readonly reachedLines: number;
  /** Per row with a patch, in the walk's order: "gold patch lines: 12/14 within B by #2". */
  readonly rows: readonly InstancePatchReach[];
}

/** {@link Leaderboard} with its patch-reach column (same explorers, same order). */
export interface LeaderboardWithPatchReach extends Leaderboard {
  readonly patchReach: readonly LeaderboardPatchReach[];
  /** Same explorers, same order: what the rows' `token_usage` says (zero rows when none carries one). */
  readonly tokens: readonly LeaderboardTokens[];
}

/**
 * One explorer's own runs over its scored rows (issue 19 item 6): the viewed core lines per
 * category summed over the rows with a run (= `misses --explorer-trajs`' totals), "viewed but not
 * reported" = missed core lines the runs viewed / missed core lines of those rows, and what a run
 * spent (its steps, kept reads and viewed lines, averaged over the runs).
 */
export interface LeaderboardExplorerRuns {
  readonly explorer: string;
  readonly budget: number;
  /** Scored rows with a run. */
  readonly runs: number;
  readonly seen: MissCounts;
  readonly viewedCoreLines: number;
  readonly seenMissed: number;
  readonly missed: number;
  /** `seenMissed / missed`; null when the rows with a run miss nothing (or there is none). */
  readonly viewedNotReported: number | null;
  /** Means over the runs (null without a run): the run's assistant steps, kept reads and distinct viewed lines. */
  readonly meanSteps: number | null;
  readonly meanReads: number | null;
  readonly meanViewedLines: number | null;
}

/**
 * A row's explorer run as {@link leaderboardExplorerRuns} needs it: undefined when its explorer has no
 * run folder, null when it has one but no run for the instance (the extension passes memoised ones;
 * `seenOfRows` computes them — with `fullRuns` for the lengths of whole runs).
 */
export type RowSeenOf = (label: string, instanceId: string, row: PredictionEntry, groundTruth: PreparedGroundTruth, entry: InstanceEntry) => RowSeen | null | undefined;

/** One explorer's token spend over its scored rows that carry the runner's `token_usage`. */
export interface LeaderboardTokens {
  readonly explorer: string;
  readonly budget: number;
  /** Scored rows with a `token_usage` figure. */
  readonly rows: number;
  /** Σ tokens over those rows. */
  readonly tokens: number;
  /** Σ core lines hit at the budget over the same rows. */
  readonly hitLines: number;
  /** Tokens per instance: `tokens / rows`; null without such a row. */
  readonly meanTokens: number | null;
  /** Tokens per core line hit: `tokens / hitLines`; null when no line was hit. */
  readonly tokensPerHitLine: number | null;
}

/** Prepared ground truth of an instance, or undefined to leave its rows out (line counts unknown). */
export type GroundTruthOf = (entry: InstanceEntry) => PreparedGroundTruth | undefined;

/**
 * One scored row's numbers. The defaults compute them; the extension's store passes memoised ones
 * (warmed in the background), so that a leaderboard over 17k rows is a sum of cached values.
 */
export type RowMetricsOf = (label: string, instanceId: string, row: PredictionEntry, groundTruth: PreparedGroundTruth) => MetricValues;
export type RowAnatomyOf = (label: string, instanceId: string, row: PredictionEntry, groundTruth: PreparedGroundTruth, entry: InstanceEntry) => RowMissCounts;

/** A row's patch reach at the leaderboard's budget, null when its instance has no patch; the extension passes a memoised one. */
export type RowPatchReachOf = (label: string, instanceId: string, row: PredictionEntry, groundTruth: PreparedGroundTruth, entry: InstanceEntry) => PatchReach | null;

/** What the leaderboard keeps of a row's miss anatomy: its counts (not the spans, which the editor alone needs). */
export type RowMissCounts = Pick<MissAnatomy, 'coreLines' | 'counts'>;

/** A row's official metrics with top-k applied: exactly what `swe-explore score` prints for it. */
export function rowMetrics(groundTruth: PreparedGroundTruth, row: PredictionEntry, k: number): MetricValues {
  return scoreRow(groundTruth, row.regions, k, []);
}

/** A row's miss anatomy at `budget` with top-k applied: exactly what `swe-explore misses` prints for it. */
export function rowAnatomy(groundTruth: PreparedGroundTruth, row: PredictionEntry, entry: InstanceEntry, k: number, budget: number): MissAnatomy {
  return missAnatomy(preparePredictions(groundTruth, topK(row.regions, k)), budget, { repoPath: repoPathOf(entry) });
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Keeps `list` as the `limit` largest carriers, lines descending then id ascending: an insertion
 * into a list of at most `limit` items, so a category over n rows costs O(n · limit).
 */
function offer(list: CategoryCarrier[], item: CategoryCarrier, limit: number): void {
  const before = (a: CategoryCarrier, b: CategoryCarrier): boolean => a.lines > b.lines || (a.lines === b.lines && compareIds(a.instanceId, b.instanceId) < 0);
  if (list.length >= limit && !before(item, list[list.length - 1]!)) return;
  let i = list.length;
  while (i > 0 && before(item, list[i - 1]!)) i--;
  list.splice(i, 0, item);
  if (list.length > limit) list.pop();
}

function emptyTop(): Record<MissCategory, CategoryCarrier[]> {
  return { hit: [], beyond_budget: [], path_mismatch: [], inverted: [], wrong_region: [], file_not_predicted: [] };
}

/** Per explorer, the instances that take part once every line count is known. */
function expectedCounts(model: WorkspaceModel, keepEmptyCore: boolean | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [label, run] of model.explorers) {
    let expected = 0;
    for (const instanceId of run.rows.keys()) {
      const entry = model.instances.get(instanceId);
      if (entry !== undefined && isScored(entry, keepEmptyCore)) expected++;
    }
    out.set(label, expected);
  }
  return out;
}

/** Macro averages per explorer, overall and per repo, through the `score` path. */
export function leaderboardScores(
  model: WorkspaceModel,
  groundTruthOf: GroundTruthOf,
  options: LeaderboardOptions,
  metricsOf: RowMetricsOf = (_label, _id, row, groundTruth) => rowMetrics(groundTruth, row, options.k),
): LeaderboardScores[] {
  const fields = metricFields();
  const rows: ScoredRow[] = [];
  forEachScoredRow(model, options.keepEmptyCore, groundTruthOf, (label, instanceId, row, groundTruth) => {
    rows.push({ instanceId, explorer: label, metrics: metricsOf(label, instanceId, row, groundTruth) });
  });
  const summaries = new Map(summarise(rows, fields).map((s) => [s.explorer, s]));
  const reposByExplorer = new Map<string, LeaderboardRepo[]>();
  for (const r of summariseByRepo(rows, model, fields)) {
    let list = reposByExplorer.get(r.explorer);
    if (list === undefined) reposByExplorer.set(r.explorer, (list = []));
    list.push({ repo: r.repo, macro: r.macro, instances: r.instances });
  }
  const expected = expectedCounts(model, options.keepEmptyCore);
  const out: LeaderboardScores[] = [];
  for (const label of model.explorers.keys()) {
    const summary = summaries.get(label);
    out.push({ explorer: label, macro: summary?.macro ?? null, instances: summary?.instances ?? 0, expected: expected.get(label) ?? 0, repos: reposByExplorer.get(label) ?? [] });
  }
  return out;
}

/** Miss anatomy totals per explorer at one budget, through the `misses` path. */
export function leaderboardAnatomy(
  model: WorkspaceModel,
  groundTruthOf: GroundTruthOf,
  options: LeaderboardAnatomyOptions,
  anatomyOf: RowAnatomyOf = (_label, _id, row, groundTruth, entry) => rowAnatomy(groundTruth, row, entry, options.k, options.budget),
): LeaderboardAnatomy[] {
  const limit = options.top ?? LEADERBOARD_TOP_INSTANCES;
  const sums = new Map<string, { instances: number; counts: MissCounts; coreLines: number; top: Record<MissCategory, CategoryCarrier[]> }>();
  for (const label of model.explorers.keys()) sums.set(label, { instances: 0, counts: emptyMissCounts(), coreLines: 0, top: emptyTop() });
  forEachScoredRow(model, options.keepEmptyCore, groundTruthOf, (label, instanceId, row, groundTruth, entry) => {
    const anatomy = anatomyOf(label, instanceId, row, groundTruth, entry);
    const sum = sums.get(label)!;
    sum.instances++;
    sum.coreLines += anatomy.coreLines;
    addMissCounts(sum.counts, anatomy.counts);
    for (const category of MISS_CATEGORIES) {
      const lines = anatomy.counts[category];
      if (lines > 0) offer(sum.top[category], { instanceId, lines }, limit);
    }
  });
  const out: LeaderboardAnatomy[] = [];
  for (const [explorer, sum] of sums) out.push({ explorer, budget: options.budget, instances: sum.instances, totals: { coreLines: sum.coreLines, ...sum.counts }, top: sum.top });
  return out;
}

/**
 * Patch reach per explorer at one budget, over the rows with a gold patch (rows of instances
 * without one are left out of both sums). The default parses each instance's patch once per call.
 */
export function leaderboardPatchReach(model: WorkspaceModel, groundTruthOf: GroundTruthOf, options: LeaderboardAnatomyOptions, reachOf?: RowPatchReachOf): LeaderboardPatchReach[] {
  const patchByInstance = new Map<string, LineSet | null>();
  const parsedOnce: RowPatchReachOf = (_label, instanceId, row, groundTruth, entry) => {
    let patchLines = patchByInstance.get(instanceId);
    if (patchLines === undefined) patchByInstance.set(instanceId, (patchLines = goldPatchLines(entry)));
    return rowPatchReach(groundTruth, row, patchLines, options.k, options.budget);
  };
  const reach = reachOf ?? parsedOnce;
  const sums = new Map<string, { instances: number; patchLines: number; reachedLines: number; rows: InstancePatchReach[] }>();
  for (const label of model.explorers.keys()) sums.set(label, { instances: 0, patchLines: 0, reachedLines: 0, rows: [] });
  forEachScoredRow(model, options.keepEmptyCore, groundTruthOf, (label, instanceId, row, groundTruth, entry) => {
    const result = reach(label, instanceId, row, groundTruth, entry);
    if (result === null) return;
    const sum = sums.get(label)!;
    sum.instances++;
    sum.patchLines += result.patchLines;
    sum.reachedLines += result.reachedLines;
    sum.rows.push({ instanceId, patchLines: result.patchLines, reachedLines: result.reachedLines, firstRank: result.firstRank, ranks: result.ranks });
  });
  const out: LeaderboardPatchReach[] = [];
  for (const [explorer, sum] of sums) out.push({ explorer, budget: options.budget, ...sum });
  return out;
}

/**
 * The explorers' own runs per explorer with a run folder (those for which `seenOf` gives something),
 * in model order: the sums of the rows' seen anatomy and the mean run lengths.
 */
export function leaderboardExplorerRuns(model: WorkspaceModel, groundTruthOf: GroundTruthOf, options: LeaderboardAnatomyOptions, seenOf: RowSeenOf): LeaderboardExplorerRuns[] {
  type Sum = { seen: MissCounts; viewedCoreLines: number; seenMissed: number; missed: number; runs: number; steps: number; reads: number; viewedLines: number };
  const sums = new Map<string, Sum>();
  forEachScoredRow(model, options.keepEmptyCore, groundTruthOf, (label, instanceId, row, groundTruth, entry) => {
    const seen = seenOf(label, instanceId, row, groundTruth, entry);
    if (seen === undefined) return;
    let sum = sums.get(label);
    if (sum === undefined) sums.set(label, (sum = { seen: emptyMissCounts(), viewedCoreLines: 0, seenMissed: 0, missed: 0, runs: 0, steps: 0, reads: 0, viewedLines: 0 }));
    if (seen === null) return;
    addSeenAnatomy(sum, seen.anatomy);
    sum.runs++;
    sum.steps += seen.length.steps;
    sum.reads += seen.length.reads;
    sum.viewedLines += seen.length.viewedLines;
  });
  const out: LeaderboardExplorerRuns[] = [];
  for (const explorer of model.explorers.keys()) {
    const sum = sums.get(explorer);
    if (sum === undefined) continue;
    const mean = (total: number): number | null => (sum.runs === 0 ? null : total / sum.runs);
    out.push({
      explorer,
      budget: options.budget,
      runs: sum.runs,
      seen: sum.seen,
      viewedCoreLines: sum.viewedCoreLines,
      seenMissed: sum.seenMissed,
      missed: sum.missed,
      viewedNotReported: sum.missed === 0 ? null : sum.seenMissed / sum.missed,
      meanSteps: mean(sum.steps),
      meanReads: mean(sum.reads),
      meanViewedLines: mean(sum.viewedLines),
    });
  }
  return out;
}

/** Token spend per explorer (every explorer, model order) over its scored rows with a `token_usage` figure; hit lines from the same anatomy as `misses`. */
export function leaderboardTokens(
  model: WorkspaceModel,
  groundTruthOf: GroundTruthOf,
  options: LeaderboardAnatomyOptions,
  anatomyOf: RowAnatomyOf = (_label, _id, row, groundTruth, entry) => rowAnatomy(groundTruth, row, entry, options.k, options.budget),
): LeaderboardTokens[] {
  const sums = new Map<string, { rows: number; tokens: number; hitLines: number }>();
  for (const label of model.explorers.keys()) sums.set(label, { rows: 0, tokens: 0, hitLines: 0 });
  forEachScoredRow(model, options.keepEmptyCore, groundTruthOf, (label, instanceId, row, groundTruth, entry) => {
    if (row.tokens === undefined) return;
    const sum = sums.get(label)!;
    sum.rows++;
    sum.tokens += row.tokens;
    sum.hitLines += anatomyOf(label, instanceId, row, groundTruth, entry).counts.hit;
  });
  const out: LeaderboardTokens[] = [];
  for (const [explorer, sum] of sums) {
    out.push({ explorer, budget: options.budget, ...sum, meanTokens: sum.rows === 0 ? null : sum.tokens / sum.rows, tokensPerHitLine: sum.hitLines === 0 ? null : sum.tokens / sum.hitLines });
  }
  return out;
}

/** Scores, miss anatomy and patch reach together (three walks over the rows, each linear). */
export function leaderboardOfModel(model: WorkspaceModel, groundTruthOf: GroundTruthOf, options: LeaderboardAnatomyOptions): LeaderboardWithPatchReach {
  return {
    k: options.k,
    budget: options.budget,
    scores: leaderboardScores(model, groundTruthOf, options),
    anatomy: leaderboardAnatomy(model, groundTruthOf, options),
    patchReach: leaderboardPatchReach(model, groundTruthOf, options),
    tokens: leaderboardTokens(model, groundTruthOf, options),
  };
}
