/**
 * Problems found while reading or validating data files.
 *
 * Every reader in `src/data` reports bad input as a {@link Problem} instead of throwing, so one
 * malformed line never hides the rest of a file. The CLI prints problems with
 * {@link formatProblem}; the extension turns them into diagnostics located in the data file.
 */

import { errnoCode } from './paths';

export type Severity = 'error' | 'warning';

/** Stable machine-readable problem kinds (tests, filters and quick fixes key on these). */
export type ProblemCode =
  /** The file could not be read at all. */
  | 'io-error'
  /** A line is not valid JSON. */
  | 'invalid-json'
  /** A line is longer than the reader's limit; it was skipped without being held in memory. */
  | 'line-too-long'
  /** A line's bytes are not valid UTF-8; they were read with U+FFFD in place of the bad bytes. */
  | 'invalid-utf8'
  /** The last line has no newline and is not valid JSON: a torn or truncated write. */
  | 'truncated-line'
  /** A line used Python's non-standard `NaN` / `Infinity` tokens; they were read as `null`. */
  | 'nonstandard-json'
  /** A line is valid JSON but not an object (array, string, number, null). */
  | 'not-an-object'
  /** A record violates the schema; the message names the field path. */
  | 'schema'
  /** A bench record repeats an earlier `instance_id`; the first one wins. */
  | 'duplicate-instance'
  /** A prediction row repeats an earlier (`instance_id`, `explorer`) pair; the first one wins. */
  | 'duplicate-row'
  /** A region path (or `repo_dir`) is absolute. */
  | 'path-absolute'
  /** A region path (or `repo_dir`) leaves the snapshot root through `..`. */
  | 'path-escapes-root'
  /** A region path is a symlink whose target lies outside the snapshot root. */
  | 'symlink-escape'
  /** A region with `start > end`: it covers no line (see metrics-spec §1). */
  | 'inverted-region'
  /** A region the evaluator cannot resolve to lines (e.g. `end = 0`, or `-1` without a line count). */
  | 'unresolvable-region'
  /** An explicit `end` beyond the file's last line; the evaluator does not clip it. */
  | 'region-past-eof'
  /** The instance's snapshot folder does not exist. */
  | 'missing-snapshot'
  /** A referenced file does not exist in the snapshot. */
  | 'missing-file'
  /** A referenced path exists but is a directory or other non-regular file. */
  | 'not-a-file'
  /** A core file has no core region. */
  | 'core-file-without-region'
  /** A prediction row names an instance the bench file does not contain. */
  | 'unknown-instance'
  /** The same `(path, start, end)` appears twice in one prediction row. */
  | 'duplicate-prediction'
  /** `num_regions` disagrees with the length of `regions`. */
  | 'num-regions-mismatch'
  /** An entry of a plain-text agent answer was skipped (bad range, unresolvable path, …). */
  | 'answer-entry-skipped'
  /** A plain-text agent answer yielded no region at all. */
  | 'answer-empty'
  /** A plain-text agent answer has no `RELEVANT_FILES:` block; its regions come from locations in the prose. */
  | 'answer-no-block'
  /** An audit-log line is not a valid event (bad JSON in the middle of the file, missing or wrong fields, duplicate id). */
  | 'audit-event-invalid'
  /** The audit log's last line has no newline and is not valid JSON: a torn append, ignored. */
  | 'audit-torn-line'
  /** A removal's text no longer matches its recorded `text_sha` in the snapshot (flagged, never moved). */
  | 'audit-drifted'
  /** A restore by a different author than the removal's. */
  | 'audit-conflict'
  /** A trajectory file none of the trajectory readers recognises (the message names the formats tried). */
  | 'unknown-trajectory-format'
  /** A file over the size limit of its reader; it was not read. */
  | 'file-too-large'
  /** A trajectory file a reader recognised but could not read (the builder skips such a file too). */
  | 'trajectory-unreadable'
  /** A tool call the builder would stop on (a `view_range` that is not integers, a non-string command…); skipped. */
  | 'trajectory-call-skipped'
  /** A `read_step_info` run that could not be found, opened or verified. */
  | 'trajectory-not-found'
  /** A SWE-bench harness report that could not be read. */
  | 'resolution-report-invalid'
  /** An audit folder reached through a link, or an audit log that is not a regular file (link, FIFO, folder): not read. */
  | 'audit-file-refused'
  /** An event whose `author` is not the author its file belongs to: it does nothing. */
  | 'audit-author-mismatch'
  /** An event id that names different events (in two files, or with different content): none of them takes effect. */
  | 'audit-duplicate-id'
  /** A file in an explorer's run folder outside its layout (`<instance_id>.<ext>` or `<instance_id>/<file>`): not read. */
  | 'explorer-run-ignored'
  /** An explorer run whose own instance id is not the instance its file name gives (the file name decides). */
  | 'explorer-run-mismatch';

/** One problem, located in a data file. */
export interface Problem {
  /** The data file the problem is located in (as given by the caller, not resolved). */
  readonly file: string;
  /** 1-based line in `file`; `0` when the problem concerns the whole file. */
  readonly line: number;
  /** 1-based column (UTF-16 code units, as editors count) when the reader could locate it. */
  readonly column?: number;
  readonly severity: Severity;
  readonly code: ProblemCode;
  readonly message: string;
  /** The record's instance id when known, so UIs can link a problem to an instance. */
  readonly instanceId?: string;
}

/** `file:line[:column]: severity: message` — the format the CLI `validate` command prints. */
export function formatProblem(problem: Problem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}${problem.column !== undefined ? `:${problem.column}` : ''}` : problem.file;
  return `${where}: ${problem.severity}: ${problem.message}`;
}

/** True when at least one problem is an error (the CLI exits non-zero then). */
export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}

/**
 * Orders problems by file (the order of `files`, then first-seen order), then line, then
 * column; stable otherwise.
 */
export function sortProblems(problems: readonly Problem[], files: readonly string[] = []): Problem[] {
  const fileOrder = new Map<string, number>();
  for (const f of files) if (!fileOrder.has(f)) fileOrder.set(f, fileOrder.size);
  for (const p of problems) if (!fileOrder.has(p.file)) fileOrder.set(p.file, fileOrder.size);
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (fileOrder.get(a.p.file) ?? 0) - (fileOrder.get(b.p.file) ?? 0) || a.p.line - b.p.line || (a.p.column ?? 0) - (b.p.column ?? 0) || a.i - b.i)
    .map(({ p }) => p);
}

/** A file that could not be read at all: one `io-error` problem at line 0, in plain words. */
export function ioProblem(file: string, error: unknown): Problem {
  const code = errnoCode(error);
  const reason =
    code === 'ENOENT'
      ? 'file not found'
      : code === 'EISDIR'
        ? 'is a directory'
        : code === 'ENOTREG'
          ? 'not a regular file'
          : code === 'EACCES'
            ? 'permission denied'
            : error instanceof Error
              ? error.message
              : String(error);
  return { file, line: 0, severity: 'error', code: 'io-error', message: `cannot read file: ${reason}` };
}
