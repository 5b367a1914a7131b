/**
 * The miss-anatomy vocabulary every view shares (the Scores view's bar, compare mode, the
 * Leaderboard's bars): the six categories in the core's order, their glyphs, labels and
 * explanations, and the summary one explorer's anatomy is sent as.
 */
import type { MissCategory } from '../core';
import { isRecord } from './guards';

export type { MissCategory } from '../core';

/**
 * The six miss-anatomy categories in the core's order (MISS_CATEGORIES of src/core/missAnatomy.ts;
 * a unit test keeps the two equal), with what the Scores view shows for each: a glyph and a label,
 * so colour is never the only signal, and a one-sentence explanation for the tooltip.
 */
export const ANATOMY_CATEGORIES: readonly MissCategory[] = ['hit', 'beyond_budget', 'path_mismatch', 'inverted', 'wrong_region', 'file_not_predicted'];

export const ANATOMY_INFO: Readonly<Record<MissCategory, { readonly glyph: string; readonly label: string; readonly description: string }>> = {
  hit: { glyph: '✓', label: 'hit', description: "Reached by Recall@B's line-by-line walk within the budget B, so hit / core lines is Recall@B." },
  beyond_budget: { glyph: '»', label: 'beyond budget', description: 'Covered by a resolved prediction of the list, but only after the budget B ran out.' },
  path_mismatch: {
    glyph: '≠',
    label: 'path mismatch',
    description: 'Covered by a prediction whose path names the same file in another spelling (a leading repo path, ./ or /, backslashes), which the evaluator does not match.',
  },
  inverted: { glyph: '⇅', label: 'inverted range', description: 'Inside the swapped range of a prediction on the exact path whose start is after its end, which covers no line.' },
  wrong_region: { glyph: '≈', label: 'file predicted · wrong lines', description: 'The exact file is named by some prediction, but none of its ranges covers this line.' },
  file_not_predicted: { glyph: '∅', label: 'file not predicted', description: 'No prediction names the exact core path.' },
};

/** Core lines of one miss-anatomy category. */
export interface AnatomyCategoryRow {
  readonly category: MissCategory;
  readonly lines: number;
  /** Of those, the lines the explorer's own run viewed (issue 19); absent without a run read. */
  readonly seen?: number;
}

/** A missed core span and what the explorer's run and the repair runs say about it (sentences of src/shared/texts.ts). */
export interface RunMissedSpan {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** "seen at step 14 (`…`), not reported", "never viewed (…)". */
  readonly viewing: string;
  /** "claude found it at step 7 after `grep …`; …", "repair runs not loaded", "reading the repair runs…". */
  readonly arrivals: string;
}

/** What the explorer's own run says about the open instance (issue 19). */
export interface RunSummary {
  /** "agent's run (…/trajs/x.json, mini-swe-agent): 9 steps, 6 reads, 120 lines viewed", or why there is none. */
  readonly text: string;
  readonly loaded: boolean;
  /** Missed core lines the run viewed, and missed core lines (0 and 0 without a run). */
  readonly seenMissed: number;
  readonly missed: number;
  /** The converter's notes (sub-agent reads absent from the stream, …). */
  readonly notes: readonly string[];
  /** Missed spans, seen ones first, at most a few; `moreSpans` says how many more. */
  readonly spans: readonly RunMissedSpan[];
  readonly moreSpans: number;
}

/** One run of `wrong_region` lines and the prediction nearest to it (null when none has a usable range). */
export interface WrongRegionRow {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly nearest: { readonly rank: number; readonly distance: number; readonly side: 'above' | 'below' } | null;
}

/** Why each core line of the instance was or was not found by one explorer's list at budget B. */
export interface AnatomySummary {
  readonly budget: number;
  /** |C|: distinct core lines; the category lines sum to it. */
  readonly coreLines: number;
  /** All six categories, in {@link ANATOMY_CATEGORIES} order. */
  readonly categories: readonly AnatomyCategoryRow[];
  /** The first few `wrong_region` spans (path order). */
  readonly wrongRegion: readonly WrongRegionRow[];
  /** How many `wrong_region` spans there are in all. */
  readonly wrongRegionSpans: number;
  /** The explorer's own run on this instance; null when the explorer has no run folder. */
  readonly run?: RunSummary | null;
  /** Lines the gold patch edits inside each category (same order), or null when the record has no patch. */
  readonly patch: readonly AnatomyCategoryRow[] | null;
}

/** Checks the fields of an {@link AnatomySummary} that the renderers read. */
export function isAnatomySummary(value: unknown): value is AnatomySummary {
  return (
    isRecord(value) &&
    Number.isFinite(value['budget']) &&
    Number.isFinite(value['coreLines']) &&
    Number.isFinite(value['wrongRegionSpans']) &&
    Array.isArray(value['categories']) &&
    value['categories'].every((row: unknown) => isRecord(row) && ANATOMY_CATEGORIES.includes(row['category'] as MissCategory) && Number.isFinite(row['lines'])) &&
    Array.isArray(value['wrongRegion'])
  );
}
