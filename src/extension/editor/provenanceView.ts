/**
 * Provenance of the open instance's core lines (which trajectories read them), computed once per
 * instance view on the audited core regions, so removed lines are neither consensus nor promoted.
 */
import { computeProvenance, type Provenance } from '../../core';
import type { InstanceView } from '../state/store';

const cache = new WeakMap<InstanceView, Provenance>();

export function provenanceOf(view: InstanceView, lineCounts: ReadonlyMap<string, number> | undefined): Provenance {
  let provenance = cache.get(view);
  if (provenance === undefined) {
    const record = view.instance.record;
    const meta = record.meta;
    provenance = computeProvenance({
      readStepInfo: record.read_step_info ?? null,
      coreRegions: view.explanation.coreRegions.map((r) => r.region),
      lineCounts: lineCounts ?? new Map<string, number>(),
      numTrajectories: meta !== null && meta !== undefined && Object.hasOwn(meta, 'num_trajectories') ? meta['num_trajectories'] : undefined,
    });
    cache.set(view, provenance);
  }
  return provenance;
}

/** The last two segments of a trajectory path (model folder and file) are what identify it. */
export function trajectoryLabel(trajPath: string): string {
  return trajPath.split('/').slice(-2).join('/');
}
