/** The Leaderboard webview and the benchmark-wide miss anatomy. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { OFFICIAL_METRIC_NAMES } from '../../src/core';
import type { LeaderboardState } from '../../src/shared/leaderboardProtocol';
import { recorder, timings, until, type Case } from './support';

/** The last state the Leaderboard posted, and what the webview said it drew. */
const posted = (): LeaderboardState | undefined => recorder.posted<LeaderboardState>('leaderboard').state;
const drawn = (): { count: number; explorers: number } => ({
  count: recorder.rendered('leaderboard').count,
  explorers: recorder.rendered<{ explorers: number }>('leaderboard').detail?.explorers ?? -1,
});

export const leaderboardCases: Case[] = [
  {
    name: 'leaderboard: the panel shows the store macros (= swe-explore score) and follows the budget',
    run: async (api) => {
      await api.ready;
      api.store.select({ budget: 500, profile: 'official', topK: 5 });
      const started = performance.now();
      await vscode.commands.executeCommand('sweExplore.showLeaderboard');
      const lb = api.leaderboard;
      const complete = (): boolean => {
        const state = posted();
        return state !== undefined && state.status === 'ready' && state.counting.done === state.counting.total && state.budget === 500;
      };
      await until(() => complete() && drawn().count > 0 && drawn().explorers === posted()!.explorers.length, 'the leaderboard to be complete and drawn', 30_000);
      timings['show leaderboard → drawn (demo)'] = performance.now() - started;
      timings['leaderboard state build (demo)'] = recorder.timing('leaderboard: state built') ?? -1;
      assert.equal(lb.isOpen, true);

      const state = posted()!;
      const macros = api.model.macros;
      assert.deepEqual(state.explorers.map((e) => e.explorer).sort(), [...macros.keys()].sort());
      for (const row of state.explorers) {
        const macro = macros.get(row.explorer)!;
        assert.equal(row.instances, macro.instances, row.explorer);
        assert.equal(row.expected, macro.expected, row.explorer);
        assert.ok(row.values !== null, `${row.explorer} has values`);
        for (const name of OFFICIAL_METRIC_NAMES) assert.equal(row.values[name], macro.macro[name], `${row.explorer} ${name}`);
        const lines = Object.values(row.anatomy.counts).reduce((a, b) => a + b, 0);
        assert.equal(lines, row.anatomy.coreLines, `${row.explorer}: anatomy categories sum to the core lines`);
        assert.ok(row.repoCount >= 1, `${row.explorer} has per-repo rows`);
      }

      // A budget change reaches the panel: the anatomy moves to B=100, the macros stay.
      const drawnBefore = drawn().count;
      api.store.select({ budget: 100 });
      await until(() => posted()?.budget === 100 && drawn().count > drawnBefore, 'the leaderboard at B=100', 10_000);
      const at100 = api.model.leaderboard(100);
      for (const row of posted()!.explorers) {
        const anatomy = at100.anatomy.find((a) => a.explorer === row.explorer)!;
        assert.equal(row.anatomy.counts.hit, anatomy.totals.hit);
        assert.equal(row.anatomy.coreLines, anatomy.totals.coreLines);
        assert.deepEqual(row.values, state.explorers.find((e) => e.explorer === row.explorer)!.values);
      }
      api.store.select({ budget: 500 });

      // Running the command again reveals the same panel (a singleton).
      await vscode.commands.executeCommand('sweExplore.showLeaderboard');
      assert.equal(lb.isOpen, true);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await until(() => !lb.isOpen, 'the leaderboard panel to close');
    },
  },
];
