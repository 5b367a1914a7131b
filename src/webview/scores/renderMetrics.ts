/** The metric table and the "at the chosen budget" summary of the Scores view. */
import { METRIC_INFO } from '../../shared/metricInfo';
import type { MetricRow, ScoresState } from '../../shared/scoresProtocol';
import { el, section } from '../dom';
import { fmt3, formatDelta, isNum } from '../format';

/** The two official rows that belong to the current budget, when it is 100, 300 or 500. */
function budgetRows(budget: number): ReadonlySet<string> {
  return new Set([`ndcg_at_${budget}`, `recall_at_${budget}`]);
}

/**
 * data-metric / data-value are stable test hooks: the full-precision current value, not the
 * rounded text. With an audit in effect the current value is the audited one and
 * data-value-before holds the value on the ground truth as written.
 */
function valueCell(metric: string, value: unknown, before: unknown = null): HTMLElement {
  return el('span', { class: 'num value', 'data-metric': metric, 'data-value': isNum(value) ? String(value) : '', 'data-value-before': isNum(before) ? String(before) : null }, fmt3(value));
}

/** "was 0.412 ▼ −0.034" after an audited summary value. */
function beforeNote(before: unknown, after: unknown): HTMLElement | null {
  if (!isNum(before) || !isNum(after)) return null;
  const delta = formatDelta(before, after);
  return el('span', { class: `stat-before delta ${delta.direction}`, 'aria-label': `as written ${fmt3(before)}, ${delta.spoken}` }, `was ${fmt3(before)} ${delta.text}`);
}

/** nDCG@B and Recall@B for the chosen budget, which may be a custom one. */
export function renderBudgetSummary(state: ScoresState): HTMLElement {
  const stat = (metric: string, label: string, value: number, before: number | null | undefined, definition: string): HTMLElement =>
    el('div', { class: 'stat', title: definition }, el('span', { class: 'stat-label' }, label), valueCell(metric, value, before), beforeNote(before, value));
  return el(
    'div',
    { class: 'summary', role: 'group', 'aria-label': `Scores at a budget of ${state.budget} lines` },
    stat('ndcg_at_budget', `nDCG@${state.budget}`, state.ndcgAtBudget, state.ndcgAtBudgetBefore, `nDCG with a ${state.budget}-line budget. ${METRIC_INFO.ndcg_at_100.definition}`),
    stat('recall_at_budget', `Recall@${state.budget}`, state.recallAtBudget, state.recallAtBudgetBefore, `Recall with a ${state.budget}-line budget. ${METRIC_INFO.recall_at_100.definition}`),
  );
}

function metricRow(row: MetricRow, current: ReadonlySet<string>, showAudit: boolean): HTMLTableRowElement {
  const info = (METRIC_INFO as Readonly<Record<string, { label: string; definition: string } | undefined>>)[row.name];
  const label = typeof row.label === 'string' && row.label !== '' ? row.label : (info?.label ?? String(row.name));
  const definition = typeof row.definition === 'string' && row.definition !== '' ? row.definition : (info?.definition ?? '');
  const isCurrent = current.has(row.name);

  const cells: HTMLElement[] = [
    el('th', { scope: 'row', class: 'metric-name' }, el('span', { class: 'has-tooltip' }, label), isCurrent ? el('span', { class: 'badge', title: 'The current line budget' }, 'B') : null),
  ];
  if (!showAudit) {
    cells.push(el('td', { class: 'num' }, valueCell(row.name, row.value)));
  } else if (isNum(row.audited) && isNum(row.value)) {
    // The hooked element carries the current (audited) value; the original sits beside it.
    const delta = formatDelta(row.value, row.audited);
    cells.push(
      el('td', { class: 'num' }, el('span', { class: 'num before' }, fmt3(row.value))),
      el('td', { class: 'num' }, valueCell(row.name, row.audited, row.value)),
      el('td', { class: `num delta ${delta.direction}`, 'aria-label': delta.spoken, 'data-delta': String(row.audited - row.value) }, delta.text),
    );
  } else {
    cells.push(el('td', { class: 'num' }, valueCell(row.name, row.value)), el('td', { class: 'num muted' }, '—'), el('td', { class: 'num muted' }, ''));
  }
  return el('tr', { class: isCurrent ? 'current-budget' : null, title: definition, 'aria-current': isCurrent ? 'true' : null }, cells);
}

/** Every metric as a row, with audited values and deltas when removals are in effect. */
export function renderMetrics(state: ScoresState): HTMLElement {
  const rows = state.metrics.filter((row): row is MetricRow => typeof row === 'object' && row !== null && typeof row.name === 'string');
  const showAudit = rows.some((row) => isNum(row.audited));
  const current = budgetRows(state.budget);
  const head = el(
    'tr',
    null,
    el('th', { scope: 'col' }, 'Metric'),
    el('th', { scope: 'col', class: 'num' }, showAudit ? 'As written' : 'Value'),
    showAudit ? el('th', { scope: 'col', class: 'num' }, typeof state.afterLabel === 'string' && state.afterLabel !== '' ? state.afterLabel : 'Audited') : null,
    showAudit ? el('th', { scope: 'col', class: 'num' }, 'Δ') : null,
  );
  return section(
    'metrics',
    'Metrics',
    el(
      'table',
      { class: 'metric-table' },
      el('thead', null, head),
      el(
        'tbody',
        null,
        rows.map((row) => metricRow(row, current, showAudit)),
      ),
    ),
  );
}
