/**
 * The Leaderboard webview panel (`sweExplore.showLeaderboard`): macro metrics per explorer and per
 * repo, and the miss anatomy as stacked bars, for benchmark-scale questions. One panel at most; it
 * hosts dist/webview/leaderboard.js and rebuilds its state (debounced) only while visible and only
 * for model changes that alter its numbers, scoring the rows in slices first.
 */
import * as vscode from 'vscode';
import { OFFICIAL_METRIC_NAMES, type OfficialMetricName } from '../../core';
import { parseFromLeaderboardWebview, type FromLeaderboardWebview, type LeaderboardState } from '../../shared/leaderboardProtocol';
import { COMMANDS, PANELS, VIEWS, WORKBENCH_COMMANDS } from '../base/ids';
import type { Probe } from '../base/probe';
import { describeMessage } from '../base/webviewHtml';
import { WebviewPanelHost } from '../base/webviewHost';
import type { InspectorModel, ModelChange } from '../model/model';
import type { InstancesTreeProvider } from '../trees/instancesTree';
import { buildLeaderboardState, leaderboardCsv, leaderboardMarkdown, NO_REPO_ROWS, type LeaderboardLayout } from './leaderboardState';

/** Debounce of a change that makes the numbers final (data, audit, selection, last counts). */
const SOON_MS = 100;
/** While counts are still arriving, the partial averages are redrawn at most this often. */
const COUNTING_MS = 1000;

export interface LeaderboardServices {
  readonly model: InspectorModel;
  readonly instancesTree: InstancesTreeProvider;
  readonly extensionUri: vscode.Uri;
  readonly probe: Probe;
  readonly log: (line: string) => void;
  readonly whenLoaded: () => Promise<void>;
}

/** Whether a model change can alter what the Leaderboard shows, and how soon to redraw. */
function delayFor(change: ModelChange): number | undefined {
  switch (change.kind) {
    case 'data':
    case 'audit':
    case 'groundTruths':
      return SOON_MS;
    case 'lineCounts':
      return change.complete ? SOON_MS : COUNTING_MS;
    case 'selection':
      // The open instance does not matter here; the explorer only moves the highlight.
      return (['budget', 'profile', 'topK', 'explorer', 'groundTruth', 'audited'] as const).some((key) => change.changed.has(key)) ? SOON_MS : undefined;
    case 'slice':
      return undefined;
    case 'runsRead':
      return COUNTING_MS;
  }
}

export class LeaderboardController extends WebviewPanelHost<LeaderboardState, FromLeaderboardWebview> {
  private stale = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private focusMetric: OfficialMetricName | null = null;
  /** Which per-repo rows the webview shows, as it last said. */
  private layout: LeaderboardLayout = NO_REPO_ROWS;
  /** A build (warm + state) is running; changes meanwhile ask for another one. */
  private building = false;
  private buildAgain = false;
  /** Bumped when the panel closes: a build for a closed panel stops. */
  private panelGeneration = 0;

  constructor(private readonly services: LeaderboardServices) {
    super(
      {
        name: 'leaderboard',
        title: 'Leaderboard',
        page: { script: 'leaderboard.js', styles: ['common.css', 'anatomy.css', 'leaderboard.css'], title: 'Leaderboard', rootId: 'leaderboard-root' },
        parse: parseFromLeaderboardWebview,
        extensionUri: services.extensionUri,
        log: services.log,
        probe: services.probe,
      },
      { viewType: PANELS.leaderboard, title: 'SWE-Explore Leaderboard', column: vscode.ViewColumn.Active, preserveFocus: false },
    );
    this.register(
      vscode.commands.registerCommand(COMMANDS.showLeaderboard, async (target?: unknown) => {
        this.applyTarget(target);
        this.showPanel();
        await services.whenLoaded();
        this.schedule(0);
      }),
    );
    this.register(
      services.model.onDidChange((change) => {
        const delay = delayFor(change);
        if (delay === undefined) return;
        this.stale = true;
        this.schedule(delay);
      }),
    );
    this.register({ dispose: () => this.timer !== undefined && clearTimeout(this.timer) });
  }

  /** A deep link (`view=leaderboard&explorer=…&metric=…`) or caller names an explorer and a metric column. */
  private applyTarget(target: unknown): void {
    if (typeof target !== 'object' || target === null) return;
    const { explorer, metric } = target as { explorer?: unknown; metric?: unknown };
    const { store } = this.services.model;
    if (typeof explorer === 'string' && store.explorers.includes(explorer)) store.select({ explorer });
    if (typeof metric === 'string' && (OFFICIAL_METRIC_NAMES as readonly string[]).includes(metric)) {
      this.focusMetric = metric as OfficialMetricName;
      this.stale = true;
    }
  }

  protected override onDetached(): void {
    this.panelGeneration++;
    this.stale = true;
  }

  /** A panel hidden while the model changed catches up once it is shown again. */
  protected override onVisibilityChanged(visible: boolean): void {
    if (visible && this.stale) this.schedule(0);
  }

  protected override onReady(): void {
    void this.push();
  }

  /** Redraws after `delayMs` unless a redraw is already due (a throttle, so counting cannot starve it). */
  private schedule(delayMs: number): void {
    if (!this.isVisible) return;
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
    if (!this.isReady || !this.isVisible) return;
    if (this.stale || this.latestState === undefined) {
      if (this.building) {
        // A change arrived while the rows were being scored: draw again once this build is done.
        this.buildAgain = true;
        return;
      }
      this.building = true;
      this.stale = false;
      const generation = this.panelGeneration;
      try {
        const { model, probe } = this.services;
        // Score the rows a slice at a time first (a big benchmark would otherwise block the
        // extension host for the whole walk); building then only sums cached values.
        const warming = performance.now();
        await model.prepareLeaderboard(model.store.selection.budget, () => generation !== this.panelGeneration);
        probe.report({ kind: 'timing', name: 'leaderboard: rows scored in slices', ms: performance.now() - warming });
        if (generation !== this.panelGeneration) return;
        // The explorers' own runs are read in the background; each one read redraws the run columns (throttled).
        void model.readExplorerRuns(() => generation !== this.panelGeneration);
        const started = performance.now();
        const state = buildLeaderboardState(model, this.focusMetric, this.layout);
        probe.report({ kind: 'timing', name: 'leaderboard: state built', ms: performance.now() - started });
        probe.report({ kind: 'paint', surface: 'leaderboard' });
        this.post(state);
        // The patch-reach column follows the table: computed in slices, then drawn again.
        if (!state.patchReachReady && state.status === 'ready') {
          await model.preparePatchReach(model.store.selection.budget, () => generation !== this.panelGeneration || this.stale);
          if (generation === this.panelGeneration && !this.stale) this.post(buildLeaderboardState(model, this.focusMetric, this.layout));
        }
      } finally {
        this.building = false;
      }
      if (this.buildAgain) {
        this.buildAgain = false;
        this.stale = true;
        this.schedule(0);
      }
      return;
    }
    this.flush();
  }

  protected onMessage(message: FromLeaderboardWebview): void {
    const { model, instancesTree, probe } = this.services;
    switch (message.type) {
      case 'ready':
        return;
      case 'rendered':
        probe.report({ kind: 'rendered', webview: 'leaderboard', detail: { explorers: message.explorers } });
        return;
      case 'layout':
        this.layout = { expanded: new Set(message.expanded), matrix: message.matrix };
        this.stale = true;
        this.schedule(0);
        return;
      case 'showMetric':
        if (!this.knownExplorer(message.explorer)) return;
        model.store.select({ explorer: message.explorer });
        instancesTree.sortMetric = message.metric;
        void vscode.commands.executeCommand(WORKBENCH_COMMANDS.focusView(VIEWS.instances));
        return;
      case 'copyLink':
        if (!this.knownExplorer(message.explorer)) return;
        void vscode.commands.executeCommand(COMMANDS.copyLink, { view: 'leaderboard', explorer: message.explorer, metric: message.metric });
        return;
      case 'openInstance':
        if (!this.knownExplorer(message.explorer)) return;
        if (!model.store.data.instances.has(message.instanceId)) {
          this.warnOnce(`ignored openInstance for an instance not in the bench: ${describeMessage(message.instanceId)}`);
          return;
        }
        void vscode.commands.executeCommand(COMMANDS.openInstance, message.instanceId, { explorer: message.explorer });
        return;
      case 'copyTable': {
        const state = this.latestState;
        if (state === undefined || state.status !== 'ready') return;
        const text = message.format === 'csv' ? leaderboardCsv(state) : leaderboardMarkdown(state);
        // Fixed texts: nothing from the data reaches the notification.
        const copied = message.format === 'csv' ? 'SWE-Explore: copied the leaderboard as CSV.' : 'SWE-Explore: copied the leaderboard as Markdown.';
        void vscode.env.clipboard.writeText(text).then(() => vscode.window.showInformationMessage(copied));
        return;
      }
    }
  }

  /** Only explorers the model knows: a compromised webview must not select arbitrary names. */
  private knownExplorer(explorer: string): boolean {
    if (this.services.model.store.explorers.includes(explorer)) return true;
    this.warnOnce(`ignored a message for an unknown explorer: ${describeMessage(explorer)}`);
    return false;
  }
}
