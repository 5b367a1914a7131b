/**
 * Parser for an agent's plain-text answer in the `RELEVANT_FILES:` block format
 * (metrics-spec §10), so the inspector scores agentic explorers' raw answers exactly as the
 * official pipeline would after parsing them.
 *
 * Behaviour that matters for identical results (and is therefore kept even where it looks odd):
 * the first header followed by a bullet run wins, else the first one followed by any non-empty
 * lines; block entries that are rejected are never retried as prose; prose is swept only when
 * the block yields nothing; duplicates are kept and `topK` applies after parsing. Python's
 * whitespace, word and digit classes are used (not JavaScript's), since agents emit Unicode.
 */
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Region } from '../../core/types';
import { errnoCode, isWithin } from '../io/paths';

/** One accepted entry: the region plus where it came from in the answer text. */
export interface AnswerEntry {
  readonly region: Region;
  /** 1-based line of the answer text holding the entry. */
  readonly line: number;
  /** The entry as written (bullet and surrounding whitespace removed). */
  readonly text: string;
}

export type AnswerSkipReason =
  /** A dangling separator, `start < 1`, `end < start`, or a `:` with no valid range. */
  | 'invalid-range'
  /** Without a repo root, a whole-file entry whose path has no `/`, `.` or `\` (likely prose). */
  | 'bare-name'
  /** With a repo root, the path is not an existing regular file inside the root. */
  | 'unresolvable-path';

export interface SkippedAnswerEntry {
  readonly line: number;
  readonly text: string;
  readonly reason: AnswerSkipReason;
  readonly message: string;
}

export interface ParsedAnswer {
  /** Regions in answer order, duplicates kept, `topK` applied. */
  readonly regions: Region[];
  /** The same regions with their origin. */
  readonly entries: AnswerEntry[];
  /** Entries that were dropped, with reasons (both from the block and from prose). */
  readonly skipped: SkippedAnswerEntry[];
  /** Where the regions came from. */
  readonly source: 'block' | 'prose' | 'none';
  /** 1-based line of the `RELEVANT_FILES:` header that was used, if any. */
  readonly blockLine?: number;
}

export interface AnswerParseOptions {
  /** Keep only the first `topK` regions (after parsing, as the runner does); 0 or absent = all. */
  readonly topK?: number;
}

// ---------------------------------------------------------------------------------------------
// Python character classes. Python's `str.strip()` and regex `\s` use Unicode whitespace, which
// differs from JavaScript's `\s` (Python includes \x1c-\x1f and \x85; JavaScript adds \ufeff).

const PY_WS_CLASS = '\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WS = `[${PY_WS_CLASS}]`;
const DIGIT = '\\p{Nd}';
const PY_WS_RE = new RegExp(`^${WS}$`, 'u');

function isPyWs(ch: string): boolean {
  return PY_WS_RE.test(ch);
}

function stripWith(s: string, leading: (ch: string) => boolean, trailing: (ch: string) => boolean): string {
  let a = 0;
  let b = s.length;
  while (a < b && leading(s.charAt(a))) a++;
  while (b > a && trailing(s.charAt(b - 1))) b--;
  return s.slice(a, b);
}

/** Python `str.strip()` with no argument. */
function pyStrip(s: string): string {
  return stripWith(s, isPyWs, isPyWs);
}

const QUOTES = '`*"\'';
const inSet =
  (set: string) =>
  (ch: string): boolean =>
    set.includes(ch);

/** Value of a run of Unicode decimal digits, as Python's `int()` reads it. */
function pyInt(digits: string): number {
  let sign = 1;
  let s = digits;
  if (s.startsWith('-')) {
    sign = -1;
    s = s.slice(1);
  }
  let value = 0;
  for (const ch of s) {
    value = value * 10 + digitValue(ch);
  }
  return sign * value;
}

const ND_RE = /^\p{Nd}$/u;

/**
 * Unicode decimal digits come in contiguous runs of complete 0–9 sequences, so a digit's value is
 * its distance from the start of its run, modulo 10.
 */
function digitValue(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  let first = cp;
  while (first > 0 && ND_RE.test(String.fromCodePoint(first - 1))) first--;
  return (cp - first) % 10;
}

// ---------------------------------------------------------------------------------------------
// One location.

type Location = { readonly kind: 'region'; readonly path: string; readonly start: number; readonly end: number } | { readonly kind: 'invalid'; readonly message: string } | { readonly kind: 'empty' };

const ENTRY = new RegExp(`^([^\\n]+?):${WS}*[Ll]?(-?${DIGIT}+)(?:${WS}*([-\u2013\u2014])${WS}*(?:[Ll]?(-?${DIGIT}+))?)?`, 'u');

/** The drive of a Windows path as Python's `PureWindowsPath` reports it (`X:` or `\\host\share`). */
function windowsDrive(s: string): string {
  if (s.length >= 2 && s.charAt(1) === ':') return s.slice(0, 2);
  const unc = /^[\\/]{2}[^\\/]+[\\/]+[^\\/]+/.exec(s);
  // Python normalises the drive to backslashes; callers compare it with the raw text.
  return unc === null ? '' : unc[0].replace(/\//g, '\\');
}

/** The first position at or after `from` (and before `limit`) where `match` holds, found by scanning forward only. */
class ForwardScan {
  private from = -1;
  /** The first match at or after `from`, or -1 when none lies before the limit last scanned to. */
  private found = -1;

  constructor(
    private readonly text: string,
    private readonly match: (at: number) => boolean,
  ) {}

  /** Positions only move forward between calls (`reset` starts over), so each character is looked at once. */
  first(from: number, limit: number): number {
    if (this.from < 0 || from < this.from || (this.found >= 0 && this.found < from)) {
      this.from = from;
      this.found = -1;
      for (let p = from; p < limit; p++) {
        if (this.match(p)) {
          this.found = p;
          break;
        }
      }
    }
    return this.found >= 0 && this.found < limit ? this.found : -1;
  }

  reset(): void {
    this.from = -1;
    this.found = -1;
  }
}

const TRAILING_PUNCTUATION = `${QUOTES}.!?,; `;

/**
 * The location without its decoration: the fixpoint of the loop
 *
 *     while loc changes:
 *       loc = pyStrip(loc).lstrip(QUOTES)
 *       loc = loc.rstrip(QUOTES + ".!?,; ")
 *       loc = stripTrailingNote(loc)
 *
 * computed on two indices into the text, so each character is stripped, and looked at for a
 * note, a bounded number of times: the loop itself can run once per character (`a.py\t.\t.…`
 * loses two characters a round), and re-scanning the whole last line for a note each round made
 * it quadratic. Each round is the same three steps in the same order, so the result is the same.
 */
export function stripDecorations(text: string): string {
  const ws = (at: number): boolean => isPyWs(text.charAt(at));
  let a = 0;
  let b = text.length;
  // The last line of text[a, b) starts after `newline`; only moves back as `b` does.
  let newline = text.lastIndexOf('\n', b - 1);
  const hashes = new ForwardScan(text, (p) => text.charCodeAt(p) === 0x23 && ws(p - 1));
  const parens = new ForwardScan(text, (p) => text.charCodeAt(p) === 0x28 && ws(p - 1));
  for (;;) {
    const a0 = a;
    const b0 = b;
    while (a < b && ws(a)) a++;
    while (b > a && ws(b - 1)) b--;
    while (a < b && QUOTES.includes(text.charAt(a))) a++;
    while (b > a && TRAILING_PUNCTUATION.includes(text.charAt(b - 1))) b--;
    if (b > a) {
      if (newline >= b) {
        newline = text.lastIndexOf('\n', b - 1);
        hashes.reset();
        parens.reset();
      }
      // stripTrailingNote on text[a, b): a note starts at a `#`, or at a `(` when the text ends
      // with `)`, that follows whitespace on the last line; the whitespace run before it goes too.
      const lineStart = Math.max(newline + 1, a + 1);
      const hash = hashes.first(lineStart, b);
      const paren = text.charCodeAt(b - 1) === 0x29 ? parens.first(lineStart, b) : -1;
      const note = hash < 0 ? paren : paren < 0 ? hash : Math.min(hash, paren);
      if (note >= 0) {
        let cut = note - 1;
        while (cut > a && ws(cut - 1)) cut--;
        b = cut;
      }
    }
    if (a === a0 && b === b0) return text.slice(a, b);
  }
}

/** Reads one decorated location (`path`, `path:N`, `path:A-B`, with bullets/quotes/notes). */
function parseLocation(raw: string): Location {
  const loc = stripDecorations(raw);
  let p = loc;
  let start = 1;
  let end = -1;
  const m = ENTRY.exec(loc);
  if (m !== null) {
    p = m[1]!;
    start = pyInt(m[2]!);
    end = m[4] !== undefined ? pyInt(m[4]) : start;
    const dangling = m[3] !== undefined && m[4] === undefined;
    if (dangling || start < 1 || end < start) return { kind: 'invalid', message: `invalid line range in ${JSON.stringify(loc)}` };
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
      return { kind: 'invalid', message: `line number too large in ${JSON.stringify(loc)}` };
    }
  } else {
    const drive = windowsDrive(loc);
    const rest = drive !== '' && loc.startsWith(drive) ? loc.slice(drive.length) : loc;
    if (rest.includes(':')) return { kind: 'invalid', message: `invalid line range in ${JSON.stringify(loc)}` };
  }
  p = pyStrip(stripWith(pyStrip(p), inSet(QUOTES), inSet(QUOTES)));
  if (p === '') return { kind: 'empty' };
  return { kind: 'region', path: p, start, end };
}

// ---------------------------------------------------------------------------------------------
// Finding the block and sweeping prose.

interface Candidate {
  readonly text: string;
  /** 0-based offset into the original answer text (for line numbers). */
  readonly offset: number;
}

interface Block {
  readonly headerOffset: number;
  /** Offset just past the block (the outside text resumes here). */
  readonly end: number;
  readonly entries: Candidate[];
}

const HEADER = 'RELEVANT_FILES:';

function isBulletLine(line: string): boolean {
  // `- ` or `* ` then at least one character (a bare "- " ends the run).
  return (line.startsWith('- ') || line.startsWith('* ')) && line.length > 2;
}

/**
 * Lines of a run starting at `from`, each accepted by `accept`; a line is the text up to (not
 * including) `\n`. Returns the lines with offsets and the offset just past the run (including the
 * final `\n` when present), or `undefined` when the first line is not accepted.
 */
function lineRun(text: string, from: number, accept: (line: string) => boolean): { lines: Candidate[]; end: number } | undefined {
  const lines: Candidate[] = [];
  let i = from;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    const lineEnd = nl === -1 ? text.length : nl;
    const line = text.slice(i, lineEnd);
    if (!accept(line)) break;
    lines.push({ text: line, offset: i });
    i = nl === -1 ? text.length : nl + 1;
  }
  return lines.length === 0 ? undefined : { lines, end: i };
}

/**
 * Finds the block: the first header followed (after whitespace ending in a newline) by a run of
 * bullet lines; failing that, the first header followed by a run of non-empty lines. The whitespace
 * after the header may span several newlines; the run starts after one of them, latest first.
 */
function findBlock(text: string, accept: (line: string) => boolean): Block | undefined {
  for (let h = text.indexOf(HEADER); h !== -1; h = text.indexOf(HEADER, h + 1)) {
    let wsEnd = h + HEADER.length;
    while (wsEnd < text.length && isPyWs(text.charAt(wsEnd))) wsEnd++;
    for (let nl = text.lastIndexOf('\n', wsEnd - 1); nl >= h + HEADER.length; nl = text.lastIndexOf('\n', nl - 1)) {
      const run = lineRun(text, nl + 1, accept);
      if (run === undefined) continue;
      return { headerOffset: h, end: run.end, entries: trimBlockLines(run.lines) };
    }
  }
  return undefined;
}

/**
 * The block's text is stripped as a whole and split into lines, each stripped and freed of a
 * leading bullet (`-`, `*`) or ordinal (`1.`, `1)`) followed by whitespace. Stripping the whole
 * block drops leading and trailing whitespace-only lines; blank lines in between stay (as empty
 * entries, which yield nothing).
 */
function trimBlockLines(lines: readonly Candidate[]): Candidate[] {
  let a = 0;
  let b = lines.length;
  while (a < b && pyStrip(lines[a]!.text) === '') a++;
  while (b > a && pyStrip(lines[b - 1]!.text) === '') b--;
  const bullet = new RegExp(`^(?:[-*]|[0-9]+[.)])${WS}+`, 'u');
  return lines.slice(a, b).map((l) => ({ text: pyStrip(l.text).replace(bullet, ''), offset: l.offset }));
}

const SRC_EXTS = 'json5|json|jsx|js|tsx|ts|cpp|c|py|java|go|rs|h|rb|php|md|txt|toml|yaml|yml|rst|cfg|ini|sh|ets';
const LOCATION_LIKE = new RegExp(`\\.(?:${SRC_EXTS})[\`*"']*:`, 'u');
const RANGE_WITH_SPACES = new RegExp(`:[ \\t]*[Ll]?-?${DIGIT}+(?:[ \\t]*[-\u2013\u2014][ \\t]*(?:[Ll]?-?${DIGIT}+)?)?`, 'gu');
/** What follows the colon of a range: `[ \t]*[Ll]?-?<digit>`, tried at one position (after the blanks). */
const RANGE_AFTER_BLANKS = new RegExp(`[Ll]?-?${DIGIT}`, 'uy');
const TOKEN = new RegExp(`(?:\`[^\`\\n]*\`|"[^"\\n]*"|(?<![\\p{L}\\p{N}_/\\\\])'[^'\\n]*'|[^${PY_WS_CLASS}\`"<>()[\\]{},;])+`, 'gu');

function isBlankChar(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** `text` without the characters at the sorted `positions`. */
function withoutPositions(text: string, positions: readonly number[]): string {
  if (positions.length === 0) return text;
  const pieces: string[] = [];
  let from = 0;
  for (const p of positions) {
    pieces.push(text.slice(from, p));
    from = p + 1;
  }
  pieces.push(text.slice(from));
  return pieces.join('');
}

/**
 * Maps indices of a text with the sorted `deleted` positions removed back to indices of the text
 * before; queries must come in ascending order (one pointer walks the deletions once).
 */
function indexMapper(deleted: readonly number[]): (index: number) => number {
  let passed = 0;
  return (index) => {
    while (passed < deleted.length && deleted[passed]! <= index + passed) passed++;
    return index + passed;
  };
}

/**
 * Blanks before a range's colon (`a.py : 3` → `a.py: 3`): the positions the substitution
 * `/[ \t]+:(?=[ \t]*[Ll]?-?DIGIT)/g → ':'` deletes, found in one pass. The regex itself retried
 * every position of a long blank run that no colon ends (quadratic); a run is deleted exactly
 * when it ends at a colon followed by a range, and runs never overlap.
 */
function blanksBeforeRangeColons(text: string): number[] {
  const out: number[] = [];
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    let after = colon + 1;
    while (after < text.length && isBlankChar(text.charCodeAt(after))) after++;
    RANGE_AFTER_BLANKS.lastIndex = after;
    if (!RANGE_AFTER_BLANKS.test(text)) continue;
    let start = colon;
    while (start > 0 && isBlankChar(text.charCodeAt(start - 1))) start--;
    for (let p = start; p < colon; p++) out.push(p);
  }
  return out;
}

/** Blanks inside ranges (`:3 - 5` → `:3-5`): the spaces and tabs of every {@link RANGE_WITH_SPACES} match. */
function blanksInsideRanges(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(RANGE_WITH_SPACES)) {
    for (let k = 0; k < m[0].length; k++) if (isBlankChar(m[0].charCodeAt(k))) out.push(m.index + k);
  }
  return out;
}

/** Prose is swept a piece of whole lines at a time (no pattern crosses a newline), so memory stays bounded by the piece. */
const SWEEP_PIECE = 1 << 16;

/**
 * Location-like tokens of free text (`pkg/mod.py:12-30`), in order. Spaces inside a range are
 * removed first so `a.py : 3 - 5` stays one token (and `a.py:3 -` cannot shrink to line 3).
 * Quotes only open at a token boundary, so the apostrophe in "it's" does not swallow the line.
 * Linear, and in memory proportional to one piece of lines: only the deleted positions are kept
 * to map tokens back to offsets in the answer.
 */
function sweepProse(segment: string, baseOffset: number): Candidate[] {
  const out: Candidate[] = [];
  let start = 0;
  while (start < segment.length) {
    let end = Math.min(segment.length, start + SWEEP_PIECE);
    if (end < segment.length) {
      const newline = segment.indexOf('\n', end);
      end = newline === -1 ? segment.length : newline + 1;
    }
    sweepLines(segment.slice(start, end), baseOffset + start, out);
    start = end;
  }
  return out;
}

function sweepLines(piece: string, baseOffset: number, out: Candidate[]): void {
  // Both substitutions only delete spaces and tabs, so every kept character maps back.
  const deleted1 = blanksBeforeRangeColons(piece);
  const step1 = withoutPositions(piece, deleted1);
  const deleted2 = blanksInsideRanges(step1);
  const step2 = withoutPositions(step1, deleted2);
  const toStep1 = indexMapper(deleted2);
  const toPiece = indexMapper(deleted1);
  for (const m of step2.matchAll(TOKEN)) {
    if (LOCATION_LIKE.test(m[0])) out.push({ text: m[0], offset: baseOffset + toPiece(toStep1(m.index)) });
  }
}

// ---------------------------------------------------------------------------------------------
// Path mapping.

const ABS_REPO = /^\/(?:opt|home|root|tmp|workspace|testbed)\/[^\n]+?\/repos\/[^/]+\//u;

/** Strips known container prefixes from an absolute path (`/testbed/x` → `x`). */
function stripContainerPrefix(p: string): string {
  p = pyStrip(p);
  if (!p.startsWith('/')) return p;
  const m = ABS_REPO.exec(p);
  if (m !== null) return p.slice(m[0].length);
  if (p.startsWith('/testbed/')) return p.slice('/testbed/'.length);
  if (p.startsWith('/workspace/')) {
    const rest = p.slice('/workspace/'.length);
    const slash = rest.indexOf('/');
    // One directory level after /workspace/ is the repo name unless it looks like a file.
    if (slash !== -1 && !/\.(?:py|js|ts)$/.test(rest.slice(0, slash))) return rest.slice(slash + 1);
    return rest;
  }
  return p;
}

type Mapped = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: AnswerSkipReason; readonly message: string };

function mapWithoutRoot(region: { path: string; end: number }): Mapped {
  if (region.end === -1 && !/[/.\\]/.test(region.path)) {
    return { ok: false, reason: 'bare-name', message: `${JSON.stringify(region.path)} has no '/', '.' or '\\' and is not taken as a file` };
  }
  let p = stripContainerPrefix(region.path.replace(/\\/g, '/'));
  while (p.startsWith('./')) p = p.slice(2);
  return { ok: true, path: p };
}

/**
 * Maps a path to an existing regular file inside `realRoot`, returning the POSIX path relative to
 * the root's real path. Absolute paths are tried as given, then with known container prefixes
 * removed; relative paths as given, then without a leading repo-directory name. The first
 * candidate that exists decides: if it is outside the root or not a file, the entry is refused
 * (an existing outside file is never reinterpreted as a local one).
 */
async function mapWithRoot(rawPath: string, realRoot: string): Promise<Mapped> {
  const fail = (message: string): Mapped => ({ ok: false, reason: 'unresolvable-path', message });
  const p = pyStrip(rawPath).replace(/\\/g, '/');
  const absolute = p.startsWith('/');
  // A foreign drive (`C:/x`) must not become a relative POSIX file name.
  if (!absolute && windowsDrive(p) !== '') return fail(`${JSON.stringify(rawPath)} is a Windows path outside the repository`);
  const candidates: string[] = [];
  if (absolute) {
    candidates.push(p);
    const relative = stripContainerPrefix(p);
    if (relative !== p && !relative.startsWith('/')) candidates.push(`${realRoot}/${relative}`);
  } else {
    candidates.push(`${realRoot}/${p}`);
    const parts = p.split('/').filter((s) => s !== '' && s !== '.');
    if (parts.length > 0 && parts[0] === path.basename(realRoot)) candidates.push(`${realRoot}/${parts.slice(1).join('/')}`);
  }
  for (const candidate of candidates) {
    let real: string;
    try {
      real = await realpath(candidate);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') continue;
      return fail(`${JSON.stringify(rawPath)} cannot be resolved (${errnoCode(error) ?? 'error'})`);
    }
    if (!isWithin(realRoot, real)) return fail(`${JSON.stringify(rawPath)} is outside the repository`);
    try {
      if (!(await stat(real)).isFile()) return fail(`${JSON.stringify(rawPath)} is not a regular file`);
    } catch {
      return fail(`${JSON.stringify(rawPath)} cannot be read`);
    }
    return { ok: true, path: path.relative(realRoot, real).split(path.sep).join('/') };
  }
  return fail(`${JSON.stringify(rawPath)} does not exist in the repository`);
}

// ---------------------------------------------------------------------------------------------
// Driver.

function lineIndex(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

interface Stages {
  readonly block: Block | undefined;
  /** Candidate lists in the order they are tried; the second is computed only when needed. */
  readonly stages: ReadonlyArray<{ readonly source: 'block' | 'prose'; readonly candidates: () => Candidate[] }>;
}

function planStages(text: string): Stages {
  const block = findBlock(text, isBulletLine) ?? findBlock(text, (line) => line.length > 0);
  const prose = (): Candidate[] => {
    if (block === undefined) return sweepProse(text, 0);
    const out = sweepProse(text.slice(0, block.headerOffset), 0);
    for (const candidate of sweepProse(text.slice(block.end), block.end)) out.push(candidate);
    return out;
  };
  return {
    block,
    stages: [
      { source: 'block', candidates: () => block?.entries ?? [] },
      { source: 'prose', candidates: prose },
    ],
  };
}

type LocatedRegion = { readonly path: string; readonly start: number; readonly end: number };

/**
 * The parsing pipeline as a generator that asks its driver to map each region's path, so the
 * rootless variant stays synchronous and the repository variant can await the file system.
 */
function* parse(text: string, options: AnswerParseOptions): Generator<LocatedRegion, ParsedAnswer, Mapped> {
  const lineOf = lineIndex(text);
  const { block, stages } = planStages(text);
  const entries: AnswerEntry[] = [];
  const skipped: SkippedAnswerEntry[] = [];
  let source: ParsedAnswer['source'] = 'none';
  for (const stage of stages) {
    for (const candidate of stage.candidates()) {
      const loc = parseLocation(candidate.text);
      const line = lineOf(candidate.offset);
      if (loc.kind === 'empty') continue;
      if (loc.kind === 'invalid') {
        skipped.push({ line, text: candidate.text, reason: 'invalid-range', message: loc.message });
        continue;
      }
      const mapped: Mapped = yield loc;
      if (!mapped.ok) {
        skipped.push({ line, text: candidate.text, reason: mapped.reason, message: mapped.message });
        continue;
      }
      entries.push({ region: { path: mapped.path, start: loc.start, end: loc.end }, line, text: candidate.text });
    }
    // Rejected block entries are never retried as prose: prose is swept only when nothing was kept.
    if (entries.length > 0) {
      source = stage.source;
      break;
    }
  }
  const topK = options.topK !== undefined && options.topK > 0 ? options.topK : undefined;
  const kept = topK === undefined ? entries : entries.slice(0, topK);
  return {
    regions: kept.map((e) => e.region),
    entries: kept,
    skipped,
    source,
    ...(block !== undefined ? { blockLine: lineOf(block.headerOffset) } : {}),
  };
}

/**
 * Parses an agent answer without a repository: backslashes become `/`, container prefixes
 * (`/testbed/…`, `/workspace/<repo>/…`, `…/repos/<name>/…`) and leading `./` are stripped, and
 * whole-file entries whose path has no `/`, `.` or `\` are skipped. No file system access.
 */
export function parseAnswerText(text: string, options: AnswerParseOptions = {}): ParsedAnswer {
  const it = parse(text, options);
  let step = it.next();
  while (step.done !== true) step = it.next(mapWithoutRoot(step.value));
  return step.value;
}

/**
 * Parses an agent answer against a repository checkout: every path must resolve to an existing
 * regular file inside `repoRoot` (symlinks resolved; anything resolving outside is refused), and
 * the stored path is the POSIX path relative to the root's real path.
 */
export async function parseAnswerInRepo(text: string, repoRoot: string, options: AnswerParseOptions = {}): Promise<ParsedAnswer> {
  let realRoot: string;
  try {
    realRoot = await realpath(repoRoot);
  } catch {
    // A missing root resolves nothing, but the answer's structure is still reported.
    realRoot = path.resolve(repoRoot);
  }
  const it = parse(text, options);
  let step = it.next();
  while (step.done !== true) step = it.next(await mapWithRoot(step.value.path, realRoot));
  return step.value;
}
