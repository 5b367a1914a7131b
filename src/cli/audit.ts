/**
 * `swe-explore export` and `swe-explore audit-impact`: the audit log applied to a workspace.
 *
 * Both load through the workspace model and score through `src/data/scoring`, exactly like
 * `score`; the only difference is the ground truth handed to the scorer (the audited one).
 */
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { PROFILES, removalEffects, type LineCounts } from '../core';
import {
  computeAuditImpact,
  correctedBenchLines,
  formatProblem,
  LineCountCache,
  loadAudit,
  loadWorkspace,
  renderImpactCsv,
  renderImpactMarkdown,
  sortProblems,
  writeFileAtomically,
  type LoadedAudit,
  type Problem,
  type ScoringOptions,
  type WorkspaceModel,
} from '../data';
import { escapeForTerminal, jsonForTerminal } from '../shared/escape';

export const EXPORT_USAGE = `swe-explore export --bench B.jsonl --audit DIR [--repos DIR | --line-counts COUNTS.json] -o OUT.jsonl
          the bench with every effective removal of the audit folder applied; untouched records
          byte-for-byte as read. The bench file itself is never modified.
`;

export const AUDIT_IMPACT_USAGE = `swe-explore audit-impact --bench B.jsonl --preds P.jsonl [--preds Q.jsonl …] --audit DIR
          [--repos DIR | --line-counts COUNTS.json] [--profile official|snapshot] [--k 5]
          [--null N --seed S] [--format json|md|csv]
          before/after macro metrics per explorer, per audited instance, explorer rankings with
          Kendall τ-b, removals per reason, and Cohen's κ between each pair of authors who audited
          an instance (with the core lines in dispute); with --null, τ of N random audits of the same size.
`;

/** A user-facing failure: printed as one line, never as a stack trace. */
class AuditUsageError extends Error {}

function printProblems(problems: readonly Problem[]): void {
  for (const problem of sortProblems(problems)) process.stderr.write(`${escapeForTerminal(formatProblem(problem))}\n`);
}

function parseCount(value: string, flag: string, min: number): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > 1_000_000_000) throw new AuditUsageError(`${flag} takes a whole number from ${min} to 1000000000, got ${JSON.stringify(value)}`);
  return parsed;
}

/** Runs a command body; usage errors print one line and exit 2. */
async function guarded(body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof AuditUsageError) {
      process.stderr.write(`swe-explore: ${escapeForTerminal(error.message)}\n`);
      return 2;
    }
    throw error;
  }
}

/** `swe-explore export …`: writes the corrected bench. Exit 0 written, 1 written with audit errors or refused, 2 usage. */
export async function runExport(argv: string[]): Promise<number> {
  return guarded(async () => {
    let values;
    try {
      ({ values } = parseArgs({
        args: argv,
        options: { bench: { type: 'string' }, audit: { type: 'string' }, repos: { type: 'string' }, 'line-counts': { type: 'string' }, output: { type: 'string', short: 'o' } },
        strict: true,
        allowPositionals: false,
      }));
    } catch (error) {
      throw new AuditUsageError((error as Error).message);
    }
    if (values.bench === undefined) throw new AuditUsageError('--bench is required');
    if (values.audit === undefined) throw new AuditUsageError('--audit is required (the .swe-explore/audit folder)');
    if (values.output === undefined) throw new AuditUsageError('-o OUT.jsonl is required');
    if (await sameFile(values.output, values.bench)) throw new AuditUsageError('-o names the bench file itself; the bench is never modified');

    const model = await loadWorkspace({
      benchFile: values.bench,
      predictionFiles: [],
      ...(values.repos === undefined ? {} : { reposRoot: values.repos }),
      ...(values['line-counts'] === undefined ? {} : { lineCountsFile: values['line-counts'] }),
    });
    const problems: Problem[] = [...model.problems];
    // A rejected bench line has no record to write: exporting would silently drop it.
    const rejected = model.problems.filter((p) => p.file === values.bench && p.severity === 'error');
    if (rejected.length > 0) {
      printProblems(problems);
      process.stderr.write(`swe-explore: ${rejected.length} bench line(s) could not be read; nothing exported\n`);
      return 1;
    }
    const audit = await loadAudit(model, values.audit);
    for (const problem of audit.problems) problems.push(problem);
    const { lines, counts } = await correctedBenchLines(model, audit, new LineCountCache(), problems);
    reportNoEffect(model, audit, counts);

    await writeFileAtomically(values.output, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
    printProblems(problems);
    process.stderr.write(`wrote ${lines.length} record(s), ${audit.removals.size} with removals, to ${escapeForTerminal(values.output)}\n`);
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
  return guarded(async () => {
    let values;
    try {
      ({ values } = parseArgs({
        args: argv,
        options: {
          bench: { type: 'string' },
          preds: { type: 'string', multiple: true },
          audit: { type: 'string' },
          repos: { type: 'string' },
          'line-counts': { type: 'string' },
          profile: { type: 'string', default: 'official' },
          k: { type: 'string', default: '5' },
          null: { type: 'string' },
          seed: { type: 'string' },
          format: { type: 'string', default: 'json' },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (error) {
      throw new AuditUsageError((error as Error).message);
    }
    if (values.bench === undefined) throw new AuditUsageError('--bench is required');
    if (values.audit === undefined) throw new AuditUsageError('--audit is required (the .swe-explore/audit folder)');
    const predictionFiles = values.preds ?? [];
    if (predictionFiles.length === 0) throw new AuditUsageError('audit-impact needs at least one --preds file');
    const profile = PROFILES.find((p) => p === values.profile);
    if (profile === undefined) throw new AuditUsageError(`--profile must be official or snapshot, got ${JSON.stringify(values.profile)}`);
    const format = values.format;
    if (format !== 'json' && format !== 'md' && format !== 'csv') throw new AuditUsageError(`--format must be json, md or csv, got ${JSON.stringify(format)}`);
    const trials = values.null === undefined ? 0 : parseCount(values.null, '--null', 1);
    if (trials > 0 && values.seed === undefined) throw new AuditUsageError('--null needs --seed S, so the random audits can be reproduced');
    const seed = values.seed === undefined ? 0 : parseCount(values.seed, '--seed', 0);
    const options: ScoringOptions = { profile, k: parseCount(values.k, '--k', 1) };

    const model = await loadWorkspace({
      benchFile: values.bench,
      predictionFiles,
      ...(values.repos === undefined ? {} : { reposRoot: values.repos }),
      ...(values['line-counts'] === undefined ? {} : { lineCountsFile: values['line-counts'] }),
    });
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
