/**
 * The explorer's own runs in the extension's model (issue 19), on the demo (agent's runs in
 * demo/results/agent/trajs): the background reads the slices share, the open instance's run slice
 * (read once, "seen but not reported" lines), the viewed layer's plan and labels, the Scores view's
 * seen shares and run summary, the leaderboard's run columns equal to `misses --explorer-trajs`'
 * totals, token columns from `token_usage`, and the real OpenCode fixture's note in the Scores view.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { indexExplorerRuns, instanceLineCounts, LineCountCache, loadWorkspace, missesOfWorkspaceModel, referencedPaths, type ExplorerRunIndex, type WorkspaceModel } from '../../../src/data';
import { planLayers } from '../../../src/extension/editor/layerPlan';
import { buildLeaderboardState } from '../../../src/extension/leaderboard/leaderboardState';
import { BackgroundReads } from '../../../src/extension/model/backgroundReads';
import { InspectorModel } from '../../../src/extension/model/model';
import { EXPLORER_RUN } from '../../../src/extension/model/slices/explorerRun';
import { MISSED_SPANS } from '../../../src/extension/model/slices/missedSpans';
import { buildScoresState } from '../../../src/extension/scores/scoresState';
import { Store } from '../../../src/extension/state/store';
import { parseToLeaderboardWebview } from '../../../src/shared/leaderboardProtocol';
import { sharedPath } from '../support/shared-data';

const DEMO = path.resolve(__dirname, '..', '..', '..', 'demo');
const EXPLORERS = ['agent', 'bm25', 'localizer'];
const LAYERS = {
  core: true,
  optional: true,
  hiddenOptionalModels: [],
  predictions: true,
  missed: true,
  patch: true,
  consensus: true,
  promoted: true,
  viewed: true,
  whatIf: true,
  rangedReads: true,
  codeLens: true,
};

async function counted(model: WorkspaceModel, store: Store): Promise<void> {
  const cache = new LineCountCache();
  const counts = new Map<string, ReadonlyMap<string, number>>();
  for (const entry of model.instances.values()) counts.set(entry.instanceId, (await instanceLineCounts(model, entry, referencedPaths(model, entry), cache)).counts);
  store.setLineCounts(counts, true);
}

/**
 * A copy of the demo without its repair runs (whatever the demo ships), and one repair run of
 * acme__inventory-101 to put where a test wants it: it greps for `release` at step 1, then reads
 * stock.py 100–140 at step 3.
 */
function demoWithoutRepairRuns(prefix: string): { root: string; run: { info: Record<string, unknown>; traj: unknown[] } } {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(DEMO, root, { recursive: true });
  rmSync(path.join(root, 'trajs'), { recursive: true, force: true });
  const run = {
    info: { instance_id: 'acme__inventory-101', model: 'claude-sonnet-4-5', config: { environment: { cwd: '/testbed' } } },
    traj: [
      { role: 'user', content: 'fix release()' },
      { role: 'assistant', content: 'THOUGHT: where is it?\n\n```bash\ngrep -rn "def release" inventory\n```' },
      { role: 'user', content: 'inventory/stock.py:123:    def release(self, reservation_id: str, reason: str = "") -> Reservation:' },
      { role: 'assistant', content: "THOUGHT: read it.\n\n```bash\nsed -n '100,140p' inventory/stock.py\n```" },
      { role: 'user', content: '...' },
    ],
  };
  return { root, run };
}

/** The demo loaded as the extension loads it: agent's trajs/ indexed beside its prediction file. */
async function demo(): Promise<{ model: InspectorModel; data: WorkspaceModel; runs: ExplorerRunIndex }> {
  const data = await loadWorkspace({ benchFile: path.join(DEMO, 'bench.jsonl'), predictionFiles: EXPLORERS.map((e) => path.join(DEMO, 'results', e, 'top5.jsonl')) });
  const runs = await indexExplorerRuns(path.join(DEMO, 'results', 'agent', 'trajs'), (id) => data.instances.has(id));
  const store = new Store({ budget: 500, profile: 'official', topK: 5 });
  const model = new InspectorModel(store);
  store.setData(data, new Map([['agent', runs]]));
  await counted(data, store);
  return { model, data, runs };
}

describe('BackgroundReads: one read per key, shared by slices and walks', () => {
  it('answers pending, then the value; onDone for every pending asker; clear drops reads in flight', async () => {
    const reads = new BackgroundReads();
    let loads = 0;
    let release: (v: number) => void = () => undefined;
    const load = (): Promise<number> => {
      loads++;
      return new Promise<number>((resolve) => (release = resolve));
    };
    let done = 0;
    assert.deepEqual(
      reads.get(
        'k',
        load,
        () => -1,
        () => done++,
      ),
      { done: false },
    );
    const shared = reads.read('k', load, () => -1);
    assert.deepEqual(
      reads.get(
        'k',
        load,
        () => -1,
        () => done++,
      ),
      { done: false },
    );
    release(7);
    assert.equal(await shared, 7);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(loads, 1);
    assert.equal(done, 2);
    assert.deepEqual(reads.peek('k'), { done: true, value: 7 });
    assert.equal(reads.settled, 1);
    const failing = await reads.read(
      'bad',
      () => Promise.reject(new Error('no')),
      (e) => (e instanceof Error ? e.message.length : 0),
    );
    assert.equal(failing, 2);
    let late: (v: number) => void = () => undefined;
    const inFlight = reads.read(
      'late',
      () => new Promise<number>((resolve) => (late = resolve)),
      () => -1,
    );
    reads.clear();
    late(1);
    await inFlight;
    assert.deepEqual(reads.peek('late'), { done: false }, 'a read started before clear lands nowhere');
    assert.equal(reads.settled, 0);
  });
});

describe("the open instance's explorer run (demo, agent)", () => {
  it('is read in the background once, and says which missed lines it saw; opening adds well under 100 ms', async () => {
    const { model } = await demo();
    const { store } = model;
    // CPU time, not wall time: other test files run beside this one on a shared 2-core machine.
    const started = process.cpuUsage();
    await model.prefetchRuns('acme__inventory-101', ['agent']);
    const used = process.cpuUsage(started);
    const prefetchMs = (used.user + used.system) / 1000;
    store.select({ instanceId: 'acme__inventory-101', explorer: 'agent' });
    const run = model.slice(EXPLORER_RUN);
    assert.equal(run?.kind, 'loaded');
    if (run?.kind !== 'loaded') return;
    assert.deepEqual(run.seenMissed?.get('inventory/stock.py'), [[122, 122]]);
    assert.deepEqual(run.seenMissed?.get('inventory/models.py'), [[60, 63]]);
    assert.equal(run.seen?.seenMissed, 5);
    assert.ok(prefetchMs < 100, `reading the run before opening took ${prefetchMs.toFixed(1)} ms of CPU`);
    console.log(`demo run of acme__inventory-101 read in ${prefetchMs.toFixed(1)} ms`);

    // The viewed layer: a glyph on the lines the run viewed, and on stock.py's missed span a "seen" label.
    const view = model.view!;
    const plan = planLayers({
      view,
      path: 'inventory/stock.py',
      lineCount: 400,
      layers: LAYERS,
      missedSpans: model.slice(MISSED_SPANS),
      provenance: undefined,
      compare: undefined,
      drifted: new Set(),
      viewed: run.run.viewed,
      readSteps: undefined,
    });
    assert.ok(plan.viewed.some((m) => m.start <= 122 && 122 <= m.end));
    assert.deepEqual(
      plan.viewedLabel.find((m) => m.start === 122),
      { start: 122, end: 122, label: "◉ seen at step 4 (`nl -ba inventory/stock.py | sed -n '100,140p'`), not reported" },
    );
    const off = planLayers({
      view,
      path: 'inventory/stock.py',
      lineCount: 400,
      layers: { ...LAYERS, viewed: false },
      missedSpans: undefined,
      provenance: undefined,
      compare: undefined,
      drifted: new Set(),
      viewed: run.run.viewed,
      readSteps: undefined,
    });
    assert.equal(off.viewed.length + off.viewedLabel.length, 0, 'the setting turns the layer off');
    const tests = planLayers({
      view,
      path: 'tests/test_stock.py',
      lineCount: 400,
      layers: LAYERS,
      missedSpans: undefined,
      provenance: undefined,
      compare: undefined,
      drifted: new Set(),
      viewed: run.run.viewed,
      readSteps: undefined,
    });
    assert.ok(tests.viewedLabel.length > 0 && tests.viewedLabel.every((m) => m.label === '○ never viewed (the run never opened this file)'));

    // The Scores view: the seen share per category, the run summary, missed spans with both runs' words.
    const scores = buildScoresState(model);
    const seen = Object.fromEntries((scores.anatomy?.categories ?? []).map((c) => [c.category, c.seen]));
    assert.equal(seen['wrong_region'], 5);
    const summary = scores.anatomy?.run;
    assert.ok(summary?.loaded);
    assert.match(
      summary.text,
      /^agent's run \(results\/agent\/trajs\/acme__inventory-101\.traj\.json, mini-swe-agent-1\): \d+ steps, \d+ reads, \d+ lines viewed; it viewed 5 of its 69 missed core lines$/,
    );
    assert.deepEqual(
      summary.spans.slice(0, 2).map((s) => [s.path, s.start, s.end, s.viewing]),
      [
        ['inventory/models.py', 60, 63, "seen at step 6 (`sed -n '60,85p' inventory/models.py`), not reported"],
        ['inventory/stock.py', 122, 122, "seen at step 4 (`nl -ba inventory/stock.py | sed -n '100,140p'`), not reported"],
      ],
    );
    // The demo's repair runs (demo/trajs): after they are read, each missed span says how each run got there.
    await model.prefetchRuns('acme__inventory-101', ['agent']);
    const arrivals = buildScoresState(model).anatomy?.run?.spans.map((s) => s.arrivals) ?? [];
    assert.ok(arrivals.length > 0);
    for (const text of arrivals)
      for (const run of ['glm-4.6', 'google/gemini-3-pro-preview', 'anthropic/claude-sonnet-4-5']) assert.match(text, new RegExp(`${run.replace(/[./-]/g, '\\$&')} (read|found) it at step \\d+`));
    assert.ok(arrivals.some((text) => /found it at step 5 with `grep -n /.test(text)));
  });

  it('an explorer without a run folder has no run; bm25 compare side B carries none', async () => {
    const { model } = await demo();
    model.store.select({ instanceId: 'acme__inventory-101', explorer: 'bm25' });
    assert.deepEqual(model.slice(EXPLORER_RUN), { kind: 'no-folder', explorer: 'bm25' });
    assert.equal(buildScoresState(model).anatomy?.run, null);
  });
});

describe('how the repair runs got to a missed line, in the Scores view and the hover data', () => {
  it('names the first read and the search step before it, per cited run; runs not found say so', async () => {
    // A copy of the demo with one of the repair runs its records cite, where the record says it is.
    const { root, run } = demoWithoutRepairRuns('swe-runs-repair-');
    mkdirSync(path.join(root, 'trajs', 'demo', 'claude-sonnet-4-5'), { recursive: true });
    writeFileSync(path.join(root, 'trajs', 'demo', 'claude-sonnet-4-5', 'acme__inventory-101__0.json'), JSON.stringify(run));
    const data = await loadWorkspace({ benchFile: path.join(root, 'bench.jsonl'), predictionFiles: [path.join(root, 'results', 'agent', 'top5.jsonl')] });
    const runs = await indexExplorerRuns(path.join(root, 'results', 'agent', 'trajs'), (id) => data.instances.has(id));
    const store = new Store({ budget: 500, profile: 'official', topK: 5 });
    const model = new InspectorModel(store);
    store.setData(data, new Map([['agent', runs]]));
    await counted(data, store);
    await model.prefetchRuns('acme__inventory-101', ['agent']);
    store.select({ instanceId: 'acme__inventory-101', explorer: 'agent' });
    const span = buildScoresState(model).anatomy?.run?.spans.find((s) => s.path === 'inventory/stock.py' && s.start === 122);
    // In the order the record first cites the runs.
    assert.equal(span?.arrivals, 'glm-4.6: run not loaded; gemini-3-pro-preview: run not loaded; claude-sonnet-4-5 found it at step 3 after `grep -rn "def release" inventory` (step 1)');
  });

  it('finds the runs where sweExplore.data.trajectoryRoots / trajectoryTemplates say (the runs the Trajectory view loads)', async () => {
    const { root, run } = demoWithoutRepairRuns('swe-runs-roots-');
    // Not under the bench file's folder: under another root, and the gemini run through a template.
    const elsewhere = path.join(root, 'elsewhere');
    mkdirSync(path.join(elsewhere, 'trajs', 'demo', 'claude-sonnet-4-5'), { recursive: true });
    writeFileSync(path.join(elsewhere, 'trajs', 'demo', 'claude-sonnet-4-5', 'acme__inventory-101__0.json'), JSON.stringify(run));
    mkdirSync(path.join(root, 'by-model', 'gemini'), { recursive: true });
    writeFileSync(path.join(root, 'by-model', 'gemini', 'acme__inventory-101.json'), JSON.stringify({ ...run, info: { ...run.info, model: 'gemini-3-pro-preview' } }));
    const data = await loadWorkspace({ benchFile: path.join(root, 'bench.jsonl'), predictionFiles: [path.join(root, 'results', 'agent', 'top5.jsonl')] });
    const runs = await indexExplorerRuns(path.join(root, 'results', 'agent', 'trajs'), (id) => data.instances.has(id));
    const arrivalsWith = async (sources: { roots: string[]; templates: [string, string][] }): Promise<string | undefined> => {
      const store = new Store({ budget: 500, profile: 'official', topK: 5, trajectorySources: JSON.stringify({ ...sources, reports: [] }) });
      const model = new InspectorModel(store);
      store.setData(data, new Map([['agent', runs]]));
      await counted(data, store);
      await model.prefetchRuns('acme__inventory-101', ['agent']);
      store.select({ instanceId: 'acme__inventory-101', explorer: 'agent' });
      return buildScoresState(model).anatomy?.run?.spans.find((s) => s.path === 'inventory/stock.py' && s.start === 122)?.arrivals;
    };
    assert.equal(await arrivalsWith({ roots: [], templates: [] }), 'repair runs not loaded');
    assert.equal(
      await arrivalsWith({ roots: [elsewhere], templates: [['gemini-3-pro-preview', 'by-model/gemini/{instance_id}.json']] }),
      'glm-4.6: run not loaded; gemini-3-pro-preview found it at step 3 after `grep -rn "def release" inventory` (step 1); claude-sonnet-4-5 found it at step 3 after `grep -rn "def release" inventory` (step 1)',
    );
  });
});

describe("the leaderboard's run and token columns", () => {
  it("equal misses --explorer-trajs' totals once the runs are read", async () => {
    const { model, data, runs } = await demo();
    const before = buildLeaderboardState(model).explorers.find((e) => e.explorer === 'agent')!;
    assert.equal(before.runs?.pending, 3, 'nothing read yet: three runs pending');
    assert.equal(model.seenMissedOf('acme__inventory-101', 'agent'), undefined, 'the query column is missing until the run is read');
    await model.readExplorerRuns(() => false);
    // The query column `seen_missed` per row, as misses --explorer-trajs counts it.
    assert.deepEqual(
      ['acme__inventory-101', 'acme__inventory-102', 'acme__tinyhttp-7'].map((id) => model.seenMissedOf(id, 'agent')),
      [5, 5, 3],
    );
    assert.equal(model.seenMissedOf('acme__inventory-101', 'bm25'), undefined, 'no runs: missing, not zero');
    const state = buildLeaderboardState(model);
    assert.ok(parseToLeaderboardWebview({ type: 'state', state }) !== null, 'the state passes the webview guard');
    const agent = state.explorers.find((e) => e.explorer === 'agent')!;
    const misses = await missesOfWorkspaceModel(data, { profile: 'official', k: 5, budget: 500, explorerRuns: { runs: new Map([['agent', runs]]), fullRuns: true } }, new LineCountCache());
    const totals = misses.totals.find((t) => t.explorer === 'agent')!.seenTotals!;
    assert.deepEqual([agent.runs?.runs, agent.runs?.pending, agent.runs?.seenMissed, agent.runs?.missed], [totals.runs, 0, totals.seenMissed, totals.missed]);
    assert.deepEqual([agent.runs?.seenMissed, agent.runs?.missed], [13, 105]);
    const lengths = misses.rows.filter((r) => r.explorer === 'agent' && r.seen).map((r) => r.seen!.length.steps);
    assert.equal(agent.runs?.meanSteps, lengths.reduce((a, b) => a + b, 0) / lengths.length, 'run lengths are whole-run means, as misses with every read extracted');
    assert.equal(state.explorers.find((e) => e.explorer === 'bm25')?.runs, null);
    assert.ok(
      state.explorers.every((e) => e.tokens === null),
      'no demo row carries token_usage',
    );
  });

  it('tokens per instance and per core line hit, from the rows that carry token_usage', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'swe-runs-model-'));
    const rows = ['acme__inventory-101', 'acme__inventory-102'].map((id, i) => ({
      instance_id: id,
      explorer: 'spent',
      regions: [{ path: 'inventory/stock.py', start: 1, end: 60 }],
      token_usage: { total: 1000 * (i + 1) },
    }));
    writeFileSync(path.join(root, 'top5.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const data = await loadWorkspace({ benchFile: path.join(DEMO, 'bench.jsonl'), predictionFiles: [path.join(root, 'top5.jsonl')] });
    const store = new Store({ budget: 500, profile: 'official', topK: 5 });
    const model = new InspectorModel(store);
    store.setData(data);
    await counted(data, store);
    const spent = buildLeaderboardState(model).explorers.find((e) => e.explorer === 'spent')!;
    const hit = model.leaderboard(500).anatomy.find((a) => a.explorer === 'spent')!.totals.hit;
    assert.deepEqual(spent.tokens, { rows: 2, meanTokens: 1500, tokensPerHitLine: hit === 0 ? null : 3000 / hit });
  });
});

describe('the real OpenCode fixture as an explorer run in the extension', () => {
  const fixture = sharedPath('real-trajs/opencode-events/opencode_events.jsonl');
  it('its reads are seen lines and the Scores view says sub-agent reads are absent from the stream', { skip: fixture === undefined ? '../shared/real-trajs is not available' : false }, async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'swe-runs-opencode-'));
    const repo = path.join(root, 'repos', 'probe__render-1');
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    writeFileSync(path.join(repo, 'src', 'button.py'), 'def render():\n    return 1\n');
    writeFileSync(path.join(repo, 'src', 'theme.py'), 'x = 2\n');
    const record = {
      instance_id: 'probe__render-1',
      repo_dir: 'repos/probe__render-1',
      repo_path: '/testbed',
      ground_truth: { read_core_files: ['src/button.py'], read_core_regions: [{ path: 'src/button.py', start: 1, end: 2 }] },
    };
    writeFileSync(path.join(root, 'bench.jsonl'), `${JSON.stringify(record)}\n`);
    mkdirSync(path.join(root, 'results', 'oc', 'trajs'), { recursive: true });
    writeFileSync(path.join(root, 'results', 'oc', 'top5.jsonl'), `${JSON.stringify({ instance_id: 'probe__render-1', explorer: 'oc', regions: [{ path: 'src/theme.py', start: 1, end: 1 }] })}\n`);
    copyFileSync(fixture!, path.join(root, 'results', 'oc', 'trajs', 'probe__render-1.jsonl'));
    const data = await loadWorkspace({ benchFile: path.join(root, 'bench.jsonl'), predictionFiles: [path.join(root, 'results', 'oc', 'top5.jsonl')] });
    const runs = await indexExplorerRuns(path.join(root, 'results', 'oc', 'trajs'), (id) => data.instances.has(id));
    const store = new Store({ budget: 500, profile: 'official', topK: 5 });
    const model = new InspectorModel(store);
    store.setData(data, new Map([['oc', runs]]));
    await counted(data, store);
    await model.prefetchRuns('probe__render-1', ['oc']);
    store.select({ instanceId: 'probe__render-1', explorer: 'oc' });
    const run = model.slice(EXPLORER_RUN);
    assert.equal(run?.kind, 'loaded');
    if (run?.kind !== 'loaded') return;
    assert.equal(run.run.format, 'opencode-events');
    assert.deepEqual(run.seenMissed?.get('src/button.py'), [[1, 2]], 'the Read of button.py is seen; the file was not predicted');
    const summary = buildScoresState(model).anatomy?.run;
    assert.ok(
      summary?.notes.some((n) => /sub-agent reads are absent from the stream/.test(n)),
      JSON.stringify(summary),
    );
    assert.equal(summary?.spans[0]?.viewing.startsWith('seen at step'), true);
  });
});
