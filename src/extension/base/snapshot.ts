import * as path from 'node:path';
import type * as vscode from 'vscode';

/** What locates a snapshot: the open instance's view satisfies it. */
export interface SnapshotHolder {
  readonly instance: { readonly snapshotRoot: string | undefined };
}

/**
 * The region path (POSIX, relative to the snapshot root) of a document, when the document lies
 * inside the current instance's snapshot; undefined otherwise.
 */
export function snapshotPathOf(view: SnapshotHolder | undefined, uri: vscode.Uri): string | undefined {
  const root = view?.instance.snapshotRoot;
  if (root === undefined || uri.scheme !== 'file') return undefined;
  const relative = path.relative(root, uri.fsPath);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** The instance whose snapshot holds `file`: its folders walked up against each snapshot root (linear in the path's depth). */
export function instanceOfFile(instanceOfRoot: ReadonlyMap<string, string>, file: string): string | undefined {
  for (let folder = path.dirname(file); ; folder = path.dirname(folder)) {
    const instanceId = instanceOfRoot.get(folder);
    if (instanceId !== undefined) return instanceId;
    if (path.dirname(folder) === folder) return undefined;
  }
}
