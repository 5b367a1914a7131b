/** The Leaderboard webview panel (`sweExplore.showLeaderboard`). */
import type * as vscode from 'vscode';
import type { Store } from '../store';
import type { InstancesTreeProvider } from '../trees';

export interface LeaderboardServices {
  readonly store: Store;
  readonly instancesTree: InstancesTreeProvider;
  readonly extensionUri: vscode.Uri;
  readonly log: (line: string) => void;
  readonly whenLoaded: () => Promise<void>;
}

export function registerLeaderboard(services: LeaderboardServices): vscode.Disposable[] {
  void services;
  return [];
}
