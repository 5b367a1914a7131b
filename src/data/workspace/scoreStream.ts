/**
 * `score` as a stream: every prediction row is scored as it is read and only its numbers are kept,
 * in typed arrays, until the explorer labels are known. At benchmark scale (848 × 20 rows) holding
 * the workspace model's rows cost more in garbage collection than scoring them.
 *
 * It gives exactly what scoring the workspace model gives — same rows in the same order, same
 * labels, averages and problems — and is only taken when nothing the model path would look up can
 * differ: the official profile, no transcript folders, and a line count for every ground-truth
 * region path of every record, so that no snapshot is read and no line-count problem can arise.
 * (The model path then counts, per instance, only the paths some region needs; counting every
 * ground-truth-region path instead changes no number, since a count is only read by a region that
 * needs it.) Otherwise, or when two runs would share a label, it declines and the caller scores
 * through the model.
 */
import * as path from 'node:path';
import { prepareGroundTruth, type PreparedGroundTruth, type Region } from '../../core';
import { streamPredictionFile } from '../formats/predictionFile';
import type { Problem } from '../io/problems';
import {
  extraBudgets,
  isScored,
  metricFields,
  repoRule,
  scoreRow,
  Summariser,
  unknownInstance,
  type MetricValues,
  type RepoSummary,
  type ScoredRow,
  type ScoreTotals,
  type ScoringOptions,
} from './scoring';
import { explorerLabel, type BenchSide, type WorkspaceSources } from './workspace';

/** One explorer name's rows in one prediction file: the run it becomes when labels are unique. */
class StreamedRun {
  /** Instance ids of the scored rows, in file order. */
  readonly instanceIds: string[] = [];
  /** Their metrics, `fields.length` numbers per row, in field order. */
  private values: Float64Array;
  readonly problems: Problem[] = [];
  skippedEmptyCore = 0;

  constructor(
    readonly file: string,
    readonly name: string,
    private readonly fields: readonly string[],
  ) {
    this.values = new Float64Array(256 * fields.length);
  }

  add(instanceId: string, metrics: MetricValues): void {
    const width = this.fields.length;
    const at = this.instanceIds.length * width;
    if (at + width > this.values.length) {
      const grown = new Float64Array(2 * this.values.length);
      grown.set(this.values);
      this.values = grown;
    }
    for (let f = 0; f < width; f++) this.values[at + f] = metrics[this.fields[f]!]!;
    this.instanceIds.push(instanceId);
  }

  /** The metrics of row `index` as scoring gave them. */
  metrics(index: number): MetricValues {
    const width = this.fields.length;
    const out: MetricValues = {};
    for (let f = 0; f < width; f++) out[this.fields[f]!] = this.values[index * width + f]!;
    return out;
  }
}

/** Whether nothing the model path would look up can differ from what the stream uses (see the module comment). */
function canStream(bench: BenchSide, sources: WorkspaceSources, options: ScoringOptions): boolean {
  if (options.profile !== 'official' || (sources.transcriptFolders ?? []).length > 0) return false;
  const counts = bench.lineCounts?.counts;
  if (counts === undefined) return false;
  const counted = (known: ReadonlyMap<string, number> | undefined, regions: readonly Region[]): boolean => {
    for (const r of regions) if (known?.has(r.path) !== true) return false;
    return true;
  };
  for (const entry of bench.instances.values()) {
    const known = counts.get(entry.instanceId);
    const gt = entry.groundTruth;
    if (!counted(known, gt.coreRegions)) return false;
    for (const model in gt.optionalRegionsByModel) if (!counted(known, gt.optionalRegionsByModel[model]!)) return false;
  }
  return true;
}

/**
 * Scores the prediction files of `sources` against `bench` as they are read, then hands every
 * row to `visit` in the workspace model's order (explorers in order of first row, rows in file
 * order); when `visit` returns a promise (its output is backed up), the next row waits for it.
 * Problems: the bench's, each prediction file's, the line-counts file's, then the rows'.
 * `undefined` when the workspace does not qualify (see the module comment): score it through the
 * model instead.
 */
export async function scoreStreamed(
  bench: BenchSide,
  sources: WorkspaceSources,
  options: ScoringOptions,
  visit: (row: ScoredRow) => void | Promise<void>,
  byRepo = false,
): Promise<(ScoreTotals & { readonly repoSummaries: readonly RepoSummary[] }) | undefined> {
  if (!canStream(bench, sources, options)) return undefined;
  const counts = bench.lineCounts!.counts;
  const noCounts: ReadonlyMap<string, number> = new Map();
  const extra = extraBudgets(options.budgets ?? []);
  const fields = metricFields(options.budgets ?? []);
  const prepared = new Map<string, PreparedGroundTruth>();
  const runs: StreamedRun[] = [];
  const readProblems: Problem[] = [];
  for (const p of bench.problems) readProblems.push(p);
  for (const file of sources.predictionFiles) {
    sources.signal?.throwIfAborted();
    const runOfName = new Map<string, StreamedRun>();
    const fileProblems = await streamPredictionFile(file, sources.predictionOptions ?? {}, ({ line, value }) => {
      let run = runOfName.get(value.explorer);
      if (run === undefined) {
        runOfName.set(value.explorer, (run = new StreamedRun(file, value.explorer, fields)));
        runs.push(run);
      }
      const entry = bench.instances.get(value.instance_id);
      if (entry === undefined) {
        run.problems.push(unknownInstance({ file, line }, value.instance_id));
        return;
      }
      if (!isScored(entry, options.keepEmptyCore)) {
        run.skippedEmptyCore++;
        return;
      }
      let groundTruth = prepared.get(entry.instanceId);
      if (groundTruth === undefined) prepared.set(entry.instanceId, (groundTruth = prepareGroundTruth(entry.groundTruth, counts.get(entry.instanceId) ?? noCounts, 'official')));
      // The row's own region objects: the core reads only their path, start and end, and nothing
      // of them outlives this call.
      run.add(entry.instanceId, scoreRow(groundTruth, value.regions, options.k, extra));
    });
    for (const p of fileProblems) readProblems.push(p);
  }
  for (const p of bench.lineCounts!.problems) readProblems.push(p);

  // The explorer rule needs every file's names; two runs under one label are merged by the model
  // path (first row per instance wins), so that rare case is left to it.
  const filesByName = new Map<string, Set<string>>();
  for (const run of runs) {
    let files = filesByName.get(run.name);
    if (files === undefined) filesByName.set(run.name, (files = new Set()));
    files.add(run.file);
  }
  const benchDir = path.dirname(sources.benchFile);
  const labels = runs.map((run) => explorerLabel(run.name, run.file, filesByName, benchDir));
  if (new Set(labels).size !== labels.length) return undefined;

  const summariser = new Summariser(fields, byRepo ? repoRule(bench) : undefined);
  const rowProblems: Problem[] = [];
  let skippedEmptyCore = 0;
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r]!;
    for (let i = 0; i < run.instanceIds.length; i++) {
      const row: ScoredRow = { instanceId: run.instanceIds[i]!, explorer: labels[r]!, metrics: run.metrics(i) };
      summariser.add(row);
      const wait = visit(row);
      if (wait !== undefined) await wait;
    }
    for (const p of run.problems) rowProblems.push(p);
    skippedEmptyCore += run.skippedEmptyCore;
  }
  return { summaries: summariser.summaries(), repoSummaries: summariser.repoSummaries(), problems: readProblems.concat(rowProblems), fields, skippedEmptyCore };
}
