/** The explorers' own runs in the running extension (issue 19): found beside the prediction file, added by command, read on Open Instance, in the hover. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXPLORER_RUN } from '../../src/extension/model/slices/explorerRun';
import { figures, recorder, type Case, hoverText } from './support';

const INSTANCE = 'acme__inventory-101';

export const explorerRunCases: Case[] = [
  {
    name: "explorer runs: agent's trajs/ is found, Open Instance reads its run before painting, the hover says seen at step 4",
    run: async (api) => {
      const runs = api.store.explorerRuns.get('agent');
      assert.equal(runs?.runs.size, 3, 'the demo ships three runs of agent beside its prediction file');
      assert.equal(api.store.explorerRuns.has('bm25'), false);
      api.store.select({ explorer: 'agent', budget: 500, compareWith: undefined });
      await vscode.commands.executeCommand('sweExplore.openInstance', INSTANCE);
      // The test run's recorder is the probe's one listener: read the timing through it.
      const ms = recorder.timing('open instance: explorer runs read');
      figures['open instance: explorer run read before the paint (bounded at 100 ms)'] = `${ms?.toFixed(1) ?? '?'} ms`;
      assert.equal(api.model.slice(EXPLORER_RUN)?.kind, 'loaded', 'the run is read when the instance opens');
      const root = api.model.view!.instance.snapshotRoot!;
      const text = await hoverText(vscode.Uri.file(path.join(root, 'inventory', 'stock.py')), 122);
      assert.match(text, /Explorer run \(agent\): seen at step 4 \(`nl -ba inventory\/stock\.py \| sed -n '100,140p'`\), not reported/);
      assert.match(text, /How the repair runs got here: (repair runs not loaded|reading the repair runs…|.*(found it|read it|never read it|run not loaded))/);
    },
  },
  {
    name: 'explorer runs: Add Explorer Trajectories gives a folder of runs to an explorer, remembered across reloads, forgotten on cleanup',
    run: async (api) => {
      const folder = api.store.explorerRuns.get('agent')!.folder;
      const count = await vscode.commands.executeCommand<number>('sweExplore.addExplorerTrajectories', vscode.Uri.file(folder), 'bm25');
      try {
        assert.equal(count, 3);
        assert.equal(api.store.explorerRuns.get('bm25')?.folder, folder);
        await api.loader.load();
        assert.equal(api.store.explorerRuns.get('bm25')?.runs.size, 3, 'kept across a reload');
      } finally {
        await api.links.forgetAddedRuns();
      }
      assert.equal(api.store.explorerRuns.has('bm25'), false);
      assert.equal(api.store.explorerRuns.get('agent')?.runs.size, 3, "agent's own trajs/ is still found");
    },
  },
];
