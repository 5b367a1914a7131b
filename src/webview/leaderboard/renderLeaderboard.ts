/**
 * The Leaderboard's DOM: the explorer table (sortable, with per-repo rows behind a disclosure
 * button), the repo × explorer matrix for one metric, and one miss-anatomy bar per explorer whose
 * segments list the instances carrying most of their category. Every piece of data text (explorer,
 * repo, instance id) goes through `el`, i.e. text nodes only. Cells carry `data-explorer`,
 * `data-metric`, `data-value` (full precision) and, in per-repo cells, `data-repo`.
 */
import {
  LEADERBOARD_COLUMNS,
  leaderboardCaption,
  type FromLeaderboardWebview,
  type LeaderboardExplorerRow,
  type LeaderboardRanking,
  type LeaderboardState,
  type MetricValueMap,
} from '../../shared/leaderboardProtocol';
import { METRIC_INFO, type OfficialMetricName } from '../../shared/metricInfo';
import { ANATOMY_CATEGORIES, ANATOMY_INFO, type MissCategory } from '../../shared/anatomy';
import { el } from '../dom';
import { fmt3, fmtCount } from '../format';

type SortKey = 'explorer' | 'instances' | OfficialMetricName;

/** One explorer's rank as written → now ("2 → 1"), marked when it moved. */
function rankCell(ranking: LeaderboardRanking, explorer: string): HTMLElement {
  const before = ranking.before.indexOf(explorer) + 1;
  const after = ranking.after.indexOf(explorer) + 1;
  const moved = before !== after;
  return el(
    'td',
    { class: moved ? 'num rank moved' : 'num rank', 'data-explorer': explorer, 'data-rank-before': before, 'data-rank-after': after, title: `${explorer}: rank ${before} as written, ${after} now` },
    moved ? `${before} → ${after}` : String(after),
  );
}

/** Under a ground truth other than the bench as written: every ranking metric's ranks as written → now, with τ-b. */
function rankingsTable(state: LeaderboardState): HTMLElement | null {
  if (state.rankings.length === 0) return null;
  const explorers = state.rankings[0]!.before;
  return el(
    'section',
    { class: 'rankings-section', 'aria-labelledby': 'rankings-heading' },
    el('h3', { id: 'rankings-heading' }, `Ranks: as written → ${state.groundTruth}`),
    el(
      'div',
      { class: 'table-scroll' },
      el(
        'table',
        { class: 'rankings-table', 'data-rankings': '' },
        el(
          'thead',
          null,
          el(
            'tr',
            null,
            el('th', { scope: 'col' }, 'Metric'),
            explorers.map((e) => el('th', { scope: 'col', class: 'num' }, e)),
            el('th', { scope: 'col', class: 'num' }, 'Kendall τ-b'),
          ),
        ),
        el(
          'tbody',
          null,
          state.rankings.map((r) =>
            el(
              'tr',
              { 'data-metric': r.metric },
              el('th', { scope: 'row' }, METRIC_INFO[r.metric].label),
              explorers.map((e) => rankCell(r, e)),
              el('td', { class: 'num', 'data-tau-b': r.tauB === null ? '' : String(r.tauB) }, r.tauB === null ? '—' : r.tauB.toFixed(3)),
            ),
          ),
        ),
      ),
    ),
    el('p', { class: 'muted note' }, 'Explorers best first by each metric\u2019s macro average; τ-b pairs the averages as written with those now (1: the same order).'),
  );
}

/** What the person chose in the panel; survives a new state and a reload of the page. */
export interface LeaderboardUi {
  sort: SortKey;
  descending: boolean;
  mode: 'explorers' | 'matrix';
  matrixMetric: OfficialMetricName;
  expanded: string[];
  /** The anatomy segment whose instances are listed. */
  segment: { explorer: string; category: MissCategory } | null;
}

export function defaultUi(): LeaderboardUi {
  // Recall@500 by default: nDCG@500 is 1.000 on most repos of a small benchmark and ranks nothing.
  return { sort: 'explorer', descending: false, mode: 'explorers', matrixMetric: 'recall_at_500', expanded: [], segment: null };
}

function patchReachHeaderTitle(budget: number): string {
  return `Gold patch lines (removed lines and insertion anchors on the base snapshot) reached within B=${budget}, summed over the instances with a patch`;
}

/** "9/11 · 82%": patch lines reached within B over the rows with a patch; "—" when none has one. */
function patchReachCell(row: LeaderboardExplorerRow, budget: number, ready: boolean): HTMLElement {
  if (!ready) return el('td', { class: 'num patch-col muted', 'data-patch-pending': 'true', title: 'Computing the gold patch reach…' }, '…');
  const reach = row.patchReach;
  if (reach === null) return el('td', { class: 'num patch-col missing', 'data-patch-reach': '', title: 'No instance of this explorer has a gold patch' }, '—');
  const share = reach.patchLines === 0 ? '' : ` · ${Math.round((100 * reach.reachedLines) / reach.patchLines)}%`;
  return el(
    'td',
    {
      class: 'num patch-col',
      'data-explorer': row.explorer,
      'data-patch-reach': `${reach.reachedLines}/${reach.patchLines}`,
      title: `${reach.reachedLines} of ${reach.patchLines} gold patch lines reached within B=${budget}, over ${reach.instances} instance${reach.instances === 1 ? '' : 's'} with a patch`,
    },
    `${fmtCount(reach.reachedLines)}/${fmtCount(reach.patchLines)}${share}`,
  );
}

export interface LeaderboardView {
  render(state: LeaderboardState): void;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rows in the chosen order; a missing value sorts last whichever the direction. */
function sortedRows(state: LeaderboardState, ui: LeaderboardUi): LeaderboardExplorerRow[] {
  const rows = [...state.explorers];
  const sign = ui.descending ? -1 : 1;
  const { sort } = ui;
  rows.sort((a, b) => {
    if (sort === 'explorer') return sign * compareText(a.explorer, b.explorer);
    if (sort === 'instances') return sign * (a.instances - b.instances) || compareText(a.explorer, b.explorer);
    if (a.values === null || b.values === null) return (a.values === null ? 1 : 0) - (b.values === null ? 1 : 0) || compareText(a.explorer, b.explorer);
    return sign * (a.values[sort] - b.values[sort]) || compareText(a.explorer, b.explorer);
  });
  return rows;
}

export function createLeaderboardView(root: HTMLElement, post: (message: FromLeaderboardWebview) => void, ui: LeaderboardUi, saveUi: () => void): LeaderboardView {
  let current: LeaderboardState | undefined;
  let lastFocusMetric: OfficialMetricName | null = null;

  /**
   * Per-repo rows travel only for what is shown (expanded explorers, or the matrix): tell the
   * extension when that changes; it answers with a state that carries them.
   */
  let sentLayout = '';
  const postLayout = (): void => {
    const layout = { expanded: [...ui.expanded].sort(), matrix: ui.mode === 'matrix' };
    const text = JSON.stringify(layout);
    if (text === sentLayout) return;
    sentLayout = text;
    post({ type: 'layout', ...layout });
  };

  const rerender = (): void => {
    saveUi();
    postLayout();
    if (current !== undefined) draw(current);
  };
  postLayout();

  /** A metric cell: the value (click: sort the Instances tree by it) and a copy-link button. */
  const metricCell = (explorer: string, metric: OfficialMetricName, values: MetricValueMap | null, repo?: string): HTMLElement => {
    const label = METRIC_INFO[metric].label;
    if (values === null) {
      return el('td', { class: 'num missing', 'data-explorer': explorer, 'data-metric': metric, 'data-repo': repo, 'data-missing': 'true', title: 'No scored row yet: missing, not zero' }, '—');
    }
    const value = values[metric];
    const where = repo === undefined ? explorer : `${explorer} on ${repo}`;
    const show = el('button', { class: 'cell-value', type: 'button', title: `${label} of ${where}: ${String(value)}. Click: sort the Instances view by ${label} for this explorer.` }, fmt3(value));
    show.addEventListener('click', () => post({ type: 'showMetric', explorer, metric }));
    const link = el('button', { class: 'cell-link', type: 'button', title: `Copy a link to ${label} of this explorer`, 'aria-label': `Copy link: ${label}, ${explorer}` }, 'link');
    link.addEventListener('click', (event) => {
      event.stopPropagation();
      post({ type: 'copyLink', explorer, metric });
    });
    const focused = current?.focusMetric === metric ? ' focused' : '';
    return el('td', { class: `num${focused}`, 'data-explorer': explorer, 'data-metric': metric, 'data-value': String(value), 'data-repo': repo }, show, link);
  };

  const sortHeader = (key: SortKey, text: string, title: string): HTMLElement => {
    const active = ui.sort === key;
    const button = el('button', { class: 'sort', type: 'button', title }, text, active ? (ui.descending ? ' ▼' : ' ▲') : '');
    button.addEventListener('click', () => {
      if (ui.sort === key) ui.descending = !ui.descending;
      else {
        ui.sort = key;
        // Numbers read best-first; names alphabetically.
        ui.descending = key !== 'explorer';
      }
      rerender();
    });
    return el('th', { scope: 'col', 'aria-sort': active ? (ui.descending ? 'descending' : 'ascending') : 'none', 'data-sort-key': key, class: key === 'explorer' ? 'name' : 'num' }, button);
  };

  const instancesText = (row: { instances: number; expected: number }): string =>
    row.instances === row.expected ? fmtCount(row.instances) : `${fmtCount(row.instances)} of ${fmtCount(row.expected)}`;

  const explorerTable = (state: LeaderboardState): HTMLElement => {
    const head = el(
      'tr',
      null,
      sortHeader('explorer', 'Explorer', 'Explorer label (one per prediction file or explorer field)'),
      sortHeader('instances', 'Instances', 'Instances averaged, and of how many once every line count is read (an explorer without a row for an instance is missing there, not zero)'),
      el('th', { scope: 'col', class: 'num patch-col', title: patchReachHeaderTitle(state.budget) }, 'Patch reach'),
      LEADERBOARD_COLUMNS.map((name) => sortHeader(name, METRIC_INFO[name].label, `${name}: ${METRIC_INFO[name].definition}`)),
    );
    const body = el('tbody');
    for (const row of sortedRows(state, ui)) {
      const open = ui.expanded.includes(row.explorer);
      const toggle = el(
        'button',
        { class: 'disclosure', type: 'button', 'aria-expanded': open ? 'true' : 'false', title: open ? 'Hide the per-repo rows' : 'Show the per-repo rows', disabled: row.repoCount === 0 },
        open ? '▾' : '▸',
      );
      toggle.addEventListener('click', () => {
        ui.expanded = open ? ui.expanded.filter((e) => e !== row.explorer) : [...ui.expanded, row.explorer];
        rerender();
      });
      const selected = state.selectedExplorer === row.explorer;
      const short = row.instances < row.expected;
      body.appendChild(
        el(
          'tr',
          { class: `explorer-row${selected ? ' selected' : ''}`, 'data-row-explorer': row.explorer },
          el(
            'th',
            { scope: 'row', class: 'name', title: row.explorer },
            toggle,
            ' ',
            el('span', { class: 'explorer-name' }, row.explorer),
            selected ? el('span', { class: 'badge', title: 'the selected explorer' }, ' ●') : null,
          ),
          el(
            'td',
            { class: `num instances${short ? ' short' : ''}`, 'data-explorer': row.explorer, 'data-instances': String(row.instances), 'data-expected': String(row.expected) },
            instancesText(row),
          ),
          patchReachCell(row, state.budget, state.patchReachReady === true),
          LEADERBOARD_COLUMNS.map((name) => metricCell(row.explorer, name, row.values)),
        ),
      );
      if (!open) continue;
      for (const repo of row.repos) {
        body.appendChild(
          el(
            'tr',
            { class: 'repo-row', 'data-row-explorer': row.explorer, 'data-row-repo': repo.repo },
            el('th', { scope: 'row', class: 'name repo-name', title: repo.repo }, repo.repo),
            el('td', { class: 'num instances', 'data-explorer': row.explorer, 'data-repo': repo.repo }, fmtCount(repo.instances)),
            el('td', { class: 'num patch-col muted' }),
            LEADERBOARD_COLUMNS.map((name) => metricCell(row.explorer, name, repo.values, repo.repo)),
          ),
        );
      }
    }
    return el('div', { class: 'table-wrap' }, el('table', { class: 'leaderboard' }, el('thead', null, head), body));
  };

  const matrixTable = (state: LeaderboardState): HTMLElement => {
    const metric = ui.matrixMetric;
    const explorers = sortedRows(state, ui);
    const repoSet = new Set<string>();
    for (const row of explorers) for (const r of row.repos) repoSet.add(r.repo);
    const repos = [...repoSet].sort(compareText);
    const head = el(
      'tr',
      null,
      el('th', { scope: 'col', class: 'name' }, 'Repo'),
      explorers.map((row) => el('th', { scope: 'col', class: 'num explorer-col', title: row.explorer }, el('span', { class: 'explorer-name' }, row.explorer))),
    );
    const body = el('tbody');
    for (const repo of repos) {
      body.appendChild(
        el(
          'tr',
          null,
          el('th', { scope: 'row', class: 'name', title: repo }, repo),
          explorers.map((row) => {
            const found = row.repos.find((r) => r.repo === repo);
            const cell = metricCell(row.explorer, metric, found?.values ?? null, repo);
            // How many instances the cell averages: a repo with n = 1 reads very differently.
            if (found !== undefined)
              cell.append(
                el(
                  'span',
                  { class: 'cell-n muted', 'data-n': String(found.instances), title: `averaged over ${found.instances} instance${found.instances === 1 ? '' : 's'}` },
                  `n=${fmtCount(found.instances)}`,
                ),
              );
            return cell;
          }),
        ),
      );
    }
    body.appendChild(
      el(
        'tr',
        { class: 'total-row' },
        el('th', { scope: 'row', class: 'name' }, 'All repos'),
        explorers.map((row) => metricCell(row.explorer, metric, row.values)),
      ),
    );
    return el('div', { class: 'table-wrap' }, el('table', { class: 'leaderboard matrix' }, el('thead', null, head), body));
  };

  /** One number of the spend table: a mean with one decimal, a dash when there is none. */
  const mean = (value: number | null | undefined): string => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(1) : '—');

  /**
   * What the explorers' own runs saw and what the explorers spent (issue 19): per explorer with runs
   * or token usage, "viewed but not reported" (missed core lines its runs viewed / missed core
   * lines, as `misses --explorer-trajs` sums them), the runs' mean length, tokens per instance and
   * per core line hit. Null when no explorer has either.
   */
  const spendTable = (state: LeaderboardState): HTMLElement | null => {
    const rows = state.explorers.filter((row) => (row.runs ?? null) !== null || (row.tokens ?? null) !== null);
    if (rows.length === 0) return null;
    const th = (text: string, title: string): HTMLElement => el('th', { scope: 'col', class: 'num', title }, text);
    const head = el(
      'tr',
      null,
      el('th', { scope: 'col', class: 'name' }, 'Explorer'),
      th('Runs', 'Scored rows with a run of the explorer read (… while more are being read)'),
      th('Viewed but not reported', "Missed core lines the explorer's own runs viewed / missed core lines of those rows (as swe-explore misses --explorer-trajs sums them)"),
      th('Steps', 'Mean assistant steps per run'),
      th('Reads', 'Mean kept reads per run'),
      th('Lines viewed', 'Mean distinct lines a run viewed'),
      th('Tokens / instance', "Mean of the rows' token_usage (the runner's figure)"),
      th('Tokens / core line hit', 'Σ tokens / Σ core lines hit within B over the rows with token_usage'),
    );
    const body = el(
      'tbody',
      null,
      rows.map((row) => {
        const runs = row.runs ?? null;
        const tokens = row.tokens ?? null;
        const viewed =
          runs === null
            ? '—'
            : runs.missed === 0
              ? runs.runs === 0
                ? '—'
                : 'nothing missed'
              : `${((100 * runs.seenMissed) / runs.missed).toFixed(1)}% (${fmtCount(runs.seenMissed)}/${fmtCount(runs.missed)})`;
        return el(
          'tr',
          { 'data-runs-explorer': row.explorer },
          el('th', { scope: 'row', class: 'name', title: row.explorer }, row.explorer),
          el(
            'td',
            { class: 'num', 'data-runs': runs === null ? '' : String(runs.runs), 'data-pending': runs === null ? '' : String(runs.pending) },
            runs === null ? '—' : `${fmtCount(runs.runs)}${runs.pending > 0 ? ` (+${fmtCount(runs.pending)} reading…)` : ''}`,
          ),
          el('td', { class: 'num', 'data-seen-missed': runs === null ? '' : String(runs.seenMissed), 'data-missed': runs === null ? '' : String(runs.missed) }, viewed),
          el('td', { class: 'num' }, mean(runs?.meanSteps)),
          el('td', { class: 'num' }, mean(runs?.meanReads)),
          el('td', { class: 'num' }, mean(runs?.meanViewedLines)),
          el('td', { class: 'num', 'data-tokens': tokens === null ? '' : String(tokens.meanTokens ?? '') }, tokens === null ? '—' : mean(tokens.meanTokens)),
          el('td', { class: 'num' }, tokens === null ? '—' : mean(tokens.tokensPerHitLine)),
        );
      }),
    );
    return el(
      'section',
      { class: 'runs-section', 'aria-labelledby': 'runs-heading' },
      el('h3', { id: 'runs-heading' }, `What the explorers' runs saw, and what they spent (B=${state.budget})`),
      el('div', { class: 'table-wrap' }, el('table', { class: 'leaderboard runs' }, el('thead', null, head), body)),
      el(
        'p',
        { class: 'muted note' },
        "Runs: an explorer's own trajectories, from trajs/ beside its prediction file or added with Add Explorer Trajectories. A high “viewed but not reported” share is a reporting or ranking problem; a low one a search problem.",
      ),
    );
  };

  const legend = (): HTMLElement =>
    el(
      'ul',
      { class: 'anatomy-legend', 'aria-label': 'Miss anatomy categories' },
      ANATOMY_CATEGORIES.map((category) =>
        el(
          'li',
          { class: `cat-${category}`, title: ANATOMY_INFO[category].description },
          el('span', { class: 'swatch', 'aria-hidden': 'true' }),
          el('span', { class: 'glyph', 'aria-hidden': 'true' }, ANATOMY_INFO[category].glyph),
          ' ',
          ANATOMY_INFO[category].label,
        ),
      ),
    );

  const anatomyRow = (row: LeaderboardExplorerRow, budget: number): HTMLElement => {
    const { anatomy } = row;
    const total = anatomy.coreLines;
    const spoken = ANATOMY_CATEGORIES.map((c) => `${ANATOMY_INFO[c].label} ${anatomy.counts[c]}`).join(', ');
    const bar = el('div', { class: 'anatomy-bar', role: 'group', 'aria-label': `${row.explorer}: ${total} core lines at B=${budget}: ${spoken}` });
    for (const category of ANATOMY_CATEGORIES) {
      const lines = anatomy.counts[category];
      const share = total > 0 ? lines / total : 0;
      const info = ANATOMY_INFO[category];
      const chosen = ui.segment?.explorer === row.explorer && ui.segment.category === category;
      const text = `${info.glyph} ${info.label}: ${lines} of ${total} core lines (${(share * 100).toFixed(1)}%)`;
      const segment = el(
        'button',
        {
          type: 'button',
          class: `anatomy-segment cat-${category}${lines === 0 ? ' empty' : ''}${chosen ? ' chosen' : ''}`,
          'data-category': category,
          'data-lines': String(lines),
          'data-explorer': row.explorer,
          'aria-pressed': chosen ? 'true' : 'false',
          'aria-label': text,
          title: `${text}. Click: the instances carrying most of it.`,
          disabled: lines === 0,
        },
        el('span', { class: 'segment-glyph', 'aria-hidden': 'true' }, info.glyph),
      );
      // Width by inline style is blocked by the CSP (no 'unsafe-inline'); the CSSOM is not.
      segment.style.width = `${share * 100}%`;
      segment.addEventListener('click', () => {
        ui.segment = chosen ? null : { explorer: row.explorer, category };
        rerender();
      });
      bar.appendChild(segment);
    }
    const summary = el(
      'p',
      { class: 'anatomy-summary muted' },
      `${fmtCount(total)} core lines over ${fmtCount(anatomy.instances)} instances · `,
      ANATOMY_CATEGORIES.filter((c) => anatomy.counts[c] > 0).map((c, i) => [i > 0 ? ' · ' : '', `${ANATOMY_INFO[c].glyph} ${total > 0 ? ((anatomy.counts[c] / total) * 100).toFixed(1) : '0.0'}%`]),
    );
    const children: (HTMLElement | null)[] = [el('div', { class: 'anatomy-name', title: row.explorer }, row.explorer), bar, summary];
    if (ui.segment?.explorer === row.explorer) children.push(carriers(row, ui.segment.category));
    return el('div', { class: 'anatomy-row', 'data-anatomy-explorer': row.explorer, 'data-core-lines': String(total) }, children);
  };

  const carriers = (row: LeaderboardExplorerRow, category: MissCategory): HTMLElement => {
    const list = row.anatomy.top[category];
    const info = ANATOMY_INFO[category];
    const items = list.map((c) => {
      const open = el('button', { type: 'button', class: 'instance-link', title: `Open ${c.instanceId} with ${row.explorer} selected` }, c.instanceId);
      open.addEventListener('click', () => post({ type: 'openInstance', explorer: row.explorer, instanceId: c.instanceId }));
      return el('li', { 'data-instance': c.instanceId, 'data-lines': String(c.lines) }, open, el('span', { class: 'muted' }, ` ${fmtCount(c.lines)} lines`));
    });
    return el(
      'div',
      { class: 'carriers', 'data-explorer': row.explorer, 'data-category': category },
      el(
        'p',
        { class: 'carriers-title' },
        `${info.glyph} ${info.label}: the ${list.length} instance${list.length === 1 ? '' : 's'} of `,
        el('span', { class: 'explorer-name' }, row.explorer),
        ' carrying most of its lines',
      ),
      list.length === 0 ? el('p', { class: 'muted' }, 'No instance has lines in this category.') : el('ol', { class: 'carrier-list' }, items),
    );
  };

  const toolbar = (state: LeaderboardState): HTMLElement => {
    const csv = el('button', { type: 'button', class: 'action', 'data-action': 'copy-csv', title: 'Copy the main table as CSV (full precision)' }, 'Copy CSV');
    csv.addEventListener('click', () => post({ type: 'copyTable', format: 'csv' }));
    const md = el('button', { type: 'button', class: 'action', 'data-action': 'copy-markdown', title: 'Copy the main table as Markdown (3 decimals)' }, 'Copy Markdown');
    md.addEventListener('click', () => post({ type: 'copyTable', format: 'markdown' }));
    const modeButton = (mode: LeaderboardUi['mode'], text: string): HTMLElement => {
      const button = el('button', { type: 'button', class: `mode${ui.mode === mode ? ' active' : ''}`, 'aria-pressed': ui.mode === mode ? 'true' : 'false', 'data-mode': mode }, text);
      button.addEventListener('click', () => {
        ui.mode = mode;
        rerender();
      });
      return button;
    };
    const select = el('select', { class: 'matrix-metric', 'aria-label': 'Metric of the repo × explorer matrix', disabled: ui.mode !== 'matrix' });
    for (const name of LEADERBOARD_COLUMNS) {
      const option = el('option', { value: name, title: METRIC_INFO[name].definition }, METRIC_INFO[name].label);
      option.selected = name === ui.matrixMetric;
      select.appendChild(option);
    }
    select.addEventListener('change', () => {
      const chosen = LEADERBOARD_COLUMNS.find((n) => n === select.value);
      if (chosen !== undefined) ui.matrixMetric = chosen;
      rerender();
    });
    const ready = state.status === 'ready';
    csv.toggleAttribute('disabled', !ready);
    md.toggleAttribute('disabled', !ready);
    return el(
      'div',
      { class: 'toolbar' },
      el('div', { class: 'modes', role: 'group', 'aria-label': 'Table' }, modeButton('explorers', 'Explorers'), modeButton('matrix', 'Repo × explorer'), select),
      el('div', { class: 'actions' }, csv, md),
    );
  };

  const draw = (state: LeaderboardState): void => {
    const scroll = { x: window.scrollX, y: window.scrollY };
    root.replaceChildren();
    root.dataset['status'] = state.status;
    root.dataset['budget'] = String(state.budget);
    root.dataset['profile'] = state.profile;
    root.dataset['topK'] = String(state.topK);
    root.dataset['complete'] = String(state.counting.done >= state.counting.total);
    root.appendChild(el('h2', null, 'Leaderboard'));
    root.appendChild(el('p', { class: 'caption', 'aria-live': 'polite' }, leaderboardCaption(state)));
    if (state.status !== 'ready') {
      root.appendChild(el('p', { class: 'message' }, state.message));
      return;
    }
    root.appendChild(toolbar(state));
    root.appendChild(ui.mode === 'matrix' ? matrixTable(state) : explorerTable(state));
    const rankings = rankingsTable(state);
    if (rankings !== null) root.appendChild(rankings);
    root.appendChild(
      el(
        'p',
        { class: 'muted note' },
        'Macro averages over scored instances (top-k, empty-core instances left out), as swe-explore score prints them. Click a value to sort the Instances view by it; its “link” button copies a link to it.',
      ),
    );
    const anatomy = el(
      'section',
      { class: 'anatomy-section', 'aria-labelledby': 'anatomy-heading' },
      el('h3', { id: 'anatomy-heading' }, `Miss anatomy at B=${state.budget}`),
      el(
        'p',
        { class: 'muted note' },
        'Every core line of every scored instance, in the first category that applies (as swe-explore misses counts them). Click a segment for the instances carrying most of it.',
      ),
      legend(),
      sortedRows(state, ui).map((row) => anatomyRow(row, state.budget)),
    );
    root.appendChild(anatomy);
    const spend = spendTable(state);
    if (spend !== null) root.appendChild(spend);
    window.scrollTo(scroll.x, scroll.y);
  };

  return {
    render(state: LeaderboardState): void {
      // A new focus metric (a deep link) sorts by that column, best first.
      if (state.focusMetric !== null && state.focusMetric !== lastFocusMetric) {
        ui.sort = state.focusMetric;
        ui.descending = true;
        saveUi();
      }
      lastFocusMetric = state.focusMetric;
      current = state;
      draw(state);
    },
  };
}
