/**
 * Precomputed line counts: `line_counts.json`, `{instance_id: {path: line_count}}` (the format of
 * the conformance data). Lets scoring reproduce official numbers without the repo snapshots.
 *
 * The file is one JSON document, often pretty-printed, so problems are located by converting the
 * offending value's offset into a line and column. Bad entries are reported and skipped; the
 * rest of the file still loads.
 */
import { readFile } from 'node:fs/promises';
import { findJsonSyntaxError, locateJsonPath } from './jsonScan';
import { ioProblem, type Problem } from './problems';
import { describeValue, formatIssuePath } from './records';

export interface LineCountsFile {
  /** instance id → path → line count. */
  readonly counts: Map<string, Map<string, number>>;
  readonly problems: Problem[];
}

/** 1-based line and column of a UTF-16 offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses line-counts JSON text. A count must be a non-negative integer; anything else is an error
 * for that entry only. `file` is only used to locate problems.
 */
export function parseLineCounts(text: string, file = '<line-counts>'): LineCountsFile {
  const counts = new Map<string, Map<string, number>>();
  const problems: Problem[] = [];
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const at = (offset: number | undefined): { line: number; column?: number } =>
    offset === undefined ? { line: 1 } : position(body, offset);

  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    const syntax = findJsonSyntaxError(body);
    problems.push({ file, ...at(syntax?.offset ?? 0), severity: 'error', code: 'invalid-json', message: `invalid JSON: ${syntax?.message ?? 'cannot parse'}` });
    return { counts, problems };
  }
  const report = (jsonPath: readonly PropertyKey[], message: string, instanceId?: string): void => {
    problems.push({
      file,
      ...at(locateJsonPath(body, jsonPath)),
      severity: 'error',
      code: 'schema',
      message: `${formatIssuePath(jsonPath)}: ${message}`,
      ...(instanceId !== undefined ? { instanceId } : {}),
    });
  };
  if (!isPlainObject(value)) {
    problems.push({ file, line: 1, column: 1, severity: 'error', code: 'not-an-object', message: `expected {instance_id: {path: line_count}}, got ${describeValue(value)}` });
    return { counts, problems };
  }
  for (const [instanceId, perPath] of Object.entries(value)) {
    if (!isPlainObject(perPath)) {
      report([instanceId], `expected an object of path → line count, got ${describeValue(perPath)}`, instanceId);
      continue;
    }
    const map = new Map<string, number>();
    for (const [p, n] of Object.entries(perPath)) {
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
        report([instanceId, p], `expected a non-negative integer line count, got ${describeValue(n)}`, instanceId);
        continue;
      }
      map.set(p, n);
    }
    counts.set(instanceId, map);
  }
  return { counts, problems };
}

/** Reads a `line_counts.json` file (see {@link parseLineCounts}); an unreadable file is one `io-error`. */
export async function readLineCountsFile(filePath: string): Promise<LineCountsFile> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    return { counts: new Map(), problems: [ioProblem(filePath, error)] };
  }
  return parseLineCounts(text, filePath);
}
