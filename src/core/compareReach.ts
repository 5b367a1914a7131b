/**
 * Compare mode: which core lines each of two explorers reaches within the line budget B.
 *
 * "Reaches" is Recall@B's line-by-line walk ({@link examinedWithinBudget}) intersected with the
 * core C, i.e. the miss anatomy's `hit` lines. The core lines then split into four disjoint sets
 * whose union is C: `onlyA`, `onlyB`, `both` and `neither`. Interval arithmetic only, so whole-file
 * regions of long files stay one interval.
 */
import { EMPTY_SET, intersect, subtract, union, type IntervalSet, type LineSet } from './intervals';
import { examinedWithinBudget } from './metrics';
import type { PreparedInstance } from './prepare';

/** Which explorer alone reaches a difference span. */
export type CompareSide = 'onlyA' | 'onlyB';

/** A maximal run of core lines only one of the two explorers reaches. */
export interface DifferenceSpan {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly side: CompareSide;
}

export interface CompareReach {
  readonly onlyA: LineSet;
  readonly onlyB: LineSet;
  readonly both: LineSet;
  readonly neither: LineSet;
  /** Every `onlyA` and `onlyB` run, by path (code-unit order), then by start line. */
  readonly differences: readonly DifferenceSpan[];
}

/** Core lines a prepared list reaches within B: C ∩ (lines examined by Recall@B's walk). */
export function reachedCore(instance: PreparedInstance, budget: number): LineSet {
  const { examined } = examinedWithinBudget(instance, budget);
  const out = new Map<string, IntervalSet>();
  for (const [path, core] of instance.core) {
    const hit = intersect(core, examined.get(path) ?? EMPTY_SET);
    if (hit.length > 0) out.set(path, hit);
  }
  return out;
}

/**
 * Splits the core `core` by which of two reach sets holds each line: onlyA = A − B, onlyB = B − A,
 * both = A ∩ B, neither = C − (A ∪ B), each taken inside C (reach outside C is ignored).
 * Paths with no line in a set are absent from it.
 */
export function compareLineSets(core: LineSet, reachA: LineSet, reachB: LineSet): CompareReach {
  const onlyA = new Map<string, IntervalSet>();
  const onlyB = new Map<string, IntervalSet>();
  const both = new Map<string, IntervalSet>();
  const neither = new Map<string, IntervalSet>();
  const differences: DifferenceSpan[] = [];
  const put = (into: Map<string, IntervalSet>, path: string, set: IntervalSet): void => {
    if (set.length > 0) into.set(path, set);
  };
  const paths = [...core.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const path of paths) {
    const c = core.get(path) ?? EMPTY_SET;
    const a = intersect(c, reachA.get(path) ?? EMPTY_SET);
    const b = intersect(c, reachB.get(path) ?? EMPTY_SET);
    const aOnly = subtract(a, b);
    const bOnly = subtract(b, a);
    put(onlyA, path, aOnly);
    put(onlyB, path, bOnly);
    put(both, path, intersect(a, b));
    put(neither, path, subtract(c, union(a, b)));
    for (const span of mergeRuns(path, aOnly, bOnly)) differences.push(span);
  }
  return { onlyA, onlyB, both, neither, differences };
}

/** {@link compareLineSets} on two lists scored against the same ground truth at budget B. */
export function compareReach(a: PreparedInstance, b: PreparedInstance, budget: number): CompareReach {
  return compareLineSets(a.core, reachedCore(a, budget), reachedCore(b, budget));
}

/** The runs of two disjoint sets on one path, in line order (a linear merge). */
function mergeRuns(path: string, a: IntervalSet, b: IntervalSet): DifferenceSpan[] {
  const out: DifferenceSpan[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const nextA = a[i];
    const nextB = b[j];
    if (nextA !== undefined && (nextB === undefined || nextA[0] < nextB[0])) {
      out.push({ path, start: nextA[0], end: nextA[1], side: 'onlyA' });
      i++;
    } else if (nextB !== undefined) {
      out.push({ path, start: nextB[0], end: nextB[1], side: 'onlyB' });
      j++;
    }
  }
  return out;
}
