/**
 * The typed message protocol between the extension host and the Trajectory view (one repair run as a
 * timeline). Both sides import this module and validate what they receive. Every string in a
 * trajectory is hostile: the webview sets it as text (assistant text through the safe Markdown
 * renderer, whose tree has no node that can carry markup), never as HTML or a link.
 *
 * Stable hooks for tests (set by the renderer): the root's `data-trajectory` (the `traj_path`, or the
 * file of a run opened on its own) and `data-verified`; each step's `data-step`; each read's
 * `data-read-path`, `data-read-start`, `data-read-end` (the builder's credit, `-1` = to the end of
 * the file) and `data-idiom`.
 */
import { everyItem, isBoundedText, isCount, isInteger, isRecord, isString } from './guards';

/** One read the builder keeps, on the step it came from. */
export interface TrajectoryReadChip {
  /** Index in the run's reads (extraction order): what a click names. */
  readonly read: number;
  readonly path: string;
  /** The builder's credit as `read_step_info` holds it (`start or 1`; `end = -1` to the end of the file). */
  readonly start: number;
  readonly end: number;
  /** How the builder read it (`nl_pipe`, `grep_whole`, `view_range`…). */
  readonly idiom: string;
  /** "lines 120–180", "the whole file". */
  readonly rangeText: string;
  /** Empty, or the whole-file credit from a narrower idiom ("read as the whole file by the builder; the agent saw lines 120–180"). */
  readonly seenNote: string;
  /** The read the stepping decoration shows. */
  readonly current: boolean;
}

/** One message of the run. */
export interface TrajectoryStepView {
  /** The message's index: `step_idx` for an assistant message. */
  readonly index: number;
  readonly role: string;
  /**
   * The message's text: assistant text (Markdown) cut at {@link MAX_STEP_TEXT}; any other message
   * is output, sent as its first {@link OUTPUT_HEAD_LINES} lines (the rest on "show all").
   */
  readonly text: string;
  /** Lines of the whole text. */
  readonly lines: number;
  /** `text` is not all of it: an output's head, or an assistant text cut at the limit. */
  readonly truncated: boolean;
  /** Tool calls of an assistant message, one line each (`bash: nl -ba x.py | sed -n '1,20p'`). */
  readonly calls: readonly string[];
  readonly reads: readonly TrajectoryReadChip[];
}

export type RunResolutionText = 'resolved' | 'not-resolved' | 'unknown';

export interface TrajectoryViewState {
  /** The hook `data-trajectory`: the `traj_path` the record cites, or the file. */
  readonly trajectory: string;
  readonly verified: boolean;
  /** "gemini-3-pro-preview · acme__inventory-101". */
  readonly title: string;
  /** Short facts: format, messages, reads. */
  readonly facts: readonly string[];
  /** "verified 14/14 reads", what differs, or why it could not be verified. */
  readonly verificationText: string;
  readonly resolution: RunResolutionText;
  /** "resolved its issue (SWE-bench report)", "did not resolve…", "resolution unknown (no report)". */
  readonly resolutionText: string;
  /** Converter notes and verification differences, one sentence each. */
  readonly notes: readonly string[];
  /** The messages shown (all of them, or the window around a step). */
  readonly steps: readonly TrajectoryStepView[];
  /** Messages in the run. */
  readonly totalSteps: number;
  /** Set when `steps` is a window of ±k messages around a step. */
  readonly window: { readonly first: number; readonly last: number } | null;
  /** The step to scroll to, if any. */
  readonly focusStep: number | null;
  /** Reads in the run. */
  readonly readCount: number;
  /** "read 3 of 14 · step 7" while stepping, else empty. */
  readonly cursorText: string;
}

export type ToTrajectoryWebview = { readonly type: 'state'; readonly state: TrajectoryViewState };

/**
 * The stepping cursor moved within the messages already drawn: the page marks read `read` current
 * and shows `cursorText`, without drawing the run again (a run is megabytes; a step must be quick).
 */
export interface TrajectoryCursorPatch {
  readonly type: 'cursor';
  readonly read: number;
  readonly cursorText: string;
}

/** The whole text of one message, asked for with `showStepText`. */
export interface TrajectoryStepTextPatch {
  readonly type: 'stepText';
  readonly step: number;
  readonly text: string;
  readonly truncated: boolean;
}

/** Validates a step-text patch from the extension. */
export function parseTrajectoryStepTextPatch(value: unknown): TrajectoryStepTextPatch | null {
  return isRecord(value) && value['type'] === 'stepText' && isCount(value['step']) && isBoundedText(value['text'], MAX_STEP_TEXT) && typeof value['truncated'] === 'boolean'
    ? { type: 'stepText', step: value['step'], text: value['text'], truncated: value['truncated'] }
    : null;
}

/** Validates a cursor patch from the extension. */
export function parseTrajectoryCursorPatch(value: unknown): TrajectoryCursorPatch | null {
  return isRecord(value) && value['type'] === 'cursor' && isCount(value['read']) && isString(value['cursorText']) ? { type: 'cursor', read: value['read'], cursorText: value['cursorText'] } : null;
}

export type FromTrajectoryWebview =
  | { readonly type: 'ready' }
  /** A read chip was clicked: step to it and reveal its lines. */
  | { readonly type: 'revealRead'; readonly read: number }
  /** Show every message instead of the window. */
  | { readonly type: 'showWholeRun' }
  /** The webview drew a state of this many steps, taking `ms` in the page (for measurement). */
  | { readonly type: 'rendered'; readonly steps: number; readonly ms: number }
  /** "show all" on an output: send the whole text of message `step`. */
  | { readonly type: 'showStepText'; readonly step: number };

/** Longest message text sent; the rest is cut (a note says so). */
export const MAX_STEP_TEXT = 60_000;
/** Lines of an output sent with the state (a run's outputs are most of its megabytes). */
export const OUTPUT_HEAD_LINES = 6;
/** Longest path either side accepts. */
export const MAX_TRAJECTORY_PATH = 4096;

/** Validates a message from the webview; anything unknown or malformed yields null. */
export function parseFromTrajectoryWebview(value: unknown): FromTrajectoryWebview | null {
  if (!isRecord(value)) return null;
  switch (value['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'showWholeRun':
      return { type: 'showWholeRun' };
    case 'revealRead':
      return isCount(value['read']) ? { type: 'revealRead', read: value['read'] } : null;
    case 'rendered':
      return isCount(value['steps']) && isCount(value['ms']) ? { type: 'rendered', steps: value['steps'], ms: value['ms'] } : null;
    case 'showStepText':
      return isCount(value['step']) ? { type: 'showStepText', step: value['step'] } : null;
    default:
      return null;
  }
}

function isReadChip(value: unknown): value is TrajectoryReadChip {
  return (
    isRecord(value) &&
    isCount(value['read']) &&
    isBoundedText(value['path'], MAX_TRAJECTORY_PATH) &&
    isInteger(value['start']) &&
    isInteger(value['end']) &&
    isString(value['idiom']) &&
    isString(value['rangeText']) &&
    isString(value['seenNote']) &&
    typeof value['current'] === 'boolean'
  );
}

function isStep(value: unknown): value is TrajectoryStepView {
  return (
    isRecord(value) &&
    isCount(value['index']) &&
    isString(value['role']) &&
    isBoundedText(value['text'], MAX_STEP_TEXT) &&
    isCount(value['lines']) &&
    typeof value['truncated'] === 'boolean' &&
    everyItem(value['calls'], isString) &&
    everyItem(value['reads'], isReadChip)
  );
}

function isWindow(value: unknown): boolean {
  return value === null || (isRecord(value) && isCount(value['first']) && isCount(value['last']) && value['first'] <= value['last']);
}

/** Validates a message from the extension (the webview trusts nothing it did not check). */
export function parseToTrajectoryWebview(value: unknown): ToTrajectoryWebview | null {
  if (!isRecord(value) || value['type'] !== 'state' || !isRecord(value['state'])) return null;
  const s = value['state'];
  const resolution = s['resolution'];
  const ok =
    isBoundedText(s['trajectory'], MAX_TRAJECTORY_PATH) &&
    typeof s['verified'] === 'boolean' &&
    isString(s['title']) &&
    everyItem(s['facts'], isString) &&
    isString(s['verificationText']) &&
    (resolution === 'resolved' || resolution === 'not-resolved' || resolution === 'unknown') &&
    isString(s['resolutionText']) &&
    everyItem(s['notes'], isString) &&
    everyItem(s['steps'], isStep) &&
    isCount(s['totalSteps']) &&
    isWindow(s['window']) &&
    (s['focusStep'] === null || isCount(s['focusStep'])) &&
    isCount(s['readCount']) &&
    isString(s['cursorText']);
  return ok ? { type: 'state', state: s as unknown as TrajectoryViewState } : null;
}
