/**
 * Miss anatomy (src/core/missAnatomy.ts): each category alone, their precedence, duplicates,
 * whole-file and tail regions, the nearest prediction of wrong-region spans, and a property test
 * against a line-by-line reference written from the category list alone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  MISS_CATEGORIES,
  missAnatomy,
  normalisePredictedPath,
  prepareInstance,
  recallAt,
  type GroundTruth,
  type LineCounts,
  type MissAnatomy,
  type MissCategory,
  type Profile,
  type Region,
} from '../../../src/core/index';
import { counts, gt, reg } from '../support/core-builders';
import { groundTruthArb, lineCountsArb, predictionsArb } from '../support/core-arbitraries';
import { naiveCountFor, naiveEvaluate, naiveResolve } from '../support/core-naive';
import { cpuNow } from '../support/cpu-time';

const RUNS = Number(process.env.CORE_PROPERTY_RUNS ?? 2000);

function anatomy(groundTruth: GroundTruth, predictions: readonly Region[], budget: number, lineCounts: LineCounts = new Map(), repoPath?: string): MissAnatomy {
  return missAnatomy(prepareInstance(groundTruth, predictions, lineCounts), budget, { repoPath });
}

/** The counts as a plain object with only the non-zero categories (short assertions). */
function nonZero(result: MissAnatomy): Partial<Record<MissCategory, number>> {
  const out: Partial<Record<MissCategory, number>> = {};
  for (const category of MISS_CATEGORIES) if (result.counts[category] > 0) out[category] = result.counts[category];
  return out;
}

function spansOf(result: MissAnatomy, category: MissCategory): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const [path, set] of result.spans[category]) out[path] = set.map(([s, e]) => [s, e]);
  return out;
}

const core = gt({ coreRegions: [reg('a.py', 10, 19)] });

describe('miss anatomy: each category alone', () => {
  it('hit: every core line inside the budget', () => {
    const result = anatomy(core, [reg('a.py', 1, 30)], 500);
    assert.deepEqual(nonZero(result), { hit: 10 });
    assert.equal(result.coreLines, 10);
    assert.deepEqual(spansOf(result, 'hit'), { 'a.py': [[10, 19]] });
  });

  it('beyond_budget: covered, but after B ran out (cut inside a region)', () => {
    const result = anatomy(core, [reg('b.py', 1, 8), reg('a.py', 1, 30)], 20);
    // 8 lines of b.py, then a.py 1..12: core lines 10..12 examined, 13..19 beyond.
    assert.deepEqual(nonZero(result), { hit: 3, beyond_budget: 7 });
    assert.deepEqual(spansOf(result, 'beyond_budget'), { 'a.py': [[13, 19]] });
  });

  it('path_mismatch: ./, /testbed/, leading / and backslashes name the same file', () => {
    for (const path of ['./a.py', '/testbed/a.py', '/a.py', '.\\a.py', 'testbed\\..\\x', '/testbed/./a.py']) {
      const result = anatomy(core, [reg(path, 1, 30)], 500, new Map(), '/testbed');
      if (path === 'testbed\\..\\x') assert.deepEqual(nonZero(result), { file_not_predicted: 10 }, path);
      else assert.deepEqual(nonZero(result), { path_mismatch: 10 }, path);
    }
    assert.deepEqual(nonZero(anatomy(gt({ coreRegions: [reg('pkg/m.py', 1, 4)] }), [reg('pkg\\m.py', 1, 2)], 500)), { path_mismatch: 2, file_not_predicted: 2 });
  });

  it('path_mismatch: one normalisation, so a//b.py, a/./b.py and /testbed//a/b.py all name a/b.py', () => {
    for (const path of ['pkg//m.py', 'pkg/./m.py', '/testbed//pkg/m.py', 'pkg/.//m.py', '/testbed/pkg/./m.py', 'pkg\\\\m.py']) {
      assert.deepEqual(nonZero(anatomy(gt({ coreRegions: [reg('pkg/m.py', 1, 4)] }), [reg(path, 1, 4)], 500, new Map(), '/testbed')), { path_mismatch: 4 }, path);
    }
    // The core's own spelling is normalised the same way.
    assert.deepEqual(nonZero(anatomy(gt({ coreRegions: [reg('pkg//m.py', 1, 4)] }), [reg('pkg/m.py', 1, 4)], 500)), { path_mismatch: 4 });
    assert.equal(normalisePredictedPath('/testbed//pkg/./m.py', '/testbed'), normalisePredictedPath('pkg//m.py'));
  });

  it('path_mismatch resolves whole-file and tail ranges with the core path line count', () => {
    const lineCounts = counts({ 'a.py': 40 });
    assert.deepEqual(nonZero(anatomy(core, [reg('/testbed/a.py', 1, -1)], 500, lineCounts, '/testbed')), { path_mismatch: 10 });
    // The last 25 lines of a 40-line file: 16..40 holds core lines 16..19.
    assert.deepEqual(nonZero(anatomy(core, [reg('./a.py', -25, -1)], 500, lineCounts)), { path_mismatch: 4, file_not_predicted: 6 });
    // Without a count the whole-file prediction resolves to nothing.
    assert.deepEqual(nonZero(anatomy(core, [reg('./a.py', 1, -1)], 500)), { file_not_predicted: 10 });
  });

  it('inverted: start > end ≥ 1 on the exact path, swapped range contains the line', () => {
    const result = anatomy(core, [reg('a.py', 15, 12)], 500);
    assert.deepEqual(nonZero(result), { inverted: 4, wrong_region: 6 });
    assert.deepEqual(spansOf(result, 'inverted'), { 'a.py': [[12, 15]] });
    assert.deepEqual(spansOf(result, 'wrong_region'), {
      'a.py': [
        [10, 11],
        [16, 19],
      ],
    });
  });

  it('a tail region resolved inverted by clamping is not "inverted" (its raw start is negative)', () => {
    // (-3, 12) on a 40-line file resolves to (38, 12): no line, and not start > end ≥ 1 as written.
    assert.deepEqual(nonZero(anatomy(core, [reg('a.py', -3, 12)], 500, counts({ 'a.py': 40 }))), { wrong_region: 10 });
  });

  it('wrong_region: the exact path is named, nothing covers the line', () => {
    const result = anatomy(core, [reg('a.py', 100, 120)], 500);
    assert.deepEqual(nonZero(result), { wrong_region: 10 });
    assert.deepEqual(result.wrongRegion, [{ path: 'a.py', start: 10, end: 19, nearest: { rank: 1, distance: 81, side: 'below' } }]);
  });

  it('wrong_region when the only prediction on the path is unresolvable; nearest is then null', () => {
    const result = anatomy(core, [reg('a.py', 1, -1)], 500);
    assert.deepEqual(nonZero(result), { wrong_region: 10 });
    assert.deepEqual(result.wrongRegion, [{ path: 'a.py', start: 10, end: 19, nearest: null }]);
  });

  it('file_not_predicted: no prediction names the file', () => {
    const result = anatomy(core, [reg('b.py', 1, 30)], 500);
    assert.deepEqual(nonZero(result), { file_not_predicted: 10 });
    assert.deepEqual(spansOf(result, 'file_not_predicted'), { 'a.py': [[10, 19]] });
    assert.deepEqual(nonZero(anatomy(core, [], 500)), { file_not_predicted: 10 });
  });
});

describe('miss anatomy: precedence', () => {
  it('hit beats beyond_budget beats path_mismatch beats inverted beats wrong_region', () => {
    const groundTruth = gt({ coreRegions: [reg('a.py', 1, 50)] });
    const predictions = [
      reg('a.py', 1, 5), // 5 lines, all in budget
      reg('a.py', 1, 10), // 1..5 in budget, 6..10 beyond (B = 10)
      reg('./a.py', 8, 20), // 11..20 mismatch (8..10 already beyond)
      reg('a.py', 30, 18), // 21..30 inverted (18..20 already mismatch)
      reg('a.py', 45, 45), // covered, beyond
    ];
    const result = anatomy(groundTruth, predictions, 10);
    assert.deepEqual(nonZero(result), { hit: 5, beyond_budget: 6, path_mismatch: 10, inverted: 10, wrong_region: 19 });
    assert.deepEqual(spansOf(result, 'beyond_budget'), {
      'a.py': [
        [6, 10],
        [45, 45],
      ],
    });
    assert.deepEqual(spansOf(result, 'wrong_region'), {
      'a.py': [
        [31, 44],
        [46, 50],
      ],
    });
    // 31..44: prediction #4's swapped range ends at 30, one line above; #5 starts 1 below 44 too — tie goes to the better rank.
    assert.deepEqual(
      result.wrongRegion.map((s) => s.nearest),
      [
        { rank: 4, distance: 1, side: 'above' },
        { rank: 5, distance: 1, side: 'above' },
      ],
    );
  });

  it('a mismatched-path prediction that misses the line leaves it in file_not_predicted, not wrong_region', () => {
    assert.deepEqual(nonZero(anatomy(core, [reg('./a.py', 15, 30)], 500)), { path_mismatch: 5, file_not_predicted: 5 });
  });
});

describe('miss anatomy: duplicates, overlaps, whole files, tails', () => {
  it('duplicates consume budget again; the second copy is beyond the budget', () => {
    const result = anatomy(core, [reg('a.py', 10, 19), reg('a.py', 10, 19), reg('a.py', 5, 25)], 12);
    assert.deepEqual(nonZero(result), { hit: 10 });
    const cut = anatomy(gt({ coreRegions: [reg('a.py', 10, 19), reg('b.py', 1, 4)] }), [reg('a.py', 10, 19), reg('a.py', 10, 19), reg('b.py', 1, 4)], 20);
    assert.deepEqual(nonZero(cut), { hit: 10, beyond_budget: 4 });
  });

  it('overlapping core regions count each line once', () => {
    const groundTruth = gt({ coreRegions: [reg('a.py', 1, 10), reg('a.py', 5, 15), reg('a.py', 15, 15)] });
    const result = anatomy(groundTruth, [reg('a.py', 8, 9), reg('a.py', 9, 12)], 500);
    assert.equal(result.coreLines, 15);
    assert.deepEqual(nonZero(result), { hit: 5, wrong_region: 10 });
  });

  it('whole-file regions of a 50k-line file stay interval arithmetic (fast)', () => {
    const lineCounts = counts({ 'big.py': 50_000, 'other.py': 50_000 });
    const groundTruth = gt({ coreRegions: [reg('big.py', 1, 50_000), reg('other.py', -20_000, -1)] });
    const started = cpuNow();
    const result = anatomy(groundTruth, [reg('big.py', 1, -1), reg('big.py', 1, -1), reg('other.py', 40_000, 10)], 500, lineCounts);
    assert.ok(cpuNow() - started < 200, 'took too long');
    // other.py core: the last 20000 lines, 30001..50000; prediction #3 swapped is 10..40000.
    assert.equal(result.coreLines, 70_000);
    assert.deepEqual(nonZero(result), { hit: 500, beyond_budget: 49_500, inverted: 10_000, wrong_region: 10_000 });
    assert.deepEqual(spansOf(result, 'wrong_region'), { 'other.py': [[40_001, 50_000]] });
    assert.deepEqual(result.wrongRegion[0]!.nearest, { rank: 3, distance: 1, side: 'above' });
  });

  it('tail predictions resolve with the line count; hit equals Recall@B', () => {
    const lineCounts = counts({ 'a.py': 30 });
    const prepared = prepareInstance(core, [reg('a.py', -15, -1)], lineCounts);
    const result = missAnatomy(prepared, 3);
    // 16..30 resolved; B = 3 examines 16..18.
    assert.deepEqual(nonZero(result), { hit: 3, beyond_budget: 1, wrong_region: 6 });
    assert.equal(result.counts.hit / result.coreLines, recallAt(prepared, 3));
  });

  it('normalisePredictedPath strips repeatedly and only at the front', () => {
    assert.equal(normalisePredictedPath('/testbed/./x/testbed/y.py', '/testbed'), 'x/testbed/y.py');
    assert.equal(normalisePredictedPath('.\\.\\a\\b.py'), 'a/b.py');
    assert.equal(normalisePredictedPath('//a.py', '/testbed/'), 'a.py');
    assert.equal(normalisePredictedPath('/testbedx/a.py', '/testbed'), 'testbedx/a.py');
  });
});

// ---------------------------------------------------------------------------------------------
// Property: against a line-by-line reference written from the category list alone.

function naiveNormalise(path: string, repoPath: string): string {
  let out = path.split('\\').join('/');
  let changed = true;
  while (changed) {
    changed = false;
    for (const prefix of [`${repoPath}/`, './', '/']) {
      if (out.startsWith(prefix)) {
        out = out.slice(prefix.length);
        changed = true;
        break;
      }
    }
  }
  return out;
}

function naiveAnatomy(groundTruth: GroundTruth, predictions: readonly Region[], lineCounts: LineCounts, profile: Profile, budget: number): Record<MissCategory, number> {
  const countOf = naiveCountFor(groundTruth, lineCounts, profile);
  const examined = new Set<string>();
  let total = 0;
  walk: for (const p of predictions) {
    const res = naiveResolve(p.start, p.end, countOf(p.path));
    if (res === null) continue;
    for (let n = res.s; n <= res.e; n++) {
      total++;
      examined.add(`${p.path}:${n}`);
      if (total >= budget) break walk;
    }
  }
  const out: Record<MissCategory, number> = { hit: 0, beyond_budget: 0, path_mismatch: 0, inverted: 0, wrong_region: 0, file_not_predicted: 0 };
  const within = (n: number, s: number, e: number): boolean => s <= n && n <= e;
  for (const key of naiveEvaluate(groundTruth, predictions, lineCounts, profile).C) {
    const at = key.lastIndexOf(':');
    const path = key.slice(0, at);
    const n = Number(key.slice(at + 1));
    const exact = predictions.filter((p) => p.path === path);
    const resolvedContains = (p: Region, count: number | undefined): boolean => {
      const res = naiveResolve(p.start, p.end, count);
      return res !== null && within(n, res.s, res.e);
    };
    if (examined.has(key)) out.hit++;
    else if (exact.some((p) => resolvedContains(p, countOf(path)))) out.beyond_budget++;
    else if (predictions.some((p) => p.path !== path && naiveNormalise(p.path, '/testbed') === naiveNormalise(path, '/testbed') && resolvedContains(p, countOf(path)))) out.path_mismatch++;
    else if (exact.some((p) => p.start > p.end && p.end >= 1 && within(n, p.end, p.start))) out.inverted++;
    else if (exact.length > 0) out.wrong_region++;
    else out.file_not_predicted++;
  }
  return out;
}

/** Rewrites some prediction paths into spellings that name the same file. */
const spellingArb = fc.constantFrom(
  (p: string) => p,
  (p: string) => p,
  (p: string) => `./${p}`,
  (p: string) => `/testbed/${p}`,
  (p: string) => `/${p}`,
  (p: string) => `.\\${p}`,
);

const missInstanceArb = groundTruthArb().chain((groundTruth) =>
  fc.record({
    groundTruth: fc.constant(groundTruth),
    predictions: predictionsArb(groundTruth).chain((predictions) =>
      fc.tuple(...predictions.map(() => spellingArb)).map((spellings) => predictions.map((p, i) => ({ ...p, path: spellings[i]!(p.path) }))),
    ),
    lineCounts: lineCountsArb,
    profile: fc.constantFrom<Profile>('official', 'snapshot'),
    budget: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(1, 100, 300, 500)),
  }),
);

describe('miss anatomy: property against a line-by-line reference', () => {
  it('counts sum to |C|, hit is Recall@B numerator, every count equals the reference, spans match counts', () => {
    fc.assert(
      fc.property(missInstanceArb, ({ groundTruth, predictions, lineCounts, profile, budget }) => {
        const prepared = prepareInstance(groundTruth, predictions, lineCounts, profile);
        const result = missAnatomy(prepared, budget, { repoPath: '/testbed' });
        let sum = 0;
        for (const category of MISS_CATEGORIES) {
          sum += result.counts[category];
          let spanLines = 0;
          for (const set of result.spans[category].values()) for (const [s, e] of set) spanLines += e - s + 1;
          assert.equal(spanLines, result.counts[category], `${category} spans`);
        }
        assert.equal(result.coreLines, prepared.coreSize);
        assert.equal(sum, prepared.coreSize);
        if (prepared.coreSize > 0) assert.equal(result.counts.hit / result.coreLines, recallAt(prepared, budget));
        assert.deepEqual(result.counts, naiveAnatomy(groundTruth, predictions, lineCounts, profile, budget));
        let wrongLines = 0;
        for (const span of result.wrongRegion) {
          wrongLines += span.end - span.start + 1;
          if (span.nearest !== null) assert.ok(span.nearest.distance >= 1);
        }
        assert.equal(wrongLines, result.counts.wrong_region);
      }),
      { numRuns: RUNS },
    );
  });
});
