/** What compare mode shows for the open instance: the four core-line sets, their labels, a line's story. */
import { compareLineSets, containsLine, EMPTY_SET, type CompareReach, type InstanceExplanation } from '../../core';
import { escapeForTerminal } from '../../shared/escape';
import type { InstanceView } from '../state/store';

/** The decoration layers of compare mode (each also has a `…Label` layer). */
export type CompareLayer = 'compareOnlyA' | 'compareOnlyB' | 'compareBoth' | 'compareNeither';

/** Longest explorer name shown in an editor label. */
const MAX_NAME = 40;

/**
 * The four sets of the open instance while comparing, undefined otherwise. The reach of each
 * explorer is its miss anatomy's `hit` lines, which the store has computed already; the split is
 * interval arithmetic, cheap enough to redo per paint or hover.
 */
export function compareOf(view: InstanceView | undefined): CompareReach | undefined {
  const compared = view?.compared;
  if (view === undefined || compared === undefined) return undefined;
  return compareLineSets(view.prepared.core, view.anatomy.spans.hit, compared.anatomy.spans.hit);
}

/** An explorer name as plain after-text: controls shown as escapes, length capped. */
function shortName(name: string | undefined): string {
  const safe = escapeForTerminal(name ?? '(none)');
  return safe.length <= MAX_NAME ? safe : `${safe.slice(0, MAX_NAME - 1)}…`;
}

/** The label painted on the first line of each run, per layer; undefined when not comparing. */
export function compareLabels(view: InstanceView | undefined): Record<CompareLayer, string> | undefined {
  const compared = view?.compared;
  if (view === undefined || compared === undefined) return undefined;
  return {
    compareOnlyA: `A only ◧ ${shortName(view.explorer)}`,
    compareOnlyB: `B only ◨ ${shortName(compared.explorer)}`,
    compareBoth: 'both ■',
    compareNeither: 'neither □ missed by both',
  };
}

/**
 * The hover sentence of a core line while comparing, e.g. "Compare: only A reaches this line within
 * B=500 — A (agent): #2 (in budget) · B (bm25): #4 (past budget)"; undefined for non-core lines or
 * when not comparing. Plain text: the caller escapes it for Markdown.
 */
export function compareLineText(view: InstanceView | undefined, path: string, line: number): string | undefined {
  const compare = compareOf(view);
  if (view === undefined || view.compared === undefined || compare === undefined) return undefined;
  const inSet = (set: CompareReach['onlyA']): boolean => containsLine(set.get(path) ?? EMPTY_SET, line);
  const budget = view.explanation.budget;
  const what = inSet(compare.onlyA)
    ? 'only A reaches this line'
    : inSet(compare.onlyB)
      ? 'only B reaches this line'
      : inSet(compare.both)
        ? 'both reach this line'
        : inSet(compare.neither)
          ? 'neither reaches this line'
          : undefined;
  if (what === undefined) return undefined;
  const side = (letter: string, explorer: string | undefined, explanation: InstanceExplanation, hasRow: boolean): string =>
    `${letter} (${explorer ?? 'none'}): ${hasRow ? coveringRanks(explanation, path, line) : 'no row for this instance'}`;
  return `Compare: ${what} within B=${budget} — ${side('A', view.explorer, view.explanation, view.hasRow)} · ${side('B', view.compared.explorer, view.compared.explanation, view.compared.hasRow)}`;
}

/** `#2 (in budget), #4 (past budget)` for the entries of a list that cover the line. */
function coveringRanks(explanation: InstanceExplanation, path: string, line: number): string {
  const parts: string[] = [];
  for (const p of explanation.predictions) {
    const r = p.resolution;
    if (p.region.path !== path || r.kind !== 'resolved' || line < r.start || line > r.end) continue;
    // The walk examines an entry from its start: its first linesInBudget lines are within B.
    parts.push(`#${p.rank} (${line <= r.start + p.linesInBudget - 1 ? 'in budget' : 'past budget'})`);
  }
  return parts.length > 0 ? parts.join(', ') : 'no prediction covers it';
}
