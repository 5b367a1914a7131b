/**
 * SWE-agent `.traj` files (`{trajectory, history, info, replay_config?, environment}`) converted into
 * the builder's message model (../shared/trajectories.md §2).
 *
 * **Messages.** The messages of `history` before its first assistant message (the system prompt, the
 * issue; demonstrations, `is_demo: true`, are dropped with a note) come first, as they are. Then each
 * `trajectory` step becomes two messages: an assistant message whose content is the step's `thought`
 * and whose one tool call is the step's `action` converted (below; none for an empty action), and the
 * step's `observation` as the next message (role `tool`, or `user` when there is no call). The steps
 * come from `trajectory`, not from `history`, in text mode and function-calling mode alike: every
 * step's `action` is the command SWE-agent ran, `history` omits the steps it re-queried after a format
 * error (their empty actions stay steps here), and in 0.x-style runs its tool names (`open`,
 * `find_file`…) are not the builder's. The content is the `thought` (the response without its action
 * block) so that an action is read once, from its tool call.
 *
 * **Actions.** Classified by their first word; every other action is a shell command, kept as written
 * in a `bash` call (the shell ran it as written: `bash ls -la; find …` included).
 * - `str_replace_editor CMD PATH [--view_range A B] [--old_str …] …`: parsed as the shell and the tool's
 *   argument parser would, into a `str_replace_editor` call with those arguments. A `view` whose words
 *   the tool could not parse (`view F [1060, 1220]`, `view F "[1060, 1220]"`, `--view_range 10`: it
 *   answered with a usage error) becomes a view of the whole file (no `view_range`), as the builder
 *   counts a failed call and credits a view without range (note). A view without range whose output
 *   was abbreviated by the tool is a whole-file view too (note).
 * - `open F [N]`, `goto N`, `scroll_down`, `scroll_up` (0.x windowed interface): a view of exactly the
 *   lines the window showed (`view_range` = first and last numbered line of the observation, the path
 *   from its `[File: P (T lines total)]` header), or of the whole file when the window held all of it
 *   (note). An `open` whose observation shows no window (an error) is a view of the named file without
 *   range (errored calls count, note); a `goto`/`scroll_*` without a window is not a read.
 * - `search_file T [F]` → `grep -n T F` (F = the named file, else the one named in the output, else the
 *   open file) with its `Line N:text` matches written as grep prints them for one file (`N:text`), so
 *   the builder credits the whole file and the lines seen are the matches (note). `search_dir T [D]` →
 *   `grep -rl T [D]`, `find_file N [D]` → `find D -name N`, their outputs as they are (file names only:
 *   not reads of lines; note — the nebius loader writes both as `grep -rn`, which the builder credits
 *   as whole-file reads of the words that look like paths). A term or folder holding `;`, `&&` or `||` keeps the command under its own
 *   name instead (the builder would split the written command inside the quotes; note).
 * - `create`, `edit`, `insert`, `append`, `submit`, `filemap`, `skip`, `exit_*`: SWE-agent's own
 *   commands, kept as tool calls under their own names (`{"action": …}`): not reads. In particular the
 *   window an `edit` prints afterwards is not a read, as a `str_replace` is not one for the builder.
 *
 * **Info.** Instance id = `replay_config.problem_statement.id`; model = `replay_config.agent.model.name`;
 * cwd = the first step state's `working_dir`, else `/<replay_config.env.repo.repo_name>`; submission
 * and exit status from `info`. `replay_config` may be a JSON string (1.x writes it so) or an object.
 *
 * **0.x or 1.x.** The two readers differ only in what they accept: a trajectory whose state carries
 * `open_file` uses the windowed 0.x interface (`swe-agent-0`), whatever SWE-agent version wrote it
 * (SWE-agent's own function-calling demonstrations still use it); the others are `swe-agent-1`.
 */
import type { Trajectory, TrajectoryFormat, TrajectoryInfo, TrajectoryMessage, TrajectoryToolCall } from '../../../core/trajectories/types';
import type { TrajectoryContent, TrajectoryReader } from '../reader';
import {
  ConversionNotes,
  PROSE_FENCE_NOTE,
  bashCall,
  hasBashFence,
  hasCommandSeparator,
  integerOf,
  isAbbreviated,
  isObject,
  linesOf,
  message,
  shellQuote,
  stringOf,
  textOf,
  toolCall,
  viewCall,
  type JsonObject,
} from './common';

const NOTE_DEMOS = 'demonstration messages of `history` (`is_demo`) were dropped: they are examples shown to the model, not this run.';
const NOTE_LIST_FORM = 'a message of `history` had list-form content; its text parts were joined into one string.';
const NOTE_UNREADABLE_RANGE =
  '`str_replace_editor view` with a range the tool could not parse (it answered with a usage error) was read as a view of the whole file, as the builder counts a failed call and credits a view without range.';
const NOTE_ABBREVIATED = 'the tool abbreviated its view of a large file; read as a view of the whole file, as the builder credits a view without range.';
const NOTE_WINDOW = '`open`/`goto`/`scroll_*` showed a window of a file: read as a view of exactly the lines shown (of the whole file when the window held all of it).';
const NOTE_OPEN_FAILED = '`open` showed no window (an error): read as a view of the whole named file, as the builder counts a failed call.';
const NOTE_SEARCH_FILE = '`search_file` was written as `grep -n TERM FILE` with its matches printed as grep prints them for one file (`N:text`): the builder credits the whole file.';
const NOTE_FILE_LISTS =
  '`find_file`/`search_dir` were written as `find D -name N` / `grep -rl T D`: they list file names, not lines, so they are not reads (a loader that writes them as `grep -rn` credits whole files instead).';
const NOTE_SEPARATOR = 'a search term or folder holds `;`, `&&` or `||`, which the builder would split the written command on: the command was kept under its own name (no read).';

/** SWE-agent's own commands that read nothing (kept under their own names). */
const OWN_COMMANDS = new Set(['create', 'edit', 'insert', 'append', 'submit', 'filemap', 'skip']);
const WINDOW_COMMANDS = new Set(['open', 'goto', 'scroll_down', 'scroll_up']);

/** `str_replace_editor` flags that take one value. */
const EDITOR_FLAGS: ReadonlyMap<string, string> = new Map([
  ['--old_str', 'old_str'],
  ['--new_str', 'new_str'],
  ['--file_text', 'file_text'],
  ['--insert_line', 'insert_line'],
]);

/** How many steps the sniffer looks at to find a state. */
const STATE_WINDOW = 20;

/** The SWE-agent shape of a content, or undefined; `windowed` = the 0.x interface (its state carries `open_file`). */
function sweAgentShape(content: TrajectoryContent): { readonly root: JsonObject; readonly windowed: boolean } | undefined {
  if (content.kind !== 'json' || !isObject(content.value)) return undefined;
  const root = content.value;
  if ('traj' in root || 'trajectory_format' in root) return undefined;
  const steps = root.trajectory;
  if (!Array.isArray(steps)) return undefined;
  if (steps.length === 0) return isObject(root.info) && Array.isArray(root.history) ? { root, windowed: false } : undefined;
  const first: unknown = steps[0];
  if (!isObject(first) || typeof first.action !== 'string' || !('observation' in first) || 'role' in first) return undefined;
  for (let i = 0; i < steps.length && i < STATE_WINDOW; i++) {
    const step: unknown = steps[i];
    if (!isObject(step)) continue;
    const state = step.state;
    if (typeof state === 'string' && state.trim() !== '') return { root, windowed: state.includes('"open_file"') };
    if (isObject(state) && Object.keys(state).length > 0) return { root, windowed: 'open_file' in state };
  }
  return { root, windowed: false };
}

/**
 * The words of a command as a POSIX shell splits them (single quotes literal; double quotes with `\`
 * escaping `"` `\` `$` `` ` `` and newline; an unquoted `\` escaping the next character), without any
 * expansion. Unbalanced quotes run to the end. Linear.
 */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close < 0 ? text.length : close;
      current += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) {
          current += text[i + 1];
          i += 2;
        } else {
          current += text[i];
          i++;
        }
      }
      i++;
    } else if (c === '\\' && i + 1 < text.length) {
      current += text[i + 1];
      inWord = true;
      i += 2;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      i++;
    } else {
      current += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** The window a 0.x file command printed: `[File: P (T lines total)]`, then numbered lines `N:text`. */
interface ShownWindow {
  readonly path: string;
  readonly total: number;
  readonly start: number;
  readonly end: number;
}

const WINDOW_HEADER = /^\[File: (.+) \((\d+) lines total\)\]\s*$/;
const WINDOW_LINE = /^(\d+):/;

function shownWindow(observation: string): ShownWindow | undefined {
  let header: { path: string; total: number } | undefined;
  let start: number | undefined;
  let end = 0;
  for (const line of linesOf(observation)) {
    if (header === undefined) {
      const match = WINDOW_HEADER.exec(line);
      if (match !== null) header = { path: match[1]!, total: Number(match[2]) };
      continue;
    }
    const numbered = WINDOW_LINE.exec(line);
    if (numbered !== null) {
      const n = Number(numbered[1]);
      if (start === undefined) start = n;
      end = n;
    } else if (start !== undefined) break;
  }
  return header === undefined || start === undefined ? undefined : { path: header.path, total: header.total, start, end };
}

/** The path a `search_file` output names: `Found N matches for "T" in P:` (first line). */
const SEARCH_FILE_HEADER = /^Found \d+ matches for ".*" in (.+):$/;

/** A state as an object (SWE-agent 0.x writes it as a JSON string). */
function stateOf(step: JsonObject): JsonObject | undefined {
  const state = step.state;
  if (isObject(state)) return state;
  if (typeof state !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(state);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A step's action as a tool call (none for an empty action) and the output that follows it. */
interface ConvertedAction {
  readonly call: TrajectoryToolCall | undefined;
  readonly output: string;
}

/** Converts one step's action; `step` is the assistant message's index (for notes). */
function convertAction(action: string, observation: string, state: JsonObject | undefined, step: number, notes: ConversionNotes): ConvertedAction {
  const trimmed = action.trim();
  if (trimmed === '') return { call: undefined, output: observation };
  const name = /^\S+/.exec(trimmed)![0];
  if (name === 'str_replace_editor') return { call: editorCall(trimmed, observation, step, notes), output: observation };
  const firstLine = shellWords(linesOf(trimmed)[0]!);
  if (WINDOW_COMMANDS.has(name)) return { call: windowCall(name, firstLine, action, observation, step, notes), output: observation };
  if (name === 'search_file' || name === 'search_dir' || name === 'find_file') return searchCall(name, firstLine, action, observation, state, step, notes);
  if (OWN_COMMANDS.has(name) || name.startsWith('exit_')) return { call: toolCall(name, { action }), output: observation };
  return { call: bashCall(action), output: observation };
}

/**
 * `str_replace_editor …` as the tool's argument parser reads it: two positionals (command, path), flags
 * with their values anywhere; a word it would reject (an extra positional, `--view_range` without two
 * integers, an unknown flag) makes the call a usage error.
 */
function editorCall(action: string, observation: string, step: number, notes: ConversionNotes): TrajectoryToolCall {
  const words = shellWords(action);
  const positionals: string[] = [];
  const flags: Record<string, unknown> = {};
  let unparsed = false;
  for (let i = 1; i < words.length;) {
    const word = words[i]!;
    const flag = EDITOR_FLAGS.get(word);
    if (word === '--view_range') {
      const from = integerOf(words[i + 1]);
      const to = integerOf(words[i + 2]);
      if (from === undefined || to === undefined) {
        unparsed = true;
        i += 1;
      } else {
        flags.view_range = [from, to];
        i += 3;
      }
    } else if (flag !== undefined && i + 1 < words.length) {
      flags[flag] = flag === 'insert_line' ? (integerOf(words[i + 1]) ?? words[i + 1]) : words[i + 1];
      i += 2;
    } else {
      if (word.startsWith('--') || positionals.length === 2) unparsed = true;
      else positionals.push(word);
      i += 1;
    }
  }
  const command = positionals[0] ?? '';
  const args: Record<string, unknown> = positionals[1] === undefined ? { command } : { command, path: positionals[1] };
  if (command === 'view' && unparsed) {
    notes.atStep(NOTE_UNREADABLE_RANGE, step);
    return toolCall('str_replace_editor', args);
  }
  if (command === 'view' && flags.view_range === undefined && isAbbreviated(observation)) notes.atStep(NOTE_ABBREVIATED, step);
  return toolCall('str_replace_editor', { ...args, ...flags });
}

function windowCall(name: string, words: readonly string[], action: string, observation: string, step: number, notes: ConversionNotes): TrajectoryToolCall {
  const window = shownWindow(observation);
  if (window !== undefined) {
    notes.atStep(NOTE_WINDOW, step);
    return viewCall(window.path, window.start <= 1 && window.end >= window.total ? undefined : [window.start, window.end]);
  }
  const named = words[1];
  if (name === 'open' && named !== undefined && named !== '') {
    notes.atStep(NOTE_OPEN_FAILED, step);
    return viewCall(named, undefined);
  }
  return toolCall(name, { action });
}

function searchCall(name: string, words: readonly string[], action: string, observation: string, state: JsonObject | undefined, step: number, notes: ConversionNotes): ConvertedAction {
  const unconverted = { call: toolCall(name, { action }), output: observation };
  const term = words[1];
  if (term === undefined) return unconverted;
  let where = words[2];
  if (name === 'search_file' && where === undefined) {
    const header = SEARCH_FILE_HEADER.exec(linesOf(observation)[0] ?? '');
    const open = stringOf(state?.open_file);
    where = header !== null ? header[1] : open !== undefined && open !== 'n/a' ? open : undefined;
  }
  if (hasCommandSeparator(term) || (where !== undefined && hasCommandSeparator(where))) {
    notes.atStep(NOTE_SEPARATOR, step);
    return unconverted;
  }
  if (name !== 'search_file') notes.atStep(NOTE_FILE_LISTS, step);
  if (name === 'find_file') return { call: bashCall(`find ${shellQuote(where ?? '.')} -name ${shellQuote(term)}`), output: observation };
  if (name === 'search_dir') return { call: bashCall(where === undefined ? `grep -rl ${shellQuote(term)}` : `grep -rl ${shellQuote(term)} ${shellQuote(where)}`), output: observation };
  if (where === undefined) return unconverted;
  notes.atStep(NOTE_SEARCH_FILE, step);
  return { call: bashCall(`grep -n ${shellQuote(term)} ${shellQuote(where)}`), output: asGrepOutput(observation) };
}

/** `search_file` prints `Line N:text`; grep -n on one file prints `N:text`. Other lines stay. */
function asGrepOutput(observation: string): string {
  return observation.replace(/^Line (\d+):/gm, '$1:');
}

function parsedReplayConfig(root: JsonObject): JsonObject | undefined {
  const config = root.replay_config;
  if (isObject(config)) return config;
  if (typeof config !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(config);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function infoOf(root: JsonObject, firstWorkingDir: string | undefined): TrajectoryInfo {
  const config = parsedReplayConfig(root);
  const problem = isObject(config?.problem_statement) ? config.problem_statement : undefined;
  const agent = isObject(config?.agent) ? config.agent : undefined;
  const model = isObject(agent?.model) ? agent.model : undefined;
  const env = isObject(config?.env) ? config.env : undefined;
  const repo = isObject(env?.repo) ? env.repo : undefined;
  const repoName = stringOf(repo?.repo_name);
  const info = isObject(root.info) ? root.info : {};
  return {
    instanceId: stringOf(problem?.id),
    model: stringOf(model?.name),
    cwd: firstWorkingDir ?? (repoName !== undefined && repoName !== '' ? `/${repoName}` : undefined),
    submission: stringOf(info.submission),
    exitStatus: stringOf(info.exit_status),
  };
}

function readSweAgent(content: TrajectoryContent, file: string, format: TrajectoryFormat): Trajectory {
  const shape = sweAgentShape(content);
  if (shape === undefined) throw new Error(`${file}: not a SWE-agent trajectory (an object with a "trajectory" list of steps)`);
  const { root } = shape;
  const notes = new ConversionNotes();
  const messages: TrajectoryMessage[] = [];
  const history = Array.isArray(root.history) ? root.history : [];
  for (let i = 0; i < history.length; i++) {
    const item: unknown = history[i];
    if (!isObject(item)) continue;
    if (item.is_demo === true) {
      notes.add(NOTE_DEMOS);
      continue;
    }
    const role = stringOf(item.role) ?? '';
    if (role === 'assistant') break;
    const { text, listForm } = textOf(item.content);
    if (listForm) notes.add(NOTE_LIST_FORM);
    messages.push(message(role, listForm ? text : item.content, [], `history ${i + 1}`));
  }
  const steps = root.trajectory as readonly unknown[];
  let firstWorkingDir: string | undefined;
  for (let i = 0; i < steps.length; i++) {
    const item: unknown = steps[i];
    if (!isObject(item)) {
      notes.add(`Trajectory step ${i + 1} is not an object and was skipped.`);
      continue;
    }
    const state = stateOf(item);
    firstWorkingDir ??= stringOf(state?.working_dir);
    const action = stringOf(item.action) ?? '';
    const observation = stringOf(item.observation) ?? '';
    const thought = stringOf(item.thought) ?? '';
    const step = messages.length;
    const { call, output } = convertAction(action, observation, state, step, notes);
    if (hasBashFence(thought)) notes.atStep(PROSE_FENCE_NOTE, step);
    messages.push(message('assistant', thought, call === undefined ? [] : [call], `trajectory step ${i + 1}`));
    messages.push(message(call === undefined ? 'user' : 'tool', output, [], `observation of trajectory step ${i + 1}`));
  }
  return { format, info: infoOf(root, firstWorkingDir), messages, notes: notes.list() };
}

/** SWE-agent 1.x `.traj`: `str_replace_editor` / `bash` actions (text mode and function calling). */
export const sweAgent1Reader: TrajectoryReader = {
  format: 'swe-agent-1',
  description: 'SWE-agent 1.x .traj (trajectory[].action: str_replace_editor, bash)',
  sniff: (content) => sweAgentShape(content)?.windowed === false,
  read: (content, file) => readSweAgent(content, file, 'swe-agent-1'),
};

/** SWE-agent 0.x-style `.traj`: the windowed interface (`open`, `goto`, `scroll_*`, `search_*`, `find_file`; state with `open_file`). */
export const sweAgent0Reader: TrajectoryReader = {
  format: 'swe-agent-0',
  description: 'SWE-agent 0.x .traj (windowed open/goto/scroll, search_file/search_dir/find_file)',
  sniff: (content) => sweAgentShape(content)?.windowed === true,
  read: (content, file) => readSweAgent(content, file, 'swe-agent-0'),
};
