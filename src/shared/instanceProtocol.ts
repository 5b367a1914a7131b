/**
 * The typed message protocol between the extension host and the Instance panel webview. Both sides
 * import this module; each validates what it receives with the guards below and drops anything else.
 * The webview renders only what {@link parseToInstanceWebview} accepted, so the guard checks every
 * field the renderer reads, element by element (linear in the state's size).
 */
import { everyItem, isBoundedText, isCount, isInteger, isRecord, isString } from './guards';

/** One file of the gold patch. */
export interface PatchFileRow {
  readonly path: string;
  /** Path before the change when it differs (rename), else null. */
  readonly oldPath: string | null;
  readonly status: 'modified' | 'added' | 'deleted' | 'renamed';
  readonly added: number;
  readonly removed: number;
}

/** One read step of a trajectory. */
export interface TrajectoryStepRow {
  readonly path: string;
  readonly stepIdx: number;
  /** Raw values from `read_step_info` (`end = -1`: whole file; negative start: tail). */
  readonly rawStart: number;
  readonly rawEnd: number;
  /** Resolved lines (metrics-spec §1); null when unresolvable (no line count) or inverted. */
  readonly start: number | null;
  readonly end: number | null;
  /** "12–40", or the raw form when it cannot be resolved ("1–EOF", "last 8 lines"). */
  readonly rangeText: string;
}

/** What the run file itself says, once loaded (the Trajectory view shows it in full). */
export interface TrajectoryRunFacts {
  readonly model: string;
  /** False when the run was not found or could not be read (`problem` says why). */
  readonly loaded: boolean;
  readonly problem: string;
  /** Messages in the run. */
  readonly messages: number;
  /** Reads the builder's rules keep from it. */
  readonly reads: number;
  readonly verified: boolean;
  /** "verified 14/14 reads", or what differs. */
  readonly verificationText: string;
  readonly resolution: 'resolved' | 'not-resolved' | 'unknown';
  readonly resolutionText: string;
}

export interface TrajectoryRow {
  readonly trajPath: string;
  /** The run's own facts; null while the runs load. */
  readonly run: TrajectoryRunFacts | null;
  /** Short label: the last two path segments. */
  readonly label: string;
  readonly steps: readonly TrajectoryStepRow[];
  /** Steps not sent (a trajectory with more than the per-row limit). */
  readonly omittedSteps: number;
}

/** Agreement between two auditors of the instance (Cohen's κ over core lines, lines in dispute). */
export interface AgreementEntry {
  readonly label: string;
  readonly detail: string;
}

export interface InstanceState {
  readonly instanceId: string;
  readonly repo: string;
  readonly baseCommit: string;
  /** Raw Markdown; the webview renders it with its own sanitising renderer. */
  readonly problemStatement: string;
  readonly problemStatementTruncated: boolean;
  readonly patchFiles: readonly PatchFileRow[];
  /** Empty, or why the list is empty / partial (no patch, malformed hunks). */
  readonly patchNote: string;
  readonly failToPass: readonly string[];
  /** Empty, or why FAIL_TO_PASS could not be read. */
  readonly failToPassNote: string;
  /** T as provenance counts it (meta.num_trajectories when a positive integer). */
  readonly trajectoryCount: number;
  readonly trajectories: readonly TrajectoryRow[];
  readonly agreement: readonly AgreementEntry[];
}

/** Extension → webview. */
export type ToInstanceWebview = { readonly type: 'state'; readonly state: InstanceState };

/** Webview → extension. */
export type FromInstanceWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'openDiff'; readonly path: string }
  | { readonly type: 'revealStep'; readonly path: string; readonly start: number; readonly end: number }
  /** "Open run" on a trajectory row: `trajPath` is one of the state's rows. */
  | { readonly type: 'openTrajectory'; readonly trajPath: string };

/** Longest path either side accepts (Windows MAX_PATH is far below; Linux PATH_MAX is 4096). */
export const MAX_PATH_LENGTH = 4096;
/** Largest line number either side accepts. */
export const MAX_LINE = 100_000_000;

function isPath(value: unknown): value is string {
  return isBoundedText(value, MAX_PATH_LENGTH);
}

function isLine(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_LINE;
}

/** Validates a message from the webview; anything unknown or malformed yields null. */
export function parseFromInstanceWebview(value: unknown): FromInstanceWebview | null {
  if (!isRecord(value)) return null;
  switch (value['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'openDiff': {
      const path = value['path'];
      return isPath(path) ? { type: 'openDiff', path } : null;
    }
    case 'openTrajectory': {
      const trajPath = value['trajPath'];
      return isPath(trajPath) ? { type: 'openTrajectory', trajPath } : null;
    }
    case 'revealStep': {
      const { path, start, end } = value;
      return isPath(path) && isLine(start) && isLine(end) && start <= end ? { type: 'revealStep', path, start, end } : null;
    }
    default:
      return null;
  }
}

function isPatchFileRow(value: unknown): value is PatchFileRow {
  if (!isRecord(value)) return false;
  const status = value['status'];
  return (
    isPath(value['path']) &&
    (value['oldPath'] === null || isPath(value['oldPath'])) &&
    (status === 'modified' || status === 'added' || status === 'deleted' || status === 'renamed') &&
    isCount(value['added']) &&
    isCount(value['removed'])
  );
}

function isStepRow(value: unknown): value is TrajectoryStepRow {
  if (!isRecord(value)) return false;
  const { start, end } = value;
  const resolvedOk = (start === null && end === null) || (isLine(start) && isLine(end) && start <= end);
  return isPath(value['path']) && isInteger(value['stepIdx']) && isInteger(value['rawStart']) && isInteger(value['rawEnd']) && resolvedOk && typeof value['rangeText'] === 'string';
}

function isRunFacts(value: unknown): value is TrajectoryRunFacts {
  if (!isRecord(value)) return false;
  const resolution = value['resolution'];
  return (
    isString(value['model']) &&
    typeof value['loaded'] === 'boolean' &&
    isString(value['problem']) &&
    isCount(value['messages']) &&
    isCount(value['reads']) &&
    typeof value['verified'] === 'boolean' &&
    isString(value['verificationText']) &&
    (resolution === 'resolved' || resolution === 'not-resolved' || resolution === 'unknown') &&
    isString(value['resolutionText'])
  );
}

function isTrajectoryRow(value: unknown): value is TrajectoryRow {
  return (
    isRecord(value) &&
    typeof value['trajPath'] === 'string' &&
    (value['run'] === null || isRunFacts(value['run'])) &&
    typeof value['label'] === 'string' &&
    everyItem(value['steps'], isStepRow) &&
    isCount(value['omittedSteps'])
  );
}

function isAgreementEntry(value: unknown): value is AgreementEntry {
  return isRecord(value) && typeof value['label'] === 'string' && typeof value['detail'] === 'string';
}

/** Validates a message from the extension (the webview trusts nothing it did not check). */
export function parseToInstanceWebview(value: unknown): ToInstanceWebview | null {
  if (!isRecord(value) || value['type'] !== 'state' || !isRecord(value['state'])) return null;
  const s = value['state'];
  const ok =
    typeof s['instanceId'] === 'string' &&
    typeof s['repo'] === 'string' &&
    typeof s['baseCommit'] === 'string' &&
    typeof s['problemStatement'] === 'string' &&
    typeof s['problemStatementTruncated'] === 'boolean' &&
    everyItem(s['patchFiles'], isPatchFileRow) &&
    typeof s['patchNote'] === 'string' &&
    everyItem(s['failToPass'], isString) &&
    typeof s['failToPassNote'] === 'string' &&
    isCount(s['trajectoryCount']) &&
    everyItem(s['trajectories'], isTrajectoryRow) &&
    everyItem(s['agreement'], isAgreementEntry);
  return ok ? { type: 'state', state: s as unknown as InstanceState } : null;
}
