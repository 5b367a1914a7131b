/**
 * Claude Code runs converted into the builder's message model (../shared/trajectories.md §2): the
 * `--output-format stream-json` event log and the session JSONL Claude Code keeps
 * (`~/.claude/projects/…/<session>.jsonl`), or the same events as one JSON list.
 *
 * **Messages.** Each `text` block of an assistant message is an assistant message; each `tool_use`
 * block is an assistant message of its own with one tool call, followed at once by its result (the
 * `tool_result` with that `tool_use_id`, wherever it sits in the stream) as a `tool` message whose
 * content is the result as a string (list-form results: their text parts joined by newlines); a call
 * without a result gets an empty one (note). User prompts are `user` messages; `thinking` blocks and
 * bookkeeping events (`summary`, snapshots, `result`) are not messages. Sub-agent messages
 * (`isSidechain`, or a `parent_tool_use_id`) are converted like the main agent's, where they appear
 * (note); a `Task`/`Agent` call whose sub-agent left no message in the stream is noted: its reads are
 * absent from the stream (only its summary is there).
 *
 * **Tools.**
 * - `Read {file_path, offset, limit}` → `str_replace_editor view` of the lines the tool showed:
 *   `toolUseResult.file {startLine, numLines, totalLines}` when the event has it (session JSONL) —
 *   the whole file (no `view_range`) when those lines are all of it, else `[startLine,
 *   startLine+numLines-1]`; else the first and last numbered lines of the result (`N→text`, `N\ttext`),
 *   the whole file when the call gave no offset/limit and the lines start at 1 (note); else the
 *   request: `offset` is a 1-based line (0 read as 1), `limit` a count, neither = the whole file
 *   (note). A failed Read (`is_error`) counts, from its request, as the builder counts failed calls
 *   (note).
 * - `Grep {pattern, path, glob, type, output_mode, -i, -n, -A, -B, -C}` → a `grep -r…` command
 *   (`-n` for `content`, `-l` for `files_with_matches`, `-c` for `count`) with the result as its output:
 *   `path:N:text` lines are the builder's grep hits, a one-file search printing `N:text` is credited as
 *   the whole file — exactly as for the shell command. A pattern, path or glob holding `;`, `&&` or
 *   `||` keeps the call as `Grep` (no read; note).
 * - `Bash {command}` → `bash`; `Edit`/`MultiEdit` → `str_replace_editor str_replace {path, old_str,
 *   new_str}` (a modification for the builder); `Write` → `str_replace_editor create`; every other
 *   tool (`Glob`, `LS`, `Task`, `WebFetch`, `TodoWrite`…) keeps its name and input: not a read.
 * - Windows paths (`C:\…`) in Read/Grep/Edit/Write paths, in `cwd` and at the start of grep-hit lines
 *   are written with `/`, the drive as `/c` (note): the builder rejects a path holding `\`.
 *
 * **Info.** cwd and model from `system/init` (else the first event carrying `cwd`, the first assistant
 * message's `model`); exit status = the `result` event's `subtype`. No instance id or submission.
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
  message,
  posixPath,
  shellQuote,
  stringOf,
  textOf,
  toolCall,
  viewCall,
  type JsonObject,
  convertedPath,
  numberedLineRange,
  type ConversionRun,
} from './common';

const NOTE_READ_FROM_LINES = 'a Read’s range was taken from the numbered lines of its result (the event has no `toolUseResult.file`).';
const NOTE_READ_FROM_REQUEST = 'a Read’s range was taken from its request (`offset` as a 1-based line, `limit` as a count): its result showed no numbered lines.';
const NOTE_READ_FAILED = 'a Read failed (`is_error`); it counts, from its request, as the builder counts failed calls.';
const NOTE_NO_RESULT = 'a tool call has no result in the stream; its output is empty.';
const NOTE_GREP_SEPARATOR = 'a Grep pattern, path or glob holds `;`, `&&` or `||`, which the builder would split a written command on: the call was kept as `Grep` (no read).';
const NOTE_WINDOWS = 'Windows paths were written with `/` (a drive `C:` as `/c`), as the builder rejects a path holding `\\`.';
const NOTE_SUBAGENT_ABSENT = 'a sub-agent (Task) explored on its own: sub-agent reads are absent from the stream (only its summary is there).';
const NOTE_SUBAGENT_INCLUDED = 'these messages come from sub-agents (Task); their tool calls are converted like the main agent’s.';

const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);
/** Read's numbered lines: `     12→text` (older builds) or `    12\ttext`. */
const READ_LINE = /^\s*(\d+)(?:→|\t)/;

function sniffClaude(content: TrajectoryContent): boolean {
  const values = eventValues(content);
  if (values === undefined) return false;
  let decisive = false;
  for (const value of leadingObjects(values)) {
    if ('part' in value || 'role' in value || 'action' in value || 'observation' in value) return false;
    const type = stringOf(value.type);
    if ((type === 'assistant' || type === 'user') && isObject(value.message)) decisive = true;
    else if (type === 'system' && value.subtype === 'init') decisive = true;
  }
  return decisive;
}

/** A tool result as the stream gives it. */
interface ToolResult {
  readonly content: unknown;
  readonly isError: boolean;
  readonly toolUseResult: unknown;
}

function collectResults(values: readonly unknown[]): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  for (const value of values) {
    if (!isObject(value) || value.type !== 'user' || !isObject(value.message) || !Array.isArray(value.message.content)) continue;
    const blocks = value.message.content.filter((block): block is JsonObject => isObject(block) && block.type === 'tool_result');
    const toolUseResult = blocks.length === 1 ? (value.toolUseResult ?? value.tool_use_result) : undefined;
    for (const block of blocks) {
      const id = stringOf(block.tool_use_id);
      if (id !== undefined && !results.has(id)) results.set(id, { content: block.content, isError: block.is_error === true, toolUseResult });
    }
  }
  return results;
}

function readCall(input: JsonObject, result: ToolResult | undefined, resultText: string, id: string | undefined, step: number, run: ConversionRun): TrajectoryToolCall {
  const path = convertedPath(input.file_path, run);
  const offset = integerOf(input.offset);
  const limit = integerOf(input.limit);
  const fromRequest = (): readonly [number, number] | undefined => {
    if (offset === undefined && limit === undefined) return undefined;
    const start = Math.max(1, offset ?? 1);
    return [start, limit !== undefined && limit > 0 ? start + limit - 1 : -1];
  };
  if (result === undefined || result.isError) {
    if (result?.isError === true) run.notes.atStep(NOTE_READ_FAILED, step);
    return viewCall(path, fromRequest(), id);
  }
  const tur = result.toolUseResult;
  const file = isObject(tur) && isObject(tur.file) ? tur.file : undefined;
  const startLine = integerOf(file?.startLine);
  const numLines = integerOf(file?.numLines);
  const totalLines = integerOf(file?.totalLines);
  if (startLine !== undefined && numLines !== undefined && totalLines !== undefined && numLines > 0) {
    const start = Math.max(1, startLine);
    const end = start + numLines - 1;
    return viewCall(path, start === 1 && end >= totalLines ? undefined : [start, end], id);
  }
  if (startLine !== undefined && numLines === 0 && totalLines === 0) return viewCall(path, undefined, id);
  const shown = numberedLineRange(resultText, READ_LINE);
  if (shown !== undefined) {
    run.notes.atStep(NOTE_READ_FROM_LINES, step);
    return viewCall(path, offset === undefined && limit === undefined && shown.first === 1 ? undefined : [shown.first, shown.last], id);
  }
  const range = fromRequest();
  if (range !== undefined) run.notes.atStep(NOTE_READ_FROM_REQUEST, step);
  return viewCall(path, range, id);
}

function grepCall(input: JsonObject, id: string | undefined, step: number, run: ConversionRun): TrajectoryToolCall {
  const pattern = stringOf(input.pattern) ?? '';
  const rawPath = stringOf(input.path);
  const glob = stringOf(input.glob);
  const type = stringOf(input.type);
  if ([pattern, rawPath, glob, type].some((text) => text !== undefined && hasCommandSeparator(text))) {
    run.notes.atStep(NOTE_GREP_SEPARATOR, step);
    return toolCall('Grep', input, id);
  }
  const mode = stringOf(input.output_mode) ?? 'files_with_matches';
  const words = ['grep', mode === 'content' ? (input['-n'] === false ? '-r' : '-rn') : mode === 'count' ? '-rc' : '-rl'];
  if (input['-i'] === true) words.push('-i');
  for (const flag of ['-A', '-B', '-C']) {
    const n = integerOf(input[flag]);
    if (n !== undefined) words.push(flag, String(n));
  }
  if (glob !== undefined) words.push(`--include=${shellQuote(glob)}`);
  if (type !== undefined) words.push(`--type=${shellQuote(type)}`);
  words.push(shellQuote(pattern));
  if (rawPath !== undefined) words.push(shellQuote(convertedPath(rawPath, run)));
  return bashCall(words.join(' '), id);
}

/** Grep-hit lines whose path is a Windows one (`C:\x\a.py:12:text`), written with `/`: else the builder cannot read them as hits. */
function posixGrepOutput(text: string, run: ConversionRun): string {
  if (!text.includes('\\') && !/^[A-Za-z]:/m.test(text)) return text;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^((?:[A-Za-z]:)?[^:\n]*)(:\d+[:-].*)$/s.exec(lines[i]!);
    if (match === null) continue;
    const converted = posixPath(match[1]!);
    if (converted === match[1]) continue;
    lines[i] = converted + match[2]!;
    run.windows = true;
  }
  return lines.join('\n');
}

function convertTool(block: JsonObject, result: ToolResult | undefined, resultText: string, step: number, run: ConversionRun): TrajectoryToolCall {
  const name = stringOf(block.name) ?? '';
  const input = isObject(block.input) ? block.input : {};
  const id = stringOf(block.id);
  switch (name) {
    case 'Read':
      return readCall(input, result, resultText, id, step, run);
    case 'Grep':
      return grepCall(input, id, step, run);
    case 'Bash':
      return bashCall(stringOf(input.command) ?? '', id);
    case 'Edit':
    case 'MultiEdit': {
      const args: Record<string, unknown> = { command: 'str_replace', path: convertedPath(input.file_path, run) };
      if (typeof input.old_string === 'string') args.old_str = input.old_string;
      if (typeof input.new_string === 'string') args.new_str = input.new_string;
      return toolCall('str_replace_editor', args, id);
    }
    case 'Write':
      return toolCall('str_replace_editor', { command: 'create', path: convertedPath(input.file_path, run), file_text: stringOf(input.content) ?? '' }, id);
    default:
      return toolCall(name, input, id);
  }
}

function readClaude(content: TrajectoryContent, file: string): Trajectory {
  const values = eventValues(content);
  if (values === undefined || !sniffClaude(content)) throw new Error(`${file}: not a Claude Code stream-json or session log`);
  const run: ConversionRun = { notes: new ConversionNotes(), windows: false };
  const { notes } = run;
  if (content.kind === 'jsonl') notes.badLines(content.badLines);
  const results = collectResults(values);
  const messages: TrajectoryMessage[] = [];
  const emitted = new Set<string>();
  const subagentCalls: Array<{ readonly id: string | undefined; readonly step: number }> = [];
  const subagentParents = new Set<string>();
  let sidechains = false;
  let cwd: string | undefined;
  let model: string | undefined;
  let exitStatus: string | undefined;
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    const source = `event ${i + 1}`;
    if (!isObject(value)) {
      notes.add(`Event ${i + 1} is not an object and was skipped.`);
      continue;
    }
    const type = stringOf(value.type);
    if (type === 'system' && value.subtype === 'init') {
      cwd ??= stringOf(value.cwd);
      model ??= stringOf(value.model);
      continue;
    }
    cwd ??= stringOf(value.cwd);
    if (type === 'result') {
      exitStatus ??= stringOf(value.subtype);
      continue;
    }
    if (type !== 'assistant' && type !== 'user') continue;
    const body = value.message;
    if (!isObject(body)) {
      notes.add(`Event ${i + 1} (${type}) has no message object and was skipped.`);
      continue;
    }
    const parent = stringOf(value.parent_tool_use_id);
    const sidechain = value.isSidechain === true || parent !== undefined;
    if (parent !== undefined) subagentParents.add(parent);
    if (sidechain) sidechains = true;
    if (type === 'user') {
      const prompt = userText(body.content);
      if (prompt !== '') messages.push(message('user', prompt, [], source));
      continue;
    }
    if (!sidechain) model ??= stringOf(body.model);
    const blocks: readonly unknown[] = typeof body.content === 'string' ? [{ type: 'text', text: body.content }] : Array.isArray(body.content) ? body.content : [];
    for (const block of blocks) {
      if (!isObject(block)) continue;
      const step = messages.length;
      if (block.type === 'text') {
        const text = stringOf(block.text) ?? '';
        if (hasBashFence(text)) notes.atStep(PROSE_FENCE_NOTE, step);
        if (sidechain) notes.atStep(NOTE_SUBAGENT_INCLUDED, step);
        messages.push(message('assistant', text, [], source));
      } else if (block.type === 'tool_use') {
        const id = stringOf(block.id);
        if (id !== undefined) {
          if (emitted.has(id)) continue;
          emitted.add(id);
        }
        const result = id === undefined ? undefined : results.get(id);
        const name = stringOf(block.name) ?? '';
        const rawText = result === undefined ? '' : textOf(result.content).text;
        const resultText = name === 'Grep' ? posixGrepOutput(rawText, run) : rawText;
        const call = convertTool(block, result, resultText, step, run);
        if (SUBAGENT_TOOLS.has(name)) subagentCalls.push({ id, step });
        if (sidechain) notes.atStep(NOTE_SUBAGENT_INCLUDED, step);
        messages.push(message('assistant', '', [call], source));
        if (result === undefined) notes.atStep(NOTE_NO_RESULT, step);
        messages.push(message('tool', resultText, [], result === undefined ? undefined : `result of ${source}`));
      }
    }
  }
  for (const call of subagentCalls) {
    const included = call.id !== undefined && subagentParents.has(call.id);
    if (!included && !(sidechains && subagentParents.size === 0)) notes.atStep(NOTE_SUBAGENT_ABSENT, call.step);
  }
  const cwdPath = cwd === undefined ? undefined : posixPath(cwd);
  if (cwdPath !== cwd) run.windows = true;
  if (run.windows) notes.add(NOTE_WINDOWS);
  return { format: 'claude-code-stream', info: { instanceId: undefined, model, cwd: cwdPath, submission: undefined, exitStatus }, messages, notes: notes.list() };
}

/** A user message's own words: its string content, or its text blocks (tool results are placed after their calls). */
function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) if (isObject(block) && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
  return parts.join('\n');
}

/** Claude Code `stream-json` output and session JSONL logs. */
export const claudeCodeReader: TrajectoryReader = {
  format: 'claude-code-stream',
  description: 'Claude Code stream-json / session JSONL (Read, Grep, Bash tool calls)',
  sniff: sniffClaude,
  read: readClaude,
};
