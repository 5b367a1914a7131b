/**
 * Property tests: the metric core against a NAIVE line-set reference evaluator
 * (test/unit/support/core-naive.ts, written from metrics-spec §1–§7 alone).
 *
 * Equality is exact (===): both sides follow the evaluator's float operation order. A failure
 * prints fast-check's shrunk counterexample and seed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  OFFICIAL_METRIC_NAMES,
  applyRemovals,
  explainInstance,
  ndcgAt,
  officialMetrics,
  prepareInstance,
  recallAt,
  type GroundTruth,
  type LineCounts,
  type Region,
  type Removal,
} from '../../../src/core/index';
import { PATHS, groundTruthArb, instanceArb, lineCountsArb, plainRegionArb, predictionsArb, regionArb, removalArb } from '../support/core-arbitraries';
import { lineKey, naiveEvaluate, naiveExpand, naiveLinesOf, naiveResolve } from '../support/core-naive';

const RUNS = Number(process.env.CORE_PROPERTY_RUNS ?? 3000);

function sameNumber(actual: number, expected: number, what: string): void {
  if (actual === expected) return;
  assert.fail(`${what}: core ${actual} ≠ naive ${expected} (diff ${actual - expected})`);
}

function setEqual(actual: ReadonlySet<string>, expected: ReadonlySet<string>, what: string): void {
  const missing = [...expected].filter((k) => !actual.has(k));
  const extra = [...actual].filter((k) => !expected.has(k));
  if (missing.length > 0 || extra.length > 0) {
    assert.fail(`${what}: missing ${missing.slice(0, 5).join(',')} extra ${extra.slice(0, 5).join(',')}`);
  }
}

function minus(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((k) => !b.has(k)));
}

describe('metric core = naive reference evaluator (metrics-spec §1–§7)', () => {
  it(`17 official metrics, nDCG@B and Recall@B for random B agree exactly (${RUNS} instances)`, () => {
    fc.assert(
      fc.property(instanceArb, ({ groundTruth, predictions, lineCounts, profile, budget }) => {
        const inst = prepareInstance(groundTruth, predictions, lineCounts, profile);
        const got = officialMetrics(inst);
        const want = naiveEvaluate(groundTruth, predictions, lineCounts, profile);
        for (const name of OFFICIAL_METRIC_NAMES) sameNumber(got[name], want.metrics[name], name);
        sameNumber(ndcgAt(inst, budget), want.ndcgAt(budget), `ndcg@${budget}`);
        sameNumber(recallAt(inst, budget), want.recallAt(budget), `recall@${budget}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('line sets C, O, P agree with the naive expansion', () => {
    fc.assert(
      fc.property(instanceArb, ({ groundTruth, predictions, lineCounts, profile }) => {
        const inst = prepareInstance(groundTruth, predictions, lineCounts, profile);
        const want = naiveEvaluate(groundTruth, predictions, lineCounts, profile);
        const expand = (lines: ReadonlyMap<string, readonly (readonly [number, number])[]>): Set<string> => {
          const out = new Set<string>();
          for (const [path, set] of lines) for (const [s, e] of set) for (let n = s; n <= e; n++) out.add(lineKey(path, n));
          return out;
        };
        setEqual(expand(inst.core), want.C, 'C');
        setEqual(expand(inst.optional), want.O, 'O');
        setEqual(expand(inst.predicted), want.P, 'P');
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('explainInstance is consistent with the naive model (missed = C − first B line occurrences)', () => {
    fc.assert(
      fc.property(instanceArb, ({ groundTruth, predictions, lineCounts, profile, budget }) => {
        const inst = prepareInstance(groundTruth, predictions, lineCounts, profile);
        const ex = explainInstance(inst, budget);
        const want = naiveEvaluate(groundTruth, predictions, lineCounts, profile);
        for (const name of OFFICIAL_METRIC_NAMES) sameNumber(ex.metrics[name], want.metrics[name], name);
        sameNumber(ex.ndcg.ndcg, want.ndcgAt(budget), 'explain ndcg');
        sameNumber(ex.recallAtBudget, want.recallAt(budget), 'explain recall@B');

        // Naive examined lines: the first B predicted line occurrences, per entry.
        const examined = new Set<string>();
        const perEntry: number[] = [];
        let total = 0;
        for (const p of inst.predictions) {
          let taken = 0;
          const res = naiveResolve(p.region.start, p.region.end, inst.evaluatorLineCount(p.region.path));
          for (const k of naiveExpand(p.region.path, res)) {
            if (total >= budget) break;
            total++;
            taken++;
            examined.add(k);
          }
          perEntry.push(taken);
        }
        const expandSet = (lines: ReadonlyMap<string, readonly (readonly [number, number])[]>): Set<string> => {
          const out = new Set<string>();
          for (const [path, set] of lines) for (const [s, e] of set) for (let n = s; n <= e; n++) out.add(lineKey(path, n));
          return out;
        };
        setEqual(expandSet(ex.lines.inBudget), examined, 'inBudget');
        setEqual(expandSet(ex.lines.missed), minus(want.C, examined), 'missed');
        assert.deepEqual(
          ex.predictions.map((p) => p.linesInBudget),
          perEntry,
        );
        // Σ newCoreLines = |P ∩ C|
        const reached = [...want.P].filter((k) => want.C.has(k)).length;
        assert.equal(
          ex.predictions.reduce((s, p) => s + p.newCoreLines, 0),
          reached,
        );
        for (const p of ex.predictions) {
          const expected = p.lines === 0 ? 'no-lines' : p.linesInBudget === p.lines ? 'in' : p.linesInBudget > 0 ? 'partial' : 'over';
          assert.equal(p.budgetStatus, expected);
        }
        // per core region: covered lines = |P ∩ lines(region)|
        for (const c of ex.coreRegions) {
          const res = naiveResolve(c.region.start, c.region.end, inst.evaluatorLineCount(c.region.path));
          const lines = naiveExpand(c.region.path, res);
          assert.equal(c.lines, lines.length);
          assert.equal(c.coveredLines, lines.filter((k) => want.P.has(k)).length);
          assert.equal(c.coveredLinesInBudget, lines.filter((k) => examined.has(k)).length);
        }
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});

// ---------------------------------------------------------------------------------------------

function removedLines(removals: readonly Removal[], keep: (r: Removal) => boolean): Set<string> {
  const out = new Set<string>();
  for (const r of removals) if (keep(r)) for (let n = r.start; n <= r.end; n++) out.add(lineKey(r.path, n));
  return out;
}

function pathsEmptied(before: readonly Region[], after: readonly Region[]): Set<string> {
  const remaining = new Set(after.map((r) => r.path));
  return new Set(before.filter((r) => !remaining.has(r.path)).map((r) => r.path));
}

function checkRemovals(g: GroundTruth, removals: readonly Removal[], lineCounts: LineCounts): GroundTruth {
  const out = applyRemovals(g, removals, lineCounts);
  // core lines after = naive core lines − removed core lines
  setEqual(
    naiveLinesOf(out.coreRegions, lineCounts),
    minus(
      naiveLinesOf(g.coreRegions, lineCounts),
      removedLines(removals, (r) => r.layer === 'core'),
    ),
    'core after removal',
  );
  for (const model of Object.keys(g.optionalRegionsByModel)) {
    const removed = removedLines(removals, (r) => r.layer === 'optional' && (r.model === null || r.model === model));
    setEqual(naiveLinesOf(out.optionalRegionsByModel[model] ?? [], lineCounts), minus(naiveLinesOf(g.optionalRegionsByModel[model]!, lineCounts), removed), `optional ${model} after removal`);
  }
  // every output region is an input region object, or an explicit ordinary range
  const inputs = new Set<Region>([...g.coreRegions, ...Object.values(g.optionalRegionsByModel).flat()]);
  for (const r of [...out.coreRegions, ...Object.values(out.optionalRegionsByModel).flat()]) {
    assert.ok(inputs.has(r) || (r.start >= 1 && r.start <= r.end), `unexpected region ${JSON.stringify(r)}`);
  }
  // files
  const emptied = pathsEmptied(g.coreRegions, out.coreRegions);
  assert.deepEqual(
    out.coreFiles,
    g.coreFiles.filter((p) => !emptied.has(p)),
  );
  assert.deepEqual(
    out.mainFiles,
    g.mainFiles.filter((p) => !emptied.has(p)),
  );
  assert.deepEqual(out.modifiedCoreFiles, g.modifiedCoreFiles);
  for (const model of Object.keys(g.optionalFilesByModel)) {
    const gone = pathsEmptied(g.optionalRegionsByModel[model] ?? [], out.optionalRegionsByModel[model] ?? []);
    assert.deepEqual(
      out.optionalFilesByModel[model],
      g.optionalFilesByModel[model]!.filter((p) => !gone.has(p)),
    );
  }
  return out;
}

describe('applyRemovals = naive line subtraction', () => {
  it('ordinary regions: lines after removal = naive lines − removed lines; files emptied leave the lists', () => {
    fc.assert(
      fc.property(groundTruthArb(plainRegionArb), fc.array(removalArb, { maxLength: 5 }), (g, removals) => {
        checkRemovals(g, removals, new Map());
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('any regions (tail, whole-file, inverted, unresolvable) with line counts; metrics on the result match the naive evaluator', () => {
    fc.assert(
      fc.property(
        groundTruthArb(regionArb).chain((g) => fc.tuple(fc.constant(g), fc.array(removalArb, { maxLength: 5 }), lineCountsArb, predictionsArb(g))),
        ([g, removals, lineCounts, predictions]) => {
          const out = checkRemovals(g, removals, lineCounts);
          const got = officialMetrics(prepareInstance(out, predictions, lineCounts, 'official'));
          const want = naiveEvaluate(out, predictions, lineCounts, 'official');
          for (const name of OFFICIAL_METRIC_NAMES) sameNumber(got[name], want.metrics[name], name);
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});

// Sanity: the generators actually produce the edge cases the properties are meant to cover.
describe('generator coverage', () => {
  it('produces inverted, tail, whole-file, -2 / 0 ends, start 0, past-EOF and unresolvable regions', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(instanceArb, ({ groundTruth, predictions, lineCounts }) => {
        for (const r of [...groundTruth.coreRegions, ...predictions]) {
          const L = lineCounts.get(r.path);
          if (r.end === -1) seen.add('end -1');
          if (r.start < 0) seen.add('negative start');
          if (r.start === 0) seen.add('start 0');
          if (r.end === 0 || r.end <= -2) seen.add('end 0/-2');
          const res = naiveResolve(r.start, r.end, L);
          if (res === null) seen.add('unresolvable');
          else if (res.s > res.e) seen.add('inverted');
          else if (L !== undefined && res.e > L) seen.add('past EOF');
          if (res !== null && res.e - res.s + 1 > 100) seen.add('over 100 lines');
        }
        if (new Set(predictions.map((p) => JSON.stringify(p))).size < predictions.length) seen.add('duplicate');
        if (!PATHS.every((p) => lineCounts.has(p))) seen.add('missing count');
        if ([...lineCounts.values()].includes(0)) seen.add('empty file');
      }),
      { numRuns: 500, seed: 42 },
    );
    assert.deepEqual([...seen].sort(), ['duplicate', 'empty file', 'end -1', 'end 0/-2', 'inverted', 'missing count', 'negative start', 'over 100 lines', 'past EOF', 'start 0', 'unresolvable']);
  });
});
