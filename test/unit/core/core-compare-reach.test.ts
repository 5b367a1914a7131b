/**
 * Compare mode (src/core/compareReach.ts): a worked example, and a property test that expands
 * every set into `path:line` strings and checks the four sets against the naive evaluator's core
 * and Recall@B, and the difference spans against the onlyA/onlyB lines.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareLineSets, compareReach, missAnatomy, prepareInstance, reachedCore, type LineSet } from '../../../src/core/index';
import { gt, reg } from '../support/core-builders';
import { groundTruthArb, lineCountsArb, predictionsArb } from '../support/core-arbitraries';
import { lineKey, naiveEvaluate } from '../support/core-naive';

const RUNS = Number(process.env.CORE_PROPERTY_RUNS ?? 1000);

/** Every line of a set as `path:line`. */
function expand(set: LineSet): Set<string> {
  const out = new Set<string>();
  for (const [path, intervals] of set) for (const [s, e] of intervals) for (let n = s; n <= e; n++) out.add(lineKey(path, n));
  return out;
}

function plain(set: LineSet): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const [path, intervals] of set) out[path] = intervals.map(([s, e]) => [s, e]);
  return out;
}

describe('compare reach: worked example', () => {
  // Core a.py 10–29 and b.py 1–5; A reads a.py 1–20, B reads a.py 15–40, nobody reads b.py.
  const groundTruth = gt({ coreRegions: [reg('a.py', 10, 29), reg('b.py', 1, 5)] });
  const a = prepareInstance(groundTruth, [reg('a.py', 1, 20)], new Map());
  const b = prepareInstance(groundTruth, [reg('a.py', 15, 40)], new Map());

  it('splits the core into only A, only B, both and neither', () => {
    const result = compareReach(a, b, 500);
    assert.deepEqual(plain(result.onlyA), { 'a.py': [[10, 14]] });
    assert.deepEqual(plain(result.onlyB), { 'a.py': [[21, 29]] });
    assert.deepEqual(plain(result.both), { 'a.py': [[15, 20]] });
    assert.deepEqual(plain(result.neither), { 'b.py': [[1, 5]] });
    assert.deepEqual(result.differences, [
      { path: 'a.py', start: 10, end: 14, side: 'onlyA' },
      { path: 'a.py', start: 21, end: 29, side: 'onlyB' },
    ]);
  });

  it('reach stops where the budget runs out', () => {
    // B = 12: A examines a.py 1–12 (core 10–12), B examines a.py 15–26 (core 15–26).
    const result = compareReach(a, b, 12);
    assert.deepEqual(plain(result.onlyA), { 'a.py': [[10, 12]] });
    assert.deepEqual(plain(result.onlyB), { 'a.py': [[15, 26]] });
    assert.deepEqual(plain(result.both), {});
    assert.deepEqual(plain(result.neither), {
      'a.py': [
        [13, 14],
        [27, 29],
      ],
      'b.py': [[1, 5]],
    });
  });

  it('orders difference spans by path, then line, and keeps adjacent runs of the two sides apart', () => {
    const core = new Map([
      ['z.py', [[1, 10]] as const],
      ['m.py', [[1, 10]] as const],
    ]);
    const reachA = new Map([
      ['z.py', [[1, 4]] as const],
      ['m.py', [[6, 10]] as const],
    ]);
    const reachB = new Map([
      ['z.py', [[5, 7]] as const],
      ['m.py', [[1, 5]] as const],
    ]);
    const result = compareLineSets(core, reachA, reachB);
    assert.deepEqual(
      result.differences.map((d) => `${d.path}:${d.start}-${d.end}:${d.side}`),
      ['m.py:1-5:onlyB', 'm.py:6-10:onlyA', 'z.py:1-4:onlyA', 'z.py:5-7:onlyB'],
    );
    assert.deepEqual(plain(result.neither), { 'z.py': [[8, 10]] });
  });

  it('ignores reach outside the core', () => {
    const result = compareLineSets(
      new Map([['a.py', [[5, 6]] as const]]),
      new Map([
        ['a.py', [[1, 100]] as const],
        ['x.py', [[1, 3]] as const],
      ]),
      new Map(),
    );
    assert.deepEqual(plain(result.onlyA), { 'a.py': [[5, 6]] });
    assert.equal(result.onlyA.has('x.py'), false);
  });
});

describe('compare reach: property against the naive evaluator', () => {
  const arb = groundTruthArb().chain((groundTruth) =>
    fc.record({
      groundTruth: fc.constant(groundTruth),
      predictionsA: predictionsArb(groundTruth),
      predictionsB: predictionsArb(groundTruth),
      lineCounts: lineCountsArb,
      budget: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(1, 100, 300, 500)),
    }),
  );

  it('the four sets partition the core; onlyA ∪ both is A’s hit lines, onlyB ∪ both is B’s', () => {
    fc.assert(
      fc.property(arb, ({ groundTruth, predictionsA, predictionsB, lineCounts, budget }) => {
        const a = prepareInstance(groundTruth, predictionsA, lineCounts);
        const b = prepareInstance(groundTruth, predictionsB, lineCounts);
        const result = compareReach(a, b, budget);
        const sets = [result.onlyA, result.onlyB, result.both, result.neither].map(expand);
        const naiveA = naiveEvaluate(groundTruth, predictionsA, lineCounts, 'official');
        const naiveB = naiveEvaluate(groundTruth, predictionsB, lineCounts, 'official');
        // Partition of the naive core C.
        const all = new Set<string>();
        let total = 0;
        for (const set of sets) {
          total += set.size;
          for (const key of set) all.add(key);
        }
        assert.equal(total, all.size, 'the four sets overlap');
        assert.deepEqual([...all].sort(), [...naiveA.C].sort());
        // onlyA ∪ both = A's hit lines (the miss anatomy's), and their share of C is Recall@B.
        const [onlyA, onlyB, both] = sets as [Set<string>, Set<string>, Set<string>, Set<string>];
        const hitA = expand(missAnatomy(a, budget).spans.hit);
        const hitB = expand(missAnatomy(b, budget).spans.hit);
        assert.deepEqual([...new Set([...onlyA, ...both])].sort(), [...hitA].sort());
        assert.deepEqual([...new Set([...onlyB, ...both])].sort(), [...hitB].sort());
        assert.deepEqual(expand(reachedCore(a, budget)), hitA);
        if (naiveA.C.size > 0) {
          assert.ok(Math.abs(hitA.size / naiveA.C.size - naiveA.recallAt(budget)) < 1e-12);
          assert.ok(Math.abs(hitB.size / naiveB.C.size - naiveB.recallAt(budget)) < 1e-12);
        }
        // Difference spans: exactly the onlyA and onlyB lines, sorted, maximal runs.
        const spanLines = new Set<string>();
        for (const span of result.differences) {
          const side = span.side === 'onlyA' ? onlyA : onlyB;
          for (let n = span.start; n <= span.end; n++) {
            assert.ok(side.has(lineKey(span.path, n)), `${span.path}:${n} is not ${span.side}`);
            spanLines.add(lineKey(span.path, n));
          }
        }
        assert.equal(spanLines.size, onlyA.size + onlyB.size);
        for (let i = 1; i < result.differences.length; i++) {
          const prev = result.differences[i - 1]!;
          const next = result.differences[i]!;
          assert.ok(prev.path < next.path || (prev.path === next.path && prev.end < next.start), 'spans out of order');
          if (prev.path === next.path && prev.side === next.side) assert.ok(next.start > prev.end + 1, 'run not maximal');
        }
      }),
      { numRuns: RUNS },
    );
  });
});
