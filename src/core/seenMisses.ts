/**
 * Miss anatomy × what the explorer's own run viewed (issue 19 item 3): every core line keeps its one
 * anatomy category (src/core/missAnatomy.ts) and is also *seen* (some read of the run showed it) or
 * not. A missed line the run viewed is a reporting / ranking problem; one it never viewed is a
 * search problem.
 */
import { intersect, intersectionSize, union, type IntervalSet, type LineSet } from './intervals';
import { emptyMissCounts, MISS_CATEGORIES, type MissAnatomy, type MissCounts } from './missAnatomy';

export interface SeenAnatomy {
  /** Per category, the core lines of that category the run viewed (each ≤ the category's count). */
  readonly seen: MissCounts;
  /** Core lines the run viewed: the sum of `seen`. */
  readonly viewedCoreLines: number;
  /** Missed core lines (every category but `hit`) the run viewed: "viewed but not reported". */
  readonly seenMissed: number;
  /** Missed core lines: `coreLines - hit`. */
  readonly missed: number;
}

/** Splits the viewed core lines of one instance × explorer by anatomy category. */
export function seenAnatomy(anatomy: MissAnatomy, viewed: LineSet): SeenAnatomy {
  const seen = emptyMissCounts();
  let viewedCoreLines = 0;
  for (const category of MISS_CATEGORIES) {
    let lines = 0;
    for (const [path, set] of anatomy.spans[category]) {
      const shown = viewed.get(path);
      if (shown !== undefined) lines += intersectionSize(set, shown);
    }
    seen[category] = lines;
    viewedCoreLines += lines;
  }
  return { seen, viewedCoreLines, seenMissed: viewedCoreLines - seen.hit, missed: anatomy.coreLines - anatomy.counts.hit };
}

/** The missed core lines the run viewed, per path (what "next seen-but-missed span" walks through). */
export function seenMissedLines(anatomy: MissAnatomy, viewed: LineSet): LineSet {
  const out = new Map<string, IntervalSet>();
  for (const category of MISS_CATEGORIES) {
    if (category === 'hit') continue;
    for (const [path, set] of anatomy.spans[category]) {
      const shown = viewed.get(path);
      if (shown === undefined) continue;
      const both = intersect(set, shown);
      if (both.length === 0) continue;
      const before = out.get(path);
      out.set(path, before === undefined ? both : union(before, both));
    }
  }
  return out;
}

/** Adds `more` into `into` (both anatomy × seen sums). */
export function addSeenAnatomy(into: { seen: MissCounts; viewedCoreLines: number; seenMissed: number; missed: number }, more: SeenAnatomy): void {
  for (const category of MISS_CATEGORIES) into.seen[category] += more.seen[category];
  into.viewedCoreLines += more.viewedCoreLines;
  into.seenMissed += more.seenMissed;
  into.missed += more.missed;
}
