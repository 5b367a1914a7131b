/**
 * Generic JSONL reading: text or a file in, line-numbered items and problems out (the bench and
 * prediction readers build on it; `jsonl.ts` is the entry point that gathers them).
 *
 * Each line is parsed and validated on its own (see `lineSink.ts`); each item keeps its exact
 * line text (`raw`) because exports write untouched records back byte-for-byte.
 */
import type { z } from 'zod';
import { readLines, type LineReadOptions } from '../io/lineReader';
import { LineSink, type JsonlItem, type SchemaSource } from './lineSink';
import { ioProblem, type Problem } from '../io/problems';

export type { JsonlItem, SchemaSource } from './lineSink';
export { DEFAULT_MAX_LINE_BYTES, type LineReadOptions } from '../io/lineReader';

export interface JsonlResult<T> {
  readonly items: JsonlItem<T>[];
  /** Sorted by line. */
  readonly problems: Problem[];
}

/** Splits text into lines on `\n` only (JSON strings cannot hold a raw newline; `\r` is trimmed per line). */
function feedText(text: string, sink: LineSink<z.ZodType>): void {
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    if (nl === -1) {
      sink.push(text.slice(i), line, false);
      return;
    }
    sink.push(text.slice(i, nl), line, true);
    line += 1;
    i = nl + 1;
  }
}

/** Problems ordered by line, then column; stable otherwise. */
export function byLine(problems: readonly Problem[]): Problem[] {
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.line - b.p.line || (a.p.column ?? 0) - (b.p.column ?? 0) || a.i - b.i)
    .map(({ p }) => p);
}

/** Parses JSONL text against `schema`. `file` is only used to locate problems. */
export function parseJsonl<S extends z.ZodType>(text: string, file: string, schema: SchemaSource<S>, fast?: (value: unknown) => z.output<S> | undefined): JsonlResult<z.output<S>> {
  const sink = new LineSink(file, schema, fast);
  feedText(text, sink);
  return { items: sink.items, problems: byLine(sink.problems) };
}

/**
 * Streams a JSONL file against `schema`. An unreadable or non-regular file (FIFO, device,
 * directory) is one `io-error` problem at line 0; a line over `options.maxLineBytes` is an error
 * at its line and is skipped.
 */
export async function readJsonl<S extends z.ZodType>(
  filePath: string,
  schema: SchemaSource<S>,
  fast?: (value: unknown) => z.output<S> | undefined,
  options: LineReadOptions = {},
): Promise<JsonlResult<z.output<S>>> {
  const sink = new LineSink(filePath, schema, fast);
  try {
    await readLines(
      filePath,
      {
        line: (bytes, line, terminated) => sink.pushBytes(bytes, line, terminated),
        tooLong: (line, bytes, limit) => sink.pushTooLong(line, bytes, limit),
      },
      options,
    );
  } catch (error) {
    sink.problems.push(ioProblem(filePath, error));
  }
  return { items: sink.items, problems: byLine(sink.problems) };
}

/**
 * Drops records whose key repeats an earlier one (first wins) and reports each at its own line,
 * naming the line of the record that was kept.
 */
export function dropDuplicates<T>(
  result: JsonlResult<T>,
  file: string,
  keyOf: (value: T) => string,
  describe: (value: T, firstLine: number) => Pick<Problem, 'severity' | 'code' | 'message'>,
  instanceOf: (value: T) => string,
): JsonlResult<T> {
  const first = new Map<string, number>();
  const items: JsonlItem<T>[] = [];
  const problems = result.problems.slice();
  for (const item of result.items) {
    const key = keyOf(item.value);
    const seen = first.get(key);
    if (seen !== undefined) {
      problems.push({ file, line: item.line, column: 1, ...describe(item.value, seen), instanceId: instanceOf(item.value) });
      continue;
    }
    first.set(key, item.line);
    items.push(item);
  }
  return { items, problems: byLine(problems) };
}
