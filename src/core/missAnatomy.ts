/**
 * Miss anatomy: why each core line of an instance was or was not found by an explorer's list at a
 * line budget B. Every core line falls in exactly one category, the first that applies:
 *
 * 1. `hit` — reached by Recall@B's line-by-line walk within B (so `hit / |C|` is Recall@B);
 * 2. `beyond_budget` — covered by a resolved prediction of the list, but only after B ran out;
 * 3. `path_mismatch` — covered by a prediction whose path string differs from the core path but
 *    names the same file after {@link normalisePredictedPath} (applied to both), its range resolved with the core
 *    path's line count;
 * 4. `inverted` — inside the swapped range of a prediction on the exact path with `start > end ≥ 1`;
 * 5. `wrong_region` — the exact path is named by some prediction, but nothing above applies;
 * 6. `file_not_predicted` — everything else: no prediction names the exact core path (a
 *    mismatched-path prediction that misses the line lands here too).
 *
 * Everything is interval arithmetic on the prepared sets, so a whole-file region of a 50k-line
 * file costs one interval.
 */
import { examinedWithinBudget } from './metrics';
import { EMPTY_SET, intersect, normalize, setSize, subtract, type Interval, type IntervalSet, type LineSet } from './intervals';
import type { PreparedInstance } from './prepare';
import { resolveRegion } from './resolve';

export const MISS_CATEGORIES = ['hit', 'beyond_budget', 'path_mismatch', 'inverted', 'wrong_region', 'file_not_predicted'] as const;

export type MissCategory = (typeof MISS_CATEGORIES)[number];

/** Core lines per category. */
export type MissCounts = Record<MissCategory, number>;

/** The prediction closest to a `wrong_region` span on the same path. */
export interface NearestPrediction {
  /** 1-based rank in the scored list. */
  readonly rank: number;
  /** Lines between the prediction and the span (≥ 1): 40 means "ends 40 lines above". */
  readonly distance: number;
  /** `above`: the prediction ends before the span starts; `below`: it starts after the span ends. */
  readonly side: 'above' | 'below';
}

/** One maximal run of `wrong_region` lines and the prediction nearest to it. */
export interface WrongRegionSpan {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** `null` when no prediction on the path has a usable range (all unresolvable). */
  readonly nearest: NearestPrediction | null;
}

export interface MissAnatomy {
  readonly budget: number;
  /** |C|: distinct core lines; the six counts sum to it. */
  readonly coreLines: number;
  readonly counts: MissCounts;
  /** Per category, the core lines it holds: path → sorted, disjoint intervals. */
  readonly spans: Readonly<Record<MissCategory, LineSet>>;
  /** The `wrong_region` spans in path order, each with its nearest prediction. */
  readonly wrongRegion: readonly WrongRegionSpan[];
}

export interface MissAnatomyOptions {
  /** The record's `repo_path` (e.g. `/testbed`): a leading copy of it is dropped when matching paths. */
  readonly repoPath?: string | undefined;
}

/** All six counts at 0, for sums. */
export function emptyMissCounts(): MissCounts {
  return { hit: 0, beyond_budget: 0, path_mismatch: 0, inverted: 0, wrong_region: 0, file_not_predicted: 0 };
}

/** Adds `more` into `into`, category by category. */
export function addMissCounts(into: MissCounts, more: Readonly<MissCounts>): void {
  for (const category of MISS_CATEGORIES) into[category] += more[category];
}

/**
 * The file a path names, for the `path_mismatch` test — the one normalisation applied to the core
 * path and the predicted path alike: backslashes become `/`, empty and `.` segments go (so `a//b`,
 * `a/./b`, a leading `./` or `/` and a trailing `/` all collapse), then the segments of a leading
 * `repoPath` are dropped as long as they lead. `..` is kept as written (it is not resolved).
 */
export function normalisePredictedPath(path: string, repoPath?: string): string {
  const segmentsOf = (p: string): string[] => p.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
  const segments = segmentsOf(path);
  const root = repoPath === undefined ? [] : segmentsOf(repoPath);
  let start = 0;
  if (root.length > 0) {
    while (start + root.length <= segments.length && root.every((s, i) => segments[start + i] === s)) start += root.length;
  }
  return segments.slice(start).join('/');
}

/** A usable range of one prediction on a path, for the nearest-prediction search. */
interface RankedRange {
  readonly rank: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Splits the core lines of a prepared instance (predictions already sliced to the top k) into the
 * six categories at budget B (see the module comment).
 */
export function missAnatomy(instance: PreparedInstance, budget: number, options: MissAnatomyOptions = {}): MissAnatomy {
  const { examined } = examinedWithinBudget(instance, budget);
  // Prediction indices by exact path and by normalised path, built once.
  const byPath = new Map<string, number[]>();
  const byNormalised = new Map<string, number[]>();
  instance.predictions.forEach(({ region }, index) => {
    pushTo(byPath, region.path, index);
    pushTo(byNormalised, normalisePredictedPath(region.path, options.repoPath), index);
  });

  const counts = emptyMissCounts();
  const spans: Record<MissCategory, Map<string, IntervalSet>> = {
    hit: new Map(),
    beyond_budget: new Map(),
    path_mismatch: new Map(),
    inverted: new Map(),
    wrong_region: new Map(),
    file_not_predicted: new Map(),
  };
  const wrongRegion: WrongRegionSpan[] = [];
  const record = (category: MissCategory, path: string, set: IntervalSet): void => {
    if (set.length === 0) return;
    spans[category].set(path, set);
    counts[category] += setSize(set);
  };

  let coreLines = 0;
  for (const [path, core] of instance.core) {
    coreLines += setSize(core);
    const exact = byPath.get(path) ?? [];
    const examinedHere = examined.get(path) ?? EMPTY_SET;
    record('hit', path, intersect(core, examinedHere));
    let rest = subtract(core, examinedHere);

    const covered: Interval[] = [];
    const swapped: Interval[] = [];
    const ranked: RankedRange[] = [];
    for (const index of exact) {
      const { region, resolution } = instance.predictions[index]!;
      if (resolution.kind === 'resolved' && resolution.start <= resolution.end) {
        covered.push([resolution.start, resolution.end]);
        ranked.push({ rank: index + 1, start: resolution.start, end: resolution.end });
      }
      if (region.start > region.end && region.end >= 1) {
        swapped.push([region.end, region.start]);
        ranked.push({ rank: index + 1, start: region.end, end: region.start });
      }
    }
    const coveredSet = normalize(covered);
    record('beyond_budget', path, intersect(rest, coveredSet));
    rest = subtract(rest, coveredSet);

    const mismatched: Interval[] = [];
    const lineCount = instance.evaluatorLineCount(path);
    for (const index of byNormalised.get(normalisePredictedPath(path, options.repoPath)) ?? []) {
      const { region } = instance.predictions[index]!;
      if (region.path === path) continue;
      const resolution = resolveRegion(region, lineCount);
      if (resolution.kind === 'resolved' && resolution.start <= resolution.end) mismatched.push([resolution.start, resolution.end]);
    }
    const mismatchedSet = normalize(mismatched);
    record('path_mismatch', path, intersect(rest, mismatchedSet));
    rest = subtract(rest, mismatchedSet);

    const swappedSet = normalize(swapped);
    record('inverted', path, intersect(rest, swappedSet));
    rest = subtract(rest, swappedSet);

    if (exact.length === 0) {
      record('file_not_predicted', path, rest);
    } else {
      record('wrong_region', path, rest);
      const nearest = nearestFinder(ranked);
      for (const [start, end] of rest) wrongRegion.push({ path, start, end, nearest: nearest(start, end) });
    }
  }
  return { budget, coreLines, counts, spans, wrongRegion };
}

function pushTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * Nearest range to a span that none of the ranges touches: the one ending closest above or
 * starting closest below, ties to the better (lower) rank, then to `above`. Sorted once, then a
 * binary search per span, so many spans against many predictions stay O((S + K) log K).
 */
function nearestFinder(ranges: readonly RankedRange[]): (start: number, end: number) => NearestPrediction | null {
  if (ranges.length === 0) return () => null;
  // By end ascending, rank descending: the last entry with end < start is the best one above.
  const byEnd = [...ranges].sort((a, b) => a.end - b.end || b.rank - a.rank);
  // By start descending, rank descending: the last entry with start > end is the best one below.
  const byStart = [...ranges].sort((a, b) => b.start - a.start || b.rank - a.rank);
  return (start, end) => {
    const above = lastWhere(byEnd, (r) => r.end < start);
    const below = lastWhere(byStart, (r) => r.start > end);
    const up = above === undefined ? null : { rank: above.rank, distance: start - above.end, side: 'above' as const };
    const down = below === undefined ? null : { rank: below.rank, distance: below.start - end, side: 'below' as const };
    if (up === null) return down;
    if (down === null) return up;
    return down.distance < up.distance || (down.distance === up.distance && down.rank < up.rank) ? down : up;
  };
}

/** The last element of a list for which `accept` holds on a prefix (binary search). */
function lastWhere<T>(list: readonly T[], accept: (item: T) => boolean): T | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (accept(list[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : list[lo - 1];
}
