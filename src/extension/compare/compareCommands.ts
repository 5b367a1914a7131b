/**
 * Compare mode: `sweExplore.compareExplorers`, `stopComparing`, `next/previousDifference`. Starting
 * and stopping only change the selection; the model's change event repaints every surface once.
 */
import * as vscode from 'vscode';
import { safeNotificationText as safe } from '../../shared/escape';
import { activeCursor, openSnapshotPlace } from '../base/navigation';
import { nextPlace } from '../base/places';
import type { InspectorModel } from '../model/model';
import { COMPARE } from '../model/slices/compare';
import { COMMANDS, CONTEXT_KEYS, WORKBENCH_COMMANDS } from '../base/ids';

export function registerCompare(model: InspectorModel): vscode.Disposable[] {
  const { store } = model;

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
  };

  /** The next/previous difference span after the cursor, across the instance's files, wrapping. */
  const stepDifference = async (direction: 1 | -1): Promise<void> => {
    const view = model.view;
    const compare = model.slice(COMPARE);
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
    // Differences follow each other by path (code-unit order, as compareReach sorts them), then line.
    const target = nextPlace(spans, activeCursor(view), direction, { files: 'path', landing: (s) => Math.min(s.start, view.prepared.knownLineCounts.get(s.path) ?? s.start) });
    if (target !== undefined) await openSnapshotPlace(view.instance, target);
  };

  return [
    store.onDidChange(updateContext),
    vscode.commands.registerCommand(COMMANDS.compareExplorers, compareExplorers),
    vscode.commands.registerCommand(COMMANDS.stopComparing, () => store.select({ compareWith: undefined })),
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
