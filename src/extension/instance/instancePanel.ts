/**
 * The Instance panel: a webview panel beside the code with the issue text, gold patch files,
 * FAIL_TO_PASS tests and trajectories of one instance. It hosts dist/webview/instance.js, hands it
 * the latest InstanceState after its `ready` handshake, and forwards only messages that name
 * something the current state shows (a patch file, a listed read step).
 */
import * as vscode from 'vscode';
import { describeMessage, webviewHtml, webviewOptions } from '../base/webviewHtml';
import { parseFromInstanceWebview, type InstanceState, type ToInstanceWebview } from '../../shared/instanceProtocol';
import { PANELS } from '../base/ids';

export interface InstancePanelHandlers {
  /** "open diff" on a gold-patch file; `path` is one of the state's `patchFiles[*].path`. */
  onOpenDiff(path: string): void;
  /** A read step was clicked; `path`/`start`/`end` are one of the state's resolved steps. */
  onRevealStep(path: string, start: number, end: number): void;
  /** Optional log sink; told once about invalid or unexpected messages. */
  log?(line: string): void;
}

/** Panel titles are plain text, but a control or bidi character from an instance id has no place there. */
function titleFor(instanceId: string): string {
  const clean = instanceId.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '');
  const short = clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
  return short === '' ? 'Instance' : `Instance · ${short}`;
}

export class InstancePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private latest: InstanceState | undefined;
  private warned = false;
  private panelDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: InstancePanelHandlers,
  ) {}

  /** Whether the panel is open (visible or not). */
  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Creates the panel beside the active editor (or reveals it) and shows `state`. */
  show(state: InstanceState): void {
    this.latest = state;
    if (this.panel === undefined) this.create();
    else this.panel.reveal(undefined, true);
    this.panel!.title = titleFor(state.instanceId);
    this.post();
  }

  /** Updates the panel if it is open; never opens it (for store changes while the panel is closed). */
  update(state: InstanceState): void {
    this.latest = state;
    if (this.panel === undefined) return;
    this.panel.title = titleFor(state.instanceId);
    this.post();
  }

  dispose(): void {
    const panel = this.panel;
    this.disposePanelListeners();
    this.panel = undefined;
    this.ready = false;
    // Disposing the panel fires onDidDispose, whose listener is already gone.
    panel?.dispose();
  }

  private create(): void {
    const panel = vscode.window.createWebviewPanel(
      PANELS.instance,
      'Instance',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { ...webviewOptions(this.extensionUri), enableFindWidget: true },
    );
    this.panel = panel;
    this.ready = false;
    this.panelDisposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => {
        if (this.panel !== panel) return;
        this.disposePanelListeners();
        this.panel = undefined;
        this.ready = false;
      }),
    );
    panel.webview.html = this.html(panel.webview);
  }

  private receive(raw: unknown): void {
    const message = parseFromInstanceWebview(raw);
    if (message === null) {
      this.warnOnce(`Instance panel: ignored an invalid webview message: ${describeMessage(raw)}`);
      return;
    }
    const state = this.latest;
    switch (message.type) {
      case 'ready':
        // A hidden panel reloads its page (no retainContextWhenHidden) and says ready again.
        this.ready = true;
        this.post();
        return;
      case 'openDiff':
        // Only files of the shown patch: a compromised webview must not name arbitrary paths.
        if (state?.patchFiles.some((f) => f.path === message.path) === true) this.handlers.onOpenDiff(message.path);
        else this.warnOnce(`Instance panel: ignored openDiff for a path not in the gold patch: ${describeMessage(message.path)}`);
        return;
      case 'revealStep': {
        const listed = state?.trajectories.some((t) => t.steps.some((s) => s.path === message.path && s.start === message.start && s.end === message.end));
        if (listed === true) this.handlers.onRevealStep(message.path, message.start, message.end);
        else this.warnOnce(`Instance panel: ignored revealStep for a step not listed: ${describeMessage(message)}`);
        return;
      }
    }
  }

  private warnOnce(line: string): void {
    if (this.warned) return;
    this.warned = true;
    this.handlers.log?.(`${line} (further ones are ignored silently)`);
  }

  private post(): void {
    if (this.panel === undefined || !this.ready || this.latest === undefined) return;
    const message: ToInstanceWebview = { type: 'state', state: this.latest };
    void this.panel.webview.postMessage(message);
  }

  private html(webview: vscode.Webview): string {
    return webviewHtml(webview, this.extensionUri, { script: 'instance.js', styles: ['common.css', 'instance.css'], title: 'Instance', rootId: 'instance-root' });
  }

  private disposePanelListeners(): void {
    for (const disposable of this.panelDisposables.splice(0)) disposable.dispose();
  }
}
