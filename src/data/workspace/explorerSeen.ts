/**
 * Miss anatomy × the explorer's own run, for a loaded workspace (issue 19 items 3 and 6): for every
 * scored row of an explorer with a run folder, the run for that instance (../trajectories/
 * explorerRuns.ts) is read — only the reads of the instance's core files are extracted, the rest of
 * the run is skipped unparsed — and its viewed lines are split by the row's anatomy categories
 * (`seenAnatomy`). Runs are read a few at a time, one instance's run dropped before the next is
 * kept, so memory follows the number of rows, not the size of the runs.
 */
import { groundTruthRegionPaths, seenAnatomy, viewedLineSet, type LineSet, type MissAnatomy, type PreparedGroundTruth, type RunLength, type SeenAnatomy } from '../../core';
import { ExplorerRunPool } from './explorerRunPool';
import { mapWithConcurrency } from '../io/concurrency';
import { locateSnapshot } from '../io/paths';
import type { Problem } from '../io/problems';
import { loadExplorerRun, type ExplorerRunIndex, type ExplorerRunInstance } from '../trajectories/explorerRuns';
import { filesInRepository } from '../trajectories/repository';
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
  /**
   * Read runs on this many worker threads (./explorerRunPool.ts; `misses` uses one per core, at most
   * four). Undefined or 0: in this thread. Ignored with custom `readers` (they cannot cross a thread).
   */
  readonly workers?: number;
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

/**
 * What loading an explorer run of this instance needs (snapshot, `repo_path`, known paths, line
 * counts); the snapshot's answers about which paths are files are kept, for the instance's other runs.
 */
export function explorerRunInstance(entry: InstanceEntry, groundTruth: PreparedGroundTruth, snapshotRoot: string | undefined): ExplorerRunInstance {
  const known = groundTruthRegionPaths(entry.groundTruth);
  for (const p of entry.groundTruth.coreFiles) known.add(p);
  const isFile = new Map<string, boolean>();
  return {
    instanceId: entry.instanceId,
    snapshotRoot,
    repoPath: repoPathOf(entry),
    knownPaths: known,
    lineCount: (p) => groundTruth.knownLineCounts.get(p) ?? groundTruth.evaluatorLineCount(p),
    ...(snapshotRoot === undefined
      ? {}
      : {
          filesInSnapshot: async (paths: readonly string[]): Promise<ReadonlySet<string>> => {
            const unknown = paths.filter((p) => !isFile.has(p));
            if (unknown.length > 0) {
              const found = await filesInRepository(snapshotRoot, unknown);
              for (const p of unknown) isFile.set(p, found.has(p));
            }
            return new Set(paths.filter((p) => isFile.get(p) === true));
          },
        }),
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
  const instances = new Map<string, ExplorerRunInstance>();
  const pool = options.readers === undefined && (options.workers ?? 0) > 0 && rows.length > 1 ? ExplorerRunPool.start(options.workers) : undefined;
  let jobs = 0;
  try {
    const seen = await mapWithConcurrency(rows, pool === undefined ? RUNS_IN_PARALLEL : 3 * (options.workers ?? 1), async (row): Promise<RowSeen | null | undefined> => {
      const folder = options.runs.get(row.explorer);
      if (folder === undefined) return undefined;
      const run = folder.runs.get(row.instanceId);
      const entry = model.instances.get(row.instanceId);
      const groundTruth = groundTruthOf(row.instanceId);
      if (run === undefined || entry === undefined || groundTruth === undefined) return null;
      options.signal?.throwIfAborted();
      const snapshotRoot = await snapshotOf(model, entry, snapshots);
      const paths = options.fullRuns === true ? undefined : new Set(groundTruth.core.keys());
      let viewed: LineSet;
      let length: RunLength;
      if (pool !== undefined) {
        const known = explorerRunInstance(entry, groundTruth, snapshotRoot).knownPaths;
        const outcome = await pool.run({
          id: jobs++,
          entry: run,
          instanceId: row.instanceId,
          snapshotRoot,
          repoPath: repoPathOf(entry),
          knownPaths: [...known],
          lineCounts: [...groundTruth.knownLineCounts],
          paths: paths === undefined ? undefined : [...paths],
          maxBytes: options.maxBytes,
        });
        for (const p of outcome.problems) problems.push(p);
        if (outcome.run === undefined) return null;
        ({ viewed, length } = outcome.run);
      } else {
        let instance = instances.get(row.instanceId);
        if (instance === undefined) instances.set(row.instanceId, (instance = explorerRunInstance(entry, groundTruth, snapshotRoot)));
        const loaded = await loadExplorerRun(run, instance, paths === undefined ? options : { ...options, paths });
        for (const p of loaded.problems) problems.push(p);
        if (loaded.run === undefined) return null;
        viewed = viewedLineSet(loaded.run.viewed);
        length = loaded.run.length;
      }
      return { anatomy: seenAnatomy(row.anatomy, viewed), trajectory: run.path, length };
    });
    return { seen, problems };
  } finally {
    await pool?.close();
  }
}
