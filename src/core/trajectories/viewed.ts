/**
 * What a run showed its agent (issue 19): the union of the `seen` lines of its kept reads, resolved
 * with the instance's line counts, and for every viewed line the first read that showed it.
 *
 * - A read's `seen` ranges (src/core/trajectories/commands.ts) are resolved like a region: `end = -1`
 *   is the file's last line, a negative start is the last N lines, `start = 0` is 1, ends past the
 *   end of the file are cut to it. Without a line count, `end = -1` stays open
 *   ({@link VIEWED_TO_END}: the range still meets every core line after its start) and a negative
 *   start is dropped. A heredoc write has no `seen` lines: writing a file is not viewing it.
 * - Reads are taken in extraction order (step order); the first read whose `seen` lines hold a line
 *   is the one that "saw it first", and a step's earlier read wins over its later ones. The first
 *   sights are found by one sweep per file (O(n log n) in the ranges, however they overlap).
 * - The same model serves the repair runs (`rangesOf` = the builder's credit instead of `seen`):
 *   "the first step that read this line".
 *
 * Pure: line counts and the text shown for a read are injected.
 */
import type { Interval, IntervalSet, LineSet } from '../intervals';
import type { ReadIdiom, SeenRange } from './commands';
import { argument, messageReads, readCommandText, toolCallArguments, type MessageReads, type RawRead, type RawSwallowed, type SkippedCall } from './extract';
import { messageText } from './text';
import type { Trajectory, TrajectoryToolCall } from './types';

/** The end of a viewed range that ran to the end of a file whose line count is unknown. */
export const VIEWED_TO_END = Number.MAX_SAFE_INTEGER;

/** Longest command text kept for a read or a search step (the rest is cut, with "…"). */
export const COMMAND_TEXT_LIMIT = 160;

/** A read that showed some line first: what the UI says about it ("seen at step 14 (`sed -n '120,180p' f`)"). */
export interface ViewingRead {
  /** The builder's `step_idx`: the index of the assistant message in the run. */
  readonly step: number;
  readonly idiom: ReadIdiom;
  readonly path: string;
  /** The command (or tool call) of the read, one line, at most {@link COMMAND_TEXT_LIMIT} characters. */
  readonly command: string;
}

/** A maximal run of lines first shown by one read. */
export interface FirstSight {
  readonly start: number;
  readonly end: number;
  /** Index into {@link ViewedLines.reads}. */
  readonly read: number;
}

export interface ViewedFile {
  /** Every line of the file some read showed (sorted, disjoint). */
  readonly lines: IntervalSet;
  /** The same lines split by the read that showed them first, sorted by start. */
  readonly firstSight: readonly FirstSight[];
}

export interface ViewedLines {
  /** Per path, the lines shown (only paths with at least one line). */
  readonly files: ReadonlyMap<string, ViewedFile>;
  /** Every path a kept read names, heredoc writes included (so "opened" can be told from "viewed"). */
  readonly readPaths: ReadonlySet<string>;
  /** The reads {@link FirstSight.read} points at, in the order they first showed a line. */
  readonly reads: readonly ViewingRead[];
}

/** Resolves one seen (or credited) range against a line count (see the module comment); undefined when it holds no line. */
export function resolveViewedRange(range: SeenRange, lineCount: number | undefined): Interval | undefined {
  let [start, end] = range;
  if (end === -1) end = lineCount ?? VIEWED_TO_END;
  else if (end < 1) return undefined;
  if (start < 0) {
    if (lineCount === undefined) return undefined;
    start = Math.max(1, lineCount + start + 1);
  } else if (start === 0) start = 1;
  if (lineCount !== undefined && end > lineCount) end = lineCount;
  return start <= end ? [start, end] : undefined;
}

/** A range some read showed: `order` is the read's place in extraction order (lower is earlier). */
interface Shown {
  readonly start: number;
  readonly end: number;
  readonly order: number;
}

/** A binary min-heap of shown ranges by read order. */
class EarliestFirst {
  private readonly items: Shown[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Shown | undefined {
    return this.items[0];
  }

  push(item: Shown): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.order <= item.order) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = item;
  }

  pop(): void {
    const items = this.items;
    const last = items.pop()!;
    if (items.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right]!.order < items[left]!.order ? right : left;
      if (items[child]!.order >= last.order) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = last;
  }
}

/**
 * Splits the union of a file's shown ranges into maximal runs with one earliest read each: a sweep
 * over the ranges by start with a heap of the active ones by read order — O(n log n) in the number
 * of ranges, whatever their overlaps (a run of 100,000 grep hits on one file included).
 */
function firstSights(shown: Shown[]): { start: number; end: number; order: number }[] {
  shown.sort((a, b) => a.start - b.start || a.order - b.order);
  const out: { start: number; end: number; order: number }[] = [];
  const active = new EarliestFirst();
  let next = 0;
  let at = shown[0]?.start ?? 0;
  while (next < shown.length || active.size > 0) {
    if (active.size === 0) at = Math.max(at, shown[next]!.start);
    while (next < shown.length && shown[next]!.start <= at) active.push(shown[next++]!);
    while (active.size > 0 && active.peek()!.end < at) active.pop();
    const top = active.peek();
    if (top === undefined) continue;
    // The earliest active read shows every line up to its end or the next start, whichever is first.
    const to = next < shown.length ? Math.min(top.end, shown[next]!.start - 1) : top.end;
    const last = out[out.length - 1];
    if (last !== undefined && last.order === top.order && last.end + 1 === at) last.end = to;
    else out.push({ start: at, end: to, order: top.order });
    at = to + 1;
  }
  return out;
}

/**
 * The viewed lines of a run's kept reads (see the module comment). `commandOf` gives the text shown
 * for a read (called once per read that shows a line first); `rangesOf` picks the ranges that
 * count (default: what the agent saw); `paths`, when given, limits the work to those files.
 */
export function viewedLines(
  reads: readonly RawRead[],
  lineCount: (path: string) => number | undefined,
  commandOf: (read: RawRead) => string,
  options: { readonly rangesOf?: (read: RawRead) => readonly SeenRange[]; readonly paths?: ReadonlySet<string> } = {},
): ViewedLines {
  const rangesOf = options.rangesOf ?? ((read: RawRead) => read.seen);
  const shownByPath = new Map<string, Shown[]>();
  const readPaths = new Set<string>();
  reads.forEach((read, order) => {
    if (options.paths !== undefined && !options.paths.has(read.path)) return;
    readPaths.add(read.path);
    const count = lineCount(read.path);
    for (const range of rangesOf(read)) {
      const resolved = resolveViewedRange(range, count);
      if (resolved === undefined) continue;
      let list = shownByPath.get(read.path);
      if (list === undefined) shownByPath.set(read.path, (list = []));
      list.push({ start: resolved[0], end: resolved[1], order });
    }
  });
  const sightsByPath = new Map<string, { start: number; end: number; order: number }[]>();
  const used = new Set<number>();
  for (const [path, shown] of shownByPath) {
    const sights = firstSights(shown);
    sightsByPath.set(path, sights);
    for (const sight of sights) used.add(sight.order);
  }
  // The reads that show a line first, in extraction order, each described once.
  const orders = [...used].sort((a, b) => a - b);
  const indexOf = new Map<number, number>();
  const viewing: ViewingRead[] = orders.map((order, index) => {
    indexOf.set(order, index);
    const read = reads[order]!;
    return { step: read.stepIdx, idiom: read.idiom, path: read.path, command: commandOf(read) };
  });
  const files = new Map<string, ViewedFile>();
  for (const [path, sights] of sightsByPath) {
    const lines: [number, number][] = [];
    for (const { start, end } of sights) {
      const last = lines[lines.length - 1];
      if (last !== undefined && last[1] + 1 >= start) last[1] = end;
      else lines.push([start, end]);
    }
    files.set(path, { lines, firstSight: sights.map(({ start, end, order }) => ({ start, end, read: indexOf.get(order)! })) });
  }
  return { files, readPaths, reads: viewing };
}

/** The viewed lines as a line set (path → lines). */
export function viewedLineSet(viewed: ViewedLines): LineSet {
  const out = new Map<string, IntervalSet>();
  for (const [path, file] of viewed.files) out.set(path, file.lines);
  return out;
}

/** Lines viewed in all, ranges open to an unknown end left out. */
export function viewedLineCount(viewed: ViewedLines): number {
  let total = 0;
  for (const file of viewed.files.values()) for (const [s, e] of file.lines) if (e !== VIEWED_TO_END) total += e - s + 1;
  return total;
}

/**
 * Whether (and how) the run viewed one line — exactly the data of the sentences the UI shows for a
 * missed core line:
 * - `seen`: "seen at step 14 (`sed -n '120,180p' f`), not reported";
 * - `never-opened`: "never viewed (the run never opened this file)" (no read showed any line of it;
 *   `written` when the run only wrote it with a heredoc);
 * - `other-lines`: "never viewed (opened lines 1–40 of this file only)" (`viewed`: the lines it did
 *   view there; an end of {@link VIEWED_TO_END} is "to the end of the file").
 */
export type LineViewing =
  | { readonly kind: 'seen'; readonly step: number; readonly idiom: ReadIdiom; readonly command: string }
  /** `written`: a kept read names the file but showed none of its lines (in practice: a heredoc write into it). */
  | { readonly kind: 'never-opened'; readonly written: boolean }
  | { readonly kind: 'other-lines'; readonly viewed: IntervalSet };

function sightAt(sights: readonly FirstSight[], line: number): FirstSight | undefined {
  let lo = 0;
  let hi = sights.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sights[mid]!.end < line) lo = mid + 1;
    else hi = mid;
  }
  const sight = sights[lo];
  return sight !== undefined && sight.start <= line ? sight : undefined;
}

/** How the run viewed `line` of `path` (see {@link LineViewing}). */
export function lineViewing(viewed: ViewedLines, path: string, line: number): LineViewing {
  const file = viewed.files.get(path);
  if (file === undefined) return { kind: 'never-opened', written: viewed.readPaths.has(path) };
  const sight = sightAt(file.firstSight, line);
  if (sight === undefined) return { kind: 'other-lines', viewed: file.lines };
  const read = viewed.reads[sight.read]!;
  return { kind: 'seen', step: read.step, idiom: read.idiom, command: read.command };
}

/** A part of a span with one {@link LineViewing}: a label per part instead of per line. */
export interface SpanViewing {
  readonly start: number;
  readonly end: number;
  readonly viewing: LineViewing;
}

/** `[start, end]` of `path` cut where the viewing changes (first-seeing read, or seen / not seen), in order. */
export function spanViewing(viewed: ViewedLines, path: string, start: number, end: number): SpanViewing[] {
  const file = viewed.files.get(path);
  if (file === undefined) return start <= end ? [{ start, end, viewing: { kind: 'never-opened', written: viewed.readPaths.has(path) } }] : [];
  const out: SpanViewing[] = [];
  const unseen: LineViewing = { kind: 'other-lines', viewed: file.lines };
  let from = start;
  for (const sight of file.firstSight) {
    if (sight.end < from) continue;
    if (sight.start > end) break;
    if (sight.start > from) out.push({ start: from, end: sight.start - 1, viewing: unseen });
    const read = viewed.reads[sight.read]!;
    const to = Math.min(end, sight.end);
    out.push({ start: Math.max(from, sight.start), end: to, viewing: { kind: 'seen', step: read.step, idiom: read.idiom, command: read.command } });
    from = to + 1;
  }
  if (from <= end) out.push({ start: from, end, viewing: unseen });
  return out;
}

/** One line of display text: the first line of `text` (with " …" when more follow), cut at {@link COMMAND_TEXT_LIMIT}. */
export function commandLine(text: string): string {
  const trimmed = text.trim();
  const newline = trimmed.search(/[\r\n]/);
  let line = newline === -1 ? trimmed : `${trimmed.slice(0, newline).trimEnd()} …`;
  if (line.length > COMMAND_TEXT_LIMIT) line = `${line.slice(0, COMMAND_TEXT_LIMIT - 1)}…`;
  return line;
}

/**
 * What the agent ran for a read, as one line of display text: the command segment it came from
 * (`readCommandText`), or `str_replace_editor view PATH --view_range A B` for a file-editor view (every
 * converted Read / read tool call is one). Data: the caller escapes it for its surface.
 */
export function readCommandLine(trajectory: Trajectory, read: RawRead): string {
  return commandLine(readCommandText(trajectory.messages, read) ?? '');
}

/** Whether a tool call's arguments hold one of `needles` (see {@link rawReadsNaming}). */
function argumentsName(argumentsValue: unknown, needles: readonly string[]): boolean {
  if (typeof argumentsValue === 'string') {
    if (needles.some((n) => argumentsValue.includes(n))) return true;
    // Without a backslash a JSON string's text is its value: no escape can hide a path.
    if (!argumentsValue.includes('\\')) return false;
  }
  const args = toolCallArguments({ name: '', arguments: argumentsValue });
  if (args === undefined) return false;
  for (const key of ['command', 'path']) {
    const value = argument(args, key);
    if (typeof value === 'string' && needles.some((n) => value.includes(n))) return true;
  }
  return false;
}

/** Whether a message's command could be a `grep…` / `rg ` segment (whose output's `path:line:` lines are reads): it mentions one. */
function mayReadGrepHits(text: string, calls: readonly TrajectoryToolCall[]): boolean {
  if (GREP_MENTION.test(text)) return true;
  return calls.some((call) => {
    const args = call.arguments;
    if (typeof args === 'string' && (GREP_MENTION.test(args) || !args.includes('\\'))) return GREP_MENTION.test(args);
    // An escape in the JSON text (or arguments that are no text) can hide the word: read the command.
    const command = argument(toolCallArguments(call) ?? {}, 'command');
    return typeof command === 'string' && GREP_MENTION.test(command);
  });
}

const GREP_MENTION = /grep|rg /i;

/**
 * The raw reads of the assistant messages that can yield a read of one of `needles` (normalised
 * paths): every path the extractor reads is a part of the message's text (fence words), of a tool
 * call's `command` / `path`, or — for a `grep…` / `rg ` segment only — of the next message's text
 * (its `path:line:` hits); normalisation only cuts a path's front and decorations, so a read
 * normalised to a needle comes from a message that holds that needle, or whose command mentions
 * grep or rg and whose output holds it. Other messages are skipped unparsed, their (long) outputs
 * unscanned: the kept reads of those paths are exactly the full extraction's, at a fraction of its
 * cost on a long run (`misses --explorer-trajs`).
 */
export function rawReadsNaming(trajectory: Trajectory, needles: readonly string[]): MessageReads {
  const reads: RawRead[] = [];
  const swallowed: RawSwallowed[] = [];
  const skipped: SkippedCall[] = [];
  if (needles.length === 0) return { reads, swallowed, skipped };
  const messages = trajectory.messages;
  const holds = (text: string): boolean => needles.some((n) => text.includes(n));
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    const next = messages[i + 1];
    const text = messageText(message.content);
    const named =
      holds(text) || message.toolCalls.some((call) => argumentsName(call.arguments, needles)) || (next !== undefined && mayReadGrepHits(text, message.toolCalls) && holds(messageText(next.content)));
    if (!named) continue;
    const found = messageReads(messages, i);
    for (const r of found.reads) reads.push(r);
    for (const s of found.swallowed) swallowed.push(s);
    for (const s of found.skipped) skipped.push(s);
  }
  return { reads, swallowed, skipped };
}

/**
 * A base for a run that names none of its own (no `cwd`, no `/workspace/<dir>` editor path: an
 * OpenCode log, a Claude Code session without `system/init`): the folder its absolute read paths
 * share in front of a path the instance is known to have (`/home/me/astropy/astropy/x.py` with
 * `astropy/x.py` known → `/home/me/astropy`), the most frequent one (first found on a tie).
 * Undefined when no absolute path ends with a known path.
 */
export function inferredRunBase(rawPaths: Iterable<string>, knownPaths: Iterable<string>): string | undefined {
  const byName = new Map<string, string[]>();
  for (const known of knownPaths) {
    const name = known.slice(known.lastIndexOf('/') + 1);
    const list = byName.get(name);
    if (list === undefined) byName.set(name, [known]);
    else list.push(known);
  }
  const votes = new Map<string, number>();
  for (const raw of rawPaths) {
    if (!raw.startsWith('/')) continue;
    for (const known of byName.get(raw.slice(raw.lastIndexOf('/') + 1)) ?? []) {
      if (raw.length <= known.length + 1 || !raw.endsWith(`/${known}`)) continue;
      const base = raw.slice(0, raw.length - known.length - 1);
      if (base !== '') votes.set(base, (votes.get(base) ?? 0) + 1);
    }
  }
  let best: string | undefined;
  let most = 0;
  for (const [base, count] of votes) {
    if (count > most) {
      best = base;
      most = count;
    }
  }
  return best;
}

/** An explorer run's own length: what it spent to find what it found. */
export interface RunLength {
  /** Assistant messages (each tool call of a converted run is one). */
  readonly steps: number;
  /** Kept reads (the builder's rules), heredoc writes included. */
  readonly reads: number;
  /** Distinct lines shown ({@link viewedLineCount}). */
  readonly viewedLines: number;
}

/** Steps of a run: its assistant messages. */
export function assistantSteps(trajectory: Trajectory): number {
  let steps = 0;
  for (const message of trajectory.messages) if (message.role === 'assistant') steps++;
  return steps;
}
