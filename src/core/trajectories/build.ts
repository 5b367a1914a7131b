/**
 * The builder's ground truth from kept reads (`build_instance_ground_truth`,
 * ../shared/trajectories.md §1 "Intervals"), bit for bit:
 *
 * - **Internal form** of a read `(start, end)`: a negative start is a *tail* `(start, end)` (end
 *   kept, `-1` meaning EOF), which never merges, intersects or gets subtracted; otherwise
 *   `s = max(1, start)`, `e = 10**6` for `end == -1`, else `max(s, end)` (a reversed range collapses
 *   to its first line).
 * - **Merge** per file: concrete intervals sorted by `(s, e)` and joined when `a <= hi + 1`
 *   (adjacent lines join), then the tails in their order (duplicates kept).
 * - **Core** = a fold over the trajectories in input order: start from the first one's merged files
 *   (tails included: with a single trajectory they stay), then for each further trajectory keep a
 *   file only if it has it too and the intersection of their concrete intervals is not empty. A
 *   trajectory without kept reads therefore empties the core.
 * - **Optional[model]** = the union of the model's trajectories per file, merged, minus the core's
 *   concrete intervals (tails survive), files with nothing left dropped; models in order of first
 *   appearance.
 * - Regions are written sorted by path (code points), `10**6` written as `end: -1`; then every core
 *   and optional region with `end == -1` gets the file's line count ({@link resolveEndPlaceholders}),
 *   so tails come out as `{start: -N, end: <count>}`. Ranges past EOF are not clipped.
 * - **modified_core_files** = ∩ over trajectories of their normalised modified paths, sorted;
 *   **main_files** = core files ∩ that, sorted.
 * - **read_step_info**: path → entries, paths in first-seen order, entries in trajectory order.
 */
import { intersect, subtract, type Interval, type IntervalSet } from '../intervals';
import type { TrajectoryRead } from './normalize';
import { compareCodePoints, JsonObjectEntries, pyJsonDumps, type PyJsonValue } from './python';

/** The builder's stand-in for "to the end of the file" inside its interval arithmetic. */
export const MAX_LINE = 1_000_000;

/** An interval in the builder's internal form (see the module comment). */
export type BuilderInterval = readonly [start: number, end: number];

function isTail([start, end]: BuilderInterval): boolean {
  return start < 0 || end < 0;
}

/** `_to_concrete_interval`. */
export function toBuilderInterval(start: number, end: number): BuilderInterval {
  if (start < 0) return [start, end];
  const s = Math.max(1, start);
  return [s, end === -1 ? MAX_LINE : Math.max(s, end)];
}

/** `_merge_intervals`: concrete sorted and joined (adjacent lines too), tails appended in order. */
export function mergeBuilderIntervals(intervals: readonly BuilderInterval[]): BuilderInterval[] {
  const concrete: BuilderInterval[] = [];
  const tails: BuilderInterval[] = [];
  for (const interval of intervals) (isTail(interval) ? tails : concrete).push(interval);
  concrete.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [a, b] of concrete) {
    const last = out[out.length - 1];
    if (last !== undefined && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  for (const tail of tails) out.push([tail[0], tail[1]]);
  return out;
}

function concreteOf(intervals: readonly BuilderInterval[]): IntervalSet {
  const out: Interval[] = [];
  for (const interval of intervals) if (!isTail(interval)) out.push(interval);
  return out;
}

/** `_intersect_intervals` of two merged lists: their concrete lines in common (tails never intersect). */
export function intersectBuilderIntervals(a: readonly BuilderInterval[], b: readonly BuilderInterval[]): BuilderInterval[] {
  // Both concrete parts are sorted and non-adjacent, so the pairwise intersections the builder forms
  // are exactly the two-pointer intersection, already merged.
  return intersect(concreteOf(a), concreteOf(b)).map(([s, e]) => [s, e]);
}

/** `_interval_set_minus`: the concrete lines of `full` not in `remove`, then `full`'s tails. */
export function subtractBuilderIntervals(full: readonly BuilderInterval[], remove: readonly BuilderInterval[]): BuilderInterval[] {
  const rest: BuilderInterval[] = subtract(concreteOf(full), concreteOf(remove)).map(([s, e]) => [s, e]);
  for (const interval of full) if (isTail(interval)) rest.push(interval);
  return rest;
}

/** Reads grouped by file in first-seen order, each file's intervals merged (`_regions_to_file_intervals`). */
export function fileIntervals(reads: Iterable<{ readonly path: string; readonly start: number; readonly end: number }>): Map<string, BuilderInterval[]> {
  const byFile = new Map<string, BuilderInterval[]>();
  for (const read of reads) {
    let list = byFile.get(read.path);
    if (list === undefined) byFile.set(read.path, (list = []));
    list.push(toBuilderInterval(read.start, read.end));
  }
  for (const [path, list] of byFile) byFile.set(path, mergeBuilderIntervals(list));
  return byFile;
}

/** `_intersect_file_intervals_all`: the fold that gives the core (R_int). */
export function intersectTrajectories(perTrajectory: readonly ReadonlyMap<string, readonly BuilderInterval[]>[]): Map<string, BuilderInterval[]> {
  const first = perTrajectory[0];
  if (first === undefined) return new Map();
  const result = new Map<string, BuilderInterval[]>();
  for (const [path, list] of first) result.set(path, list.slice());
  for (let t = 1; t < perTrajectory.length; t++) {
    const other = perTrajectory[t]!;
    for (const [path, list] of result) {
      const theirs = other.get(path);
      const common = theirs === undefined ? [] : intersectBuilderIntervals(list, theirs);
      if (common.length === 0) result.delete(path);
      else result.set(path, common);
    }
  }
  return result;
}

/** A region as the builder writes it (`end = -1` until resolved). */
export interface BuiltRegion {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

/** `_intervals_to_region_list`: sorted by path, `10**6` written as -1. */
export function regionList(files: ReadonlyMap<string, readonly BuilderInterval[]>): BuiltRegion[] {
  const out: BuiltRegion[] = [];
  for (const path of [...files.keys()].sort(compareCodePoints)) {
    for (const [start, end] of files.get(path)!) out.push({ path, start, end: end === MAX_LINE ? -1 : end });
  }
  return out;
}

/** One trajectory of an instance, ready for the build. */
export interface BuildTrajectory {
  /** As written into `read_step_info` (the builder writes the path it was given). */
  readonly trajPath: string;
  /** `info.model`, else the file's grand-parent folder name. */
  readonly model: string;
  /** Kept reads in extraction order. */
  readonly reads: readonly Pick<TrajectoryRead, 'path' | 'start' | 'end' | 'stepIdx'>[];
  /** Normalised, temp-filtered modified paths (see `modifiedFiles`). */
  readonly modified: Iterable<string>;
}

export interface ReadStepEntry {
  readonly trajPath: string;
  readonly stepIdx: number;
  readonly start: number;
  readonly end: number;
}

export interface OptionalFiles {
  readonly model: string;
  readonly files: readonly string[];
  readonly regions: readonly BuiltRegion[];
}

/** One instance's ground truth as the builder computes it. */
export interface BuiltGroundTruth {
  readonly coreFiles: readonly string[];
  readonly coreRegions: readonly BuiltRegion[];
  /** Per model, in order of first appearance among the trajectories. */
  readonly optional: readonly OptionalFiles[];
  readonly modifiedCoreFiles: readonly string[];
  readonly mainFiles: readonly string[];
  /** Paths in first-seen order, entries in trajectory order. */
  readonly readStepInfo: ReadonlyArray<{ readonly path: string; readonly steps: readonly ReadStepEntry[] }>;
  readonly meta: { readonly numTrajectories: number; readonly numReadCore: number; readonly numReadCoreRegions: number; readonly numModifiedCore: number; readonly numMain: number };
}

/** The builder's ground truth of one instance from its trajectories in input order (none: an empty one). */
export function buildGroundTruth(trajectories: readonly BuildTrajectory[]): BuiltGroundTruth {
  const perTrajectory = trajectories.map((t) => fileIntervals(t.reads));
  const core = intersectTrajectories(perTrajectory);
  const coreRegions = regionList(core);
  const coreFiles = [...core.keys()].sort(compareCodePoints);

  const unionByModel = new Map<string, Map<string, BuilderInterval[]>>();
  trajectories.forEach((trajectory, i) => {
    let union = unionByModel.get(trajectory.model);
    if (union === undefined) unionByModel.set(trajectory.model, (union = new Map()));
    for (const [path, list] of perTrajectory[i]!) {
      const existing = union.get(path);
      if (existing === undefined) union.set(path, list.slice());
      else for (const interval of list) existing.push(interval);
    }
  });
  const optional: OptionalFiles[] = [];
  for (const [model, union] of unionByModel) {
    const remaining = new Map<string, BuilderInterval[]>();
    for (const [path, list] of union) {
      const rest = subtractBuilderIntervals(mergeBuilderIntervals(list), core.get(path) ?? []);
      if (rest.length > 0) remaining.set(path, rest);
    }
    optional.push({ model, files: [...remaining.keys()].sort(compareCodePoints), regions: regionList(remaining) });
  }

  let modified: Set<string> | undefined;
  for (const trajectory of trajectories) {
    const mine = new Set(trajectory.modified);
    if (modified === undefined) modified = mine;
    else for (const path of modified) if (!mine.has(path)) modified.delete(path);
  }
  const modifiedCoreFiles = [...(modified ?? [])].sort(compareCodePoints);
  const modifiedSet = new Set(modifiedCoreFiles);
  const mainFiles = coreFiles.filter((path) => modifiedSet.has(path));

  const steps = new Map<string, ReadStepEntry[]>();
  for (const trajectory of trajectories) {
    for (const read of trajectory.reads) {
      let list = steps.get(read.path);
      if (list === undefined) steps.set(read.path, (list = []));
      list.push({ trajPath: trajectory.trajPath, stepIdx: read.stepIdx, start: read.start === 0 ? 1 : read.start, end: read.end });
    }
  }
  return {
    coreFiles,
    coreRegions,
    optional,
    modifiedCoreFiles,
    mainFiles,
    readStepInfo: [...steps].map(([path, list]) => ({ path, steps: list })),
    meta: { numTrajectories: trajectories.length, numReadCore: coreFiles.length, numReadCoreRegions: coreRegions.length, numModifiedCore: modifiedCoreFiles.length, numMain: mainFiles.length },
  };
}

/** Paths of core and optional regions whose `end` is still -1 (the line counts the build needs). */
export function endPlaceholderPaths(groundTruth: BuiltGroundTruth): string[] {
  const paths = new Set<string>();
  for (const r of groundTruth.coreRegions) if (r.end === -1) paths.add(r.path);
  for (const o of groundTruth.optional) for (const r of o.regions) if (r.end === -1) paths.add(r.path);
  return [...paths];
}

/**
 * `_resolve_region_end_placeholders` on core and optional regions: `end = -1` becomes the file's
 * line count when `lineCount` knows it (the builder counts text-mode lines — universal newlines,
 * undecodable bytes ignored — of files that exist); otherwise it stays -1.
 */
export function resolveEndPlaceholders(groundTruth: BuiltGroundTruth, lineCount: (path: string) => number | undefined): BuiltGroundTruth {
  const resolve = (regions: readonly BuiltRegion[]): BuiltRegion[] =>
    regions.map((r) => {
      if (r.end !== -1) return r;
      const count = lineCount(r.path);
      return count === undefined ? r : { ...r, end: count };
    });
  return { ...groundTruth, coreRegions: resolve(groundTruth.coreRegions), optional: groundTruth.optional.map((o) => ({ ...o, regions: resolve(o.regions) })) };
}

/** What the builder writes around the ground truth. */
export interface BuiltRecord {
  readonly instanceId: string;
  /** `--repo-path` (the placeholder, `/testbed` by default). */
  readonly repoPath: string;
  /** The repository folder as given (`<repos>/<instance_id>`), or null. */
  readonly repoDir: string | null;
  readonly groundTruth: BuiltGroundTruth;
}

function regionsJson(regions: readonly BuiltRegion[]): PyJsonValue {
  return regions.map(
    (r) =>
      new JsonObjectEntries([
        ['path', r.path],
        ['start', r.start],
        ['end', r.end],
      ]),
  );
}

/**
 * The record line as the builder writes it (`json.dumps(record, ensure_ascii=False)`: keys in the
 * builder's order, `", "` and `": "` separators), without the newline.
 */
export function builtRecordJson(record: BuiltRecord): string {
  const gt = record.groundTruth;
  const value = new JsonObjectEntries([
    ['instance_id', record.instanceId],
    ['repo_path', record.repoPath],
    ['repo_dir', record.repoDir],
    [
      'ground_truth',
      new JsonObjectEntries([
        ['read_core_files', gt.coreFiles],
        ['read_core_regions', regionsJson(gt.coreRegions)],
        ['read_optional_files_map', new JsonObjectEntries(gt.optional.map((o) => [o.model, o.files]))],
        ['read_optional_regions_map', new JsonObjectEntries(gt.optional.map((o) => [o.model, regionsJson(o.regions)]))],
        ['modified_core_files', gt.modifiedCoreFiles],
        ['main_files', gt.mainFiles],
      ]),
    ],
    [
      'read_step_info',
      new JsonObjectEntries(
        gt.readStepInfo.map(({ path, steps }) => [
          path,
          steps.map(
            (s) =>
              new JsonObjectEntries([
                ['traj_path', s.trajPath],
                ['step_idx', s.stepIdx],
                ['start', s.start],
                ['end', s.end],
              ]),
          ),
        ]),
      ),
    ],
    [
      'meta',
      new JsonObjectEntries([
        ['num_trajectories', gt.meta.numTrajectories],
        ['num_read_core', gt.meta.numReadCore],
        ['num_read_core_regions', gt.meta.numReadCoreRegions],
        ['num_modified_core', gt.meta.numModifiedCore],
        ['num_main', gt.meta.numMain],
      ]),
    ],
  ]);
  return pyJsonDumps(value);
}
