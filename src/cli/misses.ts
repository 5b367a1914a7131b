/**
 * `swe-explore misses`: why each core line was or was not found, per instance × explorer at one
 * budget. Loads and scores through the same workspace model and scoring path as `score`, so the
 * rows, labels, top-k and line counts are the same and `hit / core_lines` is `score`'s recall_at_B.
 */
import { MISS_CATEGORIES, type MissCounts } from '../core';
import { hasErrors, LineCountCache, loadWorkspace, missesOfWorkspaceModel, type MissesResult, type Problem } from '../data';
import { formatOption, parseCount, parseFlags, parseFormat, parseProfile, printProblems, requireExplorers, runGuarded, SCORED_INPUT_OPTIONS, workspaceSources, type Verb } from './args';
import { INPUT_FLAGS_HELP, INPUT_NOTES } from './score';
import { scoringSources } from './scoreWorkspace';
import { csvNumberCell, csvTextCell, escapeForTerminal, jsonForTerminal } from '../shared/escape';

/** `swe-explore misses …`. Exit 0, 1 when an input line was rejected (rows that loaded are printed), 2 usage. */
export async function runMisses(argv: string[]): Promise<number> {
  return runGuarded(() => misses(argv));
}

export const MISSES_VERB: Verb = {
  name: 'misses',
  summary: 'why core lines were missed, and which gold patch lines were reached',
  usage: `swe-explore misses --bench B.jsonl --preds P.jsonl [--preds Q.jsonl …] [--transcripts DIR …]
                   [--budget 500] [--k 5] [--profile official|snapshot]
                   [--repos DIR | --line-counts COUNTS.json] [--format json|table|csv]`,
  details: `Every core line of each row score scores, in exactly one category at budget B, the first that
applies: hit (reached by Recall@B's walk within B), beyond_budget, path_mismatch, inverted,
wrong_region, file_not_predicted; hit / core_lines equals score's recall_at_B. Then the gold
patch's base lines (removed lines, and the line each insertion follows) reached within B.

json (default): per row {"instance_id","explorer","budget","core_lines", the six counts,
"patch_lines","patch_hit"} (both null when the instance has no patch), then per explorer
{"explorer","budget","instances","totals"}, its patch sums over the rows with a patch (null when
none has one). csv: the same as cells, empty without a patch. table: patchHit as reached/lines.

Flags:
${INPUT_FLAGS_HELP}
  --budget 500               the line budget B
  --format json|table|csv    json (default)

Exit 0; 1 when an input line was rejected (the rows that loaded are still printed); 2 usage error.

${INPUT_NOTES}`,
  run: runMisses,
};

async function misses(argv: string[]): Promise<number> {
  const values = parseFlags(argv, {
    ...SCORED_INPUT_OPTIONS,
    budget: { type: 'string', default: '500' },
    ...formatOption('json'),
  });
  const sources = workspaceSources(values);
  requireExplorers(sources, 'misses');
  const profile = parseProfile(values.profile);
  const format = parseFormat(values.format, ['json', 'table', 'csv']);
  const k = parseCount(values.k, '--k');
  const budget = parseCount(values.budget, '--budget');

  const model = await loadWorkspace(scoringSources(sources));
  const result = await missesOfWorkspaceModel(model, { profile, k, budget }, new LineCountCache());
  const problems: Problem[] = [];
  for (const list of [model.problems, result.lineCountProblems, result.problems]) for (const p of list) problems.push(p);

  process.stdout.write(format === 'json' ? formatMissesJson(result) : format === 'csv' ? formatMissesCsv(result) : formatMissesTable(result, { profile, k, budget }));
  printProblems(problems);
  return hasErrors(problems) ? 1 : 0;
}

/** Patch lines and those reached within B; null for both when the instance (or no row of the explorer) has a patch. */
type PatchCounts = { readonly patchLines: number; readonly reachedLines: number } | null;

/** The six counts in category order, after `core_lines`, then `patch_lines` and `patch_hit`. */
function countFields(coreLines: number, counts: Readonly<MissCounts>, patch: PatchCounts): Record<string, number | null> {
  const out: Record<string, number | null> = { core_lines: coreLines };
  for (const category of MISS_CATEGORIES) out[category] = counts[category];
  out['patch_lines'] = patch?.patchLines ?? null;
  out['patch_hit'] = patch?.reachedLines ?? null;
  return out;
}

/**
 * One object per row (`instance_id, explorer, budget, core_lines`, the six counts, `patch_lines`,
 * `patch_hit`), then one `{explorer, budget, instances, totals}` per explorer (its patch sums over
 * the rows with a patch); every line through {@link jsonForTerminal}.
 */
export function formatMissesJson(result: MissesResult): string {
  let out = '';
  for (const { instanceId, explorer, anatomy, patch } of result.rows) {
    out += `${jsonForTerminal({ instance_id: instanceId, explorer, budget: anatomy.budget, ...countFields(anatomy.coreLines, anatomy.counts, patch) })}\n`;
  }
  for (const { explorer, budget, instances, totals, patchTotals } of result.totals) {
    out += `${jsonForTerminal({ explorer, budget, instances, totals: countFields(totals.coreLines, totals, patchTotals) })}\n`;
  }
  return out;
}

const CSV_HEADER = ['instance_id', 'explorer', 'budget', 'core_lines', ...MISS_CATEGORIES, 'patch_lines', 'patch_hit'];

/** A count cell, empty for null (no patch). */
function csvCountCell(value: number | null): string {
  return value === null ? '' : csvNumberCell(value);
}

/** Header, one line per row, then one `TOTAL` line per explorer (its instance count is not a column); patch cells empty without a patch. */
export function formatMissesCsv(result: MissesResult): string {
  const lines = [CSV_HEADER.map(csvTextCell).join(',')];
  const line = (first: string, explorer: string, budget: number, coreLines: number, counts: Readonly<MissCounts>, patch: PatchCounts): string => {
    const cells = [csvTextCell(first), csvTextCell(explorer), csvNumberCell(budget), csvNumberCell(coreLines)];
    for (const category of MISS_CATEGORIES) cells.push(csvNumberCell(counts[category]));
    cells.push(csvCountCell(patch?.patchLines ?? null), csvCountCell(patch?.reachedLines ?? null));
    return cells.join(',');
  };
  for (const { instanceId, explorer, anatomy, patch } of result.rows) lines.push(line(instanceId, explorer, anatomy.budget, anatomy.coreLines, anatomy.counts, patch));
  for (const { explorer, budget, totals, patchTotals } of result.totals) lines.push(line('TOTAL', explorer, budget, totals.coreLines, totals, patchTotals));
  return `${lines.join('\n')}\n`;
}

const TABLE_HEADER = ['instance', 'explorer', 'core', 'hit', 'beyond', 'pathMis', 'inverted', 'wrongReg', 'noFile', 'patchHit'];

/** An aligned table: budget, k and profile above it, per-explorer totals below; data escaped. */
export function formatMissesTable(result: MissesResult, run: { readonly profile: string; readonly k: number; readonly budget: number }): string {
  const cells = (first: string, explorer: string, coreLines: number, counts: Readonly<MissCounts>, patch: PatchCounts): string[] => {
    const out = [escapeForTerminal(first), escapeForTerminal(explorer), String(coreLines)];
    for (const category of MISS_CATEGORIES) out.push(String(counts[category]));
    // Reached / all gold patch lines, "-" without a patch.
    out.push(patch === null ? '-' : `${patch.reachedLines}/${patch.patchLines}`);
    return out;
  };
  const body = result.rows.map(({ instanceId, explorer, anatomy, patch }) => cells(instanceId, explorer, anatomy.coreLines, anatomy.counts, patch));
  const foot = result.totals.map(({ explorer, instances, totals, patchTotals }) => cells(`TOTAL (${instances})`, explorer, totals.coreLines, totals, patchTotals));
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
