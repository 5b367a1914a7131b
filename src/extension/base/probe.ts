/**
 * What the extension reports about its own work, for measurement: paints, webview states and
 * their handshakes, timings. Components report to the probe they were given; nothing listens in
 * production (reports are built lazily, so they cost a function call), and the integration tests
 * listen through the test API. No component keeps counters of its own for tests.
 */
import type { DisposableLike } from './lifecycle';

/** Surfaces that repaint from the model. */
export type Surface =
  'decorations' | 'leaveOneOut' | 'whatIf' | 'codeLens' | 'statusBar' | 'instancesTree' | 'regionsTree' | 'removalsTree' | 'scores' | 'instancePanel' | 'leaderboard' | 'trajectory' | 'readStep';

/** The webviews, by the name their host reports under. */
export type WebviewName = 'scores' | 'instance' | 'leaderboard' | 'trajectory';

export type ProbeEvent =
  /** A surface repainted (one pass over what it shows). */
  | { readonly kind: 'paint'; readonly surface: Surface }
  /** One editor received a painter's layers: per layer, the 1-based line ranges it got. */
  | {
      readonly kind: 'editorPainted';
      readonly surface: 'decorations' | 'leaveOneOut' | 'readStep' | 'whatIf';
      readonly uri: string;
      readonly layers: Readonly<Record<string, readonly (readonly [number, number])[]>>;
    }
  /** A webview host posted a state (after the webview said it was ready). */
  | { readonly kind: 'posted'; readonly webview: WebviewName; readonly state: unknown }
  /** A webview said it was ready, `ms` after its host created it. */
  | { readonly kind: 'ready'; readonly webview: WebviewName; readonly ms: number }
  /** A webview said it drew a state (the leaderboard says how many explorers). */
  | { readonly kind: 'rendered'; readonly webview: WebviewName; readonly detail: unknown }
  /** A measured duration. */
  | { readonly kind: 'timing'; readonly name: string; readonly ms: number }
  /** A tree made one item (the tree asks only for what it shows). */
  | { readonly kind: 'treeItem'; readonly surface: Surface };

export type ProbeListener = (event: ProbeEvent) => void;

export class Probe {
  private listener: ProbeListener | undefined;

  /** Whether anyone listens: reports that are costly to build can be skipped otherwise. */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Reports an event; `event` may be a function, called only when someone listens. */
  report(event: ProbeEvent | (() => ProbeEvent)): void {
    const listener = this.listener;
    if (listener !== undefined) listener(typeof event === 'function' ? event() : event);
  }

  /** Listens to every report (one listener at a time: the test run's recorder). */
  listen(listener: ProbeListener): DisposableLike {
    this.listener = listener;
    return {
      dispose: () => {
        if (this.listener === listener) this.listener = undefined;
      },
    };
  }
}
