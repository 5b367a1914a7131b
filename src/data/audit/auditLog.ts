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
 * nothing is ever truncated or rewritten, and nothing is written through a link (the workspace's
 * data must not be able to redirect an append out of it). Reading never throws on content: bad
 * lines become problems located at file:line and are skipped; unknown ops and fields are kept and
 * ignored; a log that is not a regular file, an event in another author's name and an id naming
 * two events are errors, never skipped or resolved silently.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, type FileHandle } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { lineSetFrom, type LineSet, type Removal } from '../../core';
import { readLines } from '../io/lineReader';
import { checkFolderChain, errnoCode, isWithin, kindOf } from '../io/paths';
import { isRecord } from '../../shared/guards';
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
  /**
   * Ids that name different events (in different files, or twice in one file with different
   * content): none of those events takes effect until a person removes the wrong one. Each is an
   * error in `problems`.
   */
  readonly disputedIds: readonly DisputedId[];
  readonly problems: readonly Problem[];
}

export interface DisputedId {
  readonly id: string;
  /** Every event that carries the id, in read order. */
  readonly events: readonly AuditEvent[];
}

/** An audit with nothing in it. */
export const EMPTY_AUDIT_FOLDER: AuditFolder = { events: [], effectiveRemovals: [], accepted: [], conflicts: [], disputedIds: [], problems: [] };

// ---------------------------------------------------------------------------------------------
// Parsing

type Fields = Record<string, unknown>;

/** Own property only: a key such as "__proto__" or "constructor" in data must not reach Object.prototype. */
function field(value: Fields, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const SHA_256_HEX = /^[0-9a-f]{64}$/;

/** The first thing wrong with a parsed line, or the event. */
function toEvent(value: unknown, location: EventLocation): AuditEvent | string {
  if (!isRecord(value)) return 'an event must be a JSON object';
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

/** Turns the lines of one audit file into events and located problems (see {@link parseAuditText}). */
class AuditLineParser {
  readonly events: AuditEvent[] = [];
  readonly problems: Problem[] = [];

  constructor(private readonly file: string) {}

  push(text: string, lineNumber: number, terminated: boolean): void {
    const file = this.file;
    let line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (lineNumber === 1 && line.startsWith('\uFEFF')) line = line.slice(1);
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (!terminated) {
        this.problems.push({ file, line: lineNumber, severity: 'warning', code: 'audit-torn-line', message: 'last line is incomplete (a write was interrupted); it is ignored, earlier events stay' });
      } else {
        this.problems.push({ file, line: lineNumber, severity: 'error', code: 'audit-event-invalid', message: 'not valid JSON; the line is skipped' });
      }
      return;
    }
    const event = toEvent(value, { file, line: lineNumber });
    if (typeof event === 'string') {
      const instanceId = isRecord(value) ? field(value, 'instance_id') : undefined;
      this.problems.push({
        file,
        line: lineNumber,
        severity: 'error',
        code: 'audit-event-invalid',
        message: `invalid audit event: ${event}; the line is skipped`,
        ...(typeof instanceId === 'string' && instanceId !== '' ? { instanceId } : {}),
      });
      return;
    }
    this.events.push(event);
  }

  tooLong(lineNumber: number, bytes: number, limit: number): void {
    this.problems.push({
      file: this.file,
      line: lineNumber,
      severity: 'error',
      code: 'audit-event-invalid',
      message: `the line is ${bytes} bytes, longer than the ${limit}-byte limit; it is skipped`,
    });
  }
}

/**
 * Parses one audit file's text: one pass, one `JSON.parse` per line. A malformed line is an
 * error at its line and is skipped; a last line without a newline that does not parse is a torn
 * append: a warning, ignored, earlier events kept. Blank lines are skipped silently.
 */
export function parseAuditText(text: string, file: string): ParsedAuditFile {
  const parser = new AuditLineParser(file);
  let lineStart = 0;
  let lineNumber = 0;
  while (lineStart < text.length) {
    lineNumber++;
    const newline = text.indexOf('\n', lineStart);
    const terminated = newline !== -1;
    const lineEnd = terminated ? newline : text.length;
    parser.push(text.slice(lineStart, lineEnd), lineNumber, terminated);
    lineStart = lineEnd + 1;
  }
  return { events: parser.events, problems: parser.problems };
}

/** An event's content without where it was read, to tell a line merged twice from a reused id. */
function sameContent(a: AuditEvent, b: AuditEvent): boolean {
  const content = (event: AuditEvent): string => JSON.stringify({ ...event, file: undefined, line: undefined });
  return content(a) === content(b);
}

/**
 * Folds every author's events (see the module comment).
 *
 * Ids: the same event twice in one file (a line merged twice) counts once, with a warning. An id
 * that names two different events — in two files, or with different content — is a conflict:
 * an error at every place it occurs, and none of those events takes effect (the first one read is
 * not "right": a file named to sort first could otherwise replace another author's event). A
 * restore targeting an id that is no remove event (or a disputed one) is reported and does nothing.
 *
 * Restores by another author than the remover still apply (anyone may undo a removal) and are
 * reported as `conflicts`.
 */
export function foldAuditEvents(events: readonly AuditEvent[]): Omit<AuditFolder, 'events'> & { readonly events: AuditEvent[] } {
  const problems: Problem[] = [];
  const firstById = new Map<string, AuditEvent>();
  const disputed = new Map<string, AuditEvent[]>();
  const distinct: AuditEvent[] = [];
  for (const event of events) {
    if (event.op === 'unknown') {
      distinct.push(event);
      continue;
    }
    const earlier = firstById.get(event.id);
    if (earlier === undefined) {
      firstById.set(event.id, event);
      distinct.push(event);
      continue;
    }
    if (earlier.file === event.file && sameContent(earlier, event) && !disputed.has(event.id)) {
      problems.push({
        file: event.file,
        line: event.line,
        severity: 'warning',
        code: 'audit-event-invalid',
        message: `the event ${short(event.id)} is repeated (first at line ${earlier.line}); this line is ignored`,
      });
      continue;
    }
    let list = disputed.get(event.id);
    if (list === undefined) disputed.set(event.id, (list = [earlier]));
    list.push(event);
  }
  const disputedIds: DisputedId[] = [];
  for (const [id, list] of disputed) {
    disputedIds.push({ id, events: list });
    for (const event of list) {
      const others = list.filter((e) => e !== event).map((e) => `${e.file}:${e.line}${'author' in e ? ` (${short(e.author)})` : ''}`);
      problems.push({
        file: event.file,
        line: event.line,
        severity: 'error',
        code: 'audit-duplicate-id',
        message: `event id ${short(id)} is also used at ${others.join(', ')}; an id names one event, so none of them takes effect until the wrong one is removed by hand`,
        ...('instanceId' in event ? { instanceId: event.instanceId } : {}),
      });
    }
  }
  const kept = distinct.filter((event) => event.op === 'unknown' || !disputed.has(event.id));
  const byId = new Map<string, AuditEvent>();
  for (const event of kept) if (event.op !== 'unknown') byId.set(event.id, event);
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
        message: disputed.has(event.target)
          ? `restore targets ${short(event.target)}, an id in conflict (see the audit-duplicate-id errors); it does nothing`
          : `restore targets ${short(event.target)}, which is not a remove event; it does nothing`,
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
  return { events: kept, effectiveRemovals, accepted, conflicts, disputedIds, problems };
}

/**
 * The folder below which no path component of the audit folder may be a link: the workspace root
 * for `<root>/.swe-explore/audit`, else the audit folder's parent (a folder given on a command
 * line).
 */
export function auditRootOf(dir: string): string {
  const resolved = path.resolve(dir);
  const parts = AUDIT_FOLDER.split(path.sep);
  let root = resolved;
  for (let i = parts.length - 1; i >= 0; i--) {
    if (path.basename(root) !== parts[i]) return path.dirname(resolved);
    root = path.dirname(root);
  }
  return root;
}

/** Thrown when the audit log cannot be written safely; the message says why, naming the path. */
export class AuditWriteRefusedError extends Error {}

export interface AuditReadOptions {
  /** The folder below which no component of the audit folder may be a link (default {@link auditRootOf}). */
  readonly root?: string;
}

/**
 * Reads every `*.jsonl` file of the audit folder (name order), streaming, and folds the events.
 * A missing folder is an empty audit, not a problem. Nothing is skipped silently: an audit folder
 * reached through a link, and a `*.jsonl` entry that is not a regular file (a link, a FIFO, a
 * folder), are errors naming the path (their content is never read); an event whose `author` is
 * not its file's author is an error and does nothing (one author cannot write in another's name);
 * an unreadable file is one `io-error`.
 */
export async function readAuditFolder(dir: string, options: AuditReadOptions = {}): Promise<AuditFolder> {
  const refused = (file: string, message: string): AuditFolder => ({ ...EMPTY_AUDIT_FOLDER, problems: [{ file, line: 0, severity: 'error', code: 'audit-file-refused', message }] });
  try {
    const chain = await checkFolderChain(options.root ?? auditRootOf(dir), dir, false);
    if (!chain.ok) return chain.missing ? EMPTY_AUDIT_FOLDER : refused(dir, `${chain.message}; the audit is not read`);
  } catch (error) {
    return { ...EMPTY_AUDIT_FOLDER, problems: [ioProblem(dir, error)] };
  }
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return EMPTY_AUDIT_FOLDER;
    return { ...EMPTY_AUDIT_FOLDER, problems: [ioProblem(dir, error)] };
  }
  entries = entries.filter((e) => e.name.endsWith('.jsonl')).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const events: AuditEvent[] = [];
  const problems: Problem[] = [];
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (!entry.isFile()) {
      problems.push({ file, line: 0, severity: 'error', code: 'audit-file-refused', message: `the audit log is ${kindOf(entry)}, not a regular file; it is not read` });
      continue;
    }
    const parser = new AuditLineParser(file);
    try {
      await readLines(
        file,
        { line: (bytes, line, terminated) => parser.push(bytes.toString('utf8'), line, terminated), tooLong: (line, bytes, limit) => parser.tooLong(line, bytes, limit) },
        { noFollow: true },
      );
    } catch (error) {
      problems.push(
        errnoCode(error) === 'ELOOP'
          ? { file, line: 0, severity: 'error', code: 'audit-file-refused', message: 'the audit log is a symbolic link, not a regular file; it is not read' }
          : ioProblem(file, error),
      );
      continue;
    }
    const owner = entry.name.slice(0, -'.jsonl'.length);
    for (const event of parser.events) {
      if (event.op !== 'unknown' && sanitizeAuthor(event.author) !== owner) {
        problems.push({
          file,
          line: event.line,
          severity: 'error',
          code: 'audit-author-mismatch',
          message: `the event claims author ${short(event.author)}, but ${entry.name} holds ${short(owner)}'s events; it does nothing`,
          ...('instanceId' in event ? { instanceId: event.instanceId } : {}),
        });
        continue;
      }
      events.push(event);
    }
    for (const problem of parser.problems) problems.push(problem);
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

/**
 * Hex SHA-256 of {@link removedText}: what a remove event records as `text_sha`. The definition;
 * files are hashed streaming by `streamedTextShas` (drift.ts), which gives the same value.
 */
export function textSha(fileText: string, start: number, end: number): string {
  return createHash('sha256')
    .update(removedText(fileText, start, end), 'utf8')
    .digest('hex');
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
 * that, the cost is one blank line, which readers skip. Read through the handle that will be
 * written, so the file checked is the file written.
 */
async function endsMidLine(handle: FileHandle): Promise<boolean> {
  const lastByte = async (): Promise<{ size: number; newline: boolean }> => {
    const { size } = await handle.stat();
    if (size === 0) return { size, newline: true };
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return { size, newline: last[0] === 0x0a };
  };
  const first = await lastByte();
  if (first.newline) return false;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const second = await lastByte();
  return !second.newline && second.size === first.size;
}

/**
 * O_APPEND: the kernel puts every write at the current end, so concurrent writers' lines never
 * interleave. O_NOFOLLOW: a symlinked log is refused (ELOOP) instead of followed. O_NONBLOCK: a
 * FIFO in its place opens at once (and is then refused) instead of hanging. Read-write so the
 * last byte is checked through the same descriptor that is written.
 */
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Opens `<dir>/<name>` for appending after checking that nothing redirects the write out of the
 * workspace: every folder from `root` down to `dir` is a real folder (created one by one, never
 * through a link), the log itself is not a link (O_NOFOLLOW), and the opened file is a regular
 * file with no other hard link whose path inside the real workspace is the file opened.
 */
async function openAuditFileForAppend(root: string, dir: string, file: string): Promise<FileHandle> {
  // The workspace folder itself is trusted (it may well be a link); only what lies below it is checked.
  await mkdir(root, { recursive: true });
  const chain = await checkFolderChain(root, dir, true);
  if (!chain.ok) throw new AuditWriteRefusedError(`refusing to write the audit log: ${chain.message}`);
  let handle: FileHandle;
  try {
    handle = await open(file, APPEND_FLAGS, 0o644);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP')
      throw new AuditWriteRefusedError(`refusing to write the audit log: ${file} is a symbolic link; the audit log is only appended to a regular file inside the workspace`);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new AuditWriteRefusedError(`refusing to write the audit log: ${file} is ${kindOf(info)}, not a regular file`);
    if (info.nlink !== 1) throw new AuditWriteRefusedError(`refusing to write the audit log: ${file} has another hard link (it could be a file outside the workspace)`);
    // The file opened must be the one at the checked path inside the real workspace (no folder swapped meanwhile).
    const realRoot = await realpath(root);
    const expected = path.join(realRoot, path.relative(path.resolve(root), path.resolve(file)));
    const there = await lstat(expected).catch(() => undefined);
    if (there === undefined || there.isSymbolicLink() || there.dev !== info.dev || there.ino !== info.ino || !isWithin(realRoot, expected)) {
      throw new AuditWriteRefusedError(`refusing to write the audit log: ${file} is not the file at ${expected} inside the workspace`);
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Appends one event as one line to `<dir>/<author>.jsonl`: the whole line in ONE `write` on a
 * handle opened for appending (O_APPEND, so concurrent writers' lines never interleave), then
 * `fsync`. When the file's last byte is not a newline (a torn earlier append), the line starts
 * with one, so the new event is never glued to the fragment; nothing is truncated or rewritten.
 * Refuses ({@link AuditWriteRefusedError}) to write through a link: see {@link openAuditFileForAppend};
 * `root` is the workspace folder (default {@link auditRootOf}). Returns the file written.
 */
export async function appendAuditEvent(dir: string, event: AuditWireEvent, root: string = auditRootOf(dir)): Promise<string> {
  const file = auditFileFor(dir, event.author);
  const handle = await openAuditFileForAppend(root, dir, file);
  try {
    const prefix = (await endsMidLine(handle)) ? '\n' : '';
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
