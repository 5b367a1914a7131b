/**
 * Where a released core came from: R_int (the lines every trajectory read, rebuilt from the
 * record's own `read_step_info` exactly as the builder intersects) against the core as written.
 * Promoted = core ∖ R_int (lines a later step added), dropped = R_int ∖ core (consensus lines that
 * were taken out). On the 32 shared records: 314 promoted lines in 29 records, none dropped
 * (../shared/trajectories.md §6).
 *
 * - R_int: the entries are grouped by `traj_path` (trajectories in order of first appearance),
 *   each group's reads merged per file in the builder's internal form, then folded with
 *   {@link intersectTrajectories}: tails never intersect, so with two or more trajectories they
 *   drop out; with a single trajectory the builder's fold keeps them, and so does this one.
 * - Lines are counted after resolution: R_int is first written as the builder writes regions
 *   (`10**6` and `end = -1` become the line count, nothing clipped), then it and the core are
 *   resolved as the evaluator resolves regions ({@link resolveRegion}: a tail `{start: -N}` is the
 *   last N lines, an inverted region covers nothing). A region that needs a count the caller does not have is left out and its path
 *   reported in `unresolvedPaths`.
 * - A trajectory of the instance that kept no read at all leaves no entry in `read_step_info`, so
 *   it cannot be seen here (the builder's core would have been empty).
 * - `models` of a promoted region: the models whose optional regions (resolved the same way, merged)
 *   contain every line of it, in the record's model order.
 */
import { lineSetSize, normalize, rangeIntersectionSize, subtract, type Interval, type IntervalSet } from '../intervals';
import type { ReadStepInfo } from '../provenance';
import { resolveRegion } from '../resolve';
import type { LineCounts, Region } from '../types';
import { fileIntervals, intersectTrajectories, MAX_LINE, type BuilderInterval } from './build';
import { compareCodePoints } from './python';

/** R_int in the builder's internal form (tails kept only when there is one trajectory). */
export function rebuildRInt(readStepInfo: ReadStepInfo | null | undefined): Map<string, BuilderInterval[]> {
  const byTrajectory = new Map<string, { path: string; start: number; end: number }[]>();
  if (readStepInfo !== null && readStepInfo !== undefined) {
    for (const path of Object.keys(readStepInfo)) {
      const steps = readStepInfo[path];
      if (!Array.isArray(steps)) continue;
      for (const step of steps) {
        let list = byTrajectory.get(step.traj_path);
        if (list === undefined) byTrajectory.set(step.traj_path, (list = []));
        list.push({ path, start: step.start, end: step.end });
      }
    }
  }
  return intersectTrajectories([...byTrajectory.values()].map((reads) => fileIntervals(reads)));
}

export interface PromotedRegion {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** Models whose optional regions contain the whole region. */
  readonly models: readonly string[];
}

export interface PromotionInput {
  readonly readStepInfo: ReadStepInfo | null | undefined;
  readonly coreRegions: readonly Region[];
  /** Per model, in the record's order. */
  readonly optionalRegionsByModel: Readonly<Record<string, readonly Region[]>>;
  /** Counts for `-1` ends and tails. */
  readonly lineCounts: LineCounts;
}

export interface PromotionProvenance {
  readonly coreLines: number;
  readonly rIntLines: number;
  readonly promotedLines: number;
  readonly droppedLines: number;
  /** Maximal runs of core ∖ R_int, by path (code points) then line. */
  readonly promotedRegions: readonly PromotedRegion[];
  /** Maximal runs of R_int ∖ core, by path then line. */
  readonly droppedRegions: readonly Region[];
  /** Resolved R_int lines per path. */
  readonly rInt: ReadonlyMap<string, IntervalSet>;
  /** Paths with a region that needed a line count that was not given (left out of every count). */
  readonly unresolvedPaths: readonly string[];
}

/** Resolved lines per path of `regions` (merged); unresolvable paths are added to `unresolved`. */
export function resolvedRegionLines(regions: Iterable<Region>, lineCounts: LineCounts, unresolved: Set<string>): Map<string, IntervalSet> {
  const byPath = new Map<string, Interval[]>();
  for (const region of regions) {
    const resolution = resolveRegion(region, lineCounts.get(region.path));
    if (resolution.kind !== 'resolved') {
      unresolved.add(region.path);
      continue;
    }
    let list = byPath.get(region.path);
    if (list === undefined) byPath.set(region.path, (list = []));
    if (resolution.start <= resolution.end) list.push([resolution.start, resolution.end]);
  }
  const out = new Map<string, IntervalSet>();
  for (const [path, list] of byPath) out.set(path, normalize(list));
  return out;
}

/**
 * R_int as the builder would write it: `10**6` and `-1` ends become the line count (when known;
 * else the region stays at -1 and is reported unresolved), nothing clipped.
 */
export function* writtenBuilderRegions(files: ReadonlyMap<string, readonly BuilderInterval[]>, lineCounts: LineCounts): Generator<Region> {
  for (const [path, list] of files) {
    const count = lineCounts.get(path);
    for (const [start, end] of list) yield { path, start, end: (end === MAX_LINE || end === -1) && count !== undefined ? count : end === MAX_LINE ? -1 : end };
  }
}

function difference(a: ReadonlyMap<string, IntervalSet>, b: ReadonlyMap<string, IntervalSet>): Map<string, IntervalSet> {
  const out = new Map<string, IntervalSet>();
  for (const [path, set] of a) {
    const rest = subtract(set, b.get(path) ?? []);
    if (rest.length > 0) out.set(path, rest);
  }
  return out;
}

/** Compares a record's core with the R_int its own reads give (see the module comment). */
export function promotionProvenance(input: PromotionInput): PromotionProvenance {
  const unresolved = new Set<string>();
  const core = resolvedRegionLines(input.coreRegions, input.lineCounts, unresolved);
  const rInt = resolvedRegionLines(writtenBuilderRegions(rebuildRInt(input.readStepInfo), input.lineCounts), input.lineCounts, unresolved);
  const promoted = difference(core, rInt);
  const dropped = difference(rInt, core);

  const optional: { model: string; lines: Map<string, IntervalSet> }[] = [];
  for (const model of Object.keys(input.optionalRegionsByModel)) {
    optional.push({ model, lines: resolvedRegionLines(input.optionalRegionsByModel[model] ?? [], input.lineCounts, new Set()) });
  }
  const promotedRegions: PromotedRegion[] = [];
  for (const path of [...promoted.keys()].sort(compareCodePoints)) {
    for (const [start, end] of promoted.get(path)!) {
      const models = optional.filter(({ lines }) => rangeIntersectionSize(lines.get(path) ?? [], start, end) === end - start + 1).map(({ model }) => model);
      promotedRegions.push({ path, start, end, models });
    }
  }
  const droppedRegions: Region[] = [];
  for (const path of [...dropped.keys()].sort(compareCodePoints)) for (const [start, end] of dropped.get(path)!) droppedRegions.push({ path, start, end });
  return {
    coreLines: lineSetSize(core),
    rIntLines: lineSetSize(rInt),
    promotedLines: lineSetSize(promoted),
    droppedLines: lineSetSize(dropped),
    promotedRegions,
    droppedRegions,
    rInt,
    unresolvedPaths: [...unresolved].sort(compareCodePoints),
  };
}
