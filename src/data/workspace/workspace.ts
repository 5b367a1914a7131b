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
import { readBenchFile, streamPredictionFile, type JsonlItem, type PredictionReadOptions } from '../formats/jsonl';
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
  /**
   * `everything` (default): every accepted prediction line is kept too (`predictionItems`), for
   * the data checks. `scoring`: only what scoring reads — each row becomes its explorer entry as
   * it is read and the parsed line is dropped (`predictionItems` stays empty), which at benchmark
   * scale halves what the garbage collector has to copy (`score`).
   */
  readonly keep?: 'everything' | 'scoring';
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

/** The bench side of a workspace: its records, indexed, and its line counts. */
export interface BenchSide {
  readonly benchFile: string;
  readonly reposRoot: string;
  /** The line-counts file in use, if any, with its counts and problems. */
  readonly lineCounts: LineCountsSource | undefined;
  /** instance id → entry, in bench order (first record of an id wins). */
  readonly instances: ReadonlyMap<string, InstanceEntry>;
  readonly benchItems: readonly JsonlItem<BenchRecord>[];
  /** Problems found reading the bench file. */
  readonly problems: readonly Problem[];
}

/** Reads and indexes the bench and its line counts (see the module comment for the rules). */
export async function loadBenchSide(sources: WorkspaceSources): Promise<BenchSide> {
  const benchFile = sources.benchFile;
  const benchDir = path.dirname(benchFile);
  const reposRoot = sources.reposRoot ?? benchDir;
  const [bench, lineCounts] = await Promise.all([readBenchFile(benchFile), readLineCountsSource(sources.lineCountsFile, benchDir)]);
  sources.signal?.throwIfAborted();
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
  return { benchFile, reposRoot, lineCounts, instances, benchItems: bench.items, problems: bench.problems };
}

/**
 * Loads a workspace (see the module comment for the rules). Never rejects on bad data: it reports.
 * `benchSide`: the bench side already read from the same sources, not to read it again.
 */
export async function loadWorkspace(sources: WorkspaceSources, benchSide?: BenchSide): Promise<WorkspaceModel> {
  const benchDir = path.dirname(sources.benchFile);
  const problems: Problem[] = [];
  const signal = sources.signal;
  signal?.throwIfAborted();
  const [bench, predictionFiles] = await Promise.all([
    benchSide ?? loadBenchSide(sources),
    readPredictionFiles(sources.predictionFiles, sources.predictionOptions ?? {}, sources.keep === 'scoring', signal),
  ]);
  signal?.throwIfAborted();
  appendAll(problems, bench.problems);
  const { instances, lineCounts } = bench;

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
  for (const { problems: fileProblems } of predictionFiles) appendAll(problems, fileProblems);
  for (const { problems: folderProblems } of transcripts) appendAll(problems, folderProblems);
  if (lineCounts !== undefined) appendAll(problems, lineCounts.problems);
  // A transcript folder is one explorer (labelled like a prediction file, by the folder), while
  // the data checks see each transcript as its own file so their problems land in it.
  const runs: PredictionRows[] = predictionFiles.map(({ rows }) => rows);
  for (const t of transcripts) {
    const rows = new PredictionRows(t.folder);
    for (const f of t.files) for (const item of f.rows) rows.add(item);
    runs.push(rows);
  }
  const predictionItems: { file: string; rows: readonly JsonlItem<PredictionRow>[] }[] = [];
  for (const { file, items } of predictionFiles) if (items !== undefined) predictionItems.push({ file, rows: items });
  for (const t of transcripts) for (const f of t.files) predictionItems.push(f);
  return {
    benchFile: bench.benchFile,
    reposRoot: bench.reposRoot,
    lineCountsFile: lineCounts?.file,
    instances,
    explorers: explorerRuns(runs, benchDir),
    precomputedCounts: lineCounts?.counts ?? new Map(),
    problems,
    benchItems: bench.benchItems,
    predictionItems,
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

/**
 * A prediction file's (or transcript folder's) accepted rows in order, each already the entry its
 * explorer keeps, with the row's instance id and explorer name beside it (parallel lists, so that
 * no object per row is made just to carry them to {@link explorerRuns}).
 */
export class PredictionRows {
  readonly entries: PredictionEntry[] = [];
  readonly instanceIds: string[] = [];
  readonly explorers: string[] = [];

  /** `file`: the prediction file, or the transcript folder whose explorer the rows make (and whose path the entries carry). */
  constructor(readonly file: string) {}

  add({ line, value }: JsonlItem<PredictionRow>): void {
    this.entries.push(predictionEntry(value, this.file, line));
    this.instanceIds.push(value.instance_id);
    this.explorers.push(value.explorer);
  }
}

async function readPredictionFiles(
  files: readonly string[],
  options: PredictionReadOptions,
  rowsOnly: boolean,
  signal: AbortSignal | undefined,
): Promise<{ file: string; rows: PredictionRows; items: JsonlItem<PredictionRow>[] | undefined; problems: readonly Problem[] }[]> {
  // Files are read one after another: each is streamed, and reading them at once gains nothing on
  // one disk while multiplying peak memory.
  const out: { file: string; rows: PredictionRows; items: JsonlItem<PredictionRow>[] | undefined; problems: readonly Problem[] }[] = [];
  for (const file of files) {
    signal?.throwIfAborted();
    const rows = new PredictionRows(file);
    const items: JsonlItem<PredictionRow>[] | undefined = rowsOnly ? undefined : [];
    const problems = await streamPredictionFile(file, options, (item) => {
      rows.add(item);
      items?.push(item);
    });
    out.push({ file, rows, items, problems });
  }
  return out;
}

/**
 * The explorer rule for the rows named `name` in `file`: the name, or, when the name occurs in
 * several files (`filesByName`), the name and the file relative to the bench folder.
 */
export function explorerLabel(name: string, file: string, filesByName: ReadonlyMap<string, ReadonlySet<string>>, benchDir: string): string {
  return filesByName.get(name)!.size > 1 ? `${name} (${path.relative(benchDir, file).split(path.sep).join('/')})` : name;
}

/** The explorer rule: one name in several files becomes one explorer per file, labelled with the file. */
export function explorerRuns(files: readonly PredictionRows[], benchDir: string): Map<string, ExplorerRun> {
  const filesByName = new Map<string, Set<string>>();
  for (const { file, explorers } of files) {
    for (const name of explorers) {
      let set = filesByName.get(name);
      if (set === undefined) filesByName.set(name, (set = new Set()));
      set.add(file);
    }
  }
  type Run = { label: string; name: string; file: string; rows: Map<string, PredictionEntry> };
  const runs = new Map<string, Run>();
  for (const { file, entries, instanceIds, explorers } of files) {
    // A file's rows of one name all go to one run: its label is worked out once per file and name.
    const runOfName = new Map<string, Run>();
    for (let i = 0; i < entries.length; i++) {
      const name = explorers[i]!;
      let run = runOfName.get(name);
      if (run === undefined) {
        const label = explorerLabel(name, file, filesByName, benchDir);
        run = runs.get(label);
        if (run === undefined) runs.set(label, (run = { label, name, file, rows: new Map() }));
        runOfName.set(name, run);
      }
      // Duplicate (instance, explorer) rows of one file were already dropped and reported by the reader.
      if (!run.rows.has(instanceIds[i]!)) run.rows.set(instanceIds[i]!, entries[i]!);
    }
  }
  return runs;
}

export interface LineCountsSource {
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
