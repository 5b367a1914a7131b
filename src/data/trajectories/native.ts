/**
 * The formats the builder reads without conversion (../shared/trajectories.md §2): SWE-Explore's
 * unified `{info, traj}` files and mini-swe-agent's `.traj.json` (v1 `mini-swe-agent-1`, v2
 * `mini-swe-agent-1.1`), whose `messages` the benchmark's adapter copied 1:1 into `traj`. Messages
 * are kept as they are (only the items that are objects, as the builder filters them), so a step
 * index is the builder's `step_idx`.
 */
import type { Trajectory, TrajectoryFormat, TrajectoryInfo, TrajectoryMessage, TrajectoryToolCall } from '../../core/trajectories/types';
import { isRecord } from '../../shared/guards';
import type { TrajectoryContent, TrajectoryReader } from './reader';

/** Thrown by a reader for content it recognised but cannot read (the registry reports it as a problem). */
export class TrajectoryReadError extends Error {}

function objectAt(value: unknown, ...keys: string[]): Record<string, unknown> | undefined {
  let at = value;
  for (const key of keys) {
    if (!isRecord(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return isRecord(at) ? at : undefined;
}

function textAt(value: unknown, ...keys: string[]): string | undefined {
  let at = value;
  for (const key of keys) {
    if (!isRecord(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return typeof at === 'string' && at !== '' ? at : undefined;
}

/**
 * What the builder reads from `info` (and a top-level `instance_id`): see {@link TrajectoryInfo}.
 * Values that are not non-empty strings count as absent (the builder would fail on most of them).
 */
export function trajectoryInfoOf(top: Record<string, unknown>): TrajectoryInfo {
  const info = objectAt(top, 'info') ?? {};
  const instanceId = textAt(info, 'instance_id') ?? textAt(top, 'instance_id');
  const model = textAt(info, 'model') ?? textAt(info, 'config', 'model', 'model_name');
  const cwd = textAt(info, 'config', 'environment', 'cwd');
  const submission = textAt(info, 'submission');
  const exitStatus = textAt(info, 'exit_status');
  return {
    ...(instanceId === undefined ? {} : { instanceId }),
    ...(model === undefined ? {} : { model }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(submission === undefined ? {} : { submission }),
    ...(exitStatus === undefined ? {} : { exitStatus }),
  };
}

/** `msg.tool_calls[i].function` as {@link TrajectoryToolCall}; a call that is not an object is kept as a nameless call (read as nothing). */
function toolCallOf(item: unknown): TrajectoryToolCall {
  const fn = objectAt(item, 'function');
  const name = fn !== undefined && typeof fn['name'] === 'string' ? fn['name'] : '';
  const id = isRecord(item) && typeof item['id'] === 'string' ? item['id'] : undefined;
  return { name, arguments: fn !== undefined && Object.hasOwn(fn, 'arguments') ? fn['arguments'] : undefined, ...(id === undefined ? {} : { id }) };
}

/** A message object as the builder sees it. */
export function messageOf(item: Record<string, unknown>): TrajectoryMessage {
  const role = typeof item['role'] === 'string' ? item['role'] : '';
  const calls = item['tool_calls'];
  return { role, content: item['content'], toolCalls: Array.isArray(calls) ? calls.map(toolCallOf) : [] };
}

/** The builder's `[dict(m) for m in traj if isinstance(m, dict)]` over a list; anything else has no messages. */
function messagesOf(list: unknown): TrajectoryMessage[] {
  const out: TrajectoryMessage[] = [];
  if (Array.isArray(list)) for (const item of list) if (isRecord(item)) out.push(messageOf(item));
  return out;
}

function topObject(content: TrajectoryContent): Record<string, unknown> | undefined {
  return content.kind === 'json' && isRecord(content.value) ? content.value : undefined;
}

function mustBeObject(content: TrajectoryContent, file: string): Record<string, unknown> {
  const top = topObject(content);
  if (top === undefined) throw new TrajectoryReadError(`${file} is not a JSON object`);
  return top;
}

function droppedItemsNote(list: unknown, field: string): string[] {
  if (!Array.isArray(list)) return [];
  let dropped = 0;
  for (const item of list) if (!isRecord(item)) dropped++;
  return dropped === 0 ? [] : [`${dropped} item(s) of "${field}" are not objects and were dropped before indexing, as the builder drops them (step indexes count objects only).`];
}

/** SWE-Explore's unified `{info, traj}`: the builder's own input. */
export const unifiedReader: TrajectoryReader = {
  format: 'swe-explore-unified',
  description: 'SWE-Explore unified trajectory ({info, traj})',
  sniff(content) {
    const top = topObject(content);
    return top !== undefined && Object.hasOwn(top, 'traj');
  },
  read(content, file) {
    const top = mustBeObject(content, file);
    const traj = top['traj'];
    // The builder iterates whatever `traj` holds: a list (its objects), a dict or a string (no objects
    // among their items); null, numbers and booleans make it fail, and it skips the file.
    if (traj === null || typeof traj === 'number' || typeof traj === 'boolean')
      throw new TrajectoryReadError(`${file}: "traj" is ${traj === null ? 'null' : typeof traj}, which the builder cannot read (it skips the file)`);
    const notes = droppedItemsNote(traj, 'traj');
    if (!Array.isArray(traj)) notes.push('"traj" is not a list: the run has no messages (as for the builder), which empties the core of its instance.');
    if (Object.hasOwn(top, 'info') && !isRecord(top['info']) && top['info'] !== null) notes.push('"info" is not an object and was ignored.');
    return { format: 'swe-explore-unified', info: trajectoryInfoOf(top), messages: messagesOf(traj), notes };
  },
};

/**
 * A JSON object with an `info` object but no `traj` and no other known layout: the builder loads it
 * as a unified file with zero messages (with a warning), which empties the core of its instance.
 * Tried last.
 */
export const unifiedWithoutTrajReader: TrajectoryReader = {
  format: 'swe-explore-unified',
  description: 'SWE-Explore unified trajectory without "traj" (zero messages, as the builder reads it)',
  sniff(content) {
    const top = topObject(content);
    return top !== undefined && isRecord(top['info']);
  },
  read(content, file) {
    const top = mustBeObject(content, file);
    return {
      format: 'swe-explore-unified',
      info: trajectoryInfoOf(top),
      messages: [],
      notes: ['The file has no "traj": the builder reads it as a run with zero messages, which empties the core of its instance.'],
    };
  },
};

function miniSweAgentReader(format: Extract<TrajectoryFormat, 'mini-swe-agent-1' | 'mini-swe-agent-1.1'>, description: string, matches: (top: Record<string, unknown>) => boolean): TrajectoryReader {
  return {
    format,
    description,
    sniff(content) {
      const top = topObject(content);
      return top !== undefined && matches(top) && Array.isArray(top['messages']);
    },
    read(content, file): Trajectory {
      const top = mustBeObject(content, file);
      // The benchmark's adapter takes `messages`, or `traj` when `messages` is empty.
      const source = Array.isArray(top['messages']) && top['messages'].length > 0 ? top['messages'] : Array.isArray(top['traj']) ? top['traj'] : [];
      const messages = messagesOf(source);
      const notes = droppedItemsNote(source, 'messages');
      if (format === 'mini-swe-agent-1.1' && textModeV2(messages)) {
        notes.push("A text-mode mini-swe-agent v2 run: its commands sit in ```mswea_bash_command fences, which the builder's ```bash rule never matches, so it yields no reads (as for the builder).");
      }
      return { format, info: trajectoryInfoOf(top), messages, notes };
    },
  };
}

/** A v2 run whose assistant messages carry no tool calls but do carry `mswea_bash_command` fences. */
function textModeV2(messages: readonly TrajectoryMessage[]): boolean {
  let fenced = false;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    if (message.toolCalls.length > 0) return false;
    if (typeof message.content === 'string' && message.content.includes('```mswea_bash_command')) fenced = true;
  }
  return fenced;
}

/**
 * mini-swe-agent `.traj.json` v1: `trajectory_format: "mini-swe-agent-1"` (older runs omit the
 * field; a `messages` list with `info.mini_version` is read as v1 too).
 */
export const miniSweAgentV1Reader = miniSweAgentReader(
  'mini-swe-agent-1',
  'mini-swe-agent .traj.json v1 (trajectory_format mini-swe-agent-1)',
  (top) => top['trajectory_format'] === 'mini-swe-agent-1' || (top['trajectory_format'] === undefined && objectAt(top, 'info') !== undefined && Object.hasOwn(objectAt(top, 'info')!, 'mini_version')),
);

/** mini-swe-agent `.traj.json` v2: `trajectory_format: "mini-swe-agent-1.1"` (tool-call or text mode). */
export const miniSweAgentV11Reader = miniSweAgentReader(
  'mini-swe-agent-1.1',
  'mini-swe-agent .traj.json v2 (trajectory_format mini-swe-agent-1.1)',
  (top) => top['trajectory_format'] === 'mini-swe-agent-1.1',
);
