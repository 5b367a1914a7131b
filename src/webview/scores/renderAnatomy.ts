/**
 * The miss-anatomy bar: one stacked bar of the core lines by why they were or were not found at
 * budget B, with a legend (glyph, label, lines, percent) so colour is never the only signal.
 */
import { ANATOMY_CATEGORIES, ANATOMY_INFO, type AnatomyCategoryRow, type AnatomySummary, type MissCategory, type RunMissedSpan, type RunSummary, type WrongRegionRow } from '../../shared/anatomy';
import type { ScoresState } from '../../shared/scoresProtocol';
import { nearestPredictionText, patchMarkerText } from '../../shared/texts';
import { el, section } from '../dom';
import { fmtCount, isNum, shortPath } from '../format';

function isCategoryRow(row: unknown): row is AnatomyCategoryRow {
  if (typeof row !== 'object' || row === null) return false;
  const candidate = row as Partial<AnatomyCategoryRow>;
  return (
    ANATOMY_CATEGORIES.includes(candidate.category as MissCategory) &&
    isNum(candidate.lines) &&
    candidate.lines >= 0 &&
    (candidate.seen === undefined || (isNum(candidate.seen) && candidate.seen >= 0))
  );
}

/** The lines of a miss category the explorer's run viewed (never more than the category holds); 0 for hits and without a run. */
function seenOf(row: AnatomyCategoryRow): number {
  return row.category === 'hit' || row.seen === undefined ? 0 : Math.min(row.seen, row.lines);
}

function isRunSpan(value: unknown): value is RunMissedSpan {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Partial<RunMissedSpan>;
  return typeof c.path === 'string' && isNum(c.start) && isNum(c.end) && typeof c.viewing === 'string' && typeof c.arrivals === 'string';
}

function isRun(value: unknown): value is RunSummary {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Partial<RunSummary>;
  return typeof c.text === 'string' && typeof c.loaded === 'boolean' && isNum(c.seenMissed) && isNum(c.missed) && Array.isArray(c.notes) && Array.isArray(c.spans) && isNum(c.moreSpans);
}

/**
 * The explorer's own run under its bar: what it is and what it viewed of the missed lines, the
 * converter's notes, and per missed span whether the run saw it and how the repair runs got there.
 */
function runBlock(run: unknown, scope: string): HTMLElement | null {
  if (!isRun(run)) return null;
  const spans = run.spans.filter(isRunSpan);
  return el(
    'div',
    { class: 'explorer-run', 'data-run': scope, 'data-seen-missed': String(run.seenMissed), 'data-missed': String(run.missed) },
    el('p', { class: 'run-summary muted' }, run.text),
    run.notes.filter((n): n is string => typeof n === 'string').map((note) => el('p', { class: 'run-note muted' }, `Note: ${note}`)),
    spans.length === 0
      ? null
      : el(
          'ul',
          { class: 'run-spans' },
          spans.map((span) =>
            el(
              'li',
              { 'data-run-span': `${span.path}:${span.start}-${span.end}` },
              el('span', { class: 'path', title: span.path }, shortPath(span.path)),
              ` ${fmtCount(span.start)}${span.end === span.start ? '' : `–${fmtCount(span.end)}`}: `,
              el('span', { class: 'run-viewing' }, span.viewing),
              el('br'),
              el('span', { class: 'run-arrivals muted' }, span.arrivals),
            ),
          ),
          run.moreSpans > 0 ? el('li', { class: 'muted' }, `and ${run.moreSpans} more missed span${run.moreSpans === 1 ? '' : 's'}`) : null,
        ),
  );
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
  // Lines the gold patch edits, per category: a marker in the segment and the legend row.
  const patchRows = Array.isArray(anatomy.patch) ? anatomy.patch.filter(isCategoryRow) : [];
  const patchIn = (category: MissCategory): number => patchRows.find((row) => row.category === category)?.lines ?? 0;
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
    const seen = seenOf(row);
    if (seen > 0) {
      // The share of the category the explorer's run viewed, hatched from the segment's start.
      const hatch = el('span', { class: 'anatomy-seen', 'data-seen': String(seen), title: `${seen} of these ${row.lines} lines were seen by the explorer's run, not reported` });
      hatch.style.width = `${(100 * seen) / row.lines}%`;
      segment.append(hatch);
    }
    const patch = patchIn(row.category);
    if (patch > 0) {
      segment.classList.add('has-patch');
      segment.dataset['patchLines'] = String(patch);
      segment.title += ` ${patchMarkerText(patch)} the gold patch edits.`;
      segment.append(el('span', { class: 'patch-mark', 'aria-hidden': 'true' }, '◆'));
    }
    bar.append(segment);
  }
  const seenTotal = rows.reduce((sum, row) => sum + seenOf(row), 0);
  const withRun = rows.some((row) => row.seen !== undefined);
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
        patchIn(row.category) > 0
          ? el('span', { class: 'patch-marker', 'data-patch-lines': String(patchIn(row.category)), title: 'Lines the gold patch edits in this category' }, patchMarkerText(patchIn(row.category)))
          : null,
      );
    }),
    withRun
      ? el(
          'li',
          { class: seenTotal === 0 ? 'empty' : null, 'data-legend': 'seen', title: "Missed core lines the explorer's own run viewed: a reporting or ranking problem, not a search problem." },
          el('span', { class: 'swatch seen-swatch', 'aria-hidden': 'true' }, '▨'),
          el('span', { class: 'legend-label' }, 'seen, not reported'),
          el('span', { class: 'num' }, fmtCount(seenTotal)),
          el('span', { class: 'num muted' }, percent(seenTotal, coreLines)),
        )
      : null,
  );
  wrapper.append(bar, legend);
  const run = runBlock(anatomy.run, scope);
  if (run !== null) wrapper.append(run);
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
