/**
 * More than one file may look like the bench (`**\/bench*.jsonl`): the loader takes the first and
 * this says so, once per set of candidates, with a way to choose (issue 16: the choice must be
 * visible, never silent). Choosing writes `sweExplore.data.benchFile`, which reloads.
 */
import * as vscode from 'vscode';
import { safeNotificationText as safe } from '../../shared/escape';
import { benchChoiceWarning } from '../../shared/texts';
import { COMMANDS, SETTINGS } from '../base/ids';
import { updateSetting } from '../base/settings';
import { workspaceRelative } from '../base/workspacePaths';
import { searchBenchCandidates, type WorkspaceLoader } from './loader';

export function registerBenchChoice(loader: WorkspaceLoader): vscode.Disposable[] {
  let warnedFor = '';
  const choose = async (): Promise<void> => {
    await loader.whenLoaded();
    const { file, candidates, configured } = loader.benchChoice;
    // With the setting in force, the found files are not known: search again for the pick.
    const listed = configured ? await searchBenchCandidates() : candidates;
    const items = listed.map((candidate) => ({
      label: safe(workspaceRelative(candidate)),
      description: candidate === file ? 'loaded' : undefined,
      file: candidate,
    }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage('SWE-Explore: no bench*.jsonl file was found in the workspace.');
      return;
    }
    const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: which file is the bench?', placeHolder: 'Saved in the sweExplore.data.benchFile setting' });
    if (picked === undefined) return;
    await updateSetting(SETTINGS.benchFile, workspaceRelative(picked.file));
  };
  return [
    vscode.commands.registerCommand(COMMANDS.chooseBenchFile, choose),
    loader.onDidChooseBench((choice) => {
      if (choice.configured || choice.candidates.length < 2 || choice.file === undefined) return;
      const key = choice.candidates.join('\n');
      if (key === warnedFor) return;
      warnedFor = key;
      const text = benchChoiceWarning(workspaceRelative(choice.file), choice.candidates.length);
      void vscode.window.showWarningMessage(`SWE-Explore: ${safe(text)}`, 'Choose Bench…').then((action) => {
        if (action !== undefined) void vscode.commands.executeCommand(COMMANDS.chooseBenchFile);
      });
    }),
  ];
}
