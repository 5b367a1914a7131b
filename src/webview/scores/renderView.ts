/**
 * Composes the Scores view. The header controls persist across renders; everything below them is
 * rebuilt from the state each time, with keyboard focus carried over by `data-focus-key`.
 */
import type { FromScoresWebview, ScoresState } from '../../shared/scoresProtocol';
import { el, section } from '../dom';
import { createHeader } from './renderHeader';
import { renderBudgetSummary, renderMetrics } from './renderMetrics';
import { renderCurve } from './renderCurve';
import { renderPredictions } from './renderPredictions';
import { renderComparison, renderMacros } from './renderComparison';
import { renderAnatomy } from './renderAnatomy';
import { renderCompare } from './renderCompare';
import { renderPatchReach } from './renderPatchReach';

export interface ScoresView {
  render(state: ScoresState): void;
}

function renderQuirks(state: ScoresState): HTMLElement | null {
  const quirks = state.quirks.filter((q): q is string => typeof q === 'string' && q !== '');
  if (quirks.length === 0) return null;
  return section(
    'quirks',
    'Why these numbers',
    el(
      'ul',
      { class: 'quirk-list' },
      quirks.map((q) => el('li', null, q)),
    ),
  );
}

/** Says that the numbers are audited ones, so the before → after columns are not a surprise. */
function renderAuditNote(state: ScoresState): HTMLElement | null {
  const audit = state.audit;
  if (audit === null || typeof audit !== 'object' || typeof audit.removals !== 'number') return null;
  const drifted = typeof audit.drifted === 'number' && audit.drifted > 0 ? `, ${audit.drifted} drifted (the snapshot text changed under ${audit.drifted === 1 ? 'it' : 'them'})` : '';
  return el('p', { class: 'audit-note', role: 'note' }, `✂ Audited: ${audit.removals} removal${audit.removals === 1 ? '' : 's'} from the ground truth${drifted}. Metrics show original → audited.`);
}

/** Says which what-if the numbers use and how it moved this instance's core. */
function renderWhatIfNote(state: ScoresState): HTMLElement | null {
  const note = state.whatIf;
  if (note === null || typeof note !== 'object' || typeof note.label !== 'string') return null;
  return el(
    'p',
    { class: 'audit-note what-if-note', role: 'note', 'data-what-if-joined': String(note.joined), 'data-what-if-left': String(note.left) },
    `Under ${note.label}: ${note.core}; ${note.runs}. Metrics show as written → what-if.`,
  );
}

function focusKeyOf(node: Element | null, within: HTMLElement): string | null {
  if (node === null || !within.contains(node)) return null;
  return node.closest('[data-focus-key]')?.getAttribute('data-focus-key') ?? null;
}

function restoreFocus(key: string, within: HTMLElement): void {
  // Compared by attribute value rather than a selector: keys embed explorer names verbatim.
  const match = Array.from(within.querySelectorAll<HTMLElement>('[data-focus-key]')).find((c) => c.getAttribute('data-focus-key') === key);
  match?.focus({ preventScroll: true });
}

export function createScoresView(root: HTMLElement, post: (message: FromScoresWebview) => void): ScoresView {
  const message = el('p', { class: 'message', role: 'status' }, 'Loading scores…');
  const header = createHeader(post);
  const profileNote = el('p', { class: 'profile-note', hidden: true }, '⚠ Snapshot profile: line counts come from every snapshot file. Use for debugging; cite only official numbers.');
  const body = el('div', { class: 'body' });
  const ready = el('div', { class: 'ready', hidden: true }, header.element, profileNote, body);
  root.replaceChildren(message, ready);

  function setRootData(state: ScoresState): void {
    // Stable test hooks on #scores-root.
    root.dataset['instance'] = state.instanceId;
    root.dataset['explorer'] = state.explorer;
    root.dataset['budget'] = String(state.budget);
    root.dataset['profile'] = String(state.profile);
    root.dataset['status'] = String(state.status);
    // Removals of the audit log apply to the numbers shown.
    const audited = state.status === 'ready' && state.audit !== null && typeof state.audit === 'object';
    if (audited) root.dataset['audited'] = 'true';
    else delete root.dataset['audited'];
    // The ground-truth choice in effect (as-written, audited, what-if:<rules>).
    root.dataset['groundTruthChoice'] = typeof state.groundTruthChoice?.selected === 'string' ? state.groundTruthChoice.selected : '';
    // Explorer B while comparing (data-compare-with), absent otherwise.
    const compared = state.status === 'ready' && typeof state.compare === 'object' && state.compare !== null && typeof state.compare.b?.explorer === 'string' ? state.compare.b.explorer : null;
    if (compared !== null) root.dataset['compareWith'] = compared;
    else delete root.dataset['compareWith'];
  }

  function render(state: ScoresState): void {
    setRootData(state);
    const isReady = state.status === 'ready';
    const text = typeof state.message === 'string' ? state.message : '';
    const messageText = isReady ? text : text || (state.status === 'loading' ? 'Loading…' : 'No instance selected.');
    // Only touch the live region when the text changes, or screen readers re-announce it on every render.
    if (message.textContent !== messageText) message.textContent = messageText;
    message.hidden = messageText === '';
    message.classList.toggle('banner', isReady);
    ready.hidden = !isReady;
    if (!isReady) {
      body.replaceChildren();
      return;
    }

    header.update(state);
    profileNote.hidden = state.profile !== 'snapshot';

    const focusKey = focusKeyOf(document.activeElement, body);
    body.replaceChildren(
      ...[
        renderCompare(state, post),
        renderWhatIfNote(state),
        renderAuditNote(state),
        renderBudgetSummary(state),
        renderPatchReach(state),
        renderAnatomy(state),
        renderMetrics(state),
        renderCurve(state),
        renderPredictions(state, post),
        renderQuirks(state),
        renderComparison(state, post),
        renderMacros(state, post),
      ].filter((node): node is HTMLElement => node !== null),
    );
    if (focusKey !== null) restoreFocus(focusKey, body);
  }

  return { render };
}
