import { hasErrors } from '../data';
import { formatOption, parseCount, parseFlags, parseFormat, parseProfile, printError, printProblems, requireExplorers, runGuarded, SCORED_INPUT_OPTIONS, UsageError, workspaceSources } from './args';
import { formatCsv, formatJson, formatTable } from './format';
import { AUDIT_IMPACT_USAGE, EXPORT_USAGE, runAuditImpact, runExport } from './audit';
import { scoreWorkspace, validateSources } from './scoreWorkspace';
import { MISSES_USAGE, runMisses } from './misses';

const USAGE = `swe-explore — score and validate SWE-Explore explorations (numbers match the official evaluator)

Usage:
  swe-explore score --bench B.jsonl --preds P.jsonl [--preds Q.jsonl …] [--repos DIR]
                    [--line-counts COUNTS.json] [--profile official|snapshot] [--k 5]
                    [--budgets 100,300,500] [--format table|json|csv] [--keep-empty-core]
                    [--group-by repo] [--transcripts DIR …]
  swe-explore validate --bench B.jsonl [--preds P.jsonl …] [--repos DIR] [--line-counts COUNTS.json]
  ${EXPORT_USAGE.trimEnd().split('\n').join('\n  ')}
  ${AUDIT_IMPACT_USAGE.trimEnd().split('\n').join('\n  ')}
  ${MISSES_USAGE.trimEnd().split('\n').join('\n  ')}
  swe-explore --help

score     per-instance rows with the official metric names, then macro averages per explorer
          (with --group-by repo, then per explorer and repo too).
          Exit 1 when an input line was rejected (the rows that loaded are still printed).
validate  every problem as file:line: severity: message; exit 1 if any is an error.

Line counts (for end -1 and negative starts): --line-counts FILE, else line_counts.json beside the
bench when present, first; the instance's snapshot files for the paths it does not list. An explorer
name found in several --preds files becomes one explorer per file, labelled "name (file)".
--transcripts DIR: a folder of agent answers with a RELEVANT_FILES: block, <instance_id>.txt|.md|.log
(or <instance_id>/<file> one level down), read as one explorer named after the folder.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'export') return runExport(rest);
  if (command === 'misses') return runMisses(rest);
  if (command === 'audit-impact') return runAuditImpact(rest);
  // score and validate share one flag set (so validate ignores the scoring flags rather than refusing them).
  const values = parseFlags(rest, {
    ...SCORED_INPUT_OPTIONS,
    budgets: { type: 'string', default: '100,300,500' },
    ...formatOption('table'),
    'keep-empty-core': { type: 'boolean', default: false },
    'group-by': { type: 'string' },
  });
  const sources = workspaceSources(values);
  const profile = parseProfile(values.profile);

  if (command === 'validate') {
    // validate checks the bench and the prediction files; it has never read transcript folders.
    const problems = await validateSources({ ...sources, transcriptFolders: [] });
    printProblems(problems, (text) => process.stdout.write(text));
    const errors = problems.filter((p) => p.severity === 'error').length;
    process.stdout.write(`${errors} error(s), ${problems.length - errors} warning(s)\n`);
    return errors > 0 ? 1 : 0;
  }
  if (command !== 'score') throw new UsageError(`unknown command "${command}" (try --help)`);

  requireExplorers(sources, 'score');
  const format = parseFormat(values.format, ['table', 'json', 'csv']);
  const groupBy = values['group-by'];
  if (groupBy !== undefined && groupBy !== 'repo') throw new UsageError(`--group-by takes repo, got ${JSON.stringify(groupBy)}`);
  const budgets = values.budgets
    .split(',')
    .filter((b) => b !== '')
    .map((b) => parseCount(b.trim(), '--budgets'));
  const result = await scoreWorkspace({
    ...sources,
    profile,
    k: parseCount(values.k, '--k'),
    budgets,
    keepEmptyCore: values['keep-empty-core'],
    ...(groupBy === undefined ? {} : { groupBy }),
  });
  const groups = result.repoSummaries;
  const output = format === 'json' ? [formatJson(result, profile, groups)] : format === 'csv' ? [formatCsv(result, groups)] : formatTable(result, profile, groups);
  for (const chunk of output) process.stdout.write(chunk);
  printProblems(result.problems);
  return hasErrors(result.problems) ? 1 : 0;
}

runGuarded(() => main(process.argv.slice(2))).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printError(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
