/**
 * `swe-explore build`: the benchmark's ground truth rebuilt from a folder of runs, record for record
 * as the builder writes it (../shared/trajectories.md §1; the pure rules are in
 * src/core/trajectories/build.ts). What this module decides:
 *
 * - Runs are the files of {@link indexTrajectoryFolder} under the folder, taken in byte order of
 *   their path (the builder takes `rglob` order, which on the released data was this order). A file
 *   no reader recognises is skipped with a warning; a recognised file that cannot be read is an error
 *   (the builder skips it too).
 * - Instance = `info.instance_id`, else a top-level `instance_id`, else the file name without
 *   `.json`, `.traj`, `__N`; model = `info.model`, else mini-swe-agent's model name, else the file's
 *   grand-parent folder name; instances are written in order of their first run.
 * - `traj_path` = the folder as given joined with the file's path under it; `repo_dir` = the repos
 *   folder as given joined with the instance id (both with `.` segments and doubled slashes removed,
 *   as Python's `pathlib` writes them). The repository is `<repos>/<instance_id>`; an instance
 *   without one is skipped with a warning (the builder skips it).
 * - Runs are read one at a time and only their reads are kept, so memory follows the number of
 *   reads, not the size of the runs.
 */
import * as path from 'node:path';
import {
  buildGroundTruth,
  builtRecordJson,
  endPlaceholderPaths,
  modifiedFiles,
  resolveEndPlaceholders,
  stageReads,
  trajectoryBase,
  trajectoryInstanceId,
  trajectoryModel,
  type BuildTrajectory,
} from '../../core';
import { nextTurn } from '../io/cooperative';
import { resolveSnapshotDir, RESOLVE_FAILURE_TEXT } from '../io/paths';
import type { Problem } from '../io/problems';
import { indexTrajectoryFolder } from './folder';
import { readTrajectoryFile, type TrajectoryReadOptions } from './formats';
import { builderLineCounts, filesInRepository } from './repository';
import { DEFAULT_REPO_PATH, rawReadsCooperatively, skippedCallProblems } from './runs';

export interface BuildOptions extends TrajectoryReadOptions {
  /** The folder of runs (searched recursively), as the user wrote it. */
  readonly trajsDir: string;
  /** The folder of repositories `<repos>/<instance_id>`, as the user wrote it (default `repos`, the builder's). */
  readonly reposDir?: string;
  /** The placeholder base and the records' `repo_path` (default `/testbed`). */
  readonly repoPath?: string;
  /** Instances with fewer runs are left out (default 1). */
  readonly minTrajectories?: number;
  readonly signal?: AbortSignal;
}

export interface BuildResult {
  /** One JSON line (no newline) per instance, in order of the instance's first run. */
  readonly records: string[];
  readonly instances: number;
  readonly runs: number;
  readonly problems: Problem[];
}

/** A path as Python's `pathlib` writes it: no `.` segments, no doubled or trailing slashes. */
export function pathlibString(...parts: string[]): string {
  const joined = parts.join('/');
  const absolute = joined.startsWith('/');
  const segments = joined.split(/\/+/).filter((s) => s !== '' && s !== '.');
  const text = segments.join('/');
  return absolute ? `/${text}` : text === '' ? '.' : text;
}

/** What the build needs of a read that passed every filter but the existence test. */
interface CandidateRead {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly stepIdx: number;
}

interface PendingRun {
  readonly trajPath: string;
  readonly model: string;
  readonly candidates: readonly CandidateRead[];
  readonly modified: string[];
}

interface PendingInstance {
  detectedBase: string | undefined;
  readonly runs: PendingRun[];
  /** One string per distinct path of the instance: hundreds of thousands of reads name a few files. */
  readonly paths: Map<string, string>;
}

/** Builds every instance found under `trajsDir` (see the module comment). */
export async function buildBench(options: BuildOptions): Promise<BuildResult> {
  const repoPath = options.repoPath ?? DEFAULT_REPO_PATH;
  const reposDir = options.reposDir ?? 'repos';
  const problems: Problem[] = [];
  const index = await indexTrajectoryFolder(options.trajsDir, options.signal === undefined ? {} : { signal: options.signal });
  for (const p of index.problems) problems.push(p);

  const instances = new Map<string, PendingInstance>();
  let runs = 0;
  for (const entry of index.entries) {
    options.signal?.throwIfAborted();
    const read = await readTrajectoryFile(entry.file, options);
    for (const p of read.problems) problems.push(p.code === 'unknown-trajectory-format' ? { ...p, file: entry.file, severity: 'warning', message: `${p.message}; skipped` } : p);
    const trajectory = read.trajectory;
    if (trajectory === undefined) continue;
    runs++;
    const instanceId = trajectoryInstanceId(trajectory, entry.file);
    let pending = instances.get(instanceId);
    if (pending === undefined) instances.set(instanceId, (pending = { detectedBase: undefined, runs: [], paths: new Map() }));
    // The builder fixes the base at the first run of the instance that has one, for all later runs.
    pending.detectedBase ??= trajectoryBase(trajectory);
    const base = pending.detectedBase ?? repoPath;
    const raw = await rawReadsCooperatively(trajectory);
    for (const p of skippedCallProblems(entry.file, raw.skipped)) problems.push(p);
    // Only what the build needs is kept (the run itself is dropped here): the candidates that pass
    // every filter but the existence test, which needs the instance's repository.
    const candidates: CandidateRead[] = [];
    const paths = pending.paths;
    for (const read of stageReads({ reads: raw.reads, swallowed: [], skipped: [] }, base).reads) {
      if (read.drop !== undefined) continue;
      let interned = paths.get(read.path);
      if (interned === undefined) paths.set(read.path, (interned = read.path));
      candidates.push({ path: interned, start: read.start, end: read.end, stepIdx: read.stepIdx });
    }
    pending.runs.push({
      trajPath: pathlibString(options.trajsDir, entry.relative),
      model: trajectoryModel(trajectory, path.resolve(options.trajsDir, entry.relative)),
      candidates,
      modified: modifiedFiles(trajectory, base),
    });
  }

  const records: string[] = [];
  const minimum = options.minTrajectories ?? 1;
  for (const [instanceId, pending] of instances) {
    options.signal?.throwIfAborted();
    if (pending.runs.length < minimum) continue;
    const repo = await resolveSnapshotDir(reposDir, instanceId);
    if (!repo.ok) {
      problems.push({
        file: options.trajsDir,
        line: 0,
        severity: 'warning',
        code: 'missing-snapshot',
        instanceId,
        message: `${instanceId}: repository ${pathlibString(reposDir, instanceId)} ${RESOLVE_FAILURE_TEXT[repo.reason].replace('snapshot root', 'repos folder')}; instance skipped (the builder skips it too)`,
      });
      continue;
    }
    const existing = await filesInRepository(repo.real, pending.paths.keys());
    // The existence test of `keepReads`, on the compact candidates (`start or 1` is applied by the build).
    const inputs: BuildTrajectory[] = pending.runs.map((run) => ({
      trajPath: run.trajPath,
      model: run.model,
      reads: run.candidates.filter((read) => existing.has(read.path)),
      modified: run.modified,
    }));
    const built = buildGroundTruth(inputs);
    const counts = await builderLineCounts(repo.real, endPlaceholderPaths(built));
    records.push(builtRecordJson({ instanceId, repoPath, repoDir: pathlibString(reposDir, instanceId), groundTruth: resolveEndPlaceholders(built, (p) => counts.get(p)) }));
    // Building is a few milliseconds an instance; a turn between instances keeps a host responsive.
    await nextTurn();
  }
  return { records, instances: records.length, runs, problems };
}
