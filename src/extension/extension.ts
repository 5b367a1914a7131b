import * as vscode from 'vscode';
import type { Problem } from '../data';
import { registerAuditCommands } from './audit/auditCommands';
import { registerAuditReports } from './audit/auditReports';
import { AuditController } from './audit/auditController';
import { RemovalsTreeProvider } from './audit/removalsTree';
import { registerCompare } from './compare/compareCommands';
import { registerLeaderboard, type LeaderboardController } from './leaderboard/leaderboardController';
import { registerLinks, type LinkApi } from './links/links';
import { buildScoresState } from './scores/scoresState';
import { CoreRegionCodeLensProvider } from './editor/codeLens';
import { registerCommands, type Timings } from './commands/commands';
import { DecorationController } from './editor/decorations';
import { DataDiagnostics } from './workspace/diagnostics';
import { LineHoverProvider } from './editor/hover';
import { registerInstancePanel } from './instance/instancePanelController';
import { LeaveOneOutController } from './editor/leaveOneOut';
import { WorkspaceLoader } from './workspace/loader';
import { ScoresViewProvider } from './scores/scoresView';
import { readScoringSettings } from './base/settings';
import { snapshotPathOf } from './base/snapshot';
import { AuditStatusBar, ScoreStatusBar } from './editor/statusBar';
import { changesView, Store, type StoreChange } from './state/store';
import { InstancesTreeProvider, RegionsTreeProvider } from './trees/trees';
import { COMMANDS, CONTEXT_KEYS, SETTING_GROUPS, VIEWS, WORKBENCH_COMMANDS } from './base/ids';

/** What the extension exports in test mode only (integration tests); other extensions get nothing. */
export interface InspectorApi {
  readonly store: Store;
  readonly loader: WorkspaceLoader;
  readonly decorations: DecorationController;
  readonly instancesTree: InstancesTreeProvider;
  readonly leaveOneOut: LeaveOneOutController;
  readonly scoresView: ScoresViewProvider;
  readonly audit: AuditController;
  readonly timings: Timings;
  /** The Leaderboard panel: the last state it posted and what the webview drew. */
  readonly leaderboard: LeaderboardController;
  /** Deep links followed as the URI handler does, and cleanup of added runs. */
  readonly links: LinkApi;
  /** Resolves when the first load of the workspace data has finished. */
  readonly ready: Promise<void>;
  readonly activationMs: number;
}

export function activate(context: vscode.ExtensionContext): InspectorApi | undefined {
  const started = performance.now();
  const store = new Store(readScoringSettings());
  const loader = new WorkspaceLoader(store);
  const decorations = new DecorationController(store);
  const leaveOneOut = new LeaveOneOutController(store);
  const diagnostics = new DataDiagnostics();
  const audit = new AuditController(store);
  // The Problems panel shows the data problems and the audit log's together.
  let dataProblems: readonly Problem[] = [];
  const showProblems = (): void => diagnostics.show([...dataProblems, ...audit.problems]);
  const instancesTree = new InstancesTreeProvider(store);
  const instancesView = vscode.window.createTreeView(VIEWS.instances, { treeDataProvider: instancesTree, showCollapseAll: true });
  instancesTree.attach(instancesView);
  const regionsTree = new RegionsTreeProvider(store);
  const removalsTree = new RemovalsTreeProvider(store);
  const removalsView = vscode.window.createTreeView(VIEWS.removals, { treeDataProvider: removalsTree });
  removalsTree.attach(removalsView);
  const codeLens = new CoreRegionCodeLensProvider(store);
  const timings: Timings = { openInstanceMs: 0, openInstanceEditorMs: 0, openInstanceFirstPaintMs: 0 };
  const output = vscode.window.createOutputChannel('SWE-Explore', { log: true });
  const scoresView = new ScoresViewProvider(context.extensionUri, {
    log: (line) => output.warn(line),
    onMessage: (message) => {
      switch (message.type) {
        case 'setBudget':
          store.select({ budget: message.budget });
          break;
        case 'setProfile':
          store.select({ profile: message.profile });
          break;
        case 'setExplorer':
          if (store.explorers.includes(message.explorer)) store.select({ explorer: message.explorer });
          break;
        case 'revealPrediction':
          void vscode.commands.executeCommand(COMMANDS.revealRegion, { kind: 'prediction', rank: message.rank });
          break;
        case 'stopComparing':
          store.select({ compareWith: undefined });
          break;
        case 'ready':
          break;
      }
    },
  });
  const pushScores = (): void => scoresView.update(buildScoresState(store));
  /**
   * The Scores view shows the open instance and the explorers' macro averages: background line
   * counts of other instances change neither until the last batch makes the averages final.
   */
  const scoresDependOn = (change: StoreChange): boolean => changesView(change) || change.kind === 'audit' || (change.kind === 'lineCounts' && change.complete);
  // Navigation keybindings apply only in an editor showing a file of the open instance's snapshot.
  const setContext = (): void => {
    const editor = vscode.window.activeTextEditor;
    const inSnapshot = editor !== undefined && snapshotPathOf(store.view, editor.document.uri) !== undefined;
    void vscode.commands.executeCommand(WORKBENCH_COMMANDS.setContext, CONTEXT_KEYS.inSnapshot, inSnapshot);
  };

  context.subscriptions.push(
    output,
    store,
    loader,
    decorations,
    leaveOneOut,
    diagnostics,
    instancesTree,
    regionsTree,
    codeLens,
    scoresView,
    new ScoreStatusBar(store),
    new AuditStatusBar(store),
    instancesView,
    vscode.window.createTreeView(VIEWS.regions, { treeDataProvider: regionsTree }),
    removalsTree,
    removalsView,
    vscode.window.registerWebviewViewProvider(VIEWS.scores, scoresView),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, new LineHoverProvider(store, leaveOneOut)),
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, codeLens),
    store.onDidChange((change) => {
      if (scoresDependOn(change)) pushScores();
      if (changesView(change)) setContext();
    }),
    audit,
    loader.onDidChangeProblems((problems) => {
      dataProblems = problems;
      showProblems();
    }),
    audit.onDidChangeProblems(showProblems),
    vscode.window.onDidChangeActiveTextEditor(setContext),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SETTING_GROUPS.scoring)) store.select(readScoringSettings());
    }),
  );
  // Reading data runs in the background so that activation itself stays cheap.
  const ready = loader.load();
  void audit.refresh();
  const whenLoaded = (): Promise<void> => loader.whenLoaded();
  const leaderboard = registerLeaderboard({ store, instancesTree, extensionUri: context.extensionUri, log: (line) => output.warn(line), whenLoaded });
  const links = registerLinks({ store, loader, whenLoaded, log: (line) => output.warn(line), state: context.workspaceState });
  for (const disposable of [
    ...registerInstancePanel(store, context.extensionUri, (line) => output.warn(line)),
    ...registerCommands({ store, loader, decorations, instancesTree, timings, whenLoaded }),
    ...registerAuditCommands({ store, audit, instancesTree, whenLoaded }),
    ...registerAuditReports({ store, audit, whenLoaded }),
    ...registerCompare({ store, decorations }),
    leaderboard,
    ...links.disposables,
  ]) {
    context.subscriptions.push(disposable);
  }
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { store, loader, decorations, instancesTree, leaveOneOut, scoresView, audit, timings, leaderboard, links: links.api, ready, activationMs: performance.now() - started };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
