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
  const items: JsonlItem<z.output<S>>[] = [];
  const sink = new LineSink(file, schema, (item) => items.push(item), fast);
  feedText(text, sink);
  return { items, problems: byLine(sink.problems) };
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
  const items: JsonlItem<z.output<S>>[] = [];
  const problems = await streamJsonl(filePath, schema, (item) => items.push(item), fast, options);
  return { items, problems };
}

/**
 * {@link readJsonl} without keeping the lines: each accepted one goes to `visit` as it is read, in
 * order (a caller that keeps only part of each record lets the rest die young). Returns the
 * problems, sorted by line.
 */
export async function streamJsonl<S extends z.ZodType>(
  filePath: string,
  schema: SchemaSource<S>,
  visit: (item: JsonlItem<z.output<S>>) => void,
  fast?: (value: unknown) => z.output<S> | undefined,
  options: LineReadOptions = {},
): Promise<Problem[]> {
  const sink = new LineSink(filePath, schema, visit, fast);
  try {
    await readLines(
      filePath,
      {
        line: (bytes, line, terminated) => sink.pushBytes(bytes, line, terminated),
        asciiLine: (text, line, terminated) => sink.push(text, line, terminated),
        tooLong: (line, bytes, limit) => sink.pushTooLong(line, bytes, limit),
      },
      options,
    );
  } catch (error) {
    sink.problems.push(ioProblem(filePath, error));
  }
  return byLine(sink.problems);
}

/**
 * First-wins de-duplication of records as they stream past: {@link FirstWins.admit} says whether a
 * record's key is new, and reports a repeat at its own line, naming the line of the record that
 * was kept. A key is `keyOf` within `groupOf` (prediction rows: the instance within the explorer),
 * looked up in a map per group rather than joined into one string per record.
 */
export class FirstWins<T> {
  /** One problem per repeat, in the order they were met. */
  readonly problems: Problem[] = [];
  private readonly first = new Map<string, Map<string, number>>();

  constructor(
    private readonly file: string,
    private readonly keyOf: (value: T) => string,
    private readonly describe: (value: T, firstLine: number) => Pick<Problem, 'severity' | 'code' | 'message'>,
    private readonly instanceOf: (value: T) => string,
    private readonly groupOf: (value: T) => string = () => '',
  ) {}

  admit(item: JsonlItem<T>): boolean {
    const group = this.groupOf(item.value);
    let first = this.first.get(group);
    if (first === undefined) this.first.set(group, (first = new Map()));
    const key = this.keyOf(item.value);
    const seen = first.get(key);
    if (seen !== undefined) {
      this.problems.push({ file: this.file, line: item.line, column: 1, ...this.describe(item.value, seen), instanceId: this.instanceOf(item.value) });
      return false;
    }
    first.set(key, item.line);
    return true;
  }
}

/** The records of `result` that `unique` admits, with its problems added (sorted by line). */
export function dropDuplicates<T>(result: JsonlResult<T>, unique: FirstWins<T>): JsonlResult<T> {
  const items = result.items.filter((item) => unique.admit(item));
  return { items, problems: byLine(result.problems.concat(unique.problems)) };
}
