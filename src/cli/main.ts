import { parseArgs } from 'node:util';
import { PROFILES, type Profile } from '../core';
import { formatProblem, hasErrors, sortProblems, type Problem } from '../data';
import { formatCsv, formatJson, formatTable, type OutputFormat } from './format';
import { escapeForTerminal } from '../shared/escape';
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

/** A user-facing failure: printed as one line, never as a stack trace. */
class UsageError extends Error {}

/** No file has a billion lines and no explorer a billion predictions; larger values are typos. */
const MAX_COUNT_ARGUMENT = 1_000_000_000;

/**
 * A whole number in 1..1e9. Digits only, so `1e3`, `0x10` and `-1` are refused, and the bound keeps
 * every accepted value a safe integer (past 2^53 Number() silently rounds).
 */
function parsePositiveInt(value: string, flag: string): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < 1 || parsed > MAX_COUNT_ARGUMENT) {
    throw new UsageError(`${flag} takes a whole number from 1 to ${MAX_COUNT_ARGUMENT}, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** Problem lines carry data (ids, paths): controls are shown escaped so each stays one line. */
function printProblems(problems: readonly Problem[], write: (text: string) => void = (text) => process.stderr.write(text)): void {
  for (const problem of sortProblems(problems)) write(`${escapeForTerminal(formatProblem(problem))}\n`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'export') return runExport(rest);
  if (command === 'misses') return runMisses(rest);
  if (command === 'audit-impact') return runAuditImpact(rest);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: {
        bench: { type: 'string' },
        preds: { type: 'string', multiple: true },
        transcripts: { type: 'string', multiple: true },
        repos: { type: 'string' },
        'line-counts': { type: 'string' },
        profile: { type: 'string', default: 'official' },
        k: { type: 'string', default: '5' },
        budgets: { type: 'string', default: '100,300,500' },
        format: { type: 'string', default: 'table' },
        'keep-empty-core': { type: 'boolean', default: false },
        'group-by': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values;
  if (values.bench === undefined) throw new UsageError('--bench is required');
  const profile = PROFILES.find((p) => p === values.profile);
  if (profile === undefined) throw new UsageError(`--profile must be official or snapshot, got "${values.profile}"`);

  if (command === 'validate') {
    const problems = await validateSources({
      benchFile: values.bench,
      predictionFiles: values.preds ?? [],
      ...(values.repos === undefined ? {} : { reposRoot: values.repos }),
      ...(values['line-counts'] === undefined ? {} : { lineCountsFile: values['line-counts'] }),
    });
    printProblems(problems, (text) => process.stdout.write(text));
    const errors = problems.filter((p) => p.severity === 'error').length;
    process.stdout.write(`${errors} error(s), ${problems.length - errors} warning(s)\n`);
    return errors > 0 ? 1 : 0;
  }
  if (command !== 'score') throw new UsageError(`unknown command "${command}" (try --help)`);

  if ((values.preds ?? []).length === 0 && (values.transcripts ?? []).length === 0) throw new UsageError('score needs at least one --preds file or --transcripts folder');
  const format = values.format as OutputFormat;
  if (!['table', 'json', 'csv'].includes(format)) throw new UsageError(`--format must be table, json or csv, got "${values.format}"`);
  const groupBy = values['group-by'];
  if (groupBy !== undefined && groupBy !== 'repo') throw new UsageError(`--group-by takes repo, got ${JSON.stringify(groupBy)}`);
  const budgets = (values.budgets ?? '')
    .split(',')
    .filter((b) => b !== '')
    .map((b) => parsePositiveInt(b.trim(), '--budgets'));
  const result = await scoreWorkspace({
    benchFile: values.bench,
    predictionFiles: values.preds ?? [],
    transcriptFolders: values.transcripts ?? [],
    ...(values.repos === undefined ? {} : { reposRoot: values.repos }),
    ...(values['line-counts'] === undefined ? {} : { lineCountsFile: values['line-counts'] }),
    profile: profile as Profile,
    k: parsePositiveInt(values.k ?? '5', '--k'),
    budgets,
    keepEmptyCore: values['keep-empty-core'] ?? false,
    ...(groupBy === undefined ? {} : { groupBy }),
  });
  const groups = result.repoSummaries;
  const output = format === 'json' ? [formatJson(result, profile, groups)] : format === 'csv' ? [formatCsv(result, groups)] : formatTable(result, profile, groups);
  for (const chunk of output) process.stdout.write(chunk);
  printProblems(result.problems);
  return hasErrors(result.problems) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`swe-explore: ${escapeForTerminal(message)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
