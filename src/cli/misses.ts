/**
 * `swe-explore misses`: why each core line was or was not found, per instance × explorer at one
 * budget. Loads and scores through the same workspace model and scoring path as `score`, so the
 * rows, labels, top-k and line counts are the same and `hit / core_lines` is `score`'s recall_at_B.
 */
import { parseArgs } from 'node:util';
import { MISS_CATEGORIES, PROFILES, type MissCounts } from '../core';
import { formatProblem, hasErrors, LineCountCache, loadWorkspace, missesOfWorkspaceModel, sortProblems, type MissesResult, type Problem } from '../data';
import { csvNumberCell, csvTextCell, escapeForTerminal, jsonForTerminal } from '../shared/escape';

export const MISSES_USAGE = `swe-explore misses --bench B.jsonl --preds P.jsonl [--preds Q.jsonl …] [--transcripts DIR …] [--budget 500] [--k 5]
          [--profile official|snapshot] [--repos DIR | --line-counts COUNTS.json] [--format json|table|csv]
          every core line of each scored row in one category at budget B: hit, beyond_budget,
          path_mismatch, inverted, wrong_region, file_not_predicted (first that applies); then
          totals per explorer. hit / core_lines equals score's recall_at_B. Default format json.
`;

/** A user-facing failure: printed as one line, never as a stack trace. */
class MissesUsageError extends Error {}

function parseCount(value: string, flag: string): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < 1 || parsed > 1_000_000_000) throw new MissesUsageError(`${flag} takes a whole number from 1 to 1000000000, got ${JSON.stringify(value)}`);
  return parsed;
}

/** `swe-explore misses …`. Exit 0, 1 when an input line was rejected (rows that loaded are printed), 2 usage. */
export async function runMisses(argv: string[]): Promise<number> {
  try {
    return await misses(argv);
  } catch (error) {
    if (error instanceof MissesUsageError) {
      process.stderr.write(`swe-explore: ${escapeForTerminal(error.message)}\n`);
      return 2;
    }
    throw error;
  }
}

async function misses(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        bench: { type: 'string' },
        preds: { type: 'string', multiple: true },
        transcripts: { type: 'string', multiple: true },
        repos: { type: 'string' },
        'line-counts': { type: 'string' },
        profile: { type: 'string', default: 'official' },
        k: { type: 'string', default: '5' },
        budget: { type: 'string', default: '500' },
        format: { type: 'string', default: 'json' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new MissesUsageError((error as Error).message);
  }
  if (values.bench === undefined) throw new MissesUsageError('--bench is required');
  const predictionFiles = values.preds ?? [];
  const transcriptFolders = values.transcripts ?? [];
  if (predictionFiles.length === 0 && transcriptFolders.length === 0) throw new MissesUsageError('misses needs at least one --preds file or --transcripts folder');
  const profile = PROFILES.find((p) => p === values.profile);
  if (profile === undefined) throw new MissesUsageError(`--profile must be official or snapshot, got ${JSON.stringify(values.profile)}`);
  const format = values.format;
  if (format !== 'json' && format !== 'table' && format !== 'csv') throw new MissesUsageError(`--format must be json, table or csv, got ${JSON.stringify(format)}`);
  const k = parseCount(values.k, '--k');
  const budget = parseCount(values.budget, '--budget');

  const model = await loadWorkspace({
    benchFile: values.bench,
    predictionFiles,
    transcriptFolders,
    ...(values.repos === undefined ? {} : { reposRoot: values.repos }),
    ...(values['line-counts'] === undefined ? {} : { lineCountsFile: values['line-counts'] }),
    // Transcripts are parsed against their instance's snapshot, so snapshots are located up front then.
    ...(transcriptFolders.length === 0 ? { locateSnapshots: 'when-needed' as const } : {}),
  });
  const result = await missesOfWorkspaceModel(model, { profile, k, budget }, new LineCountCache());
  const problems: Problem[] = [];
  for (const list of [model.problems, result.lineCountProblems, result.problems]) for (const p of list) problems.push(p);

  process.stdout.write(format === 'json' ? formatMissesJson(result) : format === 'csv' ? formatMissesCsv(result) : formatMissesTable(result, { profile, k, budget }));
  for (const problem of sortProblems(problems)) process.stderr.write(`${escapeForTerminal(formatProblem(problem))}\n`);
  return hasErrors(problems) ? 1 : 0;
}

/** The six counts in category order, after `core_lines`. */
function countFields(coreLines: number, counts: Readonly<MissCounts>): Record<string, number> {
  const out: Record<string, number> = { core_lines: coreLines };
  for (const category of MISS_CATEGORIES) out[category] = counts[category];
  return out;
}

/**
 * One object per row (`instance_id, explorer, budget, core_lines` and the six counts), then one
 * `{explorer, budget, instances, totals}` per explorer; every line through {@link jsonForTerminal}.
 */
export function formatMissesJson(result: MissesResult): string {
  let out = '';
  for (const { instanceId, explorer, anatomy } of result.rows) {
    out += `${jsonForTerminal({ instance_id: instanceId, explorer, budget: anatomy.budget, ...countFields(anatomy.coreLines, anatomy.counts) })}\n`;
  }
  for (const { explorer, budget, instances, totals } of result.totals) {
    out += `${jsonForTerminal({ explorer, budget, instances, totals: countFields(totals.coreLines, totals) })}\n`;
  }
  return out;
}

const CSV_HEADER = ['instance_id', 'explorer', 'budget', 'core_lines', ...MISS_CATEGORIES];

/** Header, one line per row, then one `TOTAL` line per explorer (its instance count is not a column). */
export function formatMissesCsv(result: MissesResult): string {
  const lines = [CSV_HEADER.map(csvTextCell).join(',')];
  const line = (first: string, explorer: string, budget: number, coreLines: number, counts: Readonly<MissCounts>): string => {
    const cells = [csvTextCell(first), csvTextCell(explorer), csvNumberCell(budget), csvNumberCell(coreLines)];
    for (const category of MISS_CATEGORIES) cells.push(csvNumberCell(counts[category]));
    return cells.join(',');
  };
  for (const { instanceId, explorer, anatomy } of result.rows) lines.push(line(instanceId, explorer, anatomy.budget, anatomy.coreLines, anatomy.counts));
  for (const { explorer, budget, totals } of result.totals) lines.push(line('TOTAL', explorer, budget, totals.coreLines, totals));
  return `${lines.join('\n')}\n`;
}

const TABLE_HEADER = ['instance', 'explorer', 'core', 'hit', 'beyond', 'pathMis', 'inverted', 'wrongReg', 'noFile'];

/** An aligned table: budget, k and profile above it, per-explorer totals below; data escaped. */
export function formatMissesTable(result: MissesResult, run: { readonly profile: string; readonly k: number; readonly budget: number }): string {
  const cells = (first: string, explorer: string, coreLines: number, counts: Readonly<MissCounts>): string[] => {
    const out = [escapeForTerminal(first), escapeForTerminal(explorer), String(coreLines)];
    for (const category of MISS_CATEGORIES) out.push(String(counts[category]));
    return out;
  };
  const body = result.rows.map(({ instanceId, explorer, anatomy }) => cells(instanceId, explorer, anatomy.coreLines, anatomy.counts));
  const foot = result.totals.map(({ explorer, instances, totals }) => cells(`TOTAL (${instances})`, explorer, totals.coreLines, totals));
  const widths = TABLE_HEADER.map((h) => h.length);
  for (const row of [body, foot]) {
    for (const line of row) {
      line.forEach((cell, i) => {
        if (cell.length > widths[i]!) widths[i] = cell.length;
      });
    }
  }
  const render = (line: readonly string[]): string => line.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  let out = `core lines by miss category at B = ${run.budget}, top-${run.k}, profile ${run.profile}\n${render(TABLE_HEADER)}\n${rule}\n`;
  for (const line of body) out += `${render(line)}\n`;
  if (foot.length > 0) {
    out += `${rule}\n`;
    for (const line of foot) out += `${render(line)}\n`;
  }
  if (result.skippedEmptyCore > 0) out += `(${result.skippedEmptyCore} row(s) skipped: empty core)\n`;
  return out;
}
