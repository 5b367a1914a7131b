/**
 * The open instance's missed core lines per file, split at category boundaries, each with what its
 * sentence names (ranks, the predicted spelling, the nearest prediction): see lineFacts.ts.
 */
import { repoPathOf } from '../../../data';
import type { MissedSpan } from '../../../shared/texts';
import { missedSpansByPath } from '../lineFacts';
import type { InstanceSlice } from '../slices';

const NONE: ReadonlyMap<string, readonly MissedSpan[]> = new Map();

export const MISSED_SPANS: InstanceSlice<ReadonlyMap<string, readonly MissedSpan[]>> = {
  id: 'missedSpans',
  key: ({ selection: s, groundTruthKey }) => JSON.stringify([s.explorer, s.budget, s.topK, groundTruthKey]),
  compute: ({ view, instance }) => (view === undefined ? NONE : missedSpansByPath({ explanation: view.explanation, anatomy: view.anatomy, prepared: view.prepared, repoPath: repoPathOf(instance) })),
};
