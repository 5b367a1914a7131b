/**
 * The checked-in trajectory fixtures (test/fixtures/trajectories/builder/README.md): each run gives exactly
 * the reads of its expected file, and `build` over `runs/` gives exactly `expected/build.jsonl`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadRun } from '../../../src/data';
import { readJsonLine } from '../../../src/cli/trajectories';
import { buildCliBundle, runCli } from '../../cli/cliBundle';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'trajectories', 'builder');
const REPO = path.join(FIXTURES, 'repos', 'demo__lib-1');

const RUNS: Record<string, string> = {
  unified: 'runs/unified/model-a/demo__lib-1__0.json',
  'mini-v1': 'runs/mini-v1/demo__lib-1.traj.json',
  'mini-v2-tools': 'runs/mini-v2-tools/demo__lib-1.traj.json',
  'mini-v2-text': 'text-mode/mini-v2-text/demo__lib-1.traj.json',
};

describe('trajectory fixtures', () => {
  for (const [name, file] of Object.entries(RUNS)) {
    it(`${name}: the reads of expected/${name}.reads.jsonl`, async () => {
      const { run, problems } = await loadRun(path.join(FIXTURES, file), { repoDir: REPO });
      assert.deepEqual(problems, []);
      assert.equal(run!.reads.reads.map((r) => `${readJsonLine(r)}\n`).join(''), readFileSync(path.join(FIXTURES, 'expected', `${name}.reads.jsonl`), 'utf8'));
    });
  }

  const out = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-fixture-build-'));
  before(buildCliBundle);
  after(() => rmSync(out, { recursive: true, force: true }));
  it('build over runs/: expected/build.jsonl byte for byte', () => {
    const target = path.join(out, 'build.jsonl');
    const result = runCli(['build', '--trajs', 'test/fixtures/trajectories/builder/runs', '--repos', 'test/fixtures/trajectories/builder/repos', '-o', target]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(readFileSync(target, 'utf8'), readFileSync(path.join(FIXTURES, 'expected', 'build.jsonl'), 'utf8'));
  });
});
