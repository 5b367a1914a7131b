/**
 * The what-if layers: while a what-if ground truth is chosen, the open instance's lines that
 * **would leave the core** (in the core as written, not under the rules) and those that **would
 * join it**, each with its own theme colours, an overview-ruler mark and a ▼ / ▲ label on the first
 * line of a run; the hover of such a line says why (which run credited it, with which command, and
 * whether any run saw it). Toggled by `sweExplore.layers.whatIf`.
 */
import * as vscode from 'vscode';
import { containsLine, describeWhatIfLine, EMPTY_SET, type IntervalSet } from '../../core';
import { escapeMarkdownText } from '../../shared/escape';
import { plainLabel, whatIfLayerLabel, whatIfLineSentence } from '../../shared/texts';
import { SETTING_GROUPS } from '../base/ids';
import type { Probe } from '../base/probe';
import { lineRange } from '../base/ranges';
import { readLayerSettings } from '../base/settings';
import { snapshotPathOf } from '../base/snapshot';
import type { InspectorModel } from '../model/model';
import { themeColor } from '../editor/decorationTypes';
import { EditorPainter } from '../editor/editorPainter';
import type { WhatIfController } from './whatIfController';

export class WhatIfLayers extends EditorPainter {
  private readonly types = {
    leave: this.register(
      vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        backgroundColor: themeColor('whatIfLeaveBackground'),
        borderColor: themeColor('whatIfLeaveForeground'),
        borderStyle: 'dashed',
        borderWidth: '0 0 0 2px',
        overviewRulerColor: themeColor('whatIfLeaveForeground'),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
      }),
    ),
    leaveLabel: this.register(vscode.window.createTextEditorDecorationType({ after: { color: themeColor('whatIfLeaveForeground'), margin: '0 0 0 2em', fontStyle: 'italic' } })),
    join: this.register(
      vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        backgroundColor: themeColor('whatIfJoinBackground'),
        borderColor: themeColor('whatIfJoinForeground'),
        borderStyle: 'dotted',
        borderWidth: '0 0 0 2px',
        overviewRulerColor: themeColor('whatIfJoinForeground'),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
      }),
    ),
    joinLabel: this.register(vscode.window.createTextEditorDecorationType({ after: { color: themeColor('whatIfJoinForeground'), margin: '0 0 0 2em', fontStyle: 'italic' } })),
  };
  private enabled = readLayerSettings().whatIf;

  constructor(
    private readonly model: InspectorModel,
    private readonly controller: WhatIfController,
    probe: Probe,
  ) {
    super(model, probe, 'whatIf');
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SETTING_GROUPS.layers)) return;
        this.enabled = readLayerSettings().whatIf;
        this.repaint();
      }),
    );
  }

  protected paintEditor(editor: vscode.TextEditor): void {
    const view = this.model.view;
    const active = this.controller.active;
    const path = snapshotPathOf(view, editor.document.uri);
    const variant = view === undefined || active === undefined || path === undefined || !this.enabled ? undefined : active.variants.get(view.instance.instanceId)?.variant;
    const lineCount = editor.document.lineCount;
    const runs = (byPath: ReadonlyMap<string, IntervalSet> | undefined): IntervalSet => (path === undefined ? [] : (byPath?.get(path) ?? EMPTY_SET).filter(([s]) => s <= lineCount));
    const leave = runs(variant?.left);
    const join = runs(variant?.joined);
    const document = editor.document;
    const labels = (set: IntervalSet, change: 'join' | 'leave'): vscode.DecorationOptions[] =>
      set.map(([s]) => ({ range: lineRange(s, s, document), renderOptions: { after: { contentText: plainLabel(whatIfLayerLabel(change, active!.text)) } } }));
    editor.setDecorations(
      this.types.leave,
      leave.map(([s, e]) => lineRange(s, e, document)),
    );
    editor.setDecorations(this.types.leaveLabel, labels(leave, 'leave'));
    editor.setDecorations(
      this.types.join,
      join.map(([s, e]) => lineRange(s, e, document)),
    );
    editor.setDecorations(this.types.joinLabel, labels(join, 'join'));
    this.probe.report(() => ({ kind: 'editorPainted', surface: 'whatIf', uri: document.uri.toString(), layers: { leave, join } }));
  }
}

/** The hover of a line the what-if moves: why it would leave or join the core. */
export class WhatIfHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly model: InspectorModel,
    private readonly controller: WhatIfController,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const view = this.model.view;
    const active = this.controller.active;
    const path = snapshotPathOf(view, document.uri);
    if (view === undefined || active === undefined || path === undefined) return undefined;
    const line = position.line + 1;
    const variant = active.variants.get(view.instance.instanceId)?.variant;
    if (variant === undefined) return undefined;
    const moved = containsLine(variant.left.get(path) ?? EMPTY_SET, line) || containsLine(variant.joined.get(path) ?? EMPTY_SET, line);
    if (!moved) return undefined;
    const reason = this.controller.currentSession?.explainLine(view.instance.instanceId, active.rules, path, line);
    if (reason === undefined) return undefined;
    // The sentence quotes a trajectory's command: hostile text, escaped as a whole, never trusted.
    const md = new vscode.MarkdownString(undefined, false);
    md.isTrusted = false;
    md.supportHtml = false;
    md.appendMarkdown(escapeMarkdownText(whatIfLineSentence(reason.change, active.text, describeWhatIfLine(reason, active.rules))));
    return new vscode.Hover(md);
  }
}
