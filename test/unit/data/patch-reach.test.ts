/**
 * Patch reach over a workspace (src/data/workspace/patchReach.ts and the leaderboard's column): the
 * same numbers as `swe-explore misses`' patch_lines / patch_hit, on the demo (counted by hand from
 * its patches) and on the real records (psf__requests-6028 with CoSIL).
 */
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { missAnatomy, patchAnatomy, patchReachSummary, prepareGroundTruth, preparePredictions, type PreparedGroundTruth } from '../../../src/core';
import {
  goldPatchLines,
  instanceLineCounts,
  leaderboardOfModel,
  leaderboardPatchReach,
  LineCountCache,
  loadWorkspace,
  missesOfWorkspaceModel,
  referencedPaths,
  rowPatchReach,
  topK,
  type InstanceEntry,
  type WorkspaceModel,
} from '../../../src/data';
import { sharedPath } from '../support/shared-data';

const DEMO = path.resolve(__dirname, '..', '..', '..', 'demo');

async function preparedAll(model: WorkspaceModel): Promise<Map<string, PreparedGroundTruth>> {
  const cache = new LineCountCache();
  const out = new Map<string, PreparedGroundTruth>();
  for (const entry of model.instances.values()) {
    const { counts } = await instanceLineCounts(model, entry, referencedPaths(model, entry), cache);
    out.set(entry.instanceId, prepareGroundTruth(entry.groundTruth, counts, 'official'));
  }
  return out;
}

async function assertColumnEqualsMisses(model: WorkspaceModel, budget: number): Promise<void> {
  const prepared = await preparedAll(model);
  const column = leaderboardPatchReach(model, (entry: InstanceEntry) => prepared.get(entry.instanceId), { k: 5, budget });
  const misses = await missesOfWorkspaceModel(model, { profile: 'official', k: 5, budget }, new LineCountCache());
  assert.deepEqual(
    column.map((c) => c.explorer),
    [...model.explorers.keys()],
  );
  for (const total of misses.totals) {
    const mine = column.find((c) => c.explorer === total.explorer)!;
    assert.deepEqual({ patchLines: mine.patchLines, reachedLines: mine.reachedLines }, total.patchTotals ?? { patchLines: 0, reachedLines: 0 }, total.explorer);
    const rows = misses.rows.filter((r) => r.explorer === total.explorer && r.patch !== null);
    assert.equal(mine.instances, rows.length);
    assert.deepEqual(
      mine.rows.map((r) => [r.instanceId, r.patchLines, r.reachedLines, r.firstRank, r.ranks]),
      rows.map((r) => [r.instanceId, r.patch!.patchLines, r.patch!.reachedLines, r.patch!.firstRank, r.patch!.ranks]),
    );
  }
}

test('demo: the patch-reach column equals misses; tinyhttp-7 agent reaches 6 of 9 patch lines by #1 and #2', async () => {
  const model = await loadWorkspace({ benchFile: path.join(DEMO, 'bench.jsonl'), predictionFiles: ['agent', 'bm25', 'localizer'].map((e) => path.join(DEMO, 'results', e, 'top5.jsonl')) });
  for (const budget of [20, 100, 500]) await assertColumnEqualsMisses(model, budget);
  const prepared = await preparedAll(model);
  const board = leaderboardOfModel(model, (entry) => prepared.get(entry.instanceId), { k: 5, budget: 500 });
  const agent = board.patchReach.find((c) => c.explorer === 'agent')!;
  assert.deepEqual([agent.instances, agent.reachedLines, agent.patchLines], [3, 8, 11]);
  assert.deepEqual(
    agent.rows.find((r) => r.instanceId === 'acme__tinyhttp-7'),
    { instanceId: 'acme__tinyhttp-7', patchLines: 9, reachedLines: 6, firstRank: 1, ranks: [1, 2] },
  );
  // The per-row detail: the missed lines are request.py 8 and 102 and utils.py 10.
  const entry = model.instances.get('acme__tinyhttp-7')!;
  const reach = rowPatchReach(prepared.get(entry.instanceId)!, model.explorers.get('agent')!.rows.get(entry.instanceId)!, goldPatchLines(entry), 5, 500)!;
  assert.deepEqual(reach.missed, [
    { path: 'tinyhttp/request.py', start: 8, end: 8 },
    { path: 'tinyhttp/request.py', start: 102, end: 102 },
    { path: 'tinyhttp/utils.py', start: 10, end: 10 },
  ]);
  assert.equal(patchReachSummary(reach), 'gold patch lines: 6/9 within B=500 by #1, #2');
});

test('goldPatchLines: null without a patch text, an empty set for a patch that only creates files', () => {
  const entry = (patch: unknown): InstanceEntry => ({ record: { patch } }) as unknown as InstanceEntry;
  assert.equal(goldPatchLines(entry(undefined)), null);
  assert.equal(goldPatchLines(entry(null)), null);
  assert.equal(goldPatchLines(entry('  \n')), null);
  assert.equal(goldPatchLines(entry(['--- /dev/null', '+++ b/new.py', '@@ -0,0 +1 @@', '+x'].join('\n')))!.size, 0);
});

test('real records: CoSIL misses the line psf__requests-6028 edits in prepend_scheme_if_needed; the column equals misses', async (t) => {
  const real = sharedPath('real-workspace');
  if (real === undefined) {
    t.skip('../shared/real-workspace is absent; the real-record check is not run');
    return;
  }
  const model = await loadWorkspace({ benchFile: path.join(real, 'bench.jsonl'), predictionFiles: [path.join(real, 'results', 'cosil', 'top5.jsonl')] });
  await assertColumnEqualsMisses(model, 500);
  const entry = model.instances.get('psf__requests-6028')!;
  const prepared = (await preparedAll(model)).get(entry.instanceId)!;
  const row = model.explorers.get('cosil')!.rows.get(entry.instanceId)!;
  const patchLines = goldPatchLines(entry)!;
  // The patch inserts four lines after base line 976 (context 974–976 in the hunk "@@ -974,6 +974,10 @@ def
  // prepend_scheme_if_needed"): one anchor line. CoSIL's utils.py ranges are #2 811–834 and #3 837–861.
  assert.deepEqual([...patchLines], [['requests/utils.py', [[976, 976]]]]);
  const reach = rowPatchReach(prepared, row, patchLines, 5, 500)!;
  assert.deepEqual(
    { patchLines: reach.patchLines, reachedLines: reach.reachedLines, firstRank: reach.firstRank, missed: reach.missed },
    {
      patchLines: 1,
      reachedLines: 0,
      firstRank: null,
      missed: [{ path: 'requests/utils.py', start: 976, end: 976 }],
    },
  );
  assert.equal(patchReachSummary(reach), 'gold patch lines: 0/1 within B=500, none reached');
  // In the anatomy the anchor sits among the whole-file core's "file predicted, wrong lines".
  const marker = patchAnatomy(missAnatomy(preparePredictions(prepared, topK(row.regions, 5)), 500), patchLines);
  assert.equal(marker.counts.wrong_region, 1);
  assert.equal(marker.outsideCore, 0);
});
