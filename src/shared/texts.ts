/**
 * Every user-facing sentence the inspector builds from data, in one place and free of `vscode`, so
 * each is worded once and unit-tested (test/unit/shell/texts.test.ts): miss reasons, compare lines,
 * layer phrases, trajectory labels, budget status, resolution descriptions, provenance and removal
 * labels, what an explorer's run viewed and how the repair runs got to a line. The results are plain
 * text; each surface escapes them its own way (editor labels through {@link plainLabel}, Markdown
 * hovers through `escapeMarkdownText`, notifications and tree items through `safeNotificationText`,
 * webviews as `textContent`). What a sentence names (which ranks cover a line, which prediction is
 * nearest) is computed by the caller: here it is only worded.
 */
import type { BudgetStatus, LineArrivals, LineViewing, MissCategory, NearestPrediction, Resolution, RunArrival } from '../core';
import { escapeForTerminal } from './escape';

/** "1 line", "18 lines". */
export function lineCount(n: number): string {
  return `${n} line${n === 1 ? '' : 's'}`;
}

/** First letter upper-cased: a phrase at the start of a label or bullet. */
export function capitalised(text: string): string {
  return text.length === 0 ? text : `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

/** Longest after-text label in the editor; data text (paths) inside it is capped shorter still. */
export const MAX_LABEL = 120;
export const MAX_DATA_IN_LABEL = 60;
/** Longest explorer name inside an editor label. */
const MAX_NAME_IN_LABEL = 40;

/**
 * Text made fit for a decoration's after-text: it is plain text (no Markdown), but a control,
 * line-separator or bidi character would break or reorder the line, so those show as escapes;
 * longer text is cut with an ellipsis.
 */
export function plainLabel(text: string, max = MAX_LABEL): string {
  const safe = escapeForTerminal(text);
  return safe.length <= max ? safe : `${safe.slice(0, max - 1)}…`;
}

// ——— Trajectories and read steps

/** The last two segments of a trajectory path (model folder and file) are what identify it. */
export function trajectoryLabel(trajPath: string): string {
  return trajPath.split('/').slice(-2).join('/');
}

/** A raw read range as `read_step_info` writes it: "12–40", "12–EOF" (end −1), "last 8 lines" (negative start). */
export function describeRawRange(start: number, end: number): string {
  if (start < 0) return end === -1 ? `last ${-start} lines` : `last ${-start} lines (to ${end})`;
  if (end === -1) return `${start}–EOF`;
  return `${start}–${end}`;
}

/** "claude-4/x.json step 5: lines 1–EOF", "… step 7: the last 8 lines". */
export function readStepText(step: { readonly traj_path: string; readonly step_idx: number; readonly start: number; readonly end: number }): string {
  const range = describeRawRange(step.start, step.end);
  return `${trajectoryLabel(step.traj_path)} step ${step.step_idx}: ${step.start < 0 ? `the ${range}` : `lines ${range}`}`;
}

/**
 * "read by 2 of 3 trajectories: a, b", "read by none of 3 trajectories". `label` shortens trajectory
 * paths for display (e.g. {@link trajectoryLabel}).
 */
export function describeReaders(readBy: readonly string[], trajectoryCount: number, label: (trajectory: string) => string = (t) => t): string {
  const noun = trajectoryCount === 1 ? 'trajectory' : 'trajectories';
  if (readBy.length === 0) return `read by none of ${trajectoryCount} ${noun}`;
  const names: string[] = [];
  for (const name of readBy) names.push(label(name));
  return `read by ${readBy.length} of ${trajectoryCount} ${noun}: ${names.join(', ')}`;
}

/** Whether a core line read by `readers` of `trajectoryCount` trajectories is consensus (read by every one). */
export function isConsensus(readers: number, trajectoryCount: number): boolean {
  return trajectoryCount >= 1 && readers >= trajectoryCount;
}

/** The label on the first line of a provenance run: "● consensus: read by all 3", "◐ promoted: read by 2 of 3". */
export function provenanceLabel(readers: number, trajectoryCount: number): string {
  return isConsensus(readers, trajectoryCount) ? `● consensus: read by all ${trajectoryCount}` : `◐ promoted: read by ${readers} of ${trajectoryCount}`;
}

/** The hover line of a core line's provenance: "Consensus core line: read by all 3 trajectories (…)". */
export function provenanceSentence(readBy: readonly string[], trajectoryCount: number): string {
  const kind = isConsensus(readBy.length, trajectoryCount) ? 'Consensus core line' : 'Promoted core line';
  return `${kind}: ${describeReaders(readBy, trajectoryCount, trajectoryLabel)}`;
}

/** Leave-one-out labels on the editor's runs. */
export function leaveOneOutLabel(change: 'join' | 'leave', trajectory: string): string {
  return `${change === 'join' ? '⊕ joins' : '⊖ leaves'} the consensus without ${trajectoryLabel(trajectory)}`;
}

/** The hover line of a core line under the leave-one-out layer. */
export function leaveOneOutSentence(change: 'join' | 'leave' | 'none', trajectory: string): string {
  const name = trajectoryLabel(trajectory);
  switch (change) {
    case 'join':
      return `⊕ Leave-one-out: without ${name} this line would join the consensus (every other trajectory read it)`;
    case 'leave':
      return `⊖ Leave-one-out: without ${name} this line would leave the consensus (no trajectory would remain)`;
    case 'none':
      return `Leave-one-out: dropping ${name} does not change this core line's consensus status`;
  }
}

// ——— Ground-truth layers and removals

/** The one spelling of a ground-truth layer: "core", "optional · claude-4", "optional · every model". */
export function layerPhrase(layer: 'core' | 'optional', model: string | null | undefined): string {
  return layer === 'core' ? 'core' : `optional · ${model ?? 'every model'}`;
}

/** What a removal names; the audit log's remove event satisfies it. */
export interface RemovalLike {
  readonly layer: 'core' | 'optional';
  readonly model: string | null;
  readonly start: number;
  readonly end: number;
  readonly reason: string;
  readonly author: string;
  readonly note: string | null;
}

/** "✂ removed from core: incidental-read · ⚠ drifted", on the first line of a removed span. */
export function removalLabel(removal: RemovalLike, drifted: boolean): string {
  return `✂ removed from ${layerPhrase(removal.layer, removal.model)}: ${removal.reason}${drifted ? ' · ⚠ drifted' : ''}`;
}

/** The hover line of a removed line: who removed which lines, why, and whether the text drifted since. */
export function removalSentence(removal: RemovalLike, drifted: boolean): string {
  const note = removal.note === null ? '' : `: ${removal.note}`;
  const drift = drifted ? ' — ⚠ drifted: the text changed since it was removed; the removal stays where it was' : '';
  return `✂ Removed from ${layerPhrase(removal.layer, removal.model)}, lines ${removal.start}–${removal.end}, by ${removal.author} (${removal.reason})${note}${drift}`;
}

/**
 * Which ground truth the numbers of an instance use, for the Scores caption: "as written",
 * "audited (2 removals on this instance)", "what-if: as-seen + audit (1 removal on this instance)",
 * "as written (audit not applied: 2 removals on this instance)".
 */
export function groundTruthCaption(sourceLabel: string, auditApplied: boolean, removalsHere: number): string {
  if (removalsHere === 0) return sourceLabel;
  const removals = `${removalsHere} removal${removalsHere === 1 ? '' : 's'} on this instance`;
  if (!auditApplied) return `${sourceLabel} (audit not applied: ${removals})`;
  return `${sourceLabel === 'as written' ? 'audited' : `${sourceLabel} + audit`} (${removals})`;
}

// ——— Resolution and budget status

/** "12–40", "12–40 (inverted: no lines)" or the reason a region is unresolvable. */
export function describeResolution(resolution: Resolution): string {
  if (resolution.kind === 'unresolvable') {
    switch (resolution.reason) {
      case 'no-line-count':
        return 'unresolvable: no line count';
      case 'empty-file':
        return 'unresolvable: empty file';
      case 'non-positive-end':
        return 'unresolvable: end < 1';
    }
  }
  const range = `${resolution.start}–${resolution.end}`;
  return resolution.start > resolution.end ? `${range} (inverted: no lines)` : range;
}

/** What the budget status of a prediction reads: the core's explanation of one entry satisfies it. */
export interface BudgetStatusLike {
  readonly resolution: Resolution;
  readonly budgetStatus: BudgetStatus;
  readonly linesInBudget: number;
  readonly lines: number;
}

/** "✓ in budget", "◐ 40/90 lines in budget", "✗ over budget", "⚠ unresolvable (0 lines)", "⚠ inverted (0 lines)". */
export function budgetStatusText(p: BudgetStatusLike): string {
  if (p.resolution.kind === 'unresolvable') return '⚠ unresolvable (0 lines)';
  switch (p.budgetStatus) {
    case 'in':
      return '✓ in budget';
    case 'partial':
      return `◐ ${p.linesInBudget}/${p.lines} lines in budget`;
    case 'over':
      return '✗ over budget';
    case 'no-lines':
      return '⚠ inverted (0 lines)';
  }
}

/** "within B=500" / "past B=500" for a line a prediction covers. */
export function withinBudgetPhrase(inBudget: boolean, budget: number): string {
  return `${inBudget ? 'within' : 'past'} B=${budget}`;
}

/** "Core 2/4 · 18 lines · 12/18 covered within B=500 by #1, #3": the CodeLens above a core region. */
export function coreRegionTitle(
  region: { readonly index: number; readonly lines: number; readonly coveredLinesInBudget: number; readonly coveringRanksInBudget: readonly number[] },
  total: number,
  budget: number,
): string {
  const by = region.coveringRanksInBudget.length > 0 ? ` by ${region.coveringRanksInBudget.map((k) => `#${k}`).join(', ')}` : '';
  return `Core ${region.index + 1}/${total} · ${region.lines} lines · ${region.coveredLinesInBudget}/${region.lines} covered within B=${budget}${by}`;
}

// ——— Why core lines were missed

/** What the sentence of one run of missed core lines names, found by the model (see the model's missedSpans). */
export type MissDetail =
  | { readonly category: 'beyond_budget'; readonly coveringRanks: readonly number[] }
  | { readonly category: 'path_mismatch'; readonly predictedAs: { readonly path: string; readonly rank: number } | undefined }
  | { readonly category: 'inverted'; readonly ranks: readonly number[] }
  | { readonly category: 'wrong_region'; readonly nearest: NearestPrediction | null | undefined }
  | { readonly category: 'file_not_predicted' };

/** One run of missed core lines of a single miss category. */
export interface MissedSpan {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly category: Exclude<MissCategory, 'hit'>;
  readonly detail: MissDetail;
}

/** "#2, #4, #5" or "#2, #4, #5, …" for more than three ranks. */
function rankList(ranks: readonly number[]): string {
  const shown = ranks.slice(0, 3).map((r) => `#${r}`);
  return ranks.length <= 3 ? shown.join(', ') : `${shown.join(', ')}, …`;
}

/** "nearest prediction #3 ends 40 lines above", or why there is none. */
export function nearestPredictionText(nearest: NearestPrediction | null | undefined): string {
  if (nearest === null || nearest === undefined) return 'no prediction on this file has a usable range';
  return `nearest prediction #${nearest.rank} ${nearest.side === 'above' ? 'ends' : 'starts'} ${lineCount(nearest.distance)} ${nearest.side}`;
}

/** `<category>: <n> lines <why>` for one run of missed core lines at budget `budget`. */
export function missReason(span: MissedSpan, budget: number): string {
  const count = lineCount(span.end - span.start + 1);
  const detail = span.detail;
  switch (detail.category) {
    case 'beyond_budget':
      return `beyond budget: ${count} (covered by ${detail.coveringRanks.length > 0 ? rankList(detail.coveringRanks) : 'a prediction'} after B=${budget} ran out)`;
    case 'path_mismatch': {
      const named = detail.predictedAs === undefined ? '' : ` predicted as ‘${plainLabel(detail.predictedAs.path, MAX_DATA_IN_LABEL)}’ (#${detail.predictedAs.rank})`;
      return `path mismatch: ${count}${named}`;
    }
    case 'inverted':
      return `inverted range${detail.ranks.length > 0 ? ` ${rankList(detail.ranks)}` : ''}: ${count} (start > end, so it reads nothing)`;
    case 'wrong_region':
      return `file predicted, wrong lines: ${count} — ${nearestPredictionText(detail.nearest)}`;
    case 'file_not_predicted':
      return `file not predicted: ${count}`;
  }
}

/** The editor label on a missed run: "◌ missed core · file not predicted: 85 lines" (already plain). */
export function missedLabel(span: MissedSpan, budget: number): string {
  return plainLabel(`◌ missed core · ${missReason(span, budget)}`);
}

/** The hover line of a missed core line, in the same words as its label. */
export function missedLineSentence(span: MissedSpan, budget: number): string {
  return `Missed core line · ${missReason(span, budget)}`;
}

// ——— Compare mode

/** The four compare sets, in the order the editor lists them. */
export type CompareSet = 'onlyA' | 'onlyB' | 'both' | 'neither';

/** An explorer name inside an editor label: controls shown as escapes, length capped. */
function shortName(name: string | undefined): string {
  return plainLabel(name ?? '(none)', MAX_NAME_IN_LABEL);
}

/** The label painted on the first line of each compare run, per set. */
export function compareLabels(explorerA: string | undefined, explorerB: string | undefined): Record<CompareSet, string> {
  return {
    onlyA: `A only ◧ ${shortName(explorerA)}`,
    onlyB: `B only ◨ ${shortName(explorerB)}`,
    both: 'both ■',
    neither: 'neither □ missed by both',
  };
}

/** One prediction covering a line, and whether Recall@B's walk examines that line. */
export interface CoveringRank {
  readonly rank: number;
  readonly inBudget: boolean;
}

/** One side of a compare hover line. */
export interface CompareSideLine {
  readonly explorer: string | undefined;
  readonly hasRow: boolean;
  readonly covering: readonly CoveringRank[];
}

/** "#2 (in budget), #4 (past budget)", or that nothing covers the line. */
export function coveringRanksText(covering: readonly CoveringRank[]): string {
  return covering.length > 0 ? covering.map((c) => `#${c.rank} (${c.inBudget ? 'in budget' : 'past budget'})`).join(', ') : 'no prediction covers it';
}

const COMPARE_WHAT: Record<CompareSet, string> = {
  onlyA: 'only A reaches this line',
  onlyB: 'only B reaches this line',
  both: 'both reach this line',
  neither: 'neither reaches this line',
};

/**
 * "Compare: only A reaches this line within B=500 — A (agent): #2 (in budget) · B (bm25): #4 (past budget)".
 */
export function compareLineText(set: CompareSet, budget: number, a: CompareSideLine, b: CompareSideLine): string {
  const side = (letter: string, s: CompareSideLine): string => `${letter} (${s.explorer ?? 'none'}): ${s.hasRow ? coveringRanksText(s.covering) : 'no row for this instance'}`;
  return `Compare: ${COMPARE_WHAT[set]} within B=${budget} — ${side('A', a)} · ${side('B', b)}`;
}

// ——— Explorer runs: what the explorer's own run viewed, and how the repair runs got there (issue 19)

/** Viewed ranges listed at most in one sentence; the rest is "…". */
const MAX_RANGES_LISTED = 4;

/**
 * "1–40", "8, 40–105", "120 to the end", at most four ranges then "…". A range open to an unknown end
 * ends at `Number.MAX_SAFE_INTEGER` (the core's `VIEWED_TO_END`; compared here so that the webview
 * bundles that word sentences import no value from the core).
 */
export function viewedRangesText(ranges: readonly (readonly [number, number])[]): string {
  const shown = ranges.slice(0, MAX_RANGES_LISTED).map(([s, e]) => (e >= Number.MAX_SAFE_INTEGER ? `${s} to the end` : s === e ? `${s}` : `${s}–${e}`));
  return ranges.length > MAX_RANGES_LISTED ? `${shown.join(', ')}, …` : shown.join(', ');
}

/**
 * What a missed core line's label and hover say about the explorer's run: "seen at step 14
 * (`sed -n '120,180p' f`), not reported", "never viewed (the run never opened this file)", "never
 * viewed (the run only wrote this file)", "never viewed (opened lines 1–40 of this file only)".
 */
export function lineViewingText(viewing: LineViewing): string {
  switch (viewing.kind) {
    case 'seen':
      return `seen at step ${viewing.step} (\`${viewing.command}\`), not reported`;
    case 'never-opened':
      return viewing.written ? 'never viewed (the run only wrote this file)' : 'never viewed (the run never opened this file)';
    case 'other-lines':
      return `never viewed (opened lines ${viewedRangesText(viewing.viewed)} of this file only)`;
  }
}

/** One repair run's way to a line: "claude-4-5 found it at step 7 after `grep -rn x`", "gemini read it at step 12", "glm never read it", "glm: run not loaded". */
export function runArrivalText(run: RunArrival): string {
  const who = run.model !== '' ? run.model : trajectoryLabel(run.trajPath);
  if (run.arrival === 'not-loaded') return `${who}: run not loaded`;
  const { firstRead, search } = run.arrival;
  if (firstRead === null) return `${who} never read it`;
  if (search === null) return `${who} read it at step ${firstRead.step} (\`${firstRead.command}\`), no search named the file before`;
  if (search.step === firstRead.step) return `${who} found it at step ${firstRead.step} with \`${search.command}\``;
  return `${who} found it at step ${firstRead.step} after \`${search.command}\` (step ${search.step})`;
}

/** How the repair runs got to a line, one run after another; or why that cannot be said ("repair runs not loaded"). */
export function lineArrivalsText(arrivals: LineArrivals): string {
  if (arrivals.kind === 'no-runs') return arrivals.reason === 'runs-not-loaded' ? 'repair runs not loaded' : 'the record cites no repair run';
  return arrivals.runs.map(runArrivalText).join('; ');
}
