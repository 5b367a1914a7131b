/**
 * Per-row caches (instance × explorer): official metrics and miss-anatomy counts, kept under the
 * variant they were computed for (ground truth, audit, profile, top-k), so the benchmark-wide walks
 * (17k rows at 848 × 20) sum cached values and a change to some instances drops exactly theirs.
 */
import {
  missAnatomy,
  officialMetrics,
  patchReach,
  preparePredictions,
  type LineSet,
  type OfficialMetrics,
  type PatchReach,
  type PreparedGroundTruth,
  type PreparedInstance,
  type Region,
} from '../../core';
import { goldPatchLines, repoPathOf, topK as cutToTopK, type InstanceEntry, type PredictionEntry, type RowMissCounts } from '../../data';

/** `map.get(key)`, made (and stored) on first use. */
export function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

export class RowCache {
  /** instance id → variant → explorer → metrics. */
  private readonly scores = new Map<string, Map<string, Map<string, OfficialMetrics>>>();
  /** instance id → variant and budget → explorer → counts (only the counts: 17k rows' spans would weigh on the heap for nothing). */
  private readonly anatomy = new Map<string, Map<string, Map<string, RowMissCounts>>>();
  /** instance id → variant and budget → explorer → patch reach (null: the record has no patch). */
  private readonly patch = new Map<string, Map<string, Map<string, PatchReach | null>>>();
  /** instance id → its gold patch's base lines, parsed once (null: no patch). */
  private readonly patchLines = new Map<string, LineSet | null>();

  /** A row's metrics on the prepared ground truth; `predictions` is its list cut to top-k. */
  score(variant: string, instanceId: string, explorer: string, groundTruth: PreparedGroundTruth, predictions: () => readonly Region[]): OfficialMetrics {
    // The benchmark walks read 17k cached rows in one go: the hit path allocates nothing.
    const cached = this.scores.get(instanceId)?.get(variant)?.get(explorer);
    if (cached !== undefined) return cached;
    const metrics = officialMetrics(preparePredictions(groundTruth, predictions()));
    entryOf(
      entryOf(this.scores, instanceId, () => new Map()),
      variant,
      () => new Map<string, OfficialMetrics>(),
    ).set(explorer, metrics);
    return metrics;
  }

  /**
   * A row's miss anatomy at a budget (the numbers `swe-explore misses` prints); an explorer without a
   * row misses every core line. `variantAtBudget` is {@link RowCache.anatomyKey} of the variant and budget.
   */
  anatomyAt(variantAtBudget: string, budget: number, entry: InstanceEntry, explorer: string, groundTruth: PreparedGroundTruth, row: PredictionEntry | undefined, topK: number): RowMissCounts {
    const cached = this.anatomy.get(entry.instanceId)?.get(variantAtBudget)?.get(explorer);
    if (cached !== undefined) return cached;
    const full = missAnatomy(preparePredictions(groundTruth, row === undefined ? [] : cutToTopK(row.regions, topK)), budget, { repoPath: repoPathOf(entry) });
    const counts = { coreLines: full.coreLines, counts: full.counts };
    entryOf(
      entryOf(this.anatomy, entry.instanceId, () => new Map()),
      variantAtBudget,
      () => new Map<string, RowMissCounts>(),
    ).set(explorer, counts);
    return counts;
  }

  /** A row's reach of the gold patch's lines at a budget (what `misses` prints as patch_lines / patch_hit); null without a patch. */
  patchReachAt(variantAtBudget: string, budget: number, entry: InstanceEntry, explorer: string, groundTruth: PreparedGroundTruth, row: PredictionEntry, topK: number): PatchReach | null {
    const cached = this.patch.get(entry.instanceId)?.get(variantAtBudget)?.get(explorer);
    if (cached !== undefined) return cached;
    // Without a patch nothing is prepared: only the patch's instances cost a walk.
    const reach = this.reachOf(entry, () => preparePredictions(groundTruth, cutToTopK(row.regions, topK)), budget);
    this.storePatchReach(variantAtBudget, entry, explorer, reach);
    return reach;
  }

  private reachOf(entry: InstanceEntry, prepared: () => PreparedInstance, budget: number): PatchReach | null {
    const lines = entryOf(this.patchLines, entry.instanceId, () => goldPatchLines(entry));
    return lines === null ? null : patchReach(prepared(), budget, lines);
  }

  private storePatchReach(variantAtBudget: string, entry: InstanceEntry, explorer: string, reach: PatchReach | null): void {
    entryOf(
      entryOf(this.patch, entry.instanceId, () => new Map()),
      variantAtBudget,
      () => new Map<string, PatchReach | null>(),
    ).set(explorer, reach);
  }

  /** The anatomy cache's key of a variant at a budget (built once per walk, not per row). */
  static anatomyKey(variant: string, budget: number): string {
    return `${variant}|B${budget}`;
  }

  /** Drops every cached number of these instances (their counts or removals changed). */
  forget(instanceIds: Iterable<string>): void {
    for (const id of instanceIds) {
      this.scores.delete(id);
      this.anatomy.delete(id);
      this.patch.delete(id);
    }
  }

  clear(): void {
    this.scores.clear();
    this.anatomy.clear();
    this.patch.clear();
    this.patchLines.clear();
  }

  /** Drops every row of the variants whose key starts with `prefix` (a ground-truth source changed). */
  forgetVariants(prefix: string): void {
    for (const byInstance of [this.scores, this.anatomy, this.patch]) {
      for (const byVariant of byInstance.values()) for (const key of [...byVariant.keys()]) if (key.startsWith(prefix)) byVariant.delete(key);
    }
  }
}
