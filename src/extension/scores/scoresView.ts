/**
 * The Scores sidebar view: hosts the Scores bundle (dist/webview/scores.js), posts the state the
 * model gives it (scoresState.ts) whenever a change alters what it shows, and turns the webview's
 * messages into selection changes.
 */
import * as vscode from 'vscode';
import { parseFromScoresWebview, type FromScoresWebview, type ScoresState } from '../../shared/scoresProtocol';
import { COMMANDS } from '../base/ids';
import type { Probe } from '../base/probe';
import { WebviewHost } from '../base/webviewHost';
import { workspaceRelative } from '../base/workspacePaths';
import type { InspectorModel, ModelChange } from '../model/model';
import type { WhatIfController } from '../whatif/whatIfController';
import { buildScoresState, type ScoresGroundTruth } from './scoresState';

/**
 * The Scores view shows the open instance and the explorers' macro averages: background line
 * counts of other instances change neither until the last batch makes the averages final.
 */
function changesScores(change: ModelChange): boolean {
  return change.view || change.kind === 'audit' || change.kind === 'groundTruths' || (change.kind === 'lineCounts' && change.complete);
}

export class ScoresView extends WebviewHost<ScoresState, FromScoresWebview> implements vscode.WebviewViewProvider {
  constructor(
    private readonly model: InspectorModel,
    extensionUri: vscode.Uri,
    probe: Probe,
    log: (line: string) => void,
    private readonly whatIf: WhatIfController,
  ) {
    super({
      name: 'scores',
      title: 'Scores view',
      page: { script: 'scores.js', styles: ['common.css', 'anatomy.css', 'scores.css'], title: 'Scores', rootId: 'scores-root', images: true },
      parse: parseFromScoresWebview,
      extensionUri,
      log,
      probe,
    });
    this.register(
      model.onDidChange((change) => {
        if (changesScores(change)) this.update();
      }),
    );
    this.register(whatIf.onDidChange(() => this.update()));
    this.update();
  }

  resolveWebviewView(webviewView: vscode.WebviewView): void {
    this.attach(webviewView.webview, webviewView.onDidDispose);
  }

  private update(): void {
    this.options.probe.report({ kind: 'paint', surface: 'scores' });
    const started = performance.now();
    this.post(buildScoresState(this.model, this.groundTruth(), workspaceRelative));
    this.options.probe.report({ kind: 'timing', name: 'scores: state', ms: performance.now() - started });
  }

  private groundTruth(): ScoresGroundTruth {
    const active = this.whatIf.active;
    return {
      choice: this.whatIf.choices(),
      whatIf: active === undefined ? undefined : { text: active.text, instance: (id) => active.variants.get(id) },
    };
  }

  protected onMessage(message: FromScoresWebview): void {
    const { store } = this.model;
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
      case 'setGroundTruth':
        void this.whatIf.apply(message.choice);
        break;
      case 'composeWhatIf':
        void vscode.commands.executeCommand(COMMANDS.chooseGroundTruth);
        break;
      case 'ready':
        break;
    }
  }
}
