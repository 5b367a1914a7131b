/**
 * The instance's trajectory read steps (`read_step_info`) per path, each resolved to the lines it
 * covers with the snapshot's line counts, for the hover's "trajectory reads of this line". Steps
 * that cover no line (unresolvable, inverted) are left out. (Trajectory reads from the runs
 * themselves will be a slice of their own.)
 */
import { resolveRegion, type IntervalSet, type ReadStepLike } from '../../../core';
import type { InstanceSlice } from '../slices';

export interface ResolvedReadStep {
  readonly step: ReadStepLike;
  readonly start: number;
  readonly end: number;
  /** The step read the whole file (its lines are 1–EOF): whole-file credit, not a zoomed-in read. */
  readonly whole: boolean;
}

export const READ_STEPS: InstanceSlice<ReadonlyMap<string, readonly ResolvedReadStep[]>> = {
  id: 'readSteps',
  key: () => '',
  compute: ({ instance, lineCounts }) => {
    const info = instance.record.read_step_info ?? {};
    const out = new Map<string, ResolvedReadStep[]>();
    // Own keys only: a file named "constructor" must not find Object.prototype members.
    for (const path of Object.keys(info)) {
      const steps = info[path];
      if (!Array.isArray(steps)) continue;
      const resolved: ResolvedReadStep[] = [];
      for (const step of steps) {
        const count = lineCounts.get(path);
        const r = resolveRegion({ path, start: step.start, end: step.end }, count);
        if (r.kind === 'resolved' && r.start <= r.end) resolved.push({ step, start: r.start, end: r.end, whole: r.start === 1 && count !== undefined && r.end >= count });
      }
      out.set(path, resolved);
    }
    return out;
  },
};

/**
 * How many *ranged* reads (narrower than the file) cover each line, as runs of equal count: the
 * signal whole-file credit buries (issue 16: one trajectory zoomed into 1628–1680 seven times
 * while every run credited the file whole). One sweep per path: O(s log s) for s steps.
 */
export interface RangedReadRun {
  readonly start: number;
  readonly end: number;
  /** Ranged read steps covering these lines (≥ 1). */
  readonly reads: number;
}

export function rangedReadRuns(steps: readonly ResolvedReadStep[]): RangedReadRun[] {
  const events: [line: number, delta: number][] = [];
  for (const step of steps) if (!step.whole) events.push([step.start, 1], [step.end + 1, -1]);
  events.sort((a, b) => a[0] - b[0]);
  const runs: RangedReadRun[] = [];
  let depth = 0;
  for (let i = 0; i < events.length;) {
    const line = events[i]![0];
    while (i < events.length && events[i]![0] === line) depth += events[i++]![1];
    const next = events[i]?.[0];
    if (depth > 0 && next !== undefined) runs.push({ start: line, end: next - 1, reads: depth });
  }
  return runs;
}

/** The lines of `runs` with at least `min` and at most `max` reads, as an interval set. */
export function rangedReadLines(runs: readonly RangedReadRun[], min: number, max = Number.POSITIVE_INFINITY): IntervalSet {
  const out: [number, number][] = [];
  for (const run of runs) {
    if (run.reads < min || run.reads > max) continue;
    const last = out[out.length - 1];
    if (last !== undefined && last[1] + 1 === run.start) last[1] = run.end;
    else out.push([run.start, run.end]);
  }
  return out;
}
