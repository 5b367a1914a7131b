/**
 * The leave-one-out layer: pick one trajectory of the open instance and see which core lines would
 * change consensus status if it were dropped: lines that would **join** the consensus (that
 * trajectory alone kept them out) and lines that would **leave** it (only when it is the last
 * trajectory). A layer of its own, with its own theme colours, painted next to the consensus and
 * promoted layers; the choice is the selection's (`leftOutTrajectory`), the lines the model's slice.
 */
import * as vscode from 'vscode';
import { EMPTY_SET, type IntervalSet } from '../../core';
import { safeNotificationText as safe } from '../../shared/escape';
import { leaveOneOutLabel, trajectoryLabel } from '../../shared/texts';
import { COMMANDS } from '../base/ids';
import type { Probe } from '../base/probe';
import { lineRange } from '../base/ranges';
import { snapshotPathOf } from '../base/snapshot';
import type { InspectorModel } from '../model/model';
import { LEAVE_ONE_OUT } from '../model/slices/leaveOneOut';
import { PROVENANCE } from '../model/slices/provenance';
import { themeColor } from './decorationTypes';
import { EditorPainter } from './editorPainter';

export class LeaveOneOutController extends EditorPainter {
  /** Background tint and overview-ruler mark; the label carries the non-colour signal (⊕ / ⊖). */
  private readonly lines = this.register(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: themeColor('leaveOneOutBackground'),
      overviewRulerColor: themeColor('leaveOneOutForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
    }),
  );
  private readonly labels = this.register(
    vscode.window.createTextEditorDecorationType({
      after: { color: themeColor('leaveOneOutForeground'), margin: '0 0 0 2em', fontStyle: 'italic' },
    }),
  );

  constructor(
    private readonly model: InspectorModel,
    probe: Probe,
  ) {
    super(model, probe, 'leaveOneOut');
    this.register(vscode.commands.registerCommand(COMMANDS.leaveOneOutTrajectory, (trajectory?: unknown) => this.run(trajectory)));
  }

  /**
   * With an argument (tests, keybindings): a trajectory path of the open instance, or null / ""
   * to clear. Without: a quick pick of the instance's trajectories plus "none".
   */
  private async run(argument: unknown): Promise<void> {
    const view = this.model.view;
    const provenance = this.model.slice(PROVENANCE);
    if (view === undefined || provenance === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: open an instance first ("SWE-Explore: Open Instance").');
      return;
    }
    let chosen: string | null;
    if (argument === null || argument === '') chosen = null;
    else if (typeof argument === 'string') chosen = argument;
    else {
      if (provenance.trajectories.length === 0) {
        void vscode.window.showInformationMessage(`SWE-Explore: ${safe(view.instance.instanceId)} has no read steps, so no trajectory to leave out.`);
        return;
      }
      const current = this.model.store.selection.leftOutTrajectory;
      const items: (vscode.QuickPickItem & { trajectory: string | null })[] = [{ label: 'None', description: 'clear the leave-one-out layer', trajectory: null }];
      for (const trajectory of provenance.trajectories) {
        const result = provenance.leaveOneOut(trajectory);
        items.push({
          label: safe(trajectoryLabel(trajectory)),
          description: `${countLines(result?.wouldJoin)} would join, ${countLines(result?.wouldLeave)} would leave the consensus${trajectory === current ? ' · shown' : ''}`,
          detail: safe(trajectory),
          trajectory,
        });
      }
      const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: leave one trajectory out — core lines whose consensus status depends on it' });
      if (picked === undefined) return;
      chosen = picked.trajectory;
    }
    if (chosen !== null && !provenance.trajectories.includes(chosen)) {
      void vscode.window.showWarningMessage(`SWE-Explore: ${safe(chosen)} is not a trajectory of ${safe(view.instance.instanceId)}.`);
      return;
    }
    this.model.store.select({ leftOutTrajectory: chosen ?? undefined });
  }

  protected paintEditor(editor: vscode.TextEditor): void {
    const view = this.model.view;
    const result = view === undefined ? null : (this.model.slice(LEAVE_ONE_OUT) ?? null);
    const path = snapshotPathOf(view, editor.document.uri);
    const lineCount = editor.document.lineCount;
    const runs = (byPath: ReadonlyMap<string, IntervalSet> | undefined): IntervalSet => (path === undefined ? [] : (byPath?.get(path) ?? EMPTY_SET).filter(([s]) => s <= lineCount));
    const join = runs(result?.wouldJoin);
    const leave = runs(result?.wouldLeave);
    const ranges: vscode.Range[] = [];
    const labels: vscode.DecorationOptions[] = [];
    for (const [spans, change] of [
      [join, 'join'],
      [leave, 'leave'],
    ] as const) {
      for (const [s, e] of spans) {
        ranges.push(lineRange(s, e, editor.document));
        labels.push({ range: lineRange(s, s, editor.document), renderOptions: { after: { contentText: leaveOneOutLabel(change, result!.trajectory) } } });
      }
    }
    editor.setDecorations(this.lines, ranges);
    editor.setDecorations(this.labels, labels);
    this.probe.report(() => ({ kind: 'editorPainted', surface: 'leaveOneOut', uri: editor.document.uri.toString(), layers: { join, leave } }));
  }
}

function countLines(byPath: ReadonlyMap<string, IntervalSet> | undefined): number {
  let total = 0;
  for (const set of byPath?.values() ?? []) for (const [s, e] of set) total += e - s + 1;
  return total;
}
