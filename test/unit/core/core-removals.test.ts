import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyRemovals, noEffectRemovals, removalEffects, resolvedLines, type GroundTruth, type LineCounts, type Region, type Removal } from '../../../src/core/index';
import { groundTruthArb, lineCountsArb, removalArb } from '../support/core-arbitraries';
import { counts, gt, reg } from '../support/core-builders';
import { lineKey, naiveExpand, naiveResolve } from '../support/core-naive';
import { cpuNow } from '../support/cpu-time';

const RUNS = Number(process.env.FC_RUNS ?? 300);

const rmCore = (path: string, start: number, end: number): Removal => ({ layer: 'core', model: null, path, start, end });
const rmOpt = (model: string | null, path: string, start: number, end: number): Removal => ({ layer: 'optional', model, path, start, end });

/** Naive: the lines of a region list, as `path:n` strings. */
function naiveLines(regions: readonly Region[], lineCounts: LineCounts): Set<string> {
  const out = new Set<string>();
  for (const r of regions) for (const k of naiveExpand(r.path, naiveResolve(r.start, r.end, lineCounts.get(r.path)))) out.add(k);
  return out;
}

/** Naive: the lines of a removal's layer (all models for optional + null) it covers. */
function naiveEffect(g: GroundTruth, removal: Removal, lineCounts: LineCounts): number {
  const layer: Region[] = [];
  if (removal.layer === 'core') for (const r of g.coreRegions) layer.push(r);
  else for (const [model, regions] of Object.entries(g.optionalRegionsByModel)) if (removal.model === null || removal.model === model) for (const r of regions) layer.push(r);
  const lines = naiveLines(layer, lineCounts);
  let n = 0;
  for (let line = removal.start; line <= removal.end; line++) if (lines.has(lineKey(removal.path, line))) n++;
  return n;
}

describe('applyRemovals: region-by-region replacement', () => {
  it('each region is replaced in place by its remaining pieces, ascending; untouched or line-less regions stay the same object', () => {
    fc.assert(
      fc.property(groundTruthArb(), fc.array(removalArb, { maxLength: 6 }), lineCountsArb, (g, removals, lineCounts) => {
        const out = applyRemovals(g, removals, lineCounts);
        const removed = new Set<string>();
        for (const r of removals) if (r.layer === 'core') for (let n = r.start; n <= r.end; n++) removed.add(lineKey(r.path, n));
        // Rebuild the expected list region by region from the naive line sets.
        const expected: (Region | { same: Region })[] = [];
        for (const region of g.coreRegions) {
          const lines = naiveExpand(region.path, naiveResolve(region.start, region.end, lineCounts.get(region.path)));
          const left = lines.filter((k) => !removed.has(k));
          if (left.length === lines.length) {
            expected.push({ same: region });
            continue;
          }
          const numbers = left.map((k) => Number(k.slice(region.path.length + 1)));
          for (let i = 0; i < numbers.length;) {
            let j = i;
            while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
            expected.push(reg(region.path, numbers[i]!, numbers[j]!));
            i = j + 1;
          }
        }
        assert.equal(out.coreRegions.length, expected.length);
        expected.forEach((want, i) => {
          if ('same' in want) assert.equal(out.coreRegions[i], want.same);
          else assert.deepEqual(out.coreRegions[i], want);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('removal order, duplicates and splitting a removal into adjacent parts do not matter', () => {
    fc.assert(
      fc.property(groundTruthArb(), fc.array(removalArb, { maxLength: 6 }), lineCountsArb, (g, removals, lineCounts) => {
        const want = applyRemovals(g, removals, lineCounts);
        const split: Removal[] = [];
        for (const r of [...removals].reverse()) {
          if (r.end > r.start) {
            const mid = r.start + Math.floor((r.end - r.start) / 2);
            split.push({ ...r, end: mid }, { ...r, start: mid + 1 }, r);
          } else split.push(r, r);
        }
        assert.deepEqual(applyRemovals(g, split, lineCounts), want);
      }),
      { numRuns: RUNS },
    );
  });

  it('removalEffects counts the covered layer lines exactly like a naive line set; no-effect = 0 lines', () => {
    fc.assert(
      fc.property(groundTruthArb(), fc.array(removalArb, { maxLength: 6 }), lineCountsArb, (g, removals, lineCounts) => {
        const effects = removalEffects(g, removals, lineCounts);
        effects.forEach((e, i) => {
          assert.equal(e.removal, removals[i]);
          assert.equal(e.lines, naiveEffect(g, removals[i]!, lineCounts));
        });
        const none = noEffectRemovals(g, removals, lineCounts);
        assert.deepEqual(
          none,
          effects.filter((e) => e.lines === 0).map((e) => e.removal),
        );
        // Applying only the no-effect removals changes nothing.
        const out = applyRemovals(g, none, lineCounts);
        assert.deepEqual(out, { ...g, optionalRegionsByModel: { ...g.optionalRegionsByModel }, optionalFilesByModel: { ...g.optionalFilesByModel } });
      }),
      { numRuns: RUNS },
    );
  });
});

describe('applyRemovals examples', () => {
  it('a removal outside every region is reported as no-effect and changes nothing', () => {
    const g = gt({ coreRegions: [reg('a.py', 10, 20), reg('a.py', 30, 25)], optionalRegionsByModel: { m: [reg('o.py', 1, 5)] }, optionalFilesByModel: { m: ['o.py'] } });
    const removals = [rmCore('a.py', 21, 29), rmCore('b.py', 1, 100), rmOpt('m', 'a.py', 10, 20), rmOpt('other', 'o.py', 1, 5), rmCore('a.py', 20, 22)];
    assert.deepEqual(noEffectRemovals(g, removals, counts()), removals.slice(0, 4));
    const out = applyRemovals(g, removals.slice(0, 4), counts());
    assert.deepEqual(out.coreRegions, g.coreRegions);
    assert.deepEqual(
      removalEffects(g, removals, counts()).map((e) => e.lines),
      [0, 0, 0, 0, 1],
    );
  });

  it('whole-file and tail regions are resolved with the given line counts only when touched', () => {
    const g = gt({ coreRegions: [reg('a.py', 1, -1), reg('b.py', -5, -1)] });
    const out = applyRemovals(g, [rmCore('a.py', 3, 4), rmCore('b.py', 1, 40)], counts({ 'a.py': 6, 'b.py': 50 }));
    assert.deepEqual(out.coreRegions, [reg('a.py', 1, 2), reg('a.py', 5, 6), reg('b.py', -5, -1)]);
    assert.equal(out.coreRegions[2], g.coreRegions[1]);
  });

  it('optional + null model applies to every model; a model named __proto__ is an ordinary key', () => {
    const g = gt({
      coreRegions: [reg('a.py', 1, 3)],
      optionalRegionsByModel: JSON.parse('{"__proto__":[{"path":"o.py","start":1,"end":4}],"m":[{"path":"o.py","start":3,"end":8}]}') as Record<string, Region[]>,
      optionalFilesByModel: JSON.parse('{"__proto__":["o.py"],"m":["o.py"]}') as Record<string, string[]>,
    });
    const out = applyRemovals(g, [rmOpt(null, 'o.py', 1, 4)], counts());
    assert.deepEqual(Object.keys(out.optionalRegionsByModel), ['__proto__', 'm']);
    assert.equal(Object.getPrototypeOf(out.optionalRegionsByModel), Object.prototype);
    assert.deepEqual(out.optionalRegionsByModel['__proto__'], []);
    assert.deepEqual(out.optionalRegionsByModel['m'], [reg('o.py', 5, 8)]);
    assert.deepEqual(out.optionalFilesByModel['__proto__'], []);
    assert.deepEqual(out.optionalFilesByModel['m'], ['o.py']);
    assert.deepEqual(
      removalEffects(g, [rmOpt('__proto__', 'o.py', 1, 2), rmOpt('toString', 'o.py', 1, 2)], counts()).map((e) => e.lines),
      [2, 0],
    );
  });

  it('resolvedLines merges resolvable regions and skips inverted / unresolvable ones', () => {
    const lines = resolvedLines([reg('a.py', 5, 9), reg('a.py', 8, 12), reg('a.py', 20, 3), reg('b.py', 1, -1), reg('c.py', 1, -1)], counts({ 'b.py': 4 }));
    assert.deepEqual(
      [...lines],
      [
        ['a.py', [[5, 12]]],
        ['b.py', [[1, 4]]],
      ],
    );
  });

  it('stays fast with many regions and many removals on one path', () => {
    const regions: Region[] = [];
    const removals: Removal[] = [];
    for (let i = 0; i < 20_000; i++) {
      regions.push(reg('big.py', i * 10 + 1, i * 10 + 5));
      removals.push(rmCore('big.py', i * 10 + 3, i * 10 + 3));
    }
    const started = cpuNow();
    const out = applyRemovals(gt({ coreRegions: regions }), removals, counts());
    const ms = cpuNow() - started;
    assert.equal(out.coreRegions.length, 40_000);
    assert.ok(ms < 1_000, `took ${ms.toFixed(0)} ms of CPU`);
  });
});
