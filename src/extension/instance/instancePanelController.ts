/**
 * Wires the Instance panel to the store: `sweExplore.showInstancePanel` opens it for the open
 * instance, store changes that alter the view update it, "open diff" shows the snapshot file next
 * to the gold patch applied to it, and a read step reveals its lines in the editor.
 */
import * as vscode from 'vscode';
import { patchedText } from '../../core';
import { readSmallTextFile, resolveInSnapshot, RESOLVE_FAILURE_TEXT } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import { InstancePanel } from './instancePanel';
import { agreementEntries, buildInstanceState } from './instanceState';
import { openSnapshotPlace } from '../base/navigation';
import type { Probe } from '../base/probe';
import type { InspectorModel } from '../model/model';
import { AGREEMENT } from '../model/slices/agreement';
import { TRAJECTORY_RUNS } from '../model/slices/trajectoryRuns';
import { COMMANDS, WORKBENCH_COMMANDS } from '../base/ids';

export const PATCHED_SCHEME = 'swe-explore-patched';

/**
 * The patched side of a diff is built in memory from the whole base file, so the base is read
 * only up to this size (a source file the gold patch edits is far smaller); a larger file is
 * refused with a message instead of being read whole.
 */
const MAX_DIFF_BASE_BYTES = 32 * 1024 * 1024;

/** Read-only documents holding a file with the gold patch applied (content providers cannot be edited). */
class PatchedContentProvider implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();

  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }
}

export function registerInstancePanel(model: InspectorModel, extensionUri: vscode.Uri, probe: Probe, log: (line: string) => void): vscode.Disposable[] {
  const { store } = model;
  const patched = new PatchedContentProvider();
  let diffCount = 0;

  const openDiff = async (path: string): Promise<void> => {
    const view = model.view;
    if (view === undefined) return;
    const root = view.instance.snapshotRoot;
    const patch = view.instance.record.patch ?? '';
    if (root === undefined) {
      void vscode.window.showWarningMessage(`SWE-Explore: the snapshot of ${safe(view.instance.instanceId)} is missing; no base file to diff.`);
      return;
    }
    const resolved = await resolveInSnapshot(root, path);
    let base: vscode.Uri;
    let baseText: string;
    if (resolved.ok) {
      base = vscode.Uri.file(resolved.real);
      const text = await readSmallTextFile(resolved.real, MAX_DIFF_BASE_BYTES).catch(() => null);
      if (text === undefined || text === null) {
        const why = text === undefined ? `is larger than ${MAX_DIFF_BASE_BYTES / 1024 / 1024} MB` : 'cannot be read';
        void vscode.window.showWarningMessage(`SWE-Explore: the snapshot's ${safe(path)} ${safe(why)}; no diff is built.`);
        return;
      }
      baseText = text;
    } else if (resolved.reason === 'missing') {
      // A file the patch creates has no base: diff against an empty document.
      base = vscode.Uri.from({ scheme: PATCHED_SCHEME, path: `/${view.instance.instanceId}/base/${path}` });
      baseText = '';
      patched.set(base, '');
    } else {
      void vscode.window.showWarningMessage(`SWE-Explore: ${safe(path)} ${RESOLVE_FAILURE_TEXT[resolved.reason]} (${safe(view.instance.instanceId)}).`);
      return;
    }
    const text = patchedText(baseText, patch, path);
    if (text === undefined) {
      void vscode.window.showWarningMessage(`SWE-Explore: the gold patch does not apply to the snapshot's ${safe(path)} (the snapshot is not the patch's base).`);
      return;
    }
    // A fresh query each time, so a changed snapshot never shows a cached document.
    const target = vscode.Uri.from({ scheme: PATCHED_SCHEME, path: `/${view.instance.instanceId}/${path}`, query: String(++diffCount) });
    patched.set(target, text);
    await vscode.commands.executeCommand(WORKBENCH_COMMANDS.diff, base, target, `${path} ↔ gold patch`, { preview: true });
  };

  const panel = new InstancePanel(extensionUri, probe, log, {
    onOpenDiff: (path) => void openDiff(path),
    onRevealStep: (path, start, end) => void revealStep(path, start, end),
    onOpenTrajectory: (trajPath) => void vscode.commands.executeCommand(COMMANDS.showTrajectory, { trajPath }),
  });

  /**
   * A read step clicked in the panel: its lines selected, in the group that shows the code (never
   * the panel's own group, which the file would cover), else the first group.
   */
  const revealStep = async (path: string, start: number, end: number): Promise<void> => {
    const view = model.view;
    if (view === undefined) return;
    const code = vscode.window.visibleTextEditors.find((editor) => editor.viewColumn !== undefined && editor.viewColumn !== panel.column)?.viewColumn;
    await openSnapshotPlace(view.instance, { path, start, end }, { select: true, column: code ?? vscode.ViewColumn.One });
  };

  const stateNow = (): ReturnType<typeof buildInstanceState> | undefined => {
    const view = model.view;
    if (view === undefined) return undefined;
    const instanceId = view.instance.instanceId;
    const lineCounts = store.getLineCounts(instanceId) ?? new Map<string, number>();
    const runs = model.slice(TRAJECTORY_RUNS);
    return buildInstanceState(view.instance.record, lineCounts, agreementEntries(model.slice(AGREEMENT) ?? []), runs?.status === 'loaded' ? runs.runs : undefined);
  };

  return [
    panel,
    vscode.workspace.registerTextDocumentContentProvider(PATCHED_SCHEME, patched),
    vscode.commands.registerCommand(COMMANDS.showInstancePanel, () => {
      const state = stateNow();
      if (state === undefined) {
        void vscode.window.showInformationMessage('SWE-Explore: open an instance first ("SWE-Explore: Open Instance").');
        return;
      }
      panel.show(state);
    }),
    model.onDidChange((change) => {
      if (!panel.isOpen || !change.view) return;
      const state = stateNow();
      if (state !== undefined) panel.update(state);
    }),
  ];
}
