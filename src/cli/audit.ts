/**
 * `swe-explore export` and `swe-explore audit-impact`: the audit log applied to a workspace.
 *
 * Both load through the workspace model and score through `src/data/scoring`, exactly like
 * `score`; the only difference is the ground truth handed to the scorer (the audited one).
 */
import { readFile, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import {
  applyRemovals,
  auditImpact,
  lineSetSubtract,
  nullModelImpact,
  prepareGroundTruth,
  PROFILES,
  removalEffects,
  resolvedLines,
  type ImpactLine,
  type LineCounts,
  type NullModelInstance,
  type PreparedGroundTruth,
  type Removal,
  type ReasonCount,
} from '../core';
import {
  driftProblem,
  driftStatus,
  exportCorrectedBench,
  formatProblem,
  groundTruthPaths,
  instanceLineCounts,
  LineCountCache,
  loadWorkspace,
  readAuditFolder,
  removalsByInstance,
  renderImpactCsv,
  renderImpactMarkdown,
  resolveInSnapshot,
  scoreRows,
  sortProblems,
  writeFileAtomically,
  type InstanceEntry,
  type Problem,
  type RemoveEvent,
  type ScoreResult,
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
          Kendall τ-b, removals per reason; with --null, τ of N random audits of the same size.
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

/** The effective removals, with the audit's problems, drift flags and removals of unknown instances reported. */
interface LoadedAudit {
  readonly removals: Map<string, Removal[]>;
  readonly events: Map<string, RemoveEvent[]>;
  readonly audited: Set<string>;
  readonly problems: Problem[];
}

async function loadAudit(model: WorkspaceModel, auditDir: string): Promise<LoadedAudit> {
  const audit = await readAuditFolder(auditDir);
  const problems: Problem[] = [...audit.problems];
  const events = new Map<string, RemoveEvent[]>();
  for (const event of audit.effectiveRemovals) {
    if (!model.instances.has(event.instanceId)) {
      problems.push({
        file: event.file,
        line: event.line,
        severity: 'warning',
        code: 'unknown-instance',
        message: `removal for ${JSON.stringify(event.instanceId)}, which the bench does not contain; ignored`,
        instanceId: event.instanceId,
      });
      continue;
    }
    let list = events.get(event.instanceId);
    if (list === undefined) events.set(event.instanceId, (list = []));
    list.push(event);
  }
  const audited = new Set<string>(events.keys());
  for (const { instanceId } of audit.accepted) if (model.instances.has(instanceId)) audited.add(instanceId);
  const removals = new Map<string, Removal[]>();
  for (const [instanceId, list] of events) removals.set(instanceId, removalsByInstance(list).get(instanceId) ?? []);
  for (const [instanceId, list] of events) await checkDrift(model.instances.get(instanceId)!, list, problems);
  return { removals, events, audited, problems };
}

/** Flags removals whose recorded text no longer matches the snapshot (never moves them). */
async function checkDrift(entry: InstanceEntry, events: readonly RemoveEvent[], problems: Problem[]): Promise<void> {
  if (entry.snapshotRoot === undefined) return;
  const texts = new Map<string, string | undefined>();
  for (const event of events) {
    if (event.textSha === null) continue;
    if (!texts.has(event.path)) {
      const resolved = await resolveInSnapshot(entry.snapshotRoot, event.path);
      texts.set(event.path, resolved.ok ? await readFile(resolved.real, 'utf8').catch(() => undefined) : undefined);
    }
    const text = texts.get(event.path);
    if (text !== undefined && driftStatus(event, text) === 'drifted') problems.push(driftProblem(event));
  }
}

/** Line counts of an instance's ground-truth-region paths (plus `extra`), problems collected. */
async function countsFor(model: WorkspaceModel, entry: InstanceEntry, cache: LineCountCache, problems: Problem[], extra: Iterable<string> = []): Promise<Map<string, number>> {
  const paths = groundTruthPaths(entry.groundTruth);
  for (const p of extra) paths.add(p);
  const counted = await instanceLineCounts(model, entry, paths, cache);
  for (const problem of counted.problems) problems.push(problem);
  return counted.counts;
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
    const cache = new LineCountCache();
    const counts = new Map<string, LineCounts>();
    for (const instanceId of audit.removals.keys()) counts.set(instanceId, await countsFor(model, model.instances.get(instanceId)!, cache, problems));
    reportNoEffect(model, audit, counts);

    const lines = exportCorrectedBench(
      model.benchItems.map((item) => ({ raw: item.raw, record: item.value })),
      audit.removals,
      counts,
    );
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

    // Line counts once per scored instance, for every scoring pass (before, after, null trials).
    const cache = new LineCountCache();
    const counts = new Map<string, Map<string, number>>();
    for (const run of model.explorers.values()) {
      for (const instanceId of run.rows.keys()) {
        const entry = model.instances.get(instanceId);
        if (entry === undefined || counts.has(instanceId)) continue;
        const extra = profile === 'snapshot' ? predictionPaths(model, instanceId) : [];
        counts.set(instanceId, await countsFor(model, entry, cache, problems, extra));
      }
    }
    for (const instanceId of audit.removals.keys()) if (!counts.has(instanceId)) counts.set(instanceId, await countsFor(model, model.instances.get(instanceId)!, cache, problems));

    // Instances a pass does not audit reuse the ground truth prepared for "before".
    const preparedBefore = new Map<string, PreparedGroundTruth>();
    const scoreWith = (removals: ReadonlyMap<string, readonly Removal[]>): ScoreResult =>
      scoreRows(
        model,
        (entry) => {
          const lineCounts = counts.get(entry.instanceId) ?? new Map<string, number>();
          const list = removals.get(entry.instanceId);
          if (list === undefined || list.length === 0) {
            let prepared = preparedBefore.get(entry.instanceId);
            if (prepared === undefined) preparedBefore.set(entry.instanceId, (prepared = prepareGroundTruth(entry.groundTruth, lineCounts, profile)));
            return prepared;
          }
          const groundTruth = applyRemovals(entry.groundTruth, list, lineCounts);
          // An instance whose core the audit emptied drops out, as `score` skips empty cores.
          return groundTruth.coreRegions.length === 0 ? undefined : prepareGroundTruth(groundTruth, lineCounts, profile);
        },
        options,
      );
    const before = scoreWith(new Map());
    for (const problem of before.problems) problems.push(problem);
    const after = scoreWith(audit.removals);

    const reasons: ReasonCount[] = [];
    const nullInstances: NullModelInstance[] = [];
    for (const [instanceId, events] of audit.events) {
      const entry = model.instances.get(instanceId)!;
      const lineCounts = counts.get(instanceId) ?? new Map<string, number>();
      const removals = audit.removals.get(instanceId)!;
      removalEffects(entry.groundTruth, removals, lineCounts).forEach((effect, i) => reasons.push({ reason: events[i]!.reason, lines: effect.lines }));
      // The evaluator's view of core lines (official: only ground-truth paths have counts).
      const visible = prepareGroundTruth(entry.groundTruth, lineCounts, profile).evaluatorLineCount;
      const evaluatorCounts = new Map<string, number>();
      for (const p of groundTruthPaths(entry.groundTruth)) {
        const n = visible(p);
        if (n !== undefined) evaluatorCounts.set(p, n);
      }
      const coreLines = resolvedLines(entry.groundTruth.coreRegions, evaluatorCounts);
      const audited = applyRemovals(entry.groundTruth, removals, lineCounts);
      const removedCoreLines = lineSetSubtract(coreLines, resolvedLines(audited.coreRegions, evaluatorCounts));
      if (removedCoreLines.size > 0) nullInstances.push({ instanceId, coreLines, removedCoreLines });
    }

    const report: ImpactLine[] = auditImpact({ before: before.rows, after: after.rows, auditedInstances: audit.audited, removals: reasons });
    if (trials > 0) {
      const nullLines = await nullModelImpact({
        trials,
        seed,
        instances: nullInstances,
        before: before.rows,
        after: after.rows,
        scoreAfter: (removals) => scoreWith(mergeRemovals(audit.removals, removals)).rows,
      });
      for (const line of nullLines) report.push(line);
    }

    printProblems(problems);
    if (format === 'json') for (const line of report) process.stdout.write(`${jsonForTerminal(line)}\n`);
    else process.stdout.write(format === 'md' ? renderImpactMarkdown(report) : renderImpactCsv(report));
    return problems.some((p) => p.severity === 'error') ? 1 : 0;
  });
}

/**
 * A random audit replaces the real audit's core removals of the audited instances; the real
 * optional removals stay (they do not move the core, but optional coverage depends on them).
 */
function mergeRemovals(real: ReadonlyMap<string, readonly Removal[]>, randomCore: ReadonlyMap<string, readonly Removal[]>): Map<string, Removal[]> {
  const out = new Map<string, Removal[]>();
  for (const [instanceId, list] of real)
    out.set(
      instanceId,
      list.filter((r) => r.layer === 'optional'),
    );
  for (const [instanceId, list] of randomCore) {
    const merged = out.get(instanceId) ?? [];
    for (const r of list) merged.push(r);
    out.set(instanceId, merged);
  }
  return out;
}

function predictionPaths(model: WorkspaceModel, instanceId: string): string[] {
  const out: string[] = [];
  for (const run of model.explorers.values()) for (const r of run.rows.get(instanceId)?.regions ?? []) out.push(r.path);
  return out;
}
