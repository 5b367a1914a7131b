/**
 * Paints the open instance's layers on the visible editors of its snapshot: once per model change
 * that alters the view (every visible editor), and once for an editor that becomes visible
 * (that editor only), so a user action paints each editor once. What a layer shows is the plan's
 * (layerPlan.ts); this class only turns plans into ranges.
 */
import * as vscode from 'vscode';
import { SETTING_GROUPS } from '../base/ids';
import { Disposable } from '../base/lifecycle';
import type { Probe } from '../base/probe';
import { lineRange } from '../base/ranges';
import { readLayerSettings, type LayerSettings } from '../base/settings';
import { snapshotPathOf } from '../base/snapshot';
import type { InspectorModel } from '../model/model';
import { COMPARE } from '../model/slices/compare';
import { MISSED_SPANS } from '../model/slices/missedSpans';
import { PROVENANCE } from '../model/slices/provenance';
import { createDecorationTypes } from './decorationTypes';
import { emptyPlan, LAYER_NAMES, planLayers, type LayerPlan } from './layerPlan';

export class DecorationController extends Disposable {
  private readonly types = createDecorationTypes();
  private layers: LayerSettings = readLayerSettings();
  /** Bumped whenever what is painted changes (model view, layer settings); editors painted at an older one are stale. */
  private generation = 0;
  /** The generation each visible editor was last painted at (editor objects are replaced when a tab is shown again). */
  private readonly paintedAt = new WeakMap<vscode.TextEditor, number>();

  constructor(
    private readonly model: InspectorModel,
    private readonly probe: Probe,
  ) {
    super();
    for (const type of Object.values(this.types)) this.register(type);
    // Background line counts of other instances change nothing on screen.
    this.register(
      model.onDidChange((change) => {
        if (change.view) this.repaint();
      }),
    );
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.paintStale()));
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SETTING_GROUPS.layers)) return;
        this.layers = readLayerSettings();
        this.repaint();
      }),
    );
  }

  /** Every visible editor gets the current layers. */
  private repaint(): void {
    this.generation++;
    this.paintStale();
  }

  /** Paints the visible editors that have not received the current layers yet. */
  private paintStale(): void {
    const stale = vscode.window.visibleTextEditors.filter((editor) => this.paintedAt.get(editor) !== this.generation);
    if (stale.length === 0) return;
    const started = performance.now();
    const view = this.model.view;
    for (const editor of stale) {
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
            });
      this.apply(editor, plan);
      this.paintedAt.set(editor, this.generation);
    }
    this.probe.report({ kind: 'paint', surface: 'decorations' });
    this.probe.report({ kind: 'timing', name: 'decorations: paint', ms: performance.now() - started });
  }

  private apply(editor: vscode.TextEditor, plan: LayerPlan): void {
    const document = editor.document;
    const applied: Record<string, [number, number][]> = {};
    for (const layer of LAYER_NAMES) {
      const marks = plan[layer];
      const options = marks.map((m) =>
        m.label === undefined ? { range: lineRange(m.start, m.end, document) } : { range: lineRange(m.start, m.start, document), renderOptions: { after: { contentText: m.label } } },
      );
      editor.setDecorations(this.types[layer], options);
      if (this.probe.listening) applied[layer] = options.map(({ range }) => [range.start.line + 1, range.end.line + 1]);
    }
    this.probe.report(() => ({ kind: 'editorPainted', surface: 'decorations', uri: document.uri.toString(), layers: applied }));
  }
}
