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
import type { BudgetStatus, LineArrivals, LineViewing, MissCategory, NearestPrediction, Resolution, RunArrival, WhatIfLineChange } from '../core';
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

/**
 * The label on the first line of a provenance run: "● consensus: read by all 3", "◐ promoted: read by
 * 2 of 3". `consensus` says whether the line is in R_int (by default: read by every trajectory).
 */
export function provenanceLabel(readers: number, trajectoryCount: number, consensus = isConsensus(readers, trajectoryCount)): string {
  return consensus ? `● consensus: read by all ${trajectoryCount}` : `◐ promoted: read by ${readers} of ${trajectoryCount}`;
}

/** The hover line of a core line's provenance: "Consensus core line: read by all 3 trajectories (…)". */
export function provenanceSentence(readBy: readonly string[], trajectoryCount: number, consensus = isConsensus(readBy.length, trajectoryCount)): string {
  const kind = consensus ? 'Consensus core line' : 'Promoted core line';
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

// ——— What-if ground truth

/** How a what-if is named in captions, selectors and reports: "what-if: as-seen,support:2". */
export function whatIfLabel(rulesText: string): string {
  return `what-if: ${rulesText}`;
}

/** The label on the first line of a run of the what-if layers. */
export function whatIfLayerLabel(change: 'join' | 'leave', rulesText: string): string {
  return `${change === 'join' ? '▲ would join' : '▼ would leave'} the core under ${whatIfLabel(rulesText)}`;
}

/**
 * The hover line of a line that joins or leaves the core under a what-if: which run credited it,
 * with which command, and who saw it ("▼ Would leave the core under what-if: as-seen: credited by
 * gemini-3-pro's `nl -ba | sed -n '120,180p'` at step 9 as the whole file; no run saw it"). The
 * command comes from a trajectory: the hover escapes the whole sentence. `why` is the core's
 * `describeWhatIfLine` (kept out of this module so the webview bundles stay free of the core).
 */
export function whatIfLineSentence(change: WhatIfLineChange, rulesText: string, why: string): string {
  const lead = change === 'joined' ? '▲ Would join the core' : change === 'left' ? '▼ Would leave the core' : change === 'kept' ? 'Stays in the core' : 'Stays out of the core';
  return `${lead} under ${whatIfLabel(rulesText)}: ${why}`;
}

/** "core lines 158 → 205 (47 join, 0 leave)": an instance's core under a what-if. */
export function whatIfCoreSummary(before: number, after: number, joined: number, left: number): string {
  return `core lines ${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} (${joined.toLocaleString('en-US')} join, ${left.toLocaleString('en-US')} leave)`;
}

/** "as-recorded: 3 runs whose files were not found contribute their recorded reads" and the like. */
export function whatIfRunsSummary(rebuilt: number, asRecorded: number, dropped: number): string {
  const runs = (n: number): string => `${n} run${n === 1 ? '' : 's'}`;
  return `${runs(rebuilt)} re-extracted, ${runs(asRecorded)} as recorded (not found: the rules cannot apply), ${runs(dropped)} dropped`;
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
export function nearestPredictionText(nearest: NearestPrediction | null | undefined, fromLine = false): string {
  if (nearest === null || nearest === undefined) return 'no prediction on this file has a usable range';
  return `nearest prediction #${nearest.rank} ${nearest.side === 'above' ? 'ends' : 'starts'} ${lineCount(nearest.distance)} ${nearest.side}${fromLine ? ' this line' : ''}`;
}

/** `<category>: <n> lines <why>` for one run of missed core lines at budget `budget`. */
export function missReason(span: MissedSpan, budget: number, fromLine = false): string {
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
      return `file predicted, wrong lines: ${count} — ${nearestPredictionText(detail.nearest, fromLine)}`;
    case 'file_not_predicted':
      return `file not predicted: ${count}`;
  }
}

/** The editor label on a missed run: "◌ missed core · file not predicted: 85 lines" (already plain). */
export function missedLabel(span: MissedSpan, budget: number): string {
  return plainLabel(`◌ missed core · ${missReason(span, budget)}`);
}

/**
 * The hover line of a missed core line, in the same words as its label; `fromLine`: the nearest
 * prediction was measured from the hovered line (and the sentence says so), not from its run.
 */
export function missedLineSentence(span: MissedSpan, budget: number, fromLine = false): string {
  return `Missed core line · ${missReason(span, budget, fromLine)}`;
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

// ——— Bench files and exports

/** "2 files look like the bench; loaded bench.jsonl. …" (when the bench glob matched more than one). */
export function benchChoiceWarning(loaded: string, candidates: number): string {
  return `${candidates} files look like the bench; loaded ${loaded}. Choose one to stop guessing (saved in sweExplore.data.benchFile).`;
}

/** "wrote 3 records (1 with removals) to .swe-explore/exports/bench.audited.jsonl" */
export function exportWrittenText(records: number, withRemovals: number, file: string, problems: number): string {
  const warnings = problems === 0 ? '' : ` ${problems} audit problem${problems === 1 ? '' : 's'}: see the Problems panel.`;
  return `wrote ${records} record${records === 1 ? '' : 's'} (${withRemovals} with removals) to ${file}. It is never loaded as the bench.${warnings}`;
}

/** "Bench: bench.jsonl" caption, "" when nothing is loaded. */
export function benchCaption(bench: string): string {
  return bench === '' ? '' : `Bench: ${bench}`;
}

// ——— Removals: confirmation and undo

/** Why a removal asks first: "Remove all 3,972 lines of astropy/table/table.py from core?" */
export function removalConfirmation(path: string, start: number, end: number, layer: string, wholeFile: boolean): string {
  const lines = end - start + 1;
  return wholeFile ? `Remove all ${lines.toLocaleString('en-US')} lines of ${path} from ${layer}?` : `Remove ${lines.toLocaleString('en-US')} lines (${path} ${start}–${end}) from ${layer}?`;
}

/** The toast after a removal: "Removed stock.py 40–45 from core (over-broad-read)." */
export function removedText(path: string, start: number, end: number, layer: string, reason: string): string {
  return `Removed ${path} ${start}–${end} from ${layer} (${reason}).`;
}

/** The toast after a restore, and whether the instance is left unaudited by it. */
export function restoredText(path: string, start: number, end: number, instanceId: string, unauditedNow: boolean): string {
  return `Restored ${path} ${start}–${end}.${unauditedNow ? ` ${instanceId} has no removal or accept left: it counts as unaudited again.` : ''}`;
}

// ——— Trajectories

/** A builder's credit in words: "lines 120–180", "line 7", "the whole file", "the last 12 lines". */
export function readCreditText(start: number, end: number): string {
  if (start < 0) return `the last ${-start} lines`;
  if (end === -1) return start <= 1 ? 'the whole file' : `lines ${start} to the end`;
  return start === end ? `line ${start}` : `lines ${start}–${end}`;
}

/** Lines the agent saw: "lines 120–180", "lines 1–20, 40 and 52–60", "lines 406 to the end", "none". */
export function seenLinesText(seen: readonly (readonly [number, number])[]): string {
  if (seen.length === 0) return 'none';
  const parts = seen.slice(0, MAX_RANGES_LISTED).map(([s, e]) => (s < 0 ? `the last ${-s}` : e === -1 ? `${s} to the end` : s === e ? `${s}` : `${s}–${e}`));
  const listed = seen.length > MAX_RANGES_LISTED ? `${parts.join(', ')}, …` : parts.join(', ');
  return `${seen.length === 1 && seen[0]![0] === seen[0]![1] ? 'line' : 'lines'} ${listed}`;
}

/**
 * The flag of a whole-file credit from a narrower idiom: "read as the whole file by the builder; the
 * agent saw lines 120–180" (a heredoc write: "…; the agent wrote the file and saw none of it").
 * Empty when the credit is not the whole file or the agent saw all of it.
 */
export function wholeFileCreditNote(read: { readonly start: number; readonly end: number; readonly idiom: string; readonly seen: readonly (readonly [number, number])[] }): string {
  if (read.end !== -1 || read.start > 1) return '';
  if (read.seen.length === 1 && read.seen[0]![0] <= 1 && read.seen[0]![1] === -1) return '';
  if (read.idiom === 'heredoc_write') return 'read as the whole file by the builder; the agent wrote the file and saw none of it';
  return `read as the whole file by the builder; the agent saw ${seenLinesText(read.seen)}`;
}

/**
 * The Trajectory view's badge for an explorer's own run (issue 19): it is not one of the repair runs
 * the ground truth was built from, so there is nothing in the bench to verify it against.
 */
export function explorerRunBadgeText(explorer: string): string {
  return `explorer run (${explorer}) — not a repair run; not verified against the bench`;
}

/** Where a repair run shows whether it resolved its issue: an explorer only looks, it fixes nothing. */
export const EXPLORER_RUN_RESOLUTION_TEXT = 'no resolution (an explorer run does not try to fix the issue)';

/** The Trajectory view's title of an explorer's run: "agent's run (explorer) · acme__inventory-101". */
export function explorerRunTitle(explorer: string, instanceId: string): string {
  return `${explorer}'s run (explorer)${instanceId === '' ? '' : ` · ${instanceId}`}`;
}

/** Whether a harness report says the run resolved its issue, in words. */
export function runResolutionText(resolution: 'resolved' | 'not-resolved' | 'unknown'): string {
  switch (resolution) {
    case 'resolved':
      return 'resolved its issue (SWE-bench report)';
    case 'not-resolved':
      return 'did not resolve its issue (SWE-bench report)';
    case 'unknown':
      return 'resolution unknown (no report)';
  }
}

/** The stepping cursor: "read 3 of 14 · step 7". */
export function readCursorText(read: number, reads: number, step: number): string {
  return `read ${read + 1} of ${reads} · step ${step}`;
}

/**
 * A whole-file core region whose R_int comes only from whole-file credits of narrower idioms:
 * "every trajectory credited the whole file; narrowest real view: 120–180 by gemini-3-pro".
 */
export function wholeFileConsensusText(narrowest: { readonly model: string; readonly seen: readonly (readonly [number, number])[] } | undefined): string {
  if (narrowest === undefined) return 'every trajectory credited the whole file';
  const seen = seenLinesText(narrowest.seen).replace(/^lines? /, '');
  return `every trajectory credited the whole file; narrowest real view: ${seen} by ${narrowest.model}`;
}

// ——— Explorer runs

/** The editor label of a missed span about the explorer's run: "◉ seen at step 14 (`…`), not reported", "○ never viewed (…)". */
export function viewingLabel(viewing: LineViewing): string {
  return `${viewing.kind === 'seen' ? '◉' : '○'} ${lineViewingText(viewing)}`;
}

/** "agent's run saw this line first at step 4 (`nl -ba f | sed -n '1,40p'`)": a viewed line that is not a missed core line. */
export function viewedLineText(explorer: string, step: number, command: string): string {
  return `${explorer}'s run saw this line first at step ${step} (\`${command}\`)`;
}

/** Why an explorer's run says nothing yet about a line. */
export type RunStatus =
  | { readonly kind: 'no-folder'; readonly explorer: string }
  | { readonly kind: 'no-run'; readonly explorer: string }
  | { readonly kind: 'loading'; readonly explorer: string }
  | { readonly kind: 'failed'; readonly explorer: string; readonly message: string };

/** "agent has no runs loaded (…)", "agent's runs hold none of this instance", "reading agent's run…", "agent's run could not be read: …". */
export function runStatusText(status: RunStatus): string {
  switch (status.kind) {
    case 'no-folder':
      return `${status.explorer} has no runs loaded (put them in trajs/ beside its prediction file, or use "SWE-Explore: Add Explorer Trajectories…")`;
    case 'no-run':
      return `${status.explorer}'s runs hold none of this instance`;
    case 'loading':
      return `reading ${status.explorer}'s run…`;
    case 'failed':
      return `${status.explorer}'s run could not be read: ${status.message}`;
  }
}

/** The hover line of a missed core line about the explorer's run: "Explorer run (agent): seen at step 4 (`…`), not reported". */
export function runViewingSentence(explorer: string, viewing: LineViewing): string {
  return `Explorer run (${explorer}): ${lineViewingText(viewing)}`;
}

/** The hover line about the repair runs: "How the repair runs got here: claude-4-5 found it at step 7 after `grep …`; …". */
export function arrivalsSentence(arrivals: LineArrivals): string {
  return `How the repair runs got here: ${lineArrivalsText(arrivals)}`;
}

/** "agent's run (results/agent/trajs/x.json, mini-swe-agent-1): 9 steps, 6 reads, 120 lines viewed; it viewed 13 of its 40 missed core lines". */
export function runSummaryText(
  explorer: string,
  run: { readonly path: string; readonly format: string; readonly steps: number; readonly reads: number; readonly viewedLines: number },
  seenMissed: number,
  missed: number,
): string {
  const viewed = missed === 0 ? 'nothing is missed' : `it viewed ${seenMissed} of its ${missed} missed core line${missed === 1 ? '' : 's'}`;
  return `${explorer}'s run (${run.path}, ${run.format}): ${run.steps} steps, ${run.reads} reads, ${lineCount(run.viewedLines)} viewed; ${viewed}`;
}

// ——— Patch reach, labels, removal reasons

// ——— Gold patch reach

/** The editor label on the first line of each run of patch lines: reached within B, or not. */
export function patchLineLabel(reached: boolean, budget: number): string {
  return reached ? '± gold patch edits here' : `± gold patch edits here · not reached within B=${budget}`;
}

/** The hover line of a patch line: "The gold patch edits this line; agent does not reach it within B=500." */
export function patchLineSentence(explorer: string | undefined, reachedByRank: number | null, budget: number): string {
  const who = explorer ?? 'the list';
  return reachedByRank === null
    ? `The gold patch edits this line; ${who} does not reach it within B=${budget}.`
    : `The gold patch edits this line; ${who} reaches it within B=${budget} (#${reachedByRank}).`;
}

/** The anatomy's patch marker: "◆ 2 patch lines". */
export function patchMarkerText(lines: number): string {
  return `◆ ${lineCount(lines).replace('line', 'patch line')}`;
}

/** Under the patch-reach row: "missed: a.py 12–14, b.py 3" and "patch lines outside the core: 2". */
export function patchMissedText(spans: readonly { readonly path: string; readonly start: number; readonly end: number }[], more: number): string {
  const named = spans.map((s) => `${s.path} ${s.start === s.end ? s.start : `${s.start}–${s.end}`}`).join(', ');
  return `not reached: ${named}${more > 0 ? ` and ${more} more` : ''}`;
}

// ——— Status bar

/** "nDCG@500 1.000 · Recall@500 0.546": the names and values the Scores view's two cards show. */
export function scoreStatusLabel(budget: number, ndcg: number, recallAtBudget: number): string {
  return `nDCG@${budget} ${ndcg.toFixed(3)} · Recall@${budget} ${recallAtBudget.toFixed(3)}`;
}

/** The status item's tooltip: the same two at full precision, recall over the whole list, the bench. */
export function scoreStatusTooltip(profile: string, budget: number, ndcg: number, recallAtBudget: number, recall: number, bench: string | undefined): string {
  const from = bench === undefined ? '' : ` Bench: ${bench}.`;
  return `SWE-Explore (${profile} profile): nDCG@${budget} = ${ndcg}, Recall@${budget} = ${recallAtBudget}; Recall (whole list, no budget) = ${recall}.${from} Click to open another instance.`;
}

// ——— Ranged reads (provenance beyond whole-file credit)

/** "read whole by 3 runs (12 times)": every whole-file read of a line, collapsed into one line. */
export function wholeFileReadsText(runs: number, times: number): string {
  return `read whole by ${runs} run${runs === 1 ? '' : 's'} (${times} time${times === 1 ? '' : 's'})`;
}

/** The label on a run of lines that ranged reads zoomed into: "◎ 7 ranged reads". */
export function rangedReadsLabel(reads: number): string {
  return `◎ ${reads} ranged read${reads === 1 ? '' : 's'}`;
}

// ——— Removal reasons

const REASON_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'incidental-read': 'read in passing (an import, a grep hit), not needed to understand the fix',
  'over-broad-read': 'the trajectories read far more of the file than the fix needs',
  'not-needed-for-fix': 'relevant-looking code the fix does not depend on',
  'test-or-fixture': 'tests or fixtures, not the code under repair',
  'config-or-boilerplate': 'configuration, packaging or boilerplate',
  duplicate: 'the same lines are already credited elsewhere',
  other: 'say why in the note',
};

/** What a built-in removal reason means (the quick pick's description); undefined for a reason of the settings. */
export function reasonDescription(reason: string): string | undefined {
  return Object.hasOwn(REASON_DESCRIPTIONS, reason) ? REASON_DESCRIPTIONS[reason] : undefined;
}

/** Which models' optional reads hold a promoted core region: "in the optional reads of glm-4.6, claude", "in no model's optional reads". */
export function promotedModelsText(models: readonly string[]): string {
  return models.length === 0 ? "promoted: in no model's optional reads" : `promoted from the optional reads of ${models.join(', ')}`;
}

/**
 * A navigation or audit key pressed in a file of another instance's snapshot (ids already made safe
 * for a notification): why nothing moved.
 */
export function keyOutsideOpenInstance(fileInstance: string, openInstance: string | undefined): string {
  const open = openInstance === undefined ? 'no instance is open' : `the open instance is ${openInstance}`;
  return `SWE-Explore: this file is in the snapshot of ${fileInstance}, and ${open}; the navigation and audit keys act on the open instance's files only.`;
}
