/**
 * The trajectory format registry: one file in, its content parsed once (one JSON value, or JSON
 * lines), the readers' sniffers tried in a fixed order, the first match reads it into the one model
 * (src/core/trajectories/types.ts). An unknown format is one problem naming the file and the formats
 * tried; nothing here throws on bad data.
 *
 * Adding a format is one line in {@link FORMAT_READERS} (before the fallbacks), or one entry in the
 * converters' `CONVERTERS`.
 */
import { isUtf8 } from 'node:buffer';
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

function parseJsonLines(text: string): { content: TrajectoryContent; nonFinite: boolean } {
  const values: unknown[] = [];
  const badLines: number[] = [];
  let nonFinite = false;
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
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
  let bytes: Buffer;
  let size = 0;
  try {
    const opened = await openRegularFile(file);
    size = opened.size;
    try {
      if (opened.size > maxBytes) {
        return { file, size, problems: [fileProblem(file, 'file-too-large', `trajectory is ${megabytes(opened.size)} MB; files over ${megabytes(maxBytes)} MB are not read`)] };
      }
      bytes = await opened.handle.readFile();
    } finally {
      await opened.handle.close();
    }
  } catch (error) {
    return { file, size, problems: [ioProblem(file, error)] };
  }
  if (bytes.length > maxBytes) return { file, size: bytes.length, problems: [fileProblem(file, 'file-too-large', `trajectory grew past ${megabytes(maxBytes)} MB while being read`)] };
  // Checked, then decoded (a strict decoder does both at a third of the speed; a leading BOM is kept either way).
  if (!isUtf8(bytes)) return { file, size, problems: [fileProblem(file, 'invalid-utf8', 'trajectory is not valid UTF-8 (the builder cannot read it either)')] };
  const text = bytes.toString('utf8');
  return { file, size, ...readTrajectoryContent(file, parseTrajectoryText(text, path.basename(file)), options.readers) };
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
