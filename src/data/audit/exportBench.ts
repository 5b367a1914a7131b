/**
 * The corrected bench: the bench file with audited spans removed from the ground truth.
 *
 * Every record is written exactly as read except the `ground_truth` lists a removal changed, and
 * those are replaced by splicing new JSON text into the record's own line: unknown fields, key
 * order, number spelling and unicode escapes elsewhere stay byte-identical, and inside a changed
 * region list the untouched region objects are copied byte-for-byte too. The bench file itself
 * is never modified; the result goes to a new file via {@link writeFileAtomically}.
 */
import { randomUUID } from 'node:crypto';
import { open, realpath, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { applyRemovals, type GroundTruth, type LineCounts, type Region, type Removal } from '../../core';
import { toGroundTruth } from '../formats/records';
import { errnoCode, isWithin } from '../io/paths';
import type { BenchRecord } from '../formats/schemas';

/** One bench line as read: its exact text and the record parsed from it. */
export interface BenchLine {
  readonly raw: string;
  readonly record: Pick<BenchRecord, 'instance_id' | 'ground_truth'>;
}

/**
 * Corrected bench lines, in the original order (see the module comment). `removalsByInstance`
 * holds the effective removals; `lineCountsByInstance` the counts used to resolve `end = -1` and
 * tail regions that a removal touches (the active profile's counts).
 */
export function exportCorrectedBench(lines: readonly BenchLine[], removalsByInstance: ReadonlyMap<string, readonly Removal[]>, lineCountsByInstance: ReadonlyMap<string, LineCounts>): string[] {
  const out: string[] = [];
  for (const { raw, record } of lines) {
    const removals = removalsByInstance.get(record.instance_id);
    if (removals === undefined || removals.length === 0) {
      out.push(raw);
      continue;
    }
    const before = toGroundTruth(record);
    const after = applyRemovals(before, removals, lineCountsByInstance.get(record.instance_id) ?? new Map<string, number>());
    out.push(spliceGroundTruth(raw, before, after));
  }
  return out;
}

/** A replacement of `raw.slice(start, end)`. */
interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** How the record's JSON separates items and keys: Python's `json.dumps` writes `", "` and `": "`. */
interface JsonStyle {
  readonly comma: string;
  readonly colon: string;
}

/**
 * The record line with the `ground_truth` lists that differ between `before` and `after` spliced
 * in (see the module comment), and, when `meta` is given, each of its keys that the record's
 * `meta` object holds set to the given number (other `meta` members and key order kept).
 * Everything else stays byte-for-byte.
 */
export function spliceGroundTruth(raw: string, before: GroundTruth, after: GroundTruth, meta?: ReadonlyMap<string, number>): string {
  const top = memberSpans(raw, skipWs(raw, 0));
  const gtSpan = top.get('ground_truth');
  if (gtSpan === undefined) return raw;
  const gt = memberSpans(raw, gtSpan.start);
  const style = detectStyle(raw, gtSpan.start, gtSpan.end);
  const splices: Splice[] = [];

  const regionList = (regionsBefore: readonly Region[], regionsAfter: readonly Region[] | undefined, span: Span | undefined): void => {
    if (span === undefined || regionsAfter === undefined || sameItems(regionsBefore, regionsAfter)) return;
    splices.push({ start: span.start, end: span.end, text: regionsText(raw, span, regionsBefore, regionsAfter, style) });
  };
  const pathList = (listBefore: readonly string[], listAfter: readonly string[] | undefined, span: Span | undefined): void => {
    if (span === undefined || listAfter === undefined || sameItems(listBefore, listAfter)) return;
    splices.push({ start: span.start, end: span.end, text: pathsText(raw, span, listAfter, style) });
  };

  regionList(before.coreRegions, after.coreRegions, gt.get('read_core_regions'));
  pathList(before.coreFiles, after.coreFiles, gt.get('read_core_files'));
  pathList(before.mainFiles, after.mainFiles, gt.get('main_files'));
  const optionalRegions = gt.get('read_optional_regions_map');
  if (optionalRegions !== undefined) {
    const models = memberSpans(raw, optionalRegions.start);
    for (const [model, span] of models) {
      regionList(before.optionalRegionsByModel[model] ?? [], ownValue(after.optionalRegionsByModel, model), span);
    }
  }
  const optionalFiles = gt.get('read_optional_files_map');
  if (optionalFiles !== undefined) {
    for (const [model, span] of memberSpans(raw, optionalFiles.start)) {
      pathList(before.optionalFilesByModel[model] ?? [], ownValue(after.optionalFilesByModel, model), span);
    }
  }
  const metaSpan = top.get('meta');
  if (meta !== undefined && metaSpan !== undefined) {
    for (const [key, span] of memberSpans(raw, metaSpan.start)) {
      const value = meta.get(key);
      if (value !== undefined && raw.slice(span.start, span.end) !== String(value)) splices.push({ start: span.start, end: span.end, text: String(value) });
    }
  }
  if (splices.length === 0) return raw;
  splices.sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const splice of splices) {
    out += raw.slice(cursor, splice.start) + splice.text;
    cursor = splice.end;
  }
  return out + raw.slice(cursor);
}

function ownValue<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The new text of a region list: regions kept as they were (the same objects `toGroundTruth`
 * made from the list's elements) are copied from the original text; new pieces are written as
 * `{"path": <the original path token>, "start": s, "end": e}` in the record's style.
 */
function regionsText(raw: string, span: Span, regionsBefore: readonly Region[], regionsAfter: readonly Region[], style: JsonStyle): string {
  const elements = elementSpans(raw, span.start);
  const index = new Map<Region, number>();
  // Elements and regions correspond one to one (toGroundTruth keeps order and duplicates); if
  // they ever did not, every region is written fresh rather than copied from the wrong element.
  if (elements.length === regionsBefore.length) regionsBefore.forEach((region, i) => index.set(region, i));
  const pathToken = new Map<string, string>();
  regionsBefore.forEach((region, i) => {
    if (pathToken.has(region.path)) return;
    const element = elements[i];
    const token = element === undefined ? undefined : memberSpans(raw, element.start).get('path');
    const text = token === undefined ? undefined : raw.slice(token.start, token.end);
    if (text !== undefined && decodeString(text) === region.path) pathToken.set(region.path, text);
  });
  const items: string[] = [];
  for (const region of regionsAfter) {
    const i = index.get(region);
    const element = i === undefined ? undefined : elements[i];
    if (element !== undefined) {
      items.push(raw.slice(element.start, element.end));
    } else {
      const token = pathToken.get(region.path) ?? JSON.stringify(region.path);
      items.push(`{"path"${style.colon}${token}${style.comma}"start"${style.colon}${region.start}${style.comma}"end"${style.colon}${region.end}}`);
    }
  }
  return `[${items.join(style.comma)}]`;
}

/** The new text of a path list (always a subsequence of the old one): kept items copied as written. */
function pathsText(raw: string, span: Span, listAfter: readonly string[], style: JsonStyle): string {
  const elements = elementSpans(raw, span.start);
  const items: string[] = [];
  let j = 0;
  for (const element of elements) {
    if (j >= listAfter.length) break;
    const text = raw.slice(element.start, element.end);
    if (decodeString(text) === listAfter[j]) {
      items.push(text);
      j++;
    }
  }
  // Defensive: should the lists ever disagree, write the remainder fresh rather than lose it.
  for (; j < listAfter.length; j++) items.push(JSON.stringify(listAfter[j]));
  return `[${items.join(style.comma)}]`;
}

function decodeString(token: string): string | undefined {
  if (!token.startsWith('"')) return undefined;
  if (!token.includes('\\')) return token.slice(1, -1);
  try {
    const value: unknown = JSON.parse(token);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// A one-pass scanner over text that JSON.parse already accepted: it only needs to find where
// values start and end, iteratively (no recursion, so deep nesting cannot exhaust the stack).

interface Span {
  readonly start: number;
  readonly end: number;
}

function skipWs(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** Offset just past the string starting at `i` (a `"`). */
function skipString(text: string, i: number): number {
  i++;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return i;
}

/** Offset just past the value starting at `i`. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    while (i < text.length) {
      const d = text.charCodeAt(i);
      if (d === 0x22) {
        i = skipString(text, i);
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  // number, true, false, null
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) break;
    i++;
  }
  return i;
}

/**
 * Value spans of the members of the object starting at `at` (empty when it is not an object).
 * With a duplicate key the last one wins, as in `JSON.parse`.
 */
function memberSpans(text: string, at: number): Map<string, Span> {
  const out = new Map<string, Span>();
  if (text.charCodeAt(at) !== 0x7b) return out;
  let i = skipWs(text, at + 1);
  while (i < text.length && text.charCodeAt(i) === 0x22) {
    const keyEnd = skipString(text, i);
    const key = decodeString(text.slice(i, keyEnd));
    i = skipWs(text, keyEnd);
    i = skipWs(text, i + 1); // past ':'
    const end = skipValue(text, i);
    if (key !== undefined) out.set(key, { start: i, end });
    i = skipWs(text, end);
    if (text.charCodeAt(i) !== 0x2c) break;
    i = skipWs(text, i + 1);
  }
  return out;
}

/** Spans of the elements of the array starting at `at` (empty when it is not an array). */
function elementSpans(text: string, at: number): Span[] {
  const out: Span[] = [];
  if (text.charCodeAt(at) !== 0x5b) return out;
  let i = skipWs(text, at + 1);
  if (text.charCodeAt(i) === 0x5d) return out;
  while (i < text.length) {
    const end = skipValue(text, i);
    out.push({ start: i, end });
    i = skipWs(text, end);
    if (text.charCodeAt(i) !== 0x2c) break;
    i = skipWs(text, i + 1);
  }
  return out;
}

/** The separators used in `text[start, end)`: the first `,` and `:` outside strings, and whether a space follows them. */
function detectStyle(text: string, start: number, end: number): JsonStyle {
  let comma: string | undefined;
  let colon: string | undefined;
  for (let i = start; i < end && (comma === undefined || colon === undefined);) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = skipString(text, i);
      continue;
    }
    if (c === 0x2c && comma === undefined) comma = text.charCodeAt(i + 1) === 0x20 ? ', ' : ',';
    if (c === 0x3a && colon === undefined) colon = text.charCodeAt(i + 1) === 0x20 ? ': ' : ':';
    i++;
  }
  // The release's records are Python json.dumps output; use its separators when nothing tells.
  return { comma: comma ?? ', ', colon: colon ?? ': ' };
}

// ---------------------------------------------------------------------------------------------

/** What an atomic write receives: whole text, or a producer that writes the content piece by piece. */
export type FileContent = string | ((write: (piece: Buffer | string) => Promise<void>) => Promise<void>);

/**
 * Writes `content` to `filePath` so that readers see the old file or the new one, never a mix:
 * a temporary file in the same folder, fsynced, then renamed into place (the folder is fsynced
 * too where the platform allows). On failure the temporary file is removed.
 */
export async function writeFileAtomically(filePath: string, content: FileContent): Promise<void> {
  const dir = path.dirname(filePath);
  const temp = path.join(dir, `.${path.basename(filePath)}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    try {
      if (typeof content === 'string') await handle.writeFile(content, 'utf8');
      else
        await content(async (piece) => {
          await handle.write(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece);
        });
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, filePath);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  try {
    const dirHandle = await open(dir, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  } catch {
    // Directories cannot be opened or fsynced on every platform (Windows); the rename stands.
  }
}

/** The real path `p` names, or will name once created: its folder resolved, symlinks and `..` included. */
export async function realTarget(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  // A new file (or a dangling link, which the rename replaces): where its folder really is.
  try {
    return path.join(await realpath(path.dirname(p)), path.basename(p));
  } catch {
    return path.resolve(p);
  }
}

/**
 * Why an export must not write `output`, or `undefined` when it may: the bench file itself (the
 * bench is never modified) and anything inside the audit folder (an export must never replace an
 * audit log) are refused, compared by real path so a symlink or a `..` cannot get around it.
 */
export async function exportTargetRefusal(output: string, benchFile: string, auditDir: string): Promise<string | undefined> {
  const target = await realTarget(output);
  if (target === (await realTarget(benchFile))) return 'names the bench file itself; the bench is never modified';
  const audit = await realTarget(auditDir);
  if (isWithin(audit, target)) return `lies inside the audit folder ${auditDir}; an export never writes there`;
  return undefined;
}
