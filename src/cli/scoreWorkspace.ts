import * as path from 'node:path';
import {
  groundTruthRegionPaths,
  macroAverage,
  ndcgAt,
  OFFICIAL_BUDGETS,
  OFFICIAL_METRIC_NAMES,
  officialMetrics,
  prepareGroundTruth,
  preparePredictions,
  recallAt,
  type GroundTruth,
  type PreparedGroundTruth,
  type Profile,
  type Region,
} from '../core';
import { readBenchFile, readPredictionFile } from '../data/jsonl';
import { LINE_COUNT_FAILURE_CODES, LineCountCache, snapshotLineCounts } from '../data/lineCounts';
import { readLineCountsFile } from '../data/lineCountsFile';
import { locateSnapshot, RESOLVE_FAILURE_TEXT, type ResolveFailure } from '../data/paths';
import type { Problem, ProblemCode } from '../data/problems';
import { toGroundTruth, toRegions } from '../data/records';
import type { BenchRecord } from '../data/schemas';

const INSTANCES_IN_PARALLEL = 8;

/** How a refused or missing snapshot folder is reported (a missing folder is one problem, not one per file). */
const SNAPSHOT_FAILURE_CODES: Readonly<Record<ResolveFailure, ProblemCode>> = { ...LINE_COUNT_FAILURE_CODES, missing: 'missing-snapshot' };

export interface ScoreOptions {
  readonly benchFile: string;
  readonly predictionFiles: readonly string[];
  /** Folder `repo_dir` is resolved against; default: the bench file's folder. */
  readonly reposRoot?: string;
  /** `{instance_id: {path: count}}`; when given, snapshots are not read. */
  readonly lineCountsFile?: string;
  readonly profile: Profile;
  readonly k: number;
  /** Extra budgets besides the official 100/300/500 (their nDCG/Recall fields are appended). */
  readonly budgets: readonly number[];
  readonly keepEmptyCore: boolean;
}

/** Official metric fields plus `ndcg_at_B` / `recall_at_B` for any extra budget. */
export type MetricValues = Record<string, number>;

export interface ScoredRow {
  readonly instanceId: string;
  readonly explorer: string;
  readonly metrics: MetricValues;
}

export interface ExplorerSummary {
  readonly explorer: string;
  readonly macro: MetricValues;
  readonly instances: number;
}

export interface ScoreResult {
  readonly rows: readonly ScoredRow[];
  readonly summaries: readonly ExplorerSummary[];
  readonly problems: readonly Problem[];
  /** Metric field names, in output order. */
  readonly fields: readonly string[];
  /** Instances skipped because their core is empty (the official runner's default). */
  readonly skippedEmptyCore: number;
}

/** Budgets that need fields of their own (the official three are already in the 17). */
export function extraBudgets(budgets: readonly number[]): number[] {
  const official = new Set<number>(OFFICIAL_BUDGETS);
  return [...new Set(budgets)].filter((b) => !official.has(b));
}

/**
 * Scores every prediction row against the bench, like the official runner: predictions sliced to
 * the top k, instances with an empty core skipped unless asked, line counts only for ground-truth-
 * region paths under the `official` profile. Rows keep the prediction files' order.
 */
export async function scoreWorkspace(options: ScoreOptions): Promise<ScoreResult> {
  const bench = await readBenchFile(options.benchFile);
  const problems: Problem[] = [...bench.problems];
  const records = new Map<string, BenchEntry>();
  for (const { value, line } of bench.items) {
    if (!records.has(value.instance_id)) records.set(value.instance_id, { record: value, line, groundTruth: toGroundTruth(value) });
  }

  const precomputed = options.lineCountsFile === undefined ? undefined : await readLineCountsFile(options.lineCountsFile);
  if (precomputed !== undefined) problems.push(...precomputed.problems);
  const reposRoot = options.reposRoot ?? path.dirname(options.benchFile);
  const cache = new LineCountCache();

  // Read every row first, so that each instance's line counts and ground truth are prepared once
  // for all explorers; rows are then scored and printed in the prediction files' order.
  const rowsToScore: { instanceId: string; explorer: string; predictions: Region[] }[] = [];
  let skippedEmptyCore = 0;
  for (const file of options.predictionFiles) {
    const read = await readPredictionFile(file);
    problems.push(...read.problems);
    for (const { value: row, line } of read.items) {
      const entry = records.get(row.instance_id);
      if (entry === undefined) {
        problems.push({ file, line, severity: 'warning', code: 'unknown-instance', message: `no bench record for instance ${row.instance_id}; row not scored`, instanceId: row.instance_id });
        continue;
      }
      if (entry.groundTruth.coreRegions.length === 0 && !options.keepEmptyCore) {
        skippedEmptyCore++;
        continue;
      }
      rowsToScore.push({ instanceId: row.instance_id, explorer: row.explorer, predictions: toRegions(row.regions).slice(0, options.k) });
    }
  }

  const predictionPaths = new Map<string, Set<string>>();
  for (const row of rowsToScore) {
    let paths = predictionPaths.get(row.instanceId);
    if (paths === undefined) predictionPaths.set(row.instanceId, (paths = new Set()));
    for (const region of row.predictions) paths.add(region.path);
  }
  const preparedGroundTruth = new Map<string, PreparedGroundTruth>();
  const pending = [...predictionPaths];
  // A few instances at a time: each reads its files with its own bounded concurrency, and
  // thousands of simultaneous opens would exhaust file descriptors.
  const worker = async (): Promise<void> => {
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [instanceId, paths] = next;
      const entry = records.get(instanceId)!;
      const counts = await lineCountsFor(entry, paths);
      preparedGroundTruth.set(instanceId, prepareGroundTruth(entry.groundTruth, counts, options.profile));
    }
  };
  await Promise.all(Array.from({ length: INSTANCES_IN_PARALLEL }, worker));

  const extra = extraBudgets(options.budgets);
  const fields = [...OFFICIAL_METRIC_NAMES, ...extra.flatMap((b) => [`ndcg_at_${b}`, `recall_at_${b}`])];
  const rows: ScoredRow[] = rowsToScore.map(({ instanceId, explorer, predictions }) => {
    const prepared = preparePredictions(preparedGroundTruth.get(instanceId)!, predictions);
    const metrics: MetricValues = { ...officialMetrics(prepared) };
    for (const b of extra) {
      metrics[`ndcg_at_${b}`] = ndcgAt(prepared, b);
      metrics[`recall_at_${b}`] = recallAt(prepared, b);
    }
    return { instanceId, explorer, metrics };
  });

  return { rows, summaries: summarise(rows, fields), problems, fields, skippedEmptyCore };

  /**
   * Under `official` only ground-truth-region paths are counted (the evaluator would ignore the
   * rest anyway, and counting fewer files is faster); under `snapshot` every explorer's prediction
   * paths too.
   */
  async function lineCountsFor(entry: BenchEntry, paths: ReadonlySet<string>): Promise<ReadonlyMap<string, number>> {
    const id = entry.record.instance_id;
    if (precomputed !== undefined) return precomputed.counts.get(id) ?? new Map();
    const wanted = groundTruthRegionPaths(entry.groundTruth);
    if (options.profile === 'snapshot') for (const p of paths) wanted.add(p);
    // The same rule as `validate`: a refused or missing repo_dir means no counts (validate reports why).
    const snapshot = await locateSnapshot(reposRoot, id, entry.record.repo_dir);
    if (!snapshot.ok) {
      const code = SNAPSHOT_FAILURE_CODES[snapshot.reason];
      const severity = code === 'missing-snapshot' || code === 'not-a-file' ? 'warning' : 'error';
      problems.push({ file: options.benchFile, line: entry.line, severity, code, message: `snapshot of ${id} not used: repo_dir ${RESOLVE_FAILURE_TEXT[snapshot.reason]}`, instanceId: id });
      return new Map();
    }
    const counted = await snapshotLineCounts(snapshot.absolute, wanted, { cache, location: { file: options.benchFile, line: entry.line, instanceId: id } });
    problems.push(...counted.problems);
    return counted.counts;
  }
}

interface BenchEntry {
  readonly record: BenchRecord;
  readonly line: number;
  readonly groundTruth: GroundTruth;
}

function summarise(rows: readonly ScoredRow[], fields: readonly string[]): ExplorerSummary[] {
  const byExplorer = new Map<string, MetricValues[]>();
  for (const row of rows) {
    const list = byExplorer.get(row.explorer) ?? [];
    list.push(row.metrics);
    byExplorer.set(row.explorer, list);
  }
  return [...byExplorer].map(([explorer, list]) => ({ explorer, macro: macroAverage(list, fields), instances: list.length }));
}
