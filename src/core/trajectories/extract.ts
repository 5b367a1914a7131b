/**
 * Raw reads of a trajectory, message by message, exactly as the builder walks them
 * (`extract_read_regions_with_step`, ../shared/trajectories.md §1), before any path normalisation:
 *
 * - only messages with `role == "assistant"`; `step_idx` is the message's index in `messages`;
 * - `output` is the text ({@link messageText}) of the next message, whatever its role, or "";
 * - two strategies, both applied, fence first:
 *   1. the **first** match of ```` ```bash\s*\n(.*?)\n``` ```` (dot matches newlines, lazy) in the
 *      message text, its group stripped: one command ({@link commandReads}); an untagged fence,
 *      ```` ```sh ```` or mini-swe-agent v2's ```` ```mswea_bash_command ```` never match;
 *   2. each tool call: `function.arguments` (a JSON string is parsed; bad JSON reads as `{}`);
 *      `bash` / `execute_bash` → its `command` with the same `output` for every call of the message
 *      (with parallel calls the grep output is the first tool reply); `str_replace_editor` with
 *      `command == "view"` and a non-empty `path` → `(path, int(vr[0]), int(vr[1]))` when
 *      `view_range` is a list of ≥ 2, else `(path, 1, -1)`; other tools read nothing.
 *
 * Where the builder would stop with a Python exception (a `view_range` item `int()` refuses, a
 * `command` or `path` that is not a string, `arguments` JSON that is not an object), this module
 * skips that one call and reports it in `skipped` instead.
 */
import { commandReads, commandSegments, type ReadIdiom, type SeenRange, type SwallowingFlag } from './commands';
import { PY_WHITESPACE_CLASS, pyInt, pyStrip, pyTruthy } from './python';
import { messageText } from './text';
import type { Trajectory, TrajectoryMessage, TrajectoryToolCall } from './types';

/** Where in its message a read came from. */
export type ReadOrigin = 'fence' | 'tool_call';

/** A read before normalisation: the path as the trajectory wrote it. */
export interface RawRead {
  readonly path: string;
  /** The builder's credit (`start` before the `start or 1` rule). */
  readonly start: number;
  readonly end: number;
  readonly stepIdx: number;
  readonly idiom: ReadIdiom;
  readonly seen: readonly SeenRange[];
  readonly origin: ReadOrigin;
  /** Index of the tool call in the message (−1 for the fence). */
  readonly call: number;
  /** Index of the command segment the read came from (−1 for a `str_replace_editor view`). */
  readonly segment: number;
}

/** A path-like word a flag swallowed (see `SwallowedPath` in ./commands), located in the run. */
export interface RawSwallowed extends RawRead {
  readonly flag: SwallowingFlag;
  /** Lower-cased first word of the segment. */
  readonly command: string;
}

/** A tool call the builder would have stopped on; skipped here, one sentence why. */
export interface SkippedCall {
  readonly stepIdx: number;
  readonly call: number;
  readonly reason: string;
}

export interface MessageReads {
  readonly reads: RawRead[];
  readonly swallowed: RawSwallowed[];
  readonly skipped: SkippedCall[];
}

const FENCE = new RegExp(`\`\`\`bash[${PY_WHITESPACE_CLASS}]*\\n([\\s\\S]*?)\\n\`\`\``);

/** The stripped body of the first ```` ```bash ```` fence of a text, as the builder takes it. */
export function firstBashFence(text: string): string | undefined {
  const match = FENCE.exec(text);
  return match === null ? undefined : pyStrip(match[1]!);
}

/** A tool call's arguments as the builder reads them: a dict, `{}`, or `undefined` where the builder would stop. */
export function toolCallArguments(call: TrajectoryToolCall): Readonly<Record<string, unknown>> | undefined {
  const args = call.arguments;
  if (typeof args === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      return {};
    }
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  }
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

/** `args.get(key, "")` on own keys only. */
export function argument(args: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(args, key) ? args[key] : '';
}

/** The reads of the assistant message at `index` (none for other roles). */
export function messageReads(messages: readonly TrajectoryMessage[], index: number): MessageReads {
  const reads: RawRead[] = [];
  const swallowed: RawSwallowed[] = [];
  const skipped: SkippedCall[] = [];
  const message = messages[index];
  if (message === undefined || message.role !== 'assistant') return { reads, swallowed, skipped };
  const next = messages[index + 1];
  // Only a grep segment reads the output: the (long) text of the next message is taken then, once.
  let text: string | undefined;
  const output = (): string => (text ??= next === undefined ? '' : messageText(next.content));

  const fenced = firstBashFence(messageText(message.content));
  if (fenced !== undefined) {
    const found = commandReads(fenced, output);
    for (const read of found.reads) reads.push({ ...read, stepIdx: index, origin: 'fence', call: -1 });
    for (const s of found.swallowed) swallowed.push({ ...s, stepIdx: index, origin: 'fence', call: -1 });
  }

  message.toolCalls.forEach((call, callIndex) => {
    const skip = (reason: string): void => {
      skipped.push({ stepIdx: index, call: callIndex, reason });
    };
    if (call.name !== 'bash' && call.name !== 'execute_bash' && call.name !== 'str_replace_editor') return;
    const args = toolCallArguments(call);
    if (args === undefined) return skip(`the ${call.name} call's arguments are not a JSON object`);
    if (call.name === 'str_replace_editor') {
      const command = argument(args, 'command');
      const path = argument(args, 'path');
      if (command !== 'view' || !pyTruthy(path)) return;
      if (typeof path !== 'string') return skip('a str_replace_editor view whose path is not a string');
      const range = argument(args, 'view_range');
      let start = 1;
      let end = -1;
      if (Array.isArray(range) && range.length >= 2) {
        const a = pyInt(range[0]);
        const b = pyInt(range[1]);
        if (a === undefined || b === undefined) return skip('a str_replace_editor view whose view_range is not a pair of integers');
        start = a;
        end = b;
      }
      const idiom: ReadIdiom = Array.isArray(range) && range.length >= 2 ? 'view_range' : 'view_whole';
      reads.push({ path, start, end, stepIdx: index, idiom, seen: [[start === 0 ? 1 : start, end]], origin: 'tool_call', call: callIndex, segment: -1 });
      return;
    }
    const command = argument(args, 'command');
    if (!pyTruthy(command)) return;
    if (typeof command !== 'string') return skip(`a ${call.name} call whose command is not a string`);
    const found = commandReads(command, output);
    for (const read of found.reads) reads.push({ ...read, stepIdx: index, origin: 'tool_call', call: callIndex });
    for (const s of found.swallowed) swallowed.push({ ...s, stepIdx: index, origin: 'tool_call', call: callIndex });
  });
  return { reads, swallowed, skipped };
}

/** Every raw read of a trajectory, in the builder's order (message by message; fence, then tool calls). */
export function trajectoryRawReads(trajectory: Trajectory): MessageReads {
  const reads: RawRead[] = [];
  const swallowed: RawSwallowed[] = [];
  const skipped: SkippedCall[] = [];
  for (let i = 0; i < trajectory.messages.length; i++) {
    const found = messageReads(trajectory.messages, i);
    for (const r of found.reads) reads.push(r);
    for (const s of found.swallowed) swallowed.push(s);
    for (const s of found.skipped) skipped.push(s);
  }
  return { reads, swallowed, skipped };
}

/** `text.split("/", 3)`: at most four parts, the last holding the rest. */
function splitSlashMax3(text: string): string[] {
  const parts: string[] = [];
  let rest = text;
  while (parts.length < 3) {
    const slash = rest.indexOf('/');
    if (slash === -1) break;
    parts.push(rest.slice(0, slash));
    rest = rest.slice(slash + 1);
  }
  parts.push(rest);
  return parts;
}

/** `str_replace_editor` calls (any command) of assistant messages, with their parsed arguments. */
function* editorCalls(trajectory: Trajectory): Generator<Readonly<Record<string, unknown>>> {
  for (const message of trajectory.messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) {
      if (call.name !== 'str_replace_editor') continue;
      const args = toolCallArguments(call);
      if (args !== undefined) yield args;
    }
  }
}

/**
 * The builder's `_detect_repo_path_from_trajectory`: `/workspace/<dir>` from the first
 * `str_replace_editor` path (any command) that starts with `/workspace/`.
 */
export function workspaceBaseOf(trajectory: Trajectory): string | undefined {
  for (const args of editorCalls(trajectory)) {
    const path = argument(args, 'path');
    if (typeof path !== 'string' || !path.startsWith('/workspace/')) continue;
    const parts = splitSlashMax3(path);
    if (parts.length >= 3) return `/workspace/${parts[2]!}`;
  }
  return undefined;
}

/** A trajectory's own base path: `info.config.environment.cwd`, else {@link workspaceBaseOf}. */
export function trajectoryBase(trajectory: Trajectory): string | undefined {
  return trajectory.info.cwd !== undefined && trajectory.info.cwd !== '' ? trajectory.info.cwd : workspaceBaseOf(trajectory);
}

/**
 * The base every trajectory of an instance is normalised against, in input order: the first base
 * found ({@link trajectoryBase}) among this and the earlier trajectories, else `placeholder` (the
 * `--repo-path`, `/testbed` by default). Once found, a base is used for all later trajectories.
 */
export function instanceBases(trajectories: readonly Trajectory[], placeholder: string): string[] {
  let detected: string | undefined;
  return trajectories.map((trajectory) => {
    detected ??= trajectoryBase(trajectory);
    return detected ?? placeholder;
  });
}

/**
 * The builder's modified files of one trajectory, before normalisation: the paths of
 * `info.submission` (`^diff --git a/(.+?) b/` and `^\+\+\+ b/(.+?)$`, line by line, stripped) and of
 * `str_replace_editor` `str_replace` calls (non-empty string paths), in that order, deduplicated.
 */
export function rawModifiedPaths(trajectory: Trajectory): string[] {
  const out = new Set<string>();
  const submission = trajectory.info.submission ?? '';
  if (submission !== '') {
    // Python's multiline `^`/`$` only see `\n`, and its `.` crosses `\r`: split on `\n` alone.
    for (const line of submission.split('\n')) {
      const diff = /^diff --git a\/([\s\S]+?) b\//.exec(line);
      if (diff !== null) out.add(pyStrip(diff[1]!));
      const plus = /^\+\+\+ b\/([\s\S]+)$/.exec(line);
      if (plus !== null) out.add(pyStrip(plus[1]!));
    }
  }
  for (const args of editorCalls(trajectory)) {
    const path = argument(args, 'path');
    if (argument(args, 'command') === 'str_replace' && typeof path === 'string' && path !== '') out.add(path);
  }
  return [...out];
}

/**
 * The command a read came from, for people: the segment of the fenced block or `bash` call it was
 * split from (the whole command for a multi-segment one when the segment is unknown), or
 * `str_replace_editor view PATH [--view_range A B]` for an editor view. Undefined when the message
 * no longer holds it.
 */
export function readCommandText(messages: readonly TrajectoryMessage[], read: Pick<RawRead, 'stepIdx' | 'origin' | 'call' | 'segment'>): string | undefined {
  const message = messages[read.stepIdx];
  if (message === undefined) return undefined;
  let command: unknown;
  if (read.origin === 'fence') command = firstBashFence(messageText(message.content));
  else {
    const call = message.toolCalls[read.call];
    const args = call === undefined ? undefined : toolCallArguments(call);
    if (call === undefined || args === undefined) return undefined;
    if (call.name === 'str_replace_editor') {
      const range = argument(args, 'view_range');
      const suffix = Array.isArray(range) && range.length >= 2 ? ` --view_range ${String(range[0])} ${String(range[1])}` : '';
      return `str_replace_editor view ${String(argument(args, 'path'))}${suffix}`;
    }
    command = argument(args, 'command');
  }
  if (typeof command !== 'string') return undefined;
  if (read.segment < 0) return command;
  return commandSegments(command)[read.segment] ?? command;
}
