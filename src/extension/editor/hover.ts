import * as vscode from 'vscode';
import { containsLine, describeReaders, EMPTY_SET, resolveRegion } from '../../core';
import { escapeMarkdownText } from '../../shared/escape';
import { compareLineText } from '../compare/compareView';
import { missedLineSentence } from './decorations';
import { provenanceOf, trajectoryLabel } from './provenanceView';
import { snapshotPathOf } from '../base/snapshot';
import type { Store } from '../state/store';

const MAX_READ_STEPS = 12;

/** Explains one line: its layers, regions, the predictions covering it and the trajectory reads. */
export class LineHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly store: Store,
    /** The leave-one-out layer, when shown, explains its marks here too. */
    private readonly leaveOneOut?: { describeLine(path: string, line: number): string | undefined },
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const view = this.store.view;
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

    const layers: string[] = [];
    if (containsLine(explanation.lines.core.get(path) ?? EMPTY_SET, line)) layers.push('core');
    const optionalModels = [...explanation.lines.optionalByModel].filter(([, set]) => containsLine(set.get(path) ?? EMPTY_SET, line)).map(([model]) => model);
    if (optionalModels.length > 0) layers.push(`optional (${optionalModels.join(', ')})`);
    if (containsLine(explanation.lines.inBudget.get(path) ?? EMPTY_SET, line)) layers.push(`predicted within B=${explanation.budget}`);
    else if (containsLine(explanation.lines.predicted.get(path) ?? EMPTY_SET, line)) layers.push(`predicted past B=${explanation.budget}`);
    const missed = containsLine(explanation.lines.missed.get(path) ?? EMPTY_SET, line);
    if (missed) layers.push(`missed core line (no prediction reaches it within B=${explanation.budget})`);
    if (containsLine(view.patchLines.get(path) ?? EMPTY_SET, line)) layers.push('edited by the gold patch');
    bullet(`Layers: ${layers.length > 0 ? layers.join('; ') : 'none'}`);
    // Why it was missed, in the same words as the line's missed-core label.
    const sentence = missed ? missedLineSentence(view, path, line) : undefined;
    if (sentence !== undefined) bullet(`◌ ${sentence}`);
    const compared = compareLineText(view, path, line);
    if (compared !== undefined) bullet(compared);

    for (const removal of view.removals) {
      if (removal.path !== path || line < removal.start || line > removal.end) continue;
      const layer = removal.layer === 'core' ? 'core' : `optional (${removal.model ?? 'every model'})`;
      const drifted = this.store.audit.drifted.has(removal.id) ? ' — ⚠ drifted: the text changed since it was removed; the removal stays where it was' : '';
      bullet(`✂ Removed from ${layer}, lines ${removal.start}–${removal.end}, by ${removal.author} (${removal.reason})${removal.note === null ? '' : `: ${removal.note}`}${drifted}`);
    }

    const run = provenanceOf(view, this.store.getLineCounts(instance.instanceId)).runAt(path, line);
    if (run !== undefined) {
      const t = provenanceOf(view, this.store.getLineCounts(instance.instanceId)).trajectoryCount;
      const kind = t >= 1 && run.readBy.length >= t ? 'Consensus core line' : 'Promoted core line';
      bullet(`${kind}: ${describeReaders(run.readBy, t, trajectoryLabel)}`);
    }
    const leaveOneOut = this.leaveOneOut?.describeLine(path, line);
    if (leaveOneOut !== undefined) bullet(leaveOneOut);

    const coreTotal = explanation.coreRegions.length;
    for (const region of explanation.coreRegions) {
      const r = region.resolution;
      if (region.region.path === path && r.kind === 'resolved' && r.start <= line && line <= r.end) {
        bullet(`Core ${region.index + 1}/${coreTotal}, lines ${r.start}–${r.end} (${region.coveredLinesInBudget}/${region.lines} covered within B)`);
      }
    }
    view.prepared.optionalRegions.forEach((optional) => {
      const r = optional.resolution;
      if (optional.region.path === path && r.kind === 'resolved' && r.start <= line && line <= r.end) {
        bullet(`Optional · ${optional.model ?? ''}, lines ${r.start}–${r.end}`);
      }
    });
    for (const p of explanation.predictions) {
      const r = p.resolution;
      if (p.region.path !== path || r.kind !== 'resolved' || line < r.start || line > r.end) continue;
      const examinedEnd = r.start + p.linesInBudget - 1;
      const within = line <= examinedEnd ? `within B=${explanation.budget}` : `past B=${explanation.budget}`;
      bullet(`Prediction #${p.rank} (${view.explorer ?? ''}), lines ${r.start}–${r.end}: ${within}`);
    }

    const stepInfo = instance.record.read_step_info ?? {};
    // Paths come from data: a file named "constructor" must not find Object.prototype members.
    const reads = Object.hasOwn(stepInfo, path) ? (stepInfo[path] ?? []) : [];
    const counts = view.prepared.knownLineCounts.get(path);
    const covering = reads.filter((step) => {
      const r = resolveRegion({ path, start: step.start, end: step.end }, counts);
      return r.kind === 'resolved' && r.start <= line && line <= r.end;
    });
    if (covering.length > 0) {
      md.appendMarkdown('\n**Trajectory reads of this line**\n\n');
      for (const step of covering.slice(0, MAX_READ_STEPS)) {
        const range = step.end === -1 ? `${step.start}–EOF` : `${step.start}–${step.end}`;
        bullet(`${shortTrajectory(step.traj_path)} step ${step.step_idx}: lines ${range}`);
      }
      if (covering.length > MAX_READ_STEPS) bullet(`…and ${covering.length - MAX_READ_STEPS} more`);
    }
    return new vscode.Hover(md);
  }
}

/** The last two segments of a trajectory path (model folder and file) are what identify it. */
function shortTrajectory(trajPath: string): string {
  return trajPath.split('/').slice(-2).join('/');
}
