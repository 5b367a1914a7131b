/** The per-prediction gain table: how each ranked entry feeds Recall@B and nDCG@B. */
import type { FromScoresWebview, PredictionRow, ScoresState } from '../../shared/scoresProtocol';
import { el, section } from '../dom';
import { isRecord } from '../../shared/guards';
import { describeRawRange } from '../../shared/texts';
import { fmt3, fmtCount, isNum, shortPath } from '../format';

/** Budget status as symbol + word, so it never depends on colour alone. */
const STATUS: Readonly<Record<PredictionRow['budgetStatus'], { text: string; title: string }>> = {
  in: { text: '✓ in', title: 'Every line of this entry is within the line budget.' },
  partial: { text: '◐ partial', title: 'The line budget ends inside this entry.' },
  over: { text: '✗ over', title: 'This entry lies entirely past the line budget.' },
  'no-lines': { text: '– none', title: 'This entry covers no real lines (unresolvable or inverted).' },
};

function isRow(value: unknown): value is PredictionRow {
  return isRecord(value) && isNum(value['rank']) && typeof value['path'] === 'string' && Number.isSafeInteger(value['start']) && Number.isSafeInteger(value['end']);
}

/** Text with a line-break opportunity after every "/", so narrow columns wrap between folders. */
function breakablePath(path: string): Node[] {
  return path.split(/(?<=\/)/).flatMap((part, i) => (i === 0 ? [document.createTextNode(part)] : [el('wbr'), document.createTextNode(part)]));
}

/**
 * "path:start–end" as predicted, plus what the evaluator resolved it to when that differs
 * (end = -1, past EOF, inverted, unresolvable).
 */
function regionCell(row: PredictionRow): HTMLElement {
  const span = describeRawRange(row.start, row.end);
  const resolved = typeof row.resolved === 'string' ? row.resolved : '';
  return el(
    'td',
    { class: 'region', colspan: 4, 'data-path': row.path, 'data-resolved': resolved, title: `${row.path}:${span}` },
    el('span', { class: 'path' }, breakablePath(`${shortPath(row.path)}:`)),
    el('wbr'),
    el('span', { class: 'span' }, span),
    resolved !== '' && resolved !== span ? el('span', { class: 'resolved' }, `→ ${resolved}`) : null,
  );
}

/**
 * One prediction is a <tbody> of two rows — the region on top, its numbers below — so all columns
 * fit the sidebar's width without sideways scrolling. The group is the click / keyboard target.
 */
function predictionGroup(row: PredictionRow, post: (message: FromScoresWebview) => void): HTMLTableSectionElement {
  const status = STATUS[row.budgetStatus] ?? { text: String(row.budgetStatus), title: '' };
  const location = `${row.path}:${describeRawRange(row.start, row.end)}`;
  const statusTitle = row.budgetStatus === 'partial' ? `${status.title} ${fmtCount(row.linesInBudget)} of ${fmtCount(row.lines)} lines count.` : status.title;
  const admittedTitle = row.ndcgAdmitted ? 'Admitted into DCG at this budget' : 'Not admitted into DCG at this budget';
  const group = el(
    'tbody',
    {
      class: `prediction status-${row.budgetStatus}${row.ndcgAdmitted ? '' : ' not-admitted'}${row.noise ? ' noise' : ''}`,
      tabindex: 0,
      'data-rank': row.rank,
      'data-focus-key': `prediction-${row.rank}`,
      title: `Reveal #${row.rank} ${location} in the editor`,
      'aria-label': `#${row.rank} ${location}, ${status.text.slice(2)} budget${row.noise ? ', noise' : ''}. Press Enter to reveal.`,
    },
    el(
      'tr',
      { class: 'region-row' },
      el('td', { class: 'num rank', rowspan: 2 }, `#${row.rank}`),
      regionCell(row),
      el('td', { class: `budget-status ${row.budgetStatus}`, title: statusTitle }, status.text),
      row.noise
        ? el('td', { class: 'noise-flag', title: 'Noise: overlaps no core and no optional region' }, '⚠', el('span', { class: 'visually-hidden' }, ' noise'))
        : el('td', { class: 'noise-flag' }),
    ),
    el(
      'tr',
      { class: 'numbers-row' },
      el('td', { class: 'num', 'data-field': 'lines' }, fmtCount(row.lines)),
      el('td', { class: 'num', 'data-field': 'cumulative' }, fmtCount(row.cumulative)),
      el('td', { class: 'num', 'data-field': 'gain', title: admittedTitle }, fmtCount(row.gain), row.ndcgAdmitted ? null : el('span', { class: 'footnote' }, '*')),
      el('td', { class: 'num', 'data-field': 'discount' }, fmt3(row.discount)),
      el('td', { class: 'in-budget', colspan: 2 }, row.budgetStatus === 'partial' ? `${fmtCount(row.linesInBudget)}/${fmtCount(row.lines)} in` : ''),
    ),
  );
  const reveal = (): void => post({ type: 'revealPrediction', rank: row.rank });
  group.addEventListener('click', reveal);
  group.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      reveal();
    }
  });
  return group;
}

export function renderPredictions(state: ScoresState, post: (message: FromScoresWebview) => void): HTMLElement {
  const rows = state.predictions.filter(isRow);
  if (rows.length === 0) {
    return section('predictions', 'Predictions', el('p', { class: 'muted' }, 'This explorer returned no regions for the instance.'));
  }
  const col = (text: string, title: string, extra: Record<string, string | number> = {}): HTMLElement => el('th', { scope: 'col', title, ...extra }, text);
  const table = el(
    'table',
    { class: 'prediction-table' },
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        col('#', 'Rank', { class: 'num', rowspan: 2 }),
        col('Region', 'path:start–end as predicted; → what the evaluator resolves it to, when different', { colspan: 4 }),
        col('Budget', 'Position relative to the line budget: ✓ in, ◐ partial, ✗ over, – no lines'),
        el('th', { scope: 'col', title: 'Noise: overlaps no core and no optional region', 'aria-label': 'Noise' }, '⚠'),
      ),
      el(
        'tr',
        null,
        col('Lines', 'Real lines the entry covers', { class: 'num' }),
        col('Cum.', 'Running line total after this entry (as nDCG counts it)', { class: 'num' }),
        col('Gain', 'nDCG gain: core lines, ×1.5 in main files (* = not admitted at this budget)', { class: 'num' }),
        col('Disc.', 'Discount 1 / log2(rank + 1)', { class: 'num' }),
        el('th', { colspan: 2 }),
      ),
    ),
    ...rows.map((row) => predictionGroup(row, post)),
  );
  const admittedNote = rows.some((row) => !row.ndcgAdmitted)
    ? el('p', { class: 'muted note' }, '* not admitted into DCG at this budget. Click an entry to reveal it.')
    : el('p', { class: 'muted note' }, 'Click an entry to reveal it.');
  return section('predictions', 'Predictions', el('div', { class: 'table-scroll' }, table), admittedNote);
}
