import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fastParseBenchRecord, fastParsePredictionRow, formatIssuePath, toGroundTruth } from '../../../src/data/formats/records';
import { BenchRecordSchema, PredictionRowSchema, RegionSchema } from '../../../src/data/formats/schemas';

const minimalBench = { instance_id: 'org__repo-1', ground_truth: { read_core_regions: [{ path: 'a.py', start: 1, end: 3 }] } };

describe('RegionSchema', () => {
  it('accepts integer regions and keeps extra keys', () => {
    const r = RegionSchema.parse({ path: 'a.py', start: -8, end: -1, note: 'tail' });
    assert.deepEqual(r, { path: 'a.py', start: -8, end: -1, note: 'tail' });
  });
  for (const [name, value] of [
    ['non-integer start', { path: 'a', start: 1.5, end: 2 }],
    ['string start', { path: 'a', start: '1', end: 2 }],
    ['missing end', { path: 'a', start: 1 }],
    ['null path', { path: null, start: 1, end: 2 }],
    ['unsafe integer', { path: 'a', start: 1, end: 2 ** 60 }],
    ['array', ['a', 1, 2]],
  ] as const) {
    it(`rejects ${name}`, () => assert.equal(RegionSchema.safeParse(value).success, false));
  }
  it('words integer problems clearly', () => {
    const r = RegionSchema.safeParse({ path: 'a', start: '3', end: 2.5 }, { reportInput: true });
    assert.ok(!r.success);
    assert.deepEqual(
      r.error.issues.map((i) => i.message),
      ['expected integer, got string "3"', 'expected integer, got number 2.5'],
    );
  });
});

describe('BenchRecordSchema', () => {
  it('defaults missing optional lists and maps to empty', () => {
    const r = BenchRecordSchema.parse(minimalBench);
    assert.deepEqual(r.ground_truth.read_core_files, []);
    assert.deepEqual(r.ground_truth.read_optional_files_map, {});
    assert.deepEqual(r.ground_truth.read_optional_regions_map, {});
    assert.deepEqual(r.ground_truth.modified_core_files, []);
    assert.deepEqual(r.ground_truth.main_files, []);
  });

  it('reads null optional collections as empty (Python None)', () => {
    const r = BenchRecordSchema.parse({
      instance_id: 'x',
      ground_truth: { read_core_regions: [], read_core_files: null, read_optional_regions_map: null },
      repo_dir: null,
    });
    assert.deepEqual(r.ground_truth.read_core_files, []);
    assert.deepEqual(r.ground_truth.read_optional_regions_map, {});
    assert.equal(r.repo_dir, null);
  });

  it('keeps unknown fields at every level', () => {
    const r = BenchRecordSchema.parse({
      ...minimalBench,
      FAIL_TO_PASS: '["t"]',
      ground_truth: { ...minimalBench.ground_truth, extra_gt: 1 },
    });
    assert.equal(r['FAIL_TO_PASS'], '["t"]');
    assert.equal(r.ground_truth['extra_gt'], 1);
  });

  it('accepts read_step_info and meta', () => {
    const r = BenchRecordSchema.parse({
      ...minimalBench,
      read_step_info: { 'a.py': [{ traj_path: 't.json', step_idx: 4, start: -20, end: -1 }] },
      meta: { num_trajectories: 3 },
    });
    assert.equal(r.read_step_info?.['a.py']?.[0]?.start, -20);
  });

  for (const [name, value, where] of [
    ['missing ground_truth', { instance_id: 'x' }, 'ground_truth'],
    ['missing read_core_regions', { instance_id: 'x', ground_truth: {} }, 'ground_truth.read_core_regions'],
    ['read_core_regions not an array', { instance_id: 'x', ground_truth: { read_core_regions: {} } }, 'ground_truth.read_core_regions'],
    ['empty instance id', { instance_id: '', ground_truth: { read_core_regions: [] } }, 'instance_id'],
    ['numeric instance id', { instance_id: 7, ground_truth: { read_core_regions: [] } }, 'instance_id'],
    [
      'bad optional region',
      { instance_id: 'x', ground_truth: { read_core_regions: [], read_optional_regions_map: { 'm/x': [{ path: 'a', start: 1, end: 'z' }] } } },
      'ground_truth.read_optional_regions_map["m/x"][0].end',
    ],
    [
      'bad step',
      { instance_id: 'x', ground_truth: { read_core_regions: [] }, read_step_info: { 'a.py': [{ traj_path: 't', step_idx: 1.5, start: 1, end: 2 }] } },
      'read_step_info["a.py"][0].step_idx',
    ],
  ] as const) {
    it(`rejects ${name} at ${where}`, () => {
      const r = BenchRecordSchema.safeParse(value);
      assert.ok(!r.success);
      assert.equal(formatIssuePath(r.error.issues[0]!.path), where);
    });
  }
});

describe('toGroundTruth', () => {
  it('maps fields in order, duplicates kept, extra region keys dropped', () => {
    const record = BenchRecordSchema.parse({
      instance_id: 'x',
      ground_truth: {
        read_core_files: ['a.py'],
        read_core_regions: [
          { path: 'a.py', start: 5, end: 9, why: 'x' },
          { path: 'a.py', start: 1, end: 2 },
        ],
        read_optional_files_map: { m1: ['b.py'], constructor: ['c.py'] },
        read_optional_regions_map: {
          m1: [
            { path: 'b.py', start: -203, end: 538 },
            { path: 'b.py', start: -203, end: 538 },
          ],
        },
        modified_core_files: ['a.py', 'build/lib/a.py'],
        main_files: ['a.py'],
      },
    });
    const gt = toGroundTruth(record);
    assert.deepEqual(gt.coreRegions, [
      { path: 'a.py', start: 5, end: 9 },
      { path: 'a.py', start: 1, end: 2 },
    ]);
    assert.deepEqual(gt.coreFiles, ['a.py']);
    assert.deepEqual(gt.optionalRegionsByModel['m1'], [
      { path: 'b.py', start: -203, end: 538 },
      { path: 'b.py', start: -203, end: 538 },
    ]);
    assert.deepEqual(gt.optionalFilesByModel['constructor'], ['c.py']);
    assert.equal(gt.optionalFilesByModel['toString'], undefined);
    assert.deepEqual(gt.modifiedCoreFiles, ['a.py', 'build/lib/a.py']);
    assert.deepEqual(gt.mainFiles, ['a.py']);
  });
});

describe('PredictionRowSchema', () => {
  it('accepts a result row and keeps unknown fields', () => {
    const r = PredictionRowSchema.parse({
      instance_id: 'x',
      explorer: 'cosil',
      regions: [{ path: 'a.py', start: 1, end: -1 }],
      metrics: { precision: 0.5, recall: null },
      num_regions: 1,
      token_usage: null,
    });
    assert.equal(r.explorer, 'cosil');
    assert.equal(r['token_usage'], null);
  });
  it('requires explorer and regions', () => {
    assert.equal(PredictionRowSchema.safeParse({ instance_id: 'x', regions: [] }).success, false);
    assert.equal(PredictionRowSchema.safeParse({ instance_id: 'x', explorer: 'e' }).success, false);
  });
});

// ---------------------------------------------------------------------------------------------
// The fast paths must agree with zod: whenever they accept, zod accepts with the same output.

const jsonLeaf = fc.oneof(fc.integer({ min: -5, max: 600 }), fc.constantFrom(1.5, -1, 0, 2 ** 60, '3', '', 'a.py', null, true));
const region = fc.oneof(
  { weight: 30, arbitrary: fc.record({ path: fc.constantFrom('a.py', 'b/c.py', ''), start: fc.integer({ min: -10, max: 50 }), end: fc.integer({ min: -3, max: 50 }) }) },
  { weight: 1, arbitrary: fc.record({ path: jsonLeaf, start: jsonLeaf, end: jsonLeaf }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.constantFrom(null, [], 'x', { path: 'a', start: 1, end: 2, extra: [1] }) },
);
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: fc.constantFrom(null, undefined) });
const stringList = fc.oneof({ weight: 15, arbitrary: fc.array(fc.constantFrom('a.py', 'b.py')) }, { weight: 1, arbitrary: fc.constantFrom([1], 'a.py', {}) });

const benchLike = fc.record(
  {
    instance_id: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('a__b-1', 'x') }, { weight: 1, arbitrary: fc.constantFrom('', 3, null) }),
    ground_truth: fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record(
          {
            read_core_files: maybe(stringList),
            read_core_regions: fc.oneof({ weight: 8, arbitrary: fc.array(region, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.constantFrom(null, {}) }),
            read_optional_files_map: maybe(fc.dictionary(fc.constantFrom('m1', 'org/m2'), stringList)),
            read_optional_regions_map: maybe(fc.dictionary(fc.constantFrom('m1', 'org/m2'), fc.array(region, { maxLength: 3 }))),
            modified_core_files: maybe(stringList),
            main_files: maybe(stringList),
            extra: jsonLeaf,
          },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom(null, [], 'gt') },
    ),
    repo_dir: maybe(fc.oneof({ weight: 8, arbitrary: fc.constant('repos/x') }, { weight: 1, arbitrary: fc.constant(3) })),
    problem_statement: maybe(fc.string()),
    read_step_info: maybe(
      fc.dictionary(
        fc.constantFrom('a.py', 'z.py'),
        fc.array(
          fc.oneof(
            { weight: 30, arbitrary: fc.record({ traj_path: fc.constantFrom('t.json'), step_idx: fc.nat(40), start: fc.integer({ min: -20, max: 40 }), end: fc.integer({ min: -1, max: 40 }) }) },
            { weight: 1, arbitrary: fc.record({ traj_path: jsonLeaf, step_idx: jsonLeaf, start: jsonLeaf, end: jsonLeaf }, { requiredKeys: [] }) },
          ),
          { maxLength: 3 },
        ),
      ),
    ),
    meta: maybe(fc.oneof({ weight: 8, arbitrary: fc.constant({ num_trajectories: 3 }) }, { weight: 1, arbitrary: fc.constantFrom([1], 'meta') })),
    FAIL_TO_PASS: jsonLeaf,
  },
  { requiredKeys: [] },
);

const predictionLike = fc.record(
  {
    instance_id: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('a__b-1') }, { weight: 1, arbitrary: fc.constantFrom('', 3) }),
    explorer: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('cosil') }, { weight: 1, arbitrary: fc.constantFrom(null, 1) }),
    regions: fc.oneof({ weight: 8, arbitrary: fc.array(region, { maxLength: 5 }) }, { weight: 1, arbitrary: fc.constantFrom(null, {}) }),
    metrics: maybe(
      fc.oneof(fc.dictionary(fc.constantFrom('precision', 'recall'), fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null))), fc.constantFrom({ recall: '1' }, [0.5])),
    ),
    num_regions: maybe(jsonLeaf),
    token_usage: jsonLeaf,
  },
  { requiredKeys: [] },
);

let accepted = 0;

function agree(schema: typeof BenchRecordSchema | typeof PredictionRowSchema, fast: (v: unknown) => unknown, value: unknown): boolean {
  // Both sides get their own copy: the fast path fills defaults in place.
  const viaZod = schema.safeParse(structuredClone(value));
  const viaFast = fast(structuredClone(value));
  if (viaFast === undefined) return true; // zod decides; nothing to compare
  accepted += 1;
  assert.ok(viaZod.success, `fast path accepted what zod rejects: ${JSON.stringify(value)}`);
  assert.deepStrictEqual(viaFast, viaZod.data);
  return true;
}

describe('fast paths agree with zod', () => {
  it('bench records', () => {
    accepted = 0;
    fc.assert(
      fc.property(benchLike, (v) => agree(BenchRecordSchema, fastParseBenchRecord, v)),
      { numRuns: 3000 },
    );
    // The comparison must not be vacuous: a fair share of inputs takes the fast path.
    assert.ok(accepted > 300, `only ${accepted} inputs took the fast path`);
  });
  it('prediction rows', () => {
    accepted = 0;
    fc.assert(
      fc.property(predictionLike, (v) => agree(PredictionRowSchema, fastParsePredictionRow, v)),
      { numRuns: 3000 },
    );
    assert.ok(accepted > 300, `only ${accepted} inputs took the fast path`);
  });
  it('accept the well-formed common case', () => {
    assert.notEqual(fastParseBenchRecord(structuredClone(minimalBench)), undefined);
    assert.notEqual(fastParsePredictionRow({ instance_id: 'x', explorer: 'e', regions: [] }), undefined);
  });
  it('leave own __proto__ members of shaped objects to zod', () => {
    const v = JSON.parse('{"instance_id":"x","explorer":"e","regions":[{"path":"a","start":1,"end":1,"__proto__":1}]}') as unknown;
    assert.equal(fastParsePredictionRow(v), undefined);
  });
  it('keep a map key named __proto__, on both paths', () => {
    const text = '{"instance_id":"x","explorer":"e","regions":[],"metrics":{"__proto__":1}}';
    const viaFast = fastParsePredictionRow(JSON.parse(text));
    assert.equal(Object.hasOwn(viaFast!.metrics!, '__proto__'), true);
    const viaZod = PredictionRowSchema.parse(JSON.parse(text));
    assert.equal(Object.hasOwn(viaZod.metrics!, '__proto__'), true);
    assert.equal(viaZod.metrics!['__proto__'], 1);
    const bench = '{"instance_id":"x","ground_truth":{"read_core_regions":[],"read_optional_regions_map":{"__proto__":[{"path":"a.py","start":1,"end":2}]}}}';
    for (const record of [fastParseBenchRecord(JSON.parse(bench))!, BenchRecordSchema.parse(JSON.parse(bench))]) {
      const gt = toGroundTruth(record);
      assert.equal(Object.hasOwn(gt.optionalRegionsByModel, '__proto__'), true);
      assert.deepEqual(gt.optionalRegionsByModel['__proto__'], [{ path: 'a.py', start: 1, end: 2 }]);
    }
  });
  it('zod reports a bad value under a __proto__ map key', () => {
    const bench = '{"instance_id":"x","ground_truth":{"read_core_regions":[],"read_optional_regions_map":{"__proto__":"oops"}}}';
    const r = BenchRecordSchema.safeParse(JSON.parse(bench));
    assert.equal(r.success, false);
    assert.deepEqual(r.error!.issues[0]!.path, ['ground_truth', 'read_optional_regions_map', '__proto__']);
  });
});
