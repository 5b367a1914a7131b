/** Deep links: the URI handler (`vscode://swe-explore.swe-explore-inspector/open?…`) and `sweExplore.copyLink`. */
import type * as vscode from 'vscode';
import type { WorkspaceLoader } from './loader';
import type { Store } from './store';

export interface LinkServices {
  readonly store: Store;
  readonly loader: WorkspaceLoader;
  readonly whenLoaded: () => Promise<void>;
  readonly log: (line: string) => void;
}

export function registerLinks(services: LinkServices): vscode.Disposable[] {
  void services;
  return [];
}
