/**
 * The Scores sidebar view: hosts the webview bundle (dist/webview/scores.js), hands it the latest
 * ScoresState after its `ready` handshake, and forwards validated messages to the extension.
 */
import { performance } from 'node:perf_hooks';
import type * as vscode from 'vscode';
import { describeMessage, webviewHtml, webviewOptions } from '../base/webviewHtml';
import { parseFromScoresWebview, type FromScoresWebview, type ScoresState, type ToScoresWebview } from '../../shared/scoresProtocol';

export interface ScoresViewHandlers {
  /** Every validated message from the webview, `ready` included. */
  onMessage(message: FromScoresWebview): void;
  /** Optional log sink (e.g. an output channel's appendLine); told once about invalid messages. */
  log?(line: string): void;
}

export class ScoresViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private latest: ScoresState | undefined;
  private resolvedAt: number | undefined;
  private latency: number | undefined;
  private warnedInvalid = false;
  private viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: ScoresViewHandlers,
  ) {}

  /** Milliseconds from resolveWebviewView to the webview's first `ready`; undefined until then. */
  get readyLatencyMs(): number | undefined {
    return this.latency;
  }

  resolveWebviewView(webviewView: vscode.WebviewView): void {
    this.disposeViewListeners();
    this.view = webviewView;
    this.ready = false;
    this.latency = undefined;
    this.resolvedAt = performance.now();

    const webview = webviewView.webview;
    webview.options = webviewOptions(this.extensionUri);
    this.viewDisposables.push(
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      webviewView.onDidDispose(() => {
        if (this.view === webviewView) {
          this.view = undefined;
          this.ready = false;
          this.disposeViewListeners();
        }
      }),
    );
    webview.html = this.html(webview);
  }

  /** States received so far (tests check that unrelated changes send none). */
  updateCount = 0;

  /** Remembers the state and posts it once the webview has said it is ready. */
  update(state: ScoresState): void {
    this.updateCount++;
    this.latest = state;
    this.post();
  }

  dispose(): void {
    this.disposeViewListeners();
    this.view = undefined;
    this.ready = false;
  }

  private receive(raw: unknown): void {
    const message = parseFromScoresWebview(raw);
    if (message === null) {
      if (!this.warnedInvalid) {
        this.warnedInvalid = true;
        this.handlers.log?.(`Scores view: ignored an invalid webview message (further ones are ignored silently): ${describeMessage(raw)}`);
      }
      return;
    }
    if (message.type === 'ready') {
      // A view that was hidden reloads its page and says ready again; only the first counts as first paint.
      if (this.latency === undefined && this.resolvedAt !== undefined) this.latency = performance.now() - this.resolvedAt;
      this.ready = true;
      this.post();
    }
    this.handlers.onMessage(message);
  }

  private post(): void {
    if (this.view === undefined || !this.ready || this.latest === undefined) return;
    const message: ToScoresWebview = { type: 'state', state: this.latest };
    // A hidden view drops the message; it says ready again when shown and then gets the latest state.
    void this.view.webview.postMessage(message);
  }

  private html(webview: vscode.Webview): string {
    return webviewHtml(webview, this.extensionUri, { script: 'scores.js', styles: ['common.css', 'anatomy.css', 'scores.css'], title: 'Scores', rootId: 'scores-root', images: true });
  }

  private disposeViewListeners(): void {
    for (const disposable of this.viewDisposables.splice(0)) disposable.dispose();
  }
}
