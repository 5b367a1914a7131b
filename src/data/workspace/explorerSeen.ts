/**
 * Miss anatomy × the explorer's own run, for a loaded workspace (issue 19 items 3 and 6): for every
 * scored row of an explorer with a run folder, the run for that instance (./../trajectories/
 * explorerRuns.ts) is read — only the reads of the instance's core files are extracted, the rest of
 * the run is skipped unparsed — and its viewed lines are split by the row's anatomy categories
 * (`seenAnatomy`). Runs are read a few at a time, one instance's run dropped before the next is
 * kept, so memory follows the number of rows, not the size of the runs.
 */
import { groundTruthRegionPaths, seenAnatomy, viewedLineSet, type MissAnatomy, type PreparedGroundTruth, type RunLength, type SeenAnatomy } from '../../core';
import { mapWithConcurrency } from '../io/concurrency';
import { locateSnapshot } from '../io/paths';
import type { Problem } from '../io/problems';
import { loadExplorerRun, type ExplorerRunIndex, type ExplorerRunInstance } from '../trajectories/explorerRuns';
import type { TrajectoryReadOptions } from '../trajectories/formats';
import { repoPathOf, type InstanceEntry, type WorkspaceModel } from './workspace';

/** Runs read at once: reading one file overlaps parsing another; more only adds memory. */
const RUNS_IN_PARALLEL = 3;

/** What a row's explorer run viewed of its core. */
export interface RowSeen {
  readonly anatomy: SeenAnatomy;
  /** The run as shown (`<folder as given>/<path under it>`). */
  readonly trajectory: string;
  /** The run's steps; its kept reads and viewed lines of the instance's core files (of every file with `fullRuns`). */
  readonly length: RunLength;
}

/** A scored row whose explorer has a run folder. */
export interface SeenRowInput {
  readonly explorer: string;
  readonly instanceId: string;
  readonly anatomy: MissAnatomy;
}

export interface ExplorerSeenOptions extends TrajectoryReadOptions {
  /** Explorer label → its run folder, indexed. */
  readonly runs: ReadonlyMap<string, ExplorerRunIndex>;
  /**
   * Extract every read of a run, not only those of the instance's core files: the same `seen`
   * (the core files' reads are the same), and the run's length (`reads`, `viewedLines`) over the
   * whole run — what the leaderboard's run-length columns show. Slower on long runs.
   */
  readonly fullRuns?: boolean;
  readonly signal?: AbortSignal;
}

/** The real snapshot folder of an instance: as located while loading, else looked up now (once per instance). */
function snapshotOf(model: WorkspaceModel, entry: InstanceEntry, cache: Map<string, Promise<string | undefined>>): Promise<string | undefined> {
  if (entry.snapshotRoot !== undefined || entry.snapshotFailure !== undefined || model.reposRoot === undefined) return Promise.resolve(entry.snapshotRoot);
  let found = cache.get(entry.instanceId);
  if (found === undefined) {
    const reposRoot = model.reposRoot;
    found = locateSnapshot(reposRoot, entry.instanceId, entry.record.repo_dir).then((r) => (r.ok ? r.real : undefined));
    cache.set(entry.instanceId, found);
  }
  return found;
}

/** What loading an explorer run of this instance needs (snapshot, `repo_path`, known paths, line counts). */
export function explorerRunInstance(entry: InstanceEntry, groundTruth: PreparedGroundTruth, snapshotRoot: string | undefined): ExplorerRunInstance {
  const known = groundTruthRegionPaths(entry.groundTruth);
  for (const p of entry.groundTruth.coreFiles) known.add(p);
  return {
    instanceId: entry.instanceId,
    snapshotRoot,
    repoPath: repoPathOf(entry),
    knownPaths: known,
    lineCount: (p) => groundTruth.knownLineCounts.get(p) ?? groundTruth.evaluatorLineCount(p),
  };
}

/**
 * Per row (same order): what its explorer's run viewed — a {@link RowSeen}; `null` when the explorer
 * has a run folder but no readable run for the instance; `undefined` when the explorer has no folder.
 */
export async function seenOfRows(
  model: WorkspaceModel,
  rows: readonly SeenRowInput[],
  groundTruthOf: (instanceId: string) => PreparedGroundTruth | undefined,
  options: ExplorerSeenOptions,
): Promise<{ readonly seen: readonly (RowSeen | null | undefined)[]; readonly problems: readonly Problem[] }> {
  const problems: Problem[] = [];
  const snapshots = new Map<string, Promise<string | undefined>>();
  const seen = await mapWithConcurrency(rows, RUNS_IN_PARALLEL, async (row): Promise<RowSeen | null | undefined> => {
    const folder = options.runs.get(row.explorer);
    if (folder === undefined) return undefined;
    const run = folder.runs.get(row.instanceId);
    const entry = model.instances.get(row.instanceId);
    const groundTruth = groundTruthOf(row.instanceId);
    if (run === undefined || entry === undefined || groundTruth === undefined) return null;
    options.signal?.throwIfAborted();
    const instance = explorerRunInstance(entry, groundTruth, await snapshotOf(model, entry, snapshots));
    const loaded = await loadExplorerRun(run, instance, options.fullRuns === true ? options : { ...options, paths: new Set(groundTruth.core.keys()) });
    for (const p of loaded.problems) problems.push(p);
    if (loaded.run === undefined) return null;
    return { anatomy: seenAnatomy(row.anatomy, viewedLineSet(loaded.run.viewed)), trajectory: run.path, length: loaded.run.length };
  });
  return { seen, problems };
}
