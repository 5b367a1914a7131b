/**
 * The audit log applied to a loaded workspace: shared by `swe-explore export` /
 * `swe-explore audit-impact` and the extension's Export Corrected Bench / Show Audit Impact, so
 * that both surfaces load, drift-check, count and score an audit the same way.
 */
import {
  agreementImpactLines,
  applyRemovals,
  auditImpact,
  authorAgreement,
  lineSetSubtract,
  nullModelImpact,
  prepareGroundTruth,
  removalEffects,
  resolvedLines,
  type InstanceAgreement,
  type GroundTruth,
  type ImpactLine,
  type LineCounts,
  type LineSet,
  type NullModelInstance,
  type PreparedGroundTruth,
  type Profile,
  type ReasonCount,
  type Removal,
} from '../../core';
import type { LineCountCache } from '../workspace/lineCounts';
import type { Problem } from '../io/problems';
import { scoreRows, type ScoreResult, type ScoringOptions } from '../workspace/scoring';
import { groundTruthPaths, instanceLineCounts, type InstanceEntry, type WorkspaceModel } from '../workspace/workspace';
import { coreRemovalsByAuthor, readAuditFolder, removalsByInstance, type AuditFolder, type RemoveEvent } from './auditLog';
import { checkDrift } from './drift';
import { readLines } from '../io/lineReader';
import { exportCorrectedBench, type FileContent } from './exportBench';

/** The effective removals of bench instances, with the audit's problems, drift flags and removals of unknown instances reported. */
export interface LoadedAudit {
  readonly removals: Map<string, Removal[]>;
  readonly events: Map<string, RemoveEvent[]>;
  /** Instances with an accept or at least one effective removal. */
  readonly audited: Set<string>;
  /** Per bench instance, the core lines each author who audited it removed (see `coreRemovalsByAuthor`). */
  readonly coreRemovedByAuthor: Map<string, Map<string, LineSet>>;
  readonly problems: Problem[];
}

/** An audit folder checked against the loaded bench: see {@link checkAuditAgainstBench}. */
export interface BenchAuditCheck {
  /** Effective removals of bench instances, per instance, in log order. */
  readonly events: Map<string, RemoveEvent[]>;
  /** Ids of effective removals whose text no longer matches the snapshot. */
  readonly drifted: Set<string>;
  /** Removals of instances the bench does not contain, and drifted removals. */
  readonly problems: Problem[];
}

/**
 * The one check of an audit against a workspace, for the CLI and the extension alike: effective
 * removals grouped by bench instance, removals of instances the bench lacks reported
 * (`unknown-instance`; only once a bench is loaded — with none, every removal would be "unknown"),
 * and the drift check streamed over the snapshots ({@link checkDrift}).
 */
export async function checkAuditAgainstBench(model: WorkspaceModel, audit: Pick<AuditFolder, 'effectiveRemovals'>): Promise<BenchAuditCheck> {
  const problems: Problem[] = [];
  const events = new Map<string, RemoveEvent[]>();
  for (const event of audit.effectiveRemovals) {
    if (!model.instances.has(event.instanceId)) {
      if (model.benchFile !== undefined) {
        problems.push({
          file: event.file,
          line: event.line,
          severity: 'warning',
          code: 'unknown-instance',
          message: `removal for ${JSON.stringify(event.instanceId)}, which the bench does not contain; ignored`,
          instanceId: event.instanceId,
        });
      }
      continue;
    }
    let list = events.get(event.instanceId);
    if (list === undefined) events.set(event.instanceId, (list = []));
    list.push(event);
  }
  const inBench: RemoveEvent[] = [];
  for (const list of events.values()) for (const event of list) inBench.push(event);
  const drift = await checkDrift(inBench, (instanceId) => model.instances.get(instanceId)?.snapshotRoot);
  for (const problem of drift.problems) problems.push(problem);
  return { events, drifted: drift.drifted, problems };
}

export async function loadAudit(model: WorkspaceModel, auditDir: string): Promise<LoadedAudit> {
  const audit = await readAuditFolder(auditDir);
  const problems: Problem[] = [...audit.problems];
  const checked = await checkAuditAgainstBench(model, audit);
  for (const problem of checked.problems) problems.push(problem);
  const events = checked.events;
  const audited = new Set<string>(events.keys());
  const accepted = audit.accepted.filter((a) => model.instances.has(a.instanceId));
  for (const { instanceId } of accepted) audited.add(instanceId);
  const coreRemovedByAuthor = coreRemovalsByAuthor({ effectiveRemovals: audit.effectiveRemovals.filter((e) => model.instances.has(e.instanceId)), accepted });
  const removals = new Map<string, Removal[]>();
  for (const [instanceId, list] of events) removals.set(instanceId, removalsByInstance(list).get(instanceId) ?? []);
  return { removals, events, audited, coreRemovedByAuthor, problems };
}

/** Line counts of an instance's ground-truth-region paths (plus `extra`), problems collected. */
export async function auditLineCounts(model: WorkspaceModel, entry: InstanceEntry, cache: LineCountCache, problems: Problem[], extra: Iterable<string> = []): Promise<Map<string, number>> {
  const paths = groundTruthPaths(entry.groundTruth);
  for (const p of extra) paths.add(p);
  const counted = await instanceLineCounts(model, entry, paths, cache);
  for (const problem of counted.problems) problems.push(problem);
  return counted.counts;
}

/** What {@link writeCorrectedBench} wrote. */
export interface CorrectedBench {
  readonly records: number;
  /** Line counts used for each audited instance. */
  readonly counts: Map<string, LineCounts>;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Output is handed to the file in pieces of about this size. */
const WRITE_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Writes the corrected bench through `write` (an atomic writer, see `writeFileAtomically`): records in their
 * order, one a line. A record no removal changes is copied from the bench file as bytes — invalid
 * UTF-8 included, only its line ending normalised to `\n` and a first-line BOM dropped, as the
 * reader does — by streaming the file again; a changed record is its text with only the changed
 * `ground_truth` lists rewritten (see `exportCorrectedBench`). Throws, writing nothing, when the
 * bench file no longer holds the records that were loaded.
 */
export async function writeCorrectedBench(
  model: WorkspaceModel,
  audit: LoadedAudit,
  cache: LineCountCache,
  problems: Problem[],
  write: (content: FileContent) => Promise<unknown>,
): Promise<CorrectedBench> {
  const benchFile = model.benchFile;
  if (benchFile === undefined) throw new Error('no bench file is loaded');
  const counts = new Map<string, LineCounts>();
  for (const instanceId of audit.removals.keys()) counts.set(instanceId, await auditLineCounts(model, model.instances.get(instanceId)!, cache, problems));
  const items = model.benchItems;
  await write(async (writePiece) => {
    let next = 0;
    let batch: Buffer[] = [];
    let batchBytes = 0;
    const flush = async (): Promise<void> => {
      const bytes = Buffer.concat(batch, batchBytes);
      batch = [];
      batchBytes = 0;
      await writePiece(bytes);
    };
    const add = (piece: Buffer): void => {
      batch.push(piece, NEWLINE);
      batchBytes += piece.length + 1;
    };
    await readLines(benchFile, {
      line: (bytes, line) => {
        const item = items[next];
        if (item === undefined || item.line !== line) return;
        next++;
        let raw = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
        if (line === 1 && raw.subarray(0, 3).equals(UTF8_BOM)) raw = raw.subarray(3);
        if (raw.toString('utf8') !== item.raw) throw new Error(`${benchFile} changed since it was loaded (line ${line}); reload and export again`);
        const removals = audit.removals.get(item.value.instance_id);
        add(removals === undefined || removals.length === 0 ? Buffer.from(raw) : Buffer.from(exportCorrectedBench([{ raw: item.raw, record: item.value }], audit.removals, counts)[0]!, 'utf8'));
        return batchBytes >= WRITE_BATCH_BYTES ? flush() : undefined;
      },
      tooLong: () => undefined,
    });
    if (next !== items.length) throw new Error(`${benchFile} changed since it was loaded (${items.length - next} record(s) not found); reload and export again`);
    await flush();
  });
  return { records: items.length, counts };
}

const NEWLINE = Buffer.from('\n');

export interface AuditImpactOptions {
  readonly profile: Profile;
  readonly k: number;
  /** Random audits of the same size for the null model (0: none). */
  readonly trials: number;
  readonly seed: number;
  /** Progress of the null model: trials done of `trials`. */
  readonly onNullTrial?: (done: number, total: number) => void;
}

/**
 * Before/after scoring of every explorer with the audit applied: the report lines of
 * `swe-explore audit-impact`. Problems found on the way (line counts, scoring) are appended to
 * `problems`.
 */
export async function computeAuditImpact(model: WorkspaceModel, audit: LoadedAudit, options: AuditImpactOptions, cache: LineCountCache, problems: Problem[]): Promise<ImpactLine[]> {
  const { profile } = options;
  const scoring: ScoringOptions = { profile, k: options.k };
  // Line counts once per scored instance, for every scoring pass (before, after, null trials).
  const counts = new Map<string, Map<string, number>>();
  for (const run of model.explorers.values()) {
    for (const instanceId of run.rows.keys()) {
      const entry = model.instances.get(instanceId);
      if (entry === undefined || counts.has(instanceId)) continue;
      const extra = profile === 'snapshot' ? predictionPaths(model, instanceId) : [];
      counts.set(instanceId, await auditLineCounts(model, entry, cache, problems, extra));
    }
  }
  for (const instanceId of audit.removals.keys()) if (!counts.has(instanceId)) counts.set(instanceId, await auditLineCounts(model, model.instances.get(instanceId)!, cache, problems));

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
      scoring,
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
    const evaluatorCounts = evaluatorLineCounts(entry.groundTruth, lineCounts, profile);
    const coreLines = resolvedLines(entry.groundTruth.coreRegions, evaluatorCounts);
    const audited = applyRemovals(entry.groundTruth, removals, lineCounts);
    const removedCoreLines = lineSetSubtract(coreLines, resolvedLines(audited.coreRegions, evaluatorCounts));
    if (removedCoreLines.size > 0) nullInstances.push({ instanceId, coreLines, removedCoreLines });
  }

  const report: ImpactLine[] = auditImpact({ before: before.rows, after: after.rows, auditedInstances: audit.audited, removals: reasons });
  // Agreement lines follow the reason lines; with a single author there is no pair to compare.
  for (const instanceId of [...audit.coreRemovedByAuthor.keys()].sort(compareIds)) {
    const byAuthor = audit.coreRemovedByAuthor.get(instanceId)!;
    if (byAuthor.size < 2) continue;
    const entry = model.instances.get(instanceId)!;
    let lineCounts = counts.get(instanceId);
    if (lineCounts === undefined) counts.set(instanceId, (lineCounts = await auditLineCounts(model, entry, cache, problems)));
    for (const line of agreementImpactLines(instanceAgreement(instanceId, entry.groundTruth, lineCounts, byAuthor, profile))) report.push(line);
  }
  if (options.trials > 0) {
    const nullLines = await nullModelImpact({
      trials: options.trials,
      seed: options.seed,
      instances: nullInstances,
      before: before.rows,
      after: after.rows,
      scoreAfter: (removals) => scoreWith(mergeRemovals(audit.removals, removals)).rows,
      ...(options.onNullTrial === undefined ? {} : { onTrial: options.onNullTrial }),
    });
    for (const line of nullLines) report.push(line);
  }
  return report;
}

/** The line counts the evaluator sees for the ground-truth paths (official: only those paths have counts). */
function evaluatorLineCounts(groundTruth: GroundTruth, lineCounts: LineCounts, profile: Profile): Map<string, number> {
  const visible = prepareGroundTruth(groundTruth, lineCounts, profile).evaluatorLineCount;
  const out = new Map<string, number>();
  for (const p of groundTruthPaths(groundTruth)) {
    const n = visible(p);
    if (n !== undefined) out.set(p, n);
  }
  return out;
}

/**
 * Cohen's κ for each pair of the instance's auditors over its core lines as the evaluator resolves
 * them (the ground truth as read, before any removal), with the lines in dispute; see the core's
 * `authorAgreement`. Shared by `swe-explore audit-impact` and the extension's Instance panel.
 * Empty with fewer than two authors.
 */
export function instanceAgreement(instanceId: string, groundTruth: GroundTruth, lineCounts: LineCounts, removedByAuthor: ReadonlyMap<string, LineSet>, profile: Profile): InstanceAgreement[] {
  if (removedByAuthor.size < 2) return [];
  const coreLines = resolvedLines(groundTruth.coreRegions, evaluatorLineCounts(groundTruth, lineCounts, profile));
  return authorAgreement([{ instanceId, coreLines, removedByAuthor }]);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
