/**
 * Builds the Instance panel's state from a bench record. Pure (no `vscode`, no fs) so it is unit
 * tested; the panel only posts what this returns.
 */
import { type InstanceAgreement, type LineCounts, parseUnifiedDiff, type ReadStepInfo, type ReadStepLike, resolveRegion, trajectoryCountOf } from '../../core';
import { describeRawRange, trajectoryLabel } from '../../shared/texts';
import { describeVerification, type RunVerification } from '../../core';
import { runResolutionText } from '../../shared/texts';
import {
  MAX_LINE,
  MAX_PATH_LENGTH,
  type AgreementEntry,
  type InstanceState,
  type PatchFileRow,
  type TrajectoryRow,
  type TrajectoryRunFacts,
  type TrajectoryStepRow,
} from '../../shared/instanceProtocol';

/** The record fields the panel reads; a parsed `BenchRecord` satisfies it. */
export interface InstanceRecordLike {
  readonly instance_id: string;
  readonly repo?: string | null | undefined;
  readonly base_commit?: string | null | undefined;
  readonly problem_statement?: string | null | undefined;
  readonly patch?: string | null | undefined;
  readonly read_step_info?: Readonly<Record<string, readonly ReadStepLike[]>> | null | undefined;
  readonly meta?: Readonly<Record<string, unknown>> | null | undefined;
  /** `FAIL_TO_PASS` and any other field, read defensively. */
  readonly [field: string]: unknown;
}

/** Issue texts beyond this are cut (the webview parses Markdown in linear time, but a megabyte is no issue text). */
export const MAX_PROBLEM_STATEMENT_CHARS = 200_000;
/** Read steps listed per trajectory; the rest are counted. */
export const MAX_STEPS_PER_TRAJECTORY = 2_000;

export interface DecodedTestList {
  readonly tests: string[];
  /** Empty, or why the list is empty or partial. */
  readonly note: string;
}

/**
 * Reads `FAIL_TO_PASS` / `PASS_TO_PASS`: a JSON-encoded string of a list of test ids (metrics-spec §11),
 * so the JSON line is decoded once by the reader and the field once more here. Tolerates a plain
 * list, a doubly encoded string, and garbage (reported in `note`, never thrown).
 */
export function decodeTestList(value: unknown, field = 'FAIL_TO_PASS'): DecodedTestList {
  if (value === undefined || value === null) return { tests: [], note: `No ${field} in the record.` };
  let decoded: unknown = value;
  // At most a few rounds: a string that decodes to itself forever does not exist, but garbage must stop.
  for (let round = 0; round < 3 && typeof decoded === 'string'; round++) {
    try {
      decoded = JSON.parse(decoded);
    } catch {
      return { tests: [], note: `${field} is not a JSON list of test ids.` };
    }
  }
  if (!Array.isArray(decoded)) return { tests: [], note: `${field} is not a JSON list of test ids.` };
  const tests: string[] = [];
  let skipped = 0;
  for (const item of decoded) {
    if (typeof item === 'string') tests.push(item);
    else skipped++;
  }
  return { tests, note: skipped > 0 ? `${skipped} ${field} entr${skipped === 1 ? 'y is' : 'ies are'} not strings and are not shown.` : '' };
}

/** The gold patch's files with +/− counts, in patch order. */
export function patchFileRows(patch: string | null | undefined): { files: PatchFileRow[]; note: string } {
  if (typeof patch !== 'string' || patch.trim() === '') return { files: [], note: 'No gold patch in the record.' };
  const files: PatchFileRow[] = [];
  let malformed = 0;
  let unusable = 0;
  for (const file of parseUnifiedDiff(patch)) {
    if (file.malformed) malformed++;
    // The webview's guard rejects the whole state for one absurd path; leave such a file out instead.
    if (file.path === '' || file.path.length > MAX_PATH_LENGTH) {
      unusable++;
      continue;
    }
    files.push({
      path: file.path,
      oldPath: file.oldPath !== null && file.oldPath !== file.path ? file.oldPath : null,
      status: file.status,
      added: file.added,
      removed: file.removed,
    });
  }
  const notes: string[] = [];
  if (files.length === 0 && unusable === 0) notes.push('The gold patch names no file.');
  if (malformed > 0) notes.push(`${malformed} file${malformed === 1 ? ' has' : 's have'} a hunk that disagrees with its header.`);
  if (unusable > 0) notes.push(`${unusable} file${unusable === 1 ? ' has' : 's have'} an empty or overlong path and ${unusable === 1 ? 'is' : 'are'} not listed.`);
  return { files, note: notes.join(' ') };
}

function isStep(value: unknown): value is ReadStepLike {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['traj_path'] === 'string' && Number.isSafeInteger(v['step_idx']) && Number.isSafeInteger(v['start']) && Number.isSafeInteger(v['end']);
}

/** What the Instance panel needs of a loaded run (a `TrajectoryRun` of the model's runs slice satisfies it). */
export interface RunLike {
  readonly trajPath: string;
  readonly model: string;
  readonly trajectory: { readonly messages: readonly unknown[] } | undefined;
  readonly reads: readonly unknown[];
  readonly verification: RunVerification | undefined;
  readonly resolution: 'resolved' | 'not-resolved' | 'unknown';
  readonly problem: string | undefined;
}

/** A trajectory row's run facts: model, messages, reads, verified, resolved. */
export function runFacts(run: RunLike): TrajectoryRunFacts {
  return {
    model: run.model,
    loaded: run.trajectory !== undefined,
    problem: run.problem ?? '',
    messages: run.trajectory?.messages.length ?? 0,
    reads: run.reads.length,
    verified: run.verification?.verified === true,
    verificationText: run.verification !== undefined ? describeVerification(run.verification) : 'not verified (the run is not loaded)',
    resolution: run.resolution,
    resolutionText: runResolutionText(run.resolution),
  };
}

function trajectoryRows(info: ReadStepInfo | null | undefined, lineCounts: LineCounts, runs: readonly RunLike[] | undefined): TrajectoryRow[] {
  const byPath = new Map((runs ?? []).map((run) => [run.trajPath, run]));
  const byTrajectory = new Map<string, TrajectoryStepRow[]>();
  if (info !== null && info !== undefined && typeof info === 'object') {
    for (const path of Object.keys(info)) {
      const steps = info[path];
      if (!Array.isArray(steps) || path === '' || path.length > MAX_PATH_LENGTH) continue;
      for (const step of steps) {
        if (!isStep(step)) continue;
        const r = resolveRegion({ path, start: step.start, end: step.end }, lineCounts.get(path));
        // Lines past MAX_LINE cannot be revealed (and the webview's guard would reject them): listed, not clickable.
        const resolved = r.kind === 'resolved' && r.start <= r.end && r.end <= MAX_LINE;
        const raw = describeRawRange(step.start, step.end);
        const plain = `${step.start}–${step.end}`;
        let rangeText: string;
        if (r.kind !== 'resolved') rangeText = `${raw} (line count unknown)`;
        else if (r.start > r.end) rangeText = `${raw} (no lines: ${r.start} > ${r.end})`;
        else if (!resolved) rangeText = raw;
        else rangeText = raw === plain ? plain : `${r.start}–${r.end} (${raw})`;
        let rows = byTrajectory.get(step.traj_path);
        if (rows === undefined) byTrajectory.set(step.traj_path, (rows = []));
        rows.push({
          path,
          stepIdx: step.step_idx,
          rawStart: step.start,
          rawEnd: step.end,
          start: resolved ? r.start : null,
          end: resolved ? r.end : null,
          rangeText,
        });
      }
    }
  }
  const names = [...byTrajectory.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((trajPath) => {
    // Steps in the order the trajectory took them; paths break ties.
    const steps = byTrajectory.get(trajPath)!.sort((a, b) => a.stepIdx - b.stepIdx || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const shown = steps.length > MAX_STEPS_PER_TRAJECTORY ? steps.slice(0, MAX_STEPS_PER_TRAJECTORY) : steps;
    const run = byPath.get(trajPath);
    return { trajPath, run: run === undefined ? null : runFacts(run), label: trajectoryLabel(trajPath), steps: shown, omittedSteps: steps.length - shown.length };
  });
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Disputed spans named in an agreement entry; the count covers the rest. */
const AGREEMENT_SPANS_SHOWN = 3;

/**
 * The Instance panel's agreement slot: one entry per pair of auditors, e.g. label "alice ↔ bob",
 * detail "κ = 0.62 · 14 lines in dispute (stock.py 40–53)"; with more auditors than the core
 * compares pairwise, one entry "40 auditors (Fleiss' κ)". Spans name the file only (the panel is
 * about one instance); plain text, which the webview sets as text content.
 */
export function agreementEntries(agreements: readonly InstanceAgreement[]): AgreementEntry[] {
  return agreements.map((a) => {
    const label = a.method === 'cohen' ? `${a.authors[0]} ↔ ${a.authors[1]}` : `${a.authors} auditors (Fleiss' κ)`;
    const alike = a.method === 'cohen' ? 'both judge' : 'all judge';
    const kappa = a.kappa === null ? `κ undefined (${alike} every core line alike)` : `κ = ${a.kappa.toFixed(2)}`;
    if (a.disputed_lines === 0) return { label, detail: `${kappa} · no lines in dispute` };
    const spans: string[] = [];
    for (const r of a.disputed) {
      if (spans.length === AGREEMENT_SPANS_SHOWN) break;
      const file = r.path.slice(r.path.lastIndexOf('/') + 1);
      spans.push(`${file} ${r.start === r.end ? r.start : `${r.start}–${r.end}`}`);
    }
    const more = a.disputed.length - spans.length;
    const where = `${spans.join(', ')}${more > 0 ? `, +${more} more` : ''}`;
    return { label, detail: `${kappa} · ${a.disputed_lines} line${a.disputed_lines === 1 ? '' : 's'} in dispute (${where})` };
  });
}

/**
 * The panel state for one record. `lineCounts` resolves `-1` ends and tail starts of read steps
 * (pass the snapshot's counts; steps on files without a count are listed but not clickable).
 * `agreement` fills the auditors' agreement slot (see {@link agreementEntries}); `runs`, once loaded,
 * the rows' run facts (model, messages, reads, verified, resolved).
 */
export function buildInstanceState(record: InstanceRecordLike, lineCounts: LineCounts, agreement: readonly AgreementEntry[] = [], runs?: readonly RunLike[]): InstanceState {
  const statement = text(record.problem_statement);
  const truncated = statement.length > MAX_PROBLEM_STATEMENT_CHARS;
  const patch = patchFileRows(typeof record.patch === 'string' ? record.patch : null);
  const failToPass = decodeTestList(record['FAIL_TO_PASS']);
  const info = record.read_step_info;
  const trajectories = trajectoryRows(info, lineCounts, runs);
  const meta = record.meta;
  const numTrajectories = meta !== null && meta !== undefined && typeof meta === 'object' && Object.hasOwn(meta, 'num_trajectories') ? meta['num_trajectories'] : undefined;
  return {
    instanceId: text(record.instance_id),
    repo: text(record.repo),
    baseCommit: text(record.base_commit),
    problemStatement: truncated ? statement.slice(0, MAX_PROBLEM_STATEMENT_CHARS) : statement,
    problemStatementTruncated: truncated,
    patchFiles: patch.files,
    patchNote: patch.note,
    failToPass: failToPass.tests,
    failToPassNote: failToPass.note,
    trajectoryCount: trajectoryCountOf(numTrajectories, trajectories.length),
    trajectories,
    agreement,
  };
}
