/** Compare mode: `sweExplore.compareExplorers`, `stopComparing`, `next/previousDifference`. */
import * as vscode from 'vscode';
import type { DifferenceSpan } from '../../core';
import { resolveInSnapshot, RESOLVE_FAILURE_TEXT } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import type { DecorationController } from '../editor/decorations';
import { lineRange } from '../base/ranges';
import { snapshotPathOf } from '../base/snapshot';
import type { Store } from '../state/store';
import { compareOf } from '../model/viewCaches';
import { COMMANDS, CONTEXT_KEYS, WORKBENCH_COMMANDS } from '../base/ids';

export interface CompareServices {
  readonly store: Store;
  readonly decorations: DecorationController;
}

export function registerCompare(services: CompareServices): vscode.Disposable[] {
  const { store, decorations } = services;

  // Keybindings and palette entries of compare mode apply only while comparing.
  let comparing: boolean | undefined;
  const updateContext = (): void => {
    const now = store.selection.compareWith !== undefined;
    if (now === comparing) return;
    comparing = now;
    void vscode.commands.executeCommand(WORKBENCH_COMMANDS.setContext, CONTEXT_KEYS.comparing, now);
  };
  updateContext();

  const compareExplorers = async (explorerA?: unknown, explorerB?: unknown): Promise<void> => {
    const explorers = store.explorers;
    if (explorers.length < 2) {
      void vscode.window.showInformationMessage('SWE-Explore: comparing needs at least two explorers; the workspace has fewer.');
      return;
    }
    // Tests and links name both explorers; people pick them. Quick-pick labels render $(icon)
    // syntax, so they show the escaped name and keep the real one aside.
    const a = typeof explorerA === 'string' ? explorerA : await pickExplorer(explorers, store.selection.explorer, 'SWE-Explore: compare explorer A', undefined);
    if (a === undefined) return;
    const b = typeof explorerB === 'string' ? explorerB : await pickExplorer(explorers, store.selection.compareWith, `SWE-Explore: compare ${safe(a)} (A) with explorer B`, a);
    if (b === undefined) return;
    if (!explorers.includes(a) || !explorers.includes(b) || a === b) {
      void vscode.window.showErrorMessage(`SWE-Explore: cannot compare ${safe(a)} with ${safe(b)}: pick two different loaded explorers.`);
      return;
    }
    store.select({ explorer: a, compareWith: b });
    decorations.paintAll();
  };

  const openPlace = async (span: DifferenceSpan): Promise<void> => {
    const view = store.view;
    const root = view?.instance.snapshotRoot;
    if (view === undefined || root === undefined) return;
    // Only the real path that was checked to lie inside the snapshot is opened.
    const resolved = await resolveInSnapshot(root, span.path);
    if (!resolved.ok) {
      void vscode.window.showWarningMessage(`SWE-Explore: ${safe(span.path)} ${RESOLVE_FAILURE_TEXT[resolved.reason]} (${safe(view.instance.instanceId)}).`);
      return;
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(resolved.real));
    const range = lineRange(span.start, span.end, document);
    const editor = await vscode.window.showTextDocument(document, { preview: false, selection: new vscode.Selection(range.start, range.start) });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  };

  /** The next/previous difference span after the cursor, across the instance's files, wrapping. */
  const stepDifference = async (direction: 1 | -1): Promise<void> => {
    const view = store.view;
    const compare = compareOf(view);
    if (view === undefined || compare === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: not comparing explorers; run "Compare Two Explorers Line by Line…" first.');
      return;
    }
    const spans = compare.differences;
    if (spans.length === 0) {
      void vscode.window.setStatusBarMessage(
        `SWE-Explore: no difference between ${safe(view.explorer ?? '')} and ${safe(view.compared?.explorer ?? '')} on ${safe(view.instance.instanceId)} at B=${view.explanation.budget}.`,
        5000,
      );
      return;
    }
    // Positions compare by path (code-unit order, as the spans are sorted), then line. A span past
    // the end of its file opens at the last line: compare where the cursor lands, so "next" does
    // not keep returning to the same past-EOF span.
    const landing = (span: DifferenceSpan): number => Math.min(span.start, view.prepared.knownLineCounts.get(span.path) ?? span.start);
    const before = (path: string, line: number, otherPath: string, otherLine: number): boolean => path < otherPath || (path === otherPath && line < otherLine);
    const editor = vscode.window.activeTextEditor;
    const path = editor === undefined ? undefined : snapshotPathOf(view, editor.document.uri);
    const line = editor === undefined ? 0 : editor.selection.active.line + 1;
    let target: DifferenceSpan | undefined;
    if (path !== undefined) {
      if (direction === 1) target = spans.find((s) => before(path, line, s.path, landing(s)));
      else for (const s of spans) if (before(s.path, landing(s), path, line)) target = s;
    }
    // Outside the snapshot, or past the last (before the first) difference: wrap around.
    target ??= direction === 1 ? spans[0]! : spans[spans.length - 1]!;
    await openPlace(target);
  };

  return [
    store.onDidChange(updateContext),
    vscode.commands.registerCommand(COMMANDS.compareExplorers, compareExplorers),
    vscode.commands.registerCommand(COMMANDS.stopComparing, () => {
      store.select({ compareWith: undefined });
      decorations.paintAll();
    }),
    vscode.commands.registerCommand(COMMANDS.nextDifference, () => stepDifference(1)),
    vscode.commands.registerCommand(COMMANDS.previousDifference, () => stepDifference(-1)),
  ];
}

async function pickExplorer(explorers: readonly string[], preferred: string | undefined, title: string, exclude: string | undefined): Promise<string | undefined> {
  const candidates = explorers.filter((name) => name !== exclude);
  // The preferred explorer (A: the current one) comes first, so Enter accepts it.
  const ordered = preferred !== undefined && candidates.includes(preferred) ? [preferred, ...candidates.filter((n) => n !== preferred)] : candidates;
  const picked = await vscode.window.showQuickPick(
    ordered.map((name) => ({ label: safe(name), description: name === preferred ? 'current' : undefined, explorer: name })),
    { title },
  );
  return picked?.explorer;
}
