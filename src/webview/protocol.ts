/**
 * The typed message protocol between the extension host and the Scores webview. Both sides import
 * this module; each side validates what it receives with the guards below and drops anything else.
 */
import { PROFILES, type OfficialMetricName, type Profile } from '../core/types';

/** One metric as the Scores view shows it. */
export interface MetricRow {
  readonly name: OfficialMetricName;
  readonly label: string;
  readonly definition: string;
  readonly value: number;
  /** Value on the audited ground truth (removals applied), or null when nothing is removed. */
  readonly audited: number | null;
}

export interface PredictionRow {
  readonly rank: number;
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** "12–40", or why the entry is unresolvable. */
  readonly resolved: string;
  readonly lines: number;
  readonly cumulative: number;
  readonly gain: number;
  readonly discount: number;
  readonly linesInBudget: number;
  readonly budgetStatus: 'in' | 'partial' | 'over' | 'no-lines';
  readonly ndcgAdmitted: boolean;
  readonly noise: boolean;
}

export interface CurvePoint {
  readonly budget: number;
  readonly recall: number;
}

export interface ExplorerComparison {
  readonly explorer: string;
  readonly values: Readonly<Record<OfficialMetricName, number>>;
}

export interface ScoresState {
  readonly status: 'empty' | 'loading' | 'ready';
  /** Shown when status is not ready, or as a banner (e.g. load problems). */
  readonly message: string;
  readonly instanceId: string;
  readonly explorer: string;
  readonly explorers: readonly string[];
  readonly budget: number;
  readonly profile: Profile;
  readonly metrics: readonly MetricRow[];
  /** nDCG and Recall at the chosen budget, which may be a custom one. */
  readonly ndcgAtBudget: number;
  readonly recallAtBudget: number;
  readonly curve: readonly CurvePoint[];
  readonly predictions: readonly PredictionRow[];
  readonly quirks: readonly string[];
  readonly comparison: readonly ExplorerComparison[];
}

/** Extension → webview. */
export type ToWebview = { readonly type: 'state'; readonly state: ScoresState };

/** Webview → extension. */
export type FromWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'setBudget'; readonly budget: number }
  | { readonly type: 'setProfile'; readonly profile: Profile }
  | { readonly type: 'setExplorer'; readonly explorer: string }
  | { readonly type: 'revealPrediction'; readonly rank: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Largest line budget either side accepts. */
export const MAX_BUDGET = 1_000_000;

/** Validates a message from the webview; anything unknown or malformed yields null. */
export function parseFromWebview(value: unknown): FromWebview | null {
  if (!isRecord(value)) return null;
  switch (value['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'setBudget': {
      const budget = value['budget'];
      return Number.isInteger(budget) && (budget as number) >= 1 && (budget as number) <= MAX_BUDGET
        ? { type: 'setBudget', budget: budget as number }
        : null;
    }
    case 'setProfile': {
      const profile = value['profile'];
      return PROFILES.find((p) => p === profile) !== undefined ? { type: 'setProfile', profile: profile as Profile } : null;
    }
    case 'setExplorer': {
      const explorer = value['explorer'];
      return typeof explorer === 'string' && explorer.length > 0 && explorer.length < 500 ? { type: 'setExplorer', explorer } : null;
    }
    case 'revealPrediction': {
      const rank = value['rank'];
      return Number.isInteger(rank) && (rank as number) >= 1 ? { type: 'revealPrediction', rank: rank as number } : null;
    }
    default:
      return null;
  }
}

/** Validates a message from the extension (the webview trusts nothing it did not check). */
export function parseToWebview(value: unknown): ToWebview | null {
  if (!isRecord(value) || value['type'] !== 'state' || !isRecord(value['state'])) return null;
  const state = value['state'];
  const ok =
    typeof state['status'] === 'string' &&
    typeof state['instanceId'] === 'string' &&
    typeof state['explorer'] === 'string' &&
    Number.isFinite(state['budget']) &&
    Array.isArray(state['metrics']) &&
    Array.isArray(state['predictions']) &&
    Array.isArray(state['curve']) &&
    Array.isArray(state['quirks']) &&
    Array.isArray(state['explorers']) &&
    Array.isArray(state['comparison']);
  return ok ? { type: 'state', state: state as unknown as ScoresState } : null;
}

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
  context_efficiency: { label: 'Context efficiency', definition: '|P ∩ (C ∪ O)| / |P|: share of predicted lines that are core or optional (O = all models\' optional lines).' },
  optional_coverage: { label: 'Optional coverage', definition: '|P ∩ O| / |O|.' },
  ndcg_at_100: { label: 'nDCG@100', definition: 'Budgeted DCG over entries (gain = core lines, ×1.5 in main files, not de-duplicated; first entry always admitted; a crossing entry ends the walk) divided by the same entries re-ranked by density (the evaluator\'s self-normalised ideal, not an oracle), clamped to 1.' },
  ndcg_at_300: { label: 'nDCG@300', definition: 'As nDCG@100 with a 300-line budget.' },
  ndcg_at_500: { label: 'nDCG@500', definition: 'As nDCG@100 with a 500-line budget.' },
  recall_at_100: { label: 'Recall@100', definition: 'Core lines among the first 100 predicted line occurrences (in rank order, duplicates consume budget) / |C|.' },
  recall_at_300: { label: 'Recall@300', definition: 'As Recall@100 with a 300-line budget.' },
  recall_at_500: { label: 'Recall@500', definition: 'As Recall@100 with a 500-line budget.' },
  first_useful_hit: { label: 'First useful hit', definition: '1 − i/n for the first entry i (0-based, of n) that contains a core line; 0 if none.' },
};
