/**
 * Provenance of the instance's core lines (which trajectories' read steps cover them), on the
 * effective core regions, so removed lines are neither consensus nor promoted. Depends on the
 * ground truth, not on the explorer or budget.
 */
import { computeProvenance, type Provenance } from '../../../core';
import type { InstanceSlice } from '../slices';

export const PROVENANCE: InstanceSlice<Provenance> = {
  id: 'provenance',
  key: (input) => input.groundTruthKey,
  compute: ({ instance, groundTruth, lineCounts }) => {
    const meta = instance.record.meta;
    return computeProvenance({
      readStepInfo: instance.record.read_step_info ?? null,
      coreRegions: groundTruth.coreRegions.map((r) => r.region),
      lineCounts,
      numTrajectories: meta !== null && meta !== undefined && Object.hasOwn(meta, 'num_trajectories') ? meta['num_trajectories'] : undefined,
    });
  },
};
