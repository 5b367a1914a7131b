/** fast-check generators of random SWE-Explore instances for the metric-core property tests. */
import fc from 'fast-check';
import type { GroundTruth, LineCounts, Profile, Region, Removal } from '../../../src/core/index';

export const PATHS = ['a.py', 'b.py', 'c.py', 'd.py'] as const;
export const MODELS = ['m1', 'm2', 'm3'] as const;

const pathArb = fc.constantFrom(...PATHS);

/** Explicit ranges, sometimes inverted, sometimes with start 0 or end ≤ 0. */
const ordinary: fc.Arbitrary<Region> = fc
  .record({ path: pathArb, start: fc.integer({ min: 0, max: 150 }), len: fc.integer({ min: -6, max: 120 }) })
  .map(({ path, start, len }) => ({ path, start, end: start + len }));

/** Big regions that cross the 100 / 300 / 500 budgets. */
const large: fc.Arbitrary<Region> = fc
  .record({ path: pathArb, start: fc.integer({ min: 1, max: 60 }), len: fc.integer({ min: 90, max: 520 }) })
  .map(({ path, start, len }) => ({ path, start, end: start + len }));

/** Tail reads: negative start with `-1`, an explicit end, `0` or `-2`. */
const tail: fc.Arbitrary<Region> = fc.record({
  path: pathArb,
  start: fc.integer({ min: -60, max: -1 }),
  end: fc.oneof(fc.constantFrom(-1, -1, -2, 0), fc.integer({ min: -5, max: 250 })),
});

/** Whole-file reads. */
const wholeFile: fc.Arbitrary<Region> = fc.record({ path: pathArb, start: fc.constantFrom(0, 1, 1, 7), end: fc.constant(-1) });

/** Anything in a small box. */
const weird: fc.Arbitrary<Region> = fc.record({
  path: pathArb,
  start: fc.integer({ min: -20, max: 200 }),
  end: fc.integer({ min: -5, max: 250 }),
});

export const regionArb: fc.Arbitrary<Region> = fc.oneof(
  { arbitrary: ordinary, weight: 6 },
  { arbitrary: large, weight: 2 },
  { arbitrary: tail, weight: 2 },
  { arbitrary: wholeFile, weight: 2 },
  { arbitrary: weird, weight: 2 },
);

/** Strictly ordinary regions: 1 ≤ start ≤ end, no line count needed. */
export const plainRegionArb: fc.Arbitrary<Region> = fc
  .record({ path: pathArb, start: fc.integer({ min: 1, max: 150 }), len: fc.integer({ min: 0, max: 80 }) })
  .map(({ path, start, len }) => ({ path, start, end: start + len }));

/** Line counts: unknown, empty file (0) or 1..400 per path. */
export const lineCountsArb: fc.Arbitrary<LineCounts> = fc
  .tuple(
    ...PATHS.map((p) =>
      fc.oneof(
        { arbitrary: fc.constant<[string, number] | null>(null), weight: 2 },
        { arbitrary: fc.constant<[string, number] | null>([p, 0]), weight: 1 },
        { arbitrary: fc.integer({ min: 1, max: 400 }).map((n): [string, number] | null => [p, n]), weight: 5 },
      ),
    ),
  )
  .map((entries) => new Map(entries.filter((e): e is [string, number] => e !== null)));

const subsetOfPaths = fc.subarray([...PATHS]);

export function groundTruthArb(region: fc.Arbitrary<Region> = regionArb): fc.Arbitrary<GroundTruth> {
  return fc
    .record({
      coreRegions: fc.array(region, { maxLength: 5 }),
      models: fc.subarray([...MODELS]),
      optionalLists: fc.array(fc.array(region, { maxLength: 3 }), { minLength: 3, maxLength: 3 }),
      optionalFileLists: fc.array(subsetOfPaths, { minLength: 3, maxLength: 3 }),
      coreFilesMode: fc.boolean(),
      randomCoreFiles: subsetOfPaths,
      mainFiles: subsetOfPaths,
    })
    .map((r) => {
      const optionalRegionsByModel: Record<string, readonly Region[]> = {};
      const optionalFilesByModel: Record<string, readonly string[]> = {};
      r.models.forEach((model, i) => {
        optionalRegionsByModel[model] = r.optionalLists[i]!;
        optionalFilesByModel[model] = r.optionalFileLists[i]!;
      });
      const coreFiles = r.coreFilesMode ? [...new Set(r.coreRegions.map((x) => x.path))].sort() : r.randomCoreFiles;
      return {
        coreRegions: r.coreRegions,
        coreFiles,
        optionalRegionsByModel,
        optionalFilesByModel,
        mainFiles: r.mainFiles,
        modifiedCoreFiles: r.mainFiles,
      };
    });
}

/** Predictions: fresh regions or copies of GT regions, plus explicit duplicates at random positions. */
export function predictionsArb(groundTruth: GroundTruth): fc.Arbitrary<Region[]> {
  const pool: Region[] = [...groundTruth.coreRegions, ...Object.values(groundTruth.optionalRegionsByModel).flat()];
  const one: fc.Arbitrary<Region> = pool.length > 0 ? fc.oneof({ arbitrary: regionArb, weight: 3 }, { arbitrary: fc.constantFrom(...pool), weight: 2 }) : regionArb;
  return fc.tuple(fc.array(one, { maxLength: 8 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 2 })).map(([base, dups]) => {
    const out = [...base];
    for (const [from, to] of dups) {
      if (out.length === 0) break;
      out.splice(to % (out.length + 1), 0, out[from % out.length]!);
    }
    return out;
  });
}

export interface RandomInstance {
  readonly groundTruth: GroundTruth;
  readonly predictions: Region[];
  readonly lineCounts: LineCounts;
  readonly profile: Profile;
  readonly budget: number;
}

export const instanceArb: fc.Arbitrary<RandomInstance> = groundTruthArb().chain((groundTruth) =>
  fc.record({
    groundTruth: fc.constant(groundTruth),
    predictions: predictionsArb(groundTruth),
    lineCounts: lineCountsArb,
    profile: fc.constantFrom<Profile>('official', 'snapshot'),
    budget: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(1, 100, 300, 500)),
  }),
);

export const removalArb: fc.Arbitrary<Removal> = fc
  .record({
    layer: fc.constantFrom<'core' | 'optional'>('core', 'optional'),
    model: fc.constantFrom<string | null>(null, ...MODELS),
    path: pathArb,
    start: fc.integer({ min: 1, max: 200 }),
    len: fc.integer({ min: -2, max: 80 }),
  })
  .map(({ layer, model, path, start, len }) => ({ layer, model: layer === 'core' ? null : model, path, start, end: start + len }));
