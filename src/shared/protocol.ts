/**
 * The typed message protocol between the extension host and the Scores webview. Both sides import
 * this module; each side validates what it receives with the guards below and drops anything else.
 */
import { PROFILES, type OfficialMetricName, type Profile } from '../core/types';

export { METRIC_INFO } from './metricInfo';

/** One metric as the Scores view shows it. */
export interface MetricRow {
  readonly name: OfficialMetricName;
  readonly label: string;
  readonly definition: string;
  readonly value: number;
  /** Value on the audited ground truth (removals applied), or null when nothing is removed. */
  readonly audited: number | null;
}

export interface AuditSummary {
  readonly removals: number;
  readonly drifted: number;
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

/** One explorer's macro averages over the instances scored so far (the numbers `swe-explore score` prints). */
export interface ExplorerMacroRow extends ExplorerComparison {
  /** Instances averaged so far. */
  readonly instances: number;
  /** Instances that take part once every line count is read (records with a core and a row). */
  readonly expected: number;
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
  /** nDCG and Recall at the chosen budget, which may be a custom one (on the audited ground truth). */
  readonly ndcgAtBudget: number;
  readonly recallAtBudget: number;
  /** The same two before the audit's removals, or null when nothing is removed. */
  readonly ndcgAtBudgetBefore: number | null;
  readonly recallAtBudgetBefore: number | null;
  /** The open instance's effective removals (and how many drifted), or null when it has none. */
  readonly audit: AuditSummary | null;
  readonly curve: readonly CurvePoint[];
  readonly predictions: readonly PredictionRow[];
  readonly quirks: readonly string[];
  readonly comparison: readonly ExplorerComparison[];
  readonly macros: readonly ExplorerMacroRow[];
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
      return Number.isInteger(budget) && (budget as number) >= 1 && (budget as number) <= MAX_BUDGET ? { type: 'setBudget', budget: budget as number } : null;
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
    Array.isArray(state['comparison']) &&
    Array.isArray(state['macros']);
  return ok ? { type: 'state', state: state as unknown as ScoresState } : null;
}
