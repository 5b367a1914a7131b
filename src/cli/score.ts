/**
 * `swe-explore score` and `swe-explore validate`: the two verbs that share one flag set (so
 * validate ignores the scoring flags rather than refusing them).
 */
import { once } from 'node:events';
import { hasErrors, metricFields, type Problem } from '../data';
import { formatOption, parseCount, parseFlags, parseFormat, parseProfile, printProblems, requireExplorers, runGuarded, SCORED_INPUT_OPTIONS, UsageError, workspaceSources, type Verb } from './args';
import { csvWriter, formatTable, jsonWriter } from './format';
import { scoreWorkspace, scoreWorkspaceEach, validateSources, type ScoreOptions } from './scoreWorkspace';

const FLAGS = {
  ...SCORED_INPUT_OPTIONS,
  budgets: { type: 'string', default: '100,300,500' },
  ...formatOption('table'),
  'keep-empty-core': { type: 'boolean', default: false },
  'group-by': { type: 'string' },
  width: { type: 'string' },
} as const;

/** Explains where line counts and explorer labels come from; every scoring verb's help ends with it. */
export const INPUT_NOTES = `Line counts (for end -1 and negative starts): --line-counts FILE, else line_counts.json beside the
bench when present, first; the instance's snapshot files for the paths it does not list. An explorer
name found in several --preds files becomes one explorer per file, labelled "name (file)".`;

/** The flags every scoring verb reads, as help lines. */
export const INPUT_FLAGS_HELP = `  --bench B.jsonl            the bench: records with ground_truth (required)
  --preds P.jsonl            a prediction file, rows {instance_id, explorer, regions}; repeatable
  --transcripts DIR          agent answers with a RELEVANT_FILES: block, <instance_id>.txt|.md|.log
                             (or <instance_id>/<file>), one explorer per folder; repeatable
  --repos DIR                where repo_dir is resolved (default: the bench file's folder)
  --line-counts COUNTS.json  {instance_id: {path: count}}, used before the snapshots
  --profile official|snapshot
                             official (default): line counts only for ground-truth-region files, as
                             the official evaluator (citable); snapshot: every snapshot file (debug)
  --k 5                      predictions cut to the top k, as the official runner does`;

/** The table width: `--width N` (0: one unsplit table), else the terminal's when writing to one, else unsplit. */
function tableWidth(value: string | undefined): number {
  if (value !== undefined) return parseCount(value, '--width', 0);
  return process.stdout.isTTY ? (process.stdout.columns ?? 0) : 0;
}

async function score(argv: string[]): Promise<number> {
  const values = parseFlags(argv, FLAGS);
  const sources = workspaceSources(values);
  const profile = parseProfile(values.profile);
  requireExplorers(sources, 'score');
  const format = parseFormat(values.format, ['table', 'json', 'csv']);
  const groupBy = values['group-by'];
  if (groupBy !== undefined && groupBy !== 'repo') throw new UsageError(`--group-by takes repo, got ${JSON.stringify(groupBy)}`);
  const width = tableWidth(values.width);
  const budgets = values.budgets
    .split(',')
    .filter((b) => b !== '')
    .map((b) => parseCount(b.trim(), '--budgets'));
  const options: ScoreOptions = {
    ...sources,
    profile,
    k: parseCount(values.k, '--k'),
    budgets,
    keepEmptyCore: values['keep-empty-core'],
    ...(groupBy === undefined ? {} : { groupBy }),
  };
  let problems: readonly Problem[];
  if (format === 'table') {
    // The table's column widths depend on every row, so its rows are kept.
    const result = await scoreWorkspace(options);
    for (const chunk of formatTable(result, profile, result.repoSummaries, width)) process.stdout.write(chunk);
    problems = result.problems;
  } else {
    // JSON and CSV lines are written row by row; no row is kept for them. A pipe whose reader is
    // behind queues what is written: waiting for it to drain keeps the output out of memory.
    const write = (text: string): void | Promise<void> => (process.stdout.write(text) ? undefined : once(process.stdout, 'drain').then(() => undefined));
    const fields = metricFields(budgets);
    const writer = format === 'json' ? jsonWriter(fields, profile, write) : csvWriter(fields, write);
    const totals = await scoreWorkspaceEach(options, (row) => writer.row(row));
    writer.end(totals, totals.repoSummaries);
    problems = totals.problems;
  }
  printProblems(problems);
  return hasErrors(problems) ? 1 : 0;
}

async function validate(argv: string[]): Promise<number> {
  const values = parseFlags(argv, FLAGS);
  const sources = workspaceSources(values);
  parseProfile(values.profile);
  // validate checks the bench and the prediction files; it has never read transcript folders.
  const problems = await validateSources({ ...sources, transcriptFolders: [] });
  printProblems(problems, (text) => process.stdout.write(text));
  const errors = problems.filter((p) => p.severity === 'error').length;
  process.stdout.write(`${errors} error(s), ${problems.length - errors} warning(s)\n`);
  return errors > 0 ? 1 : 0;
}

export const SCORE_VERB: Verb = {
  name: 'score',
  summary: 'the 17 official metrics per instance × explorer, then macro averages',
  usage: `swe-explore score --bench B.jsonl --preds P.jsonl [--preds Q.jsonl …] [--transcripts DIR …]
                  [--repos DIR] [--line-counts COUNTS.json] [--profile official|snapshot] [--k 5]
                  [--budgets 100,300,500] [--format table|json|csv] [--keep-empty-core]
                  [--group-by repo] [--width N]`,
  details: `Per-instance rows with the official metric names, then macro averages per explorer (with
--group-by repo, then per explorer and repo too). The numbers equal the official evaluator's.

Flags:
${INPUT_FLAGS_HELP}
  --budgets 100,300,500      other budgets add ndcg_at_B / recall_at_B fields
  --format table|json|csv    table (default); json: one {"instance_id","explorer","metrics"} per
                             row, then one {"explorer","macro","instances","profile"} per explorer;
                             csv: the same as cells
  --keep-empty-core          also score instances without core regions (the runner skips them)
  --group-by repo            also macro averages per explorer × repo
  --width N                  split the table's metric columns into panels N columns wide (nothing
                             is cut; instance and explorer repeat). Default: the terminal's width
                             on a terminal, one unsplit table when piped or redirected; 0: unsplit

Exit 0; 1 when an input line was rejected (the rows that loaded are still printed); 2 usage error.

${INPUT_NOTES}`,
  run: (argv) => runGuarded(() => score(argv)),
};

export const VALIDATE_VERB: Verb = {
  name: 'validate',
  summary: 'every problem of the bench and prediction files, as file:line: message',
  usage: `swe-explore validate --bench B.jsonl [--preds P.jsonl …] [--repos DIR]
                     [--line-counts COUNTS.json]`,
  details: `Checks the files as the extension's Problems panel does. Errors: malformed JSON, schema
violations, duplicate ids, paths escaping the snapshot. Warnings: inverted or past-EOF regions,
missing files, unknown instances, duplicate predictions. Ends with "N error(s), M warning(s)".

Flags:
  --bench B.jsonl            the bench (required)
  --preds P.jsonl            a prediction file; repeatable
  --repos DIR                where repo_dir is resolved (default: the bench file's folder)
  --line-counts COUNTS.json  {instance_id: {path: count}}, used before the snapshots
The scoring flags of score are accepted and ignored.

Exit 0 when no error was found (warnings allowed); 1 when one was; 2 on a usage error.`,
  run: (argv) => runGuarded(() => validate(argv)),
};
