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
import type { InspectorModel, ModelChange } from '../model/model';
import { buildScoresState } from './scoresState';

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
    this.update();
  }

  resolveWebviewView(webviewView: vscode.WebviewView): void {
    this.attach(webviewView.webview, webviewView.onDidDispose);
  }

  private update(): void {
    this.options.probe.report({ kind: 'paint', surface: 'scores' });
    this.post(buildScoresState(this.model));
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
      case 'ready':
        break;
    }
  }
}
