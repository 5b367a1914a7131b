import {
  EMPTY_SET,
  lineSetFrom,
  lineSetSize,
  lineSetUnion,
  rangeIntersectionSize,
  type LineSet,
} from './intervals';
import { resolveRegion, resolvedLineCount, type Resolution } from './resolve';
import type { GroundTruth, LineCounts, Profile, Region } from './types';

/** A ground-truth region with its resolution under the active profile. */
export interface PreparedGtRegion {
  readonly region: Region;
  readonly resolution: Resolution;
  /** Model name for optional regions; `null` for core. */
  readonly model: string | null;
}

/** A prediction entry with everything the metrics need, computed once. */
export interface PreparedPrediction {
  /** 0-based position in the scored list. */
  readonly index: number;
  readonly region: Region;
  readonly resolution: Resolution;
  /** Real lines covered (0 when unresolvable or inverted). */
  readonly lines: number;
  /** `e − s + 1` as nDCG counts it: 0 when unresolvable, ≤ 0 when inverted. */
  readonly ndcgLength: number;
  /** Core lines inside the region, each counted once within this region. */
  readonly coreLinesHit: number;
  /** nDCG gain: core lines × 1.5 on main files, × 1.0 elsewhere. */
  readonly gain: number;
}

/**
 * One instance's ground truth, resolved once per (instance, line counts, profile) and shared by
 * every explorer scored against it.
 */
export interface PreparedGroundTruth {
  readonly profile: Profile;
  readonly groundTruth: GroundTruth;
  readonly coreRegions: readonly PreparedGtRegion[];
  /** Every model's optional regions concatenated in model order (duplicates kept). */
  readonly optionalRegions: readonly PreparedGtRegion[];
  /** C: core lines. */
  readonly core: LineSet;
  /** O: optional lines (all models). */
  readonly optional: LineSet;
  /** O per model, for per-model display. */
  readonly optionalByModel: ReadonlyMap<string, LineSet>;
  /** Resolved core and optional pairs per path, for the evaluator's overlap test. */
  readonly groundTruthResolutionsByPath: ReadonlyMap<string, readonly Resolution[]>;
  /** |C| and |O|. */
  readonly coreSize: number;
  readonly optionalSize: number;
  /** C ∪ O: the lines context efficiency counts as useful. */
  readonly useful: LineSet;
  readonly mainFiles: ReadonlySet<string>;
  /** CF = set(read_core_files). */
  readonly coreFiles: ReadonlySet<string>;
  /** CF ∪ OF: files that are not noise for the noise-file rate. */
  readonly groundTruthFiles: ReadonlySet<string>;
  /** Real line counts known for the instance, whatever the profile (used for explanations only). */
  readonly knownLineCounts: LineCounts;
  /** The line count the evaluator may use for a path under the active profile. */
  readonly evaluatorLineCount: (path: string) => number | undefined;
}

/** One instance ready to score: ground truth and predictions resolved, line sets built once. */
export interface PreparedInstance extends PreparedGroundTruth {
  readonly predictions: readonly PreparedPrediction[];
  /** P: predicted lines (deduplicated union). */
  readonly predicted: LineSet;
}

/** Paths whose line counts the official runner knows: core-region and every optional-region path. */
export function groundTruthRegionPaths(groundTruth: GroundTruth): Set<string> {
  const paths = new Set<string>();
  for (const region of groundTruth.coreRegions) paths.add(region.path);
  for (const regions of Object.values(groundTruth.optionalRegionsByModel)) {
    for (const region of regions) paths.add(region.path);
  }
  return paths;
}

/**
 * Resolves the ground truth and builds C and O. `lineCounts` holds every count known for the
 * instance; under `official` only ground-truth-region paths are visible to the evaluator
 * (metrics-spec §2), under `snapshot` all of them are.
 */
export function prepareGroundTruth(groundTruth: GroundTruth, lineCounts: LineCounts, profile: Profile = 'official'): PreparedGroundTruth {
  const allowed = profile === 'official' ? groundTruthRegionPaths(groundTruth) : null;
  const evaluatorLineCount = (path: string): number | undefined =>
    allowed === null || allowed.has(path) ? lineCounts.get(path) : undefined;

  const resolveGt = (region: Region, model: string | null): PreparedGtRegion => ({
    region,
    resolution: resolveRegion(region, evaluatorLineCount(region.path)),
    model,
  });
  const coreRegions = groundTruth.coreRegions.map((region) => resolveGt(region, null));
  const optionalRegions: PreparedGtRegion[] = [];
  const optionalByModel = new Map<string, LineSet>();
  for (const [model, regions] of Object.entries(groundTruth.optionalRegionsByModel)) {
    const resolved = regions.map((region) => resolveGt(region, model));
    optionalRegions.push(...resolved);
    optionalByModel.set(model, lineSetFrom(resolvedRanges(resolved)));
  }
  let optional: LineSet = new Map();
  for (const lines of optionalByModel.values()) optional = lineSetUnion(optional, lines);
  const coreFiles = new Set(groundTruth.coreFiles);
  const groundTruthFiles = new Set(coreFiles);
  for (const paths of Object.values(groundTruth.optionalFilesByModel)) for (const path of paths) groundTruthFiles.add(path);

  const core = lineSetFrom(resolvedRanges(coreRegions));
  return {
    profile,
    groundTruth,
    coreRegions,
    optionalRegions,
    core,
    optional,
    optionalByModel,
    groundTruthResolutionsByPath: resolutionsByPath([...coreRegions, ...optionalRegions]),
    coreSize: lineSetSize(core),
    optionalSize: lineSetSize(optional),
    useful: lineSetUnion(core, optional),
    mainFiles: new Set(groundTruth.mainFiles),
    coreFiles,
    groundTruthFiles,
    knownLineCounts: lineCounts,
    evaluatorLineCount,
  };
}

/** Resolves an explorer's scored list against prepared ground truth and builds P. */
export function preparePredictions(groundTruth: PreparedGroundTruth, predictions: readonly Region[]): PreparedInstance {
  const { core, mainFiles, evaluatorLineCount } = groundTruth;
  const prepared: PreparedPrediction[] = predictions.map((region, index) => {
    const resolution = resolveRegion(region, evaluatorLineCount(region.path));
    if (resolution.kind !== 'resolved') {
      return { index, region, resolution, lines: 0, ndcgLength: 0, coreLinesHit: 0, gain: 0 };
    }
    const coreLinesHit = rangeIntersectionSize(core.get(region.path) ?? EMPTY_SET, resolution.start, resolution.end);
    return {
      index,
      region,
      resolution,
      lines: resolvedLineCount(resolution),
      ndcgLength: resolution.end - resolution.start + 1,
      coreLinesHit,
      gain: coreLinesHit * (mainFiles.has(region.path) ? 1.5 : 1.0),
    };
  });
  return { ...groundTruth, predictions: prepared, predicted: lineSetFrom(resolvedRanges(prepared)) };
}

/** {@link prepareGroundTruth} then {@link preparePredictions}, for one-off scoring. */
export function prepareInstance(
  groundTruth: GroundTruth,
  predictions: readonly Region[],
  lineCounts: LineCounts,
  profile: Profile = 'official',
): PreparedInstance {
  return preparePredictions(prepareGroundTruth(groundTruth, lineCounts, profile), predictions);
}

/** Resolved pairs per path (unresolvable regions have none). */
export function resolutionsByPath(regions: readonly { region: { path: string }; resolution: Resolution }[]): Map<string, Resolution[]> {
  const byPath = new Map<string, Resolution[]>();
  for (const { region, resolution } of regions) {
    if (resolution.kind !== 'resolved') continue;
    let list = byPath.get(region.path);
    if (list === undefined) byPath.set(region.path, (list = []));
    list.push(resolution);
  }
  return byPath;
}

function* resolvedRanges(
  entries: Iterable<{ region: Region; resolution: Resolution }>,
): Iterable<{ path: string; start: number; end: number }> {
  for (const { region, resolution } of entries) {
    if (resolution.kind === 'resolved') yield { path: region.path, start: resolution.start, end: resolution.end };
  }
}
