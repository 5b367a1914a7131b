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
import { resolveRegion } from '../core/resolve';
import type { LineCounts, Region } from '../core/types';
import { readBenchFile, readPredictionFile, type JsonlItem, type JsonlResult, type PredictionReadOptions } from './jsonl';
import { locateJsonPath } from './jsonScan';
import { LINE_COUNT_FAILURE_CODES, LineCountCache, snapshotLineCounts, type LineCountFailure } from './lineCounts';
import { readLineCountsFile } from './lineCountsFile';
import { RESOLVE_FAILURE_TEXT, lexicalFailure, locateSnapshot } from './paths';
import { sortProblems, type Problem, type ProblemCode, type Severity } from './problems';
import type { BenchRecord, PredictionRow } from './schemas';

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

function mergeLineCounts(
  fromFile: ReadonlyMap<string, LineCounts> | undefined,
  given: ReadonlyMap<string, LineCounts> | undefined,
): ReadonlyMap<string, LineCounts> | undefined {
  if (fromFile === undefined || given === undefined) return given ?? fromFile;
  const merged = new Map<string, LineCounts>(fromFile);
  for (const [id, counts] of given) merged.set(id, new Map([...(fromFile.get(id) ?? []), ...counts]));
  return merged;
}

/** A region to check, with where it sits in its record. */
interface RegionRef {
  readonly region: Region;
  readonly jsonPath: readonly PropertyKey[];
  /** How the message names it: `core region #2`, `prediction #3`, … */
  readonly label: string;
}

/** A record being checked: where it is, what it references. */
interface RecordRef {
  readonly file: string;
  readonly item: JsonlItem<unknown>;
  readonly instanceId: string;
  readonly regions: readonly RegionRef[];
  /** Paths referenced outside regions (core files), with their JSON location. */
  readonly otherPaths: ReadonlyArray<{ readonly path: string; readonly jsonPath: readonly PropertyKey[] }>;
}

function describeRegion(r: Region): string {
  return `(${JSON.stringify(r.path)}, ${r.start}, ${r.end})`;
}

function benchRef(file: string, item: JsonlItem<BenchRecord>): RecordRef {
  const gt = item.value.ground_truth;
  const regions: RegionRef[] = gt.read_core_regions.map((r, i) => ({
    region: r,
    jsonPath: ['ground_truth', 'read_core_regions', i],
    label: `core region #${i + 1}`,
  }));
  for (const [model, list] of Object.entries(gt.read_optional_regions_map)) {
    list.forEach((r, i) =>
      regions.push({ region: r, jsonPath: ['ground_truth', 'read_optional_regions_map', model, i], label: `optional region #${i + 1} of ${model}` }),
    );
  }
  const otherPaths = gt.read_core_files.map((p, i) => ({ path: p, jsonPath: ['ground_truth', 'read_core_files', i] }));
  return { file, item, instanceId: item.value.instance_id, regions, otherPaths };
}

function predictionRef(file: string, item: JsonlItem<PredictionRow>): RecordRef {
  return {
    file,
    item,
    instanceId: item.value.instance_id,
    regions: item.value.regions.map((r, i) => ({ region: r, jsonPath: ['regions', i], label: `prediction #${i + 1}` })),
    otherPaths: [],
  };
}

/** Collects problems of one record with consistent location and instance id. */
class Reporter {
  readonly problems: Problem[] = [];

  constructor(private readonly ref: RecordRef) {}

  add(severity: Severity, code: ProblemCode, message: string, jsonPath: readonly PropertyKey[] = []): void {
    const offset = locateJsonPath(this.ref.item.raw, jsonPath);
    this.problems.push({
      file: this.ref.file,
      line: this.ref.item.line,
      ...(offset !== undefined ? { column: offset + 1 } : {}),
      severity,
      code,
      message,
      instanceId: this.ref.instanceId,
    });
  }
}


/** Escapes are refused for safety (errors); a missing or unreadable file is a reported condition. */
function failureSeverity(failure: LineCountFailure): Severity {
  return failure === 'absolute' || failure === 'escapes-root' || failure === 'symlink-escape' ? 'error' : 'warning';
}

function failureText(failure: LineCountFailure): string {
  return failure === 'read-error' ? 'could not be read' : RESOLVE_FAILURE_TEXT[failure];
}

/** What is known about an instance's snapshot after looking at it. */
interface SnapshotState {
  readonly counts: ReadonlyMap<string, number>;
  readonly failures: ReadonlyMap<string, LineCountFailure>;
  /** False when no snapshot was consulted (root disabled or folder missing). */
  readonly available: boolean;
}

/** Shape checks plus, where a line count is known, EOF and resolution checks of one region. */
function checkRegion(rep: Reporter, ref: RegionRef, snapshot: SnapshotState): void {
  const { region, jsonPath, label } = ref;
  const { start, end } = region;
  const needsCount = end === -1 || start < 0;
  if (!needsCount && end < 1) {
    rep.add(
      'warning',
      'unresolvable-region',
      `${label} ${describeRegion(region)}: end ${end} is not a line (only -1 means "to the end of the file"); the evaluator resolves it to no lines`,
      jsonPath,
    );
    return;
  }
  const lines = snapshot.counts.get(region.path);
  if (!needsCount) {
    if (start > end) {
      rep.add('warning', 'inverted-region', `${label} ${describeRegion(region)} has start > end and covers no line`, jsonPath);
    } else if (lines !== undefined && end > lines) {
      rep.add(
        'warning',
        'region-past-eof',
        `${label} ${describeRegion(region)} ends past the last line (${lines}) of the file; the evaluator does not clip it, so ${end - Math.max(lines, Math.max(1, start) - 1)} line(s) beyond EOF count`,
        jsonPath,
      );
    }
    return;
  }
  if (lines === undefined) return; // no count: either no snapshot, or the missing file is reported already
  const resolution = resolveRegion(region, lines);
  if (resolution.kind === 'unresolvable') {
    rep.add('warning', 'unresolvable-region', `${label} ${describeRegion(region)} needs the line count, but the file is empty; it resolves to no lines`, jsonPath);
  } else if (resolution.start > resolution.end) {
    rep.add(
      'warning',
      'inverted-region',
      `${label} ${describeRegion(region)} resolves to (${resolution.start}, ${resolution.end}) on a ${lines}-line file and covers no line`,
      jsonPath,
    );
  }
}

/** Lexical path checks of a record; returns the paths that are safe to look up. */
function checkPaths(rep: Reporter, ref: RecordRef): Set<string> {
  const safe = new Set<string>();
  const reported = new Set<string>();
  const visit = (p: string, jsonPath: readonly PropertyKey[]): void => {
    const failure = lexicalFailure(p);
    if (failure === undefined) {
      safe.add(p);
      return;
    }
    if (reported.has(p)) return;
    reported.add(p);
    rep.add(
      failureSeverity(failure),
      LINE_COUNT_FAILURE_CODES[failure],
      `path ${JSON.stringify(p)} ${RESOLVE_FAILURE_TEXT[failure]}; it is never read from the snapshot`,
      jsonPath,
    );
  };
  for (const r of ref.regions) visit(r.region.path, [...r.jsonPath, 'path']);
  for (const o of ref.otherPaths) visit(o.path, o.jsonPath);
  return safe;
}

/** Reports each snapshot failure of a path the record references, once per record. */
function reportSnapshotFailures(rep: Reporter, ref: RecordRef, snapshot: SnapshotState): void {
  const seen = new Set<string>();
  const visit = (p: string, jsonPath: readonly PropertyKey[]): void => {
    const failure = snapshot.failures.get(p);
    if (failure === undefined || seen.has(p)) return;
    seen.add(p);
    rep.add(failureSeverity(failure), LINE_COUNT_FAILURE_CODES[failure], `file ${JSON.stringify(p)} ${failureText(failure)}`, jsonPath);
  };
  for (const r of ref.regions) visit(r.region.path, [...r.jsonPath, 'path']);
  for (const o of ref.otherPaths) visit(o.path, o.jsonPath);
}

function checkBenchOnly(rep: Reporter, record: BenchRecord): void {
  const gt = record.ground_truth;
  const corePaths = new Set(gt.read_core_regions.map((r) => r.path));
  gt.read_core_files.forEach((p, i) => {
    if (!corePaths.has(p)) {
      rep.add('warning', 'core-file-without-region', `core file ${JSON.stringify(p)} has no core region`, ['ground_truth', 'read_core_files', i]);
    }
  });
}

function checkPredictionOnly(rep: Reporter, row: PredictionRow, known: boolean): void {
  if (!known) {
    rep.add('warning', 'unknown-instance', `prediction for instance ${JSON.stringify(row.instance_id)}, which the bench file does not contain`, ['instance_id']);
  }
  if (row.num_regions !== undefined && row.num_regions !== null && row.num_regions !== row.regions.length) {
    rep.add('warning', 'num-regions-mismatch', `num_regions is ${row.num_regions} but the row lists ${row.regions.length} region(s)`, ['num_regions']);
  }
  const first = new Map<string, number>();
  row.regions.forEach((r, i) => {
    const key = JSON.stringify([r.path, r.start, r.end]);
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, i);
      return;
    }
    rep.add(
      'warning',
      'duplicate-prediction',
      `prediction #${i + 1} ${describeRegion(r)} repeats prediction #${earlier + 1}; it adds no line but still takes a rank and budget`,
      ['regions', i],
    );
  });
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
  const result = await snapshotLineCounts(dir.absolute, rest, { cache });
  for (const [p, n] of result.counts) counts.set(p, n);
  return { counts, failures: result.failures, available: true };
}

/**
 * Checks loaded data (without re-reading the data files). Returns only the problems found here,
 * not the parse problems of the files; sorted like {@link validateWorkspace}.
 */
export async function validateData(data: LoadedData): Promise<Problem[]> {
  const cache = data.cache ?? new LineCountCache();
  const byInstance = new Map<string, JsonlItem<BenchRecord>>();
  for (const item of data.bench) if (!byInstance.has(item.value.instance_id)) byInstance.set(item.value.instance_id, item);

  // Group prediction rows by instance so each snapshot is visited once.
  const rowsByInstance = new Map<string, RecordRef[]>();
  const problems: Problem[] = [];
  for (const { file, rows } of data.predictions) {
    for (const item of rows) {
      const ref = predictionRef(file, item);
      const rep = new Reporter(ref);
      checkPredictionOnly(rep, item.value, byInstance.has(ref.instanceId));
      problems.push(...rep.problems);
      const list = rowsByInstance.get(ref.instanceId);
      if (list === undefined) rowsByInstance.set(ref.instanceId, [ref]);
      else list.push(ref);
    }
  }

  const checkInstance = async (instanceId: string): Promise<Problem[]> => {
    const benchItem = byInstance.get(instanceId);
    const refs: RecordRef[] = [];
    if (benchItem !== undefined) refs.push(benchRef(data.benchFile, benchItem));
    refs.push(...(rowsByInstance.get(instanceId) ?? []));
    const reporters = refs.map((ref) => new Reporter(ref));
    const safePaths = new Set<string>();
    refs.forEach((ref, k) => {
      for (const p of checkPaths(reporters[k]!, ref)) safePaths.add(p);
    });
    if (benchItem !== undefined) checkBenchOnly(reporters[0]!, benchItem.value);
    // Predictions for unknown instances have no snapshot to check against.
    const snapshot: SnapshotState =
      benchItem === undefined
        ? { counts: new Map(), failures: new Map(), available: false }
        : await lookAtSnapshot(data, instanceId, benchItem.value.repo_dir, safePaths, cache, reporters[0]);
    refs.forEach((ref, k) => {
      const rep = reporters[k]!;
      if (snapshot.available) reportSnapshotFailures(rep, ref, snapshot);
      for (const r of ref.regions) checkRegion(rep, r, snapshot);
    });
    return reporters.flatMap((r) => r.problems);
  };

  const instances = [...new Set([...byInstance.keys(), ...rowsByInstance.keys()])];
  const results: Problem[][] = new Array<Problem[]>(instances.length);
  let next = 0;
  // A few instances at once: snapshot reads overlap, file descriptors stay bounded.
  const worker = async (): Promise<void> => {
    while (next < instances.length) {
      const k = next++;
      results[k] = await checkInstance(instances[k]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, instances.length) }, worker));
  return sortProblems([...problems, ...results.flat()], [data.benchFile, ...data.predictions.map((p) => p.file)]);
}
