/**
 * From raw reads to the reads the builder keeps (../shared/trajectories.md §1, "Normalisation" and
 * "Filters"): each raw path is normalised against the instance's base, then filtered, in this
 * order — the normalised path (empty, temp file name), the raw path (empty, URL, special
 * characters, temp prefixes), and last the existence test. The existence test is injected: with a
 * repository, `exists(normalised)` (the caller checks the file on disk); without one, the name
 * rules of the builder's `if_path_exists_original` ({@link keptByNameRules}).
 *
 * Kept reads carry `start or 1` (a `0` start becomes 1), as `read_step_info` writes them.
 */
import { hasPathExtension } from './commands';
import type { RawRead, RawSwallowed, SkippedCall } from './extract';
import { pyLstripChars, pyRstripChars } from './python';

/**
 * The builder's `_normalize_path`: strip `open('` / `')`, then a backtick at each end, then
 * trailing `"` `)` `'` backtick `,`. Then, when the path starts with `base` (plain `startsWith`, so
 * `/testbed2/x` matches `/testbed` too), drop it, left-strip `/`, drop one `./`. Else a
 * `/workspace/<dir>/<rest>` path gives `<rest>` (and `/workspace/<dir>` alone gives ""). Else the
 * same as the first case without the prefix. `..` and `./` inside the path are kept as they are.
 */
export function normalizeTrajectoryPath(raw: string, base: string): string {
  if (raw === '') return raw;
  let p = raw;
  if (p.startsWith("open('")) p = p.slice(6);
  if (p.endsWith("')")) p = p.slice(0, -2);
  if (p.startsWith('`')) p = p.slice(1);
  if (p.endsWith('`')) p = p.slice(0, -1);
  p = pyRstripChars(p, `")'\`,`);
  const clean = (rest: string): string => {
    const q = pyLstripChars(rest, '/');
    return q.startsWith('./') ? q.slice(2) : q;
  };
  if (p.startsWith(base)) return clean(p.slice(base.length));
  if (p.startsWith('/workspace/')) {
    // `p.split("/", 3)` is ['', 'workspace', dir, rest]: the rest, or "" when there is none.
    const afterWorkspace = p.slice('/workspace/'.length);
    const slash = afterWorkspace.indexOf('/');
    return slash === -1 ? '' : afterWorkspace.slice(slash + 1);
  }
  return clean(p);
}

const TEMP_FILE_PREFIXES = ['reproduce_', 'test_reproduce', 'debug_', 'tmp_', 'temp_', '__pycache__'] as const;

function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/** The builder's `_is_temp_file` on a normalised path: its basename starts with one of the temp prefixes. */
export function isTempFileName(normalized: string): boolean {
  const name = basename(normalized);
  return TEMP_FILE_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The 24 characters that drop a raw path (not `(`, `:`, `=` or space). */
export const REJECTED_PATH_CHARACTERS = `")'\`][,<>?*|&^%$#@!~\\{};`;

const RAW_TEMP_PREFIXES = ['reproduce', 'tmp', 'temp', 'debug_', 'test_reproduce'] as const;

/** The directory names the no-repo name rules accept as a first path component. */
const KNOWN_FIRST_DIRECTORIES: ReadonlySet<string> = new Set(['test', 'tests', 'src', 'lib', 'docs', 'examples']);

/** Why a read was not kept. */
export type ReadDropReason =
  /** The normalised path is empty (`/workspace/x.py`, a lone base). */
  | 'empty-path'
  /** The normalised basename starts with `reproduce_ test_reproduce debug_ tmp_ temp_ __pycache__`. */
  | 'temp-name'
  /** The raw path contains `http`. */
  | 'url'
  /** The raw path contains one of {@link REJECTED_PATH_CHARACTERS}. */
  | 'special-character'
  /** The raw path's first component or basename starts with `reproduce tmp temp debug_ test_reproduce`. */
  | 'temp-prefix'
  /** With a repository: not a file there. */
  | 'not-a-file'
  /** Without a repository: refused by the builder's name rules. */
  | 'name-rule';

/** The checks of `if_path_exists_original` that come before the existence test, on the raw path. */
function rawPathDrop(raw: string): ReadDropReason | undefined {
  if (raw === '') return 'empty-path';
  if (raw.includes('http')) return 'url';
  for (const character of raw) if (REJECTED_PATH_CHARACTERS.includes(character)) return 'special-character';
  const first = raw.split('/')[0]!;
  const name = basename(raw);
  if (RAW_TEMP_PREFIXES.some((prefix) => first.startsWith(prefix) || name.startsWith(prefix))) return 'temp-prefix';
  return undefined;
}

/** Why a read with this raw and normalised path is dropped before the existence test, if it is. */
export function dropBeforeExistence(raw: string, normalized: string): ReadDropReason | undefined {
  if (normalized === '') return 'empty-path';
  if (isTempFileName(normalized)) return 'temp-name';
  return rawPathDrop(raw);
}

/**
 * The builder's name rules for a raw path when no repository is given (the rest of
 * `if_path_exists_original`, after the checks of {@link dropBeforeExistence}):
 * - a path without any `.` is kept only when its first component is `test tests src lib docs examples`;
 * - else a basename ending (case-sensitively) with one of the 56 extensions is kept;
 * - else a path with a component equal to `repoName` (the instance id's part before `__`) is kept;
 * - else a first component among the known directories is kept; anything else is dropped.
 */
export function keptByNameRules(raw: string, repoName: string): boolean {
  const first = raw.split('/')[0]!;
  if (!raw.includes('.')) return KNOWN_FIRST_DIRECTORIES.has(first);
  if (hasPathExtension(basename(raw))) return true;
  if (raw.split('/').includes(repoName)) return true;
  return KNOWN_FIRST_DIRECTORIES.has(first);
}

/** `org__repo-123` → `org`: the repository name the builder's name rules look for. */
export function repoNameOf(instanceId: string): string {
  const cut = instanceId.indexOf('__');
  return cut === -1 ? instanceId : instanceId.slice(0, cut);
}

/**
 * A copy of a short string that shares no memory with the text it was cut from (V8 keeps a
 * slice's whole parent alive): reads outlive their trajectory, which can be megabytes.
 */
function detached(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/** A read with its normalised path, before the existence test. */
export interface ReadCandidate extends RawRead {
  readonly rawPath: string;
  /** Set when a filter before the existence test drops it. */
  readonly drop: ReadDropReason | undefined;
}

export interface SwallowedCandidate extends RawSwallowed {
  readonly rawPath: string;
  readonly drop: ReadDropReason | undefined;
}

/** A trajectory's reads normalised against one base, waiting for the existence test. */
export interface StagedReads {
  readonly base: string;
  readonly reads: readonly ReadCandidate[];
  readonly swallowed: readonly SwallowedCandidate[];
  readonly skipped: readonly SkippedCall[];
}

/** Normalises every raw read against `base` and applies the filters that precede the existence test. */
export function stageReads(raw: { readonly reads: readonly RawRead[]; readonly swallowed: readonly RawSwallowed[]; readonly skipped: readonly SkippedCall[] }, base: string): StagedReads {
  // A run reads a few files hundreds of times: each distinct raw path is normalised, checked and detached once.
  const byRawPath = new Map<string, { readonly rawPath: string; readonly path: string; readonly drop: ReadDropReason | undefined }>();
  const stage = <T extends RawRead>(read: T): T & { rawPath: string; drop: ReadDropReason | undefined } => {
    let paths = byRawPath.get(read.path);
    if (paths === undefined) {
      const rawPath = detached(read.path);
      const path = detached(normalizeTrajectoryPath(rawPath, base));
      byRawPath.set(rawPath, (paths = { rawPath, path, drop: dropBeforeExistence(rawPath, path) }));
    }
    return { ...read, rawPath: paths.rawPath, path: paths.path, drop: paths.drop };
  };
  return { base, reads: raw.reads.map(stage), swallowed: raw.swallowed.map(stage), skipped: raw.skipped };
}

/** The normalised paths whose existence decides whether a read is kept (distinct, in first-seen order). */
export function pathsToCheck(staged: StagedReads): string[] {
  const out = new Set<string>();
  for (const read of staged.reads) if (read.drop === undefined) out.add(read.path);
  for (const read of staged.swallowed) if (read.drop === undefined) out.add(read.path);
  return [...out];
}

/**
 * The existence test: with a repository, whether the normalised path is a file in it (the caller
 * decides, e.g. from a set it checked on disk); without one, the builder's name rules for the
 * instance's repository name.
 */
export type ExistenceTest = { readonly kind: 'repository'; readonly exists: (normalizedPath: string) => boolean } | { readonly kind: 'name-rules'; readonly repoName: string };

/** A read the builder keeps: `read_step_info`'s `path`, `start` (`start or 1`), `end`, `step_idx`, plus how it came about. */
export interface TrajectoryRead extends RawRead {
  readonly rawPath: string;
}

/** A swallowed path that passed every filter: what a rule crediting the shown lines would add. */
export interface SwallowedRead extends RawSwallowed {
  readonly rawPath: string;
}

export interface DroppedRead {
  readonly read: ReadCandidate;
  readonly reason: ReadDropReason;
}

/** The outcome of extraction for one trajectory. */
export interface TrajectoryReads {
  /** The base its paths were normalised against. */
  readonly base: string;
  /** Kept reads, in extraction order: the trajectory's `read_step_info` entries. */
  readonly reads: readonly TrajectoryRead[];
  /** Swallowed paths that would be kept (same filters), for rule sets that credit what was shown. */
  readonly swallowed: readonly SwallowedRead[];
  readonly dropped: readonly DroppedRead[];
  readonly skipped: readonly SkippedCall[];
}

/** Applies the existence test to staged reads. */
export function keepReads(staged: StagedReads, test: ExistenceTest): TrajectoryReads {
  const verdict = (candidate: ReadCandidate | SwallowedCandidate): ReadDropReason | undefined => {
    if (candidate.drop !== undefined) return candidate.drop;
    if (test.kind === 'repository') return test.exists(candidate.path) ? undefined : 'not-a-file';
    return keptByNameRules(candidate.rawPath, test.repoName) ? undefined : 'name-rule';
  };
  const reads: TrajectoryRead[] = [];
  const dropped: DroppedRead[] = [];
  for (const candidate of staged.reads) {
    const reason = verdict(candidate);
    if (reason !== undefined) dropped.push({ read: candidate, reason });
    else reads.push(keptRead(candidate));
  }
  const swallowed: SwallowedRead[] = [];
  for (const candidate of staged.swallowed) if (verdict(candidate) === undefined) swallowed.push({ ...keptRead(candidate), flag: candidate.flag, command: candidate.command });
  return { base: staged.base, reads, swallowed, dropped, skipped: staged.skipped };
}

function keptRead(candidate: ReadCandidate): TrajectoryRead {
  const { drop: _drop, ...read } = candidate;
  return { ...read, start: read.start === 0 ? 1 : read.start };
}
