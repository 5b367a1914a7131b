/**
 * `sweExplore.addExplorerTrajectories`: a folder of an explorer's own runs (issue 19), for an explorer
 * whose runs are not in `trajs/` beside its prediction file. The folder, then which explorer it
 * belongs to; remembered per explorer label in the workspace state and read on every load (a folder
 * added for a label replaces the one found beside its file). Runs are indexed by name only; the
 * open instance's run is read when it is shown.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { safeNotificationText as safe } from '../../shared/escape';
import { COMMANDS, STATE_KEYS } from '../base/ids';
import type { Store } from '../state/store';
import type { WorkspaceLoader } from '../workspace/loader';

export interface AddExplorerRunsServices {
  readonly store: Store;
  readonly loader: WorkspaceLoader;
  readonly whenLoaded: () => Promise<void>;
  readonly state: vscode.Memento;
}

/** The remembered folders by explorer label; anything malformed in the stored value is dropped. */
function readFolders(state: vscode.Memento): Map<string, string> {
  const stored = state.get<unknown>(STATE_KEYS.addedExplorerRuns);
  const out = new Map<string, string>();
  if (!Array.isArray(stored)) return out;
  for (const item of stored as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { explorer, folder } = item as { explorer?: unknown; folder?: unknown };
    if (typeof explorer === 'string' && typeof folder === 'string' && path.isAbsolute(folder)) out.set(explorer, folder);
  }
  return out;
}

export function registerAddExplorerRuns(services: AddExplorerRunsServices): { readonly disposables: vscode.Disposable[]; readonly forget: () => Promise<void> } {
  const { store, loader, whenLoaded, state } = services;
  loader.addedExplorerRuns = () => readFolders(state);

  /** Adds a run folder (or asks for it) for an explorer (or asks which); returns how many instances have a run. */
  const add = async (folderArg?: unknown, explorerArg?: unknown): Promise<number | undefined> => {
    await whenLoaded();
    const explorers = store.explorers;
    if (explorers.length === 0) {
      void vscode.window.showInformationMessage('SWE-Explore: load prediction files first: explorer runs belong to an explorer.');
      return undefined;
    }
    const folderUri =
      folderArg instanceof vscode.Uri
        ? folderArg
        : (
            await vscode.window.showOpenDialog({
              canSelectFiles: false,
              canSelectFolders: true,
              canSelectMany: false,
              openLabel: 'Add',
              title: "SWE-Explore: a folder of an explorer's own runs (<instance_id>.<ext> or <instance_id>/<file>)",
            })
          )?.[0];
    if (folderUri === undefined) return undefined;
    if (folderUri.scheme !== 'file') {
      void vscode.window.showWarningMessage(`SWE-Explore: only local folders can be added (${safe(folderUri.toString())}).`);
      return undefined;
    }
    const explorer =
      typeof explorerArg === 'string' && explorers.includes(explorerArg)
        ? explorerArg
        : (
            await vscode.window.showQuickPick(
              explorers.map((label) => ({ label: safe(label), explorer: label })),
              { title: 'SWE-Explore: whose runs are these?', placeHolder: 'The explorer that produced them' },
            )
          )?.explorer;
    if (explorer === undefined) return undefined;
    const folders = readFolders(state);
    folders.set(explorer, path.resolve(folderUri.fsPath));
    await state.update(
      STATE_KEYS.addedExplorerRuns,
      [...folders].map(([label, folder]) => ({ explorer: label, folder })),
    );
    await loader.load();
    const runs = store.explorerRuns.get(explorer)?.runs.size ?? 0;
    const instances = `${runs} instance${runs === 1 ? '' : 's'}`;
    void vscode.window.showInformationMessage(`SWE-Explore: ${safe(explorer)} has runs for ${safe(instances)}.`);
    return runs;
  };

  const forget = async (): Promise<void> => {
    await state.update(STATE_KEYS.addedExplorerRuns, undefined);
    await loader.load();
  };

  return { disposables: [vscode.commands.registerCommand(COMMANDS.addExplorerTrajectories, add)], forget };
}
