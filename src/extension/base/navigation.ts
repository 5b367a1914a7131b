/**
 * The one way the extension opens a place of an instance's snapshot (commands, compare mode, deep
 * links, the Instance panel's read steps): resolve the region path inside the snapshot, open only
 * the real path that was checked, put the cursor on the first line and reveal the range.
 */
import * as vscode from 'vscode';
import { resolveInSnapshot, RESOLVE_FAILURE_TEXT, type InstanceEntry } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import type { Cursor, Place } from './places';
import { lineRange } from './ranges';
import { snapshotPathOf, type SnapshotHolder } from './snapshot';

/** A region path resolved inside the snapshot: the real file checked, or why there is none (plain text, data quoted). */
export type SnapshotFile = { readonly ok: true; readonly file: string } | { readonly ok: false; readonly problem: string };

export async function resolveSnapshotFile(instance: InstanceEntry, path: string): Promise<SnapshotFile> {
  const root = instance.snapshotRoot;
  if (root === undefined) return { ok: false, problem: `the snapshot of ${JSON.stringify(instance.instanceId)} is missing or its repo_dir is refused; see the Problems panel` };
  const resolved = await resolveInSnapshot(root, path);
  return resolved.ok ? { ok: true, file: resolved.real } : { ok: false, problem: `${JSON.stringify(path)} ${RESOLVE_FAILURE_TEXT[resolved.reason]} (${JSON.stringify(instance.instanceId)})` };
}

/** Where and how {@link showLines} shows the lines. */
export interface ShowOptions {
  /** Select the whole range (a read step), not only put the cursor on its first line. */
  readonly select?: boolean;
  /** The editor group to show them in (default: the active one). */
  readonly column?: vscode.ViewColumn;
}

/** Shows lines of a checked file: the cursor on the first line (or the range selected), revealed in the middle when it is off screen. */
export async function showLines(file: string, start: number, end: number, options: ShowOptions = {}): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const range = lineRange(start, Math.max(start, end), document);
  const selection = options.select === true ? new vscode.Selection(range.start, range.end) : new vscode.Selection(range.start, range.start);
  const editor = await vscode.window.showTextDocument(document, { preview: false, selection, ...(options.column === undefined ? {} : { viewColumn: options.column }) });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

/** Opens a place of the instance's snapshot; says why in a warning when it cannot. */
export async function openSnapshotPlace(instance: InstanceEntry, place: Place, options: ShowOptions = {}): Promise<vscode.TextEditor | undefined> {
  const file = await resolveSnapshotFile(instance, place.path);
  if (!file.ok) {
    void vscode.window.showWarningMessage(`SWE-Explore: ${safe(file.problem)}.`);
    return undefined;
  }
  return showLines(file.file, place.start, place.end, options);
}

/** The active editor's cursor: its snapshot path (undefined outside the open instance's snapshot) and 1-based line. */
export function activeCursor(view: SnapshotHolder | undefined): Cursor | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) return undefined;
  return { path: snapshotPathOf(view, editor.document.uri), line: editor.selection.active.line + 1 };
}
