/**
 * Activation composes the extension: the store (state), the model (everything derived), the
 * painters that read the model, and the commands that change the store. Every registration goes
 * to `context.subscriptions`. See src/extension/README.md for how the parts fit.
 */
import * as vscode from 'vscode';
import type { Problem } from '../data';
import { registerAuditCommands } from './audit/auditCommands';
import { AuditController } from './audit/auditController';
import { registerAuditReports } from './audit/auditReports';
import { RemovalsTreeProvider } from './audit/removalsTree';
import { CONTEXT_KEYS, SETTING_GROUPS, VIEWS, WORKBENCH_COMMANDS } from './base/ids';
import { Probe } from './base/probe';
import { readScoringSettings } from './base/settings';
import { snapshotPathOf } from './base/snapshot';
import { registerNavigationCommands } from './commands/navigationCommands';
import { registerSelectionCommands } from './commands/selectionCommands';
import { registerCompare } from './compare/compareCommands';
import { CoreRegionCodeLensProvider } from './editor/codeLens';
import { DecorationController } from './editor/decorations';
import { LineHoverProvider } from './editor/hover';
import { LeaveOneOutController } from './editor/leaveOneOut';
import { AuditStatusBar, ScoreStatusBar } from './editor/statusBar';
import { registerInstancePanel } from './instance/instancePanelController';
import { LeaderboardController } from './leaderboard/leaderboardController';
import { registerLinks, type LinkApi } from './links/links';
import { InspectorModel } from './model/model';
import { ScoresView } from './scores/scoresView';
import { Store } from './state/store';
import { InstancesTreeProvider } from './trees/instancesTree';
import { RegionsTreeProvider } from './trees/regionsTree';
import { DataDiagnostics } from './workspace/diagnostics';
import { WorkspaceLoader } from './workspace/loader';

/** What the extension exports in test mode only (integration tests); other extensions get nothing. */
export interface InspectorApi {
  readonly store: Store;
  readonly model: InspectorModel;
  readonly loader: WorkspaceLoader;
  readonly audit: AuditController;
  readonly instancesTree: InstancesTreeProvider;
  readonly scoresView: ScoresView;
  readonly leaderboard: LeaderboardController;
  /** Paints, webview states, timings: what the integration tests measure (see base/probe.ts). */
  readonly probe: Probe;
  /** Deep links followed as the URI handler does, and cleanup of added runs. */
  readonly links: LinkApi;
  /** Resolves when the first load of the workspace data has finished. */
  readonly ready: Promise<void>;
  readonly activationMs: number;
}

export function activate(context: vscode.ExtensionContext): InspectorApi | undefined {
  const started = performance.now();
  const probe = new Probe();
  const store = new Store(readScoringSettings());
  const model = new InspectorModel(store);
  const loader = new WorkspaceLoader(store, (ids, stale) => model.warmRows(ids, undefined, stale));
  const output = vscode.window.createOutputChannel('SWE-Explore', { log: true });
  const log = (line: string): void => output.warn(line);
  const whenLoaded = (): Promise<void> => loader.whenLoaded();
  const audit = new AuditController(store);
  const diagnostics = new DataDiagnostics();
  // The Problems panel shows the data problems and the audit log's together.
  let dataProblems: readonly Problem[] = [];
  const showProblems = (): void => diagnostics.show([...dataProblems, ...audit.problems]);
  const instancesTree = new InstancesTreeProvider(model, probe);
  const instancesView = vscode.window.createTreeView(VIEWS.instances, { treeDataProvider: instancesTree, showCollapseAll: true });
  instancesTree.attach(instancesView);
  const regionsTree = new RegionsTreeProvider(model, probe);
  const removalsTree = new RemovalsTreeProvider(model, probe);
  const removalsView = vscode.window.createTreeView(VIEWS.removals, { treeDataProvider: removalsTree });
  removalsTree.attach(removalsView);
  const codeLens = new CoreRegionCodeLensProvider(model, probe);
  const scoresView = new ScoresView(model, context.extensionUri, probe, log);
  const leaderboard = new LeaderboardController({ model, instancesTree, extensionUri: context.extensionUri, probe, log, whenLoaded });
  // Navigation keybindings apply only in an editor showing a file of the open instance's snapshot.
  const setContext = (): void => {
    const editor = vscode.window.activeTextEditor;
    const inSnapshot = editor !== undefined && snapshotPathOf(model.view, editor.document.uri) !== undefined;
    void vscode.commands.executeCommand(WORKBENCH_COMMANDS.setContext, CONTEXT_KEYS.inSnapshot, inSnapshot);
  };

  context.subscriptions.push(
    output,
    store,
    model,
    loader,
    new DecorationController(model, probe),
    new LeaveOneOutController(model, probe),
    diagnostics,
    instancesTree,
    regionsTree,
    codeLens,
    scoresView,
    leaderboard,
    new ScoreStatusBar(model, probe),
    new AuditStatusBar(store),
    instancesView,
    vscode.window.createTreeView(VIEWS.regions, { treeDataProvider: regionsTree }),
    removalsTree,
    removalsView,
    vscode.window.registerWebviewViewProvider(VIEWS.scores, scoresView),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, new LineHoverProvider(model)),
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, codeLens),
    model.onDidChange((change) => {
      if (change.view) setContext();
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
  const links = registerLinks({ model, loader, whenLoaded, log, state: context.workspaceState });
  const orderedInstanceIds = (): string[] => instancesTree.orderedInstanceIds();
  for (const disposable of [
    ...registerInstancePanel(model, context.extensionUri, probe, log),
    ...registerNavigationCommands({ model, loader, orderedInstanceIds, probe, whenLoaded }),
    ...registerSelectionCommands({ store, loader, instancesTree, whenLoaded }),
    ...registerAuditCommands({ model, audit, instancesTree, whenLoaded }),
    ...registerAuditReports({ store, audit, whenLoaded }),
    ...registerCompare(model),
    ...links.disposables,
  ]) {
    context.subscriptions.push(disposable);
  }
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { store, model, loader, audit, instancesTree, scoresView, leaderboard, probe, links: links.api, ready, activationMs: performance.now() - started };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
