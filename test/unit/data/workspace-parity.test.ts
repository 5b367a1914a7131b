/**
 * One workspace model for the CLI and the extension: the same folder, loaded through the CLI's
 * path (`scoreWorkspace`, what `swe-explore score` prints) and through the extension's store (the
 * shared loader, then line counts as the extension reads them), gives identical explorer labels,
 * identical per-instance values and identical macro averages.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { OFFICIAL_METRIC_NAMES } from '../../../src/core';
import { instanceLineCounts, LineCountCache, loadWorkspace, referencedPaths } from '../../../src/data';
import { scoreWorkspace } from '../../../src/cli/scoreWorkspace';
import { InspectorModel } from '../../../src/extension/model/model';
import { Store } from '../../../src/extension/state/store';

const DEMO = path.resolve(__dirname, '..', '..', '..', 'demo');

/** The demo workspace plus a second file of the agent explorer (a top-10 run beside the top-5 one). */
function workspaceWithTwoRunsOfOneExplorer(): { bench: string; preds: string[] } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-parity-'));
  cpSync(DEMO, root, { recursive: true });
  cpSync(path.join(root, 'results', 'agent', 'top5.jsonl'), path.join(root, 'results', 'agent', 'top10.jsonl'));
  const preds = ['agent/top10.jsonl', 'agent/top5.jsonl', 'bm25/top5.jsonl', 'localizer/top5.jsonl'].map((p) => path.join(root, 'results', p));
  return { bench: path.join(root, 'bench.jsonl'), preds };
}

for (const profile of ['official', 'snapshot'] as const) {
  test(`CLI and extension agree on labels, per-instance values and macro averages (${profile})`, async () => {
    const { bench, preds } = workspaceWithTwoRunsOfOneExplorer();
    const cli = await scoreWorkspace({ benchFile: bench, predictionFiles: preds, profile, k: 5, budgets: [], keepEmptyCore: false });

    const model = await loadWorkspace({ benchFile: bench, predictionFiles: preds });
    const store = new Store({ budget: 500, profile, topK: 5 });
    const derived = new InspectorModel(store);
    store.setData(model);
    const cache = new LineCountCache();
    const counts = new Map<string, ReadonlyMap<string, number>>();
    for (const entry of model.instances.values()) counts.set(entry.instanceId, (await instanceLineCounts(model, entry, referencedPaths(model, entry), cache)).counts);
    store.setLineCounts(counts, true);

    const cliLabels = cli.summaries.map((s) => s.explorer).sort();
    assert.deepEqual(cliLabels, ['agent (results/agent/top10.jsonl)', 'agent (results/agent/top5.jsonl)', 'bm25', 'localizer']);
    assert.deepEqual(store.explorers, cliLabels);

    for (const row of cli.rows) {
      const fromStore = derived.scoreOf(row.instanceId, row.explorer);
      assert.ok(fromStore !== undefined, `${row.instanceId} ${row.explorer}`);
      for (const name of OFFICIAL_METRIC_NAMES) assert.equal(fromStore[name], row.metrics[name], `${row.instanceId} ${row.explorer} ${name}`);
    }
    for (const summary of cli.summaries) {
      const macro = derived.macros.get(summary.explorer)!;
      assert.equal(macro.instances, summary.instances);
      assert.equal(macro.expected, summary.instances);
      for (const name of OFFICIAL_METRIC_NAMES) assert.equal(macro.macro[name], summary.macro[name], `${summary.explorer} ${name}`);
    }
    // Two files of one explorer are never averaged together: each has the demo's 3 instances.
    assert.equal(cli.summaries.find((s) => s.explorer.endsWith('top10.jsonl)'))!.instances, 3);
  });
}
