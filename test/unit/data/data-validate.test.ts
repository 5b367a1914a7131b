import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readBenchFile } from '../../../src/data/formats/jsonl';
import { LineCountCache } from '../../../src/data/workspace/lineCounts';
import { formatProblem, hasErrors, type Problem } from '../../../src/data/io/problems';
import { validateData, validateWorkspace } from '../../../src/data/workspace/validate';

const reg = (p: string, start: number, end: number): { path: string; start: number; end: number } => ({ path: p, start, end });

const benchLines = [
  JSON.stringify({
    instance_id: 'inst__ok-1',
    repo_dir: 'repos/inst__ok-1',
    ground_truth: {
      read_core_files: ['pkg/a.py', 'pkg/b.py', 'pkg/lonely.py'],
      read_core_regions: [
        reg('pkg/a.py', 1, 3), // fine
        reg('pkg/a.py', 8, 12), // past EOF (10 lines)
        reg('pkg/a.py', 5, 2), // inverted
        reg('pkg/b.py', 1, -1), // whole file, resolvable
        reg('pkg/empty.py', 1, -1), // needs a count, file empty
        reg('pkg/a.py', 3, 0), // end 0
      ],
      read_optional_files_map: { 'org/model': ['pkg/c.py'] },
      read_optional_regions_map: {
        'org/model': [
          reg('pkg/a.py', -3, 5), // resolves to (8, 5)
          reg('../../etc/passwd', 1, 2),
          reg('/etc/passwd', 1, 1),
          reg('leak.py', 1, 1),
          reg('missing.py', 1, 5),
          reg('missing.py', 2, 6), // same missing file: reported once
        ],
      },
      modified_core_files: ['pkg/a.py', 'build/lib/pkg/a.py'],
      main_files: ['pkg/a.py'],
    },
  }),
  JSON.stringify({ instance_id: 'inst__nosnap-2', ground_truth: { read_core_regions: [reg('x.py', 1, -1)] } }),
  JSON.stringify({ instance_id: 'inst__evil-3', repo_dir: '../outside', ground_truth: { read_core_regions: [reg('x.py', 1, 2)] } }),
  '{"instance_id": "inst__bad-4", "ground_truth": {"read_core_regions": [{"path": "x.py", "start": 1.5, "end": 2}]}}',
  JSON.stringify({ instance_id: 'inst__ok-1', ground_truth: { read_core_regions: [] } }),
];

const predictionLines = [
  JSON.stringify({
    instance_id: 'inst__ok-1',
    explorer: 'cosil',
    regions: [reg('pkg/a.py', 1, 4), reg('pkg/a.py', 9, 30), reg('pkg/a.py', 1, 4), reg('pkg/nope.py', 1, -1), reg('pkg/b.py', -2, -1)],
    num_regions: 4,
  }),
  JSON.stringify({ instance_id: 'unknown__x-9', explorer: 'cosil', regions: [reg('a.py', 1, 2), reg('/abs.py', 1, 2)] }),
  'not json at all',
];

describe('validateWorkspace', () => {
  let base: string;
  let ws: string;
  let benchFile: string;
  let predFile: string;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'data-validate-'));
    ws = path.join(base, 'ws');
    const snap = path.join(ws, 'repos', 'inst__ok-1');
    await mkdir(path.join(snap, 'pkg'), { recursive: true });
    await mkdir(path.join(base, 'outside'));
    await mkdir(path.join(ws, 'outside'));
    await writeFile(path.join(snap, 'pkg', 'a.py'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    await writeFile(path.join(snap, 'pkg', 'b.py'), 'b\r\nb\r\n');
    await writeFile(path.join(snap, 'pkg', 'empty.py'), '');
    await writeFile(path.join(base, 'outside', 'secret'), 'secret\n');
    await symlink(path.join(base, 'outside', 'secret'), path.join(snap, 'leak.py'));
    benchFile = path.join(ws, 'bench.jsonl');
    predFile = path.join(ws, 'results', 'cosil', 'top5.jsonl');
    await mkdir(path.dirname(predFile), { recursive: true });
    await writeFile(benchFile, `${benchLines.join('\n')}\n`);
    await writeFile(predFile, `${predictionLines.join('\n')}\n`);
  });

  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const summary = (problems: readonly Problem[]): string[] => problems.map((p) => `${path.basename(p.file)}:${p.line} ${p.severity} ${p.code}`);

  it('reports every problem at its record line, bench first, sorted', async () => {
    const problems = await validateWorkspace({ benchFile, predictionFiles: [predFile] });
    // Within a line, problems are ordered by column: read_core_files precedes the regions.
    assert.deepEqual(summary(problems), [
      'bench.jsonl:1 warning core-file-without-region', // lonely.py
      'bench.jsonl:1 warning missing-file', // lonely.py
      'bench.jsonl:1 warning region-past-eof',
      'bench.jsonl:1 warning inverted-region',
      'bench.jsonl:1 warning unresolvable-region', // empty.py
      'bench.jsonl:1 warning unresolvable-region', // end 0
      'bench.jsonl:1 warning inverted-region', // (-3, 5) → (8, 5)
      'bench.jsonl:1 error path-escapes-root',
      'bench.jsonl:1 error path-absolute',
      'bench.jsonl:1 error symlink-escape',
      'bench.jsonl:1 warning missing-file', // missing.py
      'bench.jsonl:2 warning missing-snapshot',
      'bench.jsonl:3 error path-escapes-root',
      'bench.jsonl:4 error schema',
      'bench.jsonl:5 error duplicate-instance',
      'top5.jsonl:1 warning region-past-eof',
      'top5.jsonl:1 warning duplicate-prediction',
      'top5.jsonl:1 warning missing-file',
      'top5.jsonl:1 warning num-regions-mismatch',
      'top5.jsonl:2 warning unknown-instance',
      'top5.jsonl:2 error path-absolute',
      'top5.jsonl:3 error invalid-json',
    ]);
    assert.ok(hasErrors(problems));
  });

  it('messages say what and where', async () => {
    const problems = await validateWorkspace({ benchFile, predictionFiles: [predFile] });
    const text = problems.map(formatProblem);
    const benchLine1 = benchLines[0]!;
    const pastEof = problems.find((p) => p.code === 'region-past-eof' && p.file === benchFile)!;
    assert.equal(
      formatProblem(pastEof),
      `${benchFile}:1:${pastEof.column}: warning: core region #2 ("pkg/a.py", 8, 12) ends past the last line (10) of the file; the evaluator does not clip it, so 2 line(s) beyond EOF count`,
    );
    // The column points at the region object inside the line.
    assert.ok(benchLine1.slice(pastEof.column! - 1).startsWith('{"path":"pkg/a.py","start":8'));
    assert.ok(text.some((t) => t.includes('optional region #1 of org/model ("pkg/a.py", -3, 5) resolves to (8, 5) on a 10-line file')));
    assert.ok(text.some((t) => t.includes('path "../../etc/passwd" leaves the snapshot root')));
    assert.ok(text.some((t) => t.includes('file "leak.py" is a symlink that points outside the snapshot root')));
    assert.ok(text.some((t) => t.includes('prediction #3 ("pkg/a.py", 1, 4) repeats prediction #1')));
    assert.ok(text.some((t) => t.includes('snapshot folder "repos/inst__nosnap-2" not found')));
    assert.ok(problems.every((p) => p.line > 0));
    assert.equal(problems.find((p) => p.code === 'unknown-instance')?.instanceId, 'unknown__x-9');
  });

  it('the missing file is reported once per record', async () => {
    const problems = await validateWorkspace({ benchFile });
    assert.equal(problems.filter((p) => p.code === 'missing-file' && p.message.includes('missing.py')).length, 1);
  });

  it('reposRoot: null skips snapshot checks', async () => {
    const problems = await validateWorkspace({ benchFile, predictionFiles: [predFile], reposRoot: null });
    const codes = new Set(problems.map((p) => p.code));
    for (const code of ['missing-file', 'missing-snapshot', 'region-past-eof', 'symlink-escape'] as const) assert.ok(!codes.has(code), code);
    // Lexical and shape checks still run.
    for (const code of ['path-escapes-root', 'path-absolute', 'inverted-region', 'unresolvable-region', 'duplicate-prediction'] as const) assert.ok(codes.has(code), code);
  });

  it('uses given line counts without a snapshot', async () => {
    const problems = await validateWorkspace({
      benchFile,
      reposRoot: null,
      lineCounts: new Map([
        ['inst__nosnap-2', new Map([['x.py', 0]])],
        ['inst__ok-1', new Map([['pkg/a.py', 2]])],
      ]),
    });
    const line1 = problems.filter((p) => p.line === 1 && p.code === 'region-past-eof');
    assert.equal(line1.length, 2); // (1,3) and (8,12) on a 2-line file
    assert.ok(problems.some((p) => p.line === 2 && p.code === 'unresolvable-region'));
  });

  it('a missing bench file is one io-error', async () => {
    const problems = await validateWorkspace({ benchFile: path.join(ws, 'nope.jsonl') });
    assert.deepEqual(summary(problems), ['nope.jsonl:0 error io-error']);
  });

  it('a clean workspace has no problems', async () => {
    const clean = path.join(base, 'clean');
    await mkdir(path.join(clean, 'repos', 'a__b-1'), { recursive: true });
    await writeFile(path.join(clean, 'repos', 'a__b-1', 'm.py'), 'x\ny\nz\n');
    const bench = path.join(clean, 'bench.jsonl');
    await writeFile(bench, `${JSON.stringify({ instance_id: 'a__b-1', repo_dir: 'repos/a__b-1', ground_truth: { read_core_files: ['m.py'], read_core_regions: [reg('m.py', 1, 3)] } })}\n`);
    const preds = path.join(clean, 'p.jsonl');
    await writeFile(preds, `${JSON.stringify({ instance_id: 'a__b-1', explorer: 'e', regions: [reg('m.py', 1, -1), reg('m.py', 2, 2)], num_regions: 2 })}\n`);
    assert.deepEqual(await validateWorkspace({ benchFile: bench, predictionFiles: [preds] }), []);
  });

  it('validateData works on loaded items and shares a cache', async () => {
    const bench = await readBenchFile(benchFile);
    const cache = new LineCountCache();
    const problems = await validateData({ benchFile, bench: bench.items, predictions: [], reposRoot: ws, cache });
    assert.ok(problems.some((p) => p.code === 'region-past-eof'));
    assert.ok(cache.size >= 2);
    // Parse problems are not part of validateData.
    assert.ok(!problems.some((p) => p.code === 'schema' || p.code === 'duplicate-instance'));
  });
});
