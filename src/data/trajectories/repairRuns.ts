/**
 * The repair runs behind an instance's ground truth, loaded for "how the repair agents got there"
 * (issue 19 item 5): every `traj_path` the record's `read_step_info` cites, in order of first
 * appearance, found with the run locator (roots, then templates: ./locate.ts), read with the builder's
 * rules (./runs.ts: the run's own base, else the record's `repo_path`; reads kept for files of the
 * snapshot) and indexed (`repairRunIndex`: first read per line by the builder's credit, search steps).
 * A run that cannot be found or read stays in the list as not loaded, with the problem that says why;
 * `lineArrivals` (src/core/trajectories/arrival.ts) then answers per line.
 */
import { modelFolderOf, locateRun, type RunLocator } from './locate';
import { loadRun, DEFAULT_REPO_PATH } from './runs';
import { readCommandLine, repairRunIndex, type RepairRunSource } from '../../core';
import type { ReadStepInfo } from '../../core/provenance';
import type { Problem } from '../io/problems';
import type { TrajectoryReadOptions } from './formats';

/** The `traj_path`s a record cites, in order of first appearance. */
export function citedRuns(readStepInfo: ReadStepInfo | null | undefined): string[] {
  const out = new Set<string>();
  if (readStepInfo === null || readStepInfo === undefined) return [];
  for (const path of Object.keys(readStepInfo)) for (const step of readStepInfo[path] ?? []) out.add(step.traj_path);
  return [...out];
}

export interface RepairRunsInstance {
  readonly instanceId: string;
  readonly readStepInfo: ReadStepInfo | null | undefined;
  /** The record's `repo_path` (the placeholder base). */
  readonly repoPath: string | undefined;
  /** Real path of the snapshot: reads are kept for its files (else the builder's name rules). */
  readonly snapshotRoot: string | undefined;
  /** Line counts for `end = -1` credits (the instance's; unknown counts leave such a read open to the end). */
  readonly lineCount: (path: string) => number | undefined;
}

export interface RepairRuns {
  /** One per cited run, in order of first appearance; `index` undefined when not loaded. */
  readonly runs: readonly RepairRunSource[];
  /** Why runs were not loaded (not found, unreadable), and the warnings of those that were. */
  readonly problems: readonly Problem[];
}

/** Loads and indexes the repair runs a record cites (see the module comment). Never throws on bad data. */
export async function loadRepairRuns(instance: RepairRunsInstance, locator: RunLocator, options: TrajectoryReadOptions = {}): Promise<RepairRuns> {
  const runs: RepairRunSource[] = [];
  const problems: Problem[] = [];
  for (const trajPath of citedRuns(instance.readStepInfo)) {
    const folderModel = modelFolderOf(trajPath) ?? '';
    const located = await locateRun(trajPath, instance.instanceId, locator);
    if (!located.found) {
      problems.push({
        file: trajPath,
        line: 0,
        severity: 'warning',
        code: 'trajectory-not-found',
        instanceId: instance.instanceId,
        message: `repair run not found (${located.tried.join('; ')})`,
      });
      runs.push({ trajPath, model: folderModel, index: undefined });
      continue;
    }
    const loaded = await loadRun(located.file, {
      ...options,
      instanceId: instance.instanceId,
      repoPath: instance.repoPath ?? DEFAULT_REPO_PATH,
      ...(instance.snapshotRoot === undefined ? {} : { repoDir: instance.snapshotRoot }),
    });
    for (const p of loaded.problems) problems.push({ ...p, instanceId: instance.instanceId });
    const run = loaded.run;
    if (run === undefined) {
      runs.push({ trajPath, model: folderModel, index: undefined });
      continue;
    }
    runs.push({
      trajPath,
      model: run.model !== '' ? run.model : folderModel,
      index: repairRunIndex(run.trajectory, run.reads.reads, instance.lineCount, (read) => readCommandLine(run.trajectory, read)),
    });
  }
  return { runs, problems };
}
