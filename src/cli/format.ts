import type { Profile } from '../core';
import { csvNumberCell, csvTextCell, escapeForTerminal, jsonForTerminal } from '../shared/escape';
import type { RepoSummary, ScoredRow, ScoreResult, ScoreTotals } from './scoreWorkspace';
import { COLUMN_GAP, columnPanels, wrapItems, wrapText } from './tableLayout';

export type OutputFormat = 'table' | 'json' | 'csv';

const PROFILE_NOTE: Record<Profile, string> = {
  official: 'profile official: line counts only for ground-truth-region files, as the official evaluator (citable numbers)',
  snapshot: "profile snapshot: line counts for every snapshot file (debugging; NOT the official evaluator's numbers)",
};

/** Output is handed to stdout in pieces of about this many UTF-16 units. */
const CHUNK_SIZE = 64 * 1024;

/**
 * `score --format json|csv` output, written row by row as scoring hands the rows over: at 17k rows
 * the output is ~9 MB, and keeping the rows to format them afterwards cost more than scoring them.
 * Lines are handed to `write` in chunks of whole lines, in order.
 */
export interface RowWriter {
  /** A promise when the output is backed up: the caller should wait for it before the next row. */
  row(row: ScoredRow): void | Promise<void>;
  /** The lines after the rows (macro averages), then whatever is still buffered. */
  end(totals: ScoreTotals, groups: readonly RepoSummary[]): void;
}

/**
 * Where output goes: a promise when it is backed up (stdout to a pipe whose reader is behind), for
 * the writer to hand on; queueing everything instead held the whole output in memory.
 */
export type Sink = (chunk: string) => void | Promise<void>;

/** Lines gathered into chunks of about {@link CHUNK_SIZE} before they are written. */
class Chunker {
  private chunk = '';

  constructor(private readonly write: Sink) {}

  line(text: string): void | Promise<void> {
    this.chunk += `${text}\n`;
    return this.chunk.length >= CHUNK_SIZE ? this.flush() : undefined;
  }

  flush(): void | Promise<void> {
    const chunk = this.chunk;
    this.chunk = '';
    return chunk === '' ? undefined : this.write(chunk);
  }
}

/**
 * One JSON object per row, then one `{explorer, macro, instances, profile}` line per explorer, then
 * one `{explorer, repo, macro, instances, profile}` line per group of `score --group-by repo`.
 * Written with {@link jsonForTerminal}: JSON.stringify escapes C0 controls but leaves C1 controls,
 * U+2028/2029 and bidi overrides raw; those are escaped too, so data cannot break a line or reach
 * the terminal raw, and every line still parses to the same values.
 */
export function jsonWriter(fields: readonly string[], profile: Profile, write: Sink): RowWriter {
  // Only the two strings come from data; metric values are numbers, whose JSON is always safe, so
  // they skip the escaping pass. Metric objects are written field by field in `fields` order (the
  // order JSON.stringify would use), with the text of repeated values (0, 1, 0.2, …) memoised:
  // formatting doubles dominated the output time at 17k rows. Ids and labels repeat too (an id per
  // explorer, a label per row), so their escaped JSON is memoised as well.
  const keys = fields.map((field, i) => `${i === 0 ? '' : ','}${JSON.stringify(field)}:`);
  const numberText = new Map<number, string>();
  const textJson = new Map<string, string>();
  const quoted = (text: string): string => {
    let json = textJson.get(text);
    if (json === undefined) textJson.set(text, (json = jsonForTerminal(text)));
    return json;
  };
  const out = new Chunker(write);
  return {
    row({ instanceId, explorer, metrics }) {
      let line = `{"instance_id":${quoted(instanceId)},"explorer":${quoted(explorer)},"metrics":{`;
      for (let i = 0; i < keys.length; i++) {
        const value = metrics[fields[i]!]!;
        let text = numberText.get(value);
        if (text === undefined) {
          text = JSON.stringify(value);
          if (numberText.size < 4096) numberText.set(value, text);
        }
        line += keys[i]! + text;
      }
      return out.line(`${line}}}`);
    },
    end(totals, groups) {
      for (const s of totals.summaries) out.line(jsonForTerminal({ explorer: s.explorer, macro: s.macro, instances: s.instances, profile }));
      for (const g of groups) out.line(jsonForTerminal({ explorer: g.explorer, repo: g.repo, macro: g.macro, instances: g.instances, profile }));
      out.flush();
    },
  };
}

function csvLine(texts: readonly string[], fields: readonly string[], values: Readonly<Record<string, number>>): string {
  const cells = texts.map(csvTextCell);
  for (const field of fields) cells.push(csvNumberCell(values[field]));
  return cells.join(',');
}

/**
 * Header, one row per instance, then one `MACRO` row per explorer, then one `MACRO:<repo>` row per
 * explorer and repo of `score --group-by repo`. Numbers at full precision.
 * Text cells from data (instance ids, explorers) that a spreadsheet would run as a formula get a
 * leading `'`; metric values stay numbers (see {@link csvTextCell}).
 */
export function csvWriter(fields: readonly string[], write: Sink): RowWriter {
  const out = new Chunker(write);
  const header = ['instance_id', 'explorer'];
  for (const field of fields) header.push(field);
  out.line(header.map(csvTextCell).join(','));
  return {
    row(row) {
      return out.line(csvLine([row.instanceId, row.explorer], fields, row.metrics));
    },
    end(totals, groups) {
      for (const s of totals.summaries) out.line(csvLine(['MACRO', s.explorer], fields, s.macro));
      for (const g of groups) out.line(csvLine([`MACRO:${g.repo}`, g.explorer], fields, g.macro));
      out.flush();
    },
  };
}

const SHORT: Record<string, string> = {
  precision: 'prec',
  recall: 'rec',
  f1_score: 'f1',
  hit_file_rate: 'hitF',
  noise_file_rate: 'noiseF',
  hit_region_rate: 'hitR',
  noise_region_rate: 'noiseR',
  weighted_core_coverage: 'wcc',
  context_efficiency: 'ctxEff',
  optional_coverage: 'optCov',
  first_useful_hit: 'fuh',
};

/** A metric's column heading in the score table (the query parser accepts every one of them). */
export function shortName(field: string): string {
  return SHORT[field] ?? field.replace('ndcg_at_', 'nDCG@').replace('recall_at_', 'R@');
}

/** The legend is wrapped at this width when the table itself is not (`width` 0). */
const LEGEND_WIDTH = 100;

/**
 * An aligned table (4 decimals) with the profile stated above it and macro rows below (then, for
 * `score --group-by repo`, a `MACRO <repo> (n)` row per explorer and repo), as chunks
 * of whole lines to write in order. It streams: widths are found in one pass over the rows and
 * lines are produced in a second, so no string or array proportional to the whole table is built
 * (and no row count can overflow the call stack). Ids and explorers are shown through
 * {@link escapeForTerminal}: a control character in data cannot recolour the terminal or break a
 * row. With `width` > 0 the metric columns are split into panels that fit it, instance and
 * explorer repeated in each ({@link columnPanels}); no cell is cut. A legend of the abbreviated
 * column names ends the table.
 */
export function* formatTable(result: ScoreResult, profile: Profile, groups: readonly RepoSummary[] = [], width = 0): Generator<string, void, undefined> {
  const header = ['instance', 'explorer'];
  for (const field of result.fields) header.push(shortName(field));
  const bodyCells = (id: string, explorer: string, values: Readonly<Record<string, number>>): string[] => {
    const cells = [escapeForTerminal(id), escapeForTerminal(explorer)];
    for (const field of result.fields) cells.push((values[field] ?? 0).toFixed(4));
    return cells;
  };
  const rowCells = function* (): Generator<string[], void, undefined> {
    for (const row of result.rows) yield bodyCells(row.instanceId, row.explorer, row.metrics);
  };
  const macroCells = function* (): Generator<string[], void, undefined> {
    for (const s of result.summaries) yield bodyCells(`MACRO (${s.instances})`, s.explorer, s.macro);
  };
  const groupCells = function* (): Generator<string[], void, undefined> {
    for (const g of groups) yield bodyCells(`MACRO ${g.repo} (${g.instances})`, g.explorer, g.macro);
  };

  const widths = header.map((cell) => cell.length);
  const widen = (cells: readonly string[]): void => {
    cells.forEach((cell, i) => {
      if (cell.length > widths[i]!) widths[i] = cell.length;
    });
  };
  for (const cells of rowCells()) widen(cells);
  for (const cells of macroCells()) widen(cells);
  for (const cells of groupCells()) widen(cells);

  const panels = columnPanels(widths, 2, width);
  let chunk = `${(width > 0 ? wrapText(PROFILE_NOTE[profile], width) : [PROFILE_NOTE[profile]]).join('\n')}\n`;
  for (let p = 0; p < panels.length; p++) {
    const columns = [0, 1, ...panels[p]!];
    const render = (cells: readonly string[]): string => columns.map((i) => (i < 2 ? cells[i]!.padEnd(widths[i]!) : cells[i]!.padStart(widths[i]!))).join(' '.repeat(COLUMN_GAP));
    const rule = columns.map((i) => '-'.repeat(widths[i]!)).join(' '.repeat(COLUMN_GAP));
    if (panels.length > 1) {
      const first = panels[p]![0]! - 1;
      const last = panels[p]![panels[p]!.length - 1]! - 1;
      const title = `metrics ${first}–${last} of ${result.fields.length} (split to fit ${width} columns; --width 0 prints one table)`;
      chunk += `${p === 0 ? '' : '\n'}${wrapText(title, width).join('\n')}\n`;
    }
    chunk += `${render(header)}\n${rule}\n`;
    for (const cells of rowCells()) {
      chunk += `${render(cells)}\n`;
      if (chunk.length >= CHUNK_SIZE) {
        yield chunk;
        chunk = '';
      }
    }
    if (result.summaries.length > 0) {
      chunk += `${rule}\n`;
      for (const cells of macroCells()) {
        chunk += `${render(cells)}\n`;
        if (chunk.length >= CHUNK_SIZE) {
          yield chunk;
          chunk = '';
        }
      }
    }
    if (groups.length > 0) {
      chunk += `${rule}\n`;
      for (const cells of groupCells()) {
        chunk += `${render(cells)}\n`;
        if (chunk.length >= CHUNK_SIZE) {
          yield chunk;
          chunk = '';
        }
      }
    }
  }
  if (result.skippedEmptyCore > 0) chunk += `(${result.skippedEmptyCore} row(s) skipped: empty core; --keep-empty-core scores them)\n`;
  const legend = result.fields.filter((field) => shortName(field) !== field).map((field) => `${shortName(field)} = ${field}`);
  if (legend.length > 0) chunk += `${wrapItems([`columns: ${legend[0]!}`, ...legend.slice(1)], width > 0 ? width : LEGEND_WIDTH).join('\n')}\n`;
  yield chunk;
}
