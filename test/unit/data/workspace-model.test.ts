/** The workspace model's rules: line-count precedence, problem location, explorer labels. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { scoreWorkspace } from '../../../src/cli/scoreWorkspace';
import { instanceLineCounts, LineCountCache, loadWorkspace } from '../../../src/data';

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
