/**
 * Precomputed line counts: `line_counts.json`, `{instance_id: {path: line_count}}` (the format of
 * the conformance data). Lets scoring reproduce official numbers without the repo snapshots.
 *
 * The file is one JSON document, often pretty-printed, so problems are located by converting the
 * offending value's offset into a line and column. Bad entries are reported and skipped; the
 * rest of the file still loads.
 */
import { JsonLocator } from '../io/jsonLocator';
import { findJsonSyntaxError } from '../io/jsonScan';
import { ioProblem, type Problem } from '../io/problems';
import { formatIssuePath } from './records';
import { readRegularFile } from '../io/regularFile';
import { describeValue } from './values';
import { isRecord } from '../../shared/guards';

export interface LineCountsFile {
  /** instance id → path → line count. */
  readonly counts: Map<string, Map<string, number>>;
  readonly problems: Problem[];
}

/**
 * 1-based line and column of UTF-16 offsets in `text`. Line starts are found once, then each
 * offset is a binary search, so many problems in one large document stay cheap.
 */
function positions(text: string): (offset: number) => { line: number; column: number } {
  let starts: number[] | undefined;
  return (offset) => {
    if (starts === undefined) {
      starts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

/**
 * Parses line-counts JSON text. A count must be a non-negative integer; anything else is an error
 * for that entry only. `file` is only used to locate problems.
 */
export function parseLineCounts(text: string, file = '<line-counts>'): LineCountsFile {
  const counts = new Map<string, Map<string, number>>();
  const problems: Problem[] = [];
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const position = positions(body);
  const at = (offset: number | undefined): { line: number; column?: number } => (offset === undefined ? { line: 1 } : position(offset));

  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    const syntax = findJsonSyntaxError(body);
    problems.push({ file, ...at(syntax?.offset ?? 0), severity: 'error', code: 'invalid-json', message: `invalid JSON: ${syntax?.message ?? 'cannot parse'}` });
    return { counts, problems };
  }
  // One index of the document serves every bad entry (a rescan per entry would be quadratic).
  const locator = new JsonLocator(body);
  const report = (jsonPath: readonly PropertyKey[], message: string, instanceId?: string): void => {
    problems.push({
      file,
      ...at(locator.locate(jsonPath)),
      severity: 'error',
      code: 'schema',
      message: `${formatIssuePath(jsonPath)}: ${message}`,
      ...(instanceId !== undefined ? { instanceId } : {}),
    });
  };
  if (!isRecord(value)) {
    problems.push({ file, line: 1, column: 1, severity: 'error', code: 'not-an-object', message: `expected {instance_id: {path: line_count}}, got ${describeValue(value)}` });
    return { counts, problems };
  }
  for (const [instanceId, perPath] of Object.entries(value)) {
    if (!isRecord(perPath)) {
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
    text = (await readRegularFile(filePath)).toString('utf8');
  } catch (error) {
    return { counts: new Map(), problems: [ioProblem(filePath, error)] };
  }
  return parseLineCounts(text, filePath);
}
