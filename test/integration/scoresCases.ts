/** The Scores view's state in the real extension host: miss anatomy, compare mode, stop comparing. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MISS_CATEGORIES } from '../../src/core/missAnatomy';
import { buildScoresState } from '../../src/extension/scores/scoresState';
import type { InspectorApi } from '../../src/extension/extension';
import { recorder, until, type Case } from './support';

const INSTANCE = 'acme__inventory-101';

async function openDemoInstance(api: InspectorApi): Promise<void> {
  api.store.select({ explorer: 'agent', budget: 500, profile: 'official', compareWith: undefined });
  if (api.store.selection.instanceId !== INSTANCE) await vscode.commands.executeCommand('sweExplore.openInstance', INSTANCE);
  await api.loader.ensureLineCounts(INSTANCE);
  await until(() => api.model.view?.lineCountsReady === true, 'the line counts of the demo instance');
}

export const scoresCases: Case[] = [
  {
    name: "Scores state: the anatomy bar's counts are the store's miss anatomy and hit / core is Recall@B",
    run: async (api) => {
      await openDemoInstance(api);
      const state = buildScoresState(api.model);
      const anatomy = api.model.view!.anatomy;
      assert.ok(state.anatomy, 'the state carries an anatomy');
      assert.deepEqual(
        state.anatomy.categories.map((row) => [row.category, row.lines]),
        MISS_CATEGORIES.map((category) => [category, anatomy.counts[category]]),
      );
      assert.equal(state.anatomy.coreLines, anatomy.coreLines);
      assert.equal(state.anatomy.categories[0]!.lines / state.anatomy.coreLines, state.recallAtBudget);
    },
  },
  {
    name: 'Scores state: compare mode (agent vs bm25) shows both explorers exactly as scoreOf scores them, then stops',
    run: async (api) => {
      await openDemoInstance(api);
      const updates = recorder.paintsOf('scores');
      try {
        api.store.select({ explorer: 'agent', compareWith: 'bm25' });
        const state = buildScoresState(api.model);
        const compare = state.compare;
        assert.ok(compare, 'the state has a compare section');
        assert.equal(compare.a.explorer, 'agent');
        assert.equal(compare.b.explorer, 'bm25');
        assert.ok(compare.a.hasRow && compare.b.hasRow);
        const a = api.model.scoreOf(INSTANCE, 'agent')!;
        const b = api.model.scoreOf(INSTANCE, 'bm25')!;
        assert.ok(a !== undefined && b !== undefined, 'both explorers are scored');
        assert.equal(compare.metrics.length, 17);
        for (const m of compare.metrics) {
          assert.equal(m.a, a[m.name], `A ${m.name}`);
          assert.equal(m.b, b[m.name], `B ${m.name}`);
          assert.equal(m.delta, b[m.name] - a[m.name], `Δ ${m.name}`);
        }
        const compared = api.model.view!.compared!;
        assert.equal(compare.b.ndcgAtBudget, compared.explanation.ndcg.ndcg);
        assert.deepEqual(
          compare.b.anatomy!.categories.map((row) => row.lines),
          MISS_CATEGORIES.map((category) => compared.anatomy.counts[category]),
        );
        await until(() => recorder.paintsOf('scores') > updates, 'the Scores view to be sent the compare state');
      } finally {
        api.store.select({ compareWith: undefined });
      }
      assert.equal(buildScoresState(api.model).compare, null);
    },
  },
  {
    name: "Scores view: the webview's stopComparing message leaves compare mode",
    run: async (api) => {
      await openDemoInstance(api);
      api.store.select({ compareWith: 'localizer' });
      try {
        // The provider's receive path (validation + the extension's handler), as a click would reach it.
        const provider = api.scoresView as unknown as { receive(raw: unknown): void };
        provider.receive({ type: 'stopComparing', extra: '<b>' });
        assert.equal(api.store.selection.compareWith, undefined);
        api.store.select({ compareWith: 'localizer' });
        provider.receive({ type: 'stopcomparing' });
        assert.equal(api.store.selection.compareWith, 'localizer', 'a malformed message changes nothing');
      } finally {
        api.store.select({ compareWith: undefined });
      }
    },
  },
];
