import type { Region } from './types';

/** Why a region contributes no lines at all (metrics-spec §1). */
export type UnresolvableReason =
  /** `end = -1` or a negative start needs the file's line count, and the evaluator has none. */
  | 'no-line-count'
  /** The line count is known but is 0 (empty file). */
  | 'empty-file'
  /** An explicit end of 0 or below −1 with a non-negative start. */
  | 'non-positive-end';

export type Resolution =
  | {
      readonly kind: 'resolved';
      /** Concrete first line; may exceed `end` (an inverted region covers no line). */
      readonly start: number;
      readonly end: number;
      /** True when the line count was used (`end = -1` or a negative start). */
      readonly usedLineCount: boolean;
    }
  | { readonly kind: 'unresolvable'; readonly reason: UnresolvableReason };

/**
 * Resolves a region to a concrete `(s, e)` pair exactly as the official evaluator does.
 *
 * - Needs the line count L iff `end == -1` or `start < 0`; without L (or with L < 1) the region is
 *   unresolvable. With L: `e = L` for `end == -1` else `end`; `s = L + start + 1` for negative
 *   starts else `start`; both clamped into `[1, L]` — and nothing forces `s <= e`.
 * - Otherwise: `s = max(1, start)`; `end < 1` is unresolvable; `e = end` is *not* clipped at EOF.
 */
export function resolveRegion(region: Region, lineCount: number | undefined): Resolution {
  const { start, end } = region;
  if (end === -1 || start < 0) {
    if (lineCount === undefined) return { kind: 'unresolvable', reason: 'no-line-count' };
    if (lineCount < 1) return { kind: 'unresolvable', reason: 'empty-file' };
    const e = end === -1 ? lineCount : end;
    const s = start < 0 ? lineCount + start + 1 : start;
    return { kind: 'resolved', start: clamp(s, 1, lineCount), end: clamp(e, 1, lineCount), usedLineCount: true };
  }
  if (end < 1) return { kind: 'unresolvable', reason: 'non-positive-end' };
  return { kind: 'resolved', start: Math.max(1, start), end, usedLineCount: false };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/** Number of real lines a resolution covers: 0 when unresolvable or inverted. */
export function resolvedLineCount(resolution: Resolution): number {
  return resolution.kind === 'resolved' ? Math.max(0, resolution.end - resolution.start + 1) : 0;
}

/**
 * The evaluator's overlap test on resolved pairs: same path, both resolvable and
 * `s1 <= e2 && s2 <= e1`. Deliberately applied to inverted pairs too, so an inverted region can
 * "overlap" although it covers no line.
 */
export function resolvedOverlap(a: Resolution, b: Resolution): boolean {
  return a.kind === 'resolved' && b.kind === 'resolved' && a.start <= b.end && b.start <= a.end;
}
