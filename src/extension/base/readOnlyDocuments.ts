/**
 * Read-only text documents the extension writes for the person to read (the Audit Impact report,
 * the query help): a virtual document per name, so closing one never asks to save, and showing it
 * again replaces its text in place.
 */
import * as vscode from 'vscode';

const SCHEME = 'swe-explore-doc';

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);

  /** Sets the text of `/name` (its extension picks the language, e.g. `Audit Impact.md`) and opens it. */
  async show(name: string, text: string, options: vscode.TextDocumentShowOptions = { preview: true }): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${name}` });
    this.texts.set(uri.path, text);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, options);
    return document;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
