import * as vscode from 'vscode';
import { containsLine, EMPTY_SET, type CompareReach } from '../../core';
import { escapeMarkdownText } from '../../shared/escape';
import {
  capitalised,
  compareLineText,
  layerPhrase,
  leaveOneOutSentence,
  missedLineSentence,
  provenanceSentence,
  readStepText,
  removalSentence,
  withinBudgetPhrase,
  type CompareSet,
} from '../../shared/texts';
import { snapshotPathOf } from '../base/snapshot';
import { missedSpanAt, predictionsCovering } from '../model/lineFacts';
import type { InstanceView } from '../model/instanceView';
import type { InspectorModel } from '../model/model';
import { COMPARE } from '../model/slices/compare';
import { LEAVE_ONE_OUT } from '../model/slices/leaveOneOut';
import { MISSED_SPANS } from '../model/slices/missedSpans';
import { PROVENANCE } from '../model/slices/provenance';
import { READ_STEPS } from '../model/slices/readSteps';

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
    if (containsLine(view.patchLines.get(path) ?? EMPTY_SET, line)) layers.push('edited by the gold patch');
    bullet(`Layers: ${layers.length > 0 ? layers.join('; ') : 'none'}`);
    // Why it was missed, in the same words as the line's missed-core label.
    const span = missed ? missedSpanAt(this.model.slice(MISSED_SPANS) ?? new Map(), path, line) : undefined;
    if (span !== undefined) bullet(`◌ ${missedLineSentence(span, budget)}`);
    const compared = compareSentence(view, this.model.slice(COMPARE), path, line);
    if (compared !== undefined) bullet(compared);

    for (const removal of view.removals) {
      if (removal.path === path && removal.start <= line && line <= removal.end) bullet(removalSentence(removal, this.model.store.audit.drifted.has(removal.id)));
    }

    const provenance = this.model.slice(PROVENANCE);
    const run = provenance?.runAt(path, line);
    if (provenance !== undefined && run !== undefined) bullet(provenanceSentence(run.readBy, provenance.trajectoryCount));
    const leftOut = this.model.slice(LEAVE_ONE_OUT);
    if (leftOut !== undefined && leftOut !== null) {
      // The leave-one-out layer explains its marks, and says so for the core lines it leaves alone.
      const change = containsLine(leftOut.wouldJoin.get(path) ?? EMPTY_SET, line)
        ? 'join'
        : containsLine(leftOut.wouldLeave.get(path) ?? EMPTY_SET, line)
          ? 'leave'
          : run !== undefined
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

    const covering = (this.model.slice(READ_STEPS)?.get(path) ?? []).filter((read) => read.start <= line && line <= read.end).map((read) => read.step);
    if (covering.length > 0) {
      md.appendMarkdown('\n**Trajectory reads of this line**\n\n');
      for (const step of covering.slice(0, MAX_READ_STEPS)) bullet(readStepText(step));
      if (covering.length > MAX_READ_STEPS) bullet(`…and ${covering.length - MAX_READ_STEPS} more`);
    }
    return new vscode.Hover(md);
  }
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
