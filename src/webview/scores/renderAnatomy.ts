/**
 * The miss-anatomy bar: one stacked bar of the core lines by why they were or were not found at
 * budget B, with a legend (glyph, label, lines, percent) so colour is never the only signal.
 */
import { ANATOMY_CATEGORIES, ANATOMY_INFO, type AnatomyCategoryRow, type AnatomySummary, type MissCategory, type WrongRegionRow } from '../../shared/anatomy';
import type { ScoresState } from '../../shared/scoresProtocol';
import { nearestPredictionText } from '../../shared/texts';
import { el, section } from '../dom';
import { fmtCount, isNum, shortPath } from '../format';

function isCategoryRow(row: unknown): row is AnatomyCategoryRow {
  if (typeof row !== 'object' || row === null) return false;
  const candidate = row as Partial<AnatomyCategoryRow>;
  return ANATOMY_CATEGORIES.includes(candidate.category as MissCategory) && isNum(candidate.lines) && candidate.lines >= 0;
}

function isWrongRegionRow(row: unknown): row is WrongRegionRow {
  if (typeof row !== 'object' || row === null) return false;
  const candidate = row as Partial<WrongRegionRow>;
  const nearest = candidate.nearest;
  const nearestOk =
    nearest === null || (typeof nearest === 'object' && nearest !== undefined && isNum(nearest.rank) && isNum(nearest.distance) && (nearest.side === 'above' || nearest.side === 'below'));
  return typeof candidate.path === 'string' && isNum(candidate.start) && isNum(candidate.end) && nearestOk;
}

/** "12.5%" of the core; one decimal so small categories do not read as 0. */
function percent(lines: number, coreLines: number): string {
  return `${((100 * lines) / coreLines).toFixed(1)}%`;
}

function wrongRegionList(anatomy: AnatomySummary): HTMLElement | null {
  const rows = Array.isArray(anatomy.wrongRegion) ? anatomy.wrongRegion.filter(isWrongRegionRow) : [];
  if (rows.length === 0) return null;
  const more = isNum(anatomy.wrongRegionSpans) ? anatomy.wrongRegionSpans - rows.length : 0;
  return el(
    'div',
    { class: 'wrong-region' },
    el('p', { class: 'wrong-region-title muted' }, `${ANATOMY_INFO.wrong_region.glyph} Wrong lines in a predicted file:`),
    el(
      'ul',
      { class: 'wrong-region-list' },
      rows.map((row) =>
        el(
          'li',
          { 'data-wrong-region': `${row.start}-${row.end}` },
          el('span', { class: 'path', title: row.path }, shortPath(row.path)),
          ` lines ${fmtCount(row.start)}–${fmtCount(row.end)}: `,
          nearestPredictionText(row.nearest),
        ),
      ),
      more > 0 ? el('li', { class: 'muted' }, `and ${more} more span${more === 1 ? '' : 's'}`) : null,
    ),
  );
}

/**
 * The bar and its legend. `scope` names the bar for tests and screen readers ("main", "a", "b");
 * each segment carries `data-category` and `data-lines`, and its width is lines / core lines.
 */
export function anatomyBar(anatomy: AnatomySummary, scope: string, explorer: string): HTMLElement {
  const rows = Array.isArray(anatomy.categories) ? anatomy.categories.filter(isCategoryRow) : [];
  const coreLines = isNum(anatomy.coreLines) ? anatomy.coreLines : 0;
  const budget = isNum(anatomy.budget) ? anatomy.budget : 0;
  const wrapper = el('div', { class: 'anatomy', 'data-anatomy': scope, 'data-explorer': explorer, 'data-core-lines': String(coreLines) });
  if (coreLines <= 0) {
    wrapper.append(el('p', { class: 'muted note' }, 'No core lines: nothing to find on this instance.'));
    return wrapper;
  }
  const spoken = rows.map((row) => `${ANATOMY_INFO[row.category].label} ${row.lines}`).join(', ');
  const bar = el('div', { class: 'anatomy-bar', role: 'img', 'aria-label': `${explorer}: ${coreLines} core lines at a budget of ${budget}: ${spoken}` });
  for (const row of rows) {
    if (row.lines === 0) continue;
    const info = ANATOMY_INFO[row.category];
    const segment = el('span', {
      class: `anatomy-segment cat-${row.category}`,
      'data-category': row.category,
      'data-lines': String(row.lines),
      title: `${info.glyph} ${info.label}: ${row.lines} of ${coreLines} core lines (${percent(row.lines, coreLines)}). ${info.description}`,
    });
    // Set through the CSSOM: the webview's CSP refuses style attributes, not style properties.
    segment.style.width = `${(100 * row.lines) / coreLines}%`;
    bar.append(segment);
  }
  const legend = el(
    'ul',
    { class: 'anatomy-legend' },
    rows.map((row) => {
      const info = ANATOMY_INFO[row.category];
      return el(
        'li',
        { class: row.lines === 0 ? 'empty' : null, 'data-legend': row.category, title: info.description },
        el('span', { class: `swatch cat-${row.category}`, 'aria-hidden': 'true' }, info.glyph),
        el(
          'span',
          { class: 'legend-label' },
          info.label,
          row.category === 'hit' ? el('span', { class: 'recall-note muted', title: `hit / core lines is Recall@${budget}` }, `= Recall@${budget}`) : null,
        ),
        el('span', { class: 'num' }, fmtCount(row.lines)),
        el('span', { class: 'num muted' }, percent(row.lines, coreLines)),
      );
    }),
  );
  wrapper.append(bar, legend);
  const wrong = wrongRegionList(anatomy);
  if (wrong !== null) wrapper.append(wrong);
  return wrapper;
}

function isAnatomy(value: unknown): value is AnatomySummary {
  return typeof value === 'object' && value !== null && Array.isArray((value as Partial<AnatomySummary>).categories);
}

/** The shown explorer's anatomy, under the headline numbers. */
export function renderAnatomy(state: ScoresState): HTMLElement | null {
  if (!isAnatomy(state.anatomy)) return null;
  const budget = isNum(state.anatomy.budget) ? state.anatomy.budget : state.budget;
  return section(
    'anatomy-main',
    `Why core lines were missed (B = ${budget})`,
    anatomyBar(state.anatomy, 'main', state.explorer),
    el('p', { class: 'muted note' }, `Each of the ${fmtCount(state.anatomy.coreLines)} core lines counted once, in the first category that applies.`),
  );
}

/** The anatomy of one compare side, or the reason it has none. */
export function sideAnatomy(anatomy: AnatomySummary | null, scope: string, explorer: string): HTMLElement {
  if (isAnatomy(anatomy)) return anatomyBar(anatomy, scope, explorer);
  return el('p', { class: 'muted note', 'data-anatomy': scope, 'data-missing': 'true' }, `${explorer}: missing (no row), no anatomy.`);
}
