/**
 * Patch reach (src/core/patchReach.ts): worked examples, and a property test that walks the
 * predictions line by line (written from the Recall@B rule alone) against random patch line sets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  lineSetFrom,
  MISS_CATEGORIES,
  missAnatomy,
  patchAnatomy,
  patchBaseLines,
  patchReach,
  patchReachSummary,
  prepareInstance,
  type GroundTruth,
  type LineCounts,
  type LineSet,
  type Profile,
  type Region,
} from '../../../src/core/index';
import { gt, reg } from '../support/core-builders';
import { groundTruthArb, lineCountsArb, PATHS, predictionsArb } from '../support/core-arbitraries';
import { lineKey, naiveCountFor, naiveEvaluate, naiveResolve } from '../support/core-naive';

const RUNS = Number(process.env.CORE_PROPERTY_RUNS ?? 2000);

function lines(entries: Record<string, [number, number][]>): LineSet {
  const ranges: { path: string; start: number; end: number }[] = [];
  for (const [path, list] of Object.entries(entries)) for (const [start, end] of list) ranges.push({ path, start, end });
  return lineSetFrom(ranges);
}

const core = gt({ coreRegions: [reg('a.py', 1, 100)] });

describe('patch reach: worked examples', () => {
  it('counts reached and missed patch lines, and the ranks that reach them within B', () => {
    const patch = lines({
      'a.py': [
        [10, 12],
        [50, 50],
        [90, 91],
      ],
      'b.py': [[5, 5]],
    });
    // #1 b.py 1..20 (20 lines, reaches b.py:5), #2 a.py 40..60 (reaches a.py:50), #3 a.py 5..15 (within B=45: 4 lines, 5..8: none).
    const prepared = prepareInstance(core, [reg('b.py', 1, 20), reg('a.py', 40, 60), reg('a.py', 5, 15)], new Map());
    const reach = patchReach(prepared, 45, patch);
    assert.equal(reach.patchLines, 7);
    assert.equal(reach.reachedLines, 2);
    assert.deepEqual(reach.ranks, [1, 2]);
    assert.equal(reach.firstRank, 1);
    assert.deepEqual(reach.missed, [
      { path: 'a.py', start: 10, end: 12 },
      { path: 'a.py', start: 90, end: 91 },
    ]);
    // With B = 100 rank 3 is examined whole and reaches 10..12 too.
    const wider = patchReach(prepared, 100, patch);
    assert.equal(wider.reachedLines, 5);
    assert.deepEqual(wider.ranks, [1, 2, 3]);
  });

  it('a duplicate rank spends budget but reaches nothing new; an inverted one reaches nothing; unresolvable ranks keep their number', () => {
    const patch = lines({ 'a.py': [[20, 20]] });
    const prepared = prepareInstance(core, [reg('a.py', 30, 10), reg('a.py', 1, -1), reg('a.py', 15, 25), reg('a.py', 15, 25)], new Map());
    const reach = patchReach(prepared, 500, patch);
    // #1 inverted (no lines), #2 whole file without a line count (unresolvable), #3 reaches, #4 repeats it.
    assert.deepEqual(reach.ranks, [3, 4]);
    assert.equal(reach.firstRank, 3);
    assert.equal(reach.reachedLines, 1);
  });

  it('no patch lines: 0 of 0, no rank', () => {
    const reach = patchReach(prepareInstance(core, [reg('a.py', 1, 10)], new Map()), 500, new Map());
    assert.deepEqual({ ...reach, reached: [...reach.reached] }, { budget: 500, patchLines: 0, reachedLines: 0, ranks: [], firstRank: null, reached: [], missed: [] });
  });

  it('counts a pure insertion by its anchor line', () => {
    const patch = patchBaseLines(['--- a/a.py', '+++ b/a.py', '@@ -40,2 +40,3 @@', ' x', '+y', ' z'].join('\n'));
    assert.equal(patchReach(prepareInstance(core, [reg('a.py', 40, 40)], new Map()), 500, patch).reachedLines, 1);
    assert.equal(patchReach(prepareInstance(core, [reg('a.py', 41, 45)], new Map()), 500, patch).reachedLines, 0);
  });

  it('summarises a row in one line: reached / all within B, by which ranks', () => {
    const base = { budget: 500, reached: new Map(), missed: [] };
    assert.equal(patchReachSummary({ ...base, patchLines: 14, reachedLines: 12, ranks: [2], firstRank: 2 }), 'gold patch lines: 12/14 within B=500 by #2');
    assert.equal(patchReachSummary({ ...base, patchLines: 14, reachedLines: 14, ranks: [1, 2, 4, 5, 7], firstRank: 1 }), 'gold patch lines: 14/14 within B=500 by #1, #2, #4 +2 more');
    assert.equal(patchReachSummary({ ...base, patchLines: 1, reachedLines: 0, ranks: [], firstRank: null }), 'gold patch lines: 0/1 within B=500, none reached');
    assert.equal(patchReachSummary({ ...base, patchLines: 0, reachedLines: 0, ranks: [], firstRank: null }), 'gold patch: no line of the base snapshot (new files only)');
  });

  it('patch anatomy: patch lines per miss category, and those outside the core', () => {
    const groundTruth = gt({ coreRegions: [reg('a.py', 1, 100), reg('c.py', 1, 10)] });
    const prepared = prepareInstance(groundTruth, [reg('a.py', 1, 20), reg('a.py', 60, 70)], new Map());
    const anatomy = missAnatomy(prepared, 25);
    // a.py 5 hit; 65 beyond budget; 90 wrong region; c.py 3 file not predicted; b.py 1 outside the core.
    const marker = patchAnatomy(
      anatomy,
      lines({
        'a.py': [
          [5, 5],
          [65, 65],
          [90, 90],
        ],
        'c.py': [[3, 3]],
        'b.py': [[1, 1]],
      }),
    );
    assert.deepEqual(marker.counts, { hit: 1, beyond_budget: 1, path_mismatch: 0, inverted: 0, wrong_region: 1, file_not_predicted: 1 });
    assert.equal(marker.outsideCore, 1);
    assert.deepEqual([...marker.spans.wrong_region], [['a.py', [[90, 90]]]]);
  });
});

/** Random patch lines on the arbitraries' paths. */
const patchArb: fc.Arbitrary<Region[]> = fc.array(
  fc.record({ path: fc.constantFrom(...PATHS), start: fc.integer({ min: 1, max: 450 }), len: fc.integer({ min: 0, max: 12 }) }).map(({ path, start, len }) => ({ path, start, end: start + len })),
  { maxLength: 6 },
);

/** Every examined line occurrence with the rank that examined it (Recall@B's walk, line by line). */
function naiveExamined(groundTruth: GroundTruth, predictions: readonly Region[], lineCounts: LineCounts, profile: Profile, budget: number): Map<string, Set<number>> {
  const countOf = naiveCountFor(groundTruth, lineCounts, profile);
  const out = new Map<string, Set<number>>();
  let total = 0;
  walk: for (let i = 0; i < predictions.length; i++) {
    const p = predictions[i]!;
    const res = naiveResolve(p.start, p.end, countOf(p.path));
    if (res === null) continue;
    for (let n = res.s; n <= res.e; n++) {
      total++;
      const key = lineKey(p.path, n);
      const ranks = out.get(key) ?? new Set<number>();
      ranks.add(i + 1);
      out.set(key, ranks);
      if (total >= budget) break walk;
    }
  }
  return out;
}

const reachArb = groundTruthArb().chain((groundTruth) =>
  fc.record({
    groundTruth: fc.constant(groundTruth),
    predictions: predictionsArb(groundTruth),
    lineCounts: lineCountsArb,
    profile: fc.constantFrom<Profile>('official', 'snapshot'),
    budget: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(1, 100, 300, 500)),
    patch: patchArb,
  }),
);

describe('patch reach: property against a line-by-line walk', () => {
  it('patch lines, reached lines, ranks, missed spans and the per-category marker equal the naive line sets', () => {
    fc.assert(
      fc.property(reachArb, ({ groundTruth, predictions, lineCounts, profile, budget, patch }) => {
        const patchKeys = new Set<string>();
        for (const r of patch) for (let n = r.start; n <= r.end; n++) patchKeys.add(lineKey(r.path, n));
        const patchLines = lineSetFrom(patch);
        const prepared = prepareInstance(groundTruth, predictions, lineCounts, profile);
        const reach = patchReach(prepared, budget, patchLines);

        const examined = naiveExamined(groundTruth, predictions, lineCounts, profile, budget);
        const reachedKeys = [...patchKeys].filter((k) => examined.has(k));
        const ranks = new Set<number>();
        for (const key of reachedKeys) for (const rank of examined.get(key)!) ranks.add(rank);
        assert.equal(reach.patchLines, patchKeys.size);
        assert.equal(reach.reachedLines, reachedKeys.length);
        const sortedRanks = [...ranks].sort((a, b) => a - b);
        assert.deepEqual(reach.ranks, sortedRanks);
        assert.equal(reach.firstRank, sortedRanks[0] ?? null);

        const missedKeys = new Set<string>();
        for (const span of reach.missed) for (let n = span.start; n <= span.end; n++) missedKeys.add(lineKey(span.path, n));
        assert.deepEqual([...missedKeys].sort(), [...patchKeys].filter((k) => !examined.has(k)).sort());
        for (let i = 1; i < reach.missed.length; i++) {
          const prev = reach.missed[i - 1]!;
          const next = reach.missed[i]!;
          assert.ok(prev.path < next.path || (prev.path === next.path && next.start > prev.end + 1), 'missed spans out of order or not maximal');
        }

        // The marker: patch lines in the anatomy's categories plus those outside C give every patch line once.
        const C = naiveEvaluate(groundTruth, predictions, lineCounts, profile).C;
        const marker = patchAnatomy(missAnatomy(prepared, budget), patchLines);
        let inCategories = 0;
        for (const category of MISS_CATEGORIES) inCategories += marker.counts[category];
        assert.equal(inCategories, [...patchKeys].filter((k) => C.has(k)).length);
        assert.equal(marker.outsideCore, [...patchKeys].filter((k) => !C.has(k)).length);
        assert.equal(marker.counts.hit, reachedKeys.filter((k) => C.has(k)).length);
      }),
      { numRuns: RUNS },
    );
  });
});
