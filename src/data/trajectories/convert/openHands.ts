/**
 * OpenHands runs converted into the builder's message model (../shared/trajectories.md §2): the event
 * stream (`[{id, source, action|observation, args|extras, content, cause, tool_call_metadata}]`, as a
 * JSON list or JSON lines of events, or as the `history` of an evaluation `output.jsonl` record, whose
 * older form is a list of `[action, observation]` pairs) and OpenAI-style message lists.
 *
 * **Events.** Each agent action is one assistant message (content = its `thought`; for a `message`
 * action, its text; for `finish`, its final thought) with one tool call, followed at once by the
 * observation it caused (`cause` = the action's `id`, or its pair) as a `tool` message, wherever that
 * observation sits in the stream, so that the builder's "output = next message" is the action's own
 * output. A `read`/`run`/`edit` whose observation is missing gets an empty one (note), so that no other
 * message is taken for its output; other actions without one (`finish`, `think`) get none:
 * - `read` → `str_replace_editor view {path, view_range}`: `args.view_range` when it is a pair of
 *   integers (1-based, as the editor reads it); else, for the non-ACI reader, `start`/`end` other than
 *   the defaults `0`/`-1` (a 0-based start and an exclusive end) → `view_range [start+1, end]` (note);
 *   else no range (the whole file; an abbreviated view is noted).
 * - `run` → `execute_bash {command}`; `run_ipython` → `execute_ipython_cell {code}`;
 *   `edit` with a `command` → `str_replace_editor {command, path, old_str, new_str, file_text,
 *   insert_line}` (a `str_replace` is what the builder counts as a modification), without one (the
 *   LLM editor) → `edit_file {path, content, start, end}`.
 * - `message` → an assistant message without tool call; every other action (`finish`, `think`,
 *   `browse`, `delegate`…) → a tool call named by `tool_call_metadata.function_name`, else by the
 *   action, its `args` (without `thought`) as arguments: not reads. A delegation is noted: the
 *   delegate's own actions are converted as they appear in the stream.
 * - User messages → `user`, the system prompt → `system`; `recall`, `condensation`,
 *   `change_agent_state` and the like are bookkeeping, not steps, and are skipped, as are observations
 *   no converted action caused and that say nothing (`agent_state_changed`, `null`, empty content);
 *   others (an uncaused `error`) become `user` messages where they occur.
 *
 * **Info (events).** From an `output.jsonl` record: instance id = `instance_id`, model =
 * `metadata.llm_config.model` (else `metadata.model_name`), submission = `test_result.git_patch`. Else
 * the model is the first `tool_call_metadata.model_response.model`. cwd: the first `run`
 * observation's `extras.metadata.working_dir` — `/workspace/<dir>` when it lies under `/workspace/`
 * (the builder's own `/workspace/<dir>` rule, robust to a `cd` into a subfolder), nothing when it is
 * `/workspace` itself (the builder then finds the prefix in the paths), else as given. An
 * `output.jsonl` with several records is refused: one trajectory per file.
 *
 * **Messages** (the "OpenHands style" the builder reads natively): kept as they are (`role`,
 * `content`, `tool_calls[].function {name, arguments}`, `id`), except that a list-form content with
 * parts (`[{type: "text", text}]`) is joined into one string (note): the builder would not see the
 * parts, so a tool output in that form would hide its grep hits. Items that are not objects are
 * dropped, as the builder drops them. Container: a JSON list of messages, an object with a `messages`
 * or `trajectory` list (`instance_id`, `model`/`model_name`, `submission`/`model_patch`/`git_patch`
 * read from it), JSON lines of messages, or JSON lines holding one such object.
 */
import type { Trajectory, TrajectoryInfo, TrajectoryMessage, TrajectoryToolCall } from '../../../core/trajectories/types';
import type { TrajectoryContent, TrajectoryReader } from '../reader';
import { ConversionNotes, PROSE_FENCE_NOTE, bashCall, hasBashFence, integerOf, isAbbreviated, isObject, message, stringOf, textOf, toolCall, viewCall, type JsonObject } from './common';

const NOTE_START_END = 'a `read` with `start`/`end` (a 0-based start and an exclusive end) was read as `view_range [start+1, end]`.';
const NOTE_ABBREVIATED = 'the editor abbreviated its view of a large file; read as a view of the whole file, as the builder credits a view without range.';
const NOTE_NO_OBSERVATION = 'a `read`/`run`/`edit` action has no observation in the stream; its output is empty.';
const NOTE_DELEGATE = 'the agent delegated to another agent; the delegate’s actions are converted as they appear in the stream.';
const NOTE_LIST_FORM = 'list-form message contents were joined into one string (the builder would not see their parts).';

/** Actions that are bookkeeping, not agent steps. */
const SKIPPED_ACTIONS = new Set(['recall', 'condensation', 'condensation_request', 'change_agent_state', 'null']);
/** Actions whose output the agent reads (an empty one stands in when the stream lacks it, so that no other message is taken for it). */
const OUTPUT_ACTIONS = new Set(['read', 'run', 'run_ipython', 'edit']);
/** Observations that say nothing to the agent when no action caused them. */
const SILENT_OBSERVATIONS = new Set(['agent_state_changed', 'null', 'recall', 'agent_condensation']);

function isEvent(value: unknown): value is JsonObject {
  return isObject(value) && !('role' in value) && (typeof value.action === 'string' || typeof value.observation === 'string');
}

function isPair(value: unknown): boolean {
  return Array.isArray(value) && value.length === 2 && isEvent(value[0]) && isObject(value[1]);
}

function isHistoryRecord(value: unknown): value is JsonObject {
  if (!isObject(value) || 'trajectory' in value || 'traj' in value || !Array.isArray(value.history)) return false;
  const first: unknown = value.history[0];
  return isEvent(first) || isPair(first);
}

/** The events of an OpenHands content, with the `output.jsonl` record they come from, if any. */
function eventsShape(content: TrajectoryContent): { readonly events: readonly unknown[]; readonly record?: JsonObject; readonly records: number } | undefined {
  if (content.kind === 'json') {
    const value = content.value;
    if (Array.isArray(value)) return isEvent(value[0]) ? { events: value, records: 1 } : undefined;
    return isHistoryRecord(value) ? { events: value.history as unknown[], record: value, records: 1 } : undefined;
  }
  const first: unknown = content.values[0];
  if (isEvent(first)) return { events: content.values, records: 1 };
  return isHistoryRecord(first) ? { events: first.history as unknown[], record: first, records: content.values.length } : undefined;
}

/** An event with the observation paired to it in the older `[action, observation]` form. */
interface PlacedEvent {
  readonly event: JsonObject;
  readonly pairedObservation?: JsonObject;
  readonly index: number;
}

function flattenEvents(events: readonly unknown[], notes: ConversionNotes): PlacedEvent[] {
  const out: PlacedEvent[] = [];
  for (let i = 0; i < events.length; i++) {
    const item: unknown = events[i];
    if (Array.isArray(item) && item.length === 2 && isObject(item[0]) && isObject(item[1])) out.push({ event: item[0], pairedObservation: item[1], index: i });
    else if (isObject(item)) out.push({ event: item, index: i });
    else notes.add(`History item ${i + 1} is neither an event nor an [action, observation] pair and was skipped.`);
  }
  return out;
}

function readRange(args: JsonObject, step: number, notes: ConversionNotes): readonly [number, number] | undefined {
  const range = args.view_range;
  if (Array.isArray(range) && range.length >= 2) {
    const from = integerOf(range[0]);
    const to = integerOf(range[1]);
    if (from !== undefined && to !== undefined) return [from, to];
  }
  if (args.impl_source === 'oh_aci') return undefined;
  const start = integerOf(args.start) ?? 0;
  const end = integerOf(args.end) ?? -1;
  if (start === 0 && end === -1) return undefined;
  notes.atStep(NOTE_START_END, step);
  return [Math.max(0, start) + 1, end];
}

/** Whether an action event is an agent step (an assistant message). */
function isStep(event: JsonObject, action: string): boolean {
  return stringOf(event.source) === 'agent' && action !== 'system' && !SKIPPED_ACTIONS.has(action);
}

function idText(id: unknown): string | undefined {
  return stringOf(id) ?? integerOf(id)?.toString();
}

function withoutThought(args: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(args).filter(([key]) => key !== 'thought'));
}

function presentStrings(args: JsonObject, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (args[key] !== undefined && args[key] !== null) out[key] = args[key];
  return out;
}

function agentCall(action: string, args: JsonObject, event: JsonObject, observation: string, step: number, notes: ConversionNotes): TrajectoryToolCall | undefined {
  const metadata = isObject(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
  const id = stringOf(metadata?.tool_call_id);
  switch (action) {
    case 'read': {
      const range = readRange(args, step, notes);
      if (range === undefined && isAbbreviated(observation)) notes.atStep(NOTE_ABBREVIATED, step);
      return viewCall(stringOf(args.path) ?? '', range, id);
    }
    case 'run':
      return bashCall(stringOf(args.command) ?? '', id, 'execute_bash');
    case 'run_ipython':
      return toolCall('execute_ipython_cell', { code: stringOf(args.code) ?? '' }, id);
    case 'edit': {
      const command = stringOf(args.command);
      if (command !== undefined && command !== '') return toolCall('str_replace_editor', { command, ...presentStrings(args, ['path', 'old_str', 'new_str', 'file_text', 'insert_line']) }, id);
      return toolCall('edit_file', presentStrings(args, ['path', 'content', 'start', 'end']), id);
    }
    case 'message':
      return undefined;
    default:
      if (action === 'delegate') notes.atStep(NOTE_DELEGATE, step);
      return toolCall(stringOf(metadata?.function_name) ?? action, withoutThought(args), id);
  }
}

function contentText(value: unknown): string {
  return typeof value === 'string' ? value : textOf(value).text;
}

/** The working folder the builder should strip, from a `run` observation (see the file header). */
function cwdOf(workingDir: string): string | undefined {
  if (workingDir === '/workspace' || workingDir === '/workspace/') return undefined;
  const under = /^\/workspace\/([^/]+)/.exec(workingDir);
  return under !== null ? `/workspace/${under[1]}` : workingDir;
}

function readEvents(content: TrajectoryContent, file: string): Trajectory {
  const shape = eventsShape(content);
  if (shape === undefined) throw new Error(`${file}: not an OpenHands event stream (a list of events, or an output.jsonl record with a "history")`);
  if (shape.records > 1) throw new Error(`${file}: an OpenHands output.jsonl with ${shape.records} records; a trajectory file holds one run (one record per file)`);
  const notes = new ConversionNotes();
  if (content.kind === 'jsonl') notes.badLines(content.badLines);
  const placed = flattenEvents(shape.events, notes);
  const steps = new Set<number>();
  const causedBy = new Map<number, JsonObject>();
  for (const { event } of placed) {
    const id = integerOf(event.id);
    const action = stringOf(event.action);
    if (id !== undefined && action !== undefined && isStep(event, action) && action !== 'message') steps.add(id);
  }
  for (const { event } of placed) {
    const cause = integerOf(event.cause);
    if (typeof event.observation === 'string' && cause !== undefined && steps.has(cause) && !causedBy.has(cause)) causedBy.set(cause, event);
  }
  const messages: TrajectoryMessage[] = [];
  let model: string | undefined;
  let workingDir: string | undefined;
  for (const { event, pairedObservation, index } of placed) {
    const source = `event ${idText(event.id) ?? index + 1}`;
    const action = stringOf(event.action);
    if (action === undefined) {
      const cause = integerOf(event.cause);
      if ((cause !== undefined && steps.has(cause)) || typeof event.observation !== 'string' || SILENT_OBSERVATIONS.has(event.observation)) continue;
      const text = contentText(event.content);
      if (text !== '') messages.push(message('user', text, [], source));
      continue;
    }
    const args = isObject(event.args) ? event.args : {};
    if (action === 'system') {
      messages.push(message('system', stringOf(args.content) ?? stringOf(event.message) ?? '', [], source));
      continue;
    }
    if (!isStep(event, action)) {
      if (stringOf(event.source) !== 'agent' && action === 'message') messages.push(message('user', stringOf(args.content) ?? stringOf(event.message) ?? '', [], source));
      continue;
    }
    const metadata = isObject(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
    const response = isObject(metadata?.model_response) ? metadata.model_response : undefined;
    model ??= stringOf(response?.model);
    const id = integerOf(event.id);
    const observation = pairedObservation ?? (id !== undefined ? causedBy.get(id) : undefined);
    const output = observation === undefined ? '' : contentText(observation.content);
    const step = messages.length;
    const text =
      action === 'message'
        ? (stringOf(args.content) ?? stringOf(event.message) ?? '')
        : action === 'finish'
          ? stringOf(args.final_thought) || stringOf(args.thought) || ''
          : (stringOf(args.thought) ?? '');
    if (hasBashFence(text)) notes.atStep(PROSE_FENCE_NOTE, step);
    const call = agentCall(action, args, event, output, step, notes);
    messages.push(message('assistant', text, call === undefined ? [] : [call], source));
    if (call === undefined || (observation === undefined && !OUTPUT_ACTIONS.has(action))) continue;
    if (observation === undefined) notes.atStep(NOTE_NO_OBSERVATION, step);
    else if (action === 'run' && workingDir === undefined) {
      const extras = isObject(observation.extras) ? observation.extras : undefined;
      workingDir = stringOf(isObject(extras?.metadata) ? extras.metadata.working_dir : undefined);
    }
    messages.push(message('tool', output, [], observation === undefined ? undefined : `event ${idText(observation.id) ?? '?'}`));
  }
  return { format: 'openhands-events', info: recordInfo(shape.record, model, workingDir === undefined ? undefined : cwdOf(workingDir)), messages, notes: notes.list() };
}

function recordInfo(record: JsonObject | undefined, streamModel: string | undefined, cwd: string | undefined): TrajectoryInfo {
  const metadata = isObject(record?.metadata) ? record.metadata : undefined;
  const llm = isObject(metadata?.llm_config) ? metadata.llm_config : undefined;
  const testResult = isObject(record?.test_result) ? record.test_result : undefined;
  return {
    instanceId: stringOf(record?.instance_id),
    model: stringOf(llm?.model) ?? stringOf(metadata?.model_name) ?? streamModel,
    cwd,
    submission: stringOf(testResult?.git_patch),
    exitStatus: undefined,
  };
}

/** OpenAI-style messages ---------------------------------------------------------------------------------- */

function isRoleMessage(value: unknown): value is JsonObject {
  return isObject(value) && typeof value.role === 'string' && !isEvent(value);
}

function messageList(record: JsonObject): readonly unknown[] | undefined {
  if ('traj' in record || 'trajectory_format' in record) return undefined;
  if (isObject(record.info) && 'mini_version' in record.info) return undefined;
  for (const key of ['messages', 'trajectory']) {
    const list = record[key];
    if (Array.isArray(list) && isRoleMessage(list[0])) return list;
  }
  return undefined;
}

function messagesShape(content: TrajectoryContent): { readonly items: readonly unknown[]; readonly record?: JsonObject; readonly records: number } | undefined {
  if (content.kind === 'json') {
    const value = content.value;
    if (Array.isArray(value)) return isRoleMessage(value[0]) ? { items: value, records: 1 } : undefined;
    if (!isObject(value)) return undefined;
    const items = messageList(value);
    return items === undefined ? undefined : { items, record: value, records: 1 };
  }
  const first: unknown = content.values[0];
  if (isRoleMessage(first)) return { items: content.values, records: 1 };
  if (!isObject(first)) return undefined;
  const items = messageList(first);
  return items === undefined ? undefined : { items, record: first, records: content.values.length };
}

function convertedToolCalls(value: unknown): TrajectoryToolCall[] {
  if (!Array.isArray(value)) return [];
  const out: TrajectoryToolCall[] = [];
  for (const item of value) {
    if (!isObject(item)) continue;
    const fn = isObject(item.function) ? item.function : {};
    const id = stringOf(item.id);
    const call = { name: stringOf(fn.name) ?? '', arguments: fn.arguments };
    out.push(id === undefined ? call : { ...call, id });
  }
  return out;
}

function readMessages(content: TrajectoryContent, file: string): Trajectory {
  const shape = messagesShape(content);
  if (shape === undefined) throw new Error(`${file}: not a list of OpenAI-style messages`);
  if (shape.records > 1) throw new Error(`${file}: ${shape.records} records of messages; a trajectory file holds one run (one record per file)`);
  const notes = new ConversionNotes();
  if (content.kind === 'jsonl') notes.badLines(content.badLines);
  const messages: TrajectoryMessage[] = [];
  for (const item of shape.items) {
    if (!isObject(item)) continue;
    const role = stringOf(item.role) ?? '';
    const { text, listForm } = textOf(item.content);
    const parts = listForm && Array.isArray(item.content);
    if (parts) notes.add(NOTE_LIST_FORM);
    if (role === 'assistant' && hasBashFence(text)) notes.atStep(PROSE_FENCE_NOTE, messages.length);
    messages.push(message(role, parts ? text : item.content, convertedToolCalls(item.tool_calls)));
  }
  const record = shape.record;
  const info: TrajectoryInfo = {
    instanceId: stringOf(record?.instance_id),
    model: stringOf(record?.model) ?? stringOf(record?.model_name),
    cwd: undefined,
    submission: stringOf(record?.submission) ?? stringOf(record?.model_patch) ?? stringOf(record?.git_patch),
    exitStatus: undefined,
  };
  return { format: 'openhands-messages', info, messages, notes: notes.list() };
}

/** OpenHands event streams (a JSON list of events, or an `output.jsonl` record with a `history`). */
export const openHandsEventsReader: TrajectoryReader = {
  format: 'openhands-events',
  description: 'OpenHands event stream (events list, or an output.jsonl record with history)',
  sniff: (content) => eventsShape(content) !== undefined,
  read: readEvents,
};

/** OpenAI-style message lists as OpenHands writes them (`str_replace_editor` / `execute_bash` tool calls). */
export const openHandsMessagesReader: TrajectoryReader = {
  format: 'openhands-messages',
  description: 'OpenHands / OpenAI-style messages (role, content, tool_calls)',
  sniff: (content) => messagesShape(content) !== undefined,
  read: readMessages,
};
