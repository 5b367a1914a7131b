/**
 * `sweExplore.addPredictions`: adds prediction files (JSONL rows or a plain-text answer) and
 * folders of agent transcripts (one answer per instance; see `src/data/formats/transcripts.ts`) to the
 * loaded workspace. The added paths are remembered in the workspace state, so every reload reads
 * them again; adding a path already added does nothing. (There is no command to remove them:
 * `forget` exists for tests only.) Bad input never stops loading: it is reported in the Problems
 * panel like any prediction file's.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TRANSCRIPT_EXTENSIONS } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import type { AddedRuns, WorkspaceLoader } from '../workspace/loader';
import type { Store } from '../state/store';
import { COMMANDS, STATE_KEYS } from '../base/ids';

interface AddedEntry {
  /** Absolute file-system path. */
  readonly path: string;
  readonly kind: 'file' | 'transcripts';
}

export interface AddPredictionsServices {
  readonly store: Store;
  readonly loader: WorkspaceLoader;
  readonly whenLoaded: () => Promise<void>;
  readonly log: (line: string) => void;
  /** Where added prediction runs are remembered (the workspace's state). */
  readonly state: vscode.Memento;
}

/** The remembered entries; anything malformed in the stored value is dropped. */
function readEntries(state: vscode.Memento): AddedEntry[] {
  const stored = state.get<unknown>(STATE_KEYS.addedRuns);
  if (!Array.isArray(stored)) return [];
  const entries: AddedEntry[] = [];
  for (const item of stored as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { path: p, kind } = item as { path?: unknown; kind?: unknown };
    if (typeof p === 'string' && path.isAbsolute(p) && (kind === 'file' || kind === 'transcripts')) entries.push({ path: p, kind });
  }
  return entries;
}

function toAddedRuns(entries: readonly AddedEntry[]): AddedRuns {
  return {
    predictionFiles: entries.filter((e) => e.kind === 'file').map((e) => e.path),
    transcriptFolders: entries.filter((e) => e.kind === 'transcripts').map((e) => e.path),
  };
}

function isUriList(value: unknown): value is vscode.Uri[] {
  return Array.isArray(value) && value.every((v) => v instanceof vscode.Uri);
}

export function registerAddPredictions(services: AddPredictionsServices): { readonly disposables: vscode.Disposable[]; readonly forget: () => Promise<void> } {
  const { store, loader, whenLoaded, log, state } = services;
  // Asked for on every load (the first one included: it reads the sources after an await).
  loader.addedRuns = () => toAddedRuns(readEntries(state));

  /** Adds the given paths (or asks for them); returns the labels of the explorers that appeared. */
  const addPredictions = async (arg?: unknown): Promise<string[]> => {
    const uris =
      arg instanceof vscode.Uri
        ? [arg]
        : isUriList(arg)
          ? arg
          : await vscode.window.showOpenDialog({
              canSelectFiles: true,
              canSelectFolders: true,
              canSelectMany: true,
              openLabel: 'Add',
              title: `SWE-Explore: add prediction files (JSONL or a plain-text answer) or transcript folders (one ${TRANSCRIPT_EXTENSIONS.join('/')} answer per instance)`,
            });
    if (uris === undefined || uris.length === 0) return [];
    const entries = readEntries(state);
    const known = new Set(entries.map((e) => e.path));
    const fresh: AddedEntry[] = [];
    for (const uri of uris) {
      if (uri.scheme !== 'file') {
        void vscode.window.showWarningMessage(`SWE-Explore: only local files can be added (${safe(uri.toString())}).`);
        continue;
      }
      const p = path.resolve(uri.fsPath);
      if (known.has(p)) continue;
      let type: vscode.FileType;
      try {
        type = (await vscode.workspace.fs.stat(uri)).type;
      } catch (error) {
        log(`add predictions: cannot read ${p}: ${error instanceof Error ? error.message : String(error)}`);
        void vscode.window.showWarningMessage(`SWE-Explore: cannot read ${safe(p)}.`);
        continue;
      }
      // A symlink's type has the File or Directory bit of its target as well.
      const kind = (type & vscode.FileType.Directory) !== 0 ? 'transcripts' : (type & vscode.FileType.File) !== 0 ? 'file' : undefined;
      if (kind === undefined) {
        void vscode.window.showWarningMessage(`SWE-Explore: ${safe(p)} is neither a file nor a folder.`);
        continue;
      }
      known.add(p);
      fresh.push({ path: p, kind });
    }
    if (fresh.length === 0) {
      void vscode.window.showInformationMessage('SWE-Explore: nothing new to add (already added).');
      return [];
    }
    await whenLoaded();
    const before = new Set(store.explorers);
    await state.update(STATE_KEYS.addedRuns, [...entries, ...fresh]);
    await loader.load();
    const appeared = store.explorers.filter((e) => !before.has(e));
    const problems = loader.allProblems().filter((p) => fresh.some((f) => p.file === f.path || p.file.startsWith(f.path + path.sep))).length;
    void vscode.window.showInformationMessage(
      `SWE-Explore: added ${appeared.length === 0 ? 'no new explorer' : appeared.map((e) => safe(e)).join(', ')}` +
        (problems > 0 ? `; ${problems} problem${problems === 1 ? '' : 's'} in the Problems panel.` : '.'),
    );
    return appeared;
  };

  const forget = async (): Promise<void> => {
    await state.update(STATE_KEYS.addedRuns, undefined);
    await loader.load();
  };

  return { disposables: [vscode.commands.registerCommand(COMMANDS.addPredictions, addPredictions)], forget };
}
