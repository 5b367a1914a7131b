/**
 * The patch-reach row under the budget summary: does the shown list reach the lines the gold
 * patch edits within B, and by which rank (issue 16: what researchers ask first). Missed runs are
 * named, patch lines outside the core counted (the anatomy bar cannot show them).
 */
import type { PatchReachRow, ScoresState } from '../../shared/scoresProtocol';
import { patchMissedText } from '../../shared/texts';
import { el } from '../dom';
import { fmtCount, isNum } from '../format';

function isRow(value: unknown): value is PatchReachRow {
  return typeof value === 'object' && value !== null && typeof (value as Partial<PatchReachRow>).summary === 'string';
}

export function renderPatchReach(state: ScoresState): HTMLElement | null {
  const reach = state.patchReach;
  if (!isRow(reach)) return null;
  const all = isNum(reach.patchLines) && isNum(reach.reachedLines) && reach.reachedLines === reach.patchLines;
  const missed = Array.isArray(reach.missed) ? reach.missed : [];
  const more = isNum(reach.missedSpans) ? reach.missedSpans - missed.length : 0;
  return el(
    'div',
    {
      class: `patch-reach ${all ? 'reached' : 'short'}`,
      role: 'note',
      'data-patch-reach': `${reach.reachedLines}/${reach.patchLines}`,
      'data-first-rank': reach.firstRank === null ? '' : String(reach.firstRank),
      title: 'Lines the gold patch edits (removed lines and the anchor of each insertion, on the base snapshot) that Recall@B’s walk examines within the budget, and the ranks that reach them.',
    },
    el('span', { class: 'patch-glyph', 'aria-hidden': 'true' }, all ? '±' : '◆'),
    el('span', { class: 'patch-summary' }, reach.summary),
    missed.length > 0 ? el('p', { class: 'patch-missed muted' }, patchMissedText(missed, more)) : null,
    isNum(reach.outsideCore) && reach.outsideCore > 0 ? el('p', { class: 'patch-outside muted' }, `${fmtCount(reach.outsideCore)} of them outside the core (not in the bar below).`) : null,
  );
}
