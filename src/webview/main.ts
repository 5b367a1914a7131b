/**
 * Entry point of the Scores webview (bundled to dist/webview.js as a browser IIFE). It posts
 * `ready`, renders every validated `state` message, and keeps the last state in the webview's
 * own storage so a hidden-then-shown view repaints before the extension answers.
 */
import { parseToWebview, type FromWebview, type ScoresState } from '../shared/protocol';
import { createScoresView } from './renderView';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

interface PersistedState {
  readonly v: 1;
  readonly state: ScoresState;
}

function restore(api: VsCodeApi): ScoresState | null {
  const saved = api.getState();
  if (typeof saved !== 'object' || saved === null || (saved as { v?: unknown }).v !== 1) return null;
  // Re-validated like any message: storage written by an older build must not break the view.
  return parseToWebview({ type: 'state', state: (saved as { state?: unknown }).state })?.state ?? null;
}

function main(): void {
  const api = acquireVsCodeApi();
  const post = (message: FromWebview): void => api.postMessage(message);

  let root = document.getElementById('scores-root');
  if (root === null) {
    root = document.createElement('div');
    root.id = 'scores-root';
    document.body.appendChild(root);
  }
  const view = createScoresView(root, post);

  let lastJson = '';
  const show = (state: ScoresState): void => {
    // Identical states arrive often (every store event re-posts); skip the DOM work for them.
    const json = JSON.stringify(state);
    if (json === lastJson) return;
    lastJson = json;
    try {
      view.render(state);
    } catch (error) {
      console.error('SWE-Explore Scores: render failed', error);
    }
  };

  const saved = restore(api);
  if (saved !== null) show(saved);

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = parseToWebview(event.data);
    if (message === null) return;
    show(message.state);
    const persisted: PersistedState = { v: 1, state: message.state };
    api.setState(persisted);
  });

  post({ type: 'ready' });
}

main();
