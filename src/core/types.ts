/**
 * Shared vocabulary of the metric core. Every line number here is 1-based and inclusive,
 * exactly as in SWE-Explore data; `end = -1` means "to the end of the file".
 */

/** A region as it appears in data files: `(path, start, end)`. */
export interface Region {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

/** Ground truth of one instance, as read from `record.ground_truth`. */
export interface GroundTruth {
  readonly coreFiles: readonly string[];
  readonly coreRegions: readonly Region[];
  readonly optionalFilesByModel: Readonly<Record<string, readonly string[]>>;
  readonly optionalRegionsByModel: Readonly<Record<string, readonly Region[]>>;
  readonly mainFiles: readonly string[];
  readonly modifiedCoreFiles: readonly string[];
}

/**
 * Which line counts the evaluator may use.
 * - `official`: counts only for ground-truth-region paths (core + every model's optional
 *   regions), as the official runner builds them. Numbers under this profile are citable.
 * - `snapshot`: counts for every file of the snapshot (what the downstream quality pipeline does).
 */
export type Profile = 'official' | 'snapshot';

export const PROFILES: readonly Profile[] = ['official', 'snapshot'];

/** Line counts known for an instance's files, counted with the evaluator's rule. */
export type LineCounts = ReadonlyMap<string, number>;

/** The 17 official per-instance metric fields, in the order the evaluator writes them. */
export const OFFICIAL_METRIC_NAMES = [
  'precision',
  'recall',
  'f1_score',
  'hit_file_rate',
  'noise_file_rate',
  'hit_region_rate',
  'noise_region_rate',
  'weighted_core_coverage',
  'context_efficiency',
  'optional_coverage',
  'ndcg_at_100',
  'ndcg_at_300',
  'ndcg_at_500',
  'recall_at_100',
  'recall_at_300',
  'recall_at_500',
  'first_useful_hit',
] as const;

export type OfficialMetricName = (typeof OFFICIAL_METRIC_NAMES)[number];

export type OfficialMetrics = Record<OfficialMetricName, number>;

export const OFFICIAL_BUDGETS = [100, 300, 500] as const;

/** A span of ground truth taken out by an audit; removals change inputs, never formulas. */
export interface Removal {
  readonly layer: 'core' | 'optional';
  /** For optional removals: the model whose list is edited; `null` edits every model's list. */
  readonly model: string | null;
  readonly path: string;
  readonly start: number;
  readonly end: number;
}
