/**
 * JSONL readers with line-numbered problems.
 *
 * A data file is never all-or-nothing: each line is parsed and validated on its own, bad lines
 * become {@link Problem}s at their line number and the rest still loads. Each item keeps its exact
 * line text (`raw`) because exports write untouched records back byte-for-byte.
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { z } from 'zod';
import { parseAnswerInRepo, parseAnswerText, type ParsedAnswer } from './answerFormat';
import { findJsonSyntaxError, locateJsonPath, replaceNonFiniteTokens } from './jsonScan';
import { ioProblem, type Problem } from './problems';
import { fastParseBenchRecord, fastParsePredictionRow, formatIssuePath } from './records';
import type { BenchRecord, PredictionRow } from './schemas';

/**
 * The zod schemas, loaded on first use: well-formed lines pass the fast checks, so a clean file
 * never pays zod's start-up cost. (A `require` inside a function is what keeps the bundler from
 * evaluating the module, and zod with it, at start-up.)
 */
function lazySchemas(): typeof import('./schemas') {
  return require('./schemas') as typeof import('./schemas');
}

/** A schema, or a function that returns it when first needed. */
type SchemaSource<S> = S | (() => S);

/** One accepted line. */
export interface JsonlItem<T> {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly value: T;
  /**
   * The line's exact text without its terminator (`\n` or `\r\n`) and, on line 1, without a UTF-8
   * BOM. Writing `raw` + the file's line ending reproduces the record byte-for-byte.
   */
  readonly raw: string;
}

export interface JsonlResult<T> {
  readonly items: JsonlItem<T>[];
  /** Sorted by line. */
  readonly problems: Problem[];
}

/** At most this many schema issues are reported per line; a broken record should not flood the list. */
const MAX_ISSUES_PER_LINE = 5;

const BOM = '\uFEFF';

/** Instance id of a value that failed validation, if it has a usable one (for messages and UI links). */
function peekInstanceId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as Record<string, unknown>)['instance_id'];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** zod's default wording ("Invalid input: expected object, received undefined") rephrased. */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input:')) {
    const input = (issue as { input?: unknown }).input;
    if (input === undefined) return `missing (expected ${issue.expected})`;
    return `expected ${issue.expected}, got ${input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input}`;
  }
  return issue.message;
}

/**
 * Parses and validates lines one at a time. Feed it with {@link LineSink.push}; `terminated` says
 * whether the line ended with `\n` (only the last line of a file can lack one).
 */
class LineSink<S extends z.ZodType> {
  readonly items: JsonlItem<z.output<S>>[] = [];
  readonly problems: Problem[] = [];

  constructor(
    private readonly file: string,
    private readonly schemaSource: SchemaSource<S>,
    /** Optional zod-free check for well-formed values; `undefined` hands the value to zod. */
    private readonly fast?: (value: unknown) => z.output<S> | undefined,
  ) {}

  private get schema(): S {
    return typeof this.schemaSource === 'function' ? (this.schemaSource as () => S)() : this.schemaSource;
  }

  /** Takes one line; whatever goes wrong with it becomes a problem at that line, never a lost file. */
  push(text: string, line: number, terminated: boolean): void {
    try {
      this.pushLine(text, line, terminated);
    } catch (error) {
      this.problems.push({ file: this.file, line, severity: 'error', code: 'invalid-json', message: `line could not be read: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  private pushLine(text: string, line: number, terminated: boolean): void {
    let raw = text.endsWith('\r') ? text.slice(0, -1) : text;
    // Editors hide the BOM, so columns are counted without it too.
    if (line === 1 && raw.startsWith(BOM)) raw = raw.slice(1);
    if (raw.trim() === '') return;
    const at = (offset: number | undefined): { column?: number } => (offset === undefined ? {} : { column: offset + 1 });

    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      const patched = replaceNonFiniteTokens(raw);
      let recovered = false;
      if (patched !== undefined) {
        try {
          value = JSON.parse(patched);
          recovered = true;
        } catch {
          // Fall through to the syntax error of the original text.
        }
      }
      if (!recovered) {
        const syntax = findJsonSyntaxError(raw);
        const what = syntax?.message ?? 'invalid JSON';
        // A torn write leaves a final line without newline that does not parse; say so, since
        // the fix (re-run or drop the line) differs from fixing a malformed record.
        const truncated = !terminated;
        this.problems.push({
          file: this.file,
          line,
          ...at(syntax?.offset),
          severity: 'error',
          code: truncated ? 'truncated-line' : 'invalid-json',
          message: truncated
            ? `last line has no newline and is not valid JSON (${what}); the file looks truncated`
            : `invalid JSON: ${what}`,
        });
        return;
      }
      this.problems.push({
        file: this.file,
        line,
        severity: 'warning',
        code: 'nonstandard-json',
        message: "non-standard JSON tokens (NaN / Infinity, as Python writes them) were read as null",
        ...(peekInstanceId(value) !== undefined ? { instanceId: peekInstanceId(value)! } : {}),
      });
    }

    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problems.push({
        file: this.file,
        line,
        ...at(0),
        severity: 'error',
        code: 'not-an-object',
        message: `expected a JSON object, got ${kindOf(value)}`,
      });
      return;
    }

    const quick = this.fast?.(value);
    if (quick !== undefined) {
      this.items.push({ line, value: quick, raw });
      return;
    }
    // Inputs are only needed for messages, and reporting them slows zod down: ask on failure.
    const parsed = this.schema.safeParse(value);
    if (!parsed.success) {
      const detailed = this.schema.safeParse(value, { reportInput: true });
      const issues = detailed.success ? parsed.error.issues : detailed.error.issues;
      const instanceId = peekInstanceId(value);
      const shown = issues.slice(0, MAX_ISSUES_PER_LINE);
      shown.forEach((issue, k) => {
        const where = formatIssuePath(issue.path);
        const more = k === shown.length - 1 && issues.length > shown.length ? ` (and ${issues.length - shown.length} more schema issues on this line)` : '';
        this.problems.push({
          file: this.file,
          line,
          ...at(locateJsonPath(raw, issue.path)),
          severity: 'error',
          code: 'schema',
          message: `${where === '' ? 'record' : where}: ${issueMessage(issue)}${instanceId !== undefined ? ` (instance ${instanceId})` : ''}${more}`,
          ...(instanceId !== undefined ? { instanceId } : {}),
        });
      });
      return;
    }
    this.items.push({ line, value: parsed.data as z.output<S>, raw });
  }

  result(): JsonlResult<z.output<S>> {
    return { items: this.items, problems: this.problems };
  }
}

/** Splits text into lines on `\n` only (JSON strings cannot hold a raw newline; `\r` is trimmed per line). */
function feedText(text: string, sink: { push(text: string, line: number, terminated: boolean): void }): void {
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

/**
 * Streams a file line by line. Partial lines are kept as chunk pieces and joined once, so a
 * single multi-megabyte line does not cost quadratic string copying.
 */
async function feedFile(filePath: string, sink: { push(text: string, line: number, terminated: boolean): void }): Promise<void> {
  const stream = createReadStream(filePath, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let pieces: string[] = [];
  let line = 1;
  for await (const chunk of stream as AsyncIterable<string>) {
    let i = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', i)) {
      const part = chunk.slice(i, nl);
      const text = pieces.length === 0 ? part : pieces.join('') + part;
      pieces = [];
      sink.push(text, line, true);
      line += 1;
      i = nl + 1;
    }
    if (i < chunk.length) pieces.push(chunk.slice(i));
  }
  if (pieces.length > 0) sink.push(pieces.join(''), line, false);
}

function byLine(problems: Problem[]): Problem[] {
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.line - b.p.line || (a.p.column ?? 0) - (b.p.column ?? 0) || a.i - b.i)
    .map(({ p }) => p);
}

/** Parses JSONL text against `schema`. `file` is only used to locate problems. */
export function parseJsonl<S extends z.ZodType>(
  text: string,
  file: string,
  schema: SchemaSource<S>,
  fast?: (value: unknown) => z.output<S> | undefined,
): JsonlResult<z.output<S>> {
  const sink = new LineSink(file, schema, fast);
  feedText(text, sink);
  return { items: sink.items, problems: byLine(sink.problems) };
}

/** Streams a JSONL file against `schema`. An unreadable file is one `io-error` problem at line 0. */
export async function readJsonl<S extends z.ZodType>(
  filePath: string,
  schema: SchemaSource<S>,
  fast?: (value: unknown) => z.output<S> | undefined,
): Promise<JsonlResult<z.output<S>>> {
  const sink = new LineSink(filePath, schema, fast);
  try {
    await feedFile(filePath, sink);
  } catch (error) {
    sink.problems.push(ioProblem(filePath, error));
  }
  return { items: sink.items, problems: byLine(sink.problems) };
}

/**
 * Drops records whose key repeats an earlier one (first wins) and reports each at its own line,
 * naming the line of the record that was kept.
 */
function dropDuplicates<T>(
  result: JsonlResult<T>,
  file: string,
  keyOf: (value: T) => string,
  describe: (value: T, firstLine: number) => Pick<Problem, 'severity' | 'code' | 'message'>,
  instanceOf: (value: T) => string,
): JsonlResult<T> {
  const first = new Map<string, number>();
  const items: JsonlItem<T>[] = [];
  const problems = [...result.problems];
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

function dedupeBench(result: JsonlResult<BenchRecord>, file: string): JsonlResult<BenchRecord> {
  return dropDuplicates(
    result,
    file,
    (r) => r.instance_id,
    (r, firstLine) => ({
      severity: 'error',
      code: 'duplicate-instance',
      message: `duplicate instance_id ${JSON.stringify(r.instance_id)} (first seen on line ${firstLine}); this record is ignored`,
    }),
    (r) => r.instance_id,
  );
}

function dedupePredictions(result: JsonlResult<PredictionRow>, file: string): JsonlResult<PredictionRow> {
  return dropDuplicates(
    result,
    file,
    // JSON of the pair: no separator character can make two different pairs collide.
    (r) => JSON.stringify([r.instance_id, r.explorer]),
    (r, firstLine) => ({
      severity: 'warning',
      code: 'duplicate-row',
      message: `second row for instance ${JSON.stringify(r.instance_id)} and explorer ${JSON.stringify(r.explorer)} (first on line ${firstLine}); this row is ignored`,
    }),
    (r) => r.instance_id,
  );
}

/** Parses bench JSONL text (see {@link readBenchFile}). */
export function parseBench(text: string, file = '<bench>'): JsonlResult<BenchRecord> {
  return dedupeBench(parseJsonl(text, file, () => lazySchemas().BenchRecordSchema, fastParseBenchRecord), file);
}

/**
 * Reads a bench file (one record a line, metrics-spec §11). Malformed lines and schema violations
 * are error problems; a repeated `instance_id` is an error on the later line, and the first valid
 * record is the one kept.
 */
export async function readBenchFile(filePath: string): Promise<JsonlResult<BenchRecord>> {
  return dedupeBench(await readJsonl(filePath, () => lazySchemas().BenchRecordSchema, fastParseBenchRecord), filePath);
}

export interface PredictionReadOptions {
  /** For plain-text answers: the instance id (default: the file name without extension). */
  readonly instanceId?: string;
  /** For plain-text answers: the explorer name (default: `answer`). */
  readonly explorer?: string;
  /** For plain-text answers: keep the first `topK` regions (default: all). */
  readonly topK?: number;
  /**
   * For plain-text answers: the repository checkout; paths must then be existing files inside
   * it (metrics-spec §10, "with a repo root"). Ignored for JSONL rows.
   */
  readonly repoRoot?: string;
}

/** Extensions that are always read as JSONL, whatever the content looks like. */
const JSONL_EXTENSIONS = new Set(['.jsonl', '.ndjson', '.json']);

/** JSONL rows start with `{` (or `[` for a broken one); anything else is taken as an agent's prose answer. */
function looksLikeJsonl(head: string): boolean {
  const first = head.replace(/^\uFEFF/, '').trimStart().charAt(0);
  return first === '' || first === '{' || first === '[';
}

function defaultInstanceId(file: string): string {
  const base = path.basename(file);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function answerToResult(answer: ParsedAnswer, file: string, options: PredictionReadOptions): JsonlResult<PredictionRow> {
  const row: PredictionRow = {
    instance_id: options.instanceId ?? defaultInstanceId(file),
    explorer: options.explorer ?? 'answer',
    regions: answer.regions.map((r) => ({ path: r.path, start: r.start, end: r.end })),
    num_regions: answer.regions.length,
  };
  const problems: Problem[] = answer.skipped.map((s) => ({
    file,
    line: s.line,
    severity: 'warning',
    code: 'answer-entry-skipped',
    message: `skipped answer entry ${JSON.stringify(s.text)}: ${s.message}`,
    instanceId: row.instance_id,
  }));
  if (answer.regions.length === 0) {
    problems.push({
      file,
      line: answer.blockLine ?? 0,
      severity: 'warning',
      code: 'answer-empty',
      message:
        answer.blockLine === undefined
          ? 'no RELEVANT_FILES: block and no location in the text; the answer has no region'
          : 'the RELEVANT_FILES: block yields no region',
      instanceId: row.instance_id,
    });
  }
  // `raw` of a synthesized row is its JSON form, so it can be written out as a result line.
  const item: JsonlItem<PredictionRow> = { line: answer.entries[0]?.line ?? answer.blockLine ?? 1, value: row, raw: JSON.stringify(row) };
  return { items: [item], problems: byLine(problems) };
}

/**
 * Parses prediction text: JSONL result rows (metrics-spec §9), or an agent's plain-text answer
 * with a `RELEVANT_FILES:` block (§10, without repo root) which becomes a single row. Rows
 * repeating an (`instance_id`, `explorer`) pair are warned about and ignored (first wins).
 */
export function parsePredictions(text: string, file = '<predictions>', options: PredictionReadOptions = {}): JsonlResult<PredictionRow> {
  if (!looksLikeJsonl(text)) return answerToResult(parseAnswerText(text, options.topK !== undefined ? { topK: options.topK } : {}), file, options);
  return dedupePredictions(parseJsonl(text, file, () => lazySchemas().PredictionRowSchema, fastParsePredictionRow), file);
}

/**
 * Reads a prediction file: JSONL result rows, streamed; or, when the file is not `.jsonl` /
 * `.ndjson` / `.json` and does not start with `{`, a plain-text agent answer (one row; with
 * `options.repoRoot` its paths must exist inside that checkout).
 */
export async function readPredictionFile(filePath: string, options: PredictionReadOptions = {}): Promise<JsonlResult<PredictionRow>> {
  if (!JSONL_EXTENSIONS.has(path.extname(filePath).toLowerCase())) {
    let head: string;
    try {
      const handle = await open(filePath, 'r');
      try {
        const buf = Buffer.alloc(4096);
        const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
        head = buf.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      return { items: [], problems: [ioProblem(filePath, error)] };
    }
    if (!looksLikeJsonl(head)) {
      let text: string;
      try {
        text = await readFile(filePath, 'utf8');
      } catch (error) {
        return { items: [], problems: [ioProblem(filePath, error)] };
      }
      const parseOptions = options.topK !== undefined ? { topK: options.topK } : {};
      const answer = options.repoRoot !== undefined ? await parseAnswerInRepo(text, options.repoRoot, parseOptions) : parseAnswerText(text, parseOptions);
      return answerToResult(answer, filePath, options);
    }
  }
  return dedupePredictions(await readJsonl(filePath, () => lazySchemas().PredictionRowSchema, fastParsePredictionRow), filePath);
}
