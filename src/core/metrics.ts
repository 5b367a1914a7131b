import {
  EMPTY_SET,
  insertInterval,
  lineSetFrom,
  lineSetIntersectionSize,
  lineSetSize,
  rangeIntersection,
  rangeIntersectionSize,
  type LineSet,
} from './intervals';
import { resolutionsByPath, type PreparedInstance, type PreparedPrediction } from './prepare';
import { resolvedOverlap, type Resolution } from './resolve';
import { OFFICIAL_BUDGETS, type OfficialMetrics } from './types';

/** `a / b`, defined as 0 when `b` is 0 (the evaluator's convention for every ratio). */
function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

/** Precision = |P ∩ C| / |P|. */
export function precision(instance: PreparedInstance): number {
  return ratio(lineSetIntersectionSize(instance.predicted, instance.core), lineSetSize(instance.predicted));
}

/** |P ∩ C|, |P| and |C|, which several metrics share. */
function coreOverlap(instance: PreparedInstance): { hit: number; predicted: number; core: number } {
  return { hit: lineSetIntersectionSize(instance.predicted, instance.core), predicted: lineSetSize(instance.predicted), core: instance.coreSize };
}

/** Recall = |P ∩ C| / |C|. */
export function recall(instance: PreparedInstance): number {
  return ratio(lineSetIntersectionSize(instance.predicted, instance.core), instance.coreSize);
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
export function hitFileRate(instance: PreparedInstance, visited: ReadonlySet<string> = predictedPaths(instance)): number {
  let hits = 0;
  for (const path of visited) if (instance.coreFiles.has(path)) hits++;
  return ratio(hits, instance.coreFiles.size);
}

/** NoiseFile = |V − CF − OF| / |V|, OF = union of every model's optional files. */
export function noiseFileRate(instance: PreparedInstance, visited: ReadonlySet<string> = predictedPaths(instance)): number {
  let noise = 0;
  for (const path of visited) if (!instance.groundTruthFiles.has(path)) noise++;
  return ratio(noise, visited.size);
}

function overlapsAny(prediction: PreparedPrediction, byPath: ReadonlyMap<string, readonly Resolution[]>): boolean {
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
export function hitRegionRate(instance: PreparedInstance, hits: readonly boolean[] = coreRegionHits(instance)): number {
  return ratio(hits.filter(Boolean).length, hits.length);
}

/** For each prediction entry, whether it overlaps no core and no optional region. */
export function noisePredictions(instance: PreparedInstance): boolean[] {
  return instance.predictions.map((prediction) => !overlapsAny(prediction, instance.groundTruthResolutionsByPath));
}

/** NoiseRegion = (entries overlapping no core/optional region) / (entries, duplicates counted). */
export function noiseRegionRate(instance: PreparedInstance, noise: readonly boolean[] = noisePredictions(instance)): number {
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
  return ratio(lineSetIntersectionSize(instance.predicted, instance.useful), lineSetSize(instance.predicted));
}

/** OptionalCoverage = |P ∩ O| / |O|. */
export function optionalCoverage(instance: PreparedInstance): number {
  return ratio(lineSetIntersectionSize(instance.predicted, instance.optional), instance.optionalSize);
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
  return ndcgDetails(instance, [budget])[0]!;
}

/** {@link ndcgDetail} for several budgets, sharing the entries and their ideal order. */
export function ndcgDetails(instance: PreparedInstance, budgets: readonly number[]): NdcgDetail[] {
  if (instance.coreRegions.length === 0 || instance.predictions.length === 0) {
    return budgets.map(() => ({ dcg: 0, idcg: 0, ndcg: 0, admitted: 0, clamped: false }));
  }
  const entries = instance.predictions.map((p) => ({ gain: p.gain, length: p.ndcgLength }));
  const ideal = idealOrder(entries);
  return budgets.map((budget) => {
    const actual = budgetedDcg(entries, budget);
    const best = budgetedDcg(ideal, budget);
    if (!(best.dcg > 0)) return { dcg: actual.dcg, idcg: best.dcg, ndcg: 0, admitted: actual.admitted, clamped: false };
    const raw = actual.dcg / best.dcg;
    return { dcg: actual.dcg, idcg: best.dcg, ndcg: Math.min(raw, 1.0), admitted: actual.admitted, clamped: raw > 1 };
  });
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

/**
 * Recall@B = |core lines among the first B predicted line occurrences| / |C|; 0 when C is empty.
 * Same walk as {@link examinedWithinBudget}, but it only accumulates the distinct core lines
 * reached, which is all the metric needs.
 */
export function recallAt(instance: PreparedInstance, budget: number): number {
  return recallAtBudgets(instance, [budget])[0]!;
}

/**
 * {@link recallAt} for several budgets in one walk: the lines examined under a smaller budget are
 * a prefix of those examined under a larger one, so each budget is a checkpoint of the same walk.
 */
export function recallAtBudgets(instance: PreparedInstance, budgets: readonly number[]): number[] {
  const coreSize = instance.coreSize;
  const out = budgets.map(() => 0);
  if (coreSize === 0) return out;
  // The walk counts a line before comparing the total with B, so it examines ⌈B⌉ lines (at least one).
  const limits = budgets.map((b) => Math.max(1, Math.ceil(b)));
  const order = limits.map((_, i) => i).sort((a, b) => limits[a]! - limits[b]!);
  const reached = new Map<string, [number, number][]>();
  let next = 0;
  let covered = 0;
  let total = 0;
  for (const prediction of instance.predictions) {
    if (next >= order.length) break;
    const { resolution } = prediction;
    if (resolution.kind !== 'resolved' || resolution.start > resolution.end) continue;
    const path = prediction.region.path;
    let start = resolution.start;
    while (start <= resolution.end && next < order.length) {
      const limit = limits[order[next]!]!;
      const take = Math.min(resolution.end - start + 1, limit - total);
      if (take > 0) {
        if (prediction.coreLinesHit > 0) {
          let list = reached.get(path);
          if (list === undefined) reached.set(path, (list = []));
          for (const [s, e] of rangeIntersection(instance.core.get(path) ?? EMPTY_SET, start, start + take - 1)) {
            covered += e - s + 1 - rangeIntersectionSize(list, s, e);
            insertInterval(list, s, e);
          }
        }
        total += take;
        start += take;
      }
      if (total >= limit) out[order[next++]!] = covered / coreSize;
    }
  }
  while (next < order.length) out[order[next++]!] = covered / coreSize;
  return out;
}

/** 0-based index of the first entry whose resolved lines contain a core line, or −1. */
export function firstUsefulIndex(instance: PreparedInstance): number {
  return instance.predictions.findIndex((p) => p.coreLinesHit > 0);
}

/** FUH = 1 − i/n for the first entry i that contains a core line; 0 if none, no entries or empty C. */
export function firstUsefulHit(instance: PreparedInstance): number {
  const n = instance.predictions.length;
  if (n === 0 || instance.coreSize === 0) return 0;
  const i = firstUsefulIndex(instance);
  return i < 0 ? 0 : 1 - i / n;
}

/**
 * All 17 official metrics, in the evaluator's field order. `overlaps` lets a caller that already
 * ran the overlap tests (the explanations do) pass them in instead of running them twice.
 */
export function officialMetrics(
  instance: PreparedInstance,
  overlaps: { readonly coreRegionHits: readonly boolean[]; readonly noisePredictions: readonly boolean[] } = {
    coreRegionHits: coreRegionHits(instance),
    noisePredictions: noisePredictions(instance),
  },
): OfficialMetrics {
  const overlap = coreOverlap(instance);
  const p = ratio(overlap.hit, overlap.predicted);
  const r = ratio(overlap.hit, overlap.core);
  const visited = predictedPaths(instance);
  const [ndcg100, ndcg300, ndcg500] = ndcgDetails(instance, OFFICIAL_BUDGETS);
  const [recall100, recall300, recall500] = recallAtBudgets(instance, OFFICIAL_BUDGETS);
  return {
    precision: p,
    recall: r,
    f1_score: f1(p, r),
    hit_file_rate: hitFileRate(instance, visited),
    noise_file_rate: noiseFileRate(instance, visited),
    hit_region_rate: hitRegionRate(instance, overlaps.coreRegionHits),
    noise_region_rate: noiseRegionRate(instance, overlaps.noisePredictions),
    weighted_core_coverage: weightedCoreCoverage(instance),
    context_efficiency: ratio(lineSetIntersectionSize(instance.predicted, instance.useful), overlap.predicted),
    optional_coverage: optionalCoverage(instance),
    ndcg_at_100: ndcg100!.ndcg,
    ndcg_at_300: ndcg300!.ndcg,
    ndcg_at_500: ndcg500!.ndcg,
    recall_at_100: recall100!,
    recall_at_300: recall300!,
    recall_at_500: recall500!,
    first_useful_hit: firstUsefulHit(instance),
  };
}
