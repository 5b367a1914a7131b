/**
 * `swe-explore misses`: why each core line was or was not found, per instance × explorer at one
 * budget. Loads and scores through the same workspace model and scoring path as `score`, so the
 * rows, labels, top-k and line counts are the same and `hit / core_lines` is `score`'s recall_at_B.
 */
import { MISS_CATEGORIES, type MissCounts } from '../core';
import {
  defaultWorkerCount,
  hasErrors,
  indexExplorerRuns,
  isFolder,
  LineCountCache,
  loadWorkspace,
  missesOfWorkspaceModel,
  type ExplorerRunIndex,
  type MissesResult,
  type Problem,
  type RowSeen,
  type SeenTotals,
} from '../data';
import {
  checkExplorerLabels,
  formatOption,
  parseCount,
  parseExplorerTrajectories,
  parseFlags,
  parseFormat,
  parseProfile,
  printProblems,
  requireExplorers,
  runGuarded,
  SCORED_INPUT_OPTIONS,
  UsageError,
  workspaceSources,
  type Verb,
} from './args';
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
                   [--repos DIR | --line-counts COUNTS.json] [--format json|table|csv]
                   [--explorer-trajs EXPLORER=DIR …]`,
  details: `Every core line of each row score scores, in exactly one category at budget B, the first that
applies: hit (reached by Recall@B's walk within B), beyond_budget, path_mismatch, inverted,
wrong_region, file_not_predicted; hit / core_lines equals score's recall_at_B. Then the gold
patch's base lines (removed lines, and the line each insertion follows) reached within B.

json (default): per row {"instance_id","explorer","budget","core_lines", the six counts,
"patch_lines","patch_hit"} (both null when the instance has no patch), then per explorer
{"explorer","budget","instances","totals"}, its patch sums over the rows with a patch (null when
none has one). csv: the same as cells, empty without a patch. table: patchHit as reached/lines.

With --explorer-trajs EXPLORER=DIR (the explorer's own runs: DIR/<instance_id>.<ext> or
DIR/<instance_id>/<file>, any trajectory format), each row of that explorer ends with
"seen":{the six categories: core lines of each the run viewed},"viewed_core_lines","trajectory"
(the run's path), or "seen":null,"trajectory":null when it has no (readable) run for the instance;
its totals line gains, inside "totals", the summed "seen", "viewed_core_lines" and "runs" (rows
with a run). Rows of other explorers are unchanged. csv: seen_<category>, viewed_core_lines, runs
(1 or 0 per row) and trajectory columns; table: sHit … sNoFile, viewed and runs.

Flags:
${INPUT_FLAGS_HELP}
  --budget 500               the line budget B
  --format json|table|csv    json (default)
  --explorer-trajs EXPLORER=DIR
                             the explorer's own runs (EXPLORER: its label as score prints it);
                             repeatable, one per explorer

Exit 0; 1 when an input line was rejected (the rows that loaded are still printed); 2 usage error.

${INPUT_NOTES}`,
  run: runMisses,
};

async function misses(argv: string[]): Promise<number> {
  const values = parseFlags(argv, {
    ...SCORED_INPUT_OPTIONS,
    budget: { type: 'string', default: '500' },
    'explorer-trajs': { type: 'string', multiple: true },
    ...formatOption('json'),
  });
  const trajectoryFolders = parseExplorerTrajectories(values['explorer-trajs']);
  const sources = workspaceSources(values);
  requireExplorers(sources, 'misses');
  const profile = parseProfile(values.profile);
  const format = parseFormat(values.format, ['json', 'table', 'csv']);
  const k = parseCount(values.k, '--k');
  const budget = parseCount(values.budget, '--budget');

  const model = await loadWorkspace(scoringSources(sources));
  checkExplorerLabels('--explorer-trajs', trajectoryFolders.keys(), [...model.explorers.keys()]);
  const runs = new Map<string, ExplorerRunIndex>();
  const problems: Problem[] = [];
  for (const [label, folder] of trajectoryFolders) {
    if (!(await isFolder(folder))) throw new UsageError(`--explorer-trajs ${label}=${folder}: not a folder`);
    const index = await indexExplorerRuns(folder, (id) => model.instances.has(id));
    for (const p of index.problems) problems.push(p);
    runs.set(label, index);
  }
  const result = await missesOfWorkspaceModel(model, { profile, k, budget, ...(runs.size === 0 ? {} : { explorerRuns: { runs, workers: defaultWorkerCount() } }) }, new LineCountCache());
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

/** The six categories as an object, in category order. */
function categoryObject(counts: Readonly<MissCounts>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const category of MISS_CATEGORIES) out[category] = counts[category];
  return out;
}

/** A row's explorer-run fields: none without a run folder; `seen, viewed_core_lines, trajectory` with a run; `seen: null, trajectory: null` without. */
function seenFields(seen: RowSeen | null | undefined): Record<string, unknown> {
  if (seen === undefined) return {};
  if (seen === null) return { seen: null, trajectory: null };
  return { seen: categoryObject(seen.anatomy.seen), viewed_core_lines: seen.anatomy.viewedCoreLines, trajectory: seen.trajectory };
}

/** The totals' explorer-run fields (after the patch sums): `seen`, `viewed_core_lines`, `runs`. */
function seenTotalFields(totals: SeenTotals | undefined): Record<string, unknown> {
  return totals === undefined ? {} : { seen: categoryObject(totals.seen), viewed_core_lines: totals.viewedCoreLines, runs: totals.runs };
}

/**
 * One object per row (`instance_id, explorer, budget, core_lines`, the six counts, `patch_lines`,
 * `patch_hit`, then with explorer runs `seen`, `viewed_core_lines`, `trajectory`), then one
 * `{explorer, budget, instances, totals}` per explorer (its patch sums over the rows with a patch,
 * then with explorer runs the summed `seen`, `viewed_core_lines` and `runs`); every line through
 * {@link jsonForTerminal}.
 */
export function formatMissesJson(result: MissesResult): string {
  let out = '';
  for (const { instanceId, explorer, anatomy, patch, seen } of result.rows) {
    out += `${jsonForTerminal({ instance_id: instanceId, explorer, budget: anatomy.budget, ...countFields(anatomy.coreLines, anatomy.counts, patch), ...seenFields(seen) })}\n`;
  }
  for (const { explorer, budget, instances, totals, patchTotals, seenTotals } of result.totals) {
    out += `${jsonForTerminal({ explorer, budget, instances, totals: { ...countFields(totals.coreLines, totals, patchTotals), ...seenTotalFields(seenTotals) } })}\n`;
  }
  return out;
}

/** Whether any explorer of the result was given its runs (the CSV and the table then grow the run columns). */
function hasRunColumns(result: MissesResult): boolean {
  return result.totals.some((t) => t.seenTotals !== undefined) || result.rows.some((r) => r.seen !== undefined);
}

const CSV_HEADER = ['instance_id', 'explorer', 'budget', 'core_lines', ...MISS_CATEGORIES, 'patch_lines', 'patch_hit'];
const CSV_RUN_HEADER = [...MISS_CATEGORIES.map((c) => `seen_${c}`), 'viewed_core_lines', 'runs', 'trajectory'];

/** The run cells of a CSV line: empty without a run folder; zero runs and empty counts without a run. */
function csvRunCells(seen: { counts: Readonly<MissCounts>; viewed: number; runs: number; trajectory: string } | null | undefined, hasFolder: boolean): string[] {
  if (!hasFolder) return CSV_RUN_HEADER.map(() => '');
  if (seen === null || seen === undefined) return [...MISS_CATEGORIES.map(() => ''), '', '0', ''];
  return [...MISS_CATEGORIES.map((c) => csvNumberCell(seen.counts[c])), csvNumberCell(seen.viewed), csvNumberCell(seen.runs), csvTextCell(seen.trajectory)];
}

/** A count cell, empty for null (no patch). */
function csvCountCell(value: number | null): string {
  return value === null ? '' : csvNumberCell(value);
}

/**
 * Header, one line per row, then one `TOTAL` line per explorer (its instance count is not a column);
 * patch cells empty without a patch. With explorer runs, the run columns follow (empty for explorers
 * without runs; `runs` 1 or 0 per row, the sum on `TOTAL`).
 */
export function formatMissesCsv(result: MissesResult): string {
  const runColumns = hasRunColumns(result);
  const lines = [[...CSV_HEADER, ...(runColumns ? CSV_RUN_HEADER : [])].map(csvTextCell).join(',')];
  const line = (first: string, explorer: string, budget: number, coreLines: number, counts: Readonly<MissCounts>, patch: PatchCounts): string => {
    const cells = [csvTextCell(first), csvTextCell(explorer), csvNumberCell(budget), csvNumberCell(coreLines)];
    for (const category of MISS_CATEGORIES) cells.push(csvNumberCell(counts[category]));
    cells.push(csvCountCell(patch?.patchLines ?? null), csvCountCell(patch?.reachedLines ?? null));
    return cells.join(',');
  };
  const runCells = (seen: Parameters<typeof csvRunCells>[0], hasFolder: boolean): string => (runColumns ? `,${csvRunCells(seen, hasFolder).join(',')}` : '');
  for (const { instanceId, explorer, anatomy, patch, seen } of result.rows) {
    const run = seen === undefined || seen === null ? seen : { counts: seen.anatomy.seen, viewed: seen.anatomy.viewedCoreLines, runs: 1, trajectory: seen.trajectory };
    lines.push(line(instanceId, explorer, anatomy.budget, anatomy.coreLines, anatomy.counts, patch) + runCells(run, seen !== undefined));
  }
  for (const { explorer, budget, totals, patchTotals, seenTotals } of result.totals) {
    const run = seenTotals === undefined ? undefined : { counts: seenTotals.seen, viewed: seenTotals.viewedCoreLines, runs: seenTotals.runs, trajectory: '' };
    lines.push(line('TOTAL', explorer, budget, totals.coreLines, totals, patchTotals) + runCells(run, seenTotals !== undefined));
  }
  return `${lines.join('\n')}\n`;
}

const TABLE_HEADER = ['instance', 'explorer', 'core', 'hit', 'beyond', 'pathMis', 'inverted', 'wrongReg', 'noFile', 'patchHit'];
const TABLE_RUN_HEADER = ['sHit', 'sBeyond', 'sPathMis', 'sInverted', 'sWrongReg', 'sNoFile', 'viewed', 'runs'];

/** The run cells of a table line: `-` without a run folder; a run-less row shows its 0 runs. */
function tableRunCells(seen: { counts: Readonly<MissCounts>; viewed: number; runs: number } | null | undefined, hasFolder: boolean): string[] {
  if (!hasFolder) return TABLE_RUN_HEADER.map(() => '-');
  if (seen === null || seen === undefined) return [...MISS_CATEGORIES.map(() => '-'), '-', '0'];
  return [...MISS_CATEGORIES.map((c) => String(seen.counts[c])), String(seen.viewed), String(seen.runs)];
}

/** An aligned table: budget, k and profile above it, per-explorer totals below; data escaped. */
export function formatMissesTable(result: MissesResult, run: { readonly profile: string; readonly k: number; readonly budget: number }): string {
  const runColumns = hasRunColumns(result);
  const header = runColumns ? [...TABLE_HEADER, ...TABLE_RUN_HEADER] : TABLE_HEADER;
  const cells = (first: string, explorer: string, coreLines: number, counts: Readonly<MissCounts>, patch: PatchCounts): string[] => {
    const out = [escapeForTerminal(first), escapeForTerminal(explorer), String(coreLines)];
    for (const category of MISS_CATEGORIES) out.push(String(counts[category]));
    // Reached / all gold patch lines, "-" without a patch.
    out.push(patch === null ? '-' : `${patch.reachedLines}/${patch.patchLines}`);
    return out;
  };
  const body = result.rows.map(({ instanceId, explorer, anatomy, patch, seen }) => {
    const line = cells(instanceId, explorer, anatomy.coreLines, anatomy.counts, patch);
    const run = seen === undefined || seen === null ? seen : { counts: seen.anatomy.seen, viewed: seen.anatomy.viewedCoreLines, runs: 1 };
    return runColumns ? [...line, ...tableRunCells(run, seen !== undefined)] : line;
  });
  const foot = result.totals.map(({ explorer, instances, totals, patchTotals, seenTotals }) => {
    const line = cells(`TOTAL (${instances})`, explorer, totals.coreLines, totals, patchTotals);
    const run = seenTotals === undefined ? undefined : { counts: seenTotals.seen, viewed: seenTotals.viewedCoreLines, runs: seenTotals.runs };
    return runColumns ? [...line, ...tableRunCells(run, seenTotals !== undefined)] : line;
  });
  const widths = header.map((h) => h.length);
  for (const row of [body, foot]) {
    for (const line of row) {
      line.forEach((cell, i) => {
        if (cell.length > widths[i]!) widths[i] = cell.length;
      });
    }
  }
  const render = (line: readonly string[]): string => line.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  let out = `core lines by miss category at B = ${run.budget}, top-${run.k}, profile ${run.profile}\n${render(header)}\n${rule}\n`;
  for (const line of body) out += `${render(line)}\n`;
  if (foot.length > 0) {
    out += `${rule}\n`;
    for (const line of foot) out += `${render(line)}\n`;
  }
  if (result.skippedEmptyCore > 0) out += `(${result.skippedEmptyCore} row(s) skipped: empty core)\n`;
  if (runColumns) out += `sHit … sNoFile: core lines of that category the explorer's own run viewed; viewed: their sum; runs: rows with a run (-: no --explorer-trajs for the explorer)\n`;
  return out;
}
