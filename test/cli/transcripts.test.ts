/** `score --transcripts DIR` and `misses --transcripts DIR`: a folder of agent answers is one explorer, as in the extension. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { buildCliBundle, runCli, type CliRun } from './cliBundle';
import * as assert from 'node:assert/strict';

before(buildCliBundle);

function cli(args: string[]): CliRun {
  return runCli(args);
}

/** Two instances with a 40-line `a.py`; core 1–10 each. Answers: one names a.py:1-5 under a container path, one has no block. */
function workspace(): { bench: string; folder: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-cli-transcripts-'));
  const ids = ['o__r-1', 'o__r-2'];
  const records = ids.map((id) => ({ instance_id: id, repo: 'o/r', repo_dir: `repos/${id}`, ground_truth: { read_core_files: ['a.py'], read_core_regions: [{ path: 'a.py', start: 1, end: 10 }] } }));
  writeFileSync(path.join(root, 'bench.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  for (const id of ids) {
    mkdirSync(path.join(root, 'repos', id), { recursive: true });
    writeFileSync(path.join(root, 'repos', id, 'a.py'), 'x = 1\n'.repeat(40));
  }
  const folder = path.join(root, 'agent-x');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'o__r-1.txt'), 'Done.\n\nRELEVANT_FILES:\n- /testbed/a.py:1-5\n');
  writeFileSync(path.join(folder, 'o__r-2.txt'), 'Nothing found.\n');
  return { bench: path.join(root, 'bench.jsonl'), folder };
}

test('score --transcripts scores a folder of RELEVANT_FILES answers as one explorer named after the folder', () => {
  const { bench, folder } = workspace();
  const out = cli(['score', '--bench', bench, '--transcripts', folder, '--format', 'json']);
  assert.equal(out.status, 0, out.stderr);
  const lines = out.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { instance_id?: string; explorer: string; metrics?: Record<string, number>; macro?: Record<string, number> });
  const row1 = lines.find((l) => l.instance_id === 'o__r-1');
  assert.equal(row1?.explorer, 'agent-x');
  assert.equal(row1?.metrics?.['recall'], 0.5, 'a.py:1-5 (mapped from /testbed/) covers half of core 1–10');
  const row2 = lines.find((l) => l.instance_id === 'o__r-2');
  assert.equal(row2?.metrics?.['recall'], 0, 'an answer without a block is an empty list');
  assert.match(out.stderr, /o__r-2\.txt.*RELEVANT_FILES/, 'the empty answer is reported with its file');
});

test('misses --transcripts gives the same explorer its anatomy', () => {
  const { bench, folder } = workspace();
  const out = cli(['misses', '--bench', bench, '--transcripts', folder, '--budget', '500']);
  assert.equal(out.status, 0, out.stderr);
  const total = out.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { explorer: string; totals?: Record<string, number> })
    .find((l) => l.totals !== undefined);
  assert.equal(total?.explorer, 'agent-x');
  assert.deepEqual(total?.totals, { core_lines: 20, hit: 5, beyond_budget: 0, path_mismatch: 0, inverted: 0, wrong_region: 5, file_not_predicted: 10, patch_lines: null, patch_hit: null });
});

test('score without --preds and --transcripts is a usage error', () => {
  const { bench } = workspace();
  const out = cli(['score', '--bench', bench]);
  assert.equal(out.status, 2);
  assert.match(out.stderr, /--preds file or --transcripts folder/);
});
