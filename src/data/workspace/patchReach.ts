/**
 * Patch reach over a loaded workspace: for each scored row (the rows `swe-explore score` scores,
 * same top-k, same line counts), how many of the gold patch's lines its list reaches within the
 * budget B, and by which ranks. The rule itself lives in `src/core/patchReach.ts`; the patch lines
 * come from the record's `patch` text ({@link patchBaseLines}).
 */
import { patchBaseLines, patchReach, preparePredictions, type LineSet, type PatchReach, type PreparedGroundTruth } from '../../core';
import { topK } from './scoring';
import type { InstanceEntry, PredictionEntry } from './workspace';

/**
 * The base lines the record's gold patch edits (removed lines and insertion anchors), or null when
 * the record has no patch (no `patch` text, or only whitespace). A patch that only creates files
 * gives an empty set: the instance has a patch, with 0 lines on the base snapshot.
 */
export function goldPatchLines(entry: InstanceEntry): LineSet | null {
  const patch = entry.record.patch;
  return typeof patch === 'string' && patch.trim() !== '' ? patchBaseLines(patch) : null;
}

/** A row's patch reach at `budget` with top-k applied, or null when the instance has no patch. */
export function rowPatchReach(groundTruth: PreparedGroundTruth, row: PredictionEntry, patchLines: LineSet | null, k: number, budget: number): PatchReach | null {
  return patchLines === null ? null : patchReach(preparePredictions(groundTruth, topK(row.regions, k)), budget, patchLines);
}

/** What a table keeps of one row's patch reach. */
export interface InstancePatchReach {
  readonly instanceId: string;
  /** Distinct patch lines (removed lines and insertion anchors) and those reached within B. */
  readonly patchLines: number;
  readonly reachedLines: number;
  /** The best rank reaching a patch line within B, or null. */
  readonly firstRank: number | null;
  /** Every rank reaching one, ascending. */
  readonly ranks: readonly number[];
}
