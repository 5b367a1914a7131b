/**
 * Explorer runs in the data layer (src/data/trajectories/explorerRuns.ts, src/data/workspace/
 * explorerSeen.ts, the leaderboard's run and token columns): the
 * folder layout, the demo's agent runs (seen counts pinned), the real OpenCode fixture as an explorer
 * run, repair runs found through `read_step_info` (as the extension's repair-run slice reads them), and the leaderboard equal to `misses` totals.
 */
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { lineArrivals, lineViewing, prepareGroundTruth, readCommandLine, repairRunIndex, viewedLineSet, type RepairRunSource } from '../../../src/core';
import {
  explorerRunInstance,
  explorerTrajectoryFolder,
  findExplorerTrajectoryFolder,
  indexExplorerRuns,
  isScored,
  LineCountCache,
  leaderboardExplorerRuns,
  leaderboardTokens,
  loadExplorerRun,
  citedRuns,
  DEFAULT_REPO_PATH,
  loadRun,
  locateRun,
  type RunLocator,
  loadWorkspace,
  missesOfWorkspaceModel,
  prepareScoredGroundTruths,
  seenOfRows,
  ExplorerRunPool,
  runJobHere,
  type ExplorerRunIndex,
  type ExplorerRunJob,
  type RowSeen,
} from '../../../src/data';
import { sharedPath } from '../support/shared-data';

const DEMO = path.resolve(__dirname, '..', '..', '..', 'demo');
const BENCH = path.join(DEMO, 'bench.jsonl');
const AGENT = path.join(DEMO, 'results', 'agent', 'top5.jsonl');

function tmp(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'swe-explorer-runs-'));
}

describe('indexExplorerRuns: <instance_id>.<ext> or <instance_id>/<file>', () => {
  it('maps files to bench instances, first in byte order wins, the rest is reported', async () => {
    const root = tmp();
    const folder = path.join(root, 'trajs');
    const write = (relative: string): void => {
      mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
      writeFileSync(path.join(folder, relative), '{}');
    };
    write('a__r-1.traj.json');
    write('a__r-1/second.jsonl');
    write('a__r-2__0.json');
    write('a__r-3/z.jsonl');
    write('a__r-3/b.traj');
    write('nobody.json');
    write('ghost/x.json');
    write('a__r-4/deep/x.json');
    write('a__r-4/notes.txt');
    writeFileSync(path.join(root, 'outside.json'), '{}');
    symlinkSync(path.join(root, 'outside.json'), path.join(folder, 'a__r-5.json'));
    const ids = new Set(['a__r-1', 'a__r-2', 'a__r-3', 'a__r-4', 'a__r-5']);
    const index = await indexExplorerRuns(folder, (id) => ids.has(id));
    assert.deepEqual(
      [...index.runs].map(([id, run]) => [id, run.relative, run.path]),
      [
        ['a__r-1', 'a__r-1.traj.json', `${folder}/a__r-1.traj.json`],
        ['a__r-2', 'a__r-2__0.json', `${folder}/a__r-2__0.json`],
        ['a__r-3', 'a__r-3/b.traj', `${folder}/a__r-3/b.traj`],
      ],
    );
    const codes = index.problems.map((p) => [p.code, path.relative(folder, p.file)]);
    assert.deepEqual(codes, [
      ['duplicate-row', 'a__r-1/second.jsonl'],
      ['duplicate-row', 'a__r-3/z.jsonl'],
      ['unknown-instance', 'ghost'],
      ['unknown-instance', 'nobody.json'],
      ['explorer-run-ignored', 'a__r-4/deep/x.json'],
    ]);
    assert.equal(explorerTrajectoryFolder(path.join(root, 'results', 'x', 'top5.jsonl')), path.join(root, 'results', 'x', 'trajs'));
    assert.equal(await findExplorerTrajectoryFolder(AGENT), path.join(DEMO, 'results', 'agent', 'trajs'));
    assert.equal(await findExplorerTrajectoryFolder(path.join(DEMO, 'results', 'bm25', 'top5.jsonl')), undefined);
  });
});

async function demoSeen(fullRuns: boolean): Promise<{ misses: Awaited<ReturnType<typeof missesOfWorkspaceModel>>; runs: ExplorerRunIndex }> {
  const model = await loadWorkspace({ benchFile: BENCH, predictionFiles: [AGENT, path.join(DEMO, 'results', 'bm25', 'top5.jsonl')] });
  const runs = await indexExplorerRuns(path.join(DEMO, 'results', 'agent', 'trajs'), (id) => model.instances.has(id));
  const misses = await missesOfWorkspaceModel(model, { profile: 'official', k: 5, budget: 500, explorerRuns: { runs: new Map([['agent', runs]]), fullRuns } }, new LineCountCache());
  return { misses, runs };
}

describe('the demo explorer "agent" has runs in two formats: seen counts pinned', () => {
  it('mini-swe-agent v1 and Claude Code stream-json runs, each instance viewed in part', async () => {
    const { misses, runs } = await demoSeen(false);
    assert.equal(runs.problems.length, 0);
    assert.deepEqual([...runs.runs.values()].map((r) => r.relative).sort(), ['acme__inventory-101.traj.json', 'acme__inventory-102.jsonl', 'acme__tinyhttp-7/run.traj.json']);
    const agent = misses.rows.filter((r) => r.explorer === 'agent');
    const pinned = agent.map((r) => [r.instanceId, r.seen?.anatomy.seen.hit, r.seen?.anatomy.seen.wrong_region, r.seen?.anatomy.seen.file_not_predicted, r.seen?.anatomy.viewedCoreLines]);
    assert.deepEqual(pinned, [
      ['acme__inventory-101', 74, 5, 0, 79],
      ['acme__inventory-102', 37, 0, 5, 42],
      ['acme__tinyhttp-7', 48, 3, 0, 51],
    ]);
    // In every instance some missed lines were viewed and some never were.
    for (const row of agent) assert.ok(row.seen!.anatomy.seenMissed > 0 && row.seen!.anatomy.seenMissed < row.seen!.anatomy.missed, row.instanceId);
    assert.ok(
      misses.rows.filter((r) => r.explorer === 'bm25').every((r) => r.seen === undefined),
      'explorers without runs are untouched',
    );
    const totals = misses.totals.find((t) => t.explorer === 'agent')!.seenTotals!;
    assert.deepEqual([totals.runs, totals.viewedCoreLines, totals.seenMissed, totals.missed], [3, 172, 13, 105]);
    assert.equal(misses.totals.find((t) => t.explorer === 'bm25')!.seenTotals, undefined);
  });

  it('the same seen counts when every read is extracted (fullRuns), with whole-run lengths', async () => {
    const [fast, full] = await Promise.all([demoSeen(false), demoSeen(true)]);
    const seen = (m: typeof fast.misses): unknown => m.rows.map((r) => r.seen?.anatomy);
    assert.deepEqual(seen(full.misses), seen(fast.misses));
    const lengths = full.misses.rows.filter((r) => r.seen).map((r) => r.seen!.length);
    assert.deepEqual(lengths, [
      { steps: 6, reads: 4, viewedLines: 98 },
      { steps: 8, reads: 5, viewedLines: 75 },
      { steps: 6, reads: 9, viewedLines: 113 },
    ]);
  });

  it('gives the sentences’ data for missed lines: seen at a step, never opened, other lines only', async () => {
    const model = await loadWorkspace({ benchFile: BENCH, predictionFiles: [AGENT] });
    const runs = await indexExplorerRuns(path.join(DEMO, 'results', 'agent', 'trajs'), (id) => model.instances.has(id));
    const { prepared } = await prepareScoredGroundTruths(model, { profile: 'official', k: 5 }, new LineCountCache());
    const viewed = async (id: string): Promise<NonNullable<Awaited<ReturnType<typeof loadExplorerRun>>['run']>> => {
      const entry = model.instances.get(id)!;
      return (await loadExplorerRun(runs.runs.get(id)!, explorerRunInstance(entry, prepared.get(id)!, entry.snapshotRoot))).run!;
    };
    const i101 = await viewed('acme__inventory-101');
    assert.deepEqual(lineViewing(i101.viewed, 'inventory/stock.py', 122), { kind: 'seen', step: 4, idiom: 'nl_pipe', command: "nl -ba inventory/stock.py | sed -n '100,140p'" });
    assert.deepEqual(lineViewing(i101.viewed, 'tests/test_stock.py', 57), { kind: 'never-opened', written: false });
    assert.deepEqual(lineViewing(i101.viewed, 'inventory/models.py', 10), { kind: 'other-lines', viewed: [[60, 85]] });
    const i102 = await viewed('acme__inventory-102');
    assert.equal(i102.format, 'claude-code-stream');
    assert.equal(i102.base, '/home/dev/acme-inventory');
    assert.deepEqual(lineViewing(i102.viewed, 'tests/conftest.py', 30), {
      kind: 'seen',
      step: 11,
      idiom: 'view_range',
      command: 'str_replace_editor view /home/dev/acme-inventory/tests/conftest.py --view_range 25 34',
    });
    assert.deepEqual(lineViewing(i102.viewed, 'tests/conftest.py', 36), { kind: 'other-lines', viewed: [[25, 34]] });
    const i7 = await viewed('acme__tinyhttp-7');
    assert.deepEqual(lineViewing(i7.viewed, 'tinyhttp/request.py', 3), {
      kind: 'other-lines',
      viewed: [
        [8, 8],
        [40, 105],
      ],
    });
    assert.equal(lineViewing(i7.viewed, 'tinyhttp/request.py', 90).kind, 'seen', 'a path holding "http" is viewed though the builder would drop it');
  });
});

describe('the real OpenCode fixture loads as an explorer run', () => {
  const fixture = sharedPath('real-trajs/opencode-events/opencode_events.jsonl');
  it('its read calls become seen lines; its sub-agent note is kept', { skip: fixture === undefined ? '../shared/real-trajs is not available' : false }, async () => {
    const root = tmp();
    const repo = path.join(root, 'repos', 'probe__render-1');
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    writeFileSync(path.join(repo, 'src', 'button.py'), 'def render():\n    return 1\n');
    writeFileSync(path.join(repo, 'src', 'theme.py'), 'x = 2\n');
    const record = { instance_id: 'probe__render-1', repo_path: '/testbed', ground_truth: { read_core_files: ['src/button.py'], read_core_regions: [{ path: 'src/button.py', start: 1, end: 2 }] } };
    writeFileSync(path.join(root, 'bench.jsonl'), `${JSON.stringify(record)}\n`);
    mkdirSync(path.join(root, 'results', 'oc', 'trajs'), { recursive: true });
    writeFileSync(path.join(root, 'results', 'oc', 'top5.jsonl'), `${JSON.stringify({ instance_id: 'probe__render-1', explorer: 'oc', regions: [{ path: 'src/theme.py', start: 1, end: 1 }] })}\n`);
    copyFileSync(fixture!, path.join(root, 'results', 'oc', 'trajs', 'probe__render-1.jsonl'));
    const model = await loadWorkspace({ benchFile: path.join(root, 'bench.jsonl'), predictionFiles: [path.join(root, 'results', 'oc', 'top5.jsonl')] });
    const runs = await indexExplorerRuns(path.join(root, 'results', 'oc', 'trajs'), (id) => model.instances.has(id));
    const entry = model.instances.get('probe__render-1')!;
    const groundTruth = prepareGroundTruth(entry.groundTruth, new Map([['src/button.py', 2]]), 'official');
    const loaded = await loadExplorerRun(runs.runs.get('probe__render-1')!, explorerRunInstance(entry, groundTruth, entry.snapshotRoot));
    const run = loaded.run!;
    assert.equal(run.format, 'opencode-events');
    assert.equal(run.baseSource, 'inferred', 'OpenCode logs name no working folder: the base comes from the read paths');
    assert.equal(run.base, '/repo');
    assert.deepEqual(
      [...viewedLineSet(run.viewed)],
      [
        ['src/button.py', [[1, 2]]],
        ['src/theme.py', [[1, 1]]],
      ],
    );
    assert.ok(
      run.notes.some((n) => /sub-agent reads are absent from the stream/.test(n)),
      run.notes.join('\n'),
    );
    const misses = await missesOfWorkspaceModel(model, { profile: 'official', k: 5, budget: 500, explorerRuns: { runs: new Map([['oc', runs]]) } }, new LineCountCache());
    assert.deepEqual(misses.rows[0]!.seen?.anatomy.seen, { hit: 0, beyond_budget: 0, path_mismatch: 0, inverted: 0, wrong_region: 0, file_not_predicted: 2 });
  });
});

/**
 * The repair runs a record cites, each found with the run locator, read with the builder's rules and
 * indexed for arrivals: what the extension's TRAJECTORY_RUNS and REPAIR_RUNS slices do in turn.
 */
async function repairRunSources(
  instanceId: string,
  readStepInfo: Parameters<typeof citedRuns>[0],
  snapshotRoot: string,
  lineCount: (p: string) => number | undefined,
  locator: RunLocator,
): Promise<{ runs: RepairRunSource[]; problems: string[] }> {
  const runs: RepairRunSource[] = [];
  const problems: string[] = [];
  for (const trajPath of citedRuns(readStepInfo)) {
    const model = trajPath.split('/')[1] ?? '';
    const located = await locateRun(trajPath, instanceId, locator);
    if (!located.found) {
      problems.push('trajectory-not-found');
      runs.push({ trajPath, model, index: undefined });
      continue;
    }
    const loaded = await loadRun(located.file, { instanceId, repoPath: DEFAULT_REPO_PATH, repoDir: snapshotRoot });
    for (const p of loaded.problems) problems.push(p.code);
    const run = loaded.run;
    assert.ok(run !== undefined);
    runs.push({ trajPath, model, index: repairRunIndex(run.trajectory, run.reads.reads, lineCount, (read) => readCommandLine(run.trajectory, read)) });
  }
  return { runs, problems };
}

describe('repair runs through read_step_info: how they got to a line', () => {
  it('loads the cited runs it finds, says which it could not, and answers per line', async () => {
    const root = tmp();
    const repo = path.join(root, 'repos', 'a__r-1');
    mkdirSync(path.join(repo, 'pkg'), { recursive: true });
    writeFileSync(path.join(repo, 'pkg', 'a.py'), Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const traj = {
      info: { instance_id: 'a__r-1', model: 'model-one', config: { environment: { cwd: '/testbed' } } },
      traj: [
        { role: 'user', content: 'fix it' },
        { role: 'assistant', content: 'THOUGHT: where?\n\n```bash\ngrep -rl helper .\n```' },
        { role: 'user', content: './pkg/a.py' },
        { role: 'assistant', content: "THOUGHT: read.\n\n```bash\nsed -n '10,30p' pkg/a.py\n```" },
        { role: 'user', content: '...' },
      ],
    };
    mkdirSync(path.join(root, 'trajs', 'model-one'), { recursive: true });
    writeFileSync(path.join(root, 'trajs', 'model-one', 'a__r-1__0.json'), JSON.stringify(traj));
    const readStepInfo = {
      'pkg/a.py': [
        { traj_path: 'trajs/model-one/a__r-1__0.json', step_idx: 3, start: 10, end: 30 },
        { traj_path: 'trajs/model-two/a__r-1__0.json', step_idx: 5, start: 1, end: -1 },
      ],
    };
    const lineCount = (p: string): number | undefined => (p === 'pkg/a.py' ? 60 : undefined);
    const loaded = await repairRunSources('a__r-1', readStepInfo, repo, lineCount, { roots: [root], templates: [], templateBase: root });
    assert.deepEqual(
      loaded.runs.map((r) => [r.trajPath, r.model, r.index !== undefined]),
      [
        ['trajs/model-one/a__r-1__0.json', 'model-one', true],
        ['trajs/model-two/a__r-1__0.json', 'model-two', false],
      ],
    );
    assert.deepEqual(loaded.problems, ['trajectory-not-found']);
    const arrivals = lineArrivals(loaded.runs, 'pkg/a.py', 20);
    assert.deepEqual(arrivals, {
      kind: 'runs',
      runs: [
        {
          trajPath: 'trajs/model-one/a__r-1__0.json',
          model: 'model-one',
          arrival: { firstRead: { step: 3, idiom: 'sed_range', command: "sed -n '10,30p' pkg/a.py" }, search: { step: 1, command: 'grep -rl helper .' } },
        },
        { trajPath: 'trajs/model-two/a__r-1__0.json', model: 'model-two', arrival: 'not-loaded' },
      ],
    });
    const none = await repairRunSources('a__r-1', readStepInfo, repo, lineCount, { roots: [path.join(root, 'nowhere')], templates: [], templateBase: root });
    assert.deepEqual(lineArrivals(none.runs, 'pkg/a.py', 20), { kind: 'no-runs', reason: 'runs-not-loaded' });
  });
});

describe('leaderboard columns from explorer runs and token usage', () => {
  it('"viewed but not reported" and the seen sums equal the misses totals; run lengths are means', async () => {
    const model = await loadWorkspace({ benchFile: BENCH, predictionFiles: [AGENT, path.join(DEMO, 'results', 'bm25', 'top5.jsonl')] });
    const runs = new Map([['agent', await indexExplorerRuns(path.join(DEMO, 'results', 'agent', 'trajs'), (id) => model.instances.has(id))]]);
    const options = { profile: 'official' as const, k: 5, budget: 500 };
    const misses = await missesOfWorkspaceModel(model, { ...options, explorerRuns: { runs, fullRuns: true } }, new LineCountCache());
    const { prepared } = await prepareScoredGroundTruths(model, options, new LineCountCache());
    const seen = new Map<string, RowSeen | null | undefined>(misses.rows.map((r) => [`${r.explorer}\u0000${r.instanceId}`, r.seen]));
    const board = leaderboardExplorerRuns(
      model,
      (entry) => (isScored(entry) ? prepared.get(entry.instanceId) : undefined),
      options,
      (label, id) => seen.get(`${label}\u0000${id}`),
    );
    const totals = misses.totals.find((t) => t.explorer === 'agent')!.seenTotals!;
    assert.equal(board.length, 1, 'only explorers with runs');
    assert.deepEqual(
      { seen: board[0]!.seen, viewed: board[0]!.viewedCoreLines, runs: board[0]!.runs, seenMissed: board[0]!.seenMissed, missed: board[0]!.missed },
      { seen: totals.seen, viewed: totals.viewedCoreLines, runs: totals.runs, seenMissed: totals.seenMissed, missed: totals.missed },
    );
    assert.equal(board[0]!.viewedNotReported, 13 / 105);
    assert.equal(board[0]!.meanSteps, 20 / 3);
    assert.equal(board[0]!.meanReads, 18 / 3);
    assert.equal(board[0]!.meanViewedLines, 286 / 3);
  });

  it('tokens per instance and per core line hit, from the rows’ token_usage (total, else input + output)', async () => {
    const root = tmp();
    const rows = [
      { instance_id: 'acme__inventory-101', explorer: 'spender', regions: [{ path: 'inventory/stock.py', start: 103, end: 137 }], token_usage: { input: 900, output: 100, total: 1000 } },
      { instance_id: 'acme__inventory-102', explorer: 'spender', regions: [{ path: 'inventory/pricing.py', start: 79, end: 107 }], token_usage: { input: 2500, output: 500 } },
      { instance_id: 'acme__tinyhttp-7', explorer: 'spender', regions: [{ path: 'tinyhttp/utils.py', start: 41, end: 57 }], token_usage: null },
    ];
    const file = path.join(root, 'spender.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const model = await loadWorkspace({ benchFile: BENCH, predictionFiles: [file, AGENT] });
    const options = { profile: 'official' as const, k: 5, budget: 500 };
    const { prepared } = await prepareScoredGroundTruths(model, options, new LineCountCache());
    const tokens = leaderboardTokens(model, (entry) => prepared.get(entry.instanceId), options);
    assert.deepEqual(tokens, [
      { explorer: 'spender', budget: 500, rows: 2, tokens: 4000, hitLines: 35 + 29, meanTokens: 2000, tokensPerHitLine: 4000 / 64 },
      { explorer: 'agent', budget: 500, rows: 0, tokens: 0, hitLines: 0, meanTokens: null, tokensPerHitLine: null },
    ]);
    const noRuns = await seenOfRows(model, [], () => undefined, { runs: new Map() });
    assert.deepEqual(noRuns.seen, []);
  });
});

describe('explorer runs on worker threads', () => {
  it('the pool answers exactly as the calling thread, on workers', async () => {
    const model = await loadWorkspace({ benchFile: BENCH, predictionFiles: [AGENT] });
    const runs = await indexExplorerRuns(path.join(DEMO, 'results', 'agent', 'trajs'), (id) => model.instances.has(id));
    const { prepared } = await prepareScoredGroundTruths(model, { profile: 'official', k: 5 }, new LineCountCache());
    const jobs: ExplorerRunJob[] = [...runs.runs.values()].map((run, id) => {
      const entry = model.instances.get(run.instanceId)!;
      const groundTruth = prepared.get(run.instanceId)!;
      return {
        id,
        entry: run,
        instanceId: run.instanceId,
        snapshotRoot: entry.snapshotRoot,
        repoPath: '/testbed',
        knownPaths: [...groundTruth.core.keys()],
        lineCounts: [...groundTruth.knownLineCounts],
        paths: id === 0 ? undefined : [...groundTruth.core.keys()],
        maxBytes: undefined,
      };
    });
    const here = await Promise.all(jobs.map((job) => runJobHere(job)));
    const pool = ExplorerRunPool.start(2);
    assert.ok(pool !== undefined, 'the worker script is found');
    try {
      const there = await Promise.all(jobs.map((job) => pool.run(job)));
      assert.deepEqual(there, here);
      assert.equal(pool.answeredByWorkers, jobs.length, 'every job ran on a worker');
    } finally {
      await pool.close();
    }
  });
});
