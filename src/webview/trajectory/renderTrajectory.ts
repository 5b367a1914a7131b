/**
 * Composes the Trajectory view from a validated state: a header (model, instance, verified,
 * resolved), then the run as a timeline. Assistant text goes through the safe Markdown renderer of
 * the Instance panel (no node kind that can carry markup or navigate); tool calls are monospace
 * text; every other message is output, shown as text collapsed to a few lines with "show all".
 * Read steps carry their reads as buttons (click: the editor reveals the lines) with the builder's
 * idiom and, for a whole-file credit from a narrower idiom, what the agent really saw.
 */
import {
  parseTrajectoryCursorPatch,
  parseTrajectoryStepTextPatch,
  type FromTrajectoryWebview,
  type TrajectoryCursorPatch,
  type TrajectoryReadChip,
  type TrajectoryStepView,
  type TrajectoryViewState,
} from '../../shared/trajectoryProtocol';
import { el } from '../dom';
import { renderMarkdown } from '../instance/renderMarkdown';

type Post = (message: FromTrajectoryWebview) => void;

function renderRead(read: TrajectoryReadChip, post: Post): HTMLElement {
  const button = el(
    'button',
    {
      type: 'button',
      class: read.current ? 'read current' : 'read',
      'data-read-path': read.path,
      'data-read-start': read.start,
      'data-read-end': read.end,
      'data-idiom': read.idiom,
      'data-read': read.read,
      'aria-current': read.current ? 'step' : null,
      title: `Reveal ${read.path} (${read.rangeText}) in the editor`,
    },
    el('span', { class: 'read-path' }, read.path),
    ' ',
    el('span', { class: 'read-range' }, read.rangeText),
    ' ',
    el('span', { class: 'idiom' }, read.idiom),
  );
  button.addEventListener('click', () => post({ type: 'revealRead', read: read.read }));
  return el('li', null, button, read.seenNote === '' ? null : el('p', { class: 'seen-note' }, `⚠ ${read.seenNote}`));
}

function renderOutput(step: TrajectoryStepView, post: Post): HTMLElement {
  const pre = el('pre', { class: 'output' }, step.text);
  if (!step.truncated) return pre;
  const more = el('button', { type: 'button', class: 'show-all' }, `show all (${step.lines} lines)`);
  // The whole text comes from the extension (a stepText patch), only when asked for.
  more.addEventListener('click', () => post({ type: 'showStepText', step: step.index }));
  return el('div', { class: 'output-block', 'data-output': step.index }, pre, more);
}

function renderStep(step: TrajectoryStepView, focus: boolean, post: Post): HTMLElement {
  const assistant = step.role === 'assistant';
  const body = assistant ? el('div', { class: 'markdown' }, renderMarkdown(step.text)) : renderOutput(step, post);
  return el(
    'li',
    { class: `step role-${assistant ? 'assistant' : 'other'}${focus ? ' focus' : ''}${step.reads.length > 0 ? ' has-reads' : ''}`, 'data-step': step.index },
    el('div', { class: 'step-head' }, el('span', { class: 'step-index' }, `#${step.index}`), ' ', el('span', { class: 'role' }, step.role === '' ? '(no role)' : step.role)),
    step.text === '' && step.calls.length > 0 ? null : body,
    assistant && step.truncated ? el('p', { class: 'note' }, 'Text cut here (the message is longer).') : null,
    step.calls.length === 0
      ? null
      : el(
          'ul',
          { class: 'calls' },
          step.calls.map((call) => el('li', null, el('code', null, call))),
        ),
    step.reads.length === 0
      ? null
      : el(
          'ul',
          { class: 'reads', 'aria-label': 'Reads the builder keeps from this step' },
          step.reads.map((read) => renderRead(read, post)),
        ),
  );
}

function renderHeader(state: TrajectoryViewState, post: Post): HTMLElement {
  const window = state.window;
  const whole = el('button', { type: 'button', class: 'whole-run' }, `show the whole run (${state.totalSteps} messages)`);
  whole.addEventListener('click', () => post({ type: 'showWholeRun' }));
  return el(
    'header',
    { class: 'trajectory-header' },
    el('h1', null, state.title),
    el('p', { class: 'facts' }, state.facts.join(' · ')),
    el(
      'p',
      { class: 'badges' },
      el('span', { class: state.verified ? 'badge verified' : 'badge unverified' }, state.verified ? '✓ ' : '✗ ', state.verificationText),
      ' ',
      el('span', { class: `badge resolution-${state.resolution}` }, state.resolutionText),
    ),
    el('p', { class: 'cursor', 'aria-live': 'polite' }, state.cursorText),
    state.notes.length === 0
      ? null
      : el(
          'ul',
          { class: 'notes' },
          state.notes.map((n) => el('li', { class: 'note' }, n)),
        ),
    window === null ? null : el('p', { class: 'window' }, `Messages ${window.first}–${window.last} of ${state.totalSteps} `, whole),
  );
}

/** How long the last render took in the page (reported with `rendered`, for measurement). */
let lastRenderMs = 0;

export function lastRenderDuration(): number {
  return lastRenderMs;
}

/** Marks read `read` current in the drawn page and scrolls to it (a cursor patch). */
function moveCursor(root: HTMLElement, patch: TrajectoryCursorPatch): void {
  for (const old of Array.from(root.querySelectorAll('.read.current'))) {
    old.classList.remove('current');
    old.removeAttribute('aria-current');
  }
  const button = root.querySelector(`.read[data-read="${patch.read}"]`);
  button?.classList.add('current');
  button?.setAttribute('aria-current', 'step');
  const cursor = root.querySelector('.cursor');
  if (cursor !== null) cursor.textContent = patch.cursorText;
  button?.scrollIntoView({ block: 'center' });
}

export function createTrajectoryView(root: HTMLElement, post: Post, _ui: undefined, _persist: () => void, redrawNext: () => void): { render(state: TrajectoryViewState): void } {
  // Cursor patches arrive beside the states boot.ts renders; anything else is not for this listener.
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const patch = parseTrajectoryCursorPatch(event.data);
    if (patch !== null) {
      moveCursor(root, patch);
      // The page's cursor is no longer the last state's: a state equal to that one must draw it back.
      redrawNext();
    }
    const whole = parseTrajectoryStepTextPatch(event.data);
    const block = whole === null ? null : root.querySelector(`.output-block[data-output="${whole.step}"]`);
    if (whole !== null && block !== null) {
      block.replaceChildren(el('pre', { class: 'output' }, whole.text));
      if (whole.truncated) block.appendChild(el('p', { class: 'note' }, 'Text cut here (the message is longer).'));
    }
  });
  return {
    render(state: TrajectoryViewState): void {
      const started = performance.now();
      root.setAttribute('data-trajectory', state.trajectory);
      root.setAttribute('data-verified', state.verified ? 'true' : 'false');
      const timeline = el(
        'ol',
        { class: 'timeline' },
        state.steps.map((step) => renderStep(step, step.index === state.focusStep, post)),
      );
      root.replaceChildren(renderHeader(state, post), state.steps.length === 0 ? el('p', { class: 'note' }, 'No messages to show.') : timeline);
      const current = root.querySelector('.read.current') ?? root.querySelector('.step.focus');
      current?.scrollIntoView({ block: 'center' });
      lastRenderMs = performance.now() - started;
    },
  };
}
