import * as vscode from 'vscode';
import { containsLine, EMPTY_SET, lineArrivals, lineViewing, type CompareReach, type ReadStepInfo } from '../../core';
import { escapeMarkdownText } from '../../shared/escape';
import {
  capitalised,
  compareLineText,
  layerPhrase,
  leaveOneOutSentence,
  missedLineSentence,
  patchLineSentence,
  promotedModelsText,
  provenanceSentence,
  readStepText,
  removalSentence,
  arrivalsSentence,
  runStatusText,
  runViewingSentence,
  viewedLineText,
  wholeFileConsensusText,
  wholeFileReadsText,
  withinBudgetPhrase,
  type CompareSet,
} from '../../shared/texts';
import { COMMANDS } from '../base/ids';
import { snapshotPathOf } from '../base/snapshot';
import { missedSpanAt, nearestToLine, predictionsCovering } from '../model/lineFacts';
import type { InstanceView } from '../model/instanceView';
import type { InspectorModel } from '../model/model';
import { COMPARE } from '../model/slices/compare';
import { COMPARED_EXPLORER_RUN, EXPLORER_RUN, type ExplorerRunState } from '../model/slices/explorerRun';
import { LEAVE_ONE_OUT } from '../model/slices/leaveOneOut';
import { MISSED_SPANS } from '../model/slices/missedSpans';
import { PROMOTION, PROVENANCE } from '../model/slices/provenance';
import { narrowestWholeFileView, TRAJECTORY_RUNS } from '../model/slices/trajectoryRuns';
import { READ_STEPS } from '../model/slices/readSteps';
import { REPAIR_RUNS } from '../model/slices/repairRuns';

const MAX_READ_STEPS = 12;
const COMPARE_SETS: readonly CompareSet[] = ['onlyA', 'onlyB', 'both', 'neither'];

/** Explains one line: its layers, regions, the predictions covering it and the trajectory reads. */
export class LineHoverProvider implements vscode.HoverProvider {
  constructor(private readonly model: InspectorModel) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const view = this.model.view;
    const path = snapshotPathOf(view, document.uri);
    if (view === undefined || path === undefined) return undefined;
    const line = position.line + 1;
    const { explanation, instance } = view;
    // Ids, paths, model and explorer names come from data. The hover stays untrusted (no command
    // links run) without theme icons or HTML, and every text piece goes through escapeMarkdownText,
    // which unlike appendText also defeats autolinks, entities and `$(icon)`.
    const md = new vscode.MarkdownString(undefined, false);
    md.isTrusted = false;
    md.supportHtml = false;
    const text = (value: string): void => {
      md.appendMarkdown(escapeMarkdownText(value));
    };
    const bullet = (value: string): void => {
      text(`• ${value}`);
      md.appendMarkdown('  \n');
    };
    md.appendMarkdown('**SWE-Explore** ');
    text(`${instance.instanceId} · line ${line}`);
    md.appendMarkdown('\n\n');

    const { budget } = explanation;
    const layers: string[] = [];
    if (containsLine(explanation.lines.core.get(path) ?? EMPTY_SET, line)) layers.push('core');
    const optionalModels = [...explanation.lines.optionalByModel].filter(([, set]) => containsLine(set.get(path) ?? EMPTY_SET, line)).map(([model]) => model);
    if (optionalModels.length > 0) layers.push(layerPhrase('optional', optionalModels.join(', ')));
    if (containsLine(explanation.lines.inBudget.get(path) ?? EMPTY_SET, line)) layers.push(`predicted ${withinBudgetPhrase(true, budget)}`);
    else if (containsLine(explanation.lines.predicted.get(path) ?? EMPTY_SET, line)) layers.push(`predicted ${withinBudgetPhrase(false, budget)}`);
    const missed = containsLine(explanation.lines.missed.get(path) ?? EMPTY_SET, line);
    if (missed) layers.push(`missed core line (no prediction reaches it within B=${budget})`);
    const patchLine = containsLine(view.patchLines.get(path) ?? EMPTY_SET, line);
    if (patchLine) layers.push('edited by the gold patch');
    bullet(`Layers: ${layers.length > 0 ? layers.join('; ') : 'none'}`);
    // What researchers ask first: did the list reach the lines the fix changes?
    if (patchLine && view.patchReach !== null) {
      const reached = containsLine(view.patchReach.reached.get(path) ?? EMPTY_SET, line);
      const rank = reached ? (predictionsCovering(explanation, path, line).find((c) => c.inBudget)?.rank ?? view.patchReach.firstRank) : null;
      bullet(`${reached ? '±' : '◆'} ${patchLineSentence(view.explorer, rank, budget)}`);
    }
    // Why it was missed, in the same words as the line's missed-core label.
    const run = missed ? missedSpanAt(this.model.slice(MISSED_SPANS) ?? new Map(), path, line) : undefined;
    // The nearest prediction is measured from the hovered line, not from the ends of its run.
    const span = run?.detail.category === 'wrong_region' ? { ...run, detail: { ...run.detail, nearest: nearestToLine(view.prepared, path, line) } } : run;
    if (span !== undefined) bullet(`◌ ${missedLineSentence(span, budget, span !== run)}`);
    if (view.compared === undefined) for (const sentence of runSentences(this.model.slice(EXPLORER_RUN), path, line, missed)) bullet(sentence);
    else {
      // Compare mode: what each side's own run saw of a core line that side misses (A-viewed vs B-viewed).
      const sides = [
        { letter: 'A', on: view, run: this.model.slice(EXPLORER_RUN) },
        { letter: 'B', on: view.compared, run: this.model.slice(COMPARED_EXPLORER_RUN) },
      ];
      for (const { letter, on, run } of sides) {
        if (!containsLine(on.explanation.lines.missed.get(path) ?? EMPTY_SET, line)) continue;
        for (const sentence of runSentences(run, path, line, true)) bullet(`${letter} · ${sentence}`);
      }
    }
    if (missed) {
      const repair = this.model.slice(REPAIR_RUNS);
      bullet(repair === undefined || repair.kind === 'loading' ? 'How the repair runs got here: reading the repair runs…' : arrivalsSentence(lineArrivals(repair.runs, path, line)));
    }
    const compared = compareSentence(view, this.model.slice(COMPARE), path, line);
    if (compared !== undefined) bullet(compared);

    for (const removal of view.removals) {
      if (removal.path === path && removal.start <= line && line <= removal.end) bullet(removalSentence(removal, this.model.store.audit.drifted.has(removal.id)));
    }

    const provenance = this.model.slice(PROVENANCE);
    const readRun = provenance?.runAt(path, line);
    if (provenance !== undefined && readRun !== undefined) {
      const consensus = containsLine(provenance.paths.get(path)?.consensus ?? EMPTY_SET, line);
      bullet(provenanceSentence(readRun.readBy, provenance.trajectoryCount, consensus));
      if (!consensus) {
        const promoted = this.model.slice(PROMOTION)?.promotedRegions.find((r) => r.path === path && r.start <= line && line <= r.end);
        if (promoted !== undefined) bullet(capitalised(promotedModelsText(promoted.models)));
      } else if (wholeFileCreditsOnly(view.instance.record.read_step_info, path)) {
        const runs = this.model.slice(TRAJECTORY_RUNS);
        const narrowest = runs?.status === 'loaded' ? narrowestWholeFileView(runs.runs, path, this.model.store.getLineCounts(instance.instanceId)?.get(path)) : undefined;
        bullet(capitalised(wholeFileConsensusText(narrowest)));
      }
    }
    const leftOut = this.model.slice(LEAVE_ONE_OUT);
    if (leftOut !== undefined && leftOut !== null) {
      // The leave-one-out layer explains its marks, and says so for the core lines it leaves alone.
      const change = containsLine(leftOut.wouldJoin.get(path) ?? EMPTY_SET, line)
        ? 'join'
        : containsLine(leftOut.wouldLeave.get(path) ?? EMPTY_SET, line)
          ? 'leave'
          : readRun !== undefined
            ? 'none'
            : undefined;
      if (change !== undefined) bullet(leaveOneOutSentence(change, leftOut.trajectory));
    }

    const coreTotal = explanation.coreRegions.length;
    for (const region of explanation.coreRegions) {
      const r = region.resolution;
      if (region.region.path === path && r.kind === 'resolved' && r.start <= line && line <= r.end) {
        bullet(`Core ${region.index + 1}/${coreTotal}, lines ${r.start}–${r.end} (${region.coveredLinesInBudget}/${region.lines} covered within B)`);
      }
    }
    for (const optional of view.prepared.optionalRegions) {
      const r = optional.resolution;
      if (optional.region.path === path && r.kind === 'resolved' && r.start <= line && line <= r.end) {
        bullet(`${capitalised(layerPhrase('optional', optional.model))}, lines ${r.start}–${r.end}`);
      }
    }
    for (const covering of predictionsCovering(explanation, path, line)) {
      bullet(`Prediction #${covering.rank} (${view.explorer ?? ''}), lines ${covering.start}–${covering.end}: ${withinBudgetPhrase(covering.inBudget, budget)}`);
    }

    // Ranged reads first (a trajectory zooming in is the signal), then every whole-file read in one line.
    const covering = (this.model.slice(READ_STEPS)?.get(path) ?? []).filter((read) => read.start <= line && line <= read.end);
    if (covering.length > 0) {
      md.appendMarkdown('\n**Trajectory reads of this line**\n\n');
      const ranged = covering.filter((read) => !read.whole);
      for (const read of ranged.slice(0, MAX_READ_STEPS)) bullet(readStepText(read.step));
      if (ranged.length > MAX_READ_STEPS) bullet(`…and ${ranged.length - MAX_READ_STEPS} more ranged reads`);
      const whole = covering.filter((read) => read.whole);
      if (whole.length > 0) bullet(capitalised(wholeFileReadsText(new Set(whole.map((read) => read.step.traj_path)).size, whole.length)));
    }
    const parts = [md];
    if (covering.length > 0) parts.push(readStepsLink(path, line));
    // A missed line explorer A's own run saw: its run can be opened at the step that saw it.
    const own = this.model.slice(EXPLORER_RUN);
    if (missed && own?.kind === 'loaded' && lineViewing(own.run.viewed, path, line).kind === 'seen') parts.push(explorerRunLink(path, line));
    return new vscode.Hover(parts);
  }
}

/**
 * "Show the steps that read this line": the one command link of the hover, in a part of its own that
 * may run only that command. Its only data is the path, inside the URI-encoded argument.
 */
function readStepsLink(path: string, line: number): vscode.MarkdownString {
  const link = new vscode.MarkdownString(undefined, false);
  link.isTrusted = { enabledCommands: [COMMANDS.showReadStepsOfLine] };
  link.supportHtml = false;
  const args = encodeURIComponent(JSON.stringify([{ path, line }]));
  link.appendMarkdown(`[Show the steps that read this line](command:${COMMANDS.showReadStepsOfLine}?${args} "Open the repair run at the step that read it")`);
  return link;
}

/** "Show the explorer's run at this step": like {@link readStepsLink}, a part that may run its one command only. */
function explorerRunLink(path: string, line: number): vscode.MarkdownString {
  const link = new vscode.MarkdownString(undefined, false);
  link.isTrusted = { enabledCommands: [COMMANDS.showExplorerRunAtLine] };
  link.supportHtml = false;
  const args = encodeURIComponent(JSON.stringify([{ path, line }]));
  link.appendMarkdown(`[Show the explorer's run at the step that saw this line](command:${COMMANDS.showExplorerRunAtLine}?${args} "Open the explorer's own run (not a repair run) at that step")`);
  return link;
}

/**
 * What explorer A's own run says about the line: on a missed core line whether it saw it ("seen at
 * step 14 (`…`), not reported" / "never viewed (…)") or why that is not known; on another line the
 * step that first showed it, if any; and the converter's notes on the run (sub-agent reads absent).
 */
function runSentences(run: ExplorerRunState | undefined, path: string, line: number, missed: boolean): string[] {
  if (run === undefined || run.kind === 'none') return [];
  if (run.kind !== 'loaded') {
    // An explorer without runs says so on missed lines only: elsewhere it is noise.
    if (!missed) return [];
    return [`Explorer run: ${runStatusText(run.kind === 'failed' ? { kind: 'failed', explorer: run.explorer, message: run.message } : { kind: run.kind, explorer: run.explorer })}`];
  }
  const viewing = lineViewing(run.run.viewed, path, line);
  const out: string[] = [];
  if (missed) out.push(runViewingSentence(run.explorer, viewing));
  else if (viewing.kind === 'seen') out.push(viewedLineText(run.explorer, viewing.step, viewing.command));
  if (missed || viewing.kind === 'seen') for (const note of run.run.notes) out.push(`Note on ${run.explorer}'s run: ${note}`);
  return out;
}

/** The compare line of a core line while comparing, undefined otherwise. */
function compareSentence(view: InstanceView, compare: CompareReach | undefined, path: string, line: number): string | undefined {
  const compared = view.compared;
  if (compare === undefined || compared === undefined) return undefined;
  const set = COMPARE_SETS.find((s) => containsLine(compare[s].get(path) ?? EMPTY_SET, line));
  if (set === undefined) return undefined;
  return compareLineText(
    set,
    view.explanation.budget,
    { explorer: view.explorer, hasRow: view.hasRow, covering: predictionsCovering(view.explanation, path, line) },
    { explorer: compared.explorer, hasRow: compared.hasRow, covering: predictionsCovering(compared.explanation, path, line) },
  );
}

/** Whether every read of `path` in the record credits the whole file (so R_int there says nothing about which lines were seen). */
function wholeFileCreditsOnly(info: ReadStepInfo | null | undefined, path: string): boolean {
  const steps = info !== null && info !== undefined && Object.hasOwn(info, path) ? info[path] : undefined;
  return Array.isArray(steps) && steps.length > 0 && steps.every((s) => s.start <= 1 && s.end === -1);
}
