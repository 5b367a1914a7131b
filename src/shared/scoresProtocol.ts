/**
 * The typed message protocol between the extension host and the Scores webview (the sidebar view). Both sides import
 * this module; each side validates what it receives with the guards below and drops anything else.
 */
import { isAnatomySummary, type AnatomySummary } from './anatomy';
import { isRecord } from './guards';
import { PROFILES, type OfficialMetricName, type Profile } from './metricInfo';

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
  /** Null when the explorer has no row for the instance: its scores are missing, not zero. */
  readonly values: Readonly<Record<OfficialMetricName, number>> | null;
}

/** One explorer's macro averages over the instances scored so far (the numbers `swe-explore score` prints). */
export interface ExplorerMacroRow extends ExplorerComparison {
  readonly values: Readonly<Record<OfficialMetricName, number>>;
  /** Instances averaged so far. */
  readonly instances: number;
  /** Instances that take part once every line count is read (records with a core and a row). */
  readonly expected: number;
}

/** One side of compare mode. Without a row its numbers are null: missing, not zero. */
export interface CompareSide {
  readonly explorer: string;
  readonly hasRow: boolean;
  readonly ndcgAtBudget: number | null;
  readonly recallAtBudget: number | null;
  readonly anatomy: AnatomySummary | null;
}

/** One official metric for A and B; `delta` is B − A, null when either side is missing. */
export interface CompareMetricRow {
  readonly name: OfficialMetricName;
  readonly label: string;
  readonly definition: string;
  readonly a: number | null;
  readonly b: number | null;
  readonly delta: number | null;
}

/** Compare mode: explorer A (the shown one) against explorer B on the open instance. */
export interface CompareState {
  readonly a: CompareSide;
  readonly b: CompareSide;
  readonly metrics: readonly CompareMetricRow[];
}

/** One choice of the ground-truth selector. */
export interface GroundTruthOption {
  /** `as-written`, `audited` or `what-if:<rules>`. */
  readonly id: string;
  readonly label: string;
}

/** The ground-truth selector: what can be chosen, what is in effect, what is being computed. */
export interface GroundTruthChoice {
  readonly options: readonly GroundTruthOption[];
  readonly selected: string;
  /** "what-if: as-seen (12 of 848 instances)" while a what-if is computed, else null. */
  readonly pending: string | null;
}

/** The open instance under the what-if in use. */
export interface WhatIfNote {
  /** "what-if: as-seen". */
  readonly label: string;
  /** "core lines 158 → 205 (47 join, 0 leave)". */
  readonly core: string;
  /** How its runs were used. */
  readonly runs: string;
  readonly joined: number;
  readonly left: number;
}

/** Whether the shown list reaches the lines the gold patch edits within B (issue 16). */
export interface PatchReachRow {
  /** "gold patch lines: 12/14 within B=500 by #2" (numbers only). */
  readonly summary: string;
  readonly patchLines: number;
  readonly reachedLines: number;
  readonly firstRank: number | null;
  /** The first few runs of patch lines not reached, and how many runs there are in all. */
  readonly missed: readonly { readonly path: string; readonly start: number; readonly end: number }[];
  readonly missedSpans: number;
  /** Patch lines outside the core (the anatomy cannot show them). */
  readonly outsideCore: number;
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
  /** The loaded bench file as the user sees it (relative to the workspace folder); empty when none. */
  readonly bench: string;
  /** Which ground truth the numbers use ("as written", "audited (2 removals on this instance)", a what-if); empty without an open instance. */
  readonly groundTruth: string;
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
  /** Every loaded explorer on this instance; one without a row has `values: null`. */
  readonly comparison: readonly ExplorerComparison[];
  readonly macros: readonly ExplorerMacroRow[];
  /** The shown explorer's miss anatomy on the open instance, or null when not ready. */
  readonly anatomy: AnatomySummary | null;
  /** Compare mode, or null when not comparing. */
  readonly compare: CompareState | null;
  readonly groundTruthChoice: GroundTruthChoice;
  /** What the after column of a before → after is called: "Audited", "What-if". */
  readonly afterLabel: string;
  /** The open instance under the what-if in use, or null when none is. */
  readonly whatIf: WhatIfNote | null;
  /** The shown explorer's reach of the gold patch's lines, or null when the record has no patch. */
  readonly patchReach: PatchReachRow | null;
}

/** Extension → webview. */
export type ToScoresWebview = { readonly type: 'state'; readonly state: ScoresState };

/** Webview → extension. */
export type FromScoresWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'setBudget'; readonly budget: number }
  | { readonly type: 'setProfile'; readonly profile: Profile }
  | { readonly type: 'setExplorer'; readonly explorer: string }
  | { readonly type: 'revealPrediction'; readonly rank: number }
  | { readonly type: 'stopComparing' }
  /** A choice of the selector (`as-written`, `audited`, `what-if:<rules>`). */
  | { readonly type: 'setGroundTruth'; readonly choice: string }
  /** Open the quick pick that composes what-if rules. */
  | { readonly type: 'composeWhatIf' };

/** Largest line budget either side accepts. */
export const MAX_BUDGET = 1_000_000;

/** Validates a message from the webview; anything unknown or malformed yields null. */
export function parseFromScoresWebview(value: unknown): FromScoresWebview | null {
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
    case 'stopComparing':
      return { type: 'stopComparing' };
    case 'setGroundTruth': {
      const choice = value['choice'];
      return typeof choice === 'string' && choice.length > 0 && choice.length < 2000 ? { type: 'setGroundTruth', choice } : null;
    }
    case 'composeWhatIf':
      return { type: 'composeWhatIf' };
    default:
      return null;
  }
}

/** Validates a message from the extension (the webview trusts nothing it did not check). */
export function parseToScoresWebview(value: unknown): ToScoresWebview | null {
  if (!isRecord(value) || value['type'] !== 'state' || !isRecord(value['state'])) return null;
  const state = value['state'];
  const ok =
    typeof state['status'] === 'string' &&
    typeof state['instanceId'] === 'string' &&
    typeof state['explorer'] === 'string' &&
    typeof state['groundTruth'] === 'string' &&
    typeof state['bench'] === 'string' &&
    Number.isFinite(state['budget']) &&
    Array.isArray(state['metrics']) &&
    Array.isArray(state['predictions']) &&
    Array.isArray(state['curve']) &&
    Array.isArray(state['quirks']) &&
    Array.isArray(state['explorers']) &&
    Array.isArray(state['comparison']) &&
    Array.isArray(state['macros']) &&
    (state['anatomy'] === null || isAnatomySummary(state['anatomy'])) &&
    (state['compare'] === null || isCompare(state['compare'])) &&
    isGroundTruthChoice(state['groundTruthChoice']) &&
    typeof state['afterLabel'] === 'string' &&
    (state['whatIf'] === null || isWhatIfNote(state['whatIf'])) &&
    (state['patchReach'] === null || isPatchReach(state['patchReach']));
  return ok ? { type: 'state', state: state as unknown as ScoresState } : null;
}

function isGroundTruthChoice(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value['selected'] === 'string' &&
    (value['pending'] === null || typeof value['pending'] === 'string') &&
    Array.isArray(value['options']) &&
    value['options'].every((o: unknown) => isRecord(o) && typeof o['id'] === 'string' && typeof o['label'] === 'string')
  );
}

function isWhatIfNote(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value['label'] === 'string' &&
    typeof value['core'] === 'string' &&
    typeof value['runs'] === 'string' &&
    Number.isFinite(value['joined']) &&
    Number.isFinite(value['left'])
  );
}

function isPatchReach(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value['summary'] === 'string' &&
    Number.isFinite(value['patchLines']) &&
    Number.isFinite(value['reachedLines']) &&
    Number.isFinite(value['missedSpans']) &&
    Number.isFinite(value['outsideCore']) &&
    Array.isArray(value['missed']) &&
    value['missed'].every((m: unknown) => isRecord(m) && typeof m['path'] === 'string' && Number.isFinite(m['start']) && Number.isFinite(m['end']))
  );
}

function isCompareSide(value: unknown): boolean {
  return isRecord(value) && typeof value['explorer'] === 'string' && typeof value['hasRow'] === 'boolean' && (value['anatomy'] === null || isAnatomySummary(value['anatomy']));
}

function isCompare(value: unknown): boolean {
  return isRecord(value) && isCompareSide(value['a']) && isCompareSide(value['b']) && Array.isArray(value['metrics']);
}
