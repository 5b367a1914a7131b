/**
 * OpenCode / DevEco `run --format json` event logs (`{type, timestamp, sessionID, part}` per line:
 * `step_start`, `tool_use`, `text`, `step_finish`) converted into the builder's message model
 * (../shared/trajectories.md §2).
 *
 * **Messages.** Each `text` part is an assistant message; each `tool_use` part is an assistant
 * message with one tool call, followed by its output (`state.output`, or `state.error` for a failed
 * call) as a `tool` message. Parts still `pending`/`running` are not calls yet and are skipped (note);
 * `step_start`/`step_finish` (token counts), `reasoning` and unknown events are not messages. The log
 * carries no model, working folder or instance id.
 *
 * **Tools.**
 * - `read {filePath, offset, limit}` → `str_replace_editor view` of the lines the tool displayed:
 *   `state.metadata.display {lineStart, lineEnd, totalLines}` when present — the whole file (no
 *   `view_range`) when those lines are all of it, else `[lineStart, lineEnd]`; a directory listing is a
 *   view without range (the builder's file filter drops it). Without `display`: the first and last
 *   numbered lines of the output (`N: text`, or `00012| text` in older builds — whose `offset` counted
 *   from 0, which the numbers make moot), the whole file when they start at line 1 and the output says
 *   `(End of file`; else the request (`offset` as the 1-based line of current builds, `limit` a count;
 *   neither = the whole file). The last two are noted. A failed read counts, from its request, as the
 *   builder counts failed calls (note).
 * - `grep {pattern, path, include}` → `grep -rn [--include=GLOB] PATTERN [PATH]` whose output is the
 *   tool's matches written as grep prints them (`path:N:text`, from its `path:` headers and
 *   `  Line N: text` lines; other lines kept): the builder reads them as hits, one line each (note). A
 *   pattern, path or glob holding `;`, `&&` or `||` keeps the call as `grep` (no read; note).
 * - `bash {command}` → `bash`; `edit`/`multiedit` → `str_replace_editor str_replace {path, old_str,
 *   new_str}`; `write` → `str_replace_editor create`; every other tool (`glob`, `list`, `webfetch`,
 *   `todowrite`…) keeps its name and input: not a read.
 * - `task` (a sub-agent) keeps its name and input; its output is the sub-agent's summary only: **the
 *   sub-agent's reads are absent from the stream** (note).
 * - Windows paths (`\`, drive `C:`) in read/grep/edit/write paths and grep output are written with
 *   `/`, the drive as `/c` (note): the builder rejects a path holding `\`.
 */
import type { Trajectory, TrajectoryMessage, TrajectoryToolCall } from '../../../core/trajectories/types';
import type { TrajectoryContent, TrajectoryReader } from '../reader';
import {
  ConversionNotes,
  PROSE_FENCE_NOTE,
  bashCall,
  eventValues,
  hasBashFence,
  hasCommandSeparator,
  integerOf,
  isObject,
  leadingObjects,
  linesOf,
  message,
  numberedLineRange,
  posixPath,
  shellQuote,
  stringOf,
  toolCall,
  viewCall,
  type JsonObject,
  convertedPath,
  type ConversionRun,
} from './common';

const NOTE_READ_FROM_LINES = 'a read’s range was taken from the numbered lines of its output (no `metadata.display`).';
const NOTE_READ_FROM_REQUEST = 'a read’s range was taken from its request (`offset` as the 1-based line of current builds, `limit` as a count): its output showed no numbered lines.';
const NOTE_READ_FAILED = 'a read failed; it counts, from its request, as the builder counts failed calls.';
const NOTE_GREP_OUTPUT = 'grep matches were written as grep prints them (`path:N:text`), one hit per line.';
const NOTE_GREP_SEPARATOR = 'a grep pattern, path or include glob holds `;`, `&&` or `||`, which the builder would split a written command on: the call was kept as `grep` (no read).';
const NOTE_SUBAGENT = 'a `task` sub-agent explored on its own: sub-agent reads are absent from the stream (only its summary is there).';
const NOTE_UNFINISHED = 'tool events still pending or running (not yet calls) were skipped.';
const NOTE_WINDOWS = 'Windows paths were written with `/` (a drive `C:` as `/c`), as the builder rejects a path holding `\\`.';

/** Read's numbered output lines: `12: text` (current builds) or `00012| text` (older builds). */
const READ_LINE = /^(\d+)(?:: |:$|\| |\|$)/;
const GREP_MATCH = /^ {2}Line (\d+): ?(.*)$/;

function sniffOpenCode(content: TrajectoryContent): boolean {
  const values = eventValues(content);
  if (values === undefined) return false;
  let decisive = false;
  for (const value of leadingObjects(values)) {
    if ('message' in value || 'role' in value || 'action' in value || 'observation' in value) return false;
    if (typeof value.type === 'string' && isObject(value.part)) decisive = true;
  }
  return decisive;
}

function readCall(input: JsonObject, state: JsonObject, output: string, failed: boolean, step: number, run: ConversionRun): TrajectoryToolCall {
  const path = convertedPath(input.filePath, run);
  const offset = integerOf(input.offset);
  const limit = integerOf(input.limit);
  const fromRequest = (): readonly [number, number] | undefined => {
    if (offset === undefined && limit === undefined) return undefined;
    const start = Math.max(1, offset ?? 1);
    return [start, limit !== undefined && limit > 0 ? start + limit - 1 : -1];
  };
  if (failed) {
    run.notes.atStep(NOTE_READ_FAILED, step);
    return viewCall(path, fromRequest());
  }
  const metadata = isObject(state.metadata) ? state.metadata : undefined;
  const display = isObject(metadata?.display) ? metadata.display : undefined;
  if (display !== undefined && display.type === 'directory') return viewCall(path, undefined);
  const lineStart = integerOf(display?.lineStart);
  const lineEnd = integerOf(display?.lineEnd);
  const totalLines = integerOf(display?.totalLines);
  if (lineStart !== undefined && lineEnd !== undefined && totalLines !== undefined && (lineEnd >= lineStart || totalLines === 0)) {
    const start = Math.max(1, lineStart);
    return viewCall(path, start === 1 && lineEnd >= totalLines ? undefined : [start, lineEnd]);
  }
  const shown = numberedLineRange(output, READ_LINE);
  if (shown !== undefined) {
    run.notes.atStep(NOTE_READ_FROM_LINES, step);
    return viewCall(path, shown.first === 1 && output.includes('(End of file') ? undefined : [shown.first, shown.last]);
  }
  const range = fromRequest();
  if (range !== undefined) run.notes.atStep(NOTE_READ_FROM_REQUEST, step);
  return viewCall(path, range);
}

function grepCall(input: JsonObject, step: number, run: ConversionRun): TrajectoryToolCall | undefined {
  const pattern = stringOf(input.pattern) ?? '';
  const rawPath = stringOf(input.path);
  const include = stringOf(input.include);
  if ([pattern, rawPath, include].some((text) => text !== undefined && hasCommandSeparator(text))) {
    run.notes.atStep(NOTE_GREP_SEPARATOR, step);
    return undefined;
  }
  const words = ['grep', '-rn'];
  if (include !== undefined) words.push(`--include=${shellQuote(include)}`);
  words.push(shellQuote(pattern));
  if (rawPath !== undefined) words.push(shellQuote(convertedPath(rawPath, run)));
  return bashCall(words.join(' '));
}

/**
 * OpenCode's grep output (`Found N matches`, then per file a `path:` header and `  Line N: text`
 * lines, a blank line between files) written as `grep -rn` prints it: `path:N:text`. Lines that are
 * neither headers nor matches stay as they are.
 */
function asGrepOutput(output: string, run: ConversionRun): { readonly text: string; readonly hits: number } {
  const lines = linesOf(output);
  const out: string[] = [];
  let file: string | undefined;
  let hits = 0;
  for (const line of lines) {
    const match = file === undefined ? null : GREP_MATCH.exec(line);
    if (match !== null) {
      out.push(`${file}:${match[1]}:${match[2]}`);
      hits++;
    } else if (line.length > 1 && line.endsWith(':') && !line.startsWith(' ') && !line.startsWith('Found ')) {
      file = posixPath(line.slice(0, -1));
      if (file !== line.slice(0, -1)) run.windows = true;
    } else {
      if (line === '') file = undefined;
      out.push(line);
    }
  }
  return { text: out.join('\n'), hits };
}

function editArgs(command: string, input: JsonObject, run: ConversionRun): JsonObject {
  const args: Record<string, unknown> = { command, path: convertedPath(input.filePath, run) };
  if (typeof input.oldString === 'string') args.old_str = input.oldString;
  if (typeof input.newString === 'string') args.new_str = input.newString;
  if (command === 'create') args.file_text = stringOf(input.content) ?? '';
  return args;
}

function readOpenCode(content: TrajectoryContent, file: string): Trajectory {
  const values = eventValues(content);
  if (values === undefined || !sniffOpenCode(content)) throw new Error(`${file}: not an OpenCode / DevEco run --format json event log`);
  const run: ConversionRun = { notes: new ConversionNotes(), windows: false };
  const { notes } = run;
  if (content.kind === 'jsonl') notes.badLines(content.badLines);
  const messages: TrajectoryMessage[] = [];
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    const source = `event ${i + 1}`;
    if (!isObject(value)) {
      notes.add(`Event ${i + 1} is not an object and was skipped.`);
      continue;
    }
    const part = isObject(value.part) ? value.part : undefined;
    if (value.type === 'text') {
      const text = stringOf(part?.text);
      if (text === undefined) {
        notes.add(`Event ${i + 1} (text) has no text part and was skipped.`);
        continue;
      }
      if (hasBashFence(text)) notes.atStep(PROSE_FENCE_NOTE, messages.length);
      messages.push(message('assistant', text, [], source));
      continue;
    }
    if (value.type !== 'tool_use') continue;
    const state = isObject(part?.state) ? part.state : undefined;
    const tool = stringOf(part?.tool);
    if (part === undefined || state === undefined || tool === undefined) {
      notes.add(`Event ${i + 1} (tool_use) has no tool part with a state and was skipped.`);
      continue;
    }
    const status = stringOf(state.status);
    if (status === 'pending' || status === 'running') {
      notes.add(NOTE_UNFINISHED);
      continue;
    }
    const failed = status === 'error';
    const input = isObject(state.input) ? state.input : {};
    let output = (failed ? stringOf(state.error) : stringOf(state.output)) ?? '';
    const step = messages.length;
    const callId = stringOf(part.callID);
    let call: TrajectoryToolCall | undefined;
    switch (tool) {
      case 'read':
        call = readCall(input, state, output, failed, step, run);
        break;
      case 'grep': {
        call = grepCall(input, step, run);
        if (call !== undefined && !failed) {
          const rendered = asGrepOutput(output, run);
          if (rendered.hits > 0) notes.atStep(NOTE_GREP_OUTPUT, step);
          output = rendered.text;
        }
        break;
      }
      case 'bash':
        call = bashCall(stringOf(input.command) ?? '');
        break;
      case 'edit':
      case 'multiedit':
        call = toolCall('str_replace_editor', editArgs('str_replace', input, run));
        break;
      case 'write':
        call = toolCall('str_replace_editor', editArgs('create', input, run));
        break;
      case 'task':
        notes.atStep(NOTE_SUBAGENT, step);
        break;
    }
    call ??= toolCall(tool, input);
    messages.push(message('assistant', '', [callId === undefined ? call : { ...call, id: callId }], source));
    messages.push(message('tool', output, [], source));
  }
  if (run.windows) notes.add(NOTE_WINDOWS);
  return { format: 'opencode-events', info: { instanceId: undefined, model: undefined, cwd: undefined, submission: undefined, exitStatus: undefined }, messages, notes: notes.list() };
}

/** OpenCode / DevEco `run --format json` event logs. */
export const openCodeReader: TrajectoryReader = {
  format: 'opencode-events',
  description: 'OpenCode / DevEco run --format json events (read, grep, bash, task tool parts)',
  sniff: sniffOpenCode,
  read: readOpenCode,
};
