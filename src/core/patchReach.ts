/**
 * Patch reach: does an explorer's list reach the lines the gold patch changes, within the line
 * budget B, and by which rank? The patch lines are {@link patchBaseLines}: removed lines and the
 * anchor of every insertion, on the base snapshot. "Reached" is the same rule as Recall@B and the
 * miss anatomy's `hit`: the lines {@link examinedWithinBudget} walks (first B line occurrences of
 * resolvable entries in rank order; exact path strings, as the evaluator matches them). Unlike the
 * anatomy, patch lines outside the core count too: the question is "did it read what the fix
 * edits?", whatever the ground truth says.
 *
 * Interval arithmetic only: O((P + K) log(P + K)) for P patch intervals and K predictions.
 */
import { EMPTY_SET, intersect, lineSetSize, setSize, subtract, type IntervalSet, type LineSet } from './intervals';
import { emptyMissCounts, MISS_CATEGORIES, type MissAnatomy, type MissCategory, type MissCounts } from './missAnatomy';
import { examinedWithinBudget } from './metrics';
import type { PreparedInstance } from './prepare';

/** A maximal run of patch lines on one path. */
export interface PatchSpan {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

export interface PatchReach {
  readonly budget: number;
  /** Distinct patch lines (removed lines and insertion anchors). */
  readonly patchLines: number;
  /** Patch lines Recall@B's walk examines within B. */
  readonly reachedLines: number;
  /** 1-based ranks whose in-budget lines hold a patch line, ascending (a rank past B reaches nothing). */
  readonly ranks: readonly number[];
  /** The best of {@link ranks}, or null when no patch line is reached. */
  readonly firstRank: number | null;
  /** The reached patch lines: path → sorted, disjoint intervals. */
  readonly reached: LineSet;
  /** The patch lines not reached within B, by path (code-unit order), then start line. */
  readonly missed: readonly PatchSpan[];
}

/** Patch lines inside each miss-anatomy category: the "patch lines here" marker of each segment. */
export interface PatchAnatomy {
  /** Patch lines per category; only core lines have a category, so these sum to |patch ∩ C|. */
  readonly counts: MissCounts;
  /** The same lines, per category: path → sorted, disjoint intervals. */
  readonly spans: Readonly<Record<MissCategory, LineSet>>;
  /** Patch lines outside the core (no category holds them). */
  readonly outsideCore: number;
}

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether `[start, end]` meets the sorted, disjoint `set` (binary search). */
function meets(set: IntervalSet, start: number, end: number): boolean {
  let lo = 0;
  let hi = set.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (set[mid]![1] < start) lo = mid + 1;
    else hi = mid;
  }
  const next = set[lo];
  return next !== undefined && next[0] <= end;
}

/**
 * Patch reach of a prepared list (predictions already cut to the top k) at budget B, for the patch
 * lines `patch` ({@link patchBaseLines} of the record's `patch`).
 */
export function patchReach(instance: PreparedInstance, budget: number, patch: LineSet): PatchReach {
  const { examined, linesPerEntry } = examinedWithinBudget(instance, budget);
  const reached = new Map<string, IntervalSet>();
  const missed: PatchSpan[] = [];
  let patchLines = 0;
  let reachedLines = 0;
  for (const path of [...patch.keys()].sort(comparePaths)) {
    const lines = patch.get(path)!;
    patchLines += setSize(lines);
    const examinedHere = examined.get(path) ?? EMPTY_SET;
    const hit = intersect(lines, examinedHere);
    if (hit.length > 0) {
      reached.set(path, hit);
      reachedLines += setSize(hit);
    }
    for (const [start, end] of subtract(lines, examinedHere)) missed.push({ path, start, end });
  }
  const ranks: number[] = [];
  for (const prediction of instance.predictions) {
    const take = linesPerEntry[prediction.index]!;
    const lines = reached.get(prediction.region.path);
    if (take === 0 || lines === undefined || prediction.resolution.kind !== 'resolved') continue;
    const start = prediction.resolution.start;
    if (meets(lines, start, start + take - 1)) ranks.push(prediction.index + 1);
  }
  return { budget, patchLines, reachedLines, ranks, firstRank: ranks[0] ?? null, reached, missed };
}

/** The lines of `lines` that are patch lines, path by path. */
function patchLinesIn(lines: LineSet, patch: LineSet): LineSet {
  const out = new Map<string, IntervalSet>();
  for (const [path, set] of lines) {
    const both = intersect(set, patch.get(path) ?? EMPTY_SET);
    if (both.length > 0) out.set(path, both);
  }
  return out;
}

/** How many patch lines fall in each category of a miss anatomy, and how many lie outside the core. */
export function patchAnatomy(anatomy: MissAnatomy, patch: LineSet): PatchAnatomy {
  const of = (category: MissCategory): LineSet => patchLinesIn(anatomy.spans[category], patch);
  const spans: Record<MissCategory, LineSet> = {
    hit: of('hit'),
    beyond_budget: of('beyond_budget'),
    path_mismatch: of('path_mismatch'),
    inverted: of('inverted'),
    wrong_region: of('wrong_region'),
    file_not_predicted: of('file_not_predicted'),
  };
  const counts = emptyMissCounts();
  let outsideCore = lineSetSize(patch);
  for (const category of MISS_CATEGORIES) {
    counts[category] = lineSetSize(spans[category]);
    outsideCore -= counts[category];
  }
  return { counts, spans, outsideCore };
}

/** Ranks named in a summary before "+N more". */
const RANKS_NAMED = 3;

/**
 * The one-line summary the Scores view shows for a row: `gold patch lines: 12/14 within B=500 by #2, #4`,
 * `gold patch lines: 0/1 within B=500, none reached`, or, for a patch that only creates files,
 * `gold patch: no line of the base snapshot (new files only)`. Numbers only: safe on any surface.
 */
export function patchReachSummary(reach: PatchReach): string {
  if (reach.patchLines === 0) return 'gold patch: no line of the base snapshot (new files only)';
  const head = `gold patch lines: ${reach.reachedLines}/${reach.patchLines} within B=${reach.budget}`;
  if (reach.ranks.length === 0) return `${head}, none reached`;
  const named = reach.ranks.slice(0, RANKS_NAMED).map((rank) => `#${rank}`);
  const more = reach.ranks.length > RANKS_NAMED ? ` +${reach.ranks.length - RANKS_NAMED} more` : '';
  return `${head} by ${named.join(', ')}${more}`;
}
