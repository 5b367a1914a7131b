/**
 * Interval algebra over 1-based inclusive line numbers.
 *
 * An {@link IntervalSet} is a sorted array of disjoint, non-adjacent closed intervals; every
 * metric is computed on these so that a whole-file region of a 50k-line file costs one interval,
 * not 50k set entries. A {@link LineSet} maps a path to its interval set: two paths that differ
 * by one character are different files, exactly as in the official evaluator.
 */

/** A closed interval `[start, end]` with `start <= end`. */
export type Interval = readonly [start: number, end: number];

/** Sorted, disjoint, non-adjacent intervals. Build one with {@link normalize}. */
export type IntervalSet = readonly Interval[];

/** Lines per path. Paths are compared as exact strings. */
export type LineSet = ReadonlyMap<string, IntervalSet>;

export const EMPTY_SET: IntervalSet = [];

/** Sorts and merges overlapping or adjacent intervals; drops empty (start > end) ones. */
export function normalize(intervals: readonly Interval[]): IntervalSet {
  // Filter only when something is empty: the usual list has none, and then no copy is needed.
  let valid = intervals;
  for (let i = 0; i < intervals.length; i++) {
    const interval = intervals[i]!;
    if (interval[0] > interval[1]) {
      valid = intervals.filter(([s, e]) => s <= e);
      break;
    }
  }
  if (valid.length <= 1) return valid === intervals ? intervals.slice() : valid;
  // Regions usually arrive sorted already (ground truth is stored merged); skip the sort then.
  let ordered = true;
  for (let i = 1; i < valid.length && ordered; i++) ordered = valid[i - 1]![0] <= valid[i]![0];
  const sorted = ordered ? valid : [...valid].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  let last: [number, number] = [sorted[0]![0], sorted[0]![1]];
  merged.push(last);
  for (let i = 1; i < sorted.length; i++) {
    const interval = sorted[i]!;
    if (interval[0] <= last[1] + 1) {
      if (interval[1] > last[1]) last[1] = interval[1];
    } else {
      last = [interval[0], interval[1]];
      merged.push(last);
    }
  }
  return merged;
}

/** Number of lines in a set: Σ (end − start + 1). */
export function setSize(set: IntervalSet): number {
  let total = 0;
  for (const [s, e] of set) total += e - s + 1;
  return total;
}

/** Lines in both sets. Linear merge of the two sorted lists. */
export function intersect(a: IntervalSet, b: IntervalSet): IntervalSet {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [as, ae] = a[i]!;
    const [bs, be] = b[j]!;
    const s = Math.max(as, bs);
    const e = Math.min(ae, be);
    if (s <= e) out.push([s, e]);
    if (ae < be) i++;
    else j++;
  }
  return out;
}

/** |a ∩ b| without building the intersection. */
export function intersectionSize(a: IntervalSet, b: IntervalSet): number {
  let total = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [as, ae] = a[i]!;
    const [bs, be] = b[j]!;
    const s = Math.max(as, bs);
    const e = Math.min(ae, be);
    if (s <= e) total += e - s + 1;
    if (ae < be) i++;
    else j++;
  }
  return total;
}

/** Lines in either set. */
export function union(a: IntervalSet, b: IntervalSet): IntervalSet {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return normalize([...a, ...b]);
}

/** Lines of `a` that are not in `b`. */
export function subtract(a: IntervalSet, b: IntervalSet): IntervalSet {
  if (a.length === 0 || b.length === 0) return a;
  const out: Interval[] = [];
  let j = 0;
  for (const [as, ae] of a) {
    let cursor = as;
    while (j < b.length && b[j]![1] < cursor) j++;
    let k = j;
    while (k < b.length && b[k]![0] <= ae) {
      const [bs, be] = b[k]!;
      if (bs > cursor) out.push([cursor, bs - 1]);
      cursor = Math.max(cursor, be + 1);
      if (cursor > ae) break;
      k++;
    }
    if (cursor <= ae) out.push([cursor, ae]);
  }
  return out;
}

/** |[start, end] ∩ set| for one closed range; 0 when start > end. Binary search, then walk. */
export function rangeIntersectionSize(set: IntervalSet, start: number, end: number): number {
  if (start > end || set.length === 0) return 0;
  let total = 0;
  for (let i = firstEndingAtOrAfter(set, start); i < set.length; i++) {
    const [s, e] = set[i]!;
    if (s > end) break;
    total += Math.min(e, end) - Math.max(s, start) + 1;
  }
  return total;
}

/** The sub-intervals of `[start, end]` that lie in `set`. */
export function rangeIntersection(set: IntervalSet, start: number, end: number): IntervalSet {
  if (start > end) return EMPTY_SET;
  const out: Interval[] = [];
  for (let i = firstEndingAtOrAfter(set, start); i < set.length; i++) {
    const [s, e] = set[i]!;
    if (s > end) break;
    out.push([Math.max(s, start), Math.min(e, end)]);
  }
  return out;
}

/** Whether line `n` is in the set. */
export function containsLine(set: IntervalSet, n: number): boolean {
  const i = firstEndingAtOrAfter(set, n);
  const hit = set[i];
  return hit !== undefined && hit[0] <= n;
}

/** Index of the first interval whose end is ≥ n (set.length if none). */
function firstEndingAtOrAfter(set: IntervalSet, n: number): number {
  let lo = 0;
  let hi = set.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (set[mid]![1] < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Adds `[start, end]` to a mutable sorted, disjoint list in place (merging what it touches):
 * O(log n + merged) per call, for sets built up entry by entry.
 */
export function insertInterval(list: [number, number][], start: number, end: number): void {
  if (start > end) return;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]![1] < start - 1) lo = mid + 1;
    else hi = mid;
  }
  let last = lo;
  let s = start;
  let e = end;
  while (last < list.length && list[last]![0] <= end + 1) {
    s = Math.min(s, list[last]![0]);
    e = Math.max(e, list[last]![1]);
    last++;
  }
  list.splice(lo, last - lo, [s, e]);
}

/** Groups closed ranges by path and normalises each path's list. */
export function lineSetFrom(ranges: Iterable<{ path: string; start: number; end: number }>): LineSet {
  const byPath = new Map<string, Interval[]>();
  for (const { path, start, end } of ranges) {
    if (start > end) continue;
    let list = byPath.get(path);
    if (list === undefined) byPath.set(path, (list = []));
    list.push([start, end]);
  }
  const out = new Map<string, IntervalSet>();
  for (const [path, list] of byPath) out.set(path, normalize(list));
  return out;
}

/** Σ over paths of |set|. */
export function lineSetSize(lines: LineSet): number {
  let total = 0;
  for (const set of lines.values()) total += setSize(set);
  return total;
}

/** Σ over paths of |a ∩ b|. */
export function lineSetIntersectionSize(a: LineSet, b: LineSet): number {
  let total = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [path, set] of small) {
    const other = large.get(path);
    if (other !== undefined) total += intersectionSize(set, other);
  }
  return total;
}

/** Path-wise union. */
export function lineSetUnion(a: LineSet, b: LineSet): LineSet {
  const out = new Map(a);
  for (const [path, set] of b) out.set(path, union(out.get(path) ?? EMPTY_SET, set));
  return out;
}

/** Path-wise difference a − b; paths left empty are dropped. */
export function lineSetSubtract(a: LineSet, b: LineSet): LineSet {
  const out = new Map<string, IntervalSet>();
  for (const [path, set] of a) {
    const rest = subtract(set, b.get(path) ?? EMPTY_SET);
    if (rest.length > 0) out.set(path, rest);
  }
  return out;
}
