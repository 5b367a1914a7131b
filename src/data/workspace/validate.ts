/**
 * Workspace validation: everything the CLI `validate` command and the Problems panel report.
 *
 * Errors are data the tools cannot use as intended (malformed JSON, schema violations, duplicate
 * instance ids, paths escaping the snapshot). Warnings are conditions the evaluator tolerates but
 * that change or explain scores (inverted or unresolvable regions, regions past EOF, missing
 * snapshots or files, predictions for unknown instances, duplicate predictions). Nothing is
 * repaired: records load as they are, and each problem is located at the JSONL line (and, where
 * possible, the column) of the record it concerns.
 */
import * as path from 'node:path';
import type { LineCounts } from '../../core/types';
import { readBenchFile, readPredictionFile, type JsonlItem, type JsonlResult, type PredictionReadOptions } from '../formats/jsonl';
import { mapWithConcurrency } from '../io/concurrency';
import { createYielder } from '../io/cooperative';
import { LINE_COUNT_FAILURE_CODES, LineCountCache, snapshotLineCounts } from './lineCounts';
import { readLineCountsFile } from '../formats/lineCountsFile';
import { RESOLVE_FAILURE_TEXT, locateSnapshot } from '../io/paths';
import { sortProblems, type Problem } from '../io/problems';
import {
  benchRef,
  checkBenchOnly,
  checkPaths,
  checkPredictionOnly,
  checkRegion,
  forEachPausing,
  predictionRef,
  reportSnapshotFailures,
  Reporter,
  type RecordRef,
  type SnapshotState,
} from './recordChecks';
import type { BenchRecord, PredictionRow } from '../formats/schemas';

export interface ValidateOptions {
  readonly benchFile: string;
  readonly predictionFiles?: readonly string[];
  /**
   * Folder that records' `repo_dir` resolves against. Default: the folder holding the bench file
   * (design §2). `null` skips every snapshot check (no file system access beyond the data files).
   */
  readonly reposRoot?: string | null;
  /**
   * Line counts already known, per instance id then path (e.g. from a cache or a
   * `line_counts.json`). They take precedence; the snapshot is read only for other paths.
   */
  readonly lineCounts?: ReadonlyMap<string, LineCounts>;
  /**
   * A `line_counts.json` file (`{instance_id: {path: count}}`); its problems are reported, and its
   * counts are used like `lineCounts` (entries of `lineCounts` win where both name a path).
   */
  readonly lineCountsFile?: string;
  /** Reused across runs (the extension keeps one); default: a fresh cache. */
  readonly cache?: LineCountCache;
  /** How plain-text agent answers among the prediction files are read. */
  readonly predictionOptions?: PredictionReadOptions;
}

/** Loaded data to check, for callers that already hold it (the extension's store). */
export interface LoadedData {
  readonly benchFile: string;
  readonly bench: readonly JsonlItem<BenchRecord>[];
  readonly predictions: ReadonlyArray<{ readonly file: string; readonly rows: readonly JsonlItem<PredictionRow>[] }>;
  readonly reposRoot: string | null;
  readonly lineCounts?: ReadonlyMap<string, LineCounts>;
  readonly cache?: LineCountCache;
}

/**
 * Reads the bench file and every prediction file, and returns all problems — parse problems and
 * the checks of {@link validateData} — sorted by file (bench first), line and column.
 */
export async function validateWorkspace(options: ValidateOptions): Promise<Problem[]> {
  const bench = await readBenchFile(options.benchFile);
  const predictionFiles = options.predictionFiles ?? [];
  const predictions: Array<{ file: string; result: JsonlResult<PredictionRow> }> = [];
  for (const file of predictionFiles) {
    predictions.push({ file, result: await readPredictionFile(file, options.predictionOptions ?? {}) });
  }
  const countsFile = options.lineCountsFile !== undefined ? await readLineCountsFile(options.lineCountsFile) : undefined;
  const lineCounts = mergeLineCounts(countsFile?.counts, options.lineCounts);
  const checks = await validateData({
    benchFile: options.benchFile,
    bench: bench.items,
    predictions: predictions.map((p) => ({ file: p.file, rows: p.result.items })),
    reposRoot: options.reposRoot === undefined ? path.dirname(options.benchFile) : options.reposRoot,
    ...(lineCounts !== undefined ? { lineCounts } : {}),
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
  });
  return sortProblems(
    [...bench.problems, ...predictions.flatMap((p) => p.result.problems), ...(countsFile?.problems ?? []), ...checks],
    [options.benchFile, ...predictionFiles, ...(options.lineCountsFile !== undefined ? [options.lineCountsFile] : [])],
  );
}

function mergeLineCounts(fromFile: ReadonlyMap<string, LineCounts> | undefined, given: ReadonlyMap<string, LineCounts> | undefined): ReadonlyMap<string, LineCounts> | undefined {
  if (fromFile === undefined || given === undefined) return given ?? fromFile;
  const merged = new Map<string, LineCounts>(fromFile);
  for (const [id, counts] of given) merged.set(id, new Map([...(fromFile.get(id) ?? []), ...counts]));
  return merged;
}

async function lookAtSnapshot(
  data: LoadedData,
  instanceId: string,
  repoDir: string | null | undefined,
  paths: ReadonlySet<string>,
  cache: LineCountCache,
  rep: Reporter | undefined,
): Promise<SnapshotState> {
  const known = data.lineCounts?.get(instanceId);
  const counts = new Map<string, number>();
  if (known !== undefined) for (const p of paths) if (known.has(p)) counts.set(p, known.get(p)!);
  const rest = [...paths].filter((p) => !counts.has(p));
  if (data.reposRoot === null || (rest.length === 0 && known !== undefined)) {
    return { counts, failures: new Map(), available: false };
  }
  const dir = await locateSnapshot(data.reposRoot, instanceId, repoDir);
  if (!dir.ok) {
    const where = repoDir ?? `repos/${instanceId}`;
    if (dir.reason === 'missing') {
      rep?.add(
        'warning',
        'missing-snapshot',
        `snapshot folder ${JSON.stringify(where)} not found under ${data.reposRoot}; regions needing a line count (end -1, negative start) cannot be resolved`,
        repoDir !== undefined && repoDir !== null ? ['repo_dir'] : [],
      );
    } else {
      rep?.add('error', LINE_COUNT_FAILURE_CODES[dir.reason], `repo_dir ${JSON.stringify(where)} ${RESOLVE_FAILURE_TEXT[dir.reason]}; the snapshot is not read`, ['repo_dir']);
    }
    return { counts, failures: new Map(), available: false };
  }
  const result = await snapshotLineCounts(dir.real, rest, { cache });
  for (const [p, n] of result.counts) counts.set(p, n);
  return { counts, failures: result.failures, available: true };
}

/**
 * Checks loaded data (without re-reading the data files). Returns only the problems found here,
 * not the parse problems of the files; sorted like {@link validateWorkspace}.
 *
 * Cooperative: it yields to the event loop whenever it has run for `sliceMs` (default 10 ms), so
 * an extension host validating a large workspace keeps responding; the result does not depend on
 * it. Work is linear in the data: each record's line is indexed at most once to locate problems.
 */
export async function validateData(data: LoadedData, options: { readonly sliceMs?: number } = {}): Promise<Problem[]> {
  const cache = data.cache ?? new LineCountCache();
  const pause = createYielder(options.sliceMs ?? 10);
  const byInstance = new Map<string, JsonlItem<BenchRecord>>();
  for (const item of data.bench) if (!byInstance.has(item.value.instance_id)) byInstance.set(item.value.instance_id, item);

  // Group prediction rows by instance so each snapshot is visited once.
  const rowsByInstance = new Map<string, RecordRef[]>();
  const problems: Problem[] = [];
  for (const { file, rows } of data.predictions) {
    for (const item of rows) {
      const ref = predictionRef(file, item);
      const rep = new Reporter(ref);
      await checkPredictionOnly(rep, item.value, byInstance.has(ref.instanceId), pause);
      for (const p of rep.problems) problems.push(p);
      const list = rowsByInstance.get(ref.instanceId);
      if (list === undefined) rowsByInstance.set(ref.instanceId, [ref]);
      else list.push(ref);
      const waiting = pause();
      if (waiting !== undefined) await waiting;
    }
  }

  const checkInstance = async (instanceId: string): Promise<Problem[]> => {
    const benchItem = byInstance.get(instanceId);
    const refs: RecordRef[] = [];
    if (benchItem !== undefined) refs.push(benchRef(data.benchFile, benchItem));
    for (const ref of rowsByInstance.get(instanceId) ?? []) refs.push(ref);
    const reporters = refs.map((ref) => new Reporter(ref));
    const safePaths = new Set<string>();
    for (let k = 0; k < refs.length; k++) {
      for (const p of await checkPaths(reporters[k]!, refs[k]!, pause)) safePaths.add(p);
    }
    if (benchItem !== undefined) checkBenchOnly(reporters[0]!, benchItem.value);
    // Predictions for unknown instances have no snapshot to check against.
    const snapshot: SnapshotState =
      benchItem === undefined ? { counts: new Map(), failures: new Map(), available: false } : await lookAtSnapshot(data, instanceId, benchItem.value.repo_dir, safePaths, cache, reporters[0]);
    const found: Problem[] = [];
    for (let k = 0; k < refs.length; k++) {
      const rep = reporters[k]!;
      if (snapshot.available) await reportSnapshotFailures(rep, refs[k]!, snapshot, pause);
      await forEachPausing(refs[k]!.regions, pause, (r) => checkRegion(rep, r, snapshot));
      for (const p of rep.problems) found.push(p);
    }
    return found;
  };

  const instances = [...new Set([...byInstance.keys(), ...rowsByInstance.keys()])];
  // A few instances at once: snapshot reads overlap, file descriptors stay bounded.
  const results = await mapWithConcurrency(instances, 4, checkInstance);
  for (const list of results) for (const p of list) problems.push(p);
  return sortProblems(problems, [data.benchFile, ...data.predictions.map((p) => p.file)]);
}
