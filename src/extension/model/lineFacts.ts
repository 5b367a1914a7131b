/**
 * Facts about the open instance's lines that labels and hovers name: why each run of missed core
 * lines was missed (with the ranks, spelling or nearest prediction its sentence names) and which
 * predictions cover a line. Pure (no `vscode`); the model computes them once per view and the
 * painters only word them through src/shared/texts.ts.
 */
import { normalisePredictedPath, resolveRegion, type InstanceExplanation, type MissAnatomy, type NearestPrediction, type PreparedInstance } from '../../core';
import type { CoveringRank, MissDetail, MissedSpan } from '../../shared/texts';
import type { Place, RevealTarget } from '../base/places';
import type { InstanceView } from './instanceView';

/** The missed categories, in the order a line is tried against them (the miss anatomy's order). */
const MISSED_CATEGORIES = ['beyond_budget', 'path_mismatch', 'inverted', 'wrong_region', 'file_not_predicted'] as const;

/** What the missed spans are computed from: one explorer's list on the instance. */
export interface MissInputs {
  readonly explanation: InstanceExplanation;
  readonly anatomy: MissAnatomy;
  readonly prepared: PreparedInstance;
  /** The record's `repo_path` (e.g. `/testbed`), which path-mismatch spellings may carry. */
  readonly repoPath: string | undefined;
}

/** Every missed run of every file, split at category boundaries: path → runs in line order. */
export function missedSpansByPath(input: MissInputs): ReadonlyMap<string, readonly MissedSpan[]> {
  const byPath = new Map<string, MissedSpan[]>();
  for (const category of MISSED_CATEGORIES) {
    for (const [path, set] of input.anatomy.spans[category]) {
      let list = byPath.get(path);
      if (list === undefined) byPath.set(path, (list = []));
      for (const [start, end] of set) list.push({ path, start, end, category, detail: detailOf(input, path, category, start, end) });
    }
  }
  for (const list of byPath.values()) list.sort((a, b) => a.start - b.start);
  return byPath;
}

/** The missed run holding `line` of `path`, if the line is a missed core line. */
export function missedSpanAt(spans: ReadonlyMap<string, readonly MissedSpan[]>, path: string, line: number): MissedSpan | undefined {
  return spans.get(path)?.find((s) => s.start <= line && line <= s.end);
}

function detailOf(input: MissInputs, path: string, category: MissedSpan['category'], start: number, end: number): MissDetail {
  const { explanation, anatomy, prepared, repoPath } = input;
  const overlaps = (s: number, e: number): boolean => s <= end && start <= e;
  const predictions = explanation.predictions;
  switch (category) {
    case 'beyond_budget':
      return {
        category,
        coveringRanks: predictions.filter((p) => p.region.path === path && p.resolution.kind === 'resolved' && overlaps(p.resolution.start, p.resolution.end)).map((p) => p.rank),
      };
    case 'path_mismatch': {
      const target = normalisePredictedPath(path, repoPath);
      const lineCount = prepared.evaluatorLineCount(path);
      const match = predictions.find((p) => {
        if (p.region.path === path || normalisePredictedPath(p.region.path, repoPath) !== target) return false;
        const r = resolveRegion(p.region, lineCount);
        return r.kind === 'resolved' && overlaps(r.start, r.end);
      });
      return { category, predictedAs: match === undefined ? undefined : { path: match.region.path, rank: match.rank } };
    }
    case 'inverted':
      return { category, ranks: predictions.filter((p) => p.region.path === path && p.region.start > p.region.end && p.region.end >= 1 && overlaps(p.region.end, p.region.start)).map((p) => p.rank) };
    case 'wrong_region':
      return { category, nearest: anatomy.wrongRegion.find((w) => w.path === path && w.start === start)?.nearest };
    case 'file_not_predicted':
      return { category };
  }
}

/**
 * The prediction nearest to one line (not to the whole missed run it lies in: issue 16 saw
 * "starts 1 line below" on a line 1,169 lines above it), over the same ranges as the anatomy's
 * nearest prediction (resolved ranges on the exact path, and swapped ones). Null when none.
 */
export function nearestToLine(prepared: PreparedInstance, path: string, line: number): NearestPrediction | null {
  let best: NearestPrediction | null = null;
  const offer = (rank: number, start: number, end: number): void => {
    if (start <= line && line <= end) return;
    const candidate: NearestPrediction = end < line ? { rank, distance: line - end, side: 'above' } : { rank, distance: start - line, side: 'below' };
    if (best === null || candidate.distance < best.distance || (candidate.distance === best.distance && candidate.rank < best.rank)) best = candidate;
  };
  prepared.predictions.forEach(({ region, resolution }, index) => {
    if (region.path !== path) return;
    if (resolution.kind === 'resolved' && resolution.start <= resolution.end) offer(index + 1, resolution.start, resolution.end);
    if (region.start > region.end && region.end >= 1) offer(index + 1, region.end, region.start);
  });
  return best;
}

/**
 * The predictions of a list that cover `line` of `path`, in rank order, each with whether
 * Recall@B's walk examines the line (the walk reads an entry from its start: its first
 * `linesInBudget` lines are within B).
 */
export function predictionsCovering(explanation: InstanceExplanation, path: string, line: number): (CoveringRank & { readonly start: number; readonly end: number })[] {
  const out: (CoveringRank & { readonly start: number; readonly end: number })[] = [];
  for (const p of explanation.predictions) {
    const r = p.resolution;
    if (p.region.path !== path || r.kind !== 'resolved' || line < r.start || line > r.end) continue;
    out.push({ rank: p.rank, inBudget: line <= r.start + p.linesInBudget - 1, start: r.start, end: r.end });
  }
  return out;
}

/**
 * Where a reveal target lies: a core or optional region by index, a prediction by rank (its
 * resolved lines, ascending; line 1 of its file when unresolvable), or the place itself.
 */
export function placeOf(view: Pick<InstanceView, 'explanation' | 'prepared'>, target: RevealTarget): Place | undefined {
  if (target.kind === 'place') return { path: target.path, start: target.start, end: target.end };
  const entry =
    target.kind === 'core' ? view.explanation.coreRegions[target.index] : target.kind === 'optional' ? view.prepared.optionalRegions[target.index] : view.explanation.predictions[target.rank - 1];
  if (entry === undefined) return undefined;
  const r = entry.resolution;
  if (r.kind === 'resolved') return { path: entry.region.path, start: Math.min(r.start, r.end), end: Math.max(r.start, r.end) };
  return { path: entry.region.path, start: 1, end: 1 };
}
