/**
 * Builds the Trajectory view's state from a loaded run. Pure (no `vscode`, no fs), unit tested; the
 * panel only posts what this returns. Message text is sent as it is (cut at MAX_STEP_TEXT): the
 * webview renders assistant text through its safe Markdown renderer and everything else as text.
 */
import { argument, describeVerification, toolCallArguments, type LineCounts, type TrajectoryMessage, type TrajectoryRead, type TrajectoryToolCall } from '../../core';
import { MAX_STEP_TEXT, MAX_TRAJECTORY_PATH, OUTPUT_HEAD_LINES, type TrajectoryReadChip, type TrajectoryStepView, type TrajectoryViewState } from '../../shared/trajectoryProtocol';
import { EXPLORER_RUN_RESOLUTION_TEXT, explorerRunBadgeText, explorerRunTitle, plainLabel, readCreditText, readCursorText, runResolutionText, wholeFileCreditNote } from '../../shared/texts';
import type { TrajectoryRun } from '../model/slices/trajectoryRuns';

/** Longest one-line rendering of a tool call. */
const MAX_CALL_TEXT = 4_000;
/** Verification differences listed; the rest are counted. */
const MAX_DIFFERENCES_LISTED = 8;

/** Where the view looks: a window of ±`context` messages around `step`, or the whole run. */
export interface TrajectoryFocus {
  readonly step: number;
  /** Messages on each side; undefined = the whole run, scrolled to `step`. */
  readonly context: number | undefined;
}

/**
 * Text of a message for people: a string as is; a list's strings and the `text` of its text parts
 * (unlike the builder, which ignores dict parts — the view shows what the agent saw); else JSON.
 */
export function displayText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const item of content) {
      if (typeof item === 'string') parts.push(item);
      else if (typeof item === 'object' && item !== null && typeof (item as Record<string, unknown>)['text'] === 'string') parts.push((item as Record<string, string>)['text']!);
    }
    return parts.join('\n');
  }
  return JSON.stringify(content) ?? '';
}

/** One line per tool call: `bash: <command>`, `str_replace_editor view x.py [10, 40]`, else the name and its arguments as JSON. */
export function callText(call: TrajectoryToolCall): string {
  const args = toolCallArguments(call);
  const command = args === undefined ? undefined : argument(args, 'command');
  let text: string;
  if ((call.name === 'bash' || call.name === 'execute_bash') && typeof command === 'string') text = `${call.name}: ${command}`;
  else if (call.name === 'str_replace_editor' && args !== undefined && typeof command === 'string') {
    const range = argument(args, 'view_range');
    text = `${call.name} ${command} ${String(argument(args, 'path'))}${Array.isArray(range) ? ` ${JSON.stringify(range)}` : ''}`;
  } else text = `${call.name} ${typeof call.arguments === 'string' ? call.arguments : (JSON.stringify(call.arguments) ?? '')}`;
  return text.length > MAX_CALL_TEXT ? `${text.slice(0, MAX_CALL_TEXT)}…` : text;
}

function chip(read: TrajectoryRead, index: number, cursor: number | undefined): TrajectoryReadChip {
  return {
    read: index,
    path: read.path,
    start: read.start,
    end: read.end,
    idiom: read.idiom,
    rangeText: readCreditText(read.start, read.end),
    seenNote: wholeFileCreditNote(read),
    current: index === cursor,
  };
}

/** Lines of a text, counted without splitting it. */
function lineCountOf(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The first `lines` lines of a text (at most MAX_STEP_TEXT characters). */
function headOf(text: string, lines: number): string {
  let end = -1;
  for (let n = 0; n < lines; n++) {
    end = text.indexOf('\n', end + 1);
    if (end === -1) return text.slice(0, MAX_STEP_TEXT);
  }
  return text.slice(0, Math.min(end, MAX_STEP_TEXT));
}

/** A message's whole text for "show all" (cut at MAX_STEP_TEXT). */
export function stepText(message: TrajectoryMessage): { text: string; truncated: boolean } {
  const text = displayText(message.content);
  return text.length > MAX_STEP_TEXT ? { text: text.slice(0, MAX_STEP_TEXT), truncated: true } : { text, truncated: false };
}

function stepView(message: TrajectoryMessage, index: number, reads: readonly TrajectoryReadChip[]): TrajectoryStepView {
  const text = displayText(message.content);
  const lines = lineCountOf(text);
  // Outputs go as their head: they are most of a run's megabytes, and the view shows a few lines.
  const shown = message.role === 'assistant' ? text.slice(0, MAX_STEP_TEXT) : headOf(text, OUTPUT_HEAD_LINES);
  return { index, role: message.role, text: shown, lines, truncated: shown.length < text.length, calls: message.toolCalls.map(callText), reads };
}

/** The message window shown: ±context around the step, clamped to the run. */
export function windowOf(focus: TrajectoryFocus | undefined, total: number): { first: number; last: number } | null {
  if (focus === undefined || focus.context === undefined || total === 0) return null;
  const step = Math.min(Math.max(0, focus.step), total - 1);
  return { first: Math.max(0, step - focus.context), last: Math.min(total - 1, step + focus.context) };
}

/**
 * The view's state for a run; `cursor` is the index of the read being stepped through, if any.
 * `explorer` names the explorer when the run is its own (not a repair run): the header says so and
 * claims no verification or resolution.
 */
export function buildTrajectoryState(run: TrajectoryRun, instanceId: string, focus: TrajectoryFocus | undefined, cursor: number | undefined, explorer?: string): TrajectoryViewState {
  const messages = run.trajectory?.messages ?? [];
  const byStep = new Map<number, TrajectoryReadChip[]>();
  run.reads.forEach((read, i) => {
    let list = byStep.get(read.stepIdx);
    if (list === undefined) byStep.set(read.stepIdx, (list = []));
    list.push(chip(read, i, cursor));
  });
  const window = windowOf(focus, messages.length);
  const first = window?.first ?? 0;
  const last = window?.last ?? messages.length - 1;
  const steps: TrajectoryStepView[] = [];
  for (let i = first; i <= last; i++) steps.push(stepView(messages[i]!, i, byStep.get(i) ?? []));

  const verification = run.verification;
  const notes: string[] = [];
  if (run.problem !== undefined) notes.push(`Not loaded: ${run.problem}`);
  for (const note of run.trajectory?.notes ?? []) notes.push(note);
  if (verification !== undefined) {
    for (const difference of verification.differences.slice(0, MAX_DIFFERENCES_LISTED)) {
      const r = difference.read;
      notes.push(
        `${difference.kind === 'missing' ? 'In the record, not extracted from the run' : 'Extracted from the run, not in the record'}: ${r.path} step ${r.stepIdx}, ${readCreditText(r.start, r.end)}`,
      );
    }
    const more = verification.differences.length - MAX_DIFFERENCES_LISTED;
    if (more > 0) notes.push(`…and ${more} more difference${more === 1 ? '' : 's'}`);
  }
  const who = run.model !== '' ? run.model : plainLabel(run.trajPath);
  const cursorRead = cursor === undefined ? undefined : run.reads[cursor];
  const trajectory = run.trajPath.length > MAX_TRAJECTORY_PATH ? run.trajPath.slice(0, MAX_TRAJECTORY_PATH) : run.trajPath;
  const repair = {
    verified: verification?.verified === true,
    title: instanceId === '' ? who : `${who} · ${instanceId}`,
    verificationText:
      verification !== undefined
        ? describeVerification(verification)
        : run.trajectory === undefined
          ? 'not verified (the run is not loaded)'
          : 'not verified (no record of the open instance cites this run)',
    resolution: run.resolution,
    resolutionText: runResolutionText(run.resolution),
  };
  const own =
    explorer === undefined
      ? repair
      : {
          verified: false,
          title: explorerRunTitle(explorer, instanceId),
          verificationText: explorerRunBadgeText(explorer),
          resolution: 'unknown' as const,
          resolutionText: EXPLORER_RUN_RESOLUTION_TEXT,
        };
  return {
    trajectory,
    ...own,
    facts: [run.format, `${messages.length} messages`, `${run.reads.length} read${run.reads.length === 1 ? '' : 's'} kept by the builder's rules`].filter((f) => f !== ''),
    notes,
    steps,
    totalSteps: messages.length,
    window,
    focusStep: focus === undefined ? null : Math.min(Math.max(0, focus.step), Math.max(0, messages.length - 1)),
    readCount: run.reads.length,
    cursorText: cursorRead === undefined || cursor === undefined ? '' : readCursorText(cursor, run.reads.length, cursorRead.stepIdx),
  };
}

/** A read's lines for a file of `count` lines (undefined count: an open end reaches every line). */
export function readLines(read: { readonly start: number; readonly end: number }, count: number | undefined): { start: number; end: number } | undefined {
  if (read.start < 0) return count === undefined ? undefined : { start: Math.max(1, count + read.start + 1), end: count };
  const end = read.end === -1 ? (count ?? Number.MAX_SAFE_INTEGER) : read.end;
  return end < read.start ? undefined : { start: read.start, end };
}

/**
 * The lines from the first to the last the agent saw in a read (its `seen`, `end = -1` to the end of
 * a file of `count` lines); the builder's credit when it saw none (a heredoc write).
 */
export function seenSpan(
  read: { readonly start: number; readonly end: number; readonly seen: readonly (readonly [number, number])[] },
  count: number | undefined,
): { start: number; end: number } | undefined {
  let span: { start: number; end: number } | undefined;
  for (const [start, end] of read.seen) {
    const lines = readLines({ start, end }, count);
    if (lines === undefined) continue;
    span = span === undefined ? lines : { start: Math.min(span.start, lines.start), end: Math.max(span.end, lines.end) };
  }
  return span ?? readLines(read, count);
}

/** Every read of the runs that overlaps lines `start`–`end` of `path`, run by run in step order. */
export function readsOverlapping(runs: readonly TrajectoryRun[], path: string, start: number, end: number, counts: LineCounts): { run: TrajectoryRun; read: number }[] {
  const out: { run: TrajectoryRun; read: number }[] = [];
  for (const run of runs) {
    run.reads.forEach((read, i) => {
      if (read.path !== path) return;
      const lines = readLines(read, counts.get(path));
      if (lines !== undefined && lines.start <= end && start <= lines.end) out.push({ run, read: i });
    });
  }
  return out;
}

/**
 * The read of step `step` to put the cursor on when a run is opened at the step that saw line `line`
 * of `path`: the first of that step covering the line, else the first of that step on the file;
 * undefined when the builder's rules kept no read of that step on the file.
 */
export function readAtStep(reads: readonly TrajectoryRead[], step: number, path: string, line: number, count: number | undefined): number | undefined {
  let onFile: number | undefined;
  for (let i = 0; i < reads.length; i++) {
    const read = reads[i]!;
    if (read.stepIdx !== step || read.path !== path) continue;
    const lines = readLines(read, count);
    if (lines !== undefined && lines.start <= line && line <= lines.end) return i;
    onFile ??= i;
  }
  return onFile;
}
