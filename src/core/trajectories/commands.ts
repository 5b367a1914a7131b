/**
 * Reads from one shell command, exactly as the benchmark's builder parses it (`command_reads` in
 * ../shared/trajectories.md §1), each tagged with its idiom and with the lines the agent saw.
 *
 * The builder's rules, restated (every quirk is deliberate; each has a test):
 * - `cmd.strip()` is split on `\s*(?:&&|\|\||;)\s*`, empty pieces dropped. Quoting is ignored
 *   (`sed -n '1,5p;9,12p' f` becomes two pieces), `|` and newlines do not split (a multi-line
 *   block is one segment, and a leading `# comment` line makes the whole block a non-read). With
 *   more than one segment only the last one gets the command's output.
 * - A segment is a *content read* when its lower-cased first word is `cat head tail nl less more`,
 *   or it is `sed` with `-n` among its first three lower-cased words. Paths: every word (original
 *   case) is walked; `-n -c -q -v` followed by another word skip both (the second word is
 *   *swallowed*: `cat -n F` reads nothing), `-nN` and any other `-…` skip themselves, other words
 *   are kept when, quote-stripped, they look like a path ({@link isLikelyPath}). Every word counts,
 *   so pipes and heredoc bodies contribute paths. Range by first word: `cat nl less more` (1,-1);
 *   `head` (1,N) for the first parsable `-n N` / `-nN` with N > 0, else (1,-1); `tail` (-N,-1) the
 *   same way, else (1,-1); `sed` the first word holding `p` and a quote that matches
 *   `['"](\d+)(?:,(\d+))?p?['"]` gives (a, b or a), else (1,-1).
 * - A segment starting (lower-cased) with `grep`, or with `rg `, reads the `path:line:` /
 *   `path:line-` lines of its output (`^([^:]+):(\d+)[:\-]`, path stripped, deduplicated on
 *   (path, line), in order) as one-line reads of whatever file they name. Without such lines,
 *   `grep…` falls back to its words that do not start with `-` and, quote-stripped, look like a path
 *   or contain `/`, each as (1,-1); `rg` falls back to nothing.
 * - Anything else reads nothing.
 *
 * Idioms and `seen` are this module's additions (issue 18 item 2); they never change a credit.
 */
import { PY_WHITESPACE_CLASS, pyDigitsValue, pyIntOfString, pySplitLines, pySplitWords, pyStrip, pyStripChars } from './python';

/**
 * How a read came about. Each kept read has exactly one:
 *
 * - `view_range`: a `str_replace_editor view` tool call with a `view_range` (a list of ≥ 2).
 * - `view_whole`: a `str_replace_editor view` tool call without one (the builder credits the file).
 * - `heredoc_write`: every read of a command that writes a heredoc with `cat` (`cat <<EOF`,
 *   `cat > F <<EOF`, `cat <<'EOF' >> F`): the read of the segment whose first word is `cat` and
 *   whose first line holds a `<<` heredoc operator (not the `<<<` here-string), and the reads of every
 *   later segment that starts inside that heredoc's body (a `;` or `&&` in the body splits it).
 *   Checked first: a heredoc write is never one of the idioms below.
 * - `cat`: a content read whose first word is `cat` (credited whole).
 * - `head`: first word `head` (credited (1,N) or whole).
 * - `tail`: first word `tail` (credited (-N,-1) — the last N lines — or whole).
 * - `sed_range`: first word `sed` (with `-n`) whose script gave a line range.
 * - `sed_whole`: first word `sed` (with `-n`) credited as the whole file (`'1,$p'`, `/re/p`, an
 *   unquoted script…).
 * - `nl_pipe`: first word `nl`, and the text after the segment's first `|` is itself a content
 *   read by the builder's test with first word `sed` (`nl -ba F | sed -n 'a,bp'`): credited as the
 *   whole file.
 * - `other_whole`: the remaining content reads, all credited whole: first word `less` or `more`,
 *   or `nl` not piped into `sed -n` (`nl F`, `nl -ba F | grep x`).
 * - `grep_hit`: a `path:line:` line of a `grep…` / `rg ` segment's output (one line).
 * - `grep_whole`: a `grep…` segment without such output lines, credited for each path-like word.
 */
export const READ_IDIOMS = ['view_range', 'view_whole', 'cat', 'head', 'tail', 'sed_range', 'sed_whole', 'nl_pipe', 'grep_hit', 'grep_whole', 'heredoc_write', 'other_whole'] as const;

export type ReadIdiom = (typeof READ_IDIOMS)[number];

/** `[start, end]` of lines the agent saw; `end = -1` to the end of the file, a negative start = the last N lines. */
export type SeenRange = readonly [start: number, end: number];

/** One read a command yields, before path normalisation and filters. */
export interface CommandRead {
  /** The path as the command wrote it (quote-stripped; for grep hits, the output line's path). */
  readonly path: string;
  /** The builder's credit: `start` as parsed (the `start or 1` rule applies when the read is kept), `end = -1` to EOF. */
  readonly start: number;
  readonly end: number;
  readonly idiom: ReadIdiom;
  /**
   * The lines the agent actually saw, as `[start, end]` pairs. Equal to `[[start or 1, end]]` (the
   * credit) except in five cases:
   * - `nl_pipe`: the range the builder's sed rule reads from the part after `|` (`'a,bp'` →
   *   `[[a, b]]`, `'406p'` → `[[406, 406]]`); a script it cannot read keeps the credit;
   * - `grep_whole` whose output (the output this segment was given) has numbered lines
   *   (`^\d+[:-]`: `N:` matches and `N-` context lines, as `grep -n pat F` prints them for one file)
   *   → those line numbers (≥ 1) merged into ranges, the same for every path of the segment;
   *   without numbered lines the credit;
   * - `head` credited as the whole file while a count N ≥ 1 is written (`head -20 F`, `--lines=20`)
   *   → `[[1, N]]`; `head F` (no count) keeps the credit;
   * - `tail` whose count is written `+K` (`tail -n +K F`, `tail -n+K F`; credited by the builder as
   *   the last K lines) → `[[max(K, 1), -1]]`;
   * - `heredoc_write` → `[]` (nothing was read).
   */
  readonly seen: readonly SeenRange[];
  /** Index of the segment (in the split command) the read came from. */
  readonly segment: number;
}

/** The flags that swallow the word after them in the builder's path walk. */
export type SwallowingFlag = '-n' | '-c' | '-q' | '-v';

/**
 * A path-like word a flag swallowed in the builder's path walk (`cat -n F`, `tail -q F`, `nl -v F`,
 * `head -c 10 F` swallows `10`, which is not path-like and not recorded). The builder credits
 * nothing for it; a rule set that credits what the command showed (issue 20's `as-seen`) can use it
 * as it is, without parsing the command again.
 */
export interface SwallowedPath {
  readonly path: string;
  readonly flag: SwallowingFlag;
  /** Lower-cased first word of the segment (`cat`, `head`, `tail`, `nl`, `less`, `more`, `sed`). */
  readonly command: string;
  /** The builder's range for the segment (what it credits every path it does keep there). */
  readonly start: number;
  readonly end: number;
  /** The idiom and the seen lines a kept path of this segment would have. */
  readonly idiom: ReadIdiom;
  readonly seen: readonly SeenRange[];
  readonly segment: number;
}

export interface CommandReads {
  readonly reads: CommandRead[];
  readonly swallowed: SwallowedPath[];
}

/** The 56 extensions (compared case-insensitively in {@link isLikelyPath}); no `.rst .pyi .pyx .in`. */
export const PATH_EXTENSIONS = [
  '.py',
  '.md',
  '.txt',
  '.json',
  '.yaml',
  '.yml',
  '.js',
  '.jsx',
  '.ts',
  '.tsx',
  '.java',
  '.kt',
  '.kts',
  '.scala',
  '.swift',
  '.cs',
  '.c',
  '.h',
  '.cpp',
  '.cc',
  '.cxx',
  '.hpp',
  '.hh',
  '.hxx',
  '.m',
  '.mm',
  '.go',
  '.rs',
  '.rb',
  '.php',
  '.sh',
  '.bash',
  '.zsh',
  '.html',
  '.htm',
  '.css',
  '.scss',
  '.less',
  '.vue',
  '.svelte',
  '.xml',
  '.toml',
  '.cfg',
  '.ini',
  '.gradle',
  '.sql',
  '.lua',
  '.pl',
  '.pm',
  '.ex',
  '.exs',
  '.erl',
  '.clj',
  '.dart',
  '.tf',
  '.proto',
] as const;

const QUOTES = `'"`;

/** Whether `name` ends with one of {@link PATH_EXTENSIONS}, case-sensitively. */
export function hasPathExtension(name: string): boolean {
  for (const ext of PATH_EXTENSIONS) if (name.endsWith(ext)) return true;
  return false;
}

/**
 * The builder's `_is_likely_path`: quote-stripped, not starting with `/path/to/` or `/example/`,
 * and holding a `/` or ending (case-insensitively) with one of {@link PATH_EXTENSIONS}.
 */
export function isLikelyPath(word: string): boolean {
  const w = pyStripChars(word, QUOTES);
  if (w.startsWith('/path/to/') || w.startsWith('/example/')) return false;
  return w.includes('/') || hasPathExtension(w.toLowerCase());
}

const CONTENT_READ_COMMANDS: ReadonlySet<string> = new Set(['cat', 'head', 'tail', 'nl', 'less', 'more']);

/** The builder's `_is_file_content_read_command`. */
export function isContentReadCommand(command: string): boolean {
  const parts = pySplitWords(pyStrip(command).toLowerCase());
  if (parts.length === 0) return false;
  if (CONTENT_READ_COMMANDS.has(parts[0]!)) return true;
  return parts[0] === 'sed' && parts.length >= 2 && parts.slice(0, 3).includes('-n');
}

const SWALLOWING_FLAGS: ReadonlySet<string> = new Set(['-n', '-c', '-q', '-v']);

/** The builder's `_extract_paths_from_bash_command`, also returning the path-like words a flag swallowed. */
function contentReadPaths(words: readonly string[]): { paths: string[]; swallowed: { path: string; flag: SwallowingFlag }[] } {
  const paths: string[] = [];
  const swallowed: { path: string; flag: SwallowingFlag }[] = [];
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (SWALLOWING_FLAGS.has(w) && i + 1 < words.length) {
      const next = pyStripChars(words[i + 1]!, QUOTES);
      if (isLikelyPath(next)) swallowed.push({ path: next, flag: w as SwallowingFlag });
      i += 2;
      continue;
    }
    if (w.startsWith('-')) {
      i += 1;
      continue;
    }
    const cleaned = pyStripChars(w, QUOTES);
    if (isLikelyPath(cleaned)) paths.push(cleaned);
    i += 1;
  }
  return { paths, swallowed };
}

/** The count word the builder uses for head/tail: the first parsable `-n N` or `-nN` (raw text and value). */
function countWord(words: readonly string[]): { text: string; value: number } | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-n' && i + 1 < words.length) {
      const value = pyIntOfString(words[i + 1]!);
      if (value !== undefined) return { text: words[i + 1]!, value };
    }
    if (w.startsWith('-n') && w.length > 2) {
      const value = pyIntOfString(w.slice(2));
      if (value !== undefined) return { text: w.slice(2), value };
    }
  }
  return undefined;
}

const SED_RANGE = /['"](\p{Nd}+)(?:,(\p{Nd}+))?p?['"]/u;

/**
 * The builder's sed range: the first word holding `p` and a quote that matches
 * `['"](\d+)(?:,(\d+))?p?['"]` gives (a, b or a). (The builder's second pattern, `['"](\d+)p['"]`,
 * can only match where this one already did.) `undefined` when no word matches: the builder then
 * credits (1,-1).
 */
function sedRange(words: readonly string[]): [number, number] | undefined {
  for (const w of words) {
    if (!w.includes('p') || !(w.includes("'") || w.includes('"'))) continue;
    const match = SED_RANGE.exec(w);
    if (match !== null) {
      const start = pyDigitsValue(match[1]!);
      return [start, match[2] === undefined ? start : pyDigitsValue(match[2])];
    }
  }
  return undefined;
}

/** The builder's `_parse_line_range_from_content_read_command` for a content-read segment. */
function contentReadRange(firstWord: string, words: readonly string[]): [number, number] {
  if (firstWord === 'head' || firstWord === 'tail') {
    const count = countWord(words);
    if (count === undefined || count.value <= 0) return [1, -1];
    return firstWord === 'head' ? [1, count.value] : [-count.value, -1];
  }
  if (firstWord === 'sed') return sedRange(words) ?? [1, -1];
  return [1, -1];
}

/**
 * A written head count N ≥ 1 (`-N`, `-nN`, `-n N`, `--lines=N`, `--lines N`, ASCII digits), for a
 * `head` the builder credited as the whole file. The word after `-n` / `--lines` is a value, never
 * an option (`head -n -5` prints all but the last five lines: no count).
 */
function writtenHeadCount(words: readonly string[]): number | undefined {
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    let digits: string | undefined;
    if (w === '-n' || w === '--lines') {
      digits = i + 1 < words.length ? /^\+?([0-9]+)$/.exec(words[i + 1]!)?.[1] : undefined;
      i++;
    } else digits = /^(?:-n?|--lines=)\+?([0-9]+)$/.exec(w)?.[1];
    if (digits !== undefined && Number(digits) >= 1) return Number(digits);
  }
  return undefined;
}

const NUMBERED_LINE = /^(\p{Nd}+)[:-]/u;

/** Line numbers (≥ 1) at the start of output lines (`N:` / `N-`), merged into ranges; `undefined` when there are none. */
function numberedLines(output: string): SeenRange[] | undefined {
  const numbers: number[] = [];
  for (const line of pySplitLines(output)) {
    const match = NUMBERED_LINE.exec(line);
    if (match === null) continue;
    const n = pyDigitsValue(match[1]!);
    if (n >= 1) numbers.push(n);
  }
  if (numbers.length === 0) return undefined;
  numbers.sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const n of numbers) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && n <= last[1] + 1) last[1] = Math.max(last[1], n);
    else ranges.push([n, n]);
  }
  return ranges;
}

const GREP_HIT = /^([^:]+):(\p{Nd}+)[:-]/u;

/** The builder's `_parse_grep_n_output`: `(path.strip(), n, n)` per `path:n:` / `path:n-` line, deduplicated, in order. */
function grepHits(output: string): { path: string; line: number }[] {
  const hits: { path: string; line: number }[] = [];
  const seen = new Set<string>();
  for (const line of pySplitLines(output)) {
    const match = GREP_HIT.exec(line);
    if (match === null) continue;
    const path = pyStrip(match[1]!);
    const n = pyDigitsValue(match[2]!);
    const key = `${n}\u0000${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    hits.push({ path, line: n });
  }
  return hits;
}

/** The builder's `_extract_paths_from_grep_command`. */
function grepPaths(command: string): string[] {
  if (!pyStrip(command).toLowerCase().startsWith('grep')) return [];
  const paths: string[] = [];
  for (const w of pySplitWords(command)) {
    if (w.startsWith('-')) continue;
    const cleaned = pyStripChars(w, QUOTES);
    if (isLikelyPath(cleaned) || cleaned.includes('/')) paths.push(cleaned);
  }
  return paths;
}

const SEPARATOR = new RegExp(`[${PY_WHITESPACE_CLASS}]*(?:&&|\\|\\||;)[${PY_WHITESPACE_CLASS}]*`, 'g');

/** A segment of a split command and where it starts in the stripped command. */
interface Segment {
  readonly text: string;
  readonly offset: number;
}

/** `re.split(r"\s*(?:&&|\|\||;)\s*", command)` without the empty pieces, with offsets. */
function splitSegments(command: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  SEPARATOR.lastIndex = 0;
  for (let match = SEPARATOR.exec(command); match !== null; match = SEPARATOR.exec(command)) {
    if (match.index > last) segments.push({ text: command.slice(last, match.index), offset: last });
    last = match.index + match[0].length;
  }
  if (last < command.length) segments.push({ text: command.slice(last), offset: last });
  return segments;
}

const HEREDOC_OPERATOR = new RegExp(`(?<!<)<<(?!<)(-?)[${PY_WHITESPACE_CLASS}]*(?:'([^']*)'|"([^"]*)"|\\\\?([^${PY_WHITESPACE_CLASS}'"<>|&;()]+))`);

/**
 * Heredoc bodies written by `cat` segments: for each segment whose first word is `cat` and whose
 * first line holds a heredoc operator, the span (offsets in `command`) from the segment's start to
 * the end of the line that closes the heredoc (the delimiter alone on a line, leading tabs allowed
 * for `<<-`, trailing blanks ignored), or to the end of the command when it is never closed.
 */
function catHeredocSpans(command: string, segments: readonly Segment[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const segment of segments) {
    if (pySplitWords(segment.text)[0]?.toLowerCase() !== 'cat') continue;
    const lineEnd = segment.text.indexOf('\n');
    const firstLine = lineEnd === -1 ? segment.text : segment.text.slice(0, lineEnd);
    const operator = HEREDOC_OPERATOR.exec(firstLine);
    if (operator === null) continue;
    const delimiter = operator[2] ?? operator[3] ?? operator[4] ?? '';
    const stripTabs = operator[1] === '-';
    let end = command.length;
    if (lineEnd !== -1) {
      let cursor = segment.offset + lineEnd + 1;
      while (cursor < command.length) {
        const next = command.indexOf('\n', cursor);
        const lineStop = next === -1 ? command.length : next;
        let line = command.slice(cursor, lineStop).replace(/[ \t\r]+$/, '');
        if (stripTabs) line = line.replace(/^\t+/, '');
        if (line === delimiter) {
          end = lineStop;
          break;
        }
        cursor = lineStop + 1;
      }
    }
    spans.push([segment.offset, end]);
  }
  return spans;
}

/** The builder's credit as the seen lines: `[[start or 1, end]]`. */
function creditSeen(start: number, end: number): SeenRange[] {
  return [[start === 0 ? 1 : start, end]];
}

/** Reads (and swallowed paths) of one content-read segment, with idiom and seen per {@link CommandRead}. */
function contentReads(text: string, index: number, heredoc: boolean, reads: CommandRead[], swallowedOut: SwallowedPath[]): void {
  const words = pySplitWords(text);
  const firstWord = words[0]!.toLowerCase();
  const { paths, swallowed } = contentReadPaths(words);
  const [start, end] = contentReadRange(firstWord, words);
  let idiom: ReadIdiom;
  let seen: SeenRange[] = creditSeen(start, end);
  if (heredoc) {
    idiom = 'heredoc_write';
    seen = [];
  } else if (firstWord === 'cat') idiom = 'cat';
  else if (firstWord === 'head') {
    idiom = 'head';
    if (end === -1) {
      const n = writtenHeadCount(words);
      if (n !== undefined) seen = [[1, n]];
    }
  } else if (firstWord === 'tail') {
    idiom = 'tail';
    const count = countWord(words);
    if (start < 0 && count !== undefined && count.text.startsWith('+')) seen = [[Math.max(count.value, 1), -1]];
  } else if (firstWord === 'sed') idiom = sedRange(words) === undefined ? 'sed_whole' : 'sed_range';
  else if (firstWord === 'nl') {
    const pipe = text.indexOf('|');
    const right = pipe === -1 ? '' : pyStrip(text.slice(pipe + 1));
    const rightWords = pySplitWords(right);
    if (rightWords[0]?.toLowerCase() === 'sed' && isContentReadCommand(right)) {
      idiom = 'nl_pipe';
      const range = sedRange(rightWords);
      if (range !== undefined) seen = [range];
    } else idiom = 'other_whole';
  } else idiom = 'other_whole';
  for (const path of paths) reads.push({ path, start, end, idiom, seen, segment: index });
  for (const { path, flag } of swallowed) swallowedOut.push({ path, flag, command: firstWord, start, end, idiom, seen, segment: index });
}

/** Reads of one `grep…` / `rg ` segment given the output it was handed. */
function grepReads(text: string, output: string, index: number, heredoc: boolean, reads: CommandRead[]): void {
  const hits = output === '' ? [] : grepHits(output);
  if (hits.length > 0) {
    for (const { path, line } of hits) reads.push({ path, start: line, end: line, idiom: heredoc ? 'heredoc_write' : 'grep_hit', seen: heredoc ? [] : creditSeen(line, line), segment: index });
    return;
  }
  const paths = grepPaths(text);
  if (paths.length === 0) return;
  const seen: readonly SeenRange[] = heredoc ? [] : (numberedLines(output) ?? creditSeen(1, -1));
  for (const path of paths) reads.push({ path, start: 1, end: -1, idiom: heredoc ? 'heredoc_write' : 'grep_whole', seen, segment: index });
}

/**
 * The reads of one command (a fenced block's stripped body, or a `bash` / `execute_bash` tool
 * call's `command`), given the text of the message after it (`output`; a function is called only
 * when a grep segment reads it): the builder's `command_reads`, in its order.
 */
export function commandReads(command: string, output: string | (() => string)): CommandReads {
  const reads: CommandRead[] = [];
  const swallowed: SwallowedPath[] = [];
  const stripped = pyStrip(command);
  if (stripped === '') return { reads, swallowed };
  const segments = splitSegments(stripped);
  const heredocs = catHeredocSpans(stripped, segments);
  segments.forEach((segment, index) => {
    const text = pyStrip(segment.text);
    const heredoc = heredocs.some(([from, to]) => segment.offset >= from && segment.offset < to);
    if (isContentReadCommand(text)) contentReads(text, index, heredoc, reads, swallowed);
    else {
      const lower = text.toLowerCase();
      if (lower.startsWith('grep') || lower.startsWith('rg ')) {
        const segmentOutput = index !== segments.length - 1 ? '' : typeof output === 'string' ? output : output();
        grepReads(text, segmentOutput, index, heredoc, reads);
      }
    }
  });
  return { reads, swallowed };
}

/** The segments of a command as the builder splits it (for showing which part of a command a read came from). */
export function commandSegments(command: string): string[] {
  return splitSegments(pyStrip(command)).map((segment) => pyStrip(segment.text));
}
