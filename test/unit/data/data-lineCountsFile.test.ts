import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseLineCounts, readLineCountsFile } from '../../../src/data/formats/lineCountsFile';
import { validateWorkspace } from '../../../src/data/workspace/validate';

describe('line_counts.json', () => {
  it('reads {instance_id: {path: count}}', () => {
    const r = parseLineCounts('{"a__b-1": {"x.py": 10, "y.py": 0}, "c__d-2": {}}');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      [...r.counts.get('a__b-1')!],
      [
        ['x.py', 10],
        ['y.py', 0],
      ],
    );
    assert.equal(r.counts.get('c__d-2')?.size, 0);
  });

  it('skips bad entries with located problems and keeps the rest', () => {
    const text = '{\n  "a__b-1": {\n    "x.py": 10,\n    "y.py": -1,\n    "z.py": "12"\n  },\n  "c__d-2": [1]\n}\n';
    const r = parseLineCounts(text, 'lc.json');
    assert.deepEqual([...r.counts.get('a__b-1')!], [['x.py', 10]]);
    assert.equal(r.counts.has('c__d-2'), false);
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.column, p.code, p.instanceId]),
      [
        [4, 13, 'schema', 'a__b-1'],
        [5, 13, 'schema', 'a__b-1'],
        [7, 13, 'schema', 'c__d-2'],
      ],
    );
    assert.match(r.problems[0]!.message, /^\["a__b-1"\]\["y\.py"\]: expected a non-negative integer line count, got number -1$/);
  });

  it('reports syntax errors at their line and column', () => {
    const r = parseLineCounts('{\n  "a": {"x.py": 1,}\n}', 'lc.json');
    assert.equal(r.counts.size, 0);
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.column, p.code]),
      [[2, 19, 'invalid-json']],
    );
  });

  it('rejects a non-object document', () => {
    assert.equal(parseLineCounts('[1]').problems[0]?.code, 'not-an-object');
  });

  it('reads files; a missing file is an io-error; validate uses the counts', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'data-lcf-'));
    try {
      assert.equal((await readLineCountsFile(path.join(dir, 'nope.json'))).problems[0]?.code, 'io-error');
      const lc = path.join(dir, 'line_counts.json');
      await writeFile(lc, '\uFEFF{"a__b-1": {"x.py": 4}}');
      assert.equal((await readLineCountsFile(lc)).counts.get('a__b-1')?.get('x.py'), 4);
      const bench = path.join(dir, 'bench.jsonl');
      await writeFile(bench, `${JSON.stringify({ instance_id: 'a__b-1', ground_truth: { read_core_files: ['x.py'], read_core_regions: [{ path: 'x.py', start: 2, end: 9 }] } })}\n`);
      const problems = await validateWorkspace({ benchFile: bench, reposRoot: null, lineCountsFile: lc });
      assert.deepEqual(
        problems.map((p) => p.code),
        ['region-past-eof'],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
