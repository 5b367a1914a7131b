/**
 * Compare mode in the Scores view: explorer A (the shown one) against B on the open instance,
 * every metric side by side with B − A, and both miss-anatomy bars. A side without a row reads
 * "missing (no row)", never 0.
 */
import type { OfficialMetricName } from '../../shared/metricInfo';
import type { CompareMetricRow, CompareSide, CompareState, FromScoresWebview, ScoresState } from '../../shared/scoresProtocol';
import { el, section } from '../dom';
import { fmt3, isNum } from '../format';
import { sideAnatomy } from './renderAnatomy';

/** Metrics where a smaller value is the better one, so an increase is coloured as worse. */
const LOWER_IS_BETTER: ReadonlySet<string> = new Set<OfficialMetricName>(['noise_file_rate', 'noise_region_rate']);

const MISSING = 'missing (no row)';

function isSide(value: unknown): value is CompareSide {
  return typeof value === 'object' && value !== null && typeof (value as Partial<CompareSide>).explorer === 'string' && typeof (value as Partial<CompareSide>).hasRow === 'boolean';
}

function isCompare(value: unknown): value is CompareState {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<CompareState>;
  return isSide(candidate.a) && isSide(candidate.b) && Array.isArray(candidate.metrics);
}

function isMetricRow(row: unknown): row is CompareMetricRow {
  return typeof row === 'object' && row !== null && typeof (row as Partial<CompareMetricRow>).name === 'string';
}

/** One A or B cell: the full-precision value in `data-value`, empty when the side is missing. */
function sideCell(which: 'a' | 'b', metric: string, value: unknown, side: CompareSide): HTMLElement {
  if (!side.hasRow || !isNum(value)) {
    return el(
      'td',
      { class: 'num muted missing', 'data-compare': which, 'data-metric': metric, 'data-value': '', 'data-missing': 'true', title: `${side.explorer}: ${MISSING}` },
      side.hasRow ? '—' : 'missing',
    );
  }
  return el('td', { class: 'num', 'data-compare': which, 'data-metric': metric, 'data-value': String(value), title: `${side.explorer}: ${String(value)}` }, fmt3(value));
}

/** B − A, signed and with ▲/▼; coloured by better/worse for the metric. */
function deltaCell(metric: string, a: unknown, b: unknown): HTMLElement {
  if (!isNum(a) || !isNum(b)) return el('td', { class: 'num muted', 'data-compare': 'delta', 'data-metric': metric, 'data-value': '' }, '—');
  const delta = b - a;
  const magnitude = Math.abs(delta).toFixed(3);
  const lowerBetter = LOWER_IS_BETTER.has(metric);
  if (magnitude === '0.000') {
    return el('td', { class: 'num delta same', 'data-compare': 'delta', 'data-metric': metric, 'data-value': String(delta), 'aria-label': 'B − A: no difference' }, '= 0.000');
  }
  const better = delta > 0 !== lowerBetter;
  const text = delta > 0 ? `▲ +${magnitude}` : `▼ −${magnitude}`;
  const spoken = `B − A: ${delta > 0 ? 'up' : 'down'} ${magnitude}, B ${better ? 'better' : 'worse'}${lowerBetter ? ' (lower is better)' : ''}`;
  return el('td', { class: `num delta ${better ? 'better' : 'worse'}`, 'data-compare': 'delta', 'data-metric': metric, 'data-value': String(delta), 'aria-label': spoken, title: spoken }, text);
}

function row(metric: string, label: string, definition: string, a: unknown, b: unknown, compare: CompareState, current: boolean): HTMLTableRowElement {
  return el(
    'tr',
    { class: current ? 'current-budget' : null, title: definition, 'data-compare-row': metric },
    el('th', { scope: 'row', class: 'metric-name' }, label, current ? el('span', { class: 'badge', title: 'The current line budget' }, 'B') : null),
    sideCell('a', metric, a, compare.a),
    sideCell('b', metric, b, compare.b),
    deltaCell(metric, a, b),
  );
}

function sideLegend(which: 'A' | 'B', side: CompareSide, shown: boolean): HTMLElement {
  return el(
    'li',
    { 'data-compare-side': which.toLowerCase(), 'data-explorer': side.explorer },
    el('span', { class: 'side-letter' }, which),
    ' = ',
    el('span', { class: 'explorer-name' }, side.explorer),
    shown ? el('span', { class: 'muted' }, ' (shown)') : null,
    side.hasRow ? null : el('span', { class: 'missing-note' }, ` — ${MISSING}: its scores are missing, not zero`),
  );
}

/** The "A vs B" section at the top of the view, or null when not comparing. */
export function renderCompare(state: ScoresState, post: (message: FromScoresWebview) => void): HTMLElement | null {
  const compare = state.compare;
  if (!isCompare(compare)) return null;
  const { a, b } = compare;
  const stop = el('button', { type: 'button', class: 'stop-comparing', 'data-focus-key': 'stop-comparing', title: 'Leave compare mode (SWE-Explore: Stop Comparing)' }, '✕ Stop comparing');
  stop.addEventListener('click', () => post({ type: 'stopComparing' }));

  const current = new Set([`ndcg_at_${state.budget}`, `recall_at_${state.budget}`]);
  // A custom budget gets its own two rows on top; an official one is already among the 17.
  const official = compare.metrics.some((m) => isMetricRow(m) && current.has(m.name));
  const budgetRows = official
    ? []
    : [
        row('ndcg_at_budget', `nDCG@${state.budget}`, `nDCG with a ${state.budget}-line budget.`, a.ndcgAtBudget, b.ndcgAtBudget, compare, true),
        row('recall_at_budget', `Recall@${state.budget}`, `Recall with a ${state.budget}-line budget.`, a.recallAtBudget, b.recallAtBudget, compare, true),
      ];
  const metricRows = compare.metrics
    .filter(isMetricRow)
    .map((m) => row(m.name, typeof m.label === 'string' ? m.label : m.name, typeof m.definition === 'string' ? m.definition : '', m.a, m.b, compare, current.has(m.name)));
  const table = el(
    'table',
    { class: 'metric-table compare-table' },
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        el('th', { scope: 'col' }, 'Metric'),
        el('th', { scope: 'col', class: 'num', title: a.explorer }, 'A'),
        el('th', { scope: 'col', class: 'num', title: b.explorer }, 'B'),
        el('th', { scope: 'col', class: 'num', title: 'B − A: green when B is better, red when worse' }, 'Δ B−A'),
      ),
    ),
    el('tbody', null, budgetRows, metricRows),
  );
  return section(
    'compare',
    'A vs B',
    el('div', { class: 'compare-head' }, el('ul', { class: 'compare-sides' }, sideLegend('A', a, a.explorer === state.explorer), sideLegend('B', b, false)), stop),
    el('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': `${a.explorer} against ${b.explorer}` }, table),
    el('p', { class: 'muted note' }, '▲/▼ give the sign of B − A; green means B is better, red worse (for noise rates lower is better).'),
    el('h4', { class: 'compare-anatomy-title' }, `Miss anatomy at B = ${state.budget}`),
    el(
      'div',
      { class: 'compare-anatomy' },
      el('p', { class: 'side-title' }, `A · ${a.explorer}`),
      sideAnatomy(a.anatomy, 'a', a.explorer),
      el('p', { class: 'side-title' }, `B · ${b.explorer}`),
      sideAnatomy(b.anatomy, 'b', b.explorer),
    ),
  );
}
