import * as path from 'node:path';
import * as vscode from 'vscode';

/** A path as the user sees it: relative to the first workspace folder (forward slashes) when inside it, else as given. */
export function workspaceRelative(file: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder === undefined) return file;
  const relative = path.relative(folder, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}
