import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Placeholder until the inspector lands.
}

export function deactivate(): void {}
