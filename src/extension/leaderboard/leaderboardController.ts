/**
 * The Leaderboard webview panel (`sweExplore.showLeaderboard`): macro metrics per explorer and per
 * repo, and the miss anatomy as stacked bars, for benchmark-scale questions. One panel at most; it
 * hosts dist/webview/leaderboard.js, hands it the latest state after its `ready` handshake, and
 * recomputes (debounced) only while visible and only for store changes that alter its numbers.
 */
import * as vscode from 'vscode';
import { OFFICIAL_METRIC_NAMES, type OfficialMetricName } from '../../core';
import { parseFromLeaderboardWebview, type LeaderboardState, type ToLeaderboardWebview } from '../../shared/leaderboardProtocol';
import { Disposable } from '../base/lifecycle';
import type { Store, StoreChange } from '../state/store';
import type { InstancesTreeProvider } from '../trees/trees';
import { describeMessage, webviewHtml, webviewOptions } from '../base/webviewHtml';
import { buildLeaderboardState, leaderboardCsv, leaderboardMarkdown, NO_REPO_ROWS, type LeaderboardLayout } from './leaderboardState';
import { COMMANDS, PANELS, VIEWS, WORKBENCH_COMMANDS } from '../base/ids';

/** Debounce of a change that makes the numbers final (data, audit, selection, last counts). */
const SOON_MS = 100;
/** While counts are still arriving, the partial averages are redrawn at most this often. */
const COUNTING_MS = 1000;

export interface LeaderboardServices {
  readonly store: Store;
  readonly instancesTree: InstancesTreeProvider;
  readonly extensionUri: vscode.Uri;
  readonly log: (line: string) => void;
  readonly whenLoaded: () => Promise<void>;
}

/** Whether a store change can alter what the Leaderboard shows, and how soon to redraw. */
function delayFor(change: StoreChange): number | undefined {
  switch (change.kind) {
    case 'data':
    case 'audit':
      return SOON_MS;
    case 'lineCounts':
      return change.complete ? SOON_MS : COUNTING_MS;
    case 'selection':
      // The open instance does not matter here; the explorer only moves the highlight.
      return ['budget', 'profile', 'topK', 'explorer'].some((key) => change.changed.has(key as never)) ? SOON_MS : undefined;
  }
}

export class LeaderboardController extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private stale = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private warned = false;
  private focusMetric: OfficialMetricName | null = null;
  private panelDisposables: vscode.Disposable[] = [];
  /** The last state posted to the webview (tests compare it with the store). */
  latest: LeaderboardState | undefined;
  /** How many states the webview said it drew, and how many explorers the last one had. */
  rendered = { count: 0, explorers: -1 };
  /** Milliseconds the last state took to build (store leaderboard included). */
  lastBuildMs = 0;
  /** Milliseconds the last build spent preparing the store's leaderboard (in slices, the host stays responsive). */
  lastWarmMs = 0;
  /** When the panel was last shown, said ready and was sent a state (performance.now(); the scale test prints them). */
  timeline = { shown: 0, ready: 0, posted: 0 };
  /** A build (warm + state) is running; changes meanwhile ask for another one. */
  private building = false;
  /** Which per-repo rows the webview shows, as it last said. */
  private layout: LeaderboardLayout = NO_REPO_ROWS;
  private buildAgain = false;

  constructor(private readonly services: LeaderboardServices) {
    super();
    this.register(
      vscode.commands.registerCommand(COMMANDS.showLeaderboard, async (target?: unknown) => {
        this.applyTarget(target);
        this.show();
        await services.whenLoaded();
        this.schedule(0);
      }),
    );
    this.register(
      services.store.onDidChange((change) => {
        const delay = delayFor(change);
        if (delay === undefined) return;
        this.stale = true;
        this.schedule(delay);
      }),
    );
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  override dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const panel = this.panel;
    this.disposePanelListeners();
    this.panel = undefined;
    panel?.dispose();
    super.dispose();
  }

  /** A deep link (`view=leaderboard&explorer=…&metric=…`) or caller names an explorer and a metric column. */
  private applyTarget(target: unknown): void {
    if (typeof target !== 'object' || target === null) return;
    const { explorer, metric } = target as { explorer?: unknown; metric?: unknown };
    if (typeof explorer === 'string' && this.services.store.explorers.includes(explorer)) this.services.store.select({ explorer });
    if (typeof metric === 'string' && (OFFICIAL_METRIC_NAMES as readonly string[]).includes(metric)) {
      this.focusMetric = metric as OfficialMetricName;
      this.stale = true;
    }
  }

  private show(): void {
    this.timeline = { shown: performance.now(), ready: 0, posted: 0 };
    if (this.panel !== undefined) {
      this.panel.reveal(undefined, false);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      PANELS.leaderboard,
      'SWE-Explore Leaderboard',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { ...webviewOptions(this.services.extensionUri), enableFindWidget: true },
    );
    this.panel = panel;
    this.ready = false;
    this.stale = true;
    this.panelDisposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidChangeViewState(() => {
        // A panel hidden while the store changed catches up once it is shown again.
        if (panel.visible && this.stale) this.schedule(0);
      }),
      panel.onDidDispose(() => {
        if (this.panel !== panel) return;
        this.disposePanelListeners();
        this.panel = undefined;
        this.ready = false;
      }),
    );
    panel.webview.html = webviewHtml(panel.webview, this.services.extensionUri, {
      script: 'leaderboard.js',
      styles: ['common.css', 'anatomy.css', 'leaderboard.css'],
      title: 'Leaderboard',
      rootId: 'leaderboard-root',
    });
  }

  /** Redraws after `delayMs` unless a redraw is already due (a throttle, so counting cannot starve it). */
  private schedule(delayMs: number): void {
    if (this.panel === undefined || !this.panel.visible) return;
    if (this.timer !== undefined) {
      if (delayMs > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.push();
    }, delayMs);
  }

  private async push(): Promise<void> {
    const panel = this.panel;
    if (panel === undefined || !this.ready || !panel.visible) return;
    if (this.stale || this.latest === undefined) {
      if (this.building) {
        // A change arrived while the rows were being scored: draw again once this build is done.
        this.buildAgain = true;
        return;
      }
      this.building = true;
      this.stale = false;
      try {
        const store = this.services.store;
        // Score the rows a slice at a time first (a big benchmark would otherwise block the
        // extension host for the whole walk); building then only sums cached values.
        const warming = performance.now();
        await store.prepareLeaderboard(store.selection.budget, () => this.panel !== panel);
        this.lastWarmMs = performance.now() - warming;
        if (this.panel !== panel) return;
        const started = performance.now();
        this.latest = buildLeaderboardState(store, this.focusMetric, this.layout);
        this.lastBuildMs = performance.now() - started;
      } finally {
        this.building = false;
      }
      if (this.buildAgain) {
        this.buildAgain = false;
        this.stale = true;
        this.schedule(0);
      }
    }
    const message: ToLeaderboardWebview = { type: 'state', state: this.latest };
    this.timeline.posted = performance.now();
    void panel.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    const message = parseFromLeaderboardWebview(raw);
    if (message === null) {
      this.warnOnce(`Leaderboard: ignored an invalid webview message: ${describeMessage(raw)}`);
      return;
    }
    const { store, instancesTree } = this.services;
    switch (message.type) {
      case 'ready':
        // A hidden panel reloads its page (no retainContextWhenHidden) and says ready again.
        this.timeline.ready = performance.now();
        this.ready = true;
        void this.push();
        return;
      case 'rendered':
        this.rendered = { count: this.rendered.count + 1, explorers: message.explorers };
        return;
      case 'layout':
        this.layout = { expanded: new Set(message.expanded), matrix: message.matrix };
        this.stale = true;
        this.schedule(0);
        return;
      case 'showMetric':
        if (!this.knownExplorer(message.explorer)) return;
        store.select({ explorer: message.explorer });
        instancesTree.sortMetric = message.metric;
        void vscode.commands.executeCommand(WORKBENCH_COMMANDS.focusView(VIEWS.instances));
        return;
      case 'copyLink':
        if (!this.knownExplorer(message.explorer)) return;
        void vscode.commands.executeCommand(COMMANDS.copyLink, { view: 'leaderboard', explorer: message.explorer, metric: message.metric });
        return;
      case 'openInstance':
        if (!this.knownExplorer(message.explorer)) return;
        if (!store.data.instances.has(message.instanceId)) {
          this.warnOnce(`Leaderboard: ignored openInstance for an instance not in the bench: ${describeMessage(message.instanceId)}`);
          return;
        }
        store.select({ explorer: message.explorer });
        void vscode.commands.executeCommand(COMMANDS.openInstance, message.instanceId);
        return;
      case 'copyTable': {
        const state = this.latest;
        if (state === undefined || state.status !== 'ready') return;
        const text = message.format === 'csv' ? leaderboardCsv(state) : leaderboardMarkdown(state);
        // Fixed texts: nothing from the data reaches the notification.
        const copied = message.format === 'csv' ? 'SWE-Explore: copied the leaderboard as CSV.' : 'SWE-Explore: copied the leaderboard as Markdown.';
        void vscode.env.clipboard.writeText(text).then(() => vscode.window.showInformationMessage(copied));
        return;
      }
    }
  }

  /** Only explorers the store knows: a compromised webview must not select arbitrary names. */
  private knownExplorer(explorer: string): boolean {
    if (this.services.store.explorers.includes(explorer)) return true;
    this.warnOnce(`Leaderboard: ignored a message for an unknown explorer: ${describeMessage(explorer)}`);
    return false;
  }

  private warnOnce(line: string): void {
    if (this.warned) return;
    this.warned = true;
    this.services.log(`${line} (further ones are ignored silently)`);
  }

  private disposePanelListeners(): void {
    for (const disposable of this.panelDisposables.splice(0)) disposable.dispose();
  }
}

/** Registers `sweExplore.showLeaderboard` and the panel behind it (one disposable owns both). */
export function registerLeaderboard(services: LeaderboardServices): LeaderboardController {
  return new LeaderboardController(services);
}
