/** Side-by-side comparison of every loaded explorer on a few key metrics for this instance. */
import { METRIC_INFO, OFFICIAL_BUDGETS, type OfficialMetricName } from '../../shared/metricInfo';
import type { ExplorerComparison, ExplorerMacroRow, FromScoresWebview, ScoresState } from '../../shared/scoresProtocol';
import { el, section } from '../dom';
import { fmt3, isNum } from '../format';

/** The official budget closest to `budget` (ties go to the smaller one). */
export function nearestOfficialBudget(budget: number): (typeof OFFICIAL_BUDGETS)[number] {
  let best: (typeof OFFICIAL_BUDGETS)[number] = OFFICIAL_BUDGETS[0];
  for (const candidate of OFFICIAL_BUDGETS) {
    if (Math.abs(candidate - budget) < Math.abs(best - budget)) best = candidate;
  }
  return best;
}

/** Narrow column headings for the sidebar; the full label and definition are in the tooltip. */
const SHORT_LABELS: Partial<Record<OfficialMetricName, string>> = {
  precision: 'Prec.',
  recall_at_100: 'R@100',
  recall_at_300: 'R@300',
  recall_at_500: 'R@500',
  first_useful_hit: '1st hit',
};

/** An explorer entry; `values` is null for an explorer without a row (missing, not zero). */
function isComparison(entry: unknown): entry is ExplorerComparison {
  if (typeof entry !== 'object' || entry === null) return false;
  const candidate = entry as Partial<ExplorerComparison>;
  return typeof candidate.explorer === 'string' && typeof candidate.values === 'object';
}

export function renderComparison(state: ScoresState, post: (message: FromScoresWebview) => void): HTMLElement | null {
  const entries = state.comparison.filter(isComparison);
  if (entries.length < 2) return null;
  return comparisonSection(state, post, entries, 'comparison', 'Explorers compared', 'this instance');
}

/**
 * Macro averages per explorer over the loaded instances: the numbers `swe-explore score` prints
 * for the same folder (top-k, empty-core instances left out), labelled with how many instances
 * they cover while line counts are still being read.
 */
export function renderMacros(state: ScoresState, post: (message: FromScoresWebview) => void): HTMLElement | null {
  const entries = state.macros.filter((entry): entry is ExplorerMacroRow => isComparison(entry) && entry.values !== null && isNum(entry.instances) && isNum(entry.expected));
  if (entries.length === 0) return null;
  const counted = entries.every((entry) => entry.instances === entry.expected);
  const coverage = entries.map((entry) => `${entry.explorer}: ${entry.instances}/${entry.expected}`).join(', ');
  return comparisonSection(state, post, entries, 'macros', `Macro average over the benchmark${counted ? '' : ' (counting…)'}`, `instances ${coverage}`);
}

function comparisonSection(state: ScoresState, post: (message: FromScoresWebview) => void, entries: readonly ExplorerComparison[], id: string, title: string, scope: string): HTMLElement {
  const b = nearestOfficialBudget(state.budget);
  const columns: readonly OfficialMetricName[] = ['recall', 'precision', `ndcg_at_${b}`, `recall_at_${b}`, 'first_useful_hit'];
  const best = new Map<OfficialMetricName, number>();
  for (const name of columns) {
    const values = entries.map((entry) => entry.values?.[name]).filter(isNum);
    let max = -Infinity;
    for (const value of values) max = Math.max(max, value);
    if (values.length > 0) best.set(name, max);
  }

  // Each explorer is a <tbody>: its name on a full-width row, the numbers below, so five
  // numeric columns fit the sidebar's width whatever the explorer names are.
  const head = el(
    'thead',
    null,
    el(
      'tr',
      null,
      ...columns.map((name) => el('th', { scope: 'col', class: 'num', title: `${METRIC_INFO[name].label}: ${METRIC_INFO[name].definition}` }, SHORT_LABELS[name] ?? METRIC_INFO[name].label)),
    ),
  );
  const groups = entries.map((entry) => {
    const current = entry.explorer === state.explorer;
    const name = current
      ? el('span', { class: 'explorer-name' }, '▸\u00a0', entry.explorer, el('span', { class: 'muted' }, ' (shown)'))
      : el('button', { type: 'button', class: 'link', 'data-focus-key': `${id}-${entry.explorer}`, title: `Show ${entry.explorer}` }, entry.explorer);
    if (!current) name.addEventListener('click', () => post({ type: 'setExplorer', explorer: entry.explorer }));
    return el(
      'tbody',
      { class: current ? 'current' : null, 'aria-current': current ? 'true' : null, 'data-explorer': entry.explorer },
      el('tr', { class: 'name-row' }, el('th', { scope: 'rowgroup', colspan: columns.length }, name)),
      entry.values === null
        ? el(
            'tr',
            { class: 'values-row missing' },
            el(
              'td',
              { colspan: columns.length, class: 'muted', 'data-compare-missing': 'true', title: `${entry.explorer} has no row for this instance: its scores are missing, not zero.` },
              'missing (no row)',
            ),
          )
        : valuesRow(entry.explorer, entry.values, columns, best),
    );
  });
  return section(
    id,
    title,
    el('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': title }, el('table', { class: 'comparison-table', 'data-scope': id }, head, groups)),
    el('p', { class: 'muted note' }, `${scope[0]!.toUpperCase()}${scope.slice(1)}. Budget columns use the official budget nearest to ${state.budget} (${b}). Bold = best.`),
  );
}

function valuesRow(explorer: string, values: Readonly<Record<OfficialMetricName, number>>, columns: readonly OfficialMetricName[], best: ReadonlyMap<OfficialMetricName, number>): HTMLElement {
  return el(
    'tr',
    { class: 'values-row' },
    columns.map((metric) => {
      const value = values[metric];
      const isBest = isNum(value) && value === best.get(metric);
      return el(
        'td',
        {
          class: `num${isBest ? ' best' : ''}`,
          'data-compare-metric': metric,
          'data-compare-value': isNum(value) ? String(value) : '',
          title: `${explorer} · ${METRIC_INFO[metric].label}${isBest ? ' (best among loaded explorers)' : ''}`,
        },
        fmt3(value),
      );
    }),
  );
}
