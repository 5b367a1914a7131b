/**
 * A painter of the visible editors (the instance's layers, the leave-one-out layer): every visible
 * editor once per model change that alters the view, and an editor that becomes visible once, on
 * its own, so a user action paints each editor once.
 */
import * as vscode from 'vscode';
import type { Probe, Surface } from '../base/probe';
import { ViewPainter, type ViewChanges } from '../base/viewPainter';

export abstract class EditorPainter extends ViewPainter {
  /** Bumped whenever what is painted changes; an editor painted at an older generation is stale. */
  private generation = 0;
  /** The generation each visible editor was last painted at (editor objects are replaced when a tab is shown again). */
  private readonly paintedAt = new WeakMap<vscode.TextEditor, number>();

  protected constructor(views: ViewChanges, probe: Probe, surface: Surface) {
    super(views, probe, surface);
    this.register(
      vscode.window.onDidChangeVisibleTextEditors(() => {
        if (this.paintStale()) this.probe.report({ kind: 'paint', surface });
      }),
    );
  }

  /** Paints one editor with what the model shows for it now. */
  protected abstract paintEditor(editor: vscode.TextEditor): void;

  /** Every visible editor gets the current layers. */
  protected paint(): void {
    this.generation++;
    this.paintStale();
  }

  /** Paints the visible editors that have not received the current layers yet; false when there were none. */
  private paintStale(): boolean {
    const stale = vscode.window.visibleTextEditors.filter((editor) => this.paintedAt.get(editor) !== this.generation);
    for (const editor of stale) {
      this.paintEditor(editor);
      this.paintedAt.set(editor, this.generation);
    }
    return stale.length > 0;
  }
}
