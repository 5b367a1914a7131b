/**
 * The Leaderboard's protocol guards, its state built from a store, and the CSV / Markdown copies:
 * hostile explorer names stay text, missing macros stay missing, full precision in CSV.
 */
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { OFFICIAL_METRIC_NAMES } from '../../../src/core';
import { instanceLineCounts, LineCountCache, loadWorkspace, referencedPaths } from '../../../src/data';
import { buildLeaderboardState, leaderboardCsv, leaderboardMarkdown } from '../../../src/extension/leaderboard/leaderboardState';
import { InspectorModel } from '../../../src/extension/model/model';
import { Store } from '../../../src/extension/state/store';
import { LEADERBOARD_COLUMNS, leaderboardCaption, parseFromLeaderboardWebview, parseToLeaderboardWebview, type LeaderboardState } from '../../../src/shared/leaderboardProtocol';

const DEMO = path.resolve(__dirname, '..', '..', '..', 'demo');

async function demoState(counted: boolean): Promise<{ model: InspectorModel; state: LeaderboardState }> {
  const model = await loadWorkspace({ benchFile: path.join(DEMO, 'bench.jsonl'), predictionFiles: ['agent', 'bm25', 'localizer'].map((e) => path.join(DEMO, 'results', e, 'top5.jsonl')) });
  const store = new Store({ budget: 500, profile: 'official', topK: 5 });
  const derived = new InspectorModel(store);
  store.setData(model);
  if (counted) {
    const cache = new LineCountCache();
    const counts = new Map<string, ReadonlyMap<string, number>>();
    for (const entry of model.instances.values()) counts.set(entry.instanceId, (await instanceLineCounts(model, entry, referencedPaths(model, entry), cache)).counts);
    store.setLineCounts(counts, true);
  }
  return { model: derived, state: buildLeaderboardState(derived) };
}

test('the columns are the 17 official metrics, headline ones first', () => {
  assert.deepEqual([...LEADERBOARD_COLUMNS].sort(), [...OFFICIAL_METRIC_NAMES].sort());
  assert.deepEqual(LEADERBOARD_COLUMNS.slice(0, 4), ['precision', 'ndcg_at_500', 'hit_file_rate', 'context_efficiency']);
});

test('webview messages: only well-formed ones pass', () => {
  assert.deepEqual(parseFromLeaderboardWebview({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseFromLeaderboardWebview({ type: 'showMetric', explorer: 'bm25', metric: 'recall', extra: 1 }), { type: 'showMetric', explorer: 'bm25', metric: 'recall' });
  assert.equal(parseFromLeaderboardWebview({ type: 'showMetric', explorer: 'bm25', metric: 'toString' }), null);
  assert.equal(parseFromLeaderboardWebview({ type: 'copyLink', explorer: '', metric: 'recall' }), null);
  assert.equal(parseFromLeaderboardWebview({ type: 'openInstance', explorer: 'bm25', instanceId: 42 }), null);
  assert.equal(parseFromLeaderboardWebview({ type: 'copyTable', format: 'html' }), null);
  assert.equal(parseFromLeaderboardWebview({ type: 'rendered', explorers: -1 }), null);
  assert.equal(parseFromLeaderboardWebview(null), null);
  assert.equal(parseFromLeaderboardWebview(['ready']), null);
});

test('the demo state passes its own guard; broken states do not', async () => {
  const { state } = await demoState(true);
  assert.equal(state.status, 'ready');
  assert.equal(state.explorers.length, 3);
  assert.deepEqual(parseToLeaderboardWebview(JSON.parse(JSON.stringify({ type: 'state', state }))), { type: 'state', state });
  const broken = JSON.parse(JSON.stringify(state)) as { explorers: { values: Record<string, unknown>; anatomy: { counts: Record<string, unknown> } }[] };
  broken.explorers[0]!.values['recall'] = 'NaN';
  assert.equal(parseToLeaderboardWebview({ type: 'state', state: broken }), null);
  const noCounts = JSON.parse(JSON.stringify(state)) as typeof broken;
  delete noCounts.explorers[1]!.anatomy.counts['inverted'];
  assert.equal(parseToLeaderboardWebview({ type: 'state', state: noCounts }), null);
  assert.equal(parseToLeaderboardWebview({ type: 'state', state: { ...state, profile: 'other' } }), null);
  // The anatomy lines of each explorer sum to its core lines.
  for (const row of state.explorers)
    assert.equal(
      Object.values(row.anatomy.counts).reduce((a, b) => a + b, 0),
      row.anatomy.coreLines,
    );
});

test('before any line count: macros missing (null), not zero; the caption says counting', async () => {
  const { state } = await demoState(false);
  for (const row of state.explorers) {
    assert.equal(row.values, null);
    assert.equal(row.instances, 0);
    assert.equal(row.expected, 3);
  }
  assert.match(leaderboardCaption(state), /counting… 0\/3/);
  assert.match(leaderboardCaption(state), /ground truth as written/);
  const csv = leaderboardCsv(state).split('\r\n');
  assert.equal(csv[1], `agent,0,3${','.repeat(17)}`);
  assert.match(leaderboardMarkdown(state), /\| agent \| 0 of 3 \| — \|/);
});

test('CSV has full precision and neutralised names; Markdown escapes names and shows 3 decimals', async () => {
  const { state } = await demoState(true);
  const hostile = '=HYPERLINK("x")|**b**\\[l](command:x)';
  const row = state.explorers[0]!;
  const withHostile: LeaderboardState = { ...state, explorers: [{ ...row, explorer: hostile }] };
  const csv = leaderboardCsv(withHostile).split('\r\n');
  assert.equal(csv[0], ['explorer', 'instances', 'expected', ...LEADERBOARD_COLUMNS].join(','));
  assert.ok(csv[1]!.startsWith(`"'=HYPERLINK(""x"")|**b**\\[l](command:x)",3,3,${String(row.values!.precision)},`), csv[1]);
  assert.equal(csv[1]!.split(',').length, 3 + 17);

  const md = leaderboardMarkdown(withHostile);
  const lines = md.trim().split('\n');
  assert.match(lines[0]!, /profile official/);
  assert.match(lines[0]!, /top\\-5/);
  const body = lines[4]!;
  // The name's `|` cannot end its cell: every cell border is " | " and the escaped pipe is "\|".
  assert.ok(body.startsWith('| \\=HYPERLINK\\(\\"x\\"\\)\\|\\*\\*b\\*\\*\\\\\\[l\\]\\(command\\:x\\) | 3 | '), body);
  assert.equal(body.split(' | ').length, 2 + 17);
  assert.ok(body.includes(` ${row.values!.precision.toFixed(3)} `));
});

test('per-repo rows travel only for what the webview shows (layout message)', async () => {
  assert.deepEqual(parseFromLeaderboardWebview({ type: 'layout', expanded: ['agent'], matrix: false }), { type: 'layout', expanded: ['agent'], matrix: false });
  assert.equal(parseFromLeaderboardWebview({ type: 'layout', expanded: 'agent', matrix: false }), null);
  assert.equal(parseFromLeaderboardWebview({ type: 'layout', expanded: [3], matrix: false }), null);
  assert.equal(parseFromLeaderboardWebview({ type: 'layout', expanded: [], matrix: 'yes' }), null);
  const { model, state } = await demoState(true);
  for (const row of state.explorers) {
    assert.deepEqual(row.repos, [], `${row.explorer}: no repo rows by default`);
    assert.ok(row.repoCount >= 1, `${row.explorer} says how many repos it has`);
  }
  const expanded = buildLeaderboardState(model, null, { expanded: new Set(['agent']), matrix: false });
  for (const row of expanded.explorers) assert.equal(row.repos.length, row.explorer === 'agent' ? row.repoCount : 0, row.explorer);
  const matrix = buildLeaderboardState(model, null, { expanded: new Set(), matrix: true });
  for (const row of matrix.explorers) assert.equal(row.repos.length, row.repoCount, `${row.explorer} in the matrix`);
  assert.deepEqual(parseToLeaderboardWebview(JSON.parse(JSON.stringify({ type: 'state', state: matrix }))), { type: 'state', state: matrix });
});
