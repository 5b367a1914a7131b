/**
 * Snapshot line counts, counted exactly as the official evaluator counts them (metrics-spec §2).
 *
 * The evaluator reads each file as UTF-8 text with undecodable bytes dropped, in universal-newline
 * mode, and takes `len(text.splitlines())`. Whole-file (`end = -1`) and tail (negative start)
 * regions resolve against this number, so an off-by-one here changes official scores.
 */
import { mapWithConcurrency } from '../io/concurrency';
import { LineCounter } from '../io/countLines';
import type { Problem, Severity } from '../io/problems';
import { RESOLVE_FAILURE_TEXT, resolveInSnapshot, type ResolveFailure } from '../io/paths';
import { openRegularFile } from '../io/regularFile';

export { countLines, LineCounter } from '../io/countLines';

/** Bytes read per call when counting; the one buffer a count holds, whatever the file size. */
const COUNT_CHUNK_BYTES = 1 << 16;

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
    // Stat and read through one handle so the cached key describes exactly the bytes counted;
    // FIFOs and devices are refused before reading (see openRegularFile).
    const { handle, size, mtimeMs } = await openRegularFile(absolutePath);
    try {
      const cached = this.entries.get(absolutePath);
      if (cached !== undefined && cached.mtimeMs === mtimeMs && cached.size === size) {
        // Re-insert to mark as recently used.
        this.entries.delete(absolutePath);
        this.entries.set(absolutePath, cached);
        return cached.lines;
      }
      // Streamed through a fixed buffer: memory stays constant for a file of any size.
      const buffer = Buffer.allocUnsafe(COUNT_CHUNK_BYTES);
      const counter = new LineCounter();
      let total = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        counter.push(buffer.subarray(0, bytesRead));
        total += bytesRead;
      }
      const lines = counter.finish();
      // A file that grew or shrank while being read would poison the cache; count it, don't keep it.
      if (total === size) this.remember(absolutePath, { mtimeMs, size, lines });
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

/**
 * The one severity rule for a path without a line count, used by every reporter: escapes are
 * refused for safety (errors); a missing, non-regular or unreadable file is a reported condition
 * (warning) that the evaluator tolerates.
 */
export function lineCountFailureSeverity(failure: LineCountFailure): Severity {
  return failure === 'absolute' || failure === 'escapes-root' || failure === 'symlink-escape' ? 'error' : 'warning';
}

/** Human wording of a line-count failure, for problem messages. */
export function lineCountFailureText(failure: LineCountFailure): string {
  return failure === 'read-error' ? 'could not be read' : RESOLVE_FAILURE_TEXT[failure];
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
export async function snapshotLineCounts(root: string, paths: Iterable<string>, options: SnapshotLineCountOptions = {}): Promise<SnapshotLineCounts> {
  const cache = options.cache ?? new LineCountCache();
  const unique = [...new Set(paths)];
  const counts = new Map<string, number>();
  const failures = new Map<string, LineCountFailure>();
  await mapWithConcurrency(unique, options.concurrency ?? 16, async (p) => {
    const resolved = await resolveInSnapshot(root, p);
    if (!resolved.ok) {
      failures.set(p, resolved.reason);
      return;
    }
    try {
      counts.set(p, await cache.count(resolved.real));
    } catch {
      failures.set(p, 'read-error');
    }
  });

  const problems: Problem[] = [];
  // Report in input order, not completion order, so output is deterministic.
  for (const p of unique) {
    const failure = failures.get(p);
    if (failure === undefined) continue;
    const loc = options.location;
    problems.push({
      file: loc?.file ?? root,
      line: loc?.line ?? 0,
      severity: lineCountFailureSeverity(failure),
      code: LINE_COUNT_FAILURE_CODES[failure],
      message: `${JSON.stringify(p)} ${lineCountFailureText(failure)} (${root})`,
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
