/**
 * Entry point of the Instance panel webview (bundled to dist/webview/instance.js as a browser IIFE).
 * Posts `ready`, renders every validated `state` message and keeps the last state in the webview's
 * storage so a hidden-then-shown panel repaints before the extension answers.
 */
import { parseToInstanceWebview, type FromInstanceWebview, type InstanceState } from '../../shared/instanceProtocol';
import { createInstanceView } from './renderInstance';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

interface PersistedState {
  readonly v: 1;
  readonly state: InstanceState;
}

function restore(api: VsCodeApi): InstanceState | null {
  const saved = api.getState();
  if (typeof saved !== 'object' || saved === null || (saved as { v?: unknown }).v !== 1) return null;
  return parseToInstanceWebview({ type: 'state', state: (saved as { state?: unknown }).state })?.state ?? null;
}

function main(): void {
  const api = acquireVsCodeApi();
  const post = (message: FromInstanceWebview): void => api.postMessage(message);
  let root = document.getElementById('instance-root');
  if (root === null) {
    root = document.createElement('main');
    root.id = 'instance-root';
    document.body.appendChild(root);
  }
  const view = createInstanceView(root, post);
  let lastJson = '';
  const show = (state: InstanceState): void => {
    const json = JSON.stringify(state);
    if (json === lastJson) return;
    lastJson = json;
    try {
      view.render(state);
    } catch (error) {
      console.error('SWE-Explore Instance: render failed', error);
    }
  };
  const saved = restore(api);
  if (saved !== null) show(saved);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = parseToInstanceWebview(event.data);
    if (message === null) return;
    show(message.state);
    const persisted: PersistedState = { v: 1, state: message.state };
    api.setState(persisted);
  });
  post({ type: 'ready' });
}

main();
