/**
 * The audit log: `.swe-explore/audit/<author>.jsonl`, one event a line, per user, append-only.
 *
 * Events (schema version 1; key order as written here):
 *   {"v":1,"op":"remove","id","instance_id","layer","model","path","start","end","reason","note","author","at","text_sha"}
 *   {"v":1,"op":"restore","id","target","author","at"}
 *   {"v":1,"op":"accept","id","instance_id","author","at"}
 * The effective removals are every `remove` of every author's file that no `restore` (of any
 * author) targets. Lines are appended whole in one `write` on an O_APPEND handle and fsynced, so
 * concurrent writers (two windows, two users on a shared folder) never interleave inside a line;
 * nothing is ever truncated or rewritten. Reading never throws on content: bad lines become
 * problems located at file:line and are skipped; unknown ops and fields are kept and ignored.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { lineSetFrom, type LineSet, type Removal } from '../../core';
import { ioProblem, type Problem } from '../io/problems';

/** The folder, relative to the workspace root. */
export const AUDIT_FOLDER = path.join('.swe-explore', 'audit');

export const AUDIT_SCHEMA_VERSION = 1;

/** Reason categories offered by the UI; the log accepts any non-empty reason (the list is extendable). */
export const REMOVAL_REASONS = ['incidental-read', 'over-broad-read', 'not-needed-for-fix', 'test-or-fixture', 'config-or-boilerplate', 'duplicate', 'other'] as const;

interface EventLocation {
  /** The audit file the event was read from, and its 1-based line. */
  readonly file: string;
  readonly line: number;
}

export interface RemoveEvent extends EventLocation {
  readonly op: 'remove';
  readonly id: string;
  readonly instanceId: string;
  readonly layer: 'core' | 'optional';
  /** Always null for core; for optional, null means every model. */
  readonly model: string | null;
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly reason: string;
  readonly note: string | null;
  readonly author: string;
  readonly at: string;
  readonly textSha: string | null;
}

export interface RestoreEvent extends EventLocation {
  readonly op: 'restore';
  readonly id: string;
  readonly target: string;
  readonly author: string;
  readonly at: string;
}

export interface AcceptEvent extends EventLocation {
  readonly op: 'accept';
  readonly id: string;
  readonly instanceId: string;
  readonly author: string;
  readonly at: string;
}

/** An event with an op this version does not know: kept (a newer writer's), never acted on. */
export interface UnknownEvent extends EventLocation {
  readonly op: 'unknown';
  readonly value: Readonly<Record<string, unknown>>;
}

export type AuditEvent = RemoveEvent | RestoreEvent | AcceptEvent | UnknownEvent;

export interface AuditConflict {
  readonly restore: RestoreEvent;
  readonly target: RemoveEvent;
}

export interface AuditFolder {
  /** Every well-formed event, files in name order, lines in file order. */
  readonly events: readonly AuditEvent[];
  /** Remove events no restore targets, in `events` order. */
  readonly effectiveRemovals: readonly RemoveEvent[];
  /** Instances marked "audited, nothing to remove", with who said so (one entry per accept event). */
  readonly accepted: readonly { readonly instanceId: string; readonly author: string; readonly id: string }[];
  /** Restores by someone other than the remover (the restore still applies). */
  readonly conflicts: readonly AuditConflict[];
  readonly problems: readonly Problem[];
}

// ---------------------------------------------------------------------------------------------
// Parsing

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property only: a key such as "__proto__" or "constructor" in data must not reach Object.prototype. */
function field(value: Fields, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const SHA_256_HEX = /^[0-9a-f]{64}$/;

/** The first thing wrong with a parsed line, or the event. */
function toEvent(value: unknown, location: EventLocation): AuditEvent | string {
  if (!isObject(value)) return 'an event must be a JSON object';
  if (field(value, 'v') !== AUDIT_SCHEMA_VERSION) return `unsupported schema version ${short(field(value, 'v'))} (this version reads v 1)`;
  const op = field(value, 'op');
  if (typeof op !== 'string') return '"op" must be a string';
  if (op !== 'remove' && op !== 'restore' && op !== 'accept') return { op: 'unknown', value, ...location };

  const id = field(value, 'id');
  if (typeof id !== 'string' || id === '') return '"id" must be a non-empty string';
  const author = field(value, 'author');
  if (typeof author !== 'string' || author === '') return '"author" must be a non-empty string';
  const at = field(value, 'at');
  if (typeof at !== 'string' || !ISO_8601.test(at) || Number.isNaN(Date.parse(at))) return '"at" must be an ISO-8601 date-time';

  if (op === 'restore') {
    const target = field(value, 'target');
    if (typeof target !== 'string' || target === '') return '"target" must be a non-empty string (the id of a remove event)';
    return { op, id, target, author, at, ...location };
  }
  const instanceId = field(value, 'instance_id');
  if (typeof instanceId !== 'string' || instanceId === '') return '"instance_id" must be a non-empty string';
  if (op === 'accept') return { op, id, instanceId, author, at, ...location };

  const layer = field(value, 'layer');
  if (layer !== 'core' && layer !== 'optional') return '"layer" must be "core" or "optional"';
  const model = field(value, 'model');
  if (model !== null && (typeof model !== 'string' || model === '')) return '"model" must be null or a non-empty string';
  if (layer === 'core' && model !== null) return '"model" must be null for a core removal';
  const filePath = field(value, 'path');
  if (typeof filePath !== 'string' || filePath === '') return '"path" must be a non-empty string';
  const start = field(value, 'start');
  const end = field(value, 'end');
  if (!Number.isSafeInteger(start) || (start as number) < 1) return '"start" must be a whole number ≥ 1';
  if (!Number.isSafeInteger(end) || (end as number) < (start as number)) return '"end" must be a whole number ≥ start';
  const reason = field(value, 'reason');
  if (typeof reason !== 'string' || reason === '') return '"reason" must be a non-empty string';
  const note = field(value, 'note');
  if (note !== null && typeof note !== 'string') return '"note" must be a string or null';
  const textSha = field(value, 'text_sha');
  if (textSha !== null && (typeof textSha !== 'string' || !SHA_256_HEX.test(textSha))) return '"text_sha" must be null or 64 lowercase hex digits';
  return { op, id, instanceId, layer, model, path: filePath, start: start as number, end: end as number, reason, note, author, at, textSha, ...location };
}

/** A value for a message, never long. */
function short(value: unknown): string {
  const text = value === undefined ? 'missing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

export interface ParsedAuditFile {
  readonly events: AuditEvent[];
  readonly problems: Problem[];
}

/**
 * Parses one audit file's text: one pass, one `JSON.parse` per line. A malformed line is an
 * error at its line and is skipped; a last line without a newline that does not parse is a torn
 * append: a warning, ignored, earlier events kept. Blank lines are skipped silently.
 */
export function parseAuditText(text: string, file: string): ParsedAuditFile {
  const events: AuditEvent[] = [];
  const problems: Problem[] = [];
  let lineStart = 0;
  let lineNumber = 0;
  while (lineStart < text.length) {
    lineNumber++;
    const newline = text.indexOf('\n', lineStart);
    const terminated = newline !== -1;
    const lineEnd = terminated ? newline : text.length;
    let line = text.slice(lineStart, lineEnd);
    lineStart = lineEnd + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (lineNumber === 1 && line.startsWith('\uFEFF')) line = line.slice(1);
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (!terminated) {
        problems.push({ file, line: lineNumber, severity: 'warning', code: 'audit-torn-line', message: 'last line is incomplete (a write was interrupted); it is ignored, earlier events stay' });
      } else {
        problems.push({ file, line: lineNumber, severity: 'error', code: 'audit-event-invalid', message: 'not valid JSON; the line is skipped' });
      }
      continue;
    }
    const event = toEvent(value, { file, line: lineNumber });
    if (typeof event === 'string') {
      const instanceId = isObject(value) ? field(value, 'instance_id') : undefined;
      problems.push({
        file,
        line: lineNumber,
        severity: 'error',
        code: 'audit-event-invalid',
        message: `invalid audit event: ${event}; the line is skipped`,
        ...(typeof instanceId === 'string' && instanceId !== '' ? { instanceId } : {}),
      });
      continue;
    }
    events.push(event);
  }
  return { events, problems };
}

/**
 * Folds every author's events (see the module comment). Duplicate ids — the same line merged
 * twice, or a hand copy — keep the first event and report the rest. A restore targeting an id
 * that is no remove event is reported and does nothing.
 */
export function foldAuditEvents(events: readonly AuditEvent[]): Omit<AuditFolder, 'events'> & { readonly events: AuditEvent[] } {
  const problems: Problem[] = [];
  const kept: AuditEvent[] = [];
  const byId = new Map<string, AuditEvent>();
  for (const event of events) {
    if (event.op === 'unknown') {
      kept.push(event);
      continue;
    }
    const earlier = byId.get(event.id);
    if (earlier !== undefined) {
      problems.push({
        file: event.file,
        line: event.line,
        severity: 'warning',
        code: 'audit-event-invalid',
        message: `duplicate event id ${short(event.id)} (first at ${earlier.file}:${earlier.line}); this line is ignored`,
      });
      continue;
    }
    byId.set(event.id, event);
    kept.push(event);
  }
  const restored = new Set<string>();
  const conflicts: AuditConflict[] = [];
  for (const event of kept) {
    if (event.op !== 'restore') continue;
    const target = byId.get(event.target);
    if (target === undefined || target.op !== 'remove') {
      problems.push({
        file: event.file,
        line: event.line,
        severity: 'warning',
        code: 'audit-event-invalid',
        message: `restore targets ${short(event.target)}, which is not a remove event; it does nothing`,
      });
      continue;
    }
    restored.add(target.id);
    if (target.author !== event.author) {
      conflicts.push({ restore: event, target });
      problems.push({
        file: event.file,
        line: event.line,
        severity: 'warning',
        code: 'audit-conflict',
        message: `${short(event.author)} restored a removal by ${short(target.author)} (${target.file}:${target.line})`,
        instanceId: target.instanceId,
      });
    }
  }
  const effectiveRemovals: RemoveEvent[] = [];
  const accepted: { instanceId: string; author: string; id: string }[] = [];
  for (const event of kept) {
    if (event.op === 'remove' && !restored.has(event.id)) effectiveRemovals.push(event);
    else if (event.op === 'accept') accepted.push({ instanceId: event.instanceId, author: event.author, id: event.id });
  }
  return { events: kept, effectiveRemovals, accepted, conflicts, problems };
}

/**
 * Reads every `*.jsonl` file of the audit folder (name order) and folds the events. A missing
 * folder is an empty audit, not a problem; an unreadable file is one `io-error`.
 */
export async function readAuditFolder(dir: string): Promise<AuditFolder> {
  let names: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    names = entries.filter((e) => e.isFile() && e.name.endsWith('.jsonl')).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], effectiveRemovals: [], accepted: [], conflicts: [], problems: [] };
    return { events: [], effectiveRemovals: [], accepted: [], conflicts: [], problems: [ioProblem(dir, error)] };
  }
  names.sort();
  const events: AuditEvent[] = [];
  const problems: Problem[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      problems.push(ioProblem(file, error));
      continue;
    }
    const parsed = parseAuditText(text, file);
    for (const event of parsed.events) events.push(event);
    for (const problem of parsed.problems) problems.push(problem);
  }
  const folded = foldAuditEvents(events);
  for (const problem of folded.problems) problems.push(problem);
  return { ...folded, problems };
}

/** The metric core's view of a remove event. */
export function toRemoval(event: RemoveEvent): Removal {
  return { layer: event.layer, model: event.model, path: event.path, start: event.start, end: event.end };
}

/** Effective removals grouped by instance, as the metric core takes them. */
export function removalsByInstance(removals: readonly RemoveEvent[]): Map<string, Removal[]> {
  const out = new Map<string, Removal[]>();
  for (const event of removals) {
    let list = out.get(event.instanceId);
    if (list === undefined) out.set(event.instanceId, (list = []));
    list.push(toRemoval(event));
  }
  return out;
}

/**
 * Per instance, the core lines each author's effective removals cover, for every author who
 * audited it: an author who only accepted the instance maps to an empty set. This is the
 * `removedByAuthor` input of the core's `authorAgreement` (pair it with the instance's resolved
 * core lines). Optional removals are not judged there, so they are left out.
 */
export function coreRemovalsByAuthor(audit: Pick<AuditFolder, 'effectiveRemovals' | 'accepted'>): Map<string, Map<string, LineSet>> {
  const spans = new Map<string, Map<string, { path: string; start: number; end: number }[]>>();
  const author = (instanceId: string, name: string): { path: string; start: number; end: number }[] => {
    let byAuthor = spans.get(instanceId);
    if (byAuthor === undefined) spans.set(instanceId, (byAuthor = new Map()));
    let list = byAuthor.get(name);
    if (list === undefined) byAuthor.set(name, (list = []));
    return list;
  };
  for (const event of audit.effectiveRemovals) {
    const list = author(event.instanceId, event.author);
    if (event.layer === 'core') list.push({ path: event.path, start: event.start, end: event.end });
  }
  for (const { instanceId, author: name } of audit.accepted) author(instanceId, name);
  const out = new Map<string, Map<string, LineSet>>();
  for (const [instanceId, byAuthor] of spans) {
    const lines = new Map<string, LineSet>();
    for (const [name, list] of byAuthor) lines.set(name, lineSetFrom(list));
    out.set(instanceId, lines);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Text hashes and drift

/**
 * The text of lines `start..end` (1-based, inclusive) of a file: split on `\n`, a trailing `\r`
 * dropped from each line, joined with `\n`. A final newline ends the last line rather than
 * starting an empty one; lines past the end of the file contribute nothing.
 */
export function removedText(fileText: string, start: number, end: number): string {
  const out: string[] = [];
  let lineStart = 0;
  for (let n = 1; n <= end && lineStart < fileText.length; n++) {
    const newline = fileText.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? fileText.length : newline;
    if (n >= start) {
      const line = fileText.slice(lineStart, lineEnd);
      out.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  return out.join('\n');
}

/** Hex SHA-256 of {@link removedText}: what a remove event records as `text_sha`. */
export function textSha(fileText: string, start: number, end: number): string {
  return createHash('sha256')
    .update(removedText(fileText, start, end), 'utf8')
    .digest('hex');
}

/**
 * Whether a removal still covers the text it was made on: `matches`, `drifted` (the snapshot
 * changed under it; the removal is flagged, never moved), or `unchecked` (no `text_sha` recorded).
 */
export function driftStatus(removal: Pick<RemoveEvent, 'start' | 'end' | 'textSha'>, fileText: string): 'matches' | 'drifted' | 'unchecked' {
  if (removal.textSha === null) return 'unchecked';
  return textSha(fileText, removal.start, removal.end) === removal.textSha ? 'matches' : 'drifted';
}

/** The problem reported for a drifted removal, located at its audit line. */
export function driftProblem(removal: RemoveEvent): Problem {
  return {
    file: removal.file,
    line: removal.line,
    severity: 'warning',
    code: 'audit-drifted',
    message: `the text of ${short(removal.path)} lines ${removal.start}–${removal.end} changed since it was removed; the removal is kept where it was`,
    instanceId: removal.instanceId,
  };
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Names Windows reserves whatever the extension; a log called `con.jsonl` could not be opened there. */
const RESERVED_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * An author name made safe as a file name on every platform: letters, digits, `.`, `_` and `-`
 * only (other runs become `-`), no leading dot or dash, at most 64 characters, never empty
 * (`unknown`) or a reserved device name.
 */
export function sanitizeAuthor(name: string): string {
  let safe = name
    .normalize('NFC')
    .trim()
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[.-]+/, '')
    .replace(/[.-]+$/, '');
  safe = Array.from(safe).slice(0, 64).join('');
  if (safe === '') return 'unknown';
  return RESERVED_NAMES.test(safe) ? `_${safe}` : safe;
}

/** `git config user.name` (no shell), else the OS user name, sanitised ({@link sanitizeAuthor}). */
export async function defaultAuthor(cwd?: string): Promise<string> {
  const fromGit = await new Promise<string>((resolve) => {
    execFile('git', ['config', 'user.name'], { cwd, timeout: 5_000, windowsHide: true }, (error, stdout) => resolve(error === null ? stdout.trim() : ''));
  });
  if (fromGit !== '') return sanitizeAuthor(fromGit);
  try {
    return sanitizeAuthor(os.userInfo().username);
  } catch {
    return 'unknown';
  }
}

export interface NewRemoval {
  readonly instanceId: string;
  readonly layer: 'core' | 'optional';
  readonly model: string | null;
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly reason: string;
  readonly note: string | null;
  readonly author: string;
  /** Hex SHA-256 of the removed text ({@link textSha}), or null when the snapshot file is unavailable. */
  readonly textSha: string | null;
}

/** Wire objects in the exact key order of the schema. */
export type AuditWireEvent =
  | {
      v: 1;
      op: 'remove';
      id: string;
      instance_id: string;
      layer: 'core' | 'optional';
      model: string | null;
      path: string;
      start: number;
      end: number;
      reason: string;
      note: string | null;
      author: string;
      at: string;
      text_sha: string | null;
    }
  | { v: 1; op: 'restore'; id: string; target: string; author: string; at: string }
  | { v: 1; op: 'accept'; id: string; instance_id: string; author: string; at: string };

export function removeEvent(removal: NewRemoval, at: Date = new Date(), id: string = randomUUID()): AuditWireEvent {
  return {
    v: 1,
    op: 'remove',
    id,
    instance_id: removal.instanceId,
    layer: removal.layer,
    model: removal.model,
    path: removal.path,
    start: removal.start,
    end: removal.end,
    reason: removal.reason,
    note: removal.note,
    author: removal.author,
    at: at.toISOString(),
    text_sha: removal.textSha,
  };
}

export function restoreEvent(target: string, author: string, at: Date = new Date(), id: string = randomUUID()): AuditWireEvent {
  return { v: 1, op: 'restore', id, target, author, at: at.toISOString() };
}

export function acceptEvent(instanceId: string, author: string, at: Date = new Date(), id: string = randomUUID()): AuditWireEvent {
  return { v: 1, op: 'accept', id, instance_id: instanceId, author, at: at.toISOString() };
}

/** The audit file of an author inside the audit folder. */
export function auditFileFor(dir: string, author: string): string {
  return path.join(dir, `${sanitizeAuthor(author)}.jsonl`);
}

/** Pause before deciding that a file's unterminated last line is a torn write rather than one in progress. */
const SETTLE_MS = 25;

/**
 * Whether the file ends inside a line that nobody is still writing. Another process's append can
 * be observed half-done (its size grows while the data is copied), so an unterminated end only
 * counts when it is still there, at the same size, a moment later. Should a writer be slower than
 * that, the cost is one blank line, which readers skip.
 */
async function endsMidLine(file: string): Promise<boolean> {
  const reader = await open(file, 'r');
  try {
    const lastByte = async (): Promise<{ size: number; newline: boolean }> => {
      const { size } = await reader.stat();
      if (size === 0) return { size, newline: true };
      const last = Buffer.alloc(1);
      await reader.read(last, 0, 1, size - 1);
      return { size, newline: last[0] === 0x0a };
    };
    const first = await lastByte();
    if (first.newline) return false;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const second = await lastByte();
    return !second.newline && second.size === first.size;
  } finally {
    await reader.close();
  }
}

/**
 * Appends one event as one line to `<dir>/<author>.jsonl`: the whole line in ONE `write` on a
 * handle opened for appending (O_APPEND, so concurrent writers' lines never interleave), then
 * `fsync`. When the file's last byte is not a newline (a torn earlier append), the line starts
 * with one, so the new event is never glued to the fragment; nothing is truncated or rewritten.
 * Returns the file written.
 */
export async function appendAuditEvent(dir: string, event: AuditWireEvent): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = auditFileFor(dir, event.author);
  // 'a' = O_APPEND | O_CREAT | O_WRONLY: the kernel puts every write at the current end.
  const handle = await open(file, 'a');
  try {
    const prefix = (await endsMidLine(file)) ? '\n' : '';
    const bytes = Buffer.from(`${prefix}${JSON.stringify(event)}\n`, 'utf8');
    const { bytesWritten } = await handle.write(bytes, 0, bytes.length, null);
    // A short write on a local file means the disk is full; a second write could interleave with
    // another writer's line, so the torn line is left for the reader to report.
    if (bytesWritten !== bytes.length) throw new Error(`audit append to ${file} was cut short (${bytesWritten} of ${bytes.length} bytes)`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return file;
}
