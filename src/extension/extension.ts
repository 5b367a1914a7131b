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
import { SETTING_GROUPS, STATE_KEYS, VIEWS, WALKTHROUGH, WORKBENCH_COMMANDS } from './base/ids';
import { Probe } from './base/probe';
import { ReadOnlyDocuments } from './base/readOnlyDocuments';
import { readScoringSettings, readTrajectorySettings, trajectorySourcesKey } from './base/settings';
import { registerNavigationCommands } from './commands/navigationCommands';
import { registerSelectionCommands } from './commands/selectionCommands';
import { registerCompare } from './compare/compareCommands';
import { CoreRegionCodeLensProvider } from './editor/codeLens';
import { DecorationController } from './editor/decorations';
import { LineHoverProvider } from './editor/hover';
import { LeaveOneOutController } from './editor/leaveOneOut';
import { SnapshotContext } from './editor/snapshotContext';
import { AuditStatusBar, ScoreStatusBar } from './editor/statusBar';
import { registerInstancePanel } from './instance/instancePanelController';
import { LeaderboardController } from './leaderboard/leaderboardController';
import { registerLinks, type LinkApi } from './links/links';
import { InspectorModel } from './model/model';
import { ScoresView } from './scores/scoresView';
import { Store } from './state/store';
import { InstancesTreeProvider } from './trees/instancesTree';
import { TrajectoryController } from './trajectory/trajectoryController';
import { RegionsTreeProvider } from './trees/regionsTree';
import { DataDiagnostics } from './workspace/diagnostics';
import { registerBenchChoice } from './workspace/benchChoice';
import { WorkspaceLoader } from './workspace/loader';
import { registerWhatIfCommands } from './whatif/whatIfCommands';
import { WhatIfController } from './whatif/whatIfController';
import { WhatIfHoverProvider, WhatIfLayers } from './whatif/whatIfLayers';

/** What the extension exports in test mode only (integration tests); other extensions get nothing. */
export interface InspectorApi {
  readonly store: Store;
  readonly model: InspectorModel;
  readonly loader: WorkspaceLoader;
  readonly audit: AuditController;
  readonly instancesTree: InstancesTreeProvider;
  readonly scoresView: ScoresView;
  readonly leaderboard: LeaderboardController;
  /** The Trajectory view: the run shown, the stepping cursor. */
  readonly trajectory: TrajectoryController;
  /** The ground-truth selector's what-if computations. */
  readonly whatIf: WhatIfController;
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
  const store = new Store({ ...readScoringSettings(), trajectorySources: trajectorySourcesKey(readTrajectorySettings()) });
  const model = new InspectorModel(store);
  const loader = new WorkspaceLoader(store, (ids, stale) => model.warmRows(ids, undefined, stale));
  const output = vscode.window.createOutputChannel('SWE-Explore', { log: true });
  const log = (line: string): void => output.warn(line);
  const whenLoaded = (): Promise<void> => loader.whenLoaded();
  const audit = new AuditController(store);
  const diagnostics = new DataDiagnostics();
  const documents = new ReadOnlyDocuments();
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
  const trajectory = new TrajectoryController(model, context.extensionUri, probe, log);
  const whatIf = new WhatIfController(model, context.workspaceState, probe, log);
  const scoresView = new ScoresView(model, context.extensionUri, probe, log, whatIf);
  const leaderboard = new LeaderboardController({ model, instancesTree, extensionUri: context.extensionUri, probe, log, whenLoaded });

  context.subscriptions.push(
    output,
    documents,
    store,
    model,
    loader,
    new DecorationController(model, probe, context.extensionUri),
    new LeaveOneOutController(model, probe),
    whatIf,
    new WhatIfLayers(model, whatIf, probe),
    diagnostics,
    instancesTree,
    regionsTree,
    codeLens,
    scoresView,
    leaderboard,
    trajectory,
    new ScoreStatusBar(model, probe),
    new AuditStatusBar(store),
    instancesView,
    vscode.window.createTreeView(VIEWS.regions, { treeDataProvider: regionsTree }),
    removalsTree,
    removalsView,
    vscode.window.registerWebviewViewProvider(VIEWS.scores, scoresView),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, new LineHoverProvider(model)),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, new WhatIfHoverProvider(model, whatIf)),
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, codeLens),
    // Navigation keybindings apply only in an editor showing a file of the open instance's snapshot.
    new SnapshotContext(model),
    audit,
    loader.onDidChangeProblems((problems) => {
      dataProblems = problems;
      showProblems();
    }),
    audit.onDidChangeProblems(showProblems),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SETTING_GROUPS.scoring)) store.select(readScoringSettings());
      if (event.affectsConfiguration(SETTING_GROUPS.data)) store.select({ trajectorySources: trajectorySourcesKey(readTrajectorySettings()) });
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
    ...registerSelectionCommands({ store, loader, instancesTree, whenLoaded, documents }),
    ...registerAuditCommands({ model, audit, instancesTree, whenLoaded }),
    ...registerAuditReports({ store, audit, whenLoaded, documents }),
    ...registerWhatIfCommands({ model, controller: whatIf, whenLoaded }),
    ...registerCompare(model),
    ...registerBenchChoice(loader),
    ...trajectory.commands(),
    ...links.disposables,
  ]) {
    context.subscriptions.push(disposable);
  }
  if (context.extensionMode !== vscode.ExtensionMode.Test) {
    offerWalkthrough(context);
    return undefined;
  }
  return { store, model, loader, audit, instancesTree, scoresView, leaderboard, trajectory, whatIf, probe, links: links.api, ready, activationMs: performance.now() - started };
}

/** On the first activation only, offers the walkthrough (a toast: it never opens by itself over the person's work). */
function offerWalkthrough(context: vscode.ExtensionContext): void {
  if (context.globalState.get<boolean>(STATE_KEYS.walkthroughOffered) === true) return;
  void context.globalState.update(STATE_KEYS.walkthroughOffered, true);
  void vscode.window.showInformationMessage('SWE-Explore: new here? The walkthrough shows the editor layers, the line budget, auditing and comparing explorers.', 'Open Walkthrough').then((action) => {
    if (action !== undefined) void vscode.commands.executeCommand(WORKBENCH_COMMANDS.openWalkthrough, `${context.extension.id}#${WALKTHROUGH}`, false);
  });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
