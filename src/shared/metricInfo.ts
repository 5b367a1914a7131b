/**
 * Names and definitions of the 17 official metrics, shared by the extension (tree labels, quick
 * picks) and the webviews (tooltips). The formulas themselves live in src/core.
 */
import type { OfficialMetricName } from '../core';

// The vocabulary's constants come from core/types.ts itself, not the core's index: a webview bundle
// that imported the index would carry the metric kernels' module-level tables for nothing.
export { OFFICIAL_BUDGETS, OFFICIAL_METRIC_NAMES, PROFILES, type OfficialMetricName, type Profile } from '../core/types';

/** Human labels and definitions (shown as tooltips) of the 17 official metrics. */
export const METRIC_INFO: Readonly<Record<OfficialMetricName, { label: string; definition: string }>> = {
  precision: { label: 'Precision', definition: '|P ∩ C| / |P|: share of predicted lines that are core lines (P = union of predicted lines, C = core lines).' },
  recall: { label: 'Recall', definition: '|P ∩ C| / |C|: share of core lines that some prediction covers.' },
  f1_score: { label: 'F1', definition: '2·precision·recall / (precision + recall).' },
  hit_file_rate: { label: 'HitFile', definition: 'Share of core files named by at least one prediction (unresolvable entries count).' },
  noise_file_rate: { label: 'Noise file rate', definition: 'Share of predicted files that are neither core nor optional files.' },
  hit_region_rate: { label: 'HitRegion', definition: 'Share of core regions that overlap at least one prediction (evaluator overlap test, inverted regions included).' },
  noise_region_rate: { label: 'Noise region rate', definition: 'Share of prediction entries overlapping no core and no optional region (duplicates and unresolvable entries count).' },
  weighted_core_coverage: { label: 'Weighted core coverage', definition: 'Σ w·cov / Σ w over core regions; cov = covered share of the region; w = 3 on main files, else 2.' },
  context_efficiency: { label: 'Context efficiency', definition: "|P ∩ (C ∪ O)| / |P|: share of predicted lines that are core or optional (O = all models' optional lines)." },
  optional_coverage: { label: 'Optional coverage', definition: '|P ∩ O| / |O|.' },
  ndcg_at_100: {
    label: 'nDCG@100',
    definition:
      "Budgeted DCG over entries (gain = core lines, ×1.5 in main files, not de-duplicated; first entry always admitted; a crossing entry ends the walk) divided by the same entries re-ranked by density (the evaluator's self-normalised ideal, not an oracle), clamped to 1.",
  },
  ndcg_at_300: { label: 'nDCG@300', definition: 'As nDCG@100 with a 300-line budget.' },
  ndcg_at_500: { label: 'nDCG@500', definition: 'As nDCG@100 with a 500-line budget.' },
  recall_at_100: { label: 'Recall@100', definition: 'Core lines among the first 100 predicted line occurrences (in rank order, duplicates consume budget) / |C|.' },
  recall_at_300: { label: 'Recall@300', definition: 'As Recall@100 with a 300-line budget.' },
  recall_at_500: { label: 'Recall@500', definition: 'As Recall@100 with a 500-line budget.' },
  first_useful_hit: { label: 'First useful hit', definition: '1 − i/n for the first entry i (0-based, of n) that contains a core line; 0 if none.' },
};
