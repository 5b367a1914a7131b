/**
 * Miss anatomy of a loaded workspace: for every row `swe-explore score` scores (same explorer
 * labels, same instances, same top-k, same line counts), why each core line was or was not found
 * at one budget. The categories themselves live in `src/core/missAnatomy.ts`.
 */
import { addMissCounts, emptyMissCounts, missAnatomy, normalisePredictedPath, patchReach, preparePredictions, type LineSet, type MissAnatomy, type MissCounts, type PatchReach } from '../../core';
import type { LineCountCache } from './lineCounts';
import { goldPatchLines } from './patchReach';
import type { Problem } from '../io/problems';
import { forEachScoredRow, prepareScoredGroundTruths, topK, type ScoringOptions } from './scoring';
import type { InstanceEntry, WorkspaceModel } from './workspace';

export interface MissOptions extends ScoringOptions {
  /** The line budget B of Recall@B. */
  readonly budget: number;
}

export interface MissRow {
  readonly instanceId: string;
  readonly explorer: string;
  readonly anatomy: MissAnatomy;
  /** The gold patch's lines reached within the same budget; null when the instance has no patch. */
  readonly patch: PatchReach | null;
}

/** Per explorer: the six counts and |C| summed over its rows. */
export interface MissTotals {
  readonly explorer: string;
  readonly budget: number;
  readonly instances: number;
  readonly totals: MissCounts & { coreLines: number };
  /** Σ patch lines and Σ reached patch lines over the rows with a patch; null when no row has one. */
  readonly patchTotals: { readonly patchLines: number; readonly reachedLines: number } | null;
}

export interface MissesResult {
  readonly rows: readonly MissRow[];
  readonly totals: readonly MissTotals[];
  /** Rows for instances the bench does not contain (as `score` reports them). */
  readonly problems: readonly Problem[];
  readonly lineCountProblems: readonly Problem[];
  /** Rows skipped because their instance's core is empty. */
  readonly skippedEmptyCore: number;
}

/** The record's `repo_path` (e.g. `/testbed`), when it has one. */
export function repoPathOf(entry: InstanceEntry): string | undefined {
  const value: unknown = entry.record['repo_path'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Core paths a mismatched prediction resolves against: the `path_mismatch` test resolves such a
 * prediction with the core path's line count, so that count must be read even when scoring alone
 * would not read it.
 */
function mismatchCountedPaths(model: WorkspaceModel, entry: InstanceEntry, k: number): string[] {
  const repoPath = repoPathOf(entry);
  const coreByName = new Map<string, string[]>();
  for (const { path } of entry.groundTruth.coreRegions) {
    const name = normalisePredictedPath(path, repoPath);
    const list = coreByName.get(name);
    if (list === undefined) coreByName.set(name, [path]);
    else if (!list.includes(path)) list.push(path);
  }
  const out = new Set<string>();
  for (const run of model.explorers.values()) {
    const row = run.rows.get(entry.instanceId);
    if (row === undefined) continue;
    for (const region of topK(row.regions, k)) {
      if (region.end !== -1 && region.start >= 0) continue;
      for (const path of coreByName.get(normalisePredictedPath(region.path, repoPath)) ?? []) if (path !== region.path) out.add(path);
    }
  }
  return [...out];
}

/**
 * Miss anatomy of every scored row, rows in prediction-file order, then totals per explorer in
 * order of first row.
 */
export async function missesOfWorkspaceModel(model: WorkspaceModel, options: MissOptions, cache: LineCountCache): Promise<MissesResult> {
  const { prepared, lineCountProblems } = await prepareScoredGroundTruths(model, options, cache, (entry) => mismatchCountedPaths(model, entry, options.k));
  const rows: MissRow[] = [];
  const totals = new Map<string, { instances: number; counts: MissCounts; coreLines: number; patch: { patchLines: number; reachedLines: number } | null }>();
  const patchByInstance = new Map<string, LineSet | null>();
  const { problems, skippedEmptyCore } = forEachScoredRow(
    model,
    options.keepEmptyCore,
    (entry) => prepared.get(entry.instanceId),
    (label, instanceId, row, groundTruth, entry) => {
      const prepared = preparePredictions(groundTruth, topK(row.regions, options.k));
      const anatomy = missAnatomy(prepared, options.budget, { repoPath: repoPathOf(entry) });
      let patchLines = patchByInstance.get(instanceId);
      if (patchLines === undefined) patchByInstance.set(instanceId, (patchLines = goldPatchLines(entry)));
      const patch = patchLines === null ? null : patchReach(prepared, options.budget, patchLines);
      rows.push({ instanceId, explorer: label, anatomy, patch });
      let sum = totals.get(label);
      if (sum === undefined) totals.set(label, (sum = { instances: 0, counts: emptyMissCounts(), coreLines: 0, patch: null }));
      sum.instances++;
      sum.coreLines += anatomy.coreLines;
      addMissCounts(sum.counts, anatomy.counts);
      if (patch !== null) {
        sum.patch ??= { patchLines: 0, reachedLines: 0 };
        sum.patch.patchLines += patch.patchLines;
        sum.patch.reachedLines += patch.reachedLines;
      }
    },
  );
  const totalList: MissTotals[] = [];
  for (const [explorer, sum] of totals) totalList.push({ explorer, budget: options.budget, instances: sum.instances, totals: { coreLines: sum.coreLines, ...sum.counts }, patchTotals: sum.patch });
  return { rows, totals: totalList, problems, lineCountProblems, skippedEmptyCore };
}
