/**
 * An explorer's own runs (issue 19 item 1): the trajectories of the agent that produced a prediction
 * file, one per instance, read with the same readers as the repair runs, and what each one viewed.
 *
 * **Where.** `trajs/` beside the prediction file (`results/cosil/top5.jsonl` → `results/cosil/trajs/`;
 * the extension finds it there, the CLI takes `--explorer-trajs EXPLORER=DIR`). **Layout.** A run is
 * `<instance_id>.<ext>` (`.json`, `.jsonl`, `.traj`; `<id>.traj.json` and `<id>__0.json` name `<id>`)
 * at the top of the folder, or any such file in `<instance_id>/`. An instance with several runs
 * (`<id>.json` and `<id>/run.jsonl`, or two files in `<id>/`) uses the first in byte order of its path
 * under the folder (`<id>.json` sorts before `<id>/…`) and the others are reported (`duplicate-row`);
 * a name that is no bench instance is reported (`unknown-instance`), files deeper than `<id>/<file>`
 * are reported once (`explorer-run-ignored`). Indexing lists names only (the lazy folder index of
 * ./folder.ts: regular files inside the folder, symlinks out of it and folder links ignored); a run is
 * parsed only when it is needed, through the format registry (size cap, UTF-8, every format).
 *
 * **Paths.** A run's reads are the builder's reads (src/core/trajectories), normalised against the
 * run's own base (its `cwd`, else the `/workspace/<dir>` of its editor paths); a run that names none
 * (OpenCode logs, a Claude Code log without `system/init`) is normalised against the folder its
 * absolute paths share in front of a path the instance has (`inferredRunBase`), else against the
 * record's `repo_path` (default `/testbed`). Reads are kept for files of the instance's snapshot
 * (the builder's existence test), or by the builder's name rules when there is no snapshot. The
 * builder's other path filters (a path holding `http`, quotes or shell characters, temp-file names)
 * decide what it credits, not what the agent saw, and are not applied: the builder drops every read
 * of `tinyhttp/request.py` (it holds `http`), but an explorer that ran `cat tinyhttp/request.py`
 * viewed it.
 */
import * as path from 'node:path';
import { lstat, stat } from 'node:fs/promises';
import {
  assistantSteps,
  inferredRunBase,
  keepReads,
  pathsToCheck,
  rawReadsNaming,
  readCommandLine,
  repoNameOf,
  stageReads,
  trajectoryBase,
  viewedLineCount,
  viewedLines,
  type MessageReads,
  type ReadDropReason,
  type RunLength,
  type StagedReads,
  type Trajectory,
  type TrajectoryFormat,
  type ViewedLines,
} from '../../core';
import type { Problem } from '../io/problems';
import { indexTrajectoryFolder, type IndexOptions } from './folder';
import { readTrajectoryFile, type TrajectoryReadOptions } from './formats';
import { builderLineCounts, filesInRepository } from './repository';
import { DEFAULT_REPO_PATH, rawReadsCooperatively, skippedCallProblems } from './runs';

/** The folder of an explorer's runs beside its prediction file. */
export const EXPLORER_TRAJECTORY_FOLDER = 'trajs';

/**
 * A glob (relative, any depth) matching the files inside explorers' run folders: prediction-file
 * searches (`results/**\/*.jsonl`) exclude it, since a Claude Code or OpenCode run is a `.jsonl` too.
 */
export const EXPLORER_TRAJECTORY_EXCLUDE_GLOB = `**/${EXPLORER_TRAJECTORY_FOLDER}/**`;

/** `results/cosil/top5.jsonl` → `results/cosil/trajs`. */
export function explorerTrajectoryFolder(predictionFile: string): string {
  return path.join(path.dirname(predictionFile), EXPLORER_TRAJECTORY_FOLDER);
}

/** The run folder beside a prediction file when it is a folder (a link to one is not followed). */
export async function findExplorerTrajectoryFolder(predictionFile: string): Promise<string | undefined> {
  const folder = explorerTrajectoryFolder(predictionFile);
  try {
    return (await lstat(folder)).isDirectory() ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** One explorer run, indexed (not read). */
export interface ExplorerRunEntry {
  readonly instanceId: string;
  /** The file to open (inside the folder; a link's checked real path). */
  readonly file: string;
  /** The run as shown to people and printed by `misses`: the folder as given joined with its path under it. */
  readonly path: string;
  /** Its path under the folder, with `/`. */
  readonly relative: string;
  readonly size: number;
}

/** An explorer's run folder, indexed. */
export interface ExplorerRunIndex {
  readonly folder: string;
  /** Instance id → its run, in byte order of the runs' paths. */
  readonly runs: ReadonlyMap<string, ExplorerRunEntry>;
  readonly problems: readonly Problem[];
}

const RUN_SUFFIXES = ['.traj.json', '.jsonl', '.json', '.traj'] as const;

/** The instance a top-level run file names: its name without a run suffix, else without a `__N` too. */
function instanceOfFileName(name: string, isInstance: (id: string) => boolean): string | undefined {
  const lower = name.toLowerCase();
  for (const suffix of RUN_SUFFIXES) {
    if (!lower.endsWith(suffix)) continue;
    const stem = name.slice(0, name.length - suffix.length);
    if (isInstance(stem)) return stem;
    const unsuffixed = stem.replace(/__\d+$/, '');
    if (unsuffixed !== stem && isInstance(unsuffixed)) return unsuffixed;
    return undefined;
  }
  return undefined;
}

/** A folder path joined with a relative `/` path, for display (`results/x/trajs` + `a.json`). */
function shownPath(folder: string, relative: string): string {
  return `${folder.replace(/[\\/]+$/, '')}/${relative}`;
}

/** Indexes an explorer's run folder against the bench's instance ids (see the module comment). Never throws on the folder's content. */
export async function indexExplorerRuns(folder: string, isInstance: (instanceId: string) => boolean, options: IndexOptions = {}): Promise<ExplorerRunIndex> {
  const index = await indexTrajectoryFolder(folder, options);
  const problems: Problem[] = [...index.problems];
  const runs = new Map<string, ExplorerRunEntry>();
  const unknownFolders = new Set<string>();
  let deeper = 0;
  let firstDeeper = '';
  for (const entry of index.entries) {
    const parts = entry.relative.split('/');
    let instanceId: string | undefined;
    if (parts.length === 1) {
      instanceId = instanceOfFileName(parts[0]!, isInstance);
      if (instanceId === undefined) {
        problems.push({ file: shownPath(folder, entry.relative), line: 0, severity: 'warning', code: 'unknown-instance', message: 'explorer run named after no bench instance; skipped' });
        continue;
      }
    } else if (parts.length === 2) {
      instanceId = parts[0]!;
      if (!isInstance(instanceId)) {
        if (!unknownFolders.has(instanceId)) {
          unknownFolders.add(instanceId);
          problems.push({ file: shownPath(folder, instanceId), line: 0, severity: 'warning', code: 'unknown-instance', message: 'explorer run folder named after no bench instance; skipped' });
        }
        continue;
      }
    } else {
      if (deeper === 0) firstDeeper = entry.relative;
      deeper++;
      continue;
    }
    const first = runs.get(instanceId);
    if (first !== undefined) {
      problems.push({
        file: shownPath(folder, entry.relative),
        line: 0,
        severity: 'warning',
        code: 'duplicate-row',
        instanceId,
        message: `second explorer run for instance ${JSON.stringify(instanceId)} (the first in byte order, ${first.relative}, is used); ignored`,
      });
      continue;
    }
    runs.set(instanceId, { instanceId, file: entry.file, path: shownPath(folder, entry.relative), relative: entry.relative, size: entry.size });
  }
  if (deeper > 0) {
    problems.push({
      file: shownPath(folder, firstDeeper),
      line: 0,
      severity: 'warning',
      code: 'explorer-run-ignored',
      message: `${deeper} file(s) deeper than <instance_id>/<file> in the explorer's run folder are not runs; ignored`,
    });
  }
  return { folder, runs, problems };
}

/** What loading a run needs to know about its instance. */
export interface ExplorerRunInstance {
  readonly instanceId: string;
  /** Real path of the instance's snapshot: reads are kept for its files. Undefined: the builder's name rules. */
  readonly snapshotRoot: string | undefined;
  /** The record's `repo_path`: the base of a run that names none and whose paths give none. */
  readonly repoPath: string | undefined;
  /** Paths the instance has (its ground-truth files, say): the base of a run that names none is inferred from them. */
  readonly knownPaths: Iterable<string>;
  /** The instance's line count of a path, when known (the snapshot is asked for the viewed files it does not know). */
  readonly lineCount: (path: string) => number | undefined;
  /** Which of these paths are files of the snapshot (default: asked of the disk each time; a caller with several runs per instance caches it). */
  readonly filesInSnapshot?: (paths: readonly string[]) => Promise<ReadonlySet<string>>;
  /** The builder's line counts of these snapshot files (default: counted on disk each time; a caller with several runs per instance caches them). */
  readonly countLines?: (paths: ReadonlySet<string>) => Promise<ReadonlyMap<string, number>>;
}

export interface ExplorerRunLoadOptions extends TrajectoryReadOptions {
  /**
   * Only reads of these paths are extracted (messages that cannot name one are not parsed), and only
   * these files' line counts are needed: what `misses` asks (core files). Default: every file.
   */
  readonly paths?: ReadonlySet<string>;
}

/** Where the base a run's paths were normalised against came from. */
export type RunBaseSource = 'run' | 'inferred' | 'record';

/** One explorer run read and reduced to what it viewed. */
export interface ExplorerRunView {
  readonly instanceId: string;
  readonly file: string;
  readonly path: string;
  readonly format: TrajectoryFormat;
  /** `info.model` when the run names one, else "". */
  readonly model: string;
  readonly base: string;
  readonly baseSource: RunBaseSource;
  /** What the converter decided or could not carry over (sub-agent reads absent from the stream…), one sentence each. */
  readonly notes: readonly string[];
  readonly viewed: ViewedLines;
  /** Steps, kept reads and viewed lines (with `paths`: reads and lines of those files only). */
  readonly length: RunLength;
}

function baseOf(trajectory: Trajectory, raw: MessageReads, instance: ExplorerRunInstance): { base: string; source: RunBaseSource } {
  const own = trajectoryBase(trajectory);
  if (own !== undefined) return { base: own, source: 'run' };
  const inferred = inferredRunBase(
    raw.reads.map((r) => r.path),
    instance.knownPaths,
  );
  if (inferred !== undefined) return { base: inferred, source: 'inferred' };
  return { base: instance.repoPath ?? DEFAULT_REPO_PATH, source: 'record' };
}

/** Reads one explorer run and what it viewed (see the module comment); `run` is undefined when the file could not be read. */
export async function loadExplorerRun(entry: ExplorerRunEntry, instance: ExplorerRunInstance, options: ExplorerRunLoadOptions = {}): Promise<{ run?: ExplorerRunView; problems: Problem[] }> {
  const read = await readTrajectoryFile(entry.file, options);
  const problems: Problem[] = read.problems.map((p) => ({ ...p, file: entry.path, instanceId: instance.instanceId }));
  const trajectory = read.trajectory;
  if (trajectory === undefined) return { problems };
  const own = trajectory.info.instanceId;
  if (own !== undefined && own !== '' && own !== instance.instanceId) {
    problems.push({
      file: entry.path,
      line: 0,
      severity: 'warning',
      code: 'explorer-run-mismatch',
      instanceId: instance.instanceId,
      message: `the run says it is instance ${JSON.stringify(own)}; it is read as ${JSON.stringify(instance.instanceId)}, the instance its file name gives`,
    });
  }
  const paths = options.paths;
  const raw = paths === undefined ? await rawReadsCooperatively(trajectory) : onlyNaming(rawReadsNaming(trajectory, [...paths]), [...paths]);
  const { base, source } = baseOf(trajectory, raw, instance);
  const staged = seenFilters(stageReads(raw, base));
  const kept =
    instance.snapshotRoot === undefined
      ? keepReads(staged, { kind: 'name-rules', repoName: repoNameOf(instance.instanceId) })
      : await (async () => {
          const wanted = paths === undefined ? pathsToCheck(staged) : pathsToCheck(staged).filter((p) => paths.has(p));
          const existing = await (instance.filesInSnapshot ?? ((list: readonly string[]) => filesInRepository(instance.snapshotRoot!, list)))(wanted);
          return keepReads(staged, { kind: 'repository', exists: (p) => existing.has(p) });
        })();
  for (const p of skippedCallProblems(entry.path, kept.skipped)) problems.push({ ...p, instanceId: instance.instanceId });
  const reads = paths === undefined ? kept.reads : kept.reads.filter((r) => paths.has(r.path));
  const lineCount = await lineCountsFor(reads, instance);
  const viewed = viewedLines(reads, lineCount, (r) => readCommandLine(trajectory, r));
  return {
    run: {
      instanceId: instance.instanceId,
      file: entry.file,
      path: entry.path,
      format: trajectory.format,
      model: trajectory.info.model ?? '',
      base,
      baseSource: source,
      notes: trajectory.notes,
      viewed,
      length: { steps: assistantSteps(trajectory), reads: reads.length, viewedLines: viewedLineCount(viewed) },
    },
    problems,
  };
}

/**
 * The raw reads whose path holds one of `needles` (normalisation only cuts a path's front and
 * decorations, so no other read can become one of them), without swallowed words: what is left to
 * normalise and check when only those files matter.
 */
function onlyNaming(raw: MessageReads, needles: readonly string[]): MessageReads {
  return { reads: raw.reads.filter((r) => needles.some((n) => r.path.includes(n))), swallowed: [], skipped: raw.skipped };
}

/** Staged reads with only the filters that say whether a file was viewed: an empty path; the existence test follows. */
function seenFilters(staged: StagedReads): StagedReads {
  const viewable = <T extends { readonly drop: ReadDropReason | undefined }>(read: T): T => (read.drop === undefined || read.drop === 'empty-path' ? read : { ...read, drop: undefined });
  return { ...staged, reads: staged.reads.map(viewable), swallowed: staged.swallowed.map(viewable) };
}

/** The instance's line counts, completed from the snapshot for viewed files it does not know and whose ranges need a count. */
async function lineCountsFor(
  reads: readonly { readonly path: string; readonly seen: readonly (readonly [number, number])[] }[],
  instance: ExplorerRunInstance,
): Promise<(path: string) => number | undefined> {
  const missing = new Set<string>();
  for (const read of reads) {
    if (instance.lineCount(read.path) !== undefined) continue;
    if (read.seen.some(([s, e]) => e === -1 || s < 0)) missing.add(read.path);
  }
  if (missing.size === 0 || instance.snapshotRoot === undefined) return instance.lineCount;
  const counted = await (instance.countLines ?? ((paths: ReadonlySet<string>) => builderLineCounts(instance.snapshotRoot!, paths)))(missing);
  return (p) => instance.lineCount(p) ?? counted.get(p);
}

/** Whether a path is a folder (links followed: the user's own argument). */
export async function isFolder(folder: string): Promise<boolean> {
  try {
    return (await stat(folder)).isDirectory();
  } catch {
    return false;
  }
}
