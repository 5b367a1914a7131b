/**
 * The one host every webview of the extension runs in (the Scores view, the Instance panel, the
 * Leaderboard and the coming Trajectory view): the page (CSP with a nonce, the bundle and its
 * styles from the extension's own folders), the ready handshake (a state is posted only after the
 * webview said `ready`), typed posts of the latest state, state restore (a hidden webview reloads
 * its page, repaints the state it saved itself at once — see src/webview/boot.ts — and says ready
 * again, and the host posts the latest state again), every message validated on receipt, and one
 * log line for the first invalid message. A view is a subclass: its protocol, its page, what its
 * messages do.
 */
import * as vscode from 'vscode';
import { WORKBENCH_COMMANDS } from './ids';
import { Disposable, type DisposableLike } from './lifecycle';
import type { Probe, WebviewName } from './probe';
import { describeMessage, webviewHtml, webviewOptions, type WebviewPage } from './webviewHtml';

/** What every protocol's webview → extension messages have in common: a type, and `ready` among them. */
export interface WebviewMessage {
  readonly type: string;
}

export interface WebviewHostOptions<Message extends WebviewMessage> {
  /** Names the webview in probe reports. */
  readonly name: WebviewName;
  /** Names it in the log, e.g. "Scores view". */
  readonly title: string;
  readonly page: WebviewPage;
  /** The protocol's guard for webview → extension messages: anything it rejects is dropped. */
  readonly parse: (raw: unknown) => Message | null;
  readonly extensionUri: vscode.Uri;
  readonly log: (line: string) => void;
  readonly probe: Probe;
}

export abstract class WebviewHost<State, Message extends WebviewMessage> extends Disposable {
  private webview: vscode.Webview | undefined;
  private ready = false;
  private latest: State | undefined;
  private warned = false;
  private attachedAt = 0;
  private readyOnce = false;
  private readonly attached: DisposableLike[] = [];

  protected constructor(protected readonly options: WebviewHostOptions<Message>) {
    super();
    this.register({ dispose: () => this.detach() });
  }

  /** The last state handed to {@link post}, posted or not. */
  protected get latestState(): State | undefined {
    return this.latest;
  }

  /** Whether the hosted webview said `ready` since it (re)loaded its page. */
  protected get isReady(): boolean {
    return this.webview !== undefined && this.ready;
  }

  /**
   * Hosts a webview (a view's or a panel's): sets its options and page and listens to it until
   * `onDidDispose` fires or another webview is attached.
   */
  protected attach(webview: vscode.Webview, onDidDispose: vscode.Event<void>): void {
    this.detach();
    this.webview = webview;
    this.ready = false;
    this.readyOnce = false;
    this.attachedAt = performance.now();
    webview.options = webviewOptions(this.options.extensionUri);
    this.attached.push(
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      onDidDispose(() => {
        if (this.webview !== webview) return;
        this.detach();
        this.onDetached();
      }),
    );
    webview.html = webviewHtml(webview, this.options.extensionUri, this.options.page);
  }

  /** Remembers `state` and posts it now if the webview is ready, else once it says so. */
  protected post(state: State): void {
    this.latest = state;
    this.flush();
  }

  /**
   * Makes `state` the latest without posting it, and posts `patch` instead: a small message that
   * brings the drawn page to that state (e.g. a cursor move in a large view). A webview that is not
   * ready drops the patch and gets the whole latest state when it says ready.
   */
  protected postPatch(state: State, patch: { readonly type: string }): void {
    this.latest = state;
    const webview = this.webview;
    if (webview === undefined || !this.ready) return;
    void webview.postMessage(patch);
    this.options.probe.report({ kind: 'posted', webview: this.options.name, state });
  }

  /** Posts the latest state if the webview is ready for it. */
  protected flush(): void {
    const webview = this.webview;
    const state = this.latest;
    if (webview === undefined || !this.ready || state === undefined) return;
    // A hidden view drops the message; it says ready again when shown and then gets the latest state.
    void webview.postMessage({ type: 'state', state });
    this.options.probe.report({ kind: 'posted', webview: this.options.name, state });
  }

  /** What a validated message (other than `ready`) does. */
  protected abstract onMessage(message: Message): void;

  /** A `ready` arrived (the page loaded, or reloaded after being hidden): by default, post the latest state. */
  protected onReady(): void {
    this.flush();
  }

  /** The webview went away (closed by the person, or disposed). */
  protected onDetached(): void {
    // Nothing by default.
  }

  /** Logs the first of a kind of trouble with the webview's messages; later ones are dropped silently. */
  protected warnOnce(line: string): void {
    if (this.warned) return;
    this.warned = true;
    this.options.log(`${this.options.title}: ${line} (further ones are ignored silently)`);
  }

  private receive(raw: unknown): void {
    const message = this.options.parse(raw);
    if (message === null) {
      this.warnOnce(`ignored an invalid webview message: ${describeMessage(raw)}`);
      return;
    }
    if (message.type !== 'ready') {
      this.onMessage(message);
      return;
    }
    // Only the first `ready` after attaching is the page's start-up; later ones are reloads.
    if (!this.readyOnce) this.options.probe.report({ kind: 'ready', webview: this.options.name, ms: performance.now() - this.attachedAt });
    this.readyOnce = true;
    this.ready = true;
    this.onReady();
  }

  private detach(): void {
    for (const disposable of this.attached.splice(0)) disposable.dispose();
    this.webview = undefined;
    this.ready = false;
  }
}

/** The width share of a panel opened beside the code: the code keeps ~100 columns on a laptop screen. */
export const PANEL_BESIDE_SHARE = 0.38;

/** Where a panel opens and how it is titled. */
export interface PanelOptions {
  readonly viewType: string;
  readonly title: string;
  readonly column: vscode.ViewColumn;
  readonly preserveFocus: boolean;
  /**
   * When opening beside the only editor group makes a second one, the share of the width the panel
   * takes (the code keeps the rest) instead of half: the code stays readable beside it.
   */
  readonly besideShare?: number;
}

/** A host whose webview is an editor-area panel, at most one at a time: created on first show, revealed after. */
export abstract class WebviewPanelHost<State, Message extends WebviewMessage> extends WebviewHost<State, Message> {
  private panel: vscode.WebviewPanel | undefined;

  protected constructor(
    options: WebviewHostOptions<Message>,
    private readonly panelOptions: PanelOptions,
  ) {
    super(options);
    this.register({ dispose: () => this.closePanel() });
  }

  /** Whether the panel is open (visible or not). */
  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** The editor column the panel is in, when open. */
  get column(): vscode.ViewColumn | undefined {
    return this.panel?.viewColumn;
  }

  protected get isVisible(): boolean {
    return this.panel?.visible === true;
  }

  /** Creates the panel, or reveals it; `preserveFocus` as the panel options say. */
  protected showPanel(): void {
    if (this.panel !== undefined) {
      this.panel.reveal(undefined, this.panelOptions.preserveFocus);
      return;
    }
    const { viewType, title, column, preserveFocus, besideShare } = this.panelOptions;
    const groupsBefore = vscode.window.tabGroups.all.length;
    const panel = vscode.window.createWebviewPanel(viewType, title, { viewColumn: column, preserveFocus }, { ...webviewOptions(this.options.extensionUri), enableFindWidget: true });
    this.panel = panel;
    // Only a layout this panel makes (beside the one group there was): a layout the user arranged is theirs.
    if (besideShare !== undefined && groupsBefore === 1) this.narrowBesideGroup(besideShare);
    const viewState = panel.onDidChangeViewState(() => this.onVisibilityChanged(panel.visible));
    this.attach(panel.webview, (listener) =>
      panel.onDidDispose(() => {
        viewState.dispose();
        if (this.panel === panel) this.panel = undefined;
        listener();
      }),
    );
  }

  /**
   * Gives the group the panel opened in `share` of the width once it exists (the extension host
   * learns of the new group a moment after the panel is created); nothing if no second group shows.
   */
  private narrowBesideGroup(share: number): void {
    const resize = (): boolean => {
      if (vscode.window.tabGroups.all.length !== 2) return false;
      void vscode.commands.executeCommand(WORKBENCH_COMMANDS.setEditorLayout, { orientation: 0, groups: [{ size: 1 - share }, { size: share }] }).then(undefined, () => undefined);
      return true;
    };
    if (resize()) return;
    const listener = vscode.window.tabGroups.onDidChangeTabGroups(() => {
      if (resize()) done();
    });
    const timer = setTimeout(() => done(), 2000);
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
    };
  }

  /** Plain-text panel title (data in it is the subclass's to clean). */
  protected setTitle(title: string): void {
    if (this.panel !== undefined) this.panel.title = title;
  }

  /** The panel was shown or hidden (a panel hidden while its data changed catches up here). */
  protected onVisibilityChanged(_visible: boolean): void {
    // Nothing by default.
  }

  private closePanel(): void {
    const panel = this.panel;
    this.panel = undefined;
    // Disposing fires onDidDispose, whose listener then finds the panel already forgotten.
    panel?.dispose();
  }
}
