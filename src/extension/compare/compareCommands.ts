/** Compare mode: `sweExplore.compareExplorers`, `stopComparing`, `next/previousDifference`. */
import type * as vscode from 'vscode';
import type { DecorationController } from '../decorations';
import type { Store } from '../store';

export interface CompareServices {
  readonly store: Store;
  readonly decorations: DecorationController;
}

export function registerCompare(services: CompareServices): vscode.Disposable[] {
  void services;
  return [];
}
