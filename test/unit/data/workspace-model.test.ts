/** The workspace model's rules: line-count precedence, problem location, explorer labels. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { scoreWorkspace } from '../../../src/cli/scoreWorkspace';
import {
  instanceLineCounts,
  LineCountCache,
  loadBenchSide,
  loadWorkspace,
  prepareScoredGroundTruths,
  repoRule,
  scoreEachRow,
  scoreStreamed,
  type ScoredRow,
  type WorkspaceSources,
} from '../../../src/data';

/** One instance whose core is the whole of a.py (end -1: needs a line count); a.py has 10 lines on disk. */
function workspace(options: { countsBeside?: Record<string, number>; snapshot?: boolean }): { root: string; bench: string; preds: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-model-'));
  const record = { instance_id: 'o__r-1', repo_dir: 'repos/o__r-1', ground_truth: { read_core_files: ['a.py'], read_core_regions: [{ path: 'a.py', start: 1, end: -1 }] } };
  writeFileSync(path.join(root, 'bench.jsonl'), `${JSON.stringify(record)}\n`);
  if (options.snapshot === true) {
    mkdirSync(path.join(root, 'repos', 'o__r-1'), { recursive: true });
    writeFileSync(path.join(root, 'repos', 'o__r-1', 'a.py'), 'x\n'.repeat(10));
  }
  if (options.countsBeside !== undefined) writeFileSync(path.join(root, 'line_counts.json'), JSON.stringify({ 'o__r-1': options.countsBeside }));
  const row = {
    instance_id: 'o__r-1',
    explorer: 'e',
    regions: [
      { path: 'a.py', start: 1, end: 5 },
      { path: 'gone.py', start: 1, end: -1 },
    ],
  };
  writeFileSync(path.join(root, 'preds.jsonl'), `${JSON.stringify(row)}\n`);
  return { root, bench: path.join(root, 'bench.jsonl'), preds: path.join(root, 'preds.jsonl') };
}

test('line_counts.json beside the bench is used first; the snapshot fills the paths it does not list', async () => {
  const { bench } = workspace({ countsBeside: { 'a.py': 20 }, snapshot: true });
  const model = await loadWorkspace({ benchFile: bench, predictionFiles: [] });
  assert.equal(model.lineCountsFile, path.join(path.dirname(bench), 'line_counts.json'));
  const entry = model.instances.get('o__r-1')!;
  const { counts } = await instanceLineCounts(model, entry, ['a.py', 'b.py'], new LineCountCache());
  assert.equal(counts.get('a.py'), 20, 'the file wins over the snapshot');
  assert.equal(counts.has('b.py'), false);
});

test('score uses line_counts.json beside the bench without being told (no snapshot needed)', async () => {
  const { bench, preds } = workspace({ countsBeside: { 'a.py': 20 } });
  const result = await scoreWorkspace({ benchFile: bench, predictionFiles: [preds], profile: 'official', k: 5, budgets: [], keepEmptyCore: false });
  assert.equal(result.rows[0]!.metrics['recall'], 5 / 20);
  assert.deepEqual(result.problems, []);
});

test('under the snapshot profile a file missing for a prediction is located at the prediction row', async () => {
  const { bench, preds } = workspace({ snapshot: true });
  const result = await scoreWorkspace({ benchFile: bench, predictionFiles: [preds], profile: 'snapshot', k: 5, budgets: [], keepEmptyCore: false });
  const missing = result.problems.filter((p) => p.code === 'missing-file');
  assert.equal(missing.length, 1);
  assert.equal(missing[0]!.file, preds);
  assert.equal(missing[0]!.line, 1);
  assert.equal(result.rows[0]!.metrics['recall'], 5 / 10);
});

test("keep: 'scoring' loads the same explorers, entries and problems as the full load, without the parsed lines", async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-model-keep-'));
  const record = (id: string): string => JSON.stringify({ instance_id: id, ground_truth: { read_core_regions: [{ path: 'a.py', start: 1, end: 9 }] } });
  writeFileSync(path.join(root, 'bench.jsonl'), `${record('o__r-1')}\n${record('o__r-2')}\n`);
  const row = (id: string, explorer: string, end: number, extra = ''): string => `{"instance_id":"${id}","explorer":"${explorer}","regions":[{"path":"a.py","start":1,"end":${end}${extra}}]}`;
  mkdirSync(path.join(root, 'x'));
  mkdirSync(path.join(root, 'y'));
  // Two names interleaved in one file, one of them also in a second file; a repeat, a bad line,
  // a region with an extra key, a row for an unknown instance.
  writeFileSync(
    path.join(root, 'x', 'top5.jsonl'),
    [row('o__r-1', 'a', 3), row('o__r-1', 'b', 4), row('o__r-2', 'a', 5, ',"why":"x"'), row('o__r-1', 'a', 6), 'nope', row('z__z-9', 'b', 1)].join('\n'),
  );
  writeFileSync(path.join(root, 'y', 'top5.jsonl'), `${row('o__r-2', 'a', 7)}\n`);
  const sources = { benchFile: path.join(root, 'bench.jsonl'), predictionFiles: [path.join(root, 'x', 'top5.jsonl'), path.join(root, 'y', 'top5.jsonl')] };
  const full = await loadWorkspace(sources);
  const lean = await loadWorkspace({ ...sources, keep: 'scoring' });
  assert.deepEqual([...lean.explorers.keys()], ['a (x/top5.jsonl)', 'b', 'a (y/top5.jsonl)']);
  assert.deepEqual(lean.explorers, full.explorers);
  assert.deepEqual(lean.problems, full.problems);
  assert.deepEqual(
    full.problems.map((p) => [p.line, p.code]),
    [
      [4, 'duplicate-row'],
      [5, 'invalid-json'],
    ],
  );
  assert.deepEqual(lean.explorers.get('a (x/top5.jsonl)')!.rows.get('o__r-2')!.regions, [{ path: 'a.py', start: 1, end: 5 }], 'the core sees the triple only');
  assert.equal(full.predictionItems.length, 2);
  assert.deepEqual(lean.predictionItems, []);
});

test('scoreStreamed gives the rows, averages and problems of the workspace model, or declines', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-model-stream-'));
  const record = (id: string, core: string): string =>
    JSON.stringify({
      instance_id: id,
      repo: id.startsWith('o__') ? 'o/r' : 'p/q',
      ground_truth: { read_core_regions: JSON.parse(core), read_optional_regions_map: { m: [{ path: 'b.py', start: 2, end: 4 }] } },
    });
  writeFileSync(
    path.join(root, 'bench.jsonl'),
    [record('o__r-1', '[{"path":"a.py","start":1,"end":-1}]'), record('o__r-2', '[{"path":"a.py","start":-3,"end":-1},{"path":"b.py","start":5,"end":9}]'), record('p__q-3', '[]')].join('\n') + '\n',
  );
  writeFileSync(path.join(root, 'line_counts.json'), JSON.stringify({ 'o__r-1': { 'a.py': 40, 'b.py': 12 }, 'o__r-2': { 'a.py': 7, 'b.py': 9, 'c.py': 3 }, 'p__q-3': { 'b.py': 5 } }));
  const row = (id: string, explorer: string, regions: string): string => `{"instance_id":"${id}","explorer":"${explorer}","regions":${regions}}`;
  mkdirSync(path.join(root, 'x'));
  mkdirSync(path.join(root, 'y'));
  const wide = '[{"path":"a.py","start":1,"end":-1},{"path":"c.py","start":-2,"end":-1},{"path":"b.py","start":3,"end":3}]';
  writeFileSync(
    path.join(root, 'x', 'top5.jsonl'),
    [
      row('o__r-1', 'a', wide),
      row('o__r-1', 'b', '[{"path":"a.py","start":5,"end":9}]'),
      row('o__r-2', 'a', wide),
      row('p__q-3', 'a', wide),
      row('z__z-9', 'b', '[]'),
      row('o__r-1', 'a', '[]'),
      'nope',
    ].join('\n'),
  );
  writeFileSync(path.join(root, 'y', 'top5.jsonl'), `${row('o__r-2', 'a', '[{"path":"b.py","start":1,"end":-1}]')}\n`);
  const sources = { benchFile: path.join(root, 'bench.jsonl'), predictionFiles: [path.join(root, 'x', 'top5.jsonl'), path.join(root, 'y', 'top5.jsonl')], keep: 'scoring' as const };
  for (const keepEmptyCore of [false, true]) {
    const options = { profile: 'official' as const, k: 2, budgets: [100, 3, 7], keepEmptyCore };
    const streamedRows: ScoredRow[] = [];
    const streamed = await scoreStreamed(
      await loadBenchSide(sources),
      sources,
      options,
      (r) => {
        streamedRows.push(r);
      },
      true,
    );
    assert.ok(streamed !== undefined, 'the workspace qualifies');
    const model = await loadWorkspace(sources);
    const { prepared, lineCountProblems } = await prepareScoredGroundTruths(model, options, new LineCountCache());
    assert.deepEqual(lineCountProblems, []);
    const modelRows: ScoredRow[] = [];
    const viaModel = scoreEachRow(
      model,
      (entry) => prepared.get(entry.instanceId),
      options,
      (r) => modelRows.push(r),
      repoRule(model),
    );
    assert.deepEqual(streamedRows, modelRows);
    assert.deepEqual(streamed, { ...viaModel, problems: [...model.problems, ...viaModel.problems] });
    assert.equal(streamed.skippedEmptyCore, keepEmptyCore ? 0 : 1);
  }
  const options = { profile: 'official' as const, k: 5, budgets: [], keepEmptyCore: false };
  const declines = async (changed: Partial<WorkspaceSources> & { profile?: 'snapshot' }): Promise<boolean> => {
    const { profile = 'official', ...rest } = changed;
    const s = { ...sources, ...rest };
    return (await scoreStreamed(await loadBenchSide(s), s, { ...options, profile }, () => assert.fail('no row is visited when declining'))) === undefined;
  };
  assert.ok(await declines({ profile: 'snapshot' }));
  assert.ok(await declines({ predictionFiles: [...sources.predictionFiles, sources.predictionFiles[0]!] }), 'one file twice: two runs, one label');
  writeFileSync(path.join(root, 'partial.json'), JSON.stringify({ 'o__r-1': { 'a.py': 40 } }));
  assert.ok(await declines({ lineCountsFile: path.join(root, 'partial.json') }), 'a ground-truth path without a count');
  mkdirSync(path.join(root, 't'));
  assert.ok(await declines({ transcriptFolders: [path.join(root, 't')] }));
});
