/**
 * The instance's trajectory read steps (`read_step_info`) per path, each resolved to the lines it
 * covers with the snapshot's line counts, for the hover's "trajectory reads of this line". Steps
 * that cover no line (unresolvable, inverted) are left out. (Trajectory reads from the runs
 * themselves will be a slice of their own.)
 */
import { resolveRegion, type ReadStepLike } from '../../../core';
import type { InstanceSlice } from '../slices';

export interface ResolvedReadStep {
  readonly step: ReadStepLike;
  readonly start: number;
  readonly end: number;
}

export const READ_STEPS: InstanceSlice<ReadonlyMap<string, readonly ResolvedReadStep[]>> = {
  id: 'readSteps',
  key: () => '',
  compute: ({ instance, lineCounts }) => {
    const info = instance.record.read_step_info ?? {};
    const out = new Map<string, ResolvedReadStep[]>();
    // Own keys only: a file named "constructor" must not find Object.prototype members.
    for (const path of Object.keys(info)) {
      const steps = info[path];
      if (!Array.isArray(steps)) continue;
      const resolved: ResolvedReadStep[] = [];
      for (const step of steps) {
        const r = resolveRegion({ path, start: step.start, end: step.end }, lineCounts.get(path));
        if (r.kind === 'resolved' && r.start <= r.end) resolved.push({ step, start: r.start, end: r.end });
      }
      out.set(path, resolved);
    }
    return out;
  },
};
