/**
 * Trajectories in the core: the builder's read extraction (../shared/trajectories.md §1), its
 * ground-truth build, R_int against a released core, and verification of a run against the record
 * that cites it. Pure: file access (existence, line counts) is injected by the data layer.
 */
import type { BuildTrajectory } from './build';
import { instanceBases, rawModifiedPaths, trajectoryBase, trajectoryRawReads } from './extract';
import { isTempFileName, keepReads, normalizeTrajectoryPath, stageReads, type ExistenceTest, type StagedReads, type TrajectoryReads } from './normalize';
import type { Trajectory } from './types';

export * from './types';
export * from './python';
export * from './text';
export * from './commands';
export * from './extract';
export * from './normalize';
export * from './build';
export * from './promotion';
export * from './verify';
export * from './whatIf';
export * from './viewed';
export * from './arrival';

/** Raw reads of a trajectory normalised against `base`, waiting for the existence test. */
export function stageTrajectoryReads(trajectory: Trajectory, base: string): StagedReads {
  return stageReads(trajectoryRawReads(trajectory), base);
}

/** The reads the builder keeps from a trajectory normalised against `base` (see ./normalize). */
export function trajectoryReads(trajectory: Trajectory, base: string, existence: ExistenceTest): TrajectoryReads {
  return keepReads(stageTrajectoryReads(trajectory, base), existence);
}

/** The base of a lone trajectory: its own (`cwd`, `/workspace/<dir>`), else the placeholder. */
export function singleTrajectoryBase(trajectory: Trajectory, placeholder: string): string {
  return trajectoryBase(trajectory) ?? placeholder;
}

/** The builder's modified files of a trajectory: raw paths normalised against `base`, empty and temp names dropped (never existence-checked). */
export function modifiedFiles(trajectory: Trajectory, base: string): string[] {
  const out = new Set<string>();
  for (const raw of rawModifiedPaths(trajectory)) {
    const path = normalizeTrajectoryPath(raw, base);
    if (path !== '' && !isTempFileName(path)) out.add(path);
  }
  return [...out];
}

/** Path segments of a file path written with `/` or `\`. */
function segments(filePath: string): string[] {
  return filePath.split(/[\\/]/).filter((s) => s !== '');
}

/** The builder's model of a trajectory: `info.model` (else mini-swe-agent's model name), else the file's grand-parent folder name. */
export function trajectoryModel(trajectory: Trajectory, filePath: string): string {
  if (trajectory.info.model !== undefined && trajectory.info.model !== '') return trajectory.info.model;
  const parts = segments(filePath);
  return parts.length >= 3 ? parts[parts.length - 3]! : '';
}

/**
 * A file name without `.json` (or `.jsonl`, for the line formats the builder does not read), then
 * `.traj`, then a `__N` run suffix: `x__0.json` → `x`, `x.traj.json` → `x`, `x.traj` → `x`.
 */
export function instanceIdFromFileName(filePath: string): string {
  const name = segments(filePath).pop() ?? '';
  return name
    .replace(/\.jsonl?$/, '')
    .replace(/\.traj$/, '')
    .replace(/__\d+$/, '');
}

/** The instance of a trajectory: `info.instance_id`, else a top-level `instance_id`, else {@link instanceIdFromFileName}. */
export function trajectoryInstanceId(trajectory: Trajectory, filePath: string): string {
  return trajectory.info.instanceId !== undefined && trajectory.info.instanceId !== '' ? trajectory.info.instanceId : instanceIdFromFileName(filePath);
}

/**
 * Everything the build needs from an instance's trajectories in input order: each one's kept
 * reads and modified files against the instance's bases ({@link instanceBases}).
 */
export function buildInputs(
  trajectories: ReadonlyArray<{ readonly trajPath: string; readonly filePath: string; readonly trajectory: Trajectory }>,
  placeholder: string,
  existence: ExistenceTest,
): BuildTrajectory[] {
  const bases = instanceBases(
    trajectories.map((t) => t.trajectory),
    placeholder,
  );
  return trajectories.map(({ trajPath, filePath, trajectory }, i) => ({
    trajPath,
    model: trajectoryModel(trajectory, filePath),
    reads: trajectoryReads(trajectory, bases[i]!, existence).reads,
    modified: modifiedFiles(trajectory, bases[i]!),
  }));
}
