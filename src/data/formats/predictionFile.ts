/**
 * Prediction files: explorer result rows (JSONL, metrics-spec §9), or an agent's plain-text
 * answer with a `RELEVANT_FILES:` block (§10), which becomes a single row.
 */
import * as path from 'node:path';
import { parseAnswerInRepo, parseAnswerText, type ParsedAnswer } from './answerFormat';
import { byLine, DEFAULT_MAX_LINE_BYTES, dropDuplicates, FirstWins, parseJsonl, streamJsonl, type JsonlItem, type JsonlResult, type LineReadOptions } from './jsonLines';
import { lazySchemas } from './lineSink';
import { ioProblem, type Problem } from '../io/problems';
import { fastParsePredictionRow } from './records';
import { openRegularFile } from '../io/regularFile';
import type { PredictionRow } from './schemas';

/** Rows repeating an (`instance_id`, `explorer`) pair of `file`: warned about and ignored (first wins). */
function repeatedRows(file: string): FirstWins<PredictionRow> {
  return new FirstWins<PredictionRow>(
    file,
    (r) => r.instance_id,
    (r, firstLine) => ({
      severity: 'warning',
      code: 'duplicate-row',
      message: `second row for instance ${JSON.stringify(r.instance_id)} and explorer ${JSON.stringify(r.explorer)} (first on line ${firstLine}); this row is ignored`,
    }),
    (r) => r.instance_id,
    (r) => r.explorer,
  );
}

export interface PredictionReadOptions extends LineReadOptions {
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
  /**
   * `answer`: the file is an agent's plain-text answer whatever its name or first character (a
   * transcript may well start with `[2024-05-01 10:00] …` or `{`); default: JSONL by extension or
   * when the text starts with `{` / `[`, else an answer.
   */
  readonly format?: 'answer';
}

/** Extensions that are always read as JSONL, whatever the content looks like. */
const JSONL_EXTENSIONS = new Set(['.jsonl', '.ndjson', '.json']);

/** JSONL rows start with `{` (or `[` for a broken one); anything else is taken as an agent's prose answer. */
function looksLikeJsonl(head: string): boolean {
  const first = head
    .replace(/^\uFEFF/, '')
    .trimStart()
    .charAt(0);
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
      message: answer.blockLine === undefined ? 'no RELEVANT_FILES: block and no location in the text; the answer has no region' : 'the RELEVANT_FILES: block yields no region',
      instanceId: row.instance_id,
    });
  } else if (answer.blockLine === undefined) {
    // Scored (metrics-spec §10 falls back to locations in the prose), but the reader should know.
    problems.push({
      file,
      line: 0,
      severity: 'warning',
      code: 'answer-no-block',
      message: `no RELEVANT_FILES: block; ${answer.regions.length} region(s) taken from locations in the text`,
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
  if (options.format === 'answer' || !looksLikeJsonl(text)) return answerToResult(parseAnswerText(text, options.topK !== undefined ? { topK: options.topK } : {}), file, options);
  return dropDuplicates(
    parseJsonl(text, file, () => lazySchemas().PredictionRowSchema, fastParsePredictionRow),
    repeatedRows(file),
  );
}

/**
 * Reads a prediction file: JSONL result rows, streamed; or, when the file is not `.jsonl` /
 * `.ndjson` / `.json` and does not start with `{`, a plain-text agent answer (one row; with
 * `options.repoRoot` its paths must exist inside that checkout).
 */
export async function readPredictionFile(filePath: string, options: PredictionReadOptions = {}): Promise<JsonlResult<PredictionRow>> {
  const items: JsonlItem<PredictionRow>[] = [];
  const problems = await streamPredictionFile(filePath, options, (item) => items.push(item));
  return { items, problems };
}

/**
 * {@link readPredictionFile} without keeping the rows: each one it would return goes to `visit` as
 * it is read, in order. Returns the problems, sorted by line.
 */
export async function streamPredictionFile(filePath: string, options: PredictionReadOptions, visit: (item: JsonlItem<PredictionRow>) => void): Promise<Problem[]> {
  const answerOnly = options.format === 'answer';
  if (answerOnly || !JSONL_EXTENSIONS.has(path.extname(filePath).toLowerCase())) {
    let text: string | undefined;
    try {
      // Refuses FIFOs and devices before reading: sniffing one would block or never end.
      const { handle, size } = await openRegularFile(filePath);
      try {
        const buf = Buffer.alloc(4096);
        const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
        if (answerOnly || !looksLikeJsonl(buf.subarray(0, bytesRead).toString('utf8'))) {
          // An answer is read whole; the line limit bounds it too, so a huge file is refused.
          const limit = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
          if (size > limit) {
            return [{ file: filePath, line: 0, severity: 'error', code: 'io-error', message: `cannot read file: it is ${size} bytes, larger than the ${limit}-byte limit for a plain-text answer` }];
          }
          text = (await handle.readFile()).toString('utf8');
        }
      } finally {
        await handle.close();
      }
    } catch (error) {
      return [ioProblem(filePath, error)];
    }
    if (text !== undefined) {
      const parseOptions = options.topK !== undefined ? { topK: options.topK } : {};
      const answer = options.repoRoot !== undefined ? await parseAnswerInRepo(text, options.repoRoot, parseOptions) : parseAnswerText(text, parseOptions);
      const result = answerToResult(answer, filePath, options);
      for (const item of result.items) visit(item);
      return result.problems;
    }
  }
  const lineOptions = options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {};
  const unique = repeatedRows(filePath);
  const problems = await streamJsonl(
    filePath,
    () => lazySchemas().PredictionRowSchema,
    (item) => {
      if (unique.admit(item)) visit(item);
    },
    fastParsePredictionRow,
    lineOptions,
  );
  return byLine(problems.concat(unique.problems));
}
