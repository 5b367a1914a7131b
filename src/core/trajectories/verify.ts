/**
 * Verification of a loaded run against the record that cites it: the reads extracted from the run
 * must equal the record's `read_step_info` entries for that `traj_path` — same paths, `step_idx`,
 * `start`, `end`, and the same order within each path (the record groups entries by path, so the
 * order across paths is not recorded and not compared).
 */
import type { ReadStepInfo } from '../provenance';

/** A read as `read_step_info` holds it. */
export interface RecordedRead {
  readonly path: string;
  readonly stepIdx: number;
  readonly start: number;
  readonly end: number;
}

export type ReadDifference =
  /** The record has this read; the run does not give it. */
  | { readonly kind: 'missing'; readonly read: RecordedRead }
  /** The run gives this read; the record does not have it. */
  | { readonly kind: 'extra'; readonly read: RecordedRead };

export interface RunVerification {
  readonly trajPath: string;
  /** The record's entries for this `traj_path`. */
  readonly recorded: number;
  /** The reads extracted from the run. */
  readonly extracted: number;
  /** Reads on both sides (per path, longest common subsequence). */
  readonly matched: number;
  /** Both sides equal, entry for entry. */
  readonly verified: boolean;
  /** Per path in order of first appearance (the record's paths first), then in line order of the lists. */
  readonly differences: readonly ReadDifference[];
}

/** The record's entries for one `traj_path`, per path in the record's order. */
export function recordedReadsOf(readStepInfo: ReadStepInfo | null | undefined, trajPath: string): RecordedRead[] {
  const out: RecordedRead[] = [];
  if (readStepInfo === null || readStepInfo === undefined) return out;
  for (const path of Object.keys(readStepInfo)) {
    const steps = readStepInfo[path];
    if (!Array.isArray(steps)) continue;
    for (const step of steps) if (step.traj_path === trajPath) out.push({ path, stepIdx: step.step_idx, start: step.start, end: step.end });
  }
  return out;
}

function byPath(reads: readonly RecordedRead[]): Map<string, RecordedRead[]> {
  const out = new Map<string, RecordedRead[]>();
  for (const read of reads) {
    let list = out.get(read.path);
    if (list === undefined) out.set(read.path, (list = []));
    list.push(read);
  }
  return out;
}

function same(a: RecordedRead, b: RecordedRead): boolean {
  return a.stepIdx === b.stepIdx && a.start === b.start && a.end === b.end;
}

/** Above this many cells the per-path alignment falls back to a positional comparison. */
const MAX_ALIGNMENT_CELLS = 4_000_000;

/** Aligns two lists of one path: matched count and the differences, in list order. */
function align(recorded: readonly RecordedRead[], extracted: readonly RecordedRead[], differences: ReadDifference[]): number {
  const n = recorded.length;
  const m = extracted.length;
  if ((n + 1) * (m + 1) > MAX_ALIGNMENT_CELLS) {
    let matched = 0;
    for (let i = 0; i < Math.max(n, m); i++) {
      const r = recorded[i];
      const e = extracted[i];
      if (r !== undefined && e !== undefined && same(r, e)) matched++;
      else {
        if (r !== undefined) differences.push({ kind: 'missing', read: r });
        if (e !== undefined) differences.push({ kind: 'extra', read: e });
      }
    }
    return matched;
  }
  // Longest common subsequence, filled from the ends so the walk below goes forward.
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = same(recorded[i]!, extracted[j]!) ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same(recorded[i]!, extracted[j]!)) {
      i++;
      j++;
    } else if (j >= m || (i < n && table[(i + 1) * width + j]! >= table[i * width + j + 1]!)) differences.push({ kind: 'missing', read: recorded[i++]! });
    else differences.push({ kind: 'extra', read: extracted[j++]! });
  }
  return table[0]!;
}

/** Verifies the reads extracted from a run (in extraction order) against the record's entries for its `traj_path`. */
export function verifyRun(trajPath: string, extracted: readonly RecordedRead[], readStepInfo: ReadStepInfo | null | undefined): RunVerification {
  const recorded = recordedReadsOf(readStepInfo, trajPath);
  const recordedByPath = byPath(recorded);
  const extractedByPath = byPath(extracted);
  const paths = new Set([...recordedByPath.keys(), ...extractedByPath.keys()]);
  const differences: ReadDifference[] = [];
  let matched = 0;
  for (const path of paths) matched += align(recordedByPath.get(path) ?? [], extractedByPath.get(path) ?? [], differences);
  return { trajPath, recorded: recorded.length, extracted: extracted.length, matched, verified: differences.length === 0, differences };
}

/** "verified 14/14 reads", or what differs ("12 of 14 recorded reads match; 2 missing, 1 extra"). */
export function describeVerification(verification: RunVerification): string {
  if (verification.verified) return `verified ${verification.matched}/${verification.recorded} reads`;
  const missing = verification.differences.filter((d) => d.kind === 'missing').length;
  const extra = verification.differences.length - missing;
  const parts: string[] = [];
  if (missing > 0) parts.push(`${missing} missing`);
  if (extra > 0) parts.push(`${extra} extra`);
  return `${verification.matched} of ${verification.recorded} recorded reads match; ${parts.join(', ')}`;
}
