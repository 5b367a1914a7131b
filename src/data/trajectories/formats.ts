/**
 * The trajectory format registry: one file in, its content parsed once (one JSON value, or JSON
 * lines), the readers' sniffers tried in a fixed order, the first match reads it into the one model
 * (src/core/trajectories/types.ts). An unknown format is one problem naming the file and the formats
 * tried; nothing here throws on bad data.
 *
 * Adding a format is one line in {@link FORMAT_READERS} (before the fallbacks), or one entry in the
 * converters' `CONVERTERS`.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import type { Trajectory } from '../../core/trajectories/types';
import { findJsonSyntaxError, replaceNonFiniteTokens } from '../io/jsonScan';
import { ioProblem, type Problem } from '../io/problems';
import { openRegularFile } from '../io/regularFile';
import { CONVERTERS } from './convert';
import { miniSweAgentV11Reader, miniSweAgentV1Reader, TrajectoryReadError, unifiedReader, unifiedWithoutTrajReader } from './native';
import type { TrajectoryContent, TrajectoryReader } from './reader';

/**
 * Readers of a recognisable layout, tried in this order (the first whose sniff accepts the content
 * reads it): the native formats, then the converters of ./convert (SWE-agent, OpenHands, Claude
 * Code, OpenCode), whose sniffers accept disjoint shapes and never a native one. A new format is
 * one line here (or one entry in `CONVERTERS`).
 */
export const FORMAT_READERS: readonly TrajectoryReader[] = [unifiedReader, miniSweAgentV1Reader, miniSweAgentV11Reader, ...CONVERTERS];

/** Readers for content no format claimed, tried last. */
export const FALLBACK_READERS: readonly TrajectoryReader[] = [unifiedWithoutTrajReader];

/** Every reader in the order tried. */
export const TRAJECTORY_READERS: readonly TrajectoryReader[] = [...FORMAT_READERS, ...FALLBACK_READERS];

/**
 * Files over this size are not read (one problem). A run is about 2 MB; a whole file is parsed in
 * one synchronous step (about 10 ms per 2 MB), so very large files would stall an editor.
 */
export const DEFAULT_MAX_TRAJECTORY_BYTES = 128 * 1024 * 1024;

export interface TrajectoryParse {
  readonly content?: TrajectoryContent;
  /** Why the text is not JSON (nor JSON lines), when it is not. */
  readonly error?: string;
  /** Python's `NaN` / `Infinity` tokens were read as `null`. */
  readonly nonFinite?: boolean;
}

function parseJson(text: string): { value: unknown; nonFinite: boolean } | undefined {
  try {
    return { value: JSON.parse(text), nonFinite: false };
  } catch {
    // Python's json module (the builder's) accepts NaN and Infinity; read them as null.
    const replaced = replaceNonFiniteTokens(text);
    if (replaced === undefined) return undefined;
    try {
      return { value: JSON.parse(replaced), nonFinite: true };
    } catch {
      return undefined;
    }
  }
}

/** JSON lines, each line given by `lineAt` (its text without `\n`; undefined past the last). */
function parseLines(lineAt: (index: number) => string | undefined): { content: TrajectoryContent; nonFinite: boolean } {
  const values: unknown[] = [];
  const badLines: number[] = [];
  let nonFinite = false;
  for (let line = 1, raw = lineAt(0); raw !== undefined; raw = lineAt(line++)) {
    const item = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (item.trim() === '') continue;
    const parsed = parseJson(item);
    if (parsed === undefined) badLines.push(line);
    else {
      values.push(parsed.value);
      nonFinite ||= parsed.nonFinite;
    }
  }
  return { content: { kind: 'jsonl', values, badLines }, nonFinite };
}

function parseJsonLines(text: string): { content: TrajectoryContent; nonFinite: boolean } {
  const lines = text.split('\n');
  return parseLines((index) => lines[index]);
}

/**
 * The text of the UTF-8 bytes `bytes[start, end)`. ASCII (most runs) is decoded as Latin-1, which
 * gives the same string: about half the decoding time, and V8 parses the result as JSON about a
 * quarter faster (measured on a 2 MB ASCII buffer: 1.1 → 0.6 ms to decode, 4.4 → 3.3 ms to decode and parse).
 */
function decodeUtf8(bytes: Buffer, start = 0, end = bytes.length): string {
  return isAscii(bytes.subarray(start, end)) ? bytes.toString('latin1', start, end) : bytes.toString('utf8', start, end);
}

/**
 * {@link parseJsonLines} of the UTF-8 text in `bytes`, decoding one line at a time: the same lines
 * (a `\n` byte is never inside a multi-byte character), without the whole text as one string
 * (two bytes a character once a single one is not Latin-1, for a Claude Code log's `→`).
 */
function parseJsonLinesOfBytes(bytes: Buffer): { content: TrajectoryContent; nonFinite: boolean } {
  let next = 0;
  return parseLines(() => {
    if (next > bytes.length) return undefined;
    const newline = bytes.indexOf(0x0a, next);
    const end = newline === -1 ? bytes.length : newline;
    const line = decodeUtf8(bytes, next, end);
    next = end + 1;
    return line;
  });
}

/**
 * Parses a trajectory file's text once: a `.jsonl` file is always JSON lines; anything else is one
 * JSON value when it parses as one, else JSON lines when its first non-blank line is JSON, else an
 * error. (A one-line JSON-lines file without the `.jsonl` extension therefore reads as one JSON
 * value: readers of line formats accept both kinds.) A leading byte-order mark is refused, as the
 * builder's `json.load` refuses it.
 */
export function parseTrajectoryText(text: string, fileName: string): TrajectoryParse {
  if (text.startsWith('\ufeff')) return { error: 'starts with a UTF-8 byte-order mark, which the builder cannot read' };
  if (fileName.toLowerCase().endsWith('.jsonl')) {
    const { content, nonFinite } = parseJsonLines(text);
    return { content, nonFinite };
  }
  const whole = parseJson(text);
  if (whole !== undefined) return { content: { kind: 'json', value: whole.value }, nonFinite: whole.nonFinite };
  const firstLine = text.split('\n').find((l) => l.trim() !== '');
  if (firstLine !== undefined && parseJson(firstLine.endsWith('\r') ? firstLine.slice(0, -1) : firstLine) !== undefined && text.trim().includes('\n')) {
    const { content, nonFinite } = parseJsonLines(text);
    return { content, nonFinite };
  }
  const syntax = findJsonSyntaxError(text);
  return { error: syntax === undefined ? 'not valid JSON' : `not valid JSON (at offset ${syntax.offset}: ${syntax.message})` };
}

/** {@link parseTrajectoryText} of the UTF-8 text in `bytes` (checked to be UTF-8); a `.jsonl` file is decoded line by line. */
export function parseTrajectoryBytes(bytes: Buffer, fileName: string): TrajectoryParse {
  if (fileName.toLowerCase().endsWith('.jsonl') && !(bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    const { content, nonFinite } = parseJsonLinesOfBytes(bytes);
    return { content, nonFinite };
  }
  return parseTrajectoryText(decodeUtf8(bytes), fileName);
}

/** Which reader reads a parsed content (the first whose sniff accepts it), if any. */
export function sniffTrajectory(content: TrajectoryContent, readers: readonly TrajectoryReader[] = TRAJECTORY_READERS): TrajectoryReader | undefined {
  for (const reader of readers) {
    try {
      if (reader.sniff(content)) return reader;
    } catch {
      // A sniffer that trips on odd content simply does not claim it.
    }
  }
  return undefined;
}

export interface TrajectoryFileResult {
  readonly file: string;
  /** Undefined when the file could not be read (see `problems`). */
  readonly trajectory?: Trajectory;
  readonly reader?: TrajectoryReader;
  /** File size in bytes (0 when it could not be opened). */
  readonly size: number;
  readonly problems: readonly Problem[];
}

export interface TrajectoryReadOptions {
  readonly maxBytes?: number;
  readonly readers?: readonly TrajectoryReader[];
}

function fileProblem(file: string, code: Problem['code'], message: string, severity: Problem['severity'] = 'error'): Problem {
  return { file, line: 0, severity, code, message };
}

/** Names of the formats tried, for the unknown-format problem. */
function formatsTried(readers: readonly TrajectoryReader[]): string {
  const names: string[] = [];
  for (const reader of readers) if (!names.includes(reader.description)) names.push(reader.description);
  return names.join('; ');
}

/** Reads the text of a parsed file with the first reader that claims it. */
export function readTrajectoryContent(
  file: string,
  parse: TrajectoryParse,
  readers: readonly TrajectoryReader[] = TRAJECTORY_READERS,
): { trajectory?: Trajectory; reader?: TrajectoryReader; problems: Problem[] } {
  const problems: Problem[] = [];
  if (parse.content === undefined) {
    problems.push(fileProblem(file, 'invalid-json', `trajectory ${parse.error ?? 'not valid JSON'}`));
    return { problems };
  }
  if (parse.nonFinite === true) problems.push(fileProblem(file, 'nonstandard-json', "Python's NaN / Infinity tokens were read as null", 'warning'));
  if (parse.content.kind === 'jsonl' && parse.content.badLines.length > 0) {
    const shown = parse.content.badLines.slice(0, 5).join(', ');
    problems.push(
      fileProblem(file, 'invalid-json', `${parse.content.badLines.length} line(s) are not JSON and were skipped (line ${shown}${parse.content.badLines.length > 5 ? ', …' : ''})`, 'warning'),
    );
  }
  const reader = sniffTrajectory(parse.content, readers);
  if (reader === undefined) {
    problems.push(fileProblem(file, 'unknown-trajectory-format', `not a trajectory format this tool reads (tried: ${formatsTried(readers)})`));
    return { problems };
  }
  try {
    return { trajectory: reader.read(parse.content, file), reader, problems };
  } catch (error) {
    const message = error instanceof TrajectoryReadError ? error.message : `${reader.description}: ${error instanceof Error ? error.message : String(error)}`;
    problems.push(fileProblem(file, 'trajectory-unreadable', message));
    return { reader, problems };
  }
}

/**
 * Reads one trajectory file (the caller has checked the path: see `locateRun` and the folder
 * index). FIFOs, devices and directories are refused before any byte is read; a file over
 * `maxBytes` is refused without being read; bytes that are not UTF-8 are refused (the builder's
 * reader fails on them too). Never throws.
 */
export async function readTrajectoryFile(file: string, options: TrajectoryReadOptions = {}): Promise<TrajectoryFileResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TRAJECTORY_BYTES;
  let buffer: Buffer | undefined;
  let length: number;
  let size = 0;
  try {
    const opened = await openRegularFile(file);
    size = opened.size;
    try {
      if (opened.size > maxBytes) {
        return { file, size, problems: [fileProblem(file, 'file-too-large', `trajectory is ${megabytes(opened.size)} MB; files over ${megabytes(maxBytes)} MB are not read`)] };
      }
      buffer = takeReadBuffer(opened.size + 1);
      ({ buffer, length } = await readToEnd(opened.handle, buffer, maxBytes));
    } finally {
      await opened.handle.close();
    }
  } catch (error) {
    if (buffer !== undefined) returnReadBuffer(buffer);
    return { file, size, problems: [ioProblem(file, error)] };
  }
  try {
    if (length > maxBytes) return { file, size: length, problems: [fileProblem(file, 'file-too-large', `trajectory grew past ${megabytes(maxBytes)} MB while being read`)] };
    const bytes = buffer.subarray(0, length);
    // Checked, then decoded (a strict decoder does both at a third of the speed; a leading BOM is kept either way).
    if (!isUtf8(bytes)) return { file, size, problems: [fileProblem(file, 'invalid-utf8', 'trajectory is not valid UTF-8 (the builder cannot read it either)')] };
    // Parsed and read synchronously: nothing made from the bytes refers to them afterwards (every string is a copy).
    return { file, size, ...readTrajectoryContent(file, parseTrajectoryBytes(bytes, path.basename(file)), options.readers) };
  } finally {
    returnReadBuffer(buffer);
  }
}

/**
 * A read buffer kept between reads of this thread: `misses --explorer-trajs` reads thousands of
 * 2 MB runs one after another, and a fresh buffer per run cost more in the kernel (page faults) than
 * the copy itself (measured on 1.7 GB of runs: 0.65–0.76 s to read with a new buffer each, 0.30–0.34 s
 * with one). Reads in flight at once take their own. Larger buffers than {@link KEPT_READ_BUFFER_BYTES} are not kept.
 */
let spareReadBuffer: Buffer | undefined;

const KEPT_READ_BUFFER_BYTES = 16 * 1024 * 1024;

/** The spare buffer when it holds `bytes`, else a new one (room for a little more). */
function takeReadBuffer(bytes: number): Buffer {
  const spare = spareReadBuffer;
  if (spare !== undefined && spare.length >= bytes) {
    spareReadBuffer = undefined;
    return spare;
  }
  return Buffer.allocUnsafeSlow(Math.max(bytes, 64 * 1024));
}

function returnReadBuffer(buffer: Buffer): void {
  if (buffer.length <= KEPT_READ_BUFFER_BYTES && (spareReadBuffer === undefined || spareReadBuffer.length < buffer.length)) spareReadBuffer = buffer;
}

/**
 * Reads the file from its start until its end, into `buffer` (a larger one when the file grew past
 * it), stopping once more than `maxBytes` were read: `length > maxBytes` then says the file grew.
 */
async function readToEnd(handle: FileHandle, initial: Buffer, maxBytes: number): Promise<{ buffer: Buffer; length: number }> {
  let buffer = initial;
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) break;
      const larger = Buffer.allocUnsafeSlow(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return { buffer, length };
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
