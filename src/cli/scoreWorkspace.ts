import * as path from 'node:path';
import {
  groundTruthRegionPaths,
  macroAverage,
  ndcgAt,
  OFFICIAL_BUDGETS,
  officialMetrics,
  prepareInstance,
  recallAt,
  type OfficialMetrics,
  type Profile,
} from '../core';
import { readBenchFile, readPredictionFile } from '../data/jsonl';
import { LineCountCache, snapshotLineCounts } from '../data/lineCounts';
import { readLineCountsFile } from '../data/lineCountsFile';
import type { Problem } from '../data/problems';
import { toGroundTruth, toRegions, type BenchRecord } from '../data/schemas';

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
  const records = new Map<string, { record: BenchRecord; line: number }>();
  for (const { value, line } of bench.items) if (!records.has(value.instance_id)) records.set(value.instance_id, { record: value, line });

  const precomputed = options.lineCountsFile === undefined ? undefined : await readLineCountsFile(options.lineCountsFile);
  if (precomputed !== undefined) problems.push(...precomputed.problems);
  const reposRoot = options.reposRoot ?? path.dirname(options.benchFile);
  const cache = new LineCountCache();
  const countsByInstance = new Map<string, Promise<ReadonlyMap<string, number>>>();

  const extra = extraBudgets(options.budgets);
  const fields = [...Object.keys(emptyOfficial()), ...extra.flatMap((b) => [`ndcg_at_${b}`, `recall_at_${b}`])];
  const rows: ScoredRow[] = [];
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
      const groundTruth = toGroundTruth(entry.record);
      if (groundTruth.coreRegions.length === 0 && !options.keepEmptyCore) {
        skippedEmptyCore++;
        continue;
      }
      const predictions = toRegions(row.regions).slice(0, options.k);
      // Under `snapshot` the counted paths depend on the explorer's predictions.
      const countsKey = options.profile === 'snapshot' ? `${row.instance_id}\u0000${row.explorer}` : row.instance_id;
      let counts = countsByInstance.get(countsKey);
      if (counts === undefined) {
        counts = lineCountsFor(entry.record, entry.line, predictions.map((p) => p.path));
        countsByInstance.set(countsKey, counts);
      }
      const prepared = prepareInstance(groundTruth, predictions, await counts, options.profile);
      const metrics: MetricValues = { ...officialMetrics(prepared) };
      for (const b of extra) {
        metrics[`ndcg_at_${b}`] = ndcgAt(prepared, b);
        metrics[`recall_at_${b}`] = recallAt(prepared, b);
      }
      rows.push({ instanceId: row.instance_id, explorer: row.explorer, metrics });
    }
  }

  return { rows, summaries: summarise(rows, fields), problems, fields, skippedEmptyCore };

  /**
   * Under `official` only ground-truth-region paths are counted (the evaluator would ignore the
   * rest anyway, and counting fewer files is faster); under `snapshot` prediction paths too.
   */
  async function lineCountsFor(record: BenchRecord, line: number, predictionPaths: readonly string[]): Promise<ReadonlyMap<string, number>> {
    const given = precomputed?.counts.get(record.instance_id);
    if (given !== undefined) return given;
    if (precomputed !== undefined) return new Map();
    const paths = groundTruthRegionPaths(toGroundTruth(record));
    if (options.profile === 'snapshot') for (const p of predictionPaths) paths.add(p);
    const root = path.resolve(reposRoot, record.repo_dir ?? path.join('repos', record.instance_id));
    const counted = await snapshotLineCounts(root, paths, { cache, location: { file: options.benchFile, line, instanceId: record.instance_id } });
    problems.push(...counted.problems);
    return counted.counts;
  }
}

function emptyOfficial(): OfficialMetrics {
  return macroAverage([]);
}

function summarise(rows: readonly ScoredRow[], fields: readonly string[]): ExplorerSummary[] {
  const byExplorer = new Map<string, ScoredRow[]>();
  for (const row of rows) {
    const list = byExplorer.get(row.explorer) ?? [];
    list.push(row);
    byExplorer.set(row.explorer, list);
  }
  return [...byExplorer].map(([explorer, list]) => {
    const macro: MetricValues = {};
    for (const field of fields) {
      let sum = 0;
      for (const row of list) sum += row.metrics[field] ?? 0;
      macro[field] = sum / list.length;
    }
    return { explorer, macro, instances: list.length };
  });
}
