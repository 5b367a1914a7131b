/**
 * The repair runs behind the instance's ground truth, for "how the repair agents got to a missed
 * line" (issue 19 item 5): the runs TRAJECTORY_RUNS loads (every `traj_path` `read_step_info` cites,
 * found with `sweExplore.data.trajectoryRoots` / `trajectoryTemplates`, read with the builder's
 * rules), each indexed for arrivals (`repairRunIndex`: first read per line by the builder's credit,
 * search steps). One read of each run serves the Trajectory view and this question. Runs not found
 * or not read stay listed as not loaded.
 */
import { readCommandLine, repairRunIndex, type LineCounts, type RepairRunSource } from '../../../core';
import type { InstanceSlice } from '../slices';
import { TRAJECTORY_RUNS, type TrajectoryRun } from './trajectoryRuns';

/** The instance's repair runs: being read, or read (each loaded or not). */
export type RepairRunsState = { readonly kind: 'loading' } | { readonly kind: 'loaded'; readonly runs: readonly RepairRunSource[] };

const LOADING: RepairRunsState = { kind: 'loading' };

/**
 * Each loaded run's index, with the line counts it was built with: a slice recomputed for another
 * reason (an audit change) indexes nothing again; new line counts (`end = -1` credits resolve with
 * them) do.
 */
const INDEXED = new WeakMap<TrajectoryRun, { readonly lineCounts: LineCounts; readonly source: RepairRunSource }>();

/** A loaded run as the arrival question sees it (index undefined when the run is not loaded). */
export function repairRunSource(run: TrajectoryRun, lineCounts: LineCounts): RepairRunSource {
  const trajectory = run.trajectory;
  if (trajectory === undefined) return { trajPath: run.trajPath, model: run.model, index: undefined };
  const known = INDEXED.get(run);
  if (known !== undefined && known.lineCounts === lineCounts) return known.source;
  const source = {
    trajPath: run.trajPath,
    model: run.model,
    index: repairRunIndex(
      trajectory,
      run.reads,
      (p) => lineCounts.get(p),
      (read) => readCommandLine(trajectory, read),
    ),
  };
  INDEXED.set(run, { lineCounts, source });
  return source;
}

export const REPAIR_RUNS: InstanceSlice<RepairRunsState> = {
  id: 'repairRuns',
  // Recomputed when the runs land (their slice moves from loading to loaded) or their sources change.
  key: (input) => JSON.stringify([input.selection.trajectorySources, input.slice(TRAJECTORY_RUNS).status]),
  compute: (input) => {
    const runs = input.slice(TRAJECTORY_RUNS);
    if (runs.status === 'loading') return LOADING;
    return { kind: 'loaded', runs: runs.runs.map((run) => repairRunSource(run, input.lineCounts)) };
  },
};
