import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { parseBench, parseJsonl, parsePredictions, readBenchFile, readJsonl, readPredictionFile } from '../../../src/data/formats/jsonl';
import { formatProblem, hasErrors } from '../../../src/data/io/problems';
import { cpuNow } from '../support/cpu-time';

const FIXTURES = path.join(__dirname, 'fixtures-data');

const rec = (id: string, regions = '[{"path":"a.py","start":1,"end":3}]', extra = ''): string => `{"instance_id":"${id}","ground_truth":{"read_core_regions":${regions}}${extra}}`;

describe('parseBench', () => {
  it('loads good lines, reports bad ones, and keeps going', () => {
    const text = [
      rec('a'),
      '[1, 2]',
      '{"instance_id": "b", "ground_truth": {"read_core_regions": [{"path": "x", "start": "1", "end": 2}]}}',
      '',
      '   ',
      '{"instance_id": "c"}',
      rec('d', '[{"path":"a","start":1,"end":2},{"path":"a","start":1,"end":2},{"path":"y","start":1,"end":2.5}]'),
      '{"instance_id": "e", "ground_truth": {',
      rec('f'),
    ].join('\n');
    const { items, problems } = parseBench(text, 'bench.jsonl');
    assert.deepEqual(
      items.map((i) => [i.line, i.value.instance_id]),
      [
        [1, 'a'],
        [9, 'f'],
      ],
    );
    assert.deepEqual(
      problems.map((p) => [p.line, p.code]),
      [
        [2, 'not-an-object'],
        [3, 'schema'],
        [6, 'schema'],
        [7, 'schema'],
        [8, 'invalid-json'],
      ],
    );
    const byLine = new Map(problems.map((p) => [p.line, p]));
    assert.equal(byLine.get(3)?.message, 'ground_truth.read_core_regions[0].start: expected integer, got string "1" (instance b)');
    assert.equal(byLine.get(6)?.message, 'ground_truth: missing (expected object) (instance c)');
    assert.equal(byLine.get(7)?.message, 'ground_truth.read_core_regions[2].end: expected integer, got number 2.5 (instance d)');
    assert.equal(byLine.get(7)?.instanceId, 'd');
    // Columns point at the offending value.
    const line3 = text.split('\n')[2]!;
    assert.equal(line3.slice(byLine.get(3)!.column! - 1).startsWith('"1"'), true);
    assert.equal(formatProblem(byLine.get(2)!), 'bench.jsonl:2:1: error: expected a JSON object, got an array');
    assert.ok(hasErrors(problems));
  });

  it('keeps raw lines exactly (minus terminator and BOM)', () => {
    const line1 = '{"instance_id": "a",  "ground_truth": {"read_core_regions": []}, "z": "caf\u00e9 \\u00e9"}';
    const line2 = rec('b');
    const { items, problems } = parseBench(`\uFEFF${line1}\r\n\r\n${line2}\r\n`);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      items.map((i) => [i.line, i.raw]),
      [
        [1, line1],
        [3, line2],
      ],
    );
  });

  it('reports a truncated last line as such, and accepts a complete one without newline', () => {
    const good = parseBench(`${rec('a')}\n${rec('b')}`);
    assert.equal(good.items.length, 2);
    assert.deepEqual(good.problems, []);
    const torn = parseBench(`${rec('a')}\n${rec('b').slice(0, 30)}`, 'b.jsonl');
    assert.equal(torn.items.length, 1);
    assert.equal(torn.problems[0]?.code, 'truncated-line');
    assert.equal(torn.problems[0]?.line, 2);
    // The same broken text followed by a newline is an ordinary syntax error.
    assert.equal(parseBench(`${rec('b').slice(0, 30)}\n`).problems[0]?.code, 'invalid-json');
  });

  it('duplicate instance ids: error on the later line, first wins', () => {
    const { items, problems } = parseBench([rec('a', '[]'), rec('b'), rec('a')].join('\n'), 'x.jsonl');
    assert.deepEqual(
      items.map((i) => [i.line, i.value.instance_id, i.value.ground_truth.read_core_regions.length]),
      [
        [1, 'a', 0],
        [2, 'b', 1],
      ],
    );
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.code, 'duplicate-instance');
    assert.equal(problems[0]?.severity, 'error');
    assert.equal(problems[0]?.line, 3);
    assert.match(problems[0]!.message, /first seen on line 1/);
  });

  it("reads Python's NaN as null with a warning", () => {
    const { items, problems } = parseBench(rec('a', '[]', ', "meta": {"score": NaN, "s": "NaN"}'));
    assert.equal(items.length, 1);
    assert.deepEqual(items[0]?.value.meta, { score: null, s: 'NaN' });
    assert.equal(problems[0]?.code, 'nonstandard-json');
    assert.equal(problems[0]?.severity, 'warning');
  });

  it('rejects every non-object JSON value', () => {
    for (const v of ['null', '3', '"str"', 'true', '[]']) {
      assert.equal(parseBench(v).problems[0]?.code, 'not-an-object', v);
    }
  });

  it('caps schema issues per line', () => {
    const regions = JSON.stringify(Array.from({ length: 20 }, () => ({ path: 1, start: 'x', end: null })));
    const { problems } = parseBench(rec('a', regions));
    assert.equal(problems.length, 5);
    assert.match(problems[4]!.message, /and \d+ more schema issues/);
  });
});

describe('file readers', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'data-jsonl-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('streams lines across chunk boundaries identically to the string parser', async () => {
    // Lines longer than the 1 MiB read chunk, CRLF endings, multi-byte characters on boundaries.
    const big = 'é'.repeat(700_000);
    const lines = [rec('a', '[]', `, "text": "${big}"`), rec('b'), '', rec('c', '[]', `, "t": "${'€'.repeat(400_000)}"`)];
    const text = `\uFEFF${lines.join('\r\n')}`;
    const file = path.join(dir, 'big.jsonl');
    await writeFile(file, text);
    const fromFile = await readBenchFile(file);
    const fromString = parseBench(text, file);
    assert.deepEqual(fromFile, fromString);
    assert.deepEqual(
      fromFile.items.map((i) => i.line),
      [1, 2, 4],
    );
    assert.equal(fromFile.items[0]?.raw, lines[0]);
  });

  it('decodes all-ASCII stretches in bulk with the same lines, numbers and problems as the string parser', async () => {
    // About 3 MiB: ASCII runs (decoded a chunk at a time) broken by non-ASCII lines (decoded one
    // by one), ASCII lines running across chunk boundaries, CRLF, blank and bad lines, no final newline.
    const lines: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 3 * 1024 * 1024; i++) {
      const line =
        i % 12007 === 5
          ? rec(`u${i}`, '[]', `, "t": "${'ü'.repeat(i % 5000)}"`)
          : i % 9001 === 7
            ? rec(`long${i}`, '[]', `, "t": "${'x'.repeat(600_000)}"`)
            : i % 501 === 0
              ? '{"instance_id": broken'
              : i % 701 === 0
                ? ''
                : rec(`a${i}`, `[{"path": "p${i}.py", "start": 1, "end": ${i}}]`);
      lines.push(line);
      bytes += Buffer.byteLength(line) + 2;
    }
    const text = lines.join(lines.length % 2 === 0 ? '\n' : '\r\n') + '\n' + rec('last');
    const file = path.join(dir, 'mixed.jsonl');
    await writeFile(file, text);
    const fromFile = await readBenchFile(file);
    assert.deepEqual(fromFile, parseBench(text, file));
    assert.equal(fromFile.items.at(-1)?.line, lines.length + 1);
    assert.ok(fromFile.problems.some((p) => p.code === 'invalid-json'));
  });

  it('a line over the limit inside an all-ASCII chunk is skipped and reported with its byte length', async () => {
    const long = rec('long', '[]', `, "t": "${'x'.repeat(5000)}"`);
    const file = path.join(dir, 'limit.jsonl');
    await writeFile(file, [rec('a'), long, rec('b')].join('\n') + '\n');
    const result = await readJsonl(file, z.looseObject({ instance_id: z.string() }), undefined, { maxLineBytes: 1000 });
    assert.deepEqual(
      result.items.map((i) => i.line),
      [1, 3],
    );
    assert.deepEqual(
      result.problems.map((p) => [p.line, p.code, p.message]),
      [[2, 'line-too-long', `line 2 is ${long.length} bytes, longer than the 1000-byte limit; skipped`]],
    );
  });

  it('a missing file is one io-error problem', async () => {
    const r = await readBenchFile(path.join(dir, 'nope.jsonl'));
    assert.deepEqual(r.items, []);
    assert.equal(r.problems[0]?.code, 'io-error');
    assert.equal(r.problems[0]?.line, 0);
    assert.equal(formatProblem(r.problems[0]!), `${path.join(dir, 'nope.jsonl')}: error: cannot read file: file not found`);
  });

  it('a directory is one io-error problem', async () => {
    const r = await readBenchFile(dir);
    assert.equal(r.problems[0]?.code, 'io-error');
  });

  it('reads the corrupt fixture with one problem per bad line', async () => {
    const file = path.join(FIXTURES, 'bench.corrupt.jsonl');
    const r = await readBenchFile(file);
    assert.deepEqual(
      r.items.map((i) => i.value.instance_id),
      ['good__one-1', 'odd__regions-2'],
    );
    assert.deepEqual(
      r.problems.map((p) => `${p.line}:${p.code}`),
      ['2:invalid-json', '3:not-an-object', '4:schema', '5:schema', '6:schema', '7:duplicate-instance', '9:truncated-line'],
    );
  });

  it('generic readJsonl works with any schema', async () => {
    const file = path.join(dir, 'generic.jsonl');
    await writeFile(file, '{"v":1}\n{"v":"x"}\n');
    const r = await readJsonl(file, z.looseObject({ v: z.number() }));
    assert.equal(r.items.length, 1);
    assert.equal(r.problems[0]?.message, 'v: expected number, got string');
    const s = parseJsonl('{"v":2}', 'mem', z.object({ v: z.number() }));
    assert.equal(s.items[0]?.value.v, 2);
  });

  it('is fast on a 10 MB bench file', async () => {
    const steps = JSON.stringify({ 'a.py': Array.from({ length: 400 }, (_, k) => ({ traj_path: `t/${k}.json`, step_idx: k, start: 1, end: -1 })) });
    const lines: string[] = [];
    let size = 0;
    for (let k = 0; size < 10_000_000; k++) {
      const line = rec(`org__repo-${k}`, '[{"path":"a.py","start":1,"end":30}]', `, "read_step_info": ${steps}, "problem_statement": "${'x'.repeat(2000)}"`);
      lines.push(line);
      size += line.length + 1;
    }
    const file = path.join(dir, 'ten.jsonl');
    await writeFile(file, `${lines.join('\n')}\n`);
    const t0 = cpuNow();
    const r = await readBenchFile(file);
    const ms = cpuNow() - t0;
    assert.equal(r.items.length, lines.length);
    assert.deepEqual(r.problems, []);
    // Generous bound for loaded CI machines; typically ~100 ms.
    assert.ok(ms < 3000, `took ${ms.toFixed(0)} ms`);
  });
});

describe('predictions', () => {
  const row = (id: string, explorer = 'cosil', regions = '[{"path":"a.py","start":1,"end":2}]'): string =>
    `{"instance_id":"${id}","explorer":"${explorer}","regions":${regions},"metrics":{"precision":0.5},"num_regions":1}`;

  it('parses result rows; a repeated (instance, explorer) pair is a warning and first wins', () => {
    const r = parsePredictions([row('a'), row('a', 'other'), row('a'), '{"instance_id":"b","regions":[]}'].join('\n'), 'p.jsonl');
    assert.deepEqual(
      r.items.map((i) => [i.line, i.value.explorer]),
      [
        [1, 'cosil'],
        [2, 'other'],
      ],
    );
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.code, p.severity]),
      [
        [3, 'duplicate-row', 'warning'],
        [4, 'schema', 'error'],
      ],
    );
  });

  it('parses a plain-text agent answer into one row', () => {
    const text = 'Analysis...\nRELEVANT_FILES:\n- pkg/a.py:10-20\n- pkg/b.py:3-\n- pkg/c.py\n';
    const r = parsePredictions(text, 'runs/agent/org__repo-7.txt');
    assert.equal(r.items.length, 1);
    const item = r.items[0]!;
    assert.equal(item.value.instance_id, 'org__repo-7');
    assert.equal(item.value.explorer, 'answer');
    assert.deepEqual(item.value.regions, [
      { path: 'pkg/a.py', start: 10, end: 20 },
      { path: 'pkg/c.py', start: 1, end: -1 },
    ]);
    assert.equal(item.line, 3);
    assert.deepEqual(JSON.parse(item.raw), item.value);
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.code]),
      [[4, 'answer-entry-skipped']],
    );
  });

  it('an answer without any location is a warning', () => {
    const r = parsePredictions('I could not find anything.', 'x.txt', { instanceId: 'i', explorer: 'e' });
    assert.deepEqual(r.items[0]?.value.regions, []);
    assert.equal(r.problems[0]?.code, 'answer-empty');
  });

  it('readPredictionFile sniffs JSONL vs answer text and honours options', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'data-pred-'));
    try {
      await writeFile(path.join(dir, 'rows.jsonl'), `${row('a')}\n`);
      await writeFile(path.join(dir, 'rows.out'), `\n  ${row('a')}\n`);
      await writeFile(path.join(dir, 'answer.md'), 'RELEVANT_FILES:\n- src/x.py:1-5\n- src/missing.py:2\n');
      await writeFile(path.join(dir, 'notjson.jsonl'), 'RELEVANT_FILES:\n- src/x.py:1-5\n');
      const repo = path.join(dir, 'repo');
      await import('node:fs/promises').then((fs) => fs.mkdir(path.join(repo, 'src'), { recursive: true }));
      await writeFile(path.join(repo, 'src', 'x.py'), 'x\n');

      assert.equal((await readPredictionFile(path.join(dir, 'rows.jsonl'))).items[0]?.value.explorer, 'cosil');
      assert.equal((await readPredictionFile(path.join(dir, 'rows.out'))).items[0]?.line, 2);
      // A .jsonl file is always JSONL, even when it holds prose.
      assert.equal((await readPredictionFile(path.join(dir, 'notjson.jsonl'))).problems[0]?.code, 'invalid-json');

      const rootless = await readPredictionFile(path.join(dir, 'answer.md'), { instanceId: 'i-1', explorer: 'claude', topK: 5 });
      assert.deepEqual(rootless.items[0]?.value, {
        instance_id: 'i-1',
        explorer: 'claude',
        regions: [
          { path: 'src/x.py', start: 1, end: 5 },
          { path: 'src/missing.py', start: 2, end: 2 },
        ],
        num_regions: 2,
      });
      const rooted = await readPredictionFile(path.join(dir, 'answer.md'), { repoRoot: repo });
      assert.deepEqual(rooted.items[0]?.value.regions, [{ path: 'src/x.py', start: 1, end: 5 }]);
      assert.equal(rooted.problems[0]?.code, 'answer-entry-skipped');
      assert.equal(rooted.problems[0]?.line, 3);
      assert.equal((await readPredictionFile(path.join(dir, 'nope.txt'))).problems[0]?.code, 'io-error');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads 100k rows in reasonable time', () => {
    const lines: string[] = [];
    for (let k = 0; k < 100_000; k++) lines.push(row(`org__repo-${k}`, 'cosil', '[{"path":"a/b.py","start":1,"end":20},{"path":"a/c.py","start":5,"end":-1}]'));
    const t0 = cpuNow();
    const r = parsePredictions(lines.join('\n'));
    const ms = cpuNow() - t0;
    assert.equal(r.items.length, 100_000);
    assert.ok(ms < 5000, `took ${ms.toFixed(0)} ms`);
  });
});
