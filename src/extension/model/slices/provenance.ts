/**
 * Provenance of the instance's core lines (which trajectories' read steps cover them), on the
 * effective core regions, so removed lines are neither consensus nor promoted. Consensus is R_int
 * exactly as `swe-explore provenance` computes it (the record's reads grouped by trajectory, merged,
 * intersected, tails excluded: src/core/trajectories/promotion.ts), promoted the core lines outside
 * it; {@link PROMOTION} also says which models' optional reads hold each promoted region. Depends on
 * the ground truth, not on the explorer or budget.
 */
import { computeProvenance, promotionProvenance, type PromotionProvenance, type Provenance } from '../../../core';
import type { InstanceSlice } from '../slices';

export const PROMOTION: InstanceSlice<PromotionProvenance> = {
  id: 'promotion',
  key: (input) => input.groundTruthKey,
  compute: ({ instance, groundTruth, lineCounts }) =>
    promotionProvenance({
      readStepInfo: instance.record.read_step_info ?? null,
      coreRegions: groundTruth.coreRegions.map((r) => r.region),
      optionalRegionsByModel: instance.groundTruth.optionalRegionsByModel,
      lineCounts,
    }),
};

export const PROVENANCE: InstanceSlice<Provenance> = {
  id: 'provenance',
  key: (input) => input.groundTruthKey,
  compute: ({ instance, groundTruth, lineCounts, slice }) => {
    const meta = instance.record.meta;
    return computeProvenance({
      readStepInfo: instance.record.read_step_info ?? null,
      coreRegions: groundTruth.coreRegions.map((r) => r.region),
      lineCounts,
      numTrajectories: meta !== null && meta !== undefined && Object.hasOwn(meta, 'num_trajectories') ? meta['num_trajectories'] : undefined,
      rInt: slice(PROMOTION).rInt,
    });
  },
};
