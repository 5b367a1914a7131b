/**
 * How the instance's auditors agree (Cohen's κ over its core lines, lines in dispute): the same
 * agreement `swe-explore audit-impact` reports, from this instance's removals and accepts only.
 */
import type { InstanceAgreement } from '../../../core';
import { coreRemovalsByAuthor, instanceAgreement } from '../../../data';
import type { InstanceSlice } from '../slices';

export const AGREEMENT: InstanceSlice<readonly InstanceAgreement[]> = {
  id: 'agreement',
  key: ({ selection }) => selection.profile,
  compute: ({ instance, lineCounts, selection, audit }) => {
    const instanceId = instance.instanceId;
    const byAuthor = coreRemovalsByAuthor({ effectiveRemovals: audit.removalsByInstance.get(instanceId) ?? [], accepted: audit.folder.accepted.filter((a) => a.instanceId === instanceId) }).get(
      instanceId,
    );
    return byAuthor === undefined ? [] : instanceAgreement(instanceId, instance.groundTruth, lineCounts, byAuthor, selection.profile);
  },
};
