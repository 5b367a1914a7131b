/**
 * Miss anatomy of a loaded workspace: for every row `swe-explore score` scores (same explorer
 * labels, same instances, same top-k, same line counts), why each core line was or was not found
 * at one budget. The categories themselves live in `src/core/missAnatomy.ts`.
 */
import {
  addMissCounts,
  addSeenAnatomy,
  emptyMissCounts,
  missAnatomy,
  normalisePredictedPath,
  patchReach,
  preparePredictions,
  type LineSet,
  type MissAnatomy,
  type MissCounts,
  type PatchReach,
} from '../../core';
import { seenOfRows, type ExplorerSeenOptions, type RowSeen } from './explorerSeen';
import type { LineCountCache } from './lineCounts';
import { goldPatchLines } from './patchReach';
import type { Problem } from '../io/problems';
import { forEachScoredRow, prepareScoredGroundTruths, topK, type ScoringOptions } from './scoring';
import { repoPathOf, type InstanceEntry, type WorkspaceModel } from './workspace';

export interface MissOptions extends ScoringOptions {
  /** The line budget B of Recall@B. */
  readonly budget: number;
  /** The explorers' own runs (label → run folder): their rows also say what the run viewed (issue 19). */
  readonly explorerRuns?: ExplorerSeenOptions;
}

export interface MissRow {
  readonly instanceId: string;
  readonly explorer: string;
  readonly anatomy: MissAnatomy;
  /** The gold patch's lines reached within the same budget; null when the instance has no patch. */
  readonly patch: PatchReach | null;
  /**
   * What the explorer's own run viewed of the core: undefined when the explorer has no run folder,
   * null when it has one but no (readable) run for this instance.
   */
  readonly seen?: RowSeen | null;
}

/** Σ over an explorer's rows with a run: the viewed core lines per category, and how many runs. */
export interface SeenTotals {
  readonly seen: MissCounts;
  readonly viewedCoreLines: number;
  /** Missed core lines the runs viewed / missed core lines of the rows with a run ("viewed but not reported"). */
  readonly seenMissed: number;
  readonly missed: number;
  readonly runs: number;
}

/** Per explorer: the six counts and |C| summed over its rows. */
export interface MissTotals {
  readonly explorer: string;
  readonly budget: number;
  readonly instances: number;
  readonly totals: MissCounts & { coreLines: number };
  /** Σ patch lines and Σ reached patch lines over the rows with a patch; null when no row has one. */
  readonly patchTotals: { readonly patchLines: number; readonly reachedLines: number } | null;
  /** Only for an explorer with a run folder. */
  readonly seenTotals?: SeenTotals;
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
  const seenTotals = new Map<string, { seen: MissCounts; viewedCoreLines: number; seenMissed: number; missed: number; runs: number }>();
  let allRows: readonly MissRow[] = rows;
  const allProblems = [...problems];
  if (options.explorerRuns !== undefined) {
    for (const label of options.explorerRuns.runs.keys()) seenTotals.set(label, { seen: emptyMissCounts(), viewedCoreLines: 0, seenMissed: 0, missed: 0, runs: 0 });
    const found = await seenOfRows(model, rows, (id) => prepared.get(id), options.explorerRuns);
    for (const p of found.problems) allProblems.push(p);
    allRows = rows.map((row, i) => {
      const seen = found.seen[i];
      if (seen === undefined) return row;
      const sum = seenTotals.get(row.explorer);
      if (seen !== null && sum !== undefined) {
        addSeenAnatomy(sum, seen.anatomy);
        sum.runs++;
      }
      return { ...row, seen };
    });
  }
  const totalList: MissTotals[] = [];
  for (const [explorer, sum] of totals) {
    const seen = seenTotals.get(explorer);
    totalList.push({
      explorer,
      budget: options.budget,
      instances: sum.instances,
      totals: { coreLines: sum.coreLines, ...sum.counts },
      patchTotals: sum.patch,
      ...(seen === undefined ? {} : { seenTotals: seen }),
    });
  }
  return { rows: allRows, totals: totalList, problems: allProblems, lineCountProblems, skippedEmptyCore };
}
