/**
 * Paints the open instance's layers on the visible editors of its snapshot (see EditorPainter for
 * when). What a layer shows is the plan's (layerPlan.ts); this class only turns plans into ranges.
 */
import * as vscode from 'vscode';
import type { ViewedLines } from '../../core';
import { SETTING_GROUPS } from '../base/ids';
import type { Probe } from '../base/probe';
import { lineRange } from '../base/ranges';
import { readLayerSettings, type LayerSettings } from '../base/settings';
import { snapshotPathOf } from '../base/snapshot';
import type { InspectorModel } from '../model/model';
import { COMPARE } from '../model/slices/compare';
import { EXPLORER_RUN } from '../model/slices/explorerRun';
import { MISSED_SPANS } from '../model/slices/missedSpans';
import { PROVENANCE } from '../model/slices/provenance';
import { READ_STEPS } from '../model/slices/readSteps';
import { createDecorationTypes } from './decorationTypes';
import { EditorPainter } from './editorPainter';
import { emptyPlan, LAYER_NAMES, planLayers, type LayerPlan } from './layerPlan';

export class DecorationController extends EditorPainter {
  private readonly types: ReturnType<typeof createDecorationTypes>;
  private layers: LayerSettings = readLayerSettings();

  constructor(
    private readonly model: InspectorModel,
    probe: Probe,
    extensionUri: vscode.Uri,
  ) {
    super(model, probe, 'decorations');
    this.types = createDecorationTypes(extensionUri);
    for (const type of Object.values(this.types)) this.register(type);
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SETTING_GROUPS.layers)) return;
        this.layers = readLayerSettings();
        this.repaint();
      }),
    );
  }

  protected override paint(): void {
    const started = performance.now();
    super.paint();
    this.probe.report({ kind: 'timing', name: 'decorations: paint', ms: performance.now() - started });
  }

  protected paintEditor(editor: vscode.TextEditor): void {
    const view = this.model.view;
    const path = snapshotPathOf(view, editor.document.uri);
    const plan =
      view === undefined || path === undefined
        ? emptyPlan()
        : planLayers({
            view,
            path,
            lineCount: editor.document.lineCount,
            layers: this.layers,
            missedSpans: this.model.slice(MISSED_SPANS),
            provenance: this.model.slice(PROVENANCE),
            compare: this.model.slice(COMPARE),
            drifted: this.model.store.audit.drifted,
            viewed: this.viewed(),
            readSteps: this.model.slice(READ_STEPS),
          });
    this.apply(editor, plan);
  }

  /** Explorer A's run when the viewed layer is on and the run is read (reading it starts here). */
  private viewed(): ViewedLines | undefined {
    if (!this.layers.viewed) return undefined;
    const run = this.model.slice(EXPLORER_RUN);
    return run?.kind === 'loaded' ? run.run.viewed : undefined;
  }

  private apply(editor: vscode.TextEditor, plan: LayerPlan): void {
    const document = editor.document;
    const applied: Record<string, [number, number][]> = {};
    for (const layer of LAYER_NAMES) {
      const options = plan[layer].map((m) =>
        m.label === undefined ? { range: lineRange(m.start, m.end, document) } : { range: lineRange(m.start, m.start, document), renderOptions: { after: { contentText: m.label } } },
      );
      editor.setDecorations(this.types[layer], options);
      if (this.probe.listening) applied[layer] = options.map(({ range }) => [range.start.line + 1, range.end.line + 1]);
    }
    this.probe.report(() => ({ kind: 'editorPainted', surface: 'decorations', uri: document.uri.toString(), layers: applied }));
  }
}
