/**
 * Scoring a loaded workspace: which rows are scored, with which line counts, and how they are
 * averaged. `swe-explore score`, the sidebar's macro averages and every later report (audit impact,
 * leaderboard) go through these functions, so the same folder gives the same numbers everywhere.
 * The formulas themselves live in `src/core`.
 */
import {
  MacroSums,
  ndcgAt,
  OFFICIAL_BUDGETS,
  OFFICIAL_METRIC_NAMES,
  officialMetrics,
  prepareGroundTruth,
  preparePredictions,
  recallAt,
  type LineCounts,
  type PreparedGroundTruth,
  type Profile,
  type Region,
} from '../../core';
import type { Problem } from '../io/problems';
import { groundTruthPaths, instanceLineCounts, repoOfInstanceId, type InstanceEntry, type InstanceLineCounts, type PredictionEntry, type WorkspaceModel } from './workspace';
import type { LineCountCache } from './lineCounts';
import { mapWithConcurrency } from '../io/concurrency';

export interface ScoringOptions {
  readonly profile: Profile;
  /** Predictions are sliced to the top k, as the official runner does. */
  readonly k: number;
  /** Budgets besides the official 100/300/500; each adds `ndcg_at_B` / `recall_at_B` fields. */
  readonly budgets?: readonly number[];
  /** Score instances whose core is empty too (the official runner skips them by default). */
  readonly keepEmptyCore?: boolean;
}

/** Official metric fields plus `ndcg_at_B` / `recall_at_B` for any extra budget. */
export type MetricValues = Record<string, number>;

export interface ScoredRow {
  readonly instanceId: string;
  /** The explorer's label (see the workspace model's explorer rule). */
  readonly explorer: string;
  readonly metrics: MetricValues;
}

export interface ExplorerSummary {
  readonly explorer: string;
  readonly macro: MetricValues;
  readonly instances: number;
}

/** What scoring a workspace gives besides the rows themselves. */
export interface ScoreTotals {
  readonly summaries: readonly ExplorerSummary[];
  /** Rows for instances the bench does not contain (warnings, located at the row). */
  readonly problems: readonly Problem[];
  /** Metric field names, in output order. */
  readonly fields: readonly string[];
  /** Rows skipped because their instance's core is empty (the official runner's default). */
  readonly skippedEmptyCore: number;
}

export interface ScoreResult extends ScoreTotals {
  readonly rows: readonly ScoredRow[];
}

/** Budgets that need fields of their own (the official three are already in the 17). */
export function extraBudgets(budgets: readonly number[]): number[] {
  const official = new Set<number>(OFFICIAL_BUDGETS);
  return [...new Set(budgets)].filter((b) => !official.has(b));
}

/** The output fields for a set of budgets. */
export function metricFields(budgets: readonly number[] = []): string[] {
  const fields: string[] = [...OFFICIAL_METRIC_NAMES];
  for (const b of extraBudgets(budgets)) fields.push(`ndcg_at_${b}`, `recall_at_${b}`);
  return fields;
}

/** Whether an instance takes part in scores and macro averages. */
export function isScored(entry: InstanceEntry, keepEmptyCore = false): boolean {
  return keepEmptyCore || entry.groundTruth.coreRegions.length > 0;
}

/** The scored part of a row: its first k regions, as the official runner slices them. */
export function topK(regions: readonly Region[], k: number): readonly Region[] {
  return regions.length > k ? regions.slice(0, k) : regions;
}

/** One row's metrics: official fields, then the extra budgets' fields. */
export function scoreRow(groundTruth: PreparedGroundTruth, regions: readonly Region[], k: number, extra: readonly number[]): MetricValues {
  const prepared = preparePredictions(groundTruth, topK(regions, k));
  const metrics: MetricValues = officialMetrics(prepared);
  for (const b of extra) {
    metrics[`ndcg_at_${b}`] = ndcgAt(prepared, b);
    metrics[`recall_at_${b}`] = recallAt(prepared, b);
  }
  return metrics;
}

/** Macro averages of one explorer over one repo's instances. */
export interface RepoSummary extends ExplorerSummary {
  readonly repo: string;
}

/**
 * Macro averages fed row by row, in scoring order: per explorer (explorers in order of first row)
 * and, given the rule for a row's repo, per explorer and repo (repos sorted within each explorer).
 * {@link summarise} and {@link summariseByRepo} are built on it, so a stream of rows that is never
 * kept (`score`'s output) averages exactly like the list of the same rows.
 */
export class Summariser {
  private readonly byExplorer = new Map<string, MacroSums>();
  private readonly byExplorerAndRepo = new Map<string, Map<string, MacroSums>>();

  constructor(
    private readonly fields: readonly string[],
    private readonly repoOf?: (instanceId: string) => string,
  ) {}

  add(row: ScoredRow): void {
    let sums = this.byExplorer.get(row.explorer);
    if (sums === undefined) this.byExplorer.set(row.explorer, (sums = new MacroSums(this.fields)));
    sums.add(row.metrics);
    if (this.repoOf === undefined) return;
    let byRepo = this.byExplorerAndRepo.get(row.explorer);
    if (byRepo === undefined) this.byExplorerAndRepo.set(row.explorer, (byRepo = new Map()));
    const repo = this.repoOf(row.instanceId);
    let repoSums = byRepo.get(repo);
    if (repoSums === undefined) byRepo.set(repo, (repoSums = new MacroSums(this.fields)));
    repoSums.add(row.metrics);
  }

  /** Per explorer, in order of first row. */
  summaries(): ExplorerSummary[] {
    const out: ExplorerSummary[] = [];
    for (const [explorer, sums] of this.byExplorer) out.push({ explorer, macro: sums.average(), instances: sums.count });
    return out;
  }

  /** Per explorer and repo (empty without a repo rule): explorers in order of first row, repos sorted within each. */
  repoSummaries(): RepoSummary[] {
    const out: RepoSummary[] = [];
    for (const [explorer, byRepo] of this.byExplorerAndRepo) {
      // Code-unit order, not locale order: the same output on every machine.
      const repos = [...byRepo.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const repo of repos) {
        const sums = byRepo.get(repo)!;
        out.push({ explorer, repo, macro: sums.average(), instances: sums.count });
      }
    }
    return out;
  }
}

/** Macro averages per explorer, explorers in order of first row. */
export function summarise(rows: readonly ScoredRow[], fields: readonly string[]): ExplorerSummary[] {
  const summariser = new Summariser(fields);
  for (const row of rows) summariser.add(row);
  return summariser.summaries();
}

/**
 * A row's repo: its instance's `repo` in the model (the record's, else derived from the id). Rows
 * come from `scoreRows`, which scores bench instances only; the id rule covers any other caller.
 */
export function repoRule(model: Pick<WorkspaceModel, 'instances'>): (instanceId: string) => string {
  return (instanceId) => model.instances.get(instanceId)?.repo ?? repoOfInstanceId(instanceId);
}

/**
 * Macro averages per explorer and repo: the numbers {@link summarise} gives when restricted to one
 * repo's rows (the same sums), so a repo breakdown never disagrees with the totals.
 * Explorers in order of first row, repos sorted within each explorer (see {@link repoRule}).
 */
export function summariseByRepo(rows: readonly ScoredRow[], model: WorkspaceModel, fields: readonly string[]): RepoSummary[] {
  const summariser = new Summariser(fields, repoRule(model));
  for (const row of rows) summariser.add(row);
  return summariser.repoSummaries();
}

/** What walking the rows found besides the rows themselves. */
export interface RowWalk {
  /** Rows for instances the bench does not contain (warnings, located at the row). */
  readonly problems: Problem[];
  /** Rows skipped because their instance's core is empty. */
  readonly skippedEmptyCore: number;
}

/** The warning for a row whose instance the bench does not contain (it is not scored). */
export function unknownInstance(row: { readonly file: string; readonly line: number }, instanceId: string): Problem {
  return { file: row.file, line: row.line, severity: 'warning', code: 'unknown-instance', message: `no bench record for instance ${JSON.stringify(instanceId)}; row not scored`, instanceId };
}

/**
 * The one rule for which rows are scored, shared by `score`, `misses` and the sidebar: every
 * explorer's rows in file order; a row for an instance the bench lacks is reported, an empty-core
 * instance skipped unless asked, and an instance without prepared ground truth (line counts not
 * read yet) left out silently.
 */
export function forEachScoredRow(
  model: WorkspaceModel,
  keepEmptyCore: boolean | undefined,
  groundTruthOf: (entry: InstanceEntry) => PreparedGroundTruth | undefined,
  visit: (label: string, instanceId: string, row: PredictionEntry, groundTruth: PreparedGroundTruth, entry: InstanceEntry) => void,
): RowWalk {
  const problems: Problem[] = [];
  let skippedEmptyCore = 0;
  for (const run of model.explorers.values()) {
    for (const [instanceId, row] of run.rows) {
      const entry = model.instances.get(instanceId);
      if (entry === undefined) {
        problems.push(unknownInstance(row, instanceId));
        continue;
      }
      if (!isScored(entry, keepEmptyCore)) {
        skippedEmptyCore++;
        continue;
      }
      const groundTruth = groundTruthOf(entry);
      if (groundTruth !== undefined) visit(run.label, instanceId, row, groundTruth, entry);
    }
  }
  return { problems, skippedEmptyCore };
}

/**
 * Scores every explorer's rows against prepared ground truth. `groundTruthOf` returns undefined
 * for an instance whose line counts are not known yet (the extension, while counting): its rows
 * are left out, so callers can say how many instances an average covers.
 */
export function scoreRows(model: WorkspaceModel, groundTruthOf: (entry: InstanceEntry) => PreparedGroundTruth | undefined, options: ScoringOptions): ScoreResult {
  const rows: ScoredRow[] = [];
  const totals = scoreEachRow(model, groundTruthOf, options, (row) => rows.push(row));
  return { rows, ...totals };
}

/**
 * {@link scoreRows} as a stream: each row goes to `visit` as it is scored and none is kept, so
 * memory does not grow with the rows (`score` writes them out as they come). With `repoOf`, the
 * macro averages per explorer and repo come too (see {@link Summariser}).
 */
export function scoreEachRow(
  model: WorkspaceModel,
  groundTruthOf: (entry: InstanceEntry) => PreparedGroundTruth | undefined,
  options: ScoringOptions,
  visit: (row: ScoredRow) => void,
  repoOf?: (instanceId: string) => string,
): ScoreTotals & { readonly repoSummaries: readonly RepoSummary[] } {
  const extra = extraBudgets(options.budgets ?? []);
  const fields = metricFields(options.budgets ?? []);
  const summariser = new Summariser(fields, repoOf);
  const { problems, skippedEmptyCore } = forEachScoredRow(model, options.keepEmptyCore, groundTruthOf, (label, instanceId, row, groundTruth) => {
    const scored: ScoredRow = { instanceId, explorer: label, metrics: scoreRow(groundTruth, row.regions, options.k, extra) };
    summariser.add(scored);
    visit(scored);
  });
  return { summaries: summariser.summaries(), repoSummaries: summariser.repoSummaries(), problems, fields, skippedEmptyCore };
}

/** Whether resolving the region reads its file's line count (metrics-spec §1). */
function needsLineCount(region: Region): boolean {
  return region.end === -1 || region.start < 0;
}

/** Instances whose line counts are read at once: each reads its files with its own bounded concurrency. */
const INSTANCES_IN_PARALLEL = 8;

/**
 * Line counts of one instance: its ground-truth-region paths (problems located at the bench
 * record), and under `snapshot` every explorer's prediction paths too (problems located at the
 * prediction row that names them). The official evaluator would ignore the rest anyway.
 */
async function countsFor(model: WorkspaceModel, entry: InstanceEntry, profile: Profile, cache: LineCountCache, alsoCount: Iterable<string>): Promise<InstanceLineCounts> {
  // Only a region with `end = -1` or a negative start reads its file's count: paths no such region
  // names are not counted at all (no disk access, no "snapshot missing" noise for explicit ranges).
  const needCount = new Set<string>();
  const gt = entry.groundTruth;
  for (const r of gt.coreRegions) if (needsLineCount(r)) needCount.add(r.path);
  for (const regions of Object.values(gt.optionalRegionsByModel)) for (const r of regions) if (needsLineCount(r)) needCount.add(r.path);
  for (const run of model.explorers.values()) for (const r of run.rows.get(entry.instanceId)?.regions ?? []) if (needsLineCount(r)) needCount.add(r.path);
  for (const p of alsoCount) needCount.add(p);
  const gtPaths = new Set<string>();
  for (const p of groundTruthPaths(gt)) if (needCount.has(p)) gtPaths.add(p);
  const result = await instanceLineCounts(model, entry, gtPaths, cache);
  if (profile !== 'snapshot') return result;
  const counts = new Map(result.counts);
  const problems = result.problems;
  const asked = new Set(groundTruthPaths(gt));
  for (const run of model.explorers.values()) {
    const row = run.rows.get(entry.instanceId);
    if (row === undefined) continue;
    const extra: string[] = [];
    for (const r of row.regions) {
      if (asked.has(r.path) || !needCount.has(r.path)) continue;
      asked.add(r.path);
      extra.push(r.path);
    }
    if (extra.length === 0) continue;
    const more = await instanceLineCounts(model, entry, extra, cache, { file: row.file, line: row.line });
    for (const [p, n] of more.counts) counts.set(p, n);
    for (const p of more.problems) problems.push(p);
  }
  return { counts, problems };
}

/**
 * Reads the line counts every scored row needs and scores the whole workspace, as the official
 * runner does: top-k, empty-core instances skipped unless asked, rows in prediction-file order.
 */
export async function scoreWorkspaceModel(model: WorkspaceModel, options: ScoringOptions, cache: LineCountCache): Promise<ScoreResult & { readonly lineCountProblems: readonly Problem[] }> {
  const { prepared, lineCountProblems } = await prepareScoredGroundTruths(model, options, cache);
  const result = scoreRows(model, (entry) => prepared.get(entry.instanceId), options);
  return { ...result, lineCountProblems };
}

/**
 * The prepared ground truth of every instance `scoreWorkspaceModel` scores, with the same line
 * counts. `alsoCount` names further ground-truth paths of an instance to count (a report that
 * resolves regions against them, such as `misses`); counting more changes no score, since only a
 * region that needs a count reads one and its path is counted anyway.
 */
export async function prepareScoredGroundTruths(
  model: WorkspaceModel,
  options: ScoringOptions,
  cache: LineCountCache,
  alsoCount: (entry: InstanceEntry) => Iterable<string> = () => [],
): Promise<{ readonly prepared: ReadonlyMap<string, PreparedGroundTruth>; readonly lineCountProblems: readonly Problem[] }> {
  const needed: InstanceEntry[] = [];
  const seen = new Set<string>();
  for (const run of model.explorers.values()) {
    for (const instanceId of run.rows.keys()) {
      const entry = model.instances.get(instanceId);
      if (entry === undefined || seen.has(instanceId) || !isScored(entry, options.keepEmptyCore)) continue;
      seen.add(instanceId);
      needed.push(entry);
    }
  }
  const counted = await mapWithConcurrency(needed, INSTANCES_IN_PARALLEL, (entry) => countsFor(model, entry, options.profile, cache, alsoCount(entry)));
  const prepared = new Map<string, PreparedGroundTruth>();
  const lineCountProblems: Problem[] = [];
  needed.forEach((entry, i) => {
    const { counts, problems } = counted[i]!;
    for (const p of problems) lineCountProblems.push(p);
    prepared.set(entry.instanceId, prepareGroundTruth(entry.groundTruth, counts as LineCounts, options.profile));
  });
  return { prepared, lineCountProblems };
}
