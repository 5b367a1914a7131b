/**
 * The base of every surface that shows the open instance (editor layers, CodeLens, the Regions and
 * Removals trees, the status bar): it repaints once per model change that alters the view, and
 * tells the probe. What it paints it reads from the model; it computes nothing of its own.
 */
import { Disposable, type DisposableLike } from './lifecycle';
import type { Probe, Surface } from './probe';

/** The model's changes, as a painter needs them: whether the open instance's view changed. */
export interface ViewChanges {
  readonly onDidChange: (listener: (change: { readonly view: boolean }) => void) => DisposableLike;
}

export abstract class ViewPainter extends Disposable {
  protected constructor(
    views: ViewChanges,
    protected readonly probe: Probe,
    private readonly surface: Surface,
  ) {
    super();
    this.register(
      views.onDidChange((change) => {
        if (change.view) this.repaint();
      }),
    );
  }

  /** Repaints the surface from the model, and says so to the probe. */
  protected repaint(): void {
    this.paint();
    this.probe.report({ kind: 'paint', surface: this.surface });
  }

  protected abstract paint(): void;
}
