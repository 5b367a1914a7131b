/**
 * The drift check, streaming: whether each removal still covers the text it was made on. The
 * snapshot file is read once per (instance, path), chunk by chunk, and only up to the last line a
 * removal needs; only the removed lines are hashed and nothing of the file is kept, so six 400 MB
 * files cost a read buffer, not their text. Shared by `swe-explore export|audit-impact` and the
 * extension, which therefore cannot disagree on what drifted.
 */
import { createHash, type Hash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { openRegularFile } from '../io/regularFile';
import { resolveInSnapshot } from '../io/paths';
import type { Problem } from '../io/problems';
import { driftProblem, type RemoveEvent } from './auditLog';

export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/** Bytes read per call; the one buffer is reused for the whole file. */
const CHUNK_BYTES = 1 << 20;

/**
 * Hex SHA-256 of lines `start..end` of a regular file for each range, in the order given —
 * exactly `textSha(fileText, start, end)` of `auditLog.ts` (lines split on `\n`, one trailing `\r`
 * dropped per line, joined with `\n`, decoded as UTF-8 with U+FFFD for bad bytes), computed while
 * streaming. Reading stops after the last line any range needs. Throws when the file cannot be
 * opened or is not a regular file. `chunkBytes` is the read size (smaller only in tests).
 */
export async function streamedTextShas(file: string, ranges: readonly LineRange[], chunkBytes: number = CHUNK_BYTES): Promise<string[]> {
  // Identical ranges share one hash.
  const keyOf = (r: LineRange): string => `${r.start}:${r.end}`;
  const unique = new Map<string, { readonly range: LineRange; readonly hash: Hash; started: boolean }>();
  for (const range of ranges) if (!unique.has(keyOf(range))) unique.set(keyOf(range), { range, hash: createHash('sha256'), started: false });
  const byStart = [...unique.values()].sort((a, b) => a.range.start - b.range.start);
  let lastLine = 0;
  for (const entry of byStart) lastLine = Math.max(lastLine, entry.range.end);

  let line = 1;
  let lineBegun = false;
  let nextToStart = 0;
  let active: (typeof byStart)[number][] = [];
  let pendingCR = false;
  const feed = (text: string): void => {
    if (text === '') return;
    for (const entry of active) entry.hash.update(text, 'utf8');
  };
  const beginLine = (): void => {
    lineBegun = true;
    while (nextToStart < byStart.length && byStart[nextToStart]!.range.start <= line) {
      const entry = byStart[nextToStart++]!;
      if (entry.range.end >= line) active.push(entry);
    }
    for (const entry of active) {
      if (entry.started) entry.hash.update('\n', 'utf8');
      else entry.started = true;
    }
  };
  /** Text of the current line (no `\n` in it). A trailing `\r` is held back until the line goes on. */
  const piece = (text: string): void => {
    if (text === '') return;
    if (!lineBegun) beginLine();
    if (pendingCR) {
      feed('\r');
      pendingCR = false;
    }
    if (text.endsWith('\r')) {
      feed(text.slice(0, -1));
      pendingCR = true;
    } else feed(text);
  };
  /** Ends the current line at a `\n`; returns false once no range needs a later line. */
  const endLine = (): boolean => {
    if (!lineBegun) beginLine();
    pendingCR = false;
    if (active.some((entry) => entry.range.end === line)) active = active.filter((entry) => entry.range.end !== line);
    line++;
    lineBegun = false;
    return line <= lastLine;
  };
  const take = (text: string): boolean => {
    let at = 0;
    while (at < text.length) {
      const newline = text.indexOf('\n', at);
      if (newline === -1) {
        piece(text.slice(at));
        return true;
      }
      piece(text.slice(at, newline));
      if (!endLine()) return false;
      at = newline + 1;
    }
    return true;
  };

  if (lastLine >= 1) {
    const { handle } = await openRegularFile(file);
    try {
      const decoder = new StringDecoder('utf8');
      const buffer = Buffer.allocUnsafe(chunkBytes);
      let more = true;
      while (more) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) {
          take(decoder.end());
          break;
        }
        more = take(decoder.write(buffer.subarray(0, bytesRead)));
      }
    } finally {
      await handle.close();
    }
  }
  const digests = new Map<string, string>();
  for (const [key, entry] of unique) digests.set(key, entry.hash.digest('hex'));
  return ranges.map((range) => digests.get(keyOf(range))!);
}

/** Hex SHA-256 of lines `start..end` of a regular file, streaming (see {@link streamedTextShas}). */
export async function fileTextSha(file: string, start: number, end: number): Promise<string> {
  return (await streamedTextShas(file, [{ start, end }]))[0]!;
}

export interface DriftCheck {
  /** Ids of the removals whose text changed. */
  readonly drifted: Set<string>;
  /** One `audit-drifted` warning per drifted removal, at its audit line. */
  readonly problems: Problem[];
}

/**
 * Flags the removals whose recorded `text_sha` no longer matches their snapshot's text (they are
 * never moved). Removals without a hash, without a snapshot, or whose file cannot be resolved or
 * read inside the snapshot are not checked. One streamed read per (snapshot, path).
 */
export async function checkDrift(removals: readonly RemoveEvent[], snapshotRootOf: (instanceId: string) => string | undefined): Promise<DriftCheck> {
  const groups = new Map<string, { readonly root: string; readonly path: string; readonly events: RemoveEvent[] }>();
  for (const event of removals) {
    if (event.textSha === null) continue;
    const root = snapshotRootOf(event.instanceId);
    if (root === undefined) continue;
    const key = `${root}\u0000${event.path}`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { root, path: event.path, events: [] }));
    group.events.push(event);
  }
  const drifted = new Set<string>();
  const problems: Problem[] = [];
  for (const group of groups.values()) {
    const resolved = await resolveInSnapshot(group.root, group.path);
    if (!resolved.ok) continue;
    let shas: string[];
    try {
      shas = await streamedTextShas(resolved.real, group.events);
    } catch {
      continue;
    }
    group.events.forEach((event, i) => {
      if (shas[i] !== event.textSha) drifted.add(event.id);
    });
  }
  // In audit-log order, whatever order the files were read in.
  for (const event of removals) if (drifted.has(event.id)) problems.push(driftProblem(event));
  return { drifted, problems };
}
