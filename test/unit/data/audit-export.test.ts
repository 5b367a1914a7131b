import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyRemovals, type Removal } from '../../../src/core/index';
import { exportCorrectedBench, writeFileAtomically, type BenchLine } from '../../../src/data/audit/exportBench';
import { parseBench } from '../../../src/data/formats/jsonl';
import { toGroundTruth } from '../../../src/data/formats/records';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'swe-export-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A record as Python's json.dumps writes it, with an unknown field, odd number spellings and escapes. */
function pythonRecord(id: string): string {
  return (
    `{"instance_id": "${id}", "zz_unknown": {"x": 1.50, "y": 1e3, "s": "caf\\u00e9 \\ud83d\\ude00"}, "ground_truth": {` +
    `"read_core_files": ["a.py", "b.py", "c.py"], ` +
    `"read_core_regions": [{"path": "a.py", "start": 1, "end": 10}, {"path": "b.py", "start": 5, "end": 9}, {"path": "c.py", "end": 4, "start": 1, "extra": true}], ` +
    `"read_optional_files_map": {"m1": ["o.py"], "m2": ["o.py", "p.py"]}, ` +
    `"read_optional_regions_map": {"m1": [{"path": "o.py", "start": 1, "end": 20}], "m2": [{"path": "o.py", "start": 1, "end": 20}, {"path": "p.py", "start": -3, "end": -1}]}, ` +
    `"modified_core_files": ["a.py", "b.py"], "main_files": ["a.py", "b.py"]}, "patch": "diff --git a/a.py\\n+x\\r\\n", "meta": {"num_trajectories": 3}}`
  );
}

function benchLines(text: string): BenchLine[] {
  const parsed = parseBench(text, 'bench.jsonl');
  assert.deepEqual(parsed.problems, []);
  return parsed.items.map((item) => ({ raw: item.raw, record: item.value }));
}

const core = (p: string, start: number, end: number): Removal => ({ layer: 'core', model: null, path: p, start, end });
const opt = (model: string | null, p: string, start: number, end: number): Removal => ({ layer: 'optional', model, path: p, start, end });

describe('exportCorrectedBench', () => {
  const raws = [pythonRecord('i-1'), pythonRecord('i-2'), pythonRecord('i-3')];
  const lines = benchLines(`${raws.join('\n')}\n`);

  it('records without effective removals are written byte-for-byte; order kept', () => {
    const out = exportCorrectedBench(lines, new Map([['i-2', []]]), new Map());
    assert.deepEqual(out, raws);
  });

  it('splices only the changed lists; everything else stays byte-identical', () => {
    const removals = new Map<string, Removal[]>([['i-2', [core('a.py', 4, 5), core('b.py', 1, 20)]]]);
    const out = exportCorrectedBench(lines, removals, new Map());
    assert.equal(out[0], raws[0]);
    assert.equal(out[2], raws[2]);
    const want = raws[1]!
      .replace(
        '[{"path": "a.py", "start": 1, "end": 10}, {"path": "b.py", "start": 5, "end": 9}, {"path": "c.py", "end": 4, "start": 1, "extra": true}]',
        '[{"path": "a.py", "start": 1, "end": 3}, {"path": "a.py", "start": 6, "end": 10}, {"path": "c.py", "end": 4, "start": 1, "extra": true}]',
      )
      .replace('"read_core_files": ["a.py", "b.py", "c.py"]', '"read_core_files": ["a.py", "c.py"]')
      .replace('"main_files": ["a.py", "b.py"]', '"main_files": ["a.py"]');
    assert.equal(out[1], want);
    // …and it parses to what applyRemovals says.
    const reparsed = benchLines(`${out[1]}\n`)[0]!;
    assert.deepEqual(plain(toGroundTruth(reparsed.record)), plain(applyRemovals(toGroundTruth(lines[1]!.record), removals.get('i-2')!, new Map())));
  });

  it('optional lists per model; tail regions resolved with the instance line counts', () => {
    const removals = new Map<string, Removal[]>([['i-1', [opt('m2', 'p.py', 1, 100), opt('m1', 'o.py', 5, 5)]]]);
    const out = exportCorrectedBench(lines, removals, new Map([['i-1', new Map([['p.py', 30]])]]));
    const want = raws[0]!
      .replace('"m1": [{"path": "o.py", "start": 1, "end": 20}]', '"m1": [{"path": "o.py", "start": 1, "end": 4}, {"path": "o.py", "start": 6, "end": 20}]')
      .replace(', {"path": "p.py", "start": -3, "end": -1}]', ']')
      .replace('"m2": ["o.py", "p.py"]', '"m2": ["o.py"]');
    assert.equal(out[0], want);
    // without a line count the tail region covers no line: nothing changes for m2
    const noCounts = exportCorrectedBench(lines, new Map([['i-1', [opt('m2', 'p.py', 1, 100)]]]), new Map());
    assert.equal(noCounts[0], raws[0]);
  });

  it('compact JSON stays compact; duplicate keys follow JSON.parse (last wins)', () => {
    const raw =
      '{"instance_id":"c-1","ground_truth":{"read_core_files":["x.py"],"read_core_regions":[{"path":"x.py","start":1,"end":9}],"read_optional_files_map":{},"read_optional_regions_map":{},"modified_core_files":[],"main_files":[],"read_core_regions":[{"path":"x.py","start":1,"end":5}]}}';
    const [line] = benchLines(`${raw}\n`);
    const out = exportCorrectedBench([line!], new Map([['c-1', [core('x.py', 2, 3)]]]), new Map());
    assert.equal(out[0], raw.replace('"read_core_regions":[{"path":"x.py","start":1,"end":5}]', '"read_core_regions":[{"path":"x.py","start":1,"end":1},{"path":"x.py","start":4,"end":5}]'));
  });

  it('property: every exported line parses to applyRemovals of the original, and unchanged records are identical', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            path: fc.constantFrom('a.py', 'b.py', 'c.py', 'o.py', 'p.py'),
            start: fc.integer({ min: 0, max: 25 }),
            end: fc.integer({ min: -1, max: 25 }),
            layer: fc.constantFrom<'core' | 'optional'>('core', 'optional'),
            model: fc.constantFrom(null, 'm1', 'm2'),
          }),
          { maxLength: 5 },
        ),
        (specs) => {
          const removals = specs.map((s) => (s.layer === 'core' ? core(s.path, s.start, s.end) : opt(s.model, s.path, s.start, s.end)));
          const counts = new Map([['p.py', 12]]);
          const out = exportCorrectedBench(lines, new Map([['i-3', removals]]), new Map([['i-3', counts]]));
          assert.equal(out[0], raws[0]);
          const reparsed = benchLines(`${out[2]}\n`)[0]!;
          assert.deepEqual(toGroundTruth(reparsed.record), toGroundTruth({ ground_truth: JSON.parse(JSON.stringify(applyRemovalsAsRecord(lines[2]!, removals, counts))) }));
          // Fields outside ground_truth are untouched text.
          assert.ok(out[2]!.startsWith(raws[2]!.slice(0, raws[2]!.indexOf('"ground_truth"'))));
          assert.ok(out[2]!.endsWith(raws[2]!.slice(raws[2]!.indexOf(', "patch"'))));
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** Prototype-free comparison (toGroundTruth builds null-prototype maps). */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** The expected ground truth in record (snake_case) form. */
function applyRemovalsAsRecord(line: BenchLine, removals: readonly Removal[], counts: ReadonlyMap<string, number>): unknown {
  const g = applyRemovals(toGroundTruth(line.record), removals, counts);
  return {
    read_core_files: g.coreFiles,
    read_core_regions: g.coreRegions,
    read_optional_files_map: g.optionalFilesByModel,
    read_optional_regions_map: g.optionalRegionsByModel,
    modified_core_files: g.modifiedCoreFiles,
    main_files: g.mainFiles,
  };
}

describe('writeFileAtomically', () => {
  it('replaces the target in one rename and leaves no temporary file', async () => {
    const target = path.join(dir, 'out.jsonl');
    await writeFile(target, 'old\n');
    await writeFileAtomically(target, 'new\n');
    assert.equal(await readFile(target, 'utf8'), 'new\n');
    await writeFileAtomically(path.join(dir, 'fresh.jsonl'), 'x');
    assert.deepEqual((await readdir(dir)).sort(), ['fresh.jsonl', 'out.jsonl']);
  });

  it('a failed write leaves the target as it was', async () => {
    await assert.rejects(writeFileAtomically(path.join(dir, 'missing-folder', 'x.jsonl'), 'x'));
  });
});
