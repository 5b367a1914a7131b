/**
 * Provenance of core lines: which trajectories' read steps (`read_step_info`) cover each core line.
 *
 * Ground-truth core regions are distilled as the intersection of what *every* trajectory read
 * (metrics-spec §12), so a core line read by all trajectories is **consensus**; a core line read by
 * fewer is **promoted** (a later refinement put it in core). Auditors use the split to decide
 * whether a span is load-bearing.
 *
 * Everything is interval arithmetic: read steps become one sorted boundary list per path and a
 * single sweep yields maximal runs of equal reader sets, so cost is O(S log S + R·T) for S steps,
 * R output runs and T trajectories — never proportional to line numbers.
 */
import { EMPTY_SET, intersect, lineSetFrom, normalize, rangeIntersectionSize, setSize, subtract, type Interval, type IntervalSet } from './intervals';
import { resolveRegion, type Resolution } from './resolve';
import type { LineCounts, Region } from './types';

/** One raw read action (`record.read_step_info[path][i]`); `end = -1` whole file, negative start = tail. */
export interface ReadStepLike {
  readonly traj_path: string;
  readonly step_idx: number;
  readonly start: number;
  readonly end: number;
}

/** `record.read_step_info`: read steps per path. */
export type ReadStepInfo = Readonly<Record<string, readonly ReadStepLike[]>>;

export interface ProvenanceInput {
  readonly readStepInfo: ReadStepInfo | null | undefined;
  /** Core regions as in the ground truth (possibly with audited removals applied); resolved here per metrics-spec §1. */
  readonly coreRegions: readonly Region[];
  /** Line counts used to resolve `-1` ends and tail starts, of core regions and read steps alike. */
  readonly lineCounts: LineCounts;
  /** `record.meta.num_trajectories`; used only when it is a positive integer (meta is not reliable). */
  readonly numTrajectories?: unknown;
  /**
   * R_int as the builder intersects it (src/core/trajectories/promotion.ts, resolved lines per path):
   * when given, consensus = core ∩ R_int and promoted = core ∖ R_int (tails never intersect, so a
   * line every trajectory read only through a tail is promoted); without it, a line read by every
   * trajectory is consensus.
   */
  readonly rInt?: ReadonlyMap<string, IntervalSet>;
}

/** Maximal run of core lines read by the same set of trajectories. */
export interface ProvenanceRun {
  readonly start: number;
  readonly end: number;
  /** Distinct trajectories whose read steps cover every line of the run, in {@link Provenance.trajectories} order. */
  readonly readBy: readonly string[];
}

export interface PathProvenance {
  readonly path: string;
  /** Resolved core lines of the path. */
  readonly core: IntervalSet;
  /** Exactly the core lines, ascending; neighbouring runs have different `readBy`. */
  readonly runs: readonly ProvenanceRun[];
  /** Core lines read by every trajectory (none when no trajectory is known). */
  readonly consensus: IntervalSet;
  /** Core lines read by fewer than every trajectory: `core − consensus`. */
  readonly promoted: IntervalSet;
  /** Read steps of this path that cover no line (unresolvable for lack of a line count, or inverted). */
  readonly stepsWithoutLines: number;
}

export interface CoreRegionProvenance {
  /** 0-based index into the `coreRegions` input. */
  readonly index: number;
  readonly region: Region;
  readonly resolution: Resolution;
  /** Real lines the region covers (0 when unresolvable or inverted). */
  readonly lines: number;
  readonly consensusLines: number;
  /** consensusLines / lines; null for a region without lines. */
  readonly consensusShare: number | null;
  /** Distinct trajectories that read at least one line of the region, in {@link Provenance.trajectories} order. */
  readonly trajectories: readonly string[];
}

/**
 * How the consensus would change if one trajectory were dropped from the instance.
 *
 * Consensus means "read by every one of the T trajectories". Dropping trajectory X leaves T − 1
 * trajectories, and a line is consensus afterwards iff every remaining one read it. Hence:
 * - a line read by all T stays consensus (its other readers are still all of the rest), so lines
 *   can only **leave** when T = 1 (no trajectory remains, and with none nothing is consensus);
 * - a line read by every trajectory except X **joins**: X alone kept it out of the consensus.
 * The lines whose consensus status depends on X are `wouldJoin ∪ wouldLeave`; the "which
 * core lines would leave the consensus" is that set, and the UI can show either part.
 * `onlyReadBy` adds the other reading of "depends on X": core lines X is the sole reader of
 * (they would be read by nobody once X is gone).
 */
export interface LeaveOneOut {
  readonly trajectory: string;
  /** Per path; paths with no such lines are omitted. */
  readonly wouldJoin: ReadonlyMap<string, IntervalSet>;
  readonly wouldLeave: ReadonlyMap<string, IntervalSet>;
  readonly onlyReadBy: ReadonlyMap<string, IntervalSet>;
}

export interface Provenance {
  /** T: `numTrajectories` when a positive integer, else the number of distinct `traj_path`s. */
  readonly trajectoryCount: number;
  /** Distinct `traj_path`s seen in the read steps, sorted (code-unit order). */
  readonly trajectories: readonly string[];
  /** Per core path, in order of first appearance among the core regions. */
  readonly paths: ReadonlyMap<string, PathProvenance>;
  readonly regions: readonly CoreRegionProvenance[];
  readonly consensusLines: number;
  readonly promotedLines: number;
  /** The run containing `line` of `path`, if that line is core. Binary search. */
  runAt(path: string, line: number): ProvenanceRun | undefined;
  /** `null` when `trajectory` is not one of {@link trajectories}. */
  leaveOneOut(trajectory: string): LeaveOneOut | null;
}

/** T per the brief: a positive-integer meta value wins, otherwise the distinct trajectories seen. */
export function trajectoryCountOf(numTrajectories: unknown, distinctTrajectories: number): number {
  return typeof numTrajectories === 'number' && Number.isSafeInteger(numTrajectories) && numTrajectories > 0 ? numTrajectories : distinctTrajectories;
}

/** Steps of a path from a data object whose keys are paths (own keys only: a path may be "constructor"). */
function stepsOf(info: ReadStepInfo | null | undefined, path: string): readonly ReadStepLike[] {
  if (info === null || info === undefined || !Object.hasOwn(info, path)) return [];
  const steps = info[path];
  return Array.isArray(steps) ? steps : [];
}

/** Distinct trajectories over every path of `read_step_info`, sorted. */
function distinctTrajectories(info: ReadStepInfo | null | undefined): string[] {
  const seen = new Set<string>();
  if (info !== null && info !== undefined) {
    for (const path of Object.keys(info)) for (const step of stepsOf(info, path)) seen.add(step.traj_path);
  }
  return [...seen].sort(compareStrings);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A boundary of a trajectory's merged read set: `delta` +1 at a start, −1 one past an end. */
interface Boundary {
  readonly at: number;
  readonly trajectory: number;
  readonly delta: 1 | -1;
}

/**
 * Runs of core lines with their readers for one path. Each trajectory's steps are merged first
 * (overlapping steps of one trajectory count once), then one sweep over all boundaries walks the
 * core intervals alongside.
 */
function pathRuns(
  core: IntervalSet,
  steps: readonly ReadStepLike[],
  path: string,
  lineCount: number | undefined,
  trajectoryIndex: ReadonlyMap<string, number>,
  trajectoryNames: readonly string[],
): { runs: ProvenanceRun[]; stepsWithoutLines: number } {
  const perTrajectory = new Map<number, Interval[]>();
  let stepsWithoutLines = 0;
  for (const step of steps) {
    const r = resolveRegion({ path, start: step.start, end: step.end }, lineCount);
    if (r.kind !== 'resolved' || r.start > r.end) {
      stepsWithoutLines++;
      continue;
    }
    const t = trajectoryIndex.get(step.traj_path)!;
    let list = perTrajectory.get(t);
    if (list === undefined) perTrajectory.set(t, (list = []));
    list.push([r.start, r.end]);
  }
  const boundaries: Boundary[] = [];
  for (const [t, list] of perTrajectory) {
    for (const [s, e] of normalize(list)) {
      boundaries.push({ at: s, trajectory: t, delta: 1 });
      boundaries.push({ at: e + 1, trajectory: t, delta: -1 });
    }
  }
  boundaries.sort((a, b) => a.at - b.at);

  const runs: ProvenanceRun[] = [];
  const active = new Set<number>();
  let readers: readonly string[] = [];
  let b = 0;
  const emit = (start: number, end: number): void => {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.end + 1 === start && sameList(last.readBy, readers)) {
      runs[runs.length - 1] = { start: last.start, end, readBy: last.readBy };
    } else {
      runs.push({ start, end, readBy: readers });
    }
  };
  const advanceTo = (line: number): void => {
    // Applies every boundary at or before `line`; the reader list is rebuilt only when something changed.
    let changed = false;
    while (b < boundaries.length && boundaries[b]!.at <= line) {
      const { trajectory, delta } = boundaries[b]!;
      if (delta === 1) active.add(trajectory);
      else active.delete(trajectory);
      changed = true;
      b++;
    }
    if (changed) readers = [...active].sort((x, y) => x - y).map((t) => trajectoryNames[t]!);
  };
  for (const [coreStart, coreEnd] of core) {
    let cursor = coreStart;
    advanceTo(cursor);
    while (cursor <= coreEnd) {
      const next = b < boundaries.length ? boundaries[b]!.at : Infinity;
      const end = Math.min(coreEnd, next - 1);
      emit(cursor, end);
      cursor = end + 1;
      if (cursor <= coreEnd) advanceTo(cursor);
    }
  }
  return { runs, stepsWithoutLines };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Merges ascending, disjoint runs that satisfy `keep` into an interval set. */
function runsWhere(runs: readonly ProvenanceRun[], keep: (run: ProvenanceRun) => boolean): IntervalSet {
  const out: [number, number][] = [];
  for (const run of runs) {
    if (!keep(run)) continue;
    const last = out[out.length - 1];
    if (last !== undefined && last[1] + 1 >= run.start) last[1] = run.end;
    else out.push([run.start, run.end]);
  }
  return out;
}

/** Index of the run containing `line`, or -1. */
function runIndexAt(runs: readonly ProvenanceRun[], line: number): number {
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (runs[mid]!.end < line) lo = mid + 1;
    else hi = mid;
  }
  const run = runs[lo];
  return run !== undefined && run.start <= line ? lo : -1;
}

/**
 * Computes the provenance of every core line.
 *
 * - Read steps and core regions are resolved with {@link resolveRegion} and the given line counts
 *   (metrics-spec §1): `end = -1` → L, negative start → L + start + 1, both clamped into [1, L].
 * - A run's `readBy` = distinct trajectories with at least one step covering the run.
 * - consensus = core lines with |readBy| ≥ T (and T ≥ 1); promoted = core − consensus.
 * - Per region: consensusShare = |region ∩ consensus| / |region|.
 */
export function computeProvenance(input: ProvenanceInput): Provenance {
  const trajectories = distinctTrajectories(input.readStepInfo);
  const trajectoryIndex = new Map<string, number>();
  trajectories.forEach((name, i) => trajectoryIndex.set(name, i));
  const trajectoryCount = trajectoryCountOf(input.numTrajectories, trajectories.length);
  const isConsensus = (run: ProvenanceRun): boolean => trajectoryCount >= 1 && run.readBy.length >= trajectoryCount;

  const resolutions = input.coreRegions.map((region) => resolveRegion(region, input.lineCounts.get(region.path)));
  const core = lineSetFrom(
    input.coreRegions.flatMap((region, i) => {
      const r = resolutions[i]!;
      return r.kind === 'resolved' ? [{ path: region.path, start: r.start, end: r.end }] : [];
    }),
  );
  // Core paths in order of first appearance, including paths whose regions resolve to nothing.
  const paths = new Map<string, PathProvenance>();
  let consensusLines = 0;
  let promotedLines = 0;
  for (const region of input.coreRegions) {
    if (paths.has(region.path)) continue;
    const coreSet = core.get(region.path) ?? EMPTY_SET;
    const { runs, stepsWithoutLines } = pathRuns(coreSet, stepsOf(input.readStepInfo, region.path), region.path, input.lineCounts.get(region.path), trajectoryIndex, trajectories);
    const consensus = input.rInt === undefined ? runsWhere(runs, isConsensus) : intersect(coreSet, input.rInt.get(region.path) ?? EMPTY_SET);
    const promoted = subtract(coreSet, consensus);
    consensusLines += setSize(consensus);
    promotedLines += setSize(promoted);
    paths.set(region.path, { path: region.path, core: coreSet, runs, consensus, promoted, stepsWithoutLines });
  }

  const regions = input.coreRegions.map((region, index): CoreRegionProvenance => {
    const resolution = resolutions[index]!;
    const pathInfo = paths.get(region.path)!;
    if (resolution.kind !== 'resolved' || resolution.start > resolution.end) {
      return { index, region, resolution, lines: 0, consensusLines: 0, consensusShare: null, trajectories: [] };
    }
    const lines = resolution.end - resolution.start + 1;
    const regionConsensus = rangeIntersectionSize(pathInfo.consensus, resolution.start, resolution.end);
    const readers = new Set<string>();
    const runs = pathInfo.runs;
    for (let i = Math.max(0, runIndexAt(runs, resolution.start)); i < runs.length && runs[i]!.start <= resolution.end; i++) {
      for (const name of runs[i]!.readBy) readers.add(name);
    }
    return {
      index,
      region,
      resolution,
      lines,
      consensusLines: regionConsensus,
      consensusShare: regionConsensus / lines,
      trajectories: trajectories.filter((name) => readers.has(name)),
    };
  });

  const runAt = (path: string, line: number): ProvenanceRun | undefined => {
    const info = paths.get(path);
    if (info === undefined) return undefined;
    const i = runIndexAt(info.runs, line);
    return i < 0 ? undefined : info.runs[i];
  };

  const leaveOneOut = (trajectory: string): LeaveOneOut | null => {
    if (!trajectoryIndex.has(trajectory)) return null;
    const remaining = trajectoryCount - 1;
    const wouldJoin = new Map<string, IntervalSet>();
    const wouldLeave = new Map<string, IntervalSet>();
    const onlyReadBy = new Map<string, IntervalSet>();
    for (const [path, info] of paths) {
      const readersWithout = (run: ProvenanceRun): number => run.readBy.length - (run.readBy.includes(trajectory) ? 1 : 0);
      const consensusAfter = (run: ProvenanceRun): boolean => remaining >= 1 && readersWithout(run) >= remaining;
      const join = runsWhere(info.runs, (run) => !isConsensus(run) && consensusAfter(run));
      const leave = runsWhere(info.runs, (run) => isConsensus(run) && !consensusAfter(run));
      const only = runsWhere(info.runs, (run) => run.readBy.length === 1 && run.readBy[0] === trajectory);
      if (join.length > 0) wouldJoin.set(path, join);
      if (leave.length > 0) wouldLeave.set(path, leave);
      if (only.length > 0) onlyReadBy.set(path, only);
    }
    return { trajectory, wouldJoin, wouldLeave, onlyReadBy };
  };

  return { trajectoryCount, trajectories, paths, regions, consensusLines, promotedLines, runAt, leaveOneOut };
}
