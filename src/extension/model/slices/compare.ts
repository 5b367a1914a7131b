/**
 * Compare mode's four core-line sets (only A, only B, both, neither) and the difference spans,
 * while comparing; undefined otherwise. The reach of each explorer is its miss anatomy's `hit`
 * lines, which the open instance's view has computed already.
 */
import { compareLineSets, type CompareReach } from '../../../core';
import type { InstanceSlice } from '../slices';

export const COMPARE: InstanceSlice<CompareReach | undefined> = {
  id: 'compare',
  key: ({ selection: s, groundTruthKey }) => JSON.stringify([s.explorer, s.compareWith, s.budget, s.topK, groundTruthKey]),
  compute: ({ view }) => (view?.compared === undefined ? undefined : compareLineSets(view.prepared.core, view.anatomy.spans.hit, view.compared.anatomy.spans.hit)),
};
