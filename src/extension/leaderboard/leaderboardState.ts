/**
 * What the Leaderboard webview shows, derived from the store, and the main table as CSV and
 * Markdown for the clipboard. Pure (no `vscode`), so unit tests build it from a store directly.
 */
import { kendallTauB, OFFICIAL_METRIC_NAMES, RANKING_METRICS, type OfficialMetricName } from '../../core';
import type { LeaderboardAnatomy, LeaderboardExplorerRuns, LeaderboardPatchReach, LeaderboardScores, LeaderboardTokens, MetricValues } from '../../data';
import { csvNumberCell, csvTextCell, escapeMarkdownText } from '../../shared/escape';
import {
  LEADERBOARD_COLUMNS,
  leaderboardCaption,
  type LeaderboardAnatomyRow,
  type LeaderboardExplorerRow,
  type LeaderboardRanking,
  type LeaderboardRunsRow,
  type LeaderboardState,
  type LeaderboardTokensRow,
  type MetricValueMap,
} from '../../shared/leaderboardProtocol';
import { METRIC_INFO } from '../../shared/metricInfo';
import { AS_WRITTEN_SOURCE } from '../model/groundTruth';
import type { InspectorModel } from '../model/model';

function valuesOf(macro: MetricValues): MetricValueMap {
  const out = {} as Record<OfficialMetricName, number>;
  for (const name of OFFICIAL_METRIC_NAMES) out[name] = macro[name] ?? 0;
  return out;
}

function anatomyRow(anatomy: LeaderboardAnatomy | undefined): LeaderboardAnatomyRow {
  if (anatomy === undefined) {
    return {
      instances: 0,
      coreLines: 0,
      counts: { hit: 0, beyond_budget: 0, path_mismatch: 0, inverted: 0, wrong_region: 0, file_not_predicted: 0 },
      top: { hit: [], beyond_budget: [], path_mismatch: [], inverted: [], wrong_region: [], file_not_predicted: [] },
    };
  }
  const { coreLines, ...counts } = anatomy.totals;
  return { instances: anatomy.instances, coreLines, counts, top: anatomy.top };
}

function runsRow(runs: LeaderboardExplorerRuns | undefined, pending: number): LeaderboardRunsRow | null {
  if (runs === undefined) return null;
  return { runs: runs.runs, pending, seenMissed: runs.seenMissed, missed: runs.missed, meanSteps: runs.meanSteps, meanReads: runs.meanReads, meanViewedLines: runs.meanViewedLines };
}

function tokensRow(tokens: LeaderboardTokens | undefined): LeaderboardTokensRow | null {
  return tokens === undefined || tokens.rows === 0 ? null : { rows: tokens.rows, meanTokens: tokens.meanTokens, tokensPerHitLine: tokens.tokensPerHitLine };
}

function explorerRow(
  scores: LeaderboardScores,
  anatomy: LeaderboardAnatomy | undefined,
  patch: LeaderboardPatchReach | undefined,
  withRepos: boolean,
  runs: LeaderboardRunsRow | null,
  tokens: LeaderboardTokensRow | null,
): LeaderboardExplorerRow {
  return {
    explorer: scores.explorer,
    runs,
    tokens,
    instances: scores.instances,
    expected: scores.expected,
    values: scores.macro === null ? null : valuesOf(scores.macro),
    repoCount: scores.repos.length,
    repos: withRepos ? scores.repos.map((r) => ({ repo: r.repo, instances: r.instances, values: valuesOf(r.macro) })) : [],
    anatomy: anatomyRow(anatomy),
    patchReach: patch === undefined || patch.instances === 0 ? null : { instances: patch.instances, patchLines: patch.patchLines, reachedLines: patch.reachedLines },
  };
}

/**
 * Under a ground truth other than the bench as written (a what-if, or audit removals): each ranking
 * metric's order of the explorers (best first, ties in name order) as written and now, with
 * Kendall's τ-b over their paired macro values — as `swe-explore whatif` / `audit-impact` rank.
 */
export function leaderboardRankings(model: InspectorModel): LeaderboardRanking[] {
  const { selection, audit } = model.store;
  const differs = model.groundTruths.sourceOf(selection) !== AS_WRITTEN_SOURCE || (selection.audited && audit.removalsByInstance.size > 0);
  if (!differs) return [];
  const after = model.macros;
  const before = model.macrosAsWritten;
  const explorers = [...after.keys()].sort();
  const valueOf = (macros: typeof after, explorer: string, metric: OfficialMetricName): number => macros.get(explorer)?.macro[metric] ?? 0;
  const rank = (macros: typeof after, metric: OfficialMetricName): string[] =>
    explorers
      .map((explorer, index) => ({ explorer, index, v: valueOf(macros, explorer, metric) }))
      .sort((a, b) => b.v - a.v || a.index - b.index)
      .map((e) => e.explorer);
  return RANKING_METRICS.map((metric) => ({
    metric,
    before: rank(before, metric),
    after: rank(after, metric),
    tauB: kendallTauB(
      explorers.map((e) => valueOf(before, e, metric)),
      explorers.map((e) => valueOf(after, e, metric)),
    ),
  }));
}

/** Which per-repo rows the webview shows (it says so with a `layout` message). */
export interface LeaderboardLayout {
  readonly expanded: ReadonlySet<string>;
  readonly matrix: boolean;
}

export const NO_REPO_ROWS: LeaderboardLayout = { expanded: new Set(), matrix: false };

/** The webview's state: the model's leaderboard at the selection's ground truth, profile, top-k and budget. */
export function buildLeaderboardState(model: InspectorModel, focusMetric: OfficialMetricName | null = null, layout: LeaderboardLayout = NO_REPO_ROWS): LeaderboardState {
  const { store } = model;
  const { selection } = store;
  const ids = store.instanceIds;
  let done = 0;
  for (const id of ids) if (store.hasLineCounts(id)) done++;
  let removals = 0;
  for (const list of store.audit.removalsByInstance.values()) removals += list.length;
  const base = {
    profile: selection.profile,
    topK: selection.topK,
    budget: selection.budget,
    audit: { removals, instances: store.audit.removalsByInstance.size },
    counting: { done, total: ids.length },
    selectedExplorer: selection.explorer ?? null,
    focusMetric,
    groundTruth: model.groundTruths.sourceOf(selection).label,
    rankings: [] as LeaderboardRanking[],
    patchReachReady: false,
  };
  if (store.loading) return { ...base, status: 'loading', message: 'Loading the bench and prediction files…', explorers: [] };
  if (store.data.explorers.size === 0) {
    const message = ids.length === 0 ? 'No bench file loaded. Open a folder with a bench .jsonl and prediction files.' : 'No prediction files loaded: nothing to rank.';
    return { ...base, status: 'empty', message, explorers: [] };
  }
  const board = model.leaderboard(selection.budget);
  const anatomy = new Map(board.anatomy.map((a) => [a.explorer, a]));
  const columns = model.runColumns(selection.budget);
  const runs = new Map(columns.runs.map((r) => [r.explorer, r]));
  const tokens = new Map(columns.tokens.map((t) => [t.explorer, t]));
  const patch = new Map((board.patchReach ?? []).map((p) => [p.explorer, p]));
  return {
    ...base,
    status: 'ready',
    message: '',
    patchReachReady: board.patchReach !== undefined,
    rankings: leaderboardRankings(model),
    explorers: board.scores.map((s) =>
      explorerRow(
        s,
        anatomy.get(s.explorer),
        patch.get(s.explorer),
        layout.matrix || layout.expanded.has(s.explorer),
        runsRow(runs.get(s.explorer), columns.pending.get(s.explorer) ?? 0),
        tokensRow(tokens.get(s.explorer)),
      ),
    ),
  };
}

/** The main table as CSV: full-precision numbers; a missing macro is an empty cell, not 0. */
export function leaderboardCsv(state: LeaderboardState): string {
  const lines = [['explorer', 'instances', 'expected', ...LEADERBOARD_COLUMNS].join(',')];
  for (const row of state.explorers) {
    const cells = [csvTextCell(row.explorer), csvNumberCell(row.instances), csvNumberCell(row.expected)];
    for (const name of LEADERBOARD_COLUMNS) cells.push(row.values === null ? '' : csvNumberCell(row.values[name]));
    lines.push(cells.join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/**
 * A table cell from data: every Markdown punctuation character (`|` included, which would end a
 * GFM table cell) and every backslash escaped, controls shown as escapes, so a name renders as
 * written and cannot break the table or form a link.
 */
function markdownCell(text: string): string {
  return escapeMarkdownText(text);
}

/** The main table as Markdown: a header line with profile and k, 3 decimals, names escaped. */
export function leaderboardMarkdown(state: LeaderboardState): string {
  const header = ['Explorer', 'Instances', ...LEADERBOARD_COLUMNS.map((name) => METRIC_INFO[name].label)];
  const lines = [`**SWE-Explore leaderboard** — ${markdownCell(leaderboardCaption(state))}`, '', `| ${header.join(' | ')} |`, `|${header.map((_, i) => (i < 1 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const row of state.explorers) {
    const cells = [markdownCell(row.explorer), row.instances === row.expected ? String(row.instances) : `${row.instances} of ${row.expected}`];
    for (const name of LEADERBOARD_COLUMNS) cells.push(row.values === null ? '—' : row.values[name].toFixed(3));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}
