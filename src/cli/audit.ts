/**
 * `swe-explore export` and `swe-explore audit-impact`: the audit log applied to a workspace.
 *
 * Both load through the workspace model and score through `src/data/scoring`, exactly like
 * `score`; the only difference is the ground truth handed to the scorer (the audited one).
 */
import { removalEffects, type LineCounts } from '../core';
import {
  computeAuditImpact,
  defaultExportFile,
  exportRootFor,
  exportTargetRefusal,
  LineCountCache,
  loadAudit,
  loadWorkspace,
  renderImpactCsv,
  renderImpactMarkdown,
  writeBenchExport,
  writeCorrectedBench,
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
    const refusal = await exportTargetRefusal(output, sources.benchFile, values.audit);
    if (refusal !== undefined) throw new UsageError(`-o ${refusal}`);

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
    const written = await writeCorrectedBench(model, audit, new LineCountCache(), problems, (content) => writeBenchExport(output, content, { root, benchFile: sources.benchFile }));
    reportNoEffect(model, audit, written.counts);
    printProblems(problems);
    process.stderr.write(`wrote ${written.records} record(s), ${audit.removals.size} with removals, to ${escapeForTerminal(output)}\n`);
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

/**
 * Random audits `--null` runs at most: each rescores the whole workspace, so 100,000 is already
 * hours on a full benchmark, and a mistyped 1e9 would be weeks.
 */
export const MAX_NULL_TRIALS = 100_000;

/** Seconds between two progress lines of the null model. */
const PROGRESS_EVERY_MS = 1_000;

/** Progress of the null model on stderr: one line a second or so, and the last one; rewritten in place on a terminal. */
function nullProgress(): (done: number, total: number) => void {
  let last = 0;
  const tty = process.stderr.isTTY;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    const text = `null model: ${done}/${total} random audits`;
    process.stderr.write(tty ? `\r${text}${done === total ? '\n' : ''}` : `${text}\n`);
  };
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
    const trials = values.null === undefined ? 0 : parseCount(values.null, '--null', 1, MAX_NULL_TRIALS);
    if (trials > 0 && values.seed === undefined) throw new UsageError('--null needs --seed S, so the random audits can be reproduced');
    // 0 is a seed like any other.
    const seed = values.seed === undefined ? 0 : parseCount(values.seed, '--seed', 0);
    const options: ScoringOptions = { profile, k: parseCount(values.k, '--k') };

    const model = await loadWorkspace(sources);
    const problems: Problem[] = [...model.problems];
    const audit = await loadAudit(model, values.audit);
    for (const problem of audit.problems) problems.push(problem);

    const report = await computeAuditImpact(model, audit, { profile, k: options.k, trials, seed, onNullTrial: nullProgress() }, new LineCountCache(), problems);

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
order, untouched records byte-for-byte (invalid UTF-8 included), changed records with only the
changed ground_truth lists rewritten, through a temporary file renamed into place. Neither the
bench nor anything inside the audit folder is ever written (OUT is compared by real path, so a
symlink or a .. cannot get around it).
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
lines in dispute) — above 30 authors on one instance, one Fleiss' κ over all of them instead;
with --null, τ of N random audits of the same size (N at most 100000; progress on stderr).

json (default): {"kind":…} lines, kind one of explorer, instance, ranking, reason, agreement,
agreement_fleiss, null.

Flags:
  --bench B.jsonl            the bench (required)
  --preds P.jsonl            a prediction file; repeatable, at least one
  --audit DIR                the audit folder, usually .swe-explore/audit (required)
  --repos, --line-counts, --profile, --k
                             as for score
  --null N --seed S          also N (1…100000) random audits of the same size, seeded (reproducible)
  --format json|md|csv       json (default), a Markdown report, or CSV

Exit 0; 1 when an input line was rejected or the audit has an error (a log that is a link or a
FIFO, an event in another author's name, an event id used twice); 2 on a usage error.`,
  run: runAuditImpact,
};
