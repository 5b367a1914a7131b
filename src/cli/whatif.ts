/**
 * `swe-explore whatif`: each record's core rebuilt under another rule set (issue 20), how many core
 * lines join and leave, every explorer's macro averages and rankings before → after, and (with
 * `-o`) the variant bench. Output keys and their order are a contract (issue 20 item 3).
 */
import * as path from 'node:path';
import { parseWhatIfRules, whatIfRulesKey, type WhatIfRules } from '../core';
import {
  hasErrors,
  LineCountCache,
  loadWorkspace,
  renderWhatIfCsv,
  renderWhatIfMarkdown,
  variantBenchLines,
  whatIfLines,
  whatIfOutputRefusal,
  whatIfRegistryRoot,
  whatIfScores,
  WhatIfSession,
  writeBenchExport,
  type InstanceWhatIf,
  type Problem,
  type WhatIfScores,
  type WorkspaceModel,
} from '../data';
import { escapeForTerminal, jsonForTerminal } from '../shared/escape';
import {
  formatOption,
  parseCount,
  parseFlags,
  parseFormat,
  parseProfile,
  parseReportSources,
  parseTrajectoryTemplates,
  PREDS_OPTION,
  printError,
  printProblems,
  runGuarded,
  SCORING_OPTIONS,
  TRAJECTORY_SOURCE_OPTIONS,
  UsageError,
  workspaceSources,
  WORKSPACE_OPTIONS,
  type Verb,
  requireFolder,
} from './args';

const FLAGS = {
  ...WORKSPACE_OPTIONS,
  ...PREDS_OPTION,
  ...SCORING_OPTIONS,
  ...TRAJECTORY_SOURCE_OPTIONS,
  rules: { type: 'string' },
  'drop-promoted': { type: 'boolean', default: false },
  ...formatOption('json'),
  output: { type: 'string', short: 'o' },
} as const;

/** Problems of the instances' runs, counts and regions that the what-if could not resolve. */
function instanceProblems(model: WorkspaceModel, result: InstanceWhatIf): Problem[] {
  const entry = model.instances.get(result.instanceId)!;
  const at = { file: model.benchFile ?? '', line: entry.benchLine, instanceId: result.instanceId };
  const out: Problem[] = [...result.problems];
  for (const run of result.runs) {
    if (run.verification === undefined || run.verification.verified) continue;
    const describe = `${run.verification.matched} of ${run.verification.recorded} recorded reads match`;
    out.push({ ...at, severity: 'warning', code: 'trajectory-not-found', message: `run ${JSON.stringify(run.trajPath)} does not match the record (${describe}); rebuilt from the run as found` });
  }
  for (const p of result.variant.unresolvedPaths) {
    out.push({
      ...at,
      severity: 'warning',
      code: 'unresolvable-region',
      message: `${JSON.stringify(p)} has no line count: its whole-file and tail regions stay unresolved (end -1) and out of the counts`,
    });
  }
  return out;
}

/** What the rules did with the runs, for stderr: how many were rebuilt, used as recorded (and why), dropped. */
function runsSummary(results: readonly InstanceWhatIf[], rules: WhatIfRules): string[] {
  let rebuilt = 0;
  let dropped = 0;
  const notFound = new Map<string, number>();
  let unreadable = 0;
  let notResolved = 0;
  let withoutReport = 0;
  for (const result of results) {
    result.variant.runs.forEach((outcome, i) => {
      const info = result.runs[i]!;
      if (outcome.status === 'rebuilt') rebuilt++;
      else if (outcome.status === 'dropped') dropped++;
      else if (!info.located.found) notFound.set(outcome.label, (notFound.get(outcome.label) ?? 0) + 1);
      else unreadable++;
      if (outcome.dropReason === 'not-resolved') notResolved++;
      if (outcome.status !== 'dropped' && outcome.resolution === 'unknown') withoutReport++;
    });
  }
  const asRecorded = [...notFound.values()].reduce((a, b) => a + b, 0) + unreadable;
  const why = [...[...notFound].map(([label, n]) => `${n} of ${label} not found`), ...(unreadable > 0 ? [`${unreadable} unreadable`] : [])];
  const lines = [`runs: ${rebuilt} rebuilt under the rules, ${asRecorded} as recorded${why.length > 0 ? ` (${why.join(', ')})` : ''}, ${dropped} dropped`];
  if (rules.resolvedOnly) lines.push(`resolved-only: ${notResolved} run(s) not resolved (dropped), ${withoutReport} kept run(s) without a report (kept)`);
  return lines;
}

async function whatif(argv: string[]): Promise<number> {
  const values = parseFlags(argv, FLAGS);
  const sources = workspaceSources(values);
  if (values.rules === undefined) throw new UsageError('--rules is required: a comma list of official, as-seen, resolved-only, drop-model:M, support:K');
  const parsed = parseWhatIfRules(values.rules, values['drop-promoted']);
  if (!parsed.ok) throw new UsageError(`--rules: ${parsed.message}`);
  const rules = parsed.rules;
  const profile = parseProfile(values.profile);
  const k = parseCount(values.k, '--k');
  const format = parseFormat(values.format, ['json', 'md', 'csv']);
  const templates = parseTrajectoryTemplates(values['traj-template']);
  const reports = parseReportSources(values.reports);
  for (const root of values.trajs ?? []) await requireFolder(root, '--trajs');
  const output = values.output;
  if (output !== undefined) {
    const refusal = await whatIfOutputRefusal(output, [sources.benchFile, ...sources.predictionFiles, ...(sources.lineCountsFile === undefined ? [] : [sources.lineCountsFile])]);
    if (refusal !== undefined) throw new UsageError(`-o ${output} ${refusal}`);
  }

  const model = await loadWorkspace(sources);
  const problems: Problem[] = [...model.problems];
  // A rejected bench line has no record to write: the variant would silently drop it.
  const rejected = model.problems.filter((p) => p.file === sources.benchFile && p.severity === 'error');
  if (output !== undefined && rejected.length > 0) {
    printProblems(problems);
    printError(`${rejected.length} bench line(s) could not be read; no variant written`);
    return 1;
  }
  const cache = new LineCountCache();
  const session = new WhatIfSession(
    model,
    {
      locator: { roots: values.trajs ?? [path.dirname(sources.benchFile)], templates, templateBase: process.cwd() },
      reports,
      reportsBase: process.cwd(),
      retainRuns: false,
    },
    cache,
  );
  const variants = await session.variants(rules, { instancesAtOnce: 2 });
  const results = [...variants.values()];
  for (const result of results) for (const p of instanceProblems(model, result)) problems.push(p);

  const notes = runsSummary(results, rules);
  let scores: WhatIfScores | undefined;
  if (sources.predictionFiles.length > 0) {
    scores = await whatIfScores(model, variants, { profile, k }, cache);
    for (const p of scores.problems) problems.push(p);
    if (scores.emptiedByVariant.length > 0) notes.push(`${scores.emptiedByVariant.length} instance(s) whose core the rules empty are left out of both macro averages`);
    if (scores.filledByVariant.length > 0) notes.push(`${scores.filledByVariant.length} instance(s) with an empty core as written are left out of both macro averages`);
  }
  const lines = whatIfLines(variants, scores);

  if (format === 'json') {
    let out = '';
    for (const line of lines) out += `${jsonForTerminal(line)}\n`;
    process.stdout.write(out);
  } else process.stdout.write(format === 'md' ? renderWhatIfMarkdown(lines, whatIfRulesKey(rules)) : renderWhatIfCsv(lines));

  if (output !== undefined) {
    const records = variantBenchLines(model, variants);
    await writeBenchExport(output, records.length === 0 ? '' : `${records.join('\n')}\n`, { root: whatIfRegistryRoot(output, sources.benchFile), benchFile: sources.benchFile });
    notes.push(`wrote the variant bench (${records.length} record(s)) to ${output}`);
  }
  printProblems(problems);
  for (const note of notes) process.stderr.write(`${escapeForTerminal(note)}\n`);
  return hasErrors(problems) ? 1 : 0;
}

export const WHATIF_VERB: Verb = {
  name: 'whatif',
  summary: 'cores rebuilt under other read rules or runs: scores, rankings moved',
  usage: `swe-explore whatif --bench B.jsonl --rules RULES [--trajs ROOT …]
                   [--traj-template KEY=TEMPLATE …] [--reports KEY=PATH …] [--drop-promoted]
                   [--repos DIR | --line-counts COUNTS.json] [--preds P.jsonl …]
                   [--profile official|snapshot] [--k 5] [--format json|md|csv] [-o VARIANT.jsonl]`,
  details: `Rebuilds each record's core as R_int (what every run read) under the rules, plus the
promoted regions (core minus R_int as written) unless --drop-promoted, merged per file.
A run the record cites that is found is re-extracted under the rules ("rebuilt"); one that is
not contributes its recorded read_step_info reads unchanged ("as_recorded").

RULES, a comma list:
  official                   the builder's credit (default when no extraction rule is named)
  as-seen                    each read credits the lines the agent saw: nl -ba F | sed -n 'a,bp'
                             its range, grep -n pat F its numbered lines, head -N F 1..N,
                             tail -n +K F K..end, heredoc writes nothing; a path a flag
                             swallowed (cat -n F, cat -v F, nl -v F, less -n F, more -n F:
                             the whole file; head -q/-v F, tail -q/-v F: head's/tail's range)
                             is credited
  resolved-only              drop runs a --reports report marks not resolved (runs without a
                             report are kept and counted on stderr)
  drop-model:M               drop the runs of model M (traj_path model folder or model name)
  support:K                  a line is core when at least K of the kept runs read it

json (default), in this order:
  {"kind":"instance","instance_id","core_lines_before","core_lines_after","joined","left",
   "runs":{"rebuilt","as_recorded","dropped"}} per record;
  with --preds, {"kind":"explorer","explorer","before":{17 metrics},"after":{17 metrics}} per
   explorer (macro averages as score computes them, over the instances scored on both sides),
   then {"kind":"ranking","metric","before":[…],"after":[…],"kendall_tau_b"} for precision,
   recall, ndcg_at_500, hit_file_rate, context_efficiency;
  one {"kind":"total","instances","core_lines_before","core_lines_after","joined","left"}.
md: a Markdown report; csv: the same numbers in long form.

Flags:
  --bench B.jsonl            the bench (required)
  --rules RULES              the rule set (required)
  --trajs ROOT               a folder a traj_path is looked up under; repeatable (default: the
                             bench file's folder)
  --traj-template KEY=TEMPLATE
                             where a model's runs are ({instance_id}, {model_folder},
                             {file_name}); KEY is a traj_path model folder or a model name
  --reports KEY=PATH         SWE-bench harness reports (folder of <id>/report.json or
                             <id>.report.json, or one file); repeatable
  --drop-promoted            leave the promoted regions out
  --repos, --line-counts, --preds, --profile, --k
                             as for score
  --format json|md|csv       json (default)
  -o, --output VARIANT.jsonl write the variant bench: read_core_regions the variant core,
                             read_core_files its files, main_files those in modified_core_files,
                             meta recounted, every other byte as read (registered like an export;
                             never the bench, an input, or inside .swe-explore/audit)

Exit 0; 1 when an input line was rejected or a run could not be read; 2 usage error.`,
  run: (argv) => runGuarded(() => whatif(argv)),
};
