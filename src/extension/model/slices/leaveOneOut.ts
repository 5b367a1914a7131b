/**
 * The leave-one-out layer's lines: with the selection's left-out trajectory dropped, which core
 * lines would join or leave the consensus (`Provenance.leaveOneOut`); null when no trajectory is
 * left out or the instance has no such trajectory.
 */
import type { LeaveOneOut } from '../../../core';
import type { InstanceSlice } from '../slices';
import { PROVENANCE } from './provenance';

export const LEAVE_ONE_OUT: InstanceSlice<LeaveOneOut | null> = {
  id: 'leaveOneOut',
  key: ({ selection, groundTruthKey }) => JSON.stringify([groundTruthKey, selection.leftOutTrajectory ?? null]),
  compute: (input) => {
    const trajectory = input.selection.leftOutTrajectory;
    return trajectory === undefined ? null : input.slice(PROVENANCE).leaveOneOut(trajectory);
  },
};
