/**
 * What the numbers are for and what the editor shows: explorer, budget, profile, reload, the layer
 * and CodeLens toggles, and the Instances tree's filter, query and sort. Each only changes the
 * selection or a setting; the model's change event (or the setting's) repaints once.
 */
import * as vscode from 'vscode';
import { OFFICIAL_METRIC_NAMES, parseQuery, PROFILES, queryHelp, queryProblem, type OfficialMetricName, type Profile } from '../../core';
import { safeNotificationText as safe } from '../../shared/escape';
import { METRIC_INFO } from '../../shared/metricInfo';
import { COMMANDS, SETTINGS, WORKBENCH_COMMANDS, type CommandId } from '../base/ids';
import type { ReadOnlyDocuments } from '../base/readOnlyDocuments';
import { readLayerSettings, toggleSetting, updateSetting } from '../base/settings';
import type { Store } from '../state/store';
import type { InstancesTreeProvider } from '../trees/instancesTree';
import type { WorkspaceLoader } from '../workspace/loader';

export interface SelectionServices {
  readonly store: Store;
  readonly loader: WorkspaceLoader;
  readonly instancesTree: InstancesTreeProvider;
  /** Resolves when the most recent data load has finished; commands wait for it. */
  readonly whenLoaded: () => Promise<void>;
  /** Where the query help opens (read-only). */
  readonly documents: ReadOnlyDocuments;
}

export function registerSelectionCommands(services: SelectionServices): vscode.Disposable[] {
  const { store, loader, instancesTree, whenLoaded, documents } = services;
  const register = (id: CommandId, handler: (...args: never[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, handler);

  return [
    register(COMMANDS.reload, () => loader.load()),
    register(COMMANDS.pickExplorer, async (explorer?: unknown) => {
      // Quick-pick labels render $(icon) syntax: show the name escaped, keep the real one aside.
      const chosen =
        typeof explorer === 'string'
          ? explorer
          : (
              await vscode.window.showQuickPick(
                store.explorers.map((name) => ({ label: safe(name), explorer: name })),
                { title: 'SWE-Explore: explorer to score' },
              )
            )?.explorer;
      if (chosen !== undefined && store.explorers.includes(chosen)) store.select({ explorer: chosen });
    }),
    register(COMMANDS.setBudget, async (budget?: unknown) => {
      const chosen = typeof budget === 'number' ? budget : await pickBudget(store.selection.budget);
      if (chosen !== undefined && Number.isInteger(chosen) && chosen >= 1) store.select({ budget: chosen });
    }),
    register(COMMANDS.setProfile, async (profile?: unknown) => {
      const chosen =
        typeof profile === 'string'
          ? profile
          : (
              await vscode.window.showQuickPick(
                [
                  { label: 'official', description: 'line counts only for ground-truth-region files, like the official runner (citable)' },
                  { label: 'snapshot', description: 'line counts for every snapshot file (debugging)' },
                ],
                { title: 'SWE-Explore: scoring profile' },
              )
            )?.label;
      const valid = PROFILES.find((p) => p === chosen);
      if (valid !== undefined) store.select({ profile: valid as Profile });
    }),
    register(COMMANDS.toggleCoreLayer, () => toggleSetting(SETTINGS.coreLayer)),
    register(COMMANDS.toggleOptionalLayer, () => toggleSetting(SETTINGS.optionalLayer)),
    register(COMMANDS.togglePredictionsLayer, () => toggleSetting(SETTINGS.predictionsLayer)),
    register(COMMANDS.toggleMissedLayer, () => toggleSetting(SETTINGS.missedLayer)),
    register(COMMANDS.togglePatchLayer, () => toggleSetting(SETTINGS.patchLayer)),
    register(COMMANDS.toggleConsensusLayer, () => toggleSetting(SETTINGS.consensusLayer)),
    register(COMMANDS.togglePromotedLayer, () => toggleSetting(SETTINGS.promotedLayer)),
    register(COMMANDS.toggleViewedLayer, () => toggleSetting(SETTINGS.viewedLayer)),
    register(COMMANDS.toggleRangedReadsLayer, () => toggleSetting(SETTINGS.rangedReadsLayer)),
    register(COMMANDS.toggleCodeLens, () => toggleSetting(SETTINGS.codeLens)),
    register(COMMANDS.toggleOptionalModel, async () => {
      const models = [...new Set(store.instanceIds.flatMap((id) => Object.keys(store.data.instances.get(id)!.groundTruth.optionalRegionsByModel)))].sort();
      const hidden = new Set(readLayerSettings().hiddenOptionalModels);
      const picked = await vscode.window.showQuickPick(
        models.map((model) => ({ label: safe(model), model, picked: !hidden.has(model) })),
        { canPickMany: true, title: 'SWE-Explore: optional regions to show, per model' },
      );
      if (picked === undefined) return;
      const shown = new Set(picked.map((p) => p.model));
      await updateSetting(
        SETTINGS.hiddenOptionalModels,
        models.filter((m) => !shown.has(m)),
      );
    }),
    register(COMMANDS.filterInstances, async () => {
      const text = await vscode.window.showInputBox({ title: 'SWE-Explore: filter instances', prompt: 'Part of an instance id or repo (empty: show all)', value: instancesTree.filter });
      if (text !== undefined) instancesTree.filter = text;
    }),
    register(COMMANDS.queryInstances, async () => {
      await whenLoaded();
      // The examples and the help name the loaded explorers, never the demo's. Only the names are
      // neutralised in the prompt (which renders links), so an example reads exactly as it is typed.
      const help = queryHelp(store.explorers);
      const text = await vscode.window.showInputBox({
        title: 'SWE-Explore: query instances (type ? and Enter for the help)',
        prompt: queryHelp(store.explorers.map(safe)).prompt,
        value: instancesTree.query?.text ?? '',
        validateInput: (value) => {
          if (value.trim() === '?') return undefined;
          const problem = queryProblem(value, store.explorers);
          return problem === undefined ? undefined : safe(problem.message);
        },
      });
      if (text === undefined) return;
      if (text.trim() === '?') {
        await documents.show('Query Instances help.txt', help.text);
        return;
      }
      const parsed = parseQuery(text);
      if (parsed.ok) instancesTree.query = parsed.query;
    }),
    register(COMMANDS.sortInstances, async () => {
      const items = [
        { label: 'Bench order', metric: undefined as OfficialMetricName | undefined },
        ...OFFICIAL_METRIC_NAMES.map((metric) => ({ label: METRIC_INFO[metric].label, description: metric, metric })),
      ];
      const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: sort instances (highest first) by' });
      if (picked !== undefined) instancesTree.sortMetric = picked.metric;
    }),
    register(COMMANDS.showProblems, () => vscode.commands.executeCommand(WORKBENCH_COMMANDS.showProblems)),
  ];
}

async function pickBudget(current: number): Promise<number | undefined> {
  const items = [100, 300, 500].map((b) => ({ label: String(b), description: b === current ? 'current' : 'official budget' }));
  items.push({ label: 'Custom…', description: current === 100 || current === 300 || current === 500 ? '' : `current: ${current}` });
  const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: line budget B' });
  if (picked === undefined) return undefined;
  if (picked.label !== 'Custom…') return Number(picked.label);
  const text = await vscode.window.showInputBox({
    title: 'SWE-Explore: custom line budget',
    value: String(current),
    validateInput: (value) => (/^\d+$/.test(value) && Number(value) >= 1 ? undefined : 'A whole number of lines, at least 1'),
  });
  return text === undefined ? undefined : Number(text);
}
