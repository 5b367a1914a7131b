/**
 * Snapshot line counts, counted exactly as the official evaluator counts them (metrics-spec §2).
 *
 * The evaluator reads each file as UTF-8 text with undecodable bytes dropped, in universal-newline
 * mode, and takes `len(text.splitlines())`. Whole-file (`end = -1`) and tail (negative start)
 * regions resolve against this number, so an off-by-one here changes official scores.
 */
import { open } from 'node:fs/promises';
import type { Problem } from './problems';
import { RESOLVE_FAILURE_TEXT, resolveInSnapshot, type ResolveFailure } from './paths';

/**
 * Length of the UTF-8 character starting at `buf[i]` (2–4), or, when the bytes there are not a
 * valid character, the negated number of bytes the decoder drops before resuming. Python drops the
 * maximal ill-formed subpart (the lead byte plus the continuation bytes that were still plausible)
 * and resumes at the first byte that broke the sequence, as WHATWG decoders do.
 */
function utf8Step(buf: Uint8Array, i: number, n: number): number {
  const b = buf[i]!;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) need = 1;
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    // E0 would be overlong below A0; ED above 9F would encode a surrogate.
    if (b === 0xe0) lo = 0xa0;
    else if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    // F0 below 90 is overlong; F4 above 8F is beyond U+10FFFF.
    if (b === 0xf0) lo = 0x90;
    else if (b === 0xf4) hi = 0x8f;
  } else return -1; // stray continuation byte, C0/C1 (always overlong) or F5..FF
  for (let k = 1; k <= need; k++) {
    if (i + k >= n) return -k;
    const c = buf[i + k]!;
    if (c < lo || c > hi) return -k;
    // Only the second byte has a narrowed range.
    lo = 0x80;
    hi = 0xbf;
  }
  return need + 1;
}

/**
 * Number of lines in a file's bytes under the official evaluator's rule: UTF-8 decoding with
 * undecodable bytes dropped, universal newlines, then the number of elements of Python's
 * `str.splitlines()`.
 *
 * Count = number of line breaks + 1 if any character follows the last break. Breaks are `\n`,
 * `\r`, `\r\n` (one break, even when only dropped bytes separate the two), `\v`, `\f`, `\x1c`,
 * `\x1d`, `\x1e`, U+0085 (bytes C2 85), U+2028 and U+2029. A trailing break adds no line; an empty
 * file, or one whose bytes all fail to decode, counts 0. A UTF-8 BOM is an ordinary character
 * (Python's `utf-8` codec keeps it), so a file holding only a BOM has one line.
 *
 * Scans the bytes once without building a string.
 */
export function countLines(buf: Uint8Array): number {
  const n = buf.length;
  let breaks = 0;
  // Whether a decoded character follows the last break (the unterminated last line).
  let tail = false;
  // Whether the last decoded character was '\r': a '\n' right after it is the same break.
  let afterCR = false;
  let i = 0;
  while (i < n) {
    const b = buf[i]!;
    if (b < 0x80) {
      i += 1;
      if (b >= 0x20 || (b !== 0x0a && b !== 0x0d && b !== 0x0b && b !== 0x0c && (b < 0x1c || b > 0x1e))) {
        tail = true;
        afterCR = false;
      } else if (b === 0x0a) {
        if (!afterCR) breaks += 1;
        afterCR = false;
        tail = false;
      } else {
        // \r, \v, \f, \x1c, \x1d, \x1e
        breaks += 1;
        afterCR = b === 0x0d;
        tail = false;
      }
      continue;
    }
    const step = utf8Step(buf, i, n);
    if (step < 0) {
      // Dropped bytes decode to nothing: they neither end a line nor start one, and they do not
      // separate a '\r' from a following '\n'.
      i -= step;
      continue;
    }
    const isBreak =
      (step === 2 && b === 0xc2 && buf[i + 1] === 0x85) ||
      (step === 3 && b === 0xe2 && buf[i + 1] === 0x80 && (buf[i + 2] === 0xa8 || buf[i + 2] === 0xa9));
    if (isBreak) {
      breaks += 1;
      tail = false;
    } else tail = true;
    afterCR = false;
    i += step;
  }
  return breaks + (tail ? 1 : 0);
}

interface CacheEntry {
  readonly mtimeMs: number;
  readonly size: number;
  readonly lines: number;
}

/**
 * Line counts keyed by (absolute path, mtime, size): a file is read again only when it changed.
 * Bounded (least recently used entries are dropped) so that browsing many instances in one
 * session does not grow memory without limit.
 */
export class LineCountCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly maxEntries = 50_000) {}

  /** Number of cached files. */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets every cached count. */
  clear(): void {
    this.entries.clear();
  }

  /**
   * The line count of the file at `absolutePath` (which the caller has already checked, e.g. with
   * `resolveInSnapshot`). Rejects when the file cannot be opened or read.
   */
  async count(absolutePath: string): Promise<number> {
    // Stat and read through one handle so the cached key describes exactly the bytes counted.
    const handle = await open(absolutePath, 'r');
    try {
      const info = await handle.stat();
      const cached = this.entries.get(absolutePath);
      if (cached !== undefined && cached.mtimeMs === info.mtimeMs && cached.size === info.size) {
        // Re-insert to mark as recently used.
        this.entries.delete(absolutePath);
        this.entries.set(absolutePath, cached);
        return cached.lines;
      }
      const bytes = await handle.readFile();
      const lines = countLines(bytes);
      // A file that grew or shrank while being read would poison the cache; count it, don't keep it.
      if (bytes.length === info.size) this.remember(absolutePath, { mtimeMs: info.mtimeMs, size: info.size, lines });
      return lines;
    } finally {
      await handle.close();
    }
  }

  private remember(key: string, entry: CacheEntry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }
}

/** Why a snapshot path has no line count. */
export type LineCountFailure = ResolveFailure | 'read-error';

export interface SnapshotLineCounts {
  /** Line count per region path (as written in the data) for every path that is a readable file. */
  readonly counts: Map<string, number>;
  /** Paths without a count, and why. */
  readonly failures: Map<string, LineCountFailure>;
  /** One problem per failure: `missing` / `not-a-file` are warnings, escapes are errors. */
  readonly problems: Problem[];
}

export interface SnapshotLineCountOptions {
  /** Reuse counts across calls; by default a fresh cache is used. */
  readonly cache?: LineCountCache;
  /** Where to locate problems (the data record that referenced the paths); default: the snapshot file itself, line 0. */
  readonly location?: { readonly file: string; readonly line: number; readonly instanceId?: string };
  /** Files read at once; keeps file-descriptor use bounded on huge instances. */
  readonly concurrency?: number;
}

/** The problem code reported for each way a snapshot path can fail to give a line count. */
export const LINE_COUNT_FAILURE_CODES = {
  absolute: 'path-absolute',
  'escapes-root': 'path-escapes-root',
  'symlink-escape': 'symlink-escape',
  missing: 'missing-file',
  'not-a-file': 'not-a-file',
  'read-error': 'io-error',
} as const satisfies Record<LineCountFailure, Problem['code']>;

/**
 * Counts the lines of `paths` inside the snapshot `root` (see {@link countLines}). Paths are
 * resolved with `resolveInSnapshot`, so absolute paths, `..` escapes and symlinks leaving the root
 * are never read. Duplicate paths are counted once.
 */
export async function snapshotLineCounts(
  root: string,
  paths: Iterable<string>,
  options: SnapshotLineCountOptions = {},
): Promise<SnapshotLineCounts> {
  const cache = options.cache ?? new LineCountCache();
  const unique = [...new Set(paths)];
  const counts = new Map<string, number>();
  const failures = new Map<string, LineCountFailure>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length) {
      const p = unique[next++]!;
      const resolved = await resolveInSnapshot(root, p);
      if (!resolved.ok) {
        failures.set(p, resolved.reason);
        continue;
      }
      try {
        counts.set(p, await cache.count(resolved.real));
      } catch {
        failures.set(p, 'read-error');
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 16, unique.length));
  await Promise.all(Array.from({ length: workers }, worker));

  const problems: Problem[] = [];
  // Report in input order, not completion order, so output is deterministic.
  for (const p of unique) {
    const failure = failures.get(p);
    if (failure === undefined) continue;
    const text = failure === 'read-error' ? 'could not be read' : RESOLVE_FAILURE_TEXT[failure];
    const loc = options.location;
    problems.push({
      file: loc?.file ?? root,
      line: loc?.line ?? 0,
      severity: failure === 'missing' || failure === 'not-a-file' || failure === 'read-error' ? 'warning' : 'error',
      code: LINE_COUNT_FAILURE_CODES[failure],
      message: `${JSON.stringify(p)} ${text} (${root})`,
      ...(loc?.instanceId !== undefined ? { instanceId: loc.instanceId } : {}),
    });
  }
  // Keep the map's iteration order equal to the input order as well.
  const ordered = new Map<string, number>();
  for (const p of unique) {
    const c = counts.get(p);
    if (c !== undefined) ordered.set(p, c);
  }
  return { counts: ordered, failures, problems };
}
