/**
 * What the Leaderboard webview shows, derived from the store, and the main table as CSV and
 * Markdown for the clipboard. Pure (no `vscode`), so unit tests build it from a store directly.
 */
import { OFFICIAL_METRIC_NAMES, type OfficialMetricName } from '../../core';
import type { LeaderboardAnatomy, LeaderboardScores, MetricValues } from '../../data';
import { csvNumberCell, csvTextCell, escapeMarkdownText } from '../../shared/escape';
import { LEADERBOARD_COLUMNS, leaderboardCaption, type LeaderboardAnatomyRow, type LeaderboardExplorerRow, type LeaderboardState, type MetricValueMap } from '../../shared/leaderboardProtocol';
import { METRIC_INFO } from '../../shared/metricInfo';
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

function explorerRow(scores: LeaderboardScores, anatomy: LeaderboardAnatomy | undefined, withRepos: boolean): LeaderboardExplorerRow {
  return {
    explorer: scores.explorer,
    instances: scores.instances,
    expected: scores.expected,
    values: scores.macro === null ? null : valuesOf(scores.macro),
    repoCount: scores.repos.length,
    repos: withRepos ? scores.repos.map((r) => ({ repo: r.repo, instances: r.instances, values: valuesOf(r.macro) })) : [],
    anatomy: anatomyRow(anatomy),
  };
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
  };
  if (store.loading) return { ...base, status: 'loading', message: 'Loading the bench and prediction files…', explorers: [] };
  if (store.data.explorers.size === 0) {
    const message = ids.length === 0 ? 'No bench file loaded. Open a folder with a bench .jsonl and prediction files.' : 'No prediction files loaded: nothing to rank.';
    return { ...base, status: 'empty', message, explorers: [] };
  }
  const board = model.leaderboard(selection.budget);
  const anatomy = new Map(board.anatomy.map((a) => [a.explorer, a]));
  return { ...base, status: 'ready', message: '', explorers: board.scores.map((s) => explorerRow(s, anatomy.get(s.explorer), layout.matrix || layout.expanded.has(s.explorer))) };
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
