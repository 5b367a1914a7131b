/**
 * Parsing and validating one JSONL line.
 *
 * A data file is never all-or-nothing: whatever is wrong with a line becomes a {@link Problem} at
 * its line number and the other lines still load. zod is only consulted for lines the zod-free
 * fast checks reject, and is loaded then (see {@link lazySchemas}).
 */
import { isUtf8 } from 'node:buffer';
import type { z } from 'zod';
import { JsonLocator } from '../io/jsonLocator';
import { findJsonSyntaxError, replaceNonFiniteTokens } from '../io/jsonScan';
import type { Problem } from '../io/problems';
import type * as Schemas from './schemas';
import { formatIssuePath } from './records';

/**
 * The zod schemas, loaded on first use: well-formed lines pass the fast checks, so a clean file
 * never pays zod's start-up cost. (A `require` inside a function is what keeps the bundler from
 * evaluating the module, and zod with it, at start-up.)
 */
export function lazySchemas(): typeof Schemas {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the lazy load is the point (see above)
  return require('./schemas') as typeof Schemas;
}

/** A schema, or a function that returns it when first needed. */
export type SchemaSource<S> = S | (() => S);

/** One accepted line. */
export interface JsonlItem<T> {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly value: T;
  /**
   * The line's exact text without its terminator (`\n` or `\r\n`) and, on line 1, without a UTF-8
   * BOM. Writing `raw` + the file's line ending reproduces the record byte-for-byte (for lines
   * that are valid UTF-8; others are reported, and hold U+FFFD where bytes were invalid).
   */
  readonly raw: string;
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
 * whether the line ended with `\n` (only the last line of a file can lack one). Each accepted line
 * goes to `accept` at once, in order; the sink keeps only the problems.
 */
export class LineSink<S extends z.ZodType> {
  readonly problems: Problem[] = [];

  constructor(
    private readonly file: string,
    private readonly schemaSource: SchemaSource<S>,
    private readonly accept: (item: JsonlItem<z.output<S>>) => void,
    /** Optional zod-free check for well-formed values; `undefined` hands the value to zod. */
    private readonly fast?: (value: unknown) => z.output<S> | undefined,
  ) {}

  private get schema(): S {
    return typeof this.schemaSource === 'function' ? (this.schemaSource as () => S)() : this.schemaSource;
  }

  /**
   * Takes one line's bytes. Invalid UTF-8 is decoded with U+FFFD (never fatal) and warned about:
   * a replaced byte can silently turn one explorer name or instance id into another.
   */
  pushBytes(bytes: Buffer, line: number, terminated: boolean): void {
    if (!isUtf8(bytes)) {
      this.problems.push({ file: this.file, line, severity: 'warning', code: 'invalid-utf8', message: 'invalid UTF-8 bytes replaced with U+FFFD' });
    }
    this.push(bytes.toString('utf8'), line, terminated);
  }

  /** A line skipped for its length; its content was never read into memory. */
  pushTooLong(line: number, bytes: number, limit: number): void {
    this.problems.push({
      file: this.file,
      line,
      severity: 'error',
      code: 'line-too-long',
      message: `line ${line} is ${bytes} bytes, longer than the ${limit}-byte limit; skipped`,
    });
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
          message: truncated ? `last line has no newline and is not valid JSON (${what}); the file looks truncated` : `invalid JSON: ${what}`,
        });
        return;
      }
      this.problems.push({
        file: this.file,
        line,
        severity: 'warning',
        code: 'nonstandard-json',
        message: 'non-standard JSON tokens (NaN / Infinity, as Python writes them) were read as null',
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
      this.accept({ line, value: quick, raw });
      return;
    }
    // Inputs are only needed for messages, and reporting them slows zod down: ask on failure.
    const parsed = this.schema.safeParse(value);
    if (!parsed.success) {
      const detailed = this.schema.safeParse(value, { reportInput: true });
      const issues = detailed.success ? parsed.error.issues : detailed.error.issues;
      const instanceId = peekInstanceId(value);
      const shown = issues.slice(0, MAX_ISSUES_PER_LINE);
      // One index of the line serves every issue (see JsonLocator).
      const locator = new JsonLocator(raw);
      shown.forEach((issue, k) => {
        const where = formatIssuePath(issue.path);
        const more = k === shown.length - 1 && issues.length > shown.length ? ` (and ${issues.length - shown.length} more schema issues on this line)` : '';
        this.problems.push({
          file: this.file,
          line,
          ...at(locator.locate(issue.path)),
          severity: 'error',
          code: 'schema',
          message: `${where === '' ? 'record' : where}: ${issueMessage(issue)}${instanceId !== undefined ? ` (instance ${instanceId})` : ''}${more}`,
          ...(instanceId !== undefined ? { instanceId } : {}),
        });
      });
      return;
    }
    this.accept({ line, value: parsed.data as z.output<S>, raw });
  }
}
