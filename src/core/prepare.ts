import { EMPTY_SET, lineSetFrom, lineSetSize, lineSetUnion, normalize, rangeIntersectionSize, type Interval, type IntervalSet, type LineSet } from './intervals';
import { resolveRegion, type Resolution } from './resolve';
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
 * What scoring a row needs to know about one path of an instance, looked up once per prediction
 * instead of once per metric (every ground-truth path has an entry; other paths have none).
 */
export interface PathFacts {
  /** The line count the evaluator may use for the path under the active profile. */
  readonly lineCount: number | undefined;
  /** C, O and C ∪ O on this path. */
  readonly core: IntervalSet;
  readonly optional: IntervalSet;
  readonly useful: IntervalSet;
  readonly isMainFile: boolean;
  /** In CF = set(read_core_files). */
  readonly isCoreFile: boolean;
  /** In CF ∪ OF (not noise for the noise-file rate). */
  readonly isGroundTruthFile: boolean;
  /** Resolved `(s, e)` of every core and optional region on the path, flattened `[s₀, e₀, s₁, e₁, …]`. */
  readonly groundTruthPairs: readonly number[];
  /** Indices into `coreRegions` of the resolved core regions on the path, in order. */
  readonly coreRegionIndices: readonly number[];
  /** Their resolved `(s, e)`, flattened like `groundTruthPairs`. */
  readonly coreRegionPairs: readonly number[];
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
  /** Per-path facts for every ground-truth path (core/optional regions and files, main files). */
  readonly pathFacts: ReadonlyMap<string, PathFacts>;
  /** Weighted-core-coverage weight of each core region: 3 on a main file, else 2. */
  readonly coreRegionWeights: readonly number[];
  /** Lines of each core region; 0 for an unresolvable or inverted one (WCC skips those). */
  readonly coreRegionLines: readonly number[];
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
  const evaluatorLineCount = (path: string): number | undefined => (allowed === null || allowed.has(path) ? lineCounts.get(path) : undefined);

  const coreRegions = resolveGroundTruthRegions(groundTruth.coreRegions, null, evaluatorLineCount);
  const optionalRegions: PreparedGtRegion[] = [];
  const optionalByModel = new Map<string, LineSet>();
  for (const [model, regions] of Object.entries(groundTruth.optionalRegionsByModel)) {
    const resolved = resolveGroundTruthRegions(regions, model, evaluatorLineCount);
    for (const entry of resolved) optionalRegions.push(entry);
    optionalByModel.set(model, lineSetFrom(resolvedRanges(resolved)));
  }
  // The union of every model's lines, built in one pass (same sets, same path order).
  const optional = lineSetFrom(resolvedRanges(optionalRegions));
  const coreFiles = new Set(groundTruth.coreFiles);
  const groundTruthFiles = new Set(coreFiles);
  for (const paths of Object.values(groundTruth.optionalFilesByModel)) for (const path of paths) groundTruthFiles.add(path);
  const mainFiles = new Set(groundTruth.mainFiles);

  const core = lineSetFrom(resolvedRanges(coreRegions));
  const useful = lineSetUnion(core, optional);
  const allRegions = coreRegions.concat(optionalRegions);
  const pathFacts = new Map<string, PathFacts>();
  const factsOf = (path: string): MutablePathFacts => {
    let facts = pathFacts.get(path) as MutablePathFacts | undefined;
    if (facts === undefined) {
      facts = {
        lineCount: evaluatorLineCount(path),
        core: core.get(path) ?? EMPTY_SET,
        optional: optional.get(path) ?? EMPTY_SET,
        useful: useful.get(path) ?? EMPTY_SET,
        isMainFile: mainFiles.has(path),
        isCoreFile: coreFiles.has(path),
        isGroundTruthFile: groundTruthFiles.has(path),
        groundTruthPairs: [],
        coreRegionIndices: [],
        coreRegionPairs: [],
      };
      pathFacts.set(path, facts);
    }
    return facts;
  };
  // Pairs in core-then-optional order, as groundTruthResolutionsByPath lists them.
  for (const { region, resolution } of allRegions) {
    const facts = factsOf(region.path);
    if (resolution.kind === 'resolved') facts.groundTruthPairs.push(resolution.start, resolution.end);
  }
  const coreRegionLines: number[] = [];
  coreRegions.forEach(({ region, resolution }, index) => {
    if (resolution.kind === 'resolved') {
      const facts = factsOf(region.path);
      facts.coreRegionIndices.push(index);
      facts.coreRegionPairs.push(resolution.start, resolution.end);
    }
    coreRegionLines.push(resolution.kind === 'resolved' && resolution.start <= resolution.end ? resolution.end - resolution.start + 1 : 0);
  });
  for (const path of groundTruthFiles) factsOf(path);
  for (const path of mainFiles) factsOf(path);

  return {
    profile,
    groundTruth,
    coreRegions,
    optionalRegions,
    core,
    optional,
    optionalByModel,
    groundTruthResolutionsByPath: resolutionsByPath(allRegions),
    coreSize: lineSetSize(core),
    optionalSize: lineSetSize(optional),
    useful,
    mainFiles,
    coreFiles,
    groundTruthFiles,
    knownLineCounts: lineCounts,
    evaluatorLineCount,
    pathFacts,
    coreRegionWeights: coreRegions.map(({ region }) => (mainFiles.has(region.path) ? 3 : 2)),
    coreRegionLines,
  };
}

interface MutablePathFacts extends PathFacts {
  readonly groundTruthPairs: number[];
  readonly coreRegionIndices: number[];
  readonly coreRegionPairs: number[];
}

function resolveGroundTruthRegions(regions: readonly Region[], model: string | null, lineCountOf: (path: string) => number | undefined): PreparedGtRegion[] {
  const out: PreparedGtRegion[] = [];
  for (const region of regions) out.push({ region, resolution: resolveRegion(region, lineCountOf(region.path)), model });
  return out;
}

/**
 * Resolves an explorer's scored list against prepared ground truth and builds P. Runs once per
 * scored row, so it looks each path up once and allocates only what the result holds.
 */
export function preparePredictions(groundTruth: PreparedGroundTruth, predictions: readonly Region[]): PreparedInstance {
  const { pathFacts, evaluatorLineCount } = groundTruth;
  const prepared: PreparedPrediction[] = [];
  for (let index = 0; index < predictions.length; index++) {
    const region = predictions[index]!;
    const facts = pathFacts.get(region.path);
    const resolution = resolveRegion(region, facts === undefined ? evaluatorLineCount(region.path) : facts.lineCount);
    if (resolution.kind !== 'resolved') {
      prepared.push({ index, region, resolution, lines: 0, ndcgLength: 0, coreLinesHit: 0, gain: 0 });
      continue;
    }
    const ndcgLength = resolution.end - resolution.start + 1;
    const coreLinesHit = facts === undefined ? 0 : rangeIntersectionSize(facts.core, resolution.start, resolution.end);
    prepared.push({
      index,
      region,
      resolution,
      lines: ndcgLength > 0 ? ndcgLength : 0,
      ndcgLength,
      coreLinesHit,
      gain: coreLinesHit * (facts !== undefined && facts.isMainFile ? 1.5 : 1.0),
    });
  }
  return new ScoredList(groundTruth, prepared);
}

/**
 * A {@link PreparedInstance} as preparePredictions builds it: the ground truth's fields copied
 * into one fixed-shape object (a spread copy of this many fields is many times slower per row),
 * and P built on first use — scoring reads P through the per-path facts, only explanations and
 * single-metric calls need the line set itself.
 */
class ScoredList implements PreparedInstance {
  readonly profile: Profile;
  readonly groundTruth: GroundTruth;
  readonly coreRegions: readonly PreparedGtRegion[];
  readonly optionalRegions: readonly PreparedGtRegion[];
  readonly core: LineSet;
  readonly optional: LineSet;
  readonly optionalByModel: ReadonlyMap<string, LineSet>;
  readonly groundTruthResolutionsByPath: ReadonlyMap<string, readonly Resolution[]>;
  readonly coreSize: number;
  readonly optionalSize: number;
  readonly useful: LineSet;
  readonly mainFiles: ReadonlySet<string>;
  readonly coreFiles: ReadonlySet<string>;
  readonly groundTruthFiles: ReadonlySet<string>;
  readonly knownLineCounts: LineCounts;
  readonly evaluatorLineCount: (path: string) => number | undefined;
  readonly pathFacts: ReadonlyMap<string, PathFacts>;
  readonly coreRegionWeights: readonly number[];
  readonly coreRegionLines: readonly number[];
  readonly predictions: readonly PreparedPrediction[];
  #predicted: LineSet | undefined;

  constructor(groundTruth: PreparedGroundTruth, predictions: readonly PreparedPrediction[]) {
    this.profile = groundTruth.profile;
    this.groundTruth = groundTruth.groundTruth;
    this.coreRegions = groundTruth.coreRegions;
    this.optionalRegions = groundTruth.optionalRegions;
    this.core = groundTruth.core;
    this.optional = groundTruth.optional;
    this.optionalByModel = groundTruth.optionalByModel;
    this.groundTruthResolutionsByPath = groundTruth.groundTruthResolutionsByPath;
    this.coreSize = groundTruth.coreSize;
    this.optionalSize = groundTruth.optionalSize;
    this.useful = groundTruth.useful;
    this.mainFiles = groundTruth.mainFiles;
    this.coreFiles = groundTruth.coreFiles;
    this.groundTruthFiles = groundTruth.groundTruthFiles;
    this.knownLineCounts = groundTruth.knownLineCounts;
    this.evaluatorLineCount = groundTruth.evaluatorLineCount;
    this.pathFacts = groundTruth.pathFacts;
    this.coreRegionWeights = groundTruth.coreRegionWeights;
    this.coreRegionLines = groundTruth.coreRegionLines;
    this.predictions = predictions;
    this.#predicted = undefined;
  }

  /** P: predicted lines (deduplicated union). */
  get predicted(): LineSet {
    return (this.#predicted ??= predictedLines(this.predictions));
  }
}

/** P: the resolved, non-inverted entries' lines per path (paths in order of first entry). */
function predictedLines(predictions: readonly PreparedPrediction[]): LineSet {
  const byPath = new Map<string, IntervalSet>();
  let unsorted = false;
  for (const { region, resolution } of predictions) {
    if (resolution.kind !== 'resolved' || resolution.start > resolution.end) continue;
    const list = byPath.get(region.path) as Interval[] | undefined;
    if (list === undefined) {
      byPath.set(region.path, [[resolution.start, resolution.end]]);
    } else {
      list.push([resolution.start, resolution.end]);
      unsorted = true;
    }
  }
  // Only paths with several entries need merging; single-entry lists are already normal.
  if (unsorted) for (const [path, list] of byPath) if (list.length > 1) byPath.set(path, normalize(list));
  return byPath;
}

/** {@link prepareGroundTruth} then {@link preparePredictions}, for one-off scoring. */
export function prepareInstance(groundTruth: GroundTruth, predictions: readonly Region[], lineCounts: LineCounts, profile: Profile = 'official'): PreparedInstance {
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

function resolvedRanges(entries: readonly { region: Region; resolution: Resolution }[]): { path: string; start: number; end: number }[] {
  const out: { path: string; start: number; end: number }[] = [];
  for (const { region, resolution } of entries) {
    if (resolution.kind === 'resolved') out.push({ path: region.path, start: resolution.start, end: resolution.end });
  }
  return out;
}
