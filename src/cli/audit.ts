/**
 * `swe-explore export` and `swe-explore audit-impact`: the audit log applied to a workspace.
 *
 * Both load through the workspace model and score through `src/data/scoring`, exactly like
 * `score`; the only difference is the ground truth handed to the scorer (the audited one).
 */
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { removalEffects, type LineCounts } from '../core';
import {
  computeAuditImpact,
  correctedBenchLines,
  defaultExportFile,
  exportRootFor,
  LineCountCache,
  loadAudit,
  loadWorkspace,
  renderImpactCsv,
  renderImpactMarkdown,
  writeBenchExport,
  type LoadedAudit,
  type Problem,
  type ScoringOptions,
  type WorkspaceModel,
} from '../data';
import { escapeForTerminal, jsonForTerminal } from '../shared/escape';
import {
  formatOption,
  parseCount,
  parseFlags,
  parseFormat,
  parseProfile,
  PREDS_OPTION,
  printError,
  printProblems,
  runGuarded,
  SCORING_OPTIONS,
  UsageError,
  workspaceSources,
  WORKSPACE_OPTIONS,
  type Verb,
} from './args';

/** `swe-explore export …`: writes the corrected bench. Exit 0 written, 1 written with audit errors or refused, 2 usage. */
export async function runExport(argv: string[]): Promise<number> {
  return runGuarded(async () => {
    const values = parseFlags(argv, { ...WORKSPACE_OPTIONS, audit: { type: 'string' }, output: { type: 'string', short: 'o' } });
    const sources = workspaceSources(values);
    if (values.audit === undefined) throw new UsageError('--audit is required (the .swe-explore/audit folder)');
    // Exports land under .swe-explore/ (never where the bench glob looks) and are registered there.
    const root = exportRootFor(values.audit, sources.benchFile);
    const output = values.output ?? defaultExportFile(root, sources.benchFile);
    if (await sameFile(output, sources.benchFile)) throw new UsageError('-o names the bench file itself; the bench is never modified');

    const model = await loadWorkspace(sources);
    const problems: Problem[] = [...model.problems];
    // A rejected bench line has no record to write: exporting would silently drop it.
    const rejected = model.problems.filter((p) => p.file === sources.benchFile && p.severity === 'error');
    if (rejected.length > 0) {
      printProblems(problems);
      printError(`${rejected.length} bench line(s) could not be read; nothing exported`);
      return 1;
    }
    const audit = await loadAudit(model, values.audit);
    for (const problem of audit.problems) problems.push(problem);
    const { lines, counts } = await correctedBenchLines(model, audit, new LineCountCache(), problems);
    reportNoEffect(model, audit, counts);

    await writeBenchExport(output, lines.length === 0 ? '' : `${lines.join('\n')}\n`, { root, benchFile: sources.benchFile });
    printProblems(problems);
    process.stderr.write(`wrote ${lines.length} record(s), ${audit.removals.size} with removals, to ${escapeForTerminal(output)}\n`);
    return audit.problems.some((p) => p.severity === 'error') ? 1 : 0;
  });
}

/** Removals outside every region change nothing: say so, one line each. */
function reportNoEffect(model: WorkspaceModel, audit: LoadedAudit, counts: ReadonlyMap<string, LineCounts>): void {
  for (const [instanceId, events] of audit.events) {
    const effects = removalEffects(model.instances.get(instanceId)!.groundTruth, audit.removals.get(instanceId)!, counts.get(instanceId) ?? new Map<string, number>());
    effects.forEach((effect, i) => {
      const event = events[i]!;
      if (effect.lines === 0)
        process.stderr.write(
          `${escapeForTerminal(`${event.file}:${event.line}`)}: note: the removal of ${escapeForTerminal(event.path)} ${event.start}–${event.end} covers no ${event.layer} line; it changes nothing\n`,
        );
    });
  }
}

async function sameFile(a: string, b: string): Promise<boolean> {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}

/** `swe-explore audit-impact …`: the report as JSON lines, Markdown or CSV. Exit 1 when an input line was rejected. */
export async function runAuditImpact(argv: string[]): Promise<number> {
  return runGuarded(async () => {
    const values = parseFlags(argv, {
      ...WORKSPACE_OPTIONS,
      ...PREDS_OPTION,
      audit: { type: 'string' },
      ...SCORING_OPTIONS,
      null: { type: 'string' },
      seed: { type: 'string' },
      ...formatOption('json'),
    });
    const sources = workspaceSources(values);
    if (values.audit === undefined) throw new UsageError('--audit is required (the .swe-explore/audit folder)');
    if (sources.predictionFiles.length === 0) throw new UsageError('audit-impact needs at least one --preds file');
    const profile = parseProfile(values.profile);
    const format = parseFormat(values.format, ['json', 'md', 'csv']);
    const trials = values.null === undefined ? 0 : parseCount(values.null, '--null');
    if (trials > 0 && values.seed === undefined) throw new UsageError('--null needs --seed S, so the random audits can be reproduced');
    // 0 is a seed like any other.
    const seed = values.seed === undefined ? 0 : parseCount(values.seed, '--seed', 0);
    const options: ScoringOptions = { profile, k: parseCount(values.k, '--k') };

    const model = await loadWorkspace(sources);
    const problems: Problem[] = [...model.problems];
    const audit = await loadAudit(model, values.audit);
    for (const problem of audit.problems) problems.push(problem);

    const report = await computeAuditImpact(model, audit, { profile, k: options.k, trials, seed }, new LineCountCache(), problems);

    printProblems(problems);
    if (format === 'json') for (const line of report) process.stdout.write(`${jsonForTerminal(line)}\n`);
    else process.stdout.write(format === 'md' ? renderImpactMarkdown(report) : renderImpactCsv(report));
    return problems.some((p) => p.severity === 'error') ? 1 : 0;
  });
}

export const EXPORT_VERB: Verb = {
  name: 'export',
  summary: 'the bench with the audit applied, written to .swe-explore/exports/',
  usage: 'swe-explore export --bench B.jsonl --audit DIR [--repos DIR | --line-counts COUNTS.json] [-o OUT]',
  details: `Writes the bench with every effective removal of the audit folder applied: records in their
order, untouched records byte-for-byte, changed records with only the changed ground_truth lists
rewritten, through a temporary file renamed into place. The bench itself is never modified.
Scoring the output gives exactly audit-impact's "after" numbers.

Default output: <root>/.swe-explore/exports/<bench>.audited.jsonl, where <root> holds the audit
folder's .swe-explore (--audit <root>/.swe-explore/audit), else it is the bench's folder; never
where the bench glob (bench*.jsonl) looks. Every export is registered (size, SHA-256) in
<root>/.swe-explore/exports/exports.jsonl, so the extension never loads it as the bench, even
moved or renamed (set sweExplore.data.benchFile to load an export on purpose).

Flags:
  --bench B.jsonl            the bench (required)
  --audit DIR                the audit folder, usually .swe-explore/audit (required)
  --repos DIR                where repo_dir is resolved (default: the bench file's folder)
  --line-counts COUNTS.json  {instance_id: {path: count}}, for removals on whole-file regions
  -o, --output OUT.jsonl     write here instead (registered too)

Exit 0 written; 1 written with audit errors, or nothing written because a bench line was
rejected; 2 on a usage error.`,
  run: runExport,
};

export const AUDIT_IMPACT_VERB: Verb = {
  name: 'audit-impact',
  summary: 'metrics before/after the audit, rankings (Kendall τ-b), agreement',
  usage: `swe-explore audit-impact --bench B.jsonl --preds P.jsonl [--preds Q.jsonl …] --audit DIR
                         [--repos DIR | --line-counts COUNTS.json] [--profile official|snapshot]
                         [--k 5] [--null N --seed S] [--format json|md|csv]`,
  details: `Macro metrics before and after the audit per explorer and per audited instance, explorer
rankings with Kendall's τ-b (precision, recall, nDCG@500, HitFile, context efficiency), removals
per reason, and Cohen's κ between each pair of authors who audited an instance (with the core
lines in dispute); with --null, τ of N random audits of the same size.

json (default): {"kind":"explorer"|"instance"|"ranking"|"reason"|"agreement"|"null",…} lines.

Flags:
  --bench B.jsonl            the bench (required)
  --preds P.jsonl            a prediction file; repeatable, at least one
  --audit DIR                the audit folder, usually .swe-explore/audit (required)
  --repos, --line-counts, --profile, --k
                             as for score
  --null N --seed S          also N random audits of the same size, seeded (reproducible)
  --format json|md|csv       json (default), a Markdown report, or CSV

Exit 0; 1 when an input line was rejected; 2 on a usage error.`,
  run: runAuditImpact,
};
