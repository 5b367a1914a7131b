import {
  EMPTY_SET,
  lineSetFrom,
  lineSetIntersectionSize,
  lineSetSize,
  lineSetUnion,
  rangeIntersectionSize,
  type LineSet,
} from './intervals';
import type { PreparedInstance, PreparedPrediction } from './prepare';
import { resolvedOverlap, type Resolution } from './resolve';
import type { OfficialMetrics } from './types';

/** `a / b`, defined as 0 when `b` is 0 (the evaluator's convention for every ratio). */
function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

/** Precision = |P ∩ C| / |P|. */
export function precision(instance: PreparedInstance): number {
  return ratio(lineSetIntersectionSize(instance.predicted, instance.core), lineSetSize(instance.predicted));
}

/** Recall = |P ∩ C| / |C|. */
export function recall(instance: PreparedInstance): number {
  return ratio(lineSetIntersectionSize(instance.predicted, instance.core), lineSetSize(instance.core));
}

/** F1 = 2·p·r / (p + r); 0 when p + r = 0. */
export function f1(p: number, r: number): number {
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/** Distinct prediction paths (every entry, resolvable or not). */
function predictedPaths(instance: PreparedInstance): Set<string> {
  return new Set(instance.predictions.map((p) => p.region.path));
}

/** HitFile = |V ∩ CF| / |CF|, V = prediction paths, CF = set(read_core_files). */
export function hitFileRate(instance: PreparedInstance): number {
  const coreFiles = new Set(instance.groundTruth.coreFiles);
  let hits = 0;
  for (const path of predictedPaths(instance)) if (coreFiles.has(path)) hits++;
  return ratio(hits, coreFiles.size);
}

/** NoiseFile = |V − CF − OF| / |V|, OF = union of every model's optional files. */
export function noiseFileRate(instance: PreparedInstance): number {
  const known = new Set(instance.groundTruth.coreFiles);
  for (const paths of Object.values(instance.groundTruth.optionalFilesByModel)) for (const path of paths) known.add(path);
  const visited = predictedPaths(instance);
  let noise = 0;
  for (const path of visited) if (!known.has(path)) noise++;
  return ratio(noise, visited.size);
}

/** Resolved ground-truth pairs per path, for the evaluator's overlap test. */
function resolutionsByPath(regions: readonly { region: { path: string }; resolution: Resolution }[]): Map<string, Resolution[]> {
  const byPath = new Map<string, Resolution[]>();
  for (const { region, resolution } of regions) {
    if (resolution.kind !== 'resolved') continue;
    let list = byPath.get(region.path);
    if (list === undefined) byPath.set(region.path, (list = []));
    list.push(resolution);
  }
  return byPath;
}

function overlapsAny(prediction: PreparedPrediction, byPath: Map<string, Resolution[]>): boolean {
  const candidates = byPath.get(prediction.region.path);
  return candidates !== undefined && candidates.some((gt) => resolvedOverlap(prediction.resolution, gt));
}

/** For each core region (duplicates counted), whether some prediction overlaps it. */
export function coreRegionHits(instance: PreparedInstance): boolean[] {
  const predsByPath = resolutionsByPath(instance.predictions);
  return instance.coreRegions.map(({ region, resolution }) => {
    const candidates = predsByPath.get(region.path);
    return candidates !== undefined && candidates.some((pred) => resolvedOverlap(resolution, pred));
  });
}

/** HitRegion = (core regions overlapping ≥ 1 prediction) / (core regions). */
export function hitRegionRate(instance: PreparedInstance): number {
  const hits = coreRegionHits(instance);
  return ratio(hits.filter(Boolean).length, hits.length);
}

/** For each prediction entry, whether it overlaps no core and no optional region. */
export function noisePredictions(instance: PreparedInstance): boolean[] {
  const gtByPath = resolutionsByPath([...instance.coreRegions, ...instance.optionalRegions]);
  return instance.predictions.map((prediction) => !overlapsAny(prediction, gtByPath));
}

/** NoiseRegion = (entries overlapping no core/optional region) / (entries, duplicates counted). */
export function noiseRegionRate(instance: PreparedInstance): number {
  const noise = noisePredictions(instance);
  return ratio(noise.filter(Boolean).length, noise.length);
}

/** Weight of a core region in weighted core coverage: 3 on a main file, else 2. */
export function coreRegionWeight(instance: PreparedInstance, path: string): number {
  return instance.mainFiles.has(path) ? 3 : 2;
}

/**
 * WCC = Σ wᵢ·covᵢ / Σ wᵢ over core regions i (duplicates counted), skipping unresolvable or empty
 * ones; covᵢ = |P ∩ lines(i)| / |lines(i)|; wᵢ = 3 on main files, else 2.
 */
export function weightedCoreCoverage(instance: PreparedInstance): number {
  let weighted = 0;
  let weights = 0;
  for (const { region, resolution } of instance.coreRegions) {
    if (resolution.kind !== 'resolved' || resolution.start > resolution.end) continue;
    const size = resolution.end - resolution.start + 1;
    const covered = rangeIntersectionSize(instance.predicted.get(region.path) ?? EMPTY_SET, resolution.start, resolution.end);
    const weight = coreRegionWeight(instance, region.path);
    weighted += weight * (covered / size);
    weights += weight;
  }
  return ratio(weighted, weights);
}

/** ContextEfficiency = |P ∩ (C ∪ O)| / |P|. */
export function contextEfficiency(instance: PreparedInstance): number {
  const useful = lineSetUnion(instance.core, instance.optional);
  return ratio(lineSetIntersectionSize(instance.predicted, useful), lineSetSize(instance.predicted));
}

/** OptionalCoverage = |P ∩ O| / |O|. */
export function optionalCoverage(instance: PreparedInstance): number {
  return ratio(lineSetIntersectionSize(instance.predicted, instance.optional), lineSetSize(instance.optional));
}

/** One entry of a budgeted DCG walk. */
interface DcgEntry {
  readonly gain: number;
  readonly length: number;
}

/**
 * Budgeted DCG: walk entries i = 0, 1, …; add lenᵢ to a running total; stop at the first entry
 * that pushes the total past B *unless it is the first* (the first entry is always admitted);
 * otherwise add gainᵢ / log2(i + 2). Returns the DCG and how many entries were admitted.
 */
export function budgetedDcg(entries: readonly DcgEntry[], budget: number): { dcg: number; admitted: number } {
  let total = 0;
  let dcg = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    total += entry.length;
    if (total > budget && i > 0) return { dcg, admitted: i };
    dcg += entry.gain / Math.log2(i + 2);
  }
  return { dcg, admitted: entries.length };
}

/** Entries re-ordered by descending density gain / max(len, 1); a stable sort keeps ties in list order. */
export function idealOrder<T extends DcgEntry>(entries: readonly T[]): T[] {
  const density = (e: DcgEntry): number => e.gain / Math.max(e.length, 1);
  return [...entries].sort((a, b) => density(b) - density(a));
}

/** DCG, the self-normalised ideal DCG and nDCG at one budget. */
export interface NdcgDetail {
  readonly dcg: number;
  readonly idcg: number;
  readonly ndcg: number;
  /** Entries admitted by the budget in list order. */
  readonly admitted: number;
  /** True when DCG / IDCG exceeded 1 and was clamped. */
  readonly clamped: boolean;
}

/**
 * nDCG@B as the evaluator computes it: gains are weighted core lines per entry (not
 * de-duplicated), the ideal is the *same* entries re-ranked by density (not an oracle), and the
 * ratio is clamped to 1. 0 without core regions or predictions, or when IDCG is 0.
 */
export function ndcgDetail(instance: PreparedInstance, budget: number): NdcgDetail {
  if (instance.coreRegions.length === 0 || instance.predictions.length === 0) {
    return { dcg: 0, idcg: 0, ndcg: 0, admitted: 0, clamped: false };
  }
  const entries = instance.predictions.map((p) => ({ gain: p.gain, length: p.ndcgLength }));
  const actual = budgetedDcg(entries, budget);
  const ideal = budgetedDcg(idealOrder(entries), budget);
  if (!(ideal.dcg > 0)) return { dcg: actual.dcg, idcg: ideal.dcg, ndcg: 0, admitted: actual.admitted, clamped: false };
  const raw = actual.dcg / ideal.dcg;
  return { dcg: actual.dcg, idcg: ideal.dcg, ndcg: Math.min(raw, 1.0), admitted: actual.admitted, clamped: raw > 1 };
}

/** nDCG@B (see {@link ndcgDetail}). */
export function ndcgAt(instance: PreparedInstance, budget: number): number {
  return ndcgDetail(instance, budget).ndcg;
}

/**
 * The lines Recall@B examines: walking resolvable entries in order, line by line, the first B line
 * *occurrences* (duplicates consume budget again; inverted regions consume nothing). Returns the
 * examined lines per path and how many lines of each entry were examined.
 */
export function examinedWithinBudget(
  instance: PreparedInstance,
  budget: number,
): { examined: LineSet; linesPerEntry: number[] } {
  const ranges: { path: string; start: number; end: number }[] = [];
  const linesPerEntry = instance.predictions.map(() => 0);
  // The walk counts a line before comparing the total with B, so it examines ⌈B⌉ lines (at least one).
  const limit = Math.max(1, Math.ceil(budget));
  let total = 0;
  for (const prediction of instance.predictions) {
    if (total >= limit) break;
    const { resolution } = prediction;
    if (resolution.kind !== 'resolved' || resolution.start > resolution.end) continue;
    const take = Math.min(resolution.end - resolution.start + 1, limit - total);
    ranges.push({ path: prediction.region.path, start: resolution.start, end: resolution.start + take - 1 });
    linesPerEntry[prediction.index] = take;
    total += take;
  }
  return { examined: lineSetFrom(ranges), linesPerEntry };
}

/** Recall@B = |core lines among the first B predicted line occurrences| / |C|; 0 when C is empty. */
export function recallAt(instance: PreparedInstance, budget: number): number {
  const coreSize = lineSetSize(instance.core);
  if (coreSize === 0) return 0;
  return lineSetIntersectionSize(examinedWithinBudget(instance, budget).examined, instance.core) / coreSize;
}

/** 0-based index of the first entry whose resolved lines contain a core line, or −1. */
export function firstUsefulIndex(instance: PreparedInstance): number {
  return instance.predictions.findIndex((p) => p.coreLinesHit > 0);
}

/** FUH = 1 − i/n for the first entry i that contains a core line; 0 if none, no entries or empty C. */
export function firstUsefulHit(instance: PreparedInstance): number {
  const n = instance.predictions.length;
  if (n === 0 || lineSetSize(instance.core) === 0) return 0;
  const i = firstUsefulIndex(instance);
  return i < 0 ? 0 : 1 - i / n;
}

/** All 17 official metrics, in the evaluator's field order. */
export function officialMetrics(instance: PreparedInstance): OfficialMetrics {
  const p = precision(instance);
  const r = recall(instance);
  return {
    precision: p,
    recall: r,
    f1_score: f1(p, r),
    hit_file_rate: hitFileRate(instance),
    noise_file_rate: noiseFileRate(instance),
    hit_region_rate: hitRegionRate(instance),
    noise_region_rate: noiseRegionRate(instance),
    weighted_core_coverage: weightedCoreCoverage(instance),
    context_efficiency: contextEfficiency(instance),
    optional_coverage: optionalCoverage(instance),
    ndcg_at_100: ndcgAt(instance, 100),
    ndcg_at_300: ndcgAt(instance, 300),
    ndcg_at_500: ndcgAt(instance, 500),
    recall_at_100: recallAt(instance, 100),
    recall_at_300: recallAt(instance, 300),
    recall_at_500: recallAt(instance, 500),
    first_useful_hit: firstUsefulHit(instance),
  };
}
