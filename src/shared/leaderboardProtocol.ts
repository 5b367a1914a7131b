/**
 * The typed message protocol between the extension host and the Leaderboard webview panel. Both
 * sides import this module; each validates what it receives with the guards below and drops
 * anything else. The webview renders only what {@link parseToLeaderboardWebview} accepted, so the
 * guard checks every field the renderer reads (linear in the state's size).
 */
import type { MissCategory } from './anatomy';
import { OFFICIAL_METRIC_NAMES, PROFILES, type OfficialMetricName, type Profile } from './metricInfo';
import { everyItem, isBoundedText, isCount, isFiniteNumber, isRecord } from './guards';
import { ANATOMY_CATEGORIES } from './anatomy';

/**
 * The table's columns: the paper's headline metrics first (precision, nDCG@500, HitFile, context
 * efficiency), then recall and its budgeted forms, region hits, the first useful hit, the noise
 * rates, and the rest. A unit test keeps this a permutation of the 17 official names.
 */
export const LEADERBOARD_COLUMNS: readonly OfficialMetricName[] = [
  'precision',
  'ndcg_at_500',
  'hit_file_rate',
  'context_efficiency',
  'recall',
  'f1_score',
  'recall_at_100',
  'recall_at_500',
  'hit_region_rate',
  'first_useful_hit',
  'noise_file_rate',
  'noise_region_rate',
  'weighted_core_coverage',
  'optional_coverage',
  'ndcg_at_100',
  'ndcg_at_300',
  'recall_at_300',
];

/** Macro values of the 17 metrics. */
export type MetricValueMap = Readonly<Record<OfficialMetricName, number>>;

export interface LeaderboardRepoRow {
  readonly repo: string;
  readonly instances: number;
  readonly values: MetricValueMap;
}

export interface CarrierRow {
  readonly instanceId: string;
  readonly lines: number;
}

/** One explorer's miss anatomy at the state's budget: the `misses` totals. */
export interface LeaderboardAnatomyRow {
  readonly instances: number;
  readonly coreLines: number;
  readonly counts: Readonly<Record<MissCategory, number>>;
  /** Per category, the instances carrying most of its lines. */
  readonly top: Readonly<Record<MissCategory, readonly CarrierRow[]>>;
}

/** An explorer's own runs over its scored rows (issue 19): what `misses --explorer-trajs` sums. */
export interface LeaderboardRunsRow {
  /** Rows with a run read, and rows whose run is still being read. */
  readonly runs: number;
  readonly pending: number;
  /** Missed core lines the runs viewed, and missed core lines of those rows: "viewed but not reported". */
  readonly seenMissed: number;
  readonly missed: number;
  /** Means over the runs (null without one): steps, kept reads, distinct lines viewed. */
  readonly meanSteps: number | null;
  readonly meanReads: number | null;
  readonly meanViewedLines: number | null;
}

/** What the rows' runner `token_usage` says (rows: how many carry one). */
export interface LeaderboardTokensRow {
  readonly rows: number;
  readonly meanTokens: number | null;
  readonly tokensPerHitLine: number | null;
}

export interface LeaderboardExplorerRow {
  readonly explorer: string;
  /** The explorer's own runs; null without a run folder. */
  readonly runs?: LeaderboardRunsRow | null;
  /** Token spend; null when no row carries `token_usage`. */
  readonly tokens?: LeaderboardTokensRow | null;
  /** Instances averaged so far. */
  readonly instances: number;
  /** Instances that take part once every line count is read (records with a core, and a row). */
  readonly expected: number;
  /** Null while no row is scored: missing, not zero. */
  readonly values: MetricValueMap | null;
  /** Repos this explorer has scored rows in. */
  readonly repoCount: number;
  /**
   * Its per-repo rows, only while the webview shows them (the explorer expanded, or the repo ×
   * explorer matrix): 20 explorers × 60 repos × 17 metrics would otherwise make every state ~1 MB.
   */
  readonly repos: readonly LeaderboardRepoRow[];
  readonly anatomy: LeaderboardAnatomyRow;
  /** Gold patch lines reached within B over the rows whose instance has a patch; null when none has one. */
  readonly patchReach: LeaderboardPatchReachCell | null;
}

/** The "patch reach" column: Σ patch lines reached within B / Σ patch lines, over `instances` rows. */
export interface LeaderboardPatchReachCell {
  readonly instances: number;
  readonly patchLines: number;
  readonly reachedLines: number;
}

/** One ranking metric's order (best first) on the bench as written and on the ground truth in use, with Kendall's τ-b. */
export interface LeaderboardRanking {
  readonly metric: OfficialMetricName;
  readonly before: readonly string[];
  readonly after: readonly string[];
  /** Null with fewer than two explorers. */
  readonly tauB: number | null;
}

export interface LeaderboardState {
  readonly status: 'empty' | 'loading' | 'ready';
  /** Why there is nothing to show (status empty/loading); empty otherwise. */
  readonly message: string;
  readonly profile: Profile;
  readonly topK: number;
  /** The anatomy's budget B (the selection's). */
  readonly budget: number;
  /** Effective removals applied, and on how many instances (0/0: ground truth as written). */
  readonly audit: { readonly removals: number; readonly instances: number };
  /** Instances whose line counts are read, of all; `done === total` when averages are final. */
  readonly counting: { readonly done: number; readonly total: number };
  /** The explorer the store has selected (highlighted), or null. */
  readonly selectedExplorer: string | null;
  /** A metric column to sort by and highlight (a deep link's `metric`), or null. */
  readonly focusMetric: OfficialMetricName | null;
  readonly explorers: readonly LeaderboardExplorerRow[];
  /** Which ground truth the numbers use: "as written", or the source's label ("what-if: as-seen"). */
  readonly groundTruth: string;
  /** Under a ground truth other than the bench as written: the ranks as written → now; empty otherwise. */
  readonly rankings: readonly LeaderboardRanking[];
  /** False while the patch-reach column is still being computed (it follows the table). */
  readonly patchReachReady: boolean;
}

/** The caption line: profile, top-k, the anatomy's budget, the audit, and counting progress (the webview and the Markdown copy). */
export function leaderboardCaption(state: LeaderboardState): string {
  const removals = `${state.audit.removals} removals on ${state.audit.instances} instances applied`;
  const audit =
    state.groundTruth === 'as written'
      ? state.audit.removals === 0
        ? 'ground truth as written'
        : `audited: ${removals}`
      : `ground truth ${state.groundTruth}${state.audit.removals === 0 ? '' : ` + audit (${removals})`}`;
  const counting = state.counting.done < state.counting.total ? ` · counting… ${state.counting.done}/${state.counting.total}` : '';
  return `profile ${state.profile} · top-${state.topK} · miss anatomy at B=${state.budget} · ${audit}${counting}`;
}

/** Extension → webview. */
export type ToLeaderboardWebview = { readonly type: 'state'; readonly state: LeaderboardState };

/** Webview → extension. */
export type FromLeaderboardWebview =
  | { readonly type: 'ready' }
  /** A metric cell: select the explorer and sort the Instances tree by the metric. */
  | { readonly type: 'showMetric'; readonly explorer: string; readonly metric: OfficialMetricName }
  | { readonly type: 'copyLink'; readonly explorer: string; readonly metric: OfficialMetricName }
  /** An instance listed under an anatomy segment: open it with that explorer selected. */
  | { readonly type: 'openInstance'; readonly explorer: string; readonly instanceId: string }
  | { readonly type: 'copyTable'; readonly format: 'csv' | 'markdown' }
  /** Sent after a state is drawn (tests and the log know the panel shows it). */
  | { readonly type: 'rendered'; readonly explorers: number }
  /** What the webview shows that needs per-repo rows: the expanded explorers, and whether the matrix is on. */
  | { readonly type: 'layout'; readonly expanded: readonly string[]; readonly matrix: boolean };

/** Most explorers a layout message may name as expanded. */
export const MAX_EXPANDED = 1000;

/** Longest explorer name or instance id either side accepts. */
export const MAX_NAME_LENGTH = 4096;

function isName(value: unknown): value is string {
  return isBoundedText(value, MAX_NAME_LENGTH);
}

function isMetric(value: unknown): value is OfficialMetricName {
  return typeof value === 'string' && (OFFICIAL_METRIC_NAMES as readonly string[]).includes(value);
}

/** Validates a message from the webview; anything unknown or malformed yields null. */
export function parseFromLeaderboardWebview(value: unknown): FromLeaderboardWebview | null {
  if (!isRecord(value)) return null;
  switch (value['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'showMetric':
    case 'copyLink': {
      const { explorer, metric } = value;
      return isName(explorer) && isMetric(metric) ? { type: value['type'], explorer, metric } : null;
    }
    case 'openInstance': {
      const { explorer, instanceId } = value;
      return isName(explorer) && isName(instanceId) ? { type: 'openInstance', explorer, instanceId } : null;
    }
    case 'copyTable': {
      const format = value['format'];
      return format === 'csv' || format === 'markdown' ? { type: 'copyTable', format } : null;
    }
    case 'rendered': {
      const explorers = value['explorers'];
      return isCount(explorers) ? { type: 'rendered', explorers } : null;
    }
    case 'layout': {
      const { expanded, matrix } = value;
      return Array.isArray(expanded) && expanded.length <= MAX_EXPANDED && everyItem(expanded, isName) && typeof matrix === 'boolean' ? { type: 'layout', expanded, matrix } : null;
    }
    default:
      return null;
  }
}

function isValues(value: unknown): value is MetricValueMap {
  if (!isRecord(value)) return false;
  for (const name of OFFICIAL_METRIC_NAMES) if (!isFiniteNumber(value[name])) return false;
  return true;
}

function isRepoRow(value: unknown): value is LeaderboardRepoRow {
  return isRecord(value) && typeof value['repo'] === 'string' && isCount(value['instances']) && isValues(value['values']);
}

function isCarrier(value: unknown): value is CarrierRow {
  return isRecord(value) && isName(value['instanceId']) && isCount(value['lines']);
}

function isAnatomy(value: unknown): value is LeaderboardAnatomyRow {
  if (!isRecord(value) || !isCount(value['instances']) || !isCount(value['coreLines'])) return false;
  const { counts, top } = value;
  if (!isRecord(counts) || !isRecord(top)) return false;
  for (const category of ANATOMY_CATEGORIES) if (!isCount(counts[category]) || !everyItem(top[category], isCarrier)) return false;
  return true;
}

function isMean(value: unknown): boolean {
  return value === null || (isFiniteNumber(value) && value >= 0);
}

function isRunsRow(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (isRecord(value) &&
      isCount(value['runs']) &&
      isCount(value['pending']) &&
      isCount(value['seenMissed']) &&
      isCount(value['missed']) &&
      isMean(value['meanSteps']) &&
      isMean(value['meanReads']) &&
      isMean(value['meanViewedLines']))
  );
}

function isTokensRow(value: unknown): boolean {
  return value === undefined || value === null || (isRecord(value) && isCount(value['rows']) && isMean(value['meanTokens']) && isMean(value['tokensPerHitLine']));
}

function isExplorerRow(value: unknown): value is LeaderboardExplorerRow {
  return (
    isRecord(value) &&
    isRunsRow(value['runs']) &&
    isTokensRow(value['tokens']) &&
    isName(value['explorer']) &&
    isCount(value['instances']) &&
    isCount(value['expected']) &&
    (value['values'] === null || isValues(value['values'])) &&
    isCount(value['repoCount']) &&
    everyItem(value['repos'], isRepoRow) &&
    isAnatomy(value['anatomy']) &&
    (value['patchReach'] === null || isPatchReachCell(value['patchReach']))
  );
}

function isRanking(value: unknown): value is LeaderboardRanking {
  return isRecord(value) && isMetric(value['metric']) && everyItem(value['before'], isName) && everyItem(value['after'], isName) && (value['tauB'] === null || isFiniteNumber(value['tauB']));
}

function isPatchReachCell(value: unknown): value is LeaderboardPatchReachCell {
  return isRecord(value) && isCount(value['instances']) && isCount(value['patchLines']) && isCount(value['reachedLines']);
}

/** Validates a message from the extension (the webview trusts nothing it did not check). */
export function parseToLeaderboardWebview(value: unknown): ToLeaderboardWebview | null {
  if (!isRecord(value) || value['type'] !== 'state' || !isRecord(value['state'])) return null;
  const s = value['state'];
  const { audit, counting, status } = s;
  const ok =
    (status === 'empty' || status === 'loading' || status === 'ready') &&
    typeof s['message'] === 'string' &&
    PROFILES.includes(s['profile'] as Profile) &&
    isCount(s['topK']) &&
    isCount(s['budget']) &&
    isRecord(audit) &&
    isCount(audit['removals']) &&
    isCount(audit['instances']) &&
    isRecord(counting) &&
    isCount(counting['done']) &&
    isCount(counting['total']) &&
    (s['selectedExplorer'] === null || isName(s['selectedExplorer'])) &&
    (s['focusMetric'] === null || isMetric(s['focusMetric'])) &&
    typeof s['patchReachReady'] === 'boolean' &&
    everyItem(s['explorers'], isExplorerRow) &&
    isBoundedText(s['groundTruth'], MAX_NAME_LENGTH) &&
    everyItem(s['rankings'], isRanking);
  return ok ? { type: 'state', state: s as unknown as LeaderboardState } : null;
}
