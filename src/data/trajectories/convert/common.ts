/**
 * What every trajectory converter shares: reading hostile JSON without trusting its shape, the tool
 * calls the builder understands (`str_replace_editor view`, `bash`), shell quoting for the commands a
 * converter writes, Windows paths, and the notes a converter leaves for people.
 *
 * Every string that comes from a file is data: it is copied into messages and tool-call arguments,
 * never interpreted, and never copied into a note (notes are fixed sentences with step numbers).
 * Every helper here is linear in its input.
 */
import type { TrajectoryMessage, TrajectoryToolCall } from '../../../core/trajectories/types';
import { isRecord } from '../../../shared/guards';
import type { TrajectoryContent } from '../reader';

/** A JSON object as parsed: every value still to be checked. */
export type JsonObject = { readonly [key: string]: unknown };

/** How many leading values a sniffer looks at: sniffing stays cheap on a file of any size. */
export const SNIFF_WINDOW = 50;

/** A JSON object (src/shared/guards.ts's `isRecord`), typed as the converters read it. */
export function isObject(value: unknown): value is JsonObject {
  return isRecord(value);
}

export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** An integer given as a JSON number or as a string of digits (models send both); anything else is undefined. */
export function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value.trim());
  return undefined;
}

/**
 * The events of a JSON-lines file; of a file holding one JSON array of events (some tools write their
 * log that way); or of a one-line log read as one JSON value (a file registry reads a one-line file
 * without the `.jsonl` extension as JSON): that one object is the only event.
 */
export function eventValues(content: TrajectoryContent): readonly unknown[] | undefined {
  if (content.kind === 'jsonl') return content.values;
  if (Array.isArray(content.value)) return content.value;
  return isObject(content.value) ? [content.value] : undefined;
}

/** The first `SNIFF_WINDOW` values that are objects. */
export function leadingObjects(values: readonly unknown[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (let i = 0; i < values.length && i < SNIFF_WINDOW; i++) {
    const value = values[i];
    if (isObject(value)) out.push(value);
  }
  return out;
}

/**
 * The text of a message content. A string is itself; a list (OpenAI / Anthropic "content parts") is
 * its string items and the `text` of its text parts, joined by newlines (`listForm` says so: the
 * builder reads only the string items of a list and would not see the parts); other parts (images)
 * are left out. Anything else is the empty string.
 */
export function textOf(content: unknown): { readonly text: string; readonly listForm: boolean } {
  if (typeof content === 'string') return { text: content, listForm: false };
  if (!Array.isArray(content)) return { text: '', listForm: false };
  const parts: string[] = [];
  let listForm = false;
  for (const part of content) {
    if (typeof part === 'string') parts.push(part);
    else if (isObject(part)) {
      listForm = true;
      const text = stringOf(part.text);
      if (text !== undefined && (part.type === undefined || part.type === 'text')) parts.push(text);
    }
  }
  return { text: parts.join('\n'), listForm };
}

export function message(role: string, content: unknown, toolCalls: readonly TrajectoryToolCall[] = [], source?: string): TrajectoryMessage {
  return source === undefined ? { role, content, toolCalls } : { role, content, toolCalls, source };
}

/** A tool call whose arguments are written as a JSON string, as a model's would be. */
export function toolCall(name: string, args: JsonObject, id?: string): TrajectoryToolCall {
  const call = { name, arguments: JSON.stringify(args) };
  return id === undefined ? call : { ...call, id };
}

/**
 * `str_replace_editor view`: the builder reads `(path, a, b)` from a `view_range` `[a, b]` and
 * `(path, 1, -1)` (the whole file) without one.
 */
export function viewCall(path: string, range: readonly [number, number] | undefined, id?: string): TrajectoryToolCall {
  return toolCall('str_replace_editor', range === undefined ? { command: 'view', path } : { command: 'view', path, view_range: [range[0], range[1]] }, id);
}

/** A shell command: the builder reads it with its command rules (`bash` and `execute_bash` alike). */
export function bashCall(command: string, id?: string, name = 'bash'): TrajectoryToolCall {
  return toolCall(name, { command }, id);
}

/** Words a shell would keep as they are (no quoting needed, nothing it would expand or split on). */
const SHELL_SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `word` as one shell word: as is when nothing in it needs quoting, else single-quoted. */
export function shellQuote(word: string): string {
  return SHELL_SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Whether `text` holds one of the separators the builder splits a command on (`;`, `&&`, `||`),
 * which it does without regard to quoting: a command a converter writes around such a text would be
 * cut inside a quoted word and could yield reads no one made, so the converter keeps the tool call
 * under its own name instead (no read) and says so in a note.
 */
export function hasCommandSeparator(text: string): boolean {
  return text.includes(';') || text.includes('&&') || text.includes('||');
}

/**
 * A Windows path written with `/`, its drive `C:` as `/c` (the Git Bash form): the builder rejects any
 * path holding `\`, and its `path:line:` grep-hit pattern cannot read past a drive's colon. Paths
 * without `\` and without a drive come back unchanged.
 */
export function posixPath(path: string): string {
  const drive = /^([A-Za-z]):(?=[\\/]|$)/.exec(path);
  if (drive === null && !path.includes('\\')) return path;
  const slashed = path.replace(/\\/g, '/');
  return drive === null ? slashed : `/${drive[1]!.toLowerCase()}${slashed.slice(2)}`;
}

/** The lines of `text` (`\n`, `\r\n`), without their terminators. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
  return lines;
}

/**
 * The first and last line numbers of the numbered lines of a tool's output (`pattern` captures the
 * number), or undefined when no line is numbered.
 */
export function numberedLineRange(text: string, pattern: RegExp): { readonly first: number; readonly last: number } | undefined {
  // The lines of {@link linesOf}, walked from the front for the first numbered one and from the back
  // for the last: a Read result of thousands of lines is not split (explorer runs hold hundreds).
  const numberOf = (from: number, to: number): number | undefined => {
    const line = text.slice(from, to > from && text.charCodeAt(to - 1) === 13 ? to - 1 : to);
    const match = pattern.exec(line);
    if (match === null) return undefined;
    const number = Number(match[1]);
    return Number.isSafeInteger(number) ? number : undefined;
  };
  let first: number | undefined;
  let firstEnd = -1;
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    first = numberOf(start, end);
    if (first !== undefined) {
      firstEnd = end;
      break;
    }
    start = end + 1;
  }
  if (first === undefined) return undefined;
  for (let end = text.length; end > firstEnd;) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const last = numberOf(start, end);
    if (last !== undefined) return { first, last };
    end = start - 1;
  }
  return { first, last: first };
}

/**
 * Whether the builder would find a ```` ```bash ```` fence in `text` (its regex ```` ```bash\s*\n(.*?)\n``` ````,
 * DOTALL), decided in one pass: converted agents run commands only through tools, so such a block is
 * prose the builder would still read as a command, and the converter notes it.
 */
export function hasBashFence(text: string): boolean {
  const closing = text.lastIndexOf('\n```');
  if (closing < 0) return false;
  for (let at = text.indexOf('```bash'); at >= 0 && at < closing; at = text.indexOf('```bash', at + 1)) {
    for (let i = at + 7; i < text.length && /\s/.test(text[i]!); i++) {
      if (text[i] === '\n') {
        if (closing >= i + 1) return true;
        break;
      }
    }
  }
  return false;
}

/** Whether the file editor (SWE-agent's and OpenHands' `str_replace_editor`) said it abbreviated a large file: its note opens the output. */
export function isAbbreviated(output: string): boolean {
  return output.slice(0, 400).includes('Showing abbreviated version');
}

/** At most this many step numbers are listed in one note. */
const LISTED_STEPS = 20;

/**
 * The notes of one conversion, in the order they first happened. A note about steps lists the step
 * indices (the builder's `step_idx`: the assistant message's index in `messages`) it applies to.
 */
/** Conversion state shared by the tools of one run (Claude Code, OpenCode): notes, and whether a Windows path was seen. */
export interface ConversionRun {
  readonly notes: ConversionNotes;
  windows: boolean;
}

/** A tool's path argument as a POSIX path; notes on the run that it was a Windows one. */
export function convertedPath(value: unknown, run: ConversionRun): string {
  const path = stringOf(value) ?? '';
  const converted = posixPath(path);
  if (converted !== path) run.windows = true;
  return converted;
}

export class ConversionNotes {
  private readonly notes = new Map<string, number[] | undefined>();

  /** A note that applies to the assistant message at `step`. */
  atStep(sentence: string, step: number): void {
    const steps = this.notes.get(sentence);
    if (steps === undefined) this.notes.set(sentence, [step]);
    else if (steps[steps.length - 1] !== step) steps.push(step);
  }

  /** A note about the whole trajectory (kept once). */
  add(sentence: string): void {
    if (!this.notes.has(sentence)) this.notes.set(sentence, undefined);
  }

  /** Lines of the file that are not JSON, by number (1-based, as the file reader counted them). */
  badLines(lines: readonly number[]): void {
    if (lines.length === 0) return;
    this.add(`${lines.length === 1 ? 'Line' : 'Lines'} ${listed(lines)} of the file ${lines.length === 1 ? 'is' : 'are'} not JSON and ${lines.length === 1 ? 'was' : 'were'} skipped.`);
  }

  list(): string[] {
    const out: string[] = [];
    for (const [sentence, steps] of this.notes) out.push(steps === undefined ? sentence : `${steps.length === 1 ? 'Step' : 'Steps'} ${listed(steps)}: ${sentence}`);
    return out;
  }
}

function listed(numbers: readonly number[]): string {
  const shown = numbers.slice(0, LISTED_STEPS).join(', ');
  return numbers.length > LISTED_STEPS ? `${shown} and ${numbers.length - LISTED_STEPS} more` : shown;
}

/** The sentence every converter uses for a ```` ```bash ```` block in an agent's prose (see {@link hasBashFence}). */
export const PROSE_FENCE_NOTE = 'the agent’s text holds a ```bash block that was not run as such (this agent runs commands through its tool calls); the builder reads it as a command.';
