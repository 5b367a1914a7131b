/**
 * How a repair run got to a line (issue 19 item 5): the first step whose read covers it (the
 * builder's credit: what `read_step_info` holds for the run) and the nearest search step at or
 * before that step that named the line's file — "claude-4-5 found it at step 7 after
 * `grep -rn separability_matrix`".
 *
 * A **search step** is an assistant message that runs a search:
 * - a command (the first ```` ```bash ```` fence, or a `bash` / `execute_bash` tool call) with a
 *   segment (the builder's split at `;`, `&&`, `||`) one of whose pipeline stages starts with
 *   `grep`, `egrep`, `fgrep`, `rg`, `ag`, `ack`, `find`, `fd`, `locate` or `git grep` / `git
 *   ls-files` — which covers the converted forms of SWE-agent's `search_dir` / `search_file` /
 *   `find_file` (`grep -rl`, `grep -n`, `find -name`), Claude Code's and OpenCode's Grep (`grep -r…`);
 * - or a tool call kept under its own name that searches: `Grep`, `Glob`, `grep`, `glob`,
 *   `find_file`, `search_dir`, `search_file`, `find`, `search` (case-insensitive; Claude Code's and
 *   OpenCode's Glob, a Grep a converter could not write as a command).
 *
 * It **names the file** when the file's path occurs in the search's command or in its output (the
 * next message), not as part of a longer name (`pkg/a.py` is not named by `xpkg/a.py` or
 * `pkg/a.pyc`), or the file's base name occurs so in the command (`find . -name separable.py`).
 * A search in the very step that first read the line counts (a grep whose hits were the read).
 */
import type { IntervalSet } from '../intervals';
import { commandSegments, type ReadIdiom } from './commands';
import { argument, firstBashFence, toolCallArguments, type RawRead } from './extract';
import { messageText } from './text';
import type { Trajectory } from './types';
import { commandLine, lineViewing, viewedLines, type ViewedLines } from './viewed';

const SEARCH_PROGRAMS: ReadonlySet<string> = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'find', 'fd', 'fdfind', 'locate']);
const GIT_SEARCHES: ReadonlySet<string> = new Set(['grep', 'ls-files']);
const SEARCH_TOOLS: ReadonlySet<string> = new Set(['grep', 'glob', 'find_file', 'search_dir', 'search_file', 'find', 'search']);

/** One search step of a run. */
export interface SearchStep {
  readonly step: number;
  /** The search as display text (one line, cut). */
  readonly command: string;
  /** The full command (or tool name and arguments) and the output, for the naming test. */
  readonly commandText: string;
  readonly output: string;
}

/** The program a pipeline stage runs: its first word without a leading folder (`/usr/bin/grep` → `grep`). */
function programOf(stage: string): { readonly program: string; readonly second: string } {
  const words = stage.trim().split(/\s+/);
  const first = (words[0] ?? '').toLowerCase();
  return { program: first.slice(first.lastIndexOf('/') + 1), second: (words[1] ?? '').toLowerCase() };
}

/** Whether a command segment searches (see the module comment). */
export function isSearchSegment(segment: string): boolean {
  for (const stage of segment.split('|')) {
    const { program, second } = programOf(stage);
    if (SEARCH_PROGRAMS.has(program) || (program === 'git' && GIT_SEARCHES.has(second))) return true;
  }
  return false;
}

function searchSegments(command: string): string[] {
  return commandSegments(command).filter(isSearchSegment);
}

/** The search steps of a run, in step order (at most one per step: its first search). */
export function searchSteps(trajectory: Trajectory): SearchStep[] {
  const out: SearchStep[] = [];
  const messages = trajectory.messages;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    const next = messages[i + 1];
    const output = next === undefined ? '' : messageText(next.content);
    const found: { command: string; text: string }[] = [];
    const fence = firstBashFence(messageText(message.content));
    if (fence !== undefined) for (const segment of searchSegments(fence)) found.push({ command: segment, text: fence });
    for (const call of message.toolCalls) {
      const args = toolCallArguments(call) ?? {};
      if (call.name === 'bash' || call.name === 'execute_bash') {
        const command = argument(args, 'command');
        if (typeof command === 'string') for (const segment of searchSegments(command)) found.push({ command: segment, text: command });
      } else if (SEARCH_TOOLS.has(call.name.toLowerCase())) {
        const text = `${call.name} ${JSON.stringify(args)}`;
        found.push({ command: text, text });
      }
    }
    if (found.length === 0) continue;
    out.push({ step: i, command: commandLine(found.map((f) => f.command).join(' ; ')), commandText: found.map((f) => f.text).join('\n'), output });
  }
  return out;
}

const NAME_CHARACTER = /[A-Za-z0-9_.-]/;
const WORD_CHARACTER = /[A-Za-z0-9_]/;

/** Whether `name` occurs in `text` with no name character before it and no word character (or `.`+word) after it. */
function occursAsName(text: string, name: string, allowSlashBefore: boolean): boolean {
  if (name === '') return false;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + name.length] ?? '';
    const afterNext = text[at + name.length + 1] ?? '';
    const boundedBefore = before === '' || (!NAME_CHARACTER.test(before) && (allowSlashBefore || before !== '/'));
    const boundedAfter = after === '' || (!WORD_CHARACTER.test(after) && !(after === '.' && WORD_CHARACTER.test(afterNext)));
    if (boundedBefore && boundedAfter) return true;
  }
  return false;
}

/** Whether a search step names the file `path` (see the module comment). */
export function searchNamesFile(search: Pick<SearchStep, 'commandText' | 'output'>, path: string): boolean {
  if (occursAsName(search.commandText, path, true) || occursAsName(search.output, path, true)) return true;
  const name = path.slice(path.lastIndexOf('/') + 1);
  // A base name after a `/` belongs to another folder's file of the same name.
  return name !== path && occursAsName(search.commandText, name, false);
}

/** How one repair run got to a line. */
export interface Arrival {
  /** The first step whose read covers the line; null when no read of the run covers it. */
  readonly firstRead: { readonly step: number; readonly idiom: ReadIdiom; readonly command: string } | null;
  /** The nearest search step at or before `firstRead.step` that named the file; null when none did (or no read). */
  readonly search: { readonly step: number; readonly command: string } | null;
}

/** A repair run indexed for {@link arrivalAt}: its first reads per line and its search steps. */
export interface RepairRunIndex {
  readonly reads: ViewedLines;
  readonly searches: readonly SearchStep[];
  /** Per path, the steps of the searches that name it (filled on first use). */
  readonly namingSteps: Map<string, number[]>;
}

/**
 * Indexes one repair run: `reads` are its kept reads (the builder's rules), credited as the builder
 * credits them (`[start, end]`, not what the agent saw), resolved with `lineCount`.
 */
export function repairRunIndex(trajectory: Trajectory, reads: readonly RawRead[], lineCount: (path: string) => number | undefined, commandOf: (read: RawRead) => string): RepairRunIndex {
  return {
    reads: viewedLines(reads, lineCount, commandOf, { rangesOf: (read) => [[read.start, read.end]] }),
    searches: searchSteps(trajectory),
    namingSteps: new Map(),
  };
}

/** How the indexed run got to `line` of `path` (see {@link Arrival}). */
export function arrivalAt(index: RepairRunIndex, path: string, line: number): Arrival {
  const viewing = lineViewing(index.reads, path, line);
  if (viewing.kind !== 'seen') return { firstRead: null, search: null };
  let steps = index.namingSteps.get(path);
  if (steps === undefined) {
    steps = index.searches.filter((s) => searchNamesFile(s, path)).map((s) => s.step);
    index.namingSteps.set(path, steps);
  }
  let found = -1;
  for (let i = steps.length - 1; i >= 0; i--) {
    if (steps[i]! <= viewing.step) {
      found = steps[i]!;
      break;
    }
  }
  const search = found === -1 ? undefined : index.searches[searchIndexAt(index.searches, found)];
  return { firstRead: { step: viewing.step, idiom: viewing.idiom, command: viewing.command }, search: search === undefined ? null : { step: search.step, command: search.command } };
}

/** The index of the search at `step` in the step-ordered list (binary search). */
function searchIndexAt(searches: readonly SearchStep[], step: number): number {
  let lo = 0;
  let hi = searches.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (searches[mid]!.step < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The lines of `path` some read of the indexed run covers (for "the repair runs read it" tests). */
export function repairReadLines(index: RepairRunIndex, path: string): IntervalSet {
  return index.reads.files.get(path)?.lines ?? [];
}

/** One repair run of an instance as the arrival question sees it. */
export interface RepairRunSource {
  /** The `read_step_info` `traj_path` that cites it. */
  readonly trajPath: string;
  /** The run's model when it was loaded, else the `traj_path`'s model folder ("" without one). */
  readonly model: string;
  /** Undefined when the run was not loaded (not found, unreadable). */
  readonly index: RepairRunIndex | undefined;
}

/** One run's answer for a line: how it got there, or that it was not loaded. */
export interface RunArrival {
  readonly trajPath: string;
  readonly model: string;
  /** `not-loaded`: the run could not be found or read, so its steps are unknown. */
  readonly arrival: Arrival | 'not-loaded';
}

/**
 * How the repair runs of an instance got to a line: per cited run (in the order given), its
 * {@link Arrival}; or why there is nothing to say — `no-runs-cited` (the record cites no repair
 * run) or `runs-not-loaded` ("repair runs not loaded": none of its runs could be found or read).
 */
export type LineArrivals = { readonly kind: 'no-runs'; readonly reason: 'no-runs-cited' | 'runs-not-loaded' } | { readonly kind: 'runs'; readonly runs: readonly RunArrival[] };

/** {@link LineArrivals} of `line` of `path` over an instance's repair runs. */
export function lineArrivals(runs: readonly RepairRunSource[], path: string, line: number): LineArrivals {
  if (runs.length === 0) return { kind: 'no-runs', reason: 'no-runs-cited' };
  if (runs.every((run) => run.index === undefined)) return { kind: 'no-runs', reason: 'runs-not-loaded' };
  return { kind: 'runs', runs: runs.map((run) => ({ trajPath: run.trajPath, model: run.model, arrival: run.index === undefined ? 'not-loaded' : arrivalAt(run.index, path, line) })) };
}
