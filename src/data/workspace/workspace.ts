/**
 * The workspace model: one loader that turns a bench file, prediction files, a snapshot root and
 * an optional line-counts file into records, explorers with stable labels and located problems.
 * The CLI (`score`, `validate`, every later verb) and the extension both load through here, so
 * they cannot disagree on labels, line counts or numbers. The rules, stated once:
 *
 * - **Explorers.** A row's `explorer` field names its explorer. When one name occurs in more than
 *   one prediction file (a top-5 and a top-10 run), each file is its own explorer, labelled
 *   `name (file relative to the bench folder)`; rows of different files are never averaged together.
 * - **Line counts.** A line-counts file — the one given, else `line_counts.json` beside the bench
 *   when it exists — is used first for the paths it lists; paths it does not list are counted in
 *   the instance's snapshot. Under the `official` profile only ground-truth-region paths count
 *   (the core applies that rule whatever the map holds).
 * - **Snapshots.** `repo_dir` (default `repos/<instance_id>`) resolved against the repos root
 *   (default: the bench file's folder); a refused or missing folder gives no snapshot at all.
 */
import * as path from 'node:path';
import { stat } from 'node:fs/promises';
import type { GroundTruth, Region } from '../../core/types';
import { mapWithConcurrency } from '../io/concurrency';
import { nextTurn } from '../io/cooperative';
import { readBenchFile, readPredictionFile, type JsonlItem, type PredictionReadOptions } from '../formats/jsonl';
import { LINE_COUNT_FAILURE_CODES, lineCountFailureSeverity, snapshotLineCounts, type LineCountCache } from './lineCounts';
import { readLineCountsFile } from '../formats/lineCountsFile';
import { locateSnapshot, RESOLVE_FAILURE_TEXT, type ResolveFailure } from '../io/paths';
import { sortProblems, type Problem } from '../io/problems';
import { toGroundTruth, toRegions } from '../formats/records';
import { rowTokens } from '../formats/tokenUsage';
import { readTranscriptFolder, type TranscriptRun } from '../formats/transcripts';
import type { BenchRecord, PredictionRow } from '../formats/schemas';
import { validateData } from './validate';

/** The file picked up beside the bench when no line-counts file is named. */
export const DEFAULT_LINE_COUNTS_NAME = 'line_counts.json';

export interface WorkspaceSources {
  readonly benchFile: string;
  /** Prediction files in the order explorers should be listed. */
  readonly predictionFiles: readonly string[];
  /** Folder `repo_dir` resolves against; default: the bench file's folder. */
  readonly reposRoot?: string;
  /** `{instance_id: {path: count}}`; default: `line_counts.json` beside the bench, when present. */
  readonly lineCountsFile?: string;
  /**
   * Folders of agent transcripts, one explorer each (the folder's name), listed after the
   * prediction files' explorers; see `transcripts.ts` for the layout.
   */
  readonly transcriptFolders?: readonly string[];
  /** How plain-text agent answers among the prediction files are read. */
  readonly predictionOptions?: PredictionReadOptions;
  /**
   * Look every snapshot folder up while loading (default), or only when a line count is needed
   * (`score` with a complete line-counts file then never touches the snapshots).
   */
  readonly locateSnapshots?: 'eager' | 'when-needed';
  /** Stops the load (it rejects with an `AbortError`) when a newer load replaces it. */
  readonly signal?: AbortSignal;
}

/** One bench record as every consumer holds it. */
export interface InstanceEntry {
  readonly instanceId: string;
  /** `org/repo`, or the id's prefix when the record has no `repo`. */
  readonly repo: string;
  readonly record: BenchRecord;
  readonly groundTruth: GroundTruth;
  /** 1-based line of the record in the bench file. */
  readonly benchLine: number;
  /** The record's exact line text (exports write untouched records back byte-for-byte). */
  readonly raw: string;
  /**
   * The real path of the instance's snapshot folder, or undefined when `repo_dir` is missing on
   * disk or refused (absolute, escaping the repos root): then nothing of it is read or opened.
   */
  readonly snapshotRoot: string | undefined;
  /**
   * Why there is no snapshot, when there is none. Both this and `snapshotRoot` are undefined when
   * the folder was not looked up while loading (`locateSnapshots: 'when-needed'`).
   */
  readonly snapshotFailure: ResolveFailure | undefined;
}

/** One explorer's prediction row for one instance. */
export interface PredictionEntry {
  readonly regions: readonly Region[];
  readonly file: string;
  readonly line: number;
  /** What the explorer spent on the instance, from the runner's `token_usage` (src/data/formats/tokenUsage.ts); absent without one. */
  readonly tokens?: number;
}

/** The entry an explorer keeps of an accepted row. */
export function predictionEntry(value: PredictionRow, file: string, line: number): PredictionEntry {
  const tokens = rowTokens(value);
  return tokens === undefined ? { regions: toRegions(value.regions), file, line } : { regions: toRegions(value.regions), file, line, tokens };
}

/** One explorer as every view lists it: the rows of one name in one prediction file. */
export interface ExplorerRun {
  /** The label every surface and export uses (see the module comment). */
  readonly label: string;
  /** The rows' `explorer` field. */
  readonly name: string;
  readonly file: string;
  /** instance id → row, in file order. */
  readonly rows: ReadonlyMap<string, PredictionEntry>;
}

/** Everything read from disk; replaced as a whole on every (re)load. */
export interface WorkspaceModel {
  readonly benchFile: string | undefined;
  readonly reposRoot: string | undefined;
  /** The line-counts file in use, if any. */
  readonly lineCountsFile: string | undefined;
  /** instance id → entry, in bench order (first record of an id wins). */
  readonly instances: ReadonlyMap<string, InstanceEntry>;
  /** label → explorer, in the order of the prediction files, then of first appearance. */
  readonly explorers: ReadonlyMap<string, ExplorerRun>;
  /** Counts from the line-counts file: instance id → path → count. */
  readonly precomputedCounts: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Problems found reading the files (parse, schema, duplicates, line-counts file). */
  readonly problems: readonly Problem[];
  /** The accepted lines, for the data checks (`validateData`). */
  readonly benchItems: readonly JsonlItem<BenchRecord>[];
  readonly predictionItems: ReadonlyArray<{ readonly file: string; readonly rows: readonly JsonlItem<PredictionRow>[] }>;
}

export const EMPTY_WORKSPACE: WorkspaceModel = {
  benchFile: undefined,
  reposRoot: undefined,
  lineCountsFile: undefined,
  instances: new Map(),
  explorers: new Map(),
  precomputedCounts: new Map(),
  problems: [],
  benchItems: [],
  predictionItems: [],
};

/** Snapshot folders looked up at once (each is two `realpath` calls). */
const SNAPSHOT_LOOKUPS_IN_PARALLEL = 16;

/** Loads a workspace (see the module comment for the rules). Never rejects on bad data: it reports. */
export async function loadWorkspace(sources: WorkspaceSources): Promise<WorkspaceModel> {
  const benchFile = sources.benchFile;
  const benchDir = path.dirname(benchFile);
  const reposRoot = sources.reposRoot ?? benchDir;
  const problems: Problem[] = [];
  const signal = sources.signal;
  signal?.throwIfAborted();
  const [bench, lineCounts, predictionItems] = await Promise.all([
    readBenchFile(benchFile),
    readLineCountsSource(sources.lineCountsFile, benchDir),
    readPredictionFiles(sources.predictionFiles, sources.predictionOptions ?? {}, signal),
  ]);
  signal?.throwIfAborted();
  appendAll(problems, bench.problems);

  const firstItems = bench.items;
  const snapshots =
    sources.locateSnapshots === 'when-needed'
      ? undefined
      : await mapWithConcurrency(firstItems, SNAPSHOT_LOOKUPS_IN_PARALLEL, ({ value }) => locateSnapshot(reposRoot, value.instance_id, value.repo_dir));
  const instances = new Map<string, InstanceEntry>();
  firstItems.forEach(({ line, value, raw }, index) => {
    if (instances.has(value.instance_id)) return;
    const snapshot = snapshots?.[index];
    instances.set(value.instance_id, {
      instanceId: value.instance_id,
      repo: value.repo ?? repoOfInstanceId(value.instance_id),
      record: value,
      groundTruth: toGroundTruth(value),
      benchLine: line,
      raw,
      snapshotRoot: snapshot?.ok === true ? snapshot.real : undefined,
      snapshotFailure: snapshot === undefined || snapshot.ok ? undefined : snapshot.reason,
    });
  });

  // Indexing the records and the prediction rows are each a few tens of milliseconds at benchmark
  // scale (848 × 20 runs): a turn of the event loop between them keeps an extension host responsive.
  await nextTurn();
  signal?.throwIfAborted();

  // Transcripts are parsed against their instance's snapshot, so they are read after the bench.
  const transcripts: TranscriptRun[] = [];
  for (const folder of sources.transcriptFolders ?? []) {
    signal?.throwIfAborted();
    transcripts.push(await readTranscriptFolder(folder, instances, signal));
  }
  for (const { problems: fileProblems } of predictionItems) appendAll(problems, fileProblems);
  for (const { problems: folderProblems } of transcripts) appendAll(problems, folderProblems);
  if (lineCounts !== undefined) appendAll(problems, lineCounts.problems);
  // A transcript folder is one explorer (labelled like a prediction file, by the folder), while
  // the data checks see each transcript as its own file so their problems land in it.
  const runs = [...predictionItems.map(({ file, rows }) => ({ file, rows })), ...transcripts.map((t) => ({ file: t.folder, rows: t.files.flatMap((f) => f.rows) }))];
  return {
    benchFile,
    reposRoot,
    lineCountsFile: lineCounts?.file,
    instances,
    explorers: explorerRuns(runs, benchDir),
    precomputedCounts: lineCounts?.counts ?? new Map(),
    problems,
    benchItems: bench.items,
    predictionItems: [...predictionItems.map(({ file, rows }) => ({ file, rows })), ...transcripts.flatMap((t) => t.files)],
  };
}

/** The record's `repo_path` (e.g. `/testbed`), when it has one. */
export function repoPathOf(entry: InstanceEntry): string | undefined {
  const value: unknown = entry.record['repo_path'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `org__repo-123` → `org/repo` (the release's id convention), for records without `repo`. */
export function repoOfInstanceId(instanceId: string): string {
  return instanceId.replace(/-\d+$/, '').replace('__', '/');
}

function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

async function readPredictionFiles(
  files: readonly string[],
  options: PredictionReadOptions,
  signal: AbortSignal | undefined,
): Promise<{ file: string; rows: JsonlItem<PredictionRow>[]; problems: readonly Problem[] }[]> {
  // Files are read one after another: each is streamed, and reading them at once gains nothing on
  // one disk while multiplying peak memory.
  const out: { file: string; rows: JsonlItem<PredictionRow>[]; problems: readonly Problem[] }[] = [];
  for (const file of files) {
    signal?.throwIfAborted();
    const read = await readPredictionFile(file, options);
    out.push({ file, rows: read.items, problems: read.problems });
  }
  return out;
}

/** The explorer rule: one name in several files becomes one explorer per file, labelled with the file. */
export function explorerRuns(files: ReadonlyArray<{ readonly file: string; readonly rows: readonly JsonlItem<PredictionRow>[] }>, benchDir: string): Map<string, ExplorerRun> {
  const filesByName = new Map<string, Set<string>>();
  for (const { file, rows } of files) {
    for (const { value } of rows) {
      let set = filesByName.get(value.explorer);
      if (set === undefined) filesByName.set(value.explorer, (set = new Set()));
      set.add(file);
    }
  }
  const runs = new Map<string, { label: string; name: string; file: string; rows: Map<string, PredictionEntry> }>();
  for (const { file, rows } of files) {
    for (const { line, value } of rows) {
      const label = filesByName.get(value.explorer)!.size > 1 ? `${value.explorer} (${path.relative(benchDir, file).split(path.sep).join('/')})` : value.explorer;
      let run = runs.get(label);
      if (run === undefined) runs.set(label, (run = { label, name: value.explorer, file, rows: new Map() }));
      // Duplicate (instance, explorer) rows of one file were already dropped and reported by the reader.
      if (!run.rows.has(value.instance_id)) run.rows.set(value.instance_id, predictionEntry(value, file, line));
    }
  }
  return runs;
}

interface LineCountsSource {
  readonly file: string;
  readonly counts: Map<string, Map<string, number>>;
  readonly problems: readonly Problem[];
}

/** The named line-counts file, else `line_counts.json` beside the bench when it is a file. */
async function readLineCountsSource(named: string | undefined, benchDir: string): Promise<LineCountsSource | undefined> {
  let file = named;
  if (file === undefined) {
    const beside = path.join(benchDir, DEFAULT_LINE_COUNTS_NAME);
    try {
      if (!(await stat(beside)).isFile()) return undefined;
    } catch {
      // No line-counts file beside the bench is the normal case: snapshots on disk are used.
      return undefined;
    }
    file = beside;
  }
  const read = await readLineCountsFile(file);
  return { file, counts: read.counts, problems: read.problems };
}

/** Line counts of one instance, and what went wrong getting them. */
export interface InstanceLineCounts {
  readonly counts: Map<string, number>;
  readonly problems: Problem[];
}

/**
 * Line counts of `paths` for one instance under the workspace rule: the line-counts file first,
 * then the snapshot for the paths it does not list. The snapshot folder is only looked at when a
 * path is still missing, so `score --line-counts` never touches the disk beyond the data files.
 */
export async function instanceLineCounts(
  model: WorkspaceModel,
  entry: InstanceEntry,
  paths: Iterable<string>,
  cache: LineCountCache,
  /** Where problems with these paths are located; default: the instance's bench line. */
  at?: { readonly file: string; readonly line: number },
): Promise<InstanceLineCounts> {
  const known = model.precomputedCounts.get(entry.instanceId);
  const counts = new Map<string, number>();
  const rest: string[] = [];
  for (const p of paths) {
    const n = known?.get(p);
    if (n !== undefined) counts.set(p, n);
    else rest.push(p);
  }
  const problems: Problem[] = [];
  if (rest.length === 0) return { counts, problems };
  const location = { file: at?.file ?? model.benchFile ?? '', line: at?.line ?? entry.benchLine, instanceId: entry.instanceId };
  let root = entry.snapshotRoot;
  let failure = entry.snapshotFailure;
  if (root === undefined && failure === undefined && model.reposRoot !== undefined) {
    // Not looked up while loading: look now, with the same rule.
    const located = await locateSnapshot(model.reposRoot, entry.instanceId, entry.record.repo_dir);
    if (located.ok) root = located.real;
    else failure = located.reason;
  }
  if (root === undefined) {
    // Only a snapshot that was needed is worth a problem (a precomputed file may cover everything),
    // and only once, at the bench record that names it.
    if (at !== undefined) return { counts, problems };
    const reason = failure ?? 'missing';
    const code = reason === 'missing' ? 'missing-snapshot' : LINE_COUNT_FAILURE_CODES[reason];
    problems.push({ ...location, severity: lineCountFailureSeverity(reason), code, message: `snapshot of ${entry.instanceId} not used: repo_dir ${RESOLVE_FAILURE_TEXT[reason]}` });
    return { counts, problems };
  }
  const counted = await snapshotLineCounts(root, rest, { cache, location });
  for (const [p, n] of counted.counts) counts.set(p, n);
  appendAll(problems, counted.problems);
  return { counts, problems };
}

/** Every ground-truth-region path of a record: the only files the official evaluator counts. */
export function groundTruthPaths(groundTruth: GroundTruth): Set<string> {
  const paths = new Set<string>();
  for (const r of groundTruth.coreRegions) paths.add(r.path);
  for (const regions of Object.values(groundTruth.optionalRegionsByModel)) for (const r of regions) paths.add(r.path);
  return paths;
}

/** Every path an instance's regions, files, reads and the given explorers' rows mention. */
export function referencedPaths(model: WorkspaceModel, entry: InstanceEntry): Set<string> {
  const gt = entry.groundTruth;
  const paths = groundTruthPaths(gt);
  for (const p of gt.coreFiles) paths.add(p);
  for (const files of Object.values(gt.optionalFilesByModel)) for (const p of files) paths.add(p);
  for (const p of Object.keys(entry.record.read_step_info ?? {})) paths.add(p);
  for (const run of model.explorers.values()) for (const r of run.rows.get(entry.instanceId)?.regions ?? []) paths.add(r.path);
  return paths;
}

/**
 * Every problem of a loaded workspace: what reading the files found, then the data checks
 * (regions, snapshot files, escaping paths), sorted by file (bench, predictions, line counts),
 * line and column. The CLI's `validate` prints exactly these; the Problems panel shows them.
 */
export async function checkWorkspace(model: WorkspaceModel, cache: LineCountCache): Promise<Problem[]> {
  if (model.benchFile === undefined) return [...model.problems];
  const checks = await validateData({
    benchFile: model.benchFile,
    bench: model.benchItems,
    predictions: model.predictionItems,
    reposRoot: model.reposRoot ?? null,
    lineCounts: model.precomputedCounts,
    cache,
  });
  const files = [model.benchFile, ...model.predictionItems.map((p) => p.file)];
  if (model.lineCountsFile !== undefined) files.push(model.lineCountsFile);
  return sortProblems([...model.problems, ...checks], files);
}
