/**
 * The start-up every webview bundle shares: find (or make) the root element, repaint the state kept
 * in the webview's own storage so a hidden-then-shown view shows something before the extension
 * answers, render every validated `state` message, and post `ready`.
 */
import { isRecord } from '../shared/guards';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** What the webview keeps in its storage; `ui` stays undefined (not stored) for views without saved choices. */
interface PersistedState<State, Ui> {
  readonly v: 1;
  readonly state: State | null;
  readonly ui: Ui;
}

export interface WebviewBoot<State, FromWebview, Ui = undefined> {
  /** Id of the element the view renders into (the page from webviewHtml provides it). */
  readonly rootId: string;
  /** Tag of the root made when the page has none. Default `main`. */
  readonly rootTag?: 'div' | 'main';
  /** Names the view in console errors, e.g. `Scores`. */
  readonly name: string;
  /** The protocol's guard for extension → webview messages; saved state goes through it too. */
  readonly parse: (value: unknown) => { readonly state: State } | null;
  /** Rebuilds the person's saved choices (sort, mode, …), checking each; gets `undefined` when none were saved. */
  readonly restoreUi?: (saved: unknown) => Ui;
  /**
   * Builds the view; `persist` saves the current state and `ui` again after the view changed `ui`;
   * `redrawNext` after the view changed its page outside a state (a patch), so that the next state
   * is drawn even when it equals the last one drawn.
   */
  readonly create: (root: HTMLElement, post: (message: FromWebview) => void, ui: Ui, persist: () => void, redrawNext: () => void) => { render(state: State): void };
  /** Runs after each state is shown, drawn or skipped as identical (not after a render that threw). */
  readonly afterShow?: (state: State, post: (message: FromWebview) => void) => void;
}

function rootElement(id: string, tag: 'div' | 'main'): HTMLElement {
  const existing = document.getElementById(id);
  if (existing !== null) return existing;
  const root = document.createElement(tag);
  root.id = id;
  document.body.appendChild(root);
  return root;
}

export function bootWebview<State, FromWebview, Ui = undefined>(options: WebviewBoot<State, FromWebview, Ui>): void {
  const api = acquireVsCodeApi();
  const post = (message: FromWebview): void => api.postMessage(message);
  const root = rootElement(options.rootId, options.rootTag ?? 'main');

  const saved = api.getState();
  const current = isRecord(saved) && saved['v'] === 1 ? saved : undefined;
  // Views without choices have no `restoreUi`; their `Ui` is `undefined`, which is what they get.
  const ui = (options.restoreUi === undefined ? undefined : options.restoreUi(current?.['ui'])) as Ui;
  // Re-validated like any message: storage written by an older build must not break the view.
  let latest: State | null = current === undefined ? null : (options.parse({ type: 'state', state: current['state'] })?.state ?? null);
  const persist = (): void => {
    const persisted: PersistedState<State, Ui> = { v: 1, state: latest, ui };
    api.setState(persisted);
  };
  let lastJson = '';
  const view = options.create(root, post, ui, persist, () => {
    lastJson = '';
  });

  const show = (state: State): void => {
    // Identical states arrive often (every store event re-posts); skip the DOM work for them.
    const json = JSON.stringify(state);
    if (json !== lastJson) {
      lastJson = json;
      try {
        view.render(state);
      } catch (error) {
        console.error(`SWE-Explore ${options.name}: render failed`, error);
        return;
      }
    }
    options.afterShow?.(state, post);
  };

  if (latest !== null) show(latest);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = options.parse(event.data);
    if (message === null) return;
    latest = message.state;
    show(message.state);
    persist();
  });
  // Every protocol's first webview → extension message: the extension answers with the current state.
  api.postMessage({ type: 'ready' });
}
