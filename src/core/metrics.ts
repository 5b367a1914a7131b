import { EMPTY_SET, lineSetFrom, lineSetIntersectionSize, lineSetSize, rangeIntersectionSize, type LineSet } from './intervals';
import { resolutionsByPath, type PathFacts, type PreparedInstance, type PreparedPrediction } from './prepare';
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
  const out: NdcgDetail[] = [];
  if (instance.coreRegions.length === 0 || instance.predictions.length === 0) {
    for (let k = 0; k < budgets.length; k++) out.push({ dcg: 0, idcg: 0, ndcg: 0, admitted: 0, clamped: false });
    return out;
  }
  const ideal = idealOrderOfEntries(instance.predictions);
  for (const budget of budgets) {
    const dcg = budgetedDcgOfEntries(instance.predictions, null, budget);
    const idcg = budgetedDcgOfEntries(instance.predictions, ideal, budget);
    const admitted = admittedEntries(instance.predictions, budget);
    if (!(idcg > 0)) {
      out.push({ dcg, idcg, ndcg: 0, admitted, clamped: false });
    } else {
      const raw = dcg / idcg;
      out.push({ dcg, idcg, ndcg: Math.min(raw, 1.0), admitted, clamped: raw > 1 });
    }
  }
  return out;
}

/**
 * {@link budgetedDcg} over the prepared entries, in list order (`order` null) or in the order of
 * the given indices, without building entry objects. Same additions in the same order.
 */
function budgetedDcgOfEntries(predictions: readonly PreparedPrediction[], order: Int32Array | null, budget: number): number {
  let total = 0;
  let dcg = 0;
  for (let i = 0; i < predictions.length; i++) {
    const entry = predictions[order === null ? i : order[i]!]!;
    total += entry.ndcgLength;
    if (total > budget && i > 0) return dcg;
    dcg += entry.gain / (i < DISCOUNT_TABLE_SIZE ? LOG2_OF_RANK_PLUS_ONE[i]! : Math.log2(i + 2));
  }
  return dcg;
}

/**
 * {@link budgetedDcgOfEntries} at the three official budgets in one walk, written to
 * `out[at]`, `out[at + 1]`, `out[at + 2]`. A larger budget stops no earlier than a smaller one and
 * every budget's DCG is a prefix of the same running sum, so each is read off where its walk
 * would stop: the same additions in the same order.
 */
function officialBudgetDcgs(predictions: readonly PreparedPrediction[], order: Int32Array | null, out: Float64Array, at: number): void {
  let next = 0;
  let total = 0;
  let dcg = 0;
  for (let i = 0; i < predictions.length; i++) {
    const entry = predictions[order === null ? i : order[i]!]!;
    total += entry.ndcgLength;
    if (i > 0) {
      while (next < 3 && total > OFFICIAL_BUDGETS[next]!) out[at + next++] = dcg;
      if (next === 3) return;
    }
    dcg += entry.gain / (i < DISCOUNT_TABLE_SIZE ? LOG2_OF_RANK_PLUS_ONE[i]! : Math.log2(i + 2));
  }
  while (next < 3) out[at + next++] = dcg;
}

/** `Math.log2(i + 2)` for the first ranks, computed once with the same function (same bits). */
const DISCOUNT_TABLE_SIZE = 64;
const LOG2_OF_RANK_PLUS_ONE = Float64Array.from({ length: DISCOUNT_TABLE_SIZE }, (_, i) => Math.log2(i + 2));

/** How many entries, in list order, the budgeted DCG walk admits. */
function admittedEntries(predictions: readonly PreparedPrediction[], budget: number): number {
  let total = 0;
  for (let i = 0; i < predictions.length; i++) {
    total += predictions[i]!.ndcgLength;
    if (total > budget && i > 0) return i;
  }
  return predictions.length;
}

/**
 * {@link idealOrder} of the prepared entries as indices, in a scratch array valid until the next
 * call. A stable insertion sort for short lists (no comparator closure, no copies); the built-in
 * stable sort beyond that. Both give the one stable order of the same comparator.
 */
function idealOrderOfEntries(predictions: readonly PreparedPrediction[]): Int32Array {
  const n = predictions.length;
  if (scratch.density.length < n) {
    scratch.density = new Float64Array(2 * n);
    scratch.ideal = new Int32Array(2 * n);
  }
  const density = scratch.density;
  const ideal = scratch.ideal;
  for (let i = 0; i < n; i++) {
    const entry = predictions[i]!;
    density[i] = entry.gain / Math.max(entry.ndcgLength, 1);
    ideal[i] = i;
  }
  if (n <= INSERTION_SORT_LIMIT) {
    for (let i = 1; i < n; i++) {
      const moving = ideal[i]!;
      let j = i - 1;
      // The comparator is density(b) − density(a): `moving` goes before `ideal[j]` when that is > 0.
      while (j >= 0 && density[moving]! - density[ideal[j]!]! > 0) {
        ideal[j + 1] = ideal[j]!;
        j--;
      }
      ideal[j + 1] = moving;
    }
  } else {
    const indices = Array.from(ideal.subarray(0, n)).sort((a, b) => density[b]! - density[a]!);
    for (let i = 0; i < n; i++) ideal[i] = indices[i]!;
  }
  return ideal;
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
export function examinedWithinBudget(instance: PreparedInstance, budget: number): { examined: LineSet; linesPerEntry: number[] } {
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

/** {@link recallAt} for several budgets. */
export function recallAtBudgets(instance: PreparedInstance, budgets: readonly number[]): number[] {
  const out: number[] = [];
  const coreSize = instance.coreSize;
  if (coreSize === 0) {
    for (let k = 0; k < budgets.length; k++) out.push(0);
    return out;
  }
  groupEntriesByPath(instance);
  // The walk counts a line before comparing the total with B, so it examines ⌈B⌉ lines (at least one).
  for (const budget of budgets) out.push(coreLinesExamined(instance, Math.max(1, Math.ceil(budget)), -1) / coreSize);
  return out;
}

/**
 * Distinct core lines among the first `limit` predicted line occurrences (resolvable, non-inverted
 * entries walked in order, each taking what is left of the limit). `coreHit` is |P ∩ C| when the
 * caller knows it (−1 otherwise): when every entry holding core lines lies wholly within the
 * limit, the answer is exactly that. Needs {@link groupEntriesByPath} for this instance first.
 */
function coreLinesExamined(instance: PreparedInstance, limit: number, coreHit: number): number {
  const predictions = instance.predictions;
  const ranges = scratch.ranges;
  ranges.clear();
  // Whether every entry holding core lines is examined whole; P ∩ C is then the answer.
  let wholeEntries = true;
  let total = 0;
  for (let i = 0; i < predictions.length; i++) {
    const prediction = predictions[i]!;
    const resolution = prediction.resolution;
    if (resolution.kind !== 'resolved' || resolution.start > resolution.end) continue;
    const holdsCore = prediction.coreLinesHit > 0;
    if (total >= limit) {
      if (holdsCore) {
        wholeEntries = false;
        break;
      }
      continue;
    }
    const length = resolution.end - resolution.start + 1;
    const take = length < limit - total ? length : limit - total;
    if (holdsCore) {
      if (take < length) wholeEntries = false;
      ranges.push(scratch.entryGroup[i]!, resolution.start, resolution.start + take - 1);
    }
    total += take;
  }
  if (wholeEntries && coreHit >= 0) return coreHit;
  const merged = ranges.sortAndMerge();
  let covered = 0;
  for (let k = 0; k < merged; k++) {
    const facts = scratch.groupFacts[ranges.group[k]!];
    if (facts !== undefined) covered += rangeIntersectionSize(facts.core, ranges.start[k]!, ranges.end[k]!);
  }
  return covered;
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
 *
 * This runs once per scored row, so it computes what the metrics share once: entries grouped by
 * path (V), P merged per path in scratch buffers and met with C, C ∪ O and O through the
 * per-path facts prepared with the ground truth, the overlap tests in one pass over the entries.
 * Integer counts are exact whatever the grouping; every float is computed with the same
 * operations, in the same order, as the single-metric functions above.
 */
export function officialMetrics(instance: PreparedInstance, overlaps?: { readonly coreRegionHits: readonly boolean[]; readonly noisePredictions: readonly boolean[] }): OfficialMetrics {
  const predictions = instance.predictions;
  const n = predictions.length;
  const coreRegionCount = instance.coreRegions.length;
  const groups = groupEntriesByPath(instance);
  const { entryGroup, groupFacts, ranges } = scratch;

  // V = distinct entry paths, resolvable or not.
  let coreFilesVisited = 0;
  let noiseFiles = 0;
  for (let g = 0; g < groups; g++) {
    const facts = groupFacts[g];
    if (facts === undefined) {
      noiseFiles++;
    } else {
      if (facts.isCoreFile) coreFilesVisited++;
      if (!facts.isGroundTruthFile) noiseFiles++;
    }
  }

  // One pass over the entries: overlap tests, first useful entry, P's ranges.
  if (scratch.regionHit.length < coreRegionCount) {
    scratch.regionHit = new Uint8Array(2 * coreRegionCount);
    scratch.regionCovered = new Float64Array(2 * coreRegionCount);
  }
  const regionHit = scratch.regionHit;
  const regionCovered = scratch.regionCovered;
  for (let index = 0; index < coreRegionCount; index++) {
    regionHit[index] = 0;
    regionCovered[index] = 0;
  }
  let noiseEntries = 0;
  let coreRegionsHit = 0;
  let firstUseful = -1;
  ranges.clear();
  for (let i = 0; i < n; i++) {
    const prediction = predictions[i]!;
    if (firstUseful < 0 && prediction.coreLinesHit > 0) firstUseful = i;
    const resolution = prediction.resolution;
    if (resolution.kind !== 'resolved') {
      noiseEntries++;
      continue;
    }
    const s = resolution.start;
    const e = resolution.end;
    const facts = groupFacts[entryGroup[i]!];
    // The evaluator's overlap test (inverted pairs included): s₁ ≤ e₂ and s₂ ≤ e₁, same path.
    let touchesGroundTruth = false;
    if (facts !== undefined) {
      const pairs = facts.groundTruthPairs;
      for (let k = 0; k < pairs.length; k += 2) {
        if (s <= pairs[k + 1]! && pairs[k]! <= e) {
          touchesGroundTruth = true;
          break;
        }
      }
      if (overlaps === undefined) {
        const indices = facts.coreRegionIndices;
        const corePairs = facts.coreRegionPairs;
        for (let k = 0; k < indices.length; k++) {
          const index = indices[k]!;
          if (regionHit[index] === 0 && corePairs[2 * k]! <= e && s <= corePairs[2 * k + 1]!) {
            regionHit[index] = 1;
            coreRegionsHit++;
          }
        }
      }
    }
    if (!touchesGroundTruth) noiseEntries++;
    if (s <= e) ranges.push(entryGroup[i]!, s, e);
  }

  // P merged per path: |P|, |P ∩ C|, |P ∩ (C ∪ O)|, |P ∩ O| and each core region's covered lines.
  const merged = ranges.sortAndMerge();
  let predictedSize = 0;
  let coreHit = 0;
  let usefulHit = 0;
  let optionalHit = 0;
  for (let k = 0; k < merged; k++) {
    const s = ranges.start[k]!;
    const e = ranges.end[k]!;
    predictedSize += e - s + 1;
    const facts = groupFacts[ranges.group[k]!];
    if (facts === undefined) continue;
    coreHit += rangeIntersectionSize(facts.core, s, e);
    usefulHit += rangeIntersectionSize(facts.useful, s, e);
    optionalHit += rangeIntersectionSize(facts.optional, s, e);
    const indices = facts.coreRegionIndices;
    const corePairs = facts.coreRegionPairs;
    for (let j = 0; j < indices.length; j++) {
      const coreStart = corePairs[2 * j]!;
      const coreEnd = corePairs[2 * j + 1]!;
      const low = s > coreStart ? s : coreStart;
      const high = e < coreEnd ? e : coreEnd;
      if (low <= high) {
        const index = indices[j]!;
        regionCovered[index] = regionCovered[index]! + (high - low + 1);
      }
    }
  }

  // WCC, summed over core regions in order exactly as weightedCoreCoverage does.
  let weighted = 0;
  let weights = 0;
  const coreRegionLines = instance.coreRegionLines;
  for (let index = 0; index < coreRegionCount; index++) {
    const size = coreRegionLines[index]!;
    if (size === 0) continue;
    const weight = instance.coreRegionWeights[index]!;
    weighted += weight * (regionCovered[index]! / size);
    weights += weight;
  }

  const p = ratio(coreHit, predictedSize);
  const r = ratio(coreHit, instance.coreSize);
  let ndcg100 = 0;
  let ndcg300 = 0;
  let ndcg500 = 0;
  if (coreRegionCount > 0 && n > 0) {
    const dcg = scratch.dcg;
    officialBudgetDcgs(predictions, null, dcg, 0);
    officialBudgetDcgs(predictions, idealOrderOfEntries(predictions), dcg, 3);
    ndcg100 = ndcgFrom(dcg[0]!, dcg[3]!);
    ndcg300 = ndcgFrom(dcg[1]!, dcg[4]!);
    ndcg500 = ndcgFrom(dcg[2]!, dcg[5]!);
  }
  const coreSize = instance.coreSize;
  const hasCore = coreSize !== 0;
  return {
    precision: p,
    recall: r,
    f1_score: f1(p, r),
    hit_file_rate: ratio(coreFilesVisited, instance.coreFiles.size),
    noise_file_rate: ratio(noiseFiles, groups),
    hit_region_rate: overlaps === undefined ? ratio(coreRegionsHit, coreRegionCount) : ratio(countTrue(overlaps.coreRegionHits), overlaps.coreRegionHits.length),
    noise_region_rate: overlaps === undefined ? ratio(noiseEntries, n) : ratio(countTrue(overlaps.noisePredictions), overlaps.noisePredictions.length),
    weighted_core_coverage: ratio(weighted, weights),
    context_efficiency: ratio(usefulHit, predictedSize),
    optional_coverage: ratio(optionalHit, instance.optionalSize),
    ndcg_at_100: ndcg100,
    ndcg_at_300: ndcg300,
    ndcg_at_500: ndcg500,
    recall_at_100: hasCore ? coreLinesExamined(instance, B100, coreHit) / coreSize : 0,
    recall_at_300: hasCore ? coreLinesExamined(instance, B300, coreHit) / coreSize : 0,
    recall_at_500: hasCore ? coreLinesExamined(instance, B500, coreHit) / coreSize : 0,
    first_useful_hit: n === 0 || !hasCore || firstUseful < 0 ? 0 : 1 - firstUseful / n,
  };
}

/** The official budgets, ascending (whole numbers, so they are also Recall@B's line limits). */
const [B100, B300, B500] = OFFICIAL_BUDGETS;

/** nDCG from DCG and IDCG as {@link ndcgDetails} computes it. */
function ndcgFrom(dcg: number, idcg: number): number {
  return idcg > 0 ? Math.min(dcg / idcg, 1.0) : 0;
}

function countTrue(flags: readonly boolean[]): number {
  let count = 0;
  for (const flag of flags) if (flag) count++;
  return count;
}

/** Lists this short are grouped by a linear scan and sorted by insertion; longer ones use a Map / the built-in sort. */
const INSERTION_SORT_LIMIT = 16;

/**
 * Closed ranges tagged with a path group, in typed arrays reused across rows: P is built and
 * measured without an interval object per entry.
 */
class RangeBuffer {
  group = new Int32Array(16);
  start = new Float64Array(16);
  end = new Float64Array(16);
  length = 0;

  clear(): void {
    this.length = 0;
  }

  push(group: number, start: number, end: number): void {
    if (this.length === this.group.length) {
      const size = 2 * this.length;
      const group = new Int32Array(size);
      const begin = new Float64Array(size);
      const finish = new Float64Array(size);
      group.set(this.group);
      begin.set(this.start);
      finish.set(this.end);
      this.group = group;
      this.start = begin;
      this.end = finish;
    }
    this.group[this.length] = group;
    this.start[this.length] = start;
    this.end[this.length] = end;
    this.length++;
  }

  /**
   * Sorts by (group, start), merges overlapping or adjacent ranges of the same group in place and
   * returns how many remain (the first entries of the arrays): per group, a sorted disjoint list.
   */
  sortAndMerge(): number {
    const count = this.length;
    if (count > 1) this.sort(count);
    const group = this.group;
    const start = this.start;
    const end = this.end;
    let out = 0;
    for (let k = 0; k < count; k++) {
      if (out > 0 && group[out - 1] === group[k] && start[k]! <= end[out - 1]! + 1) {
        if (end[k]! > end[out - 1]!) end[out - 1] = end[k]!;
      } else {
        group[out] = group[k]!;
        start[out] = start[k]!;
        end[out] = end[k]!;
        out++;
      }
    }
    this.length = out;
    return out;
  }

  private sort(count: number): void {
    const group = this.group;
    const start = this.start;
    const end = this.end;
    if (count <= INSERTION_SORT_LIMIT) {
      for (let i = 1; i < count; i++) {
        const g = group[i]!;
        const s = start[i]!;
        const e = end[i]!;
        let j = i - 1;
        while (j >= 0 && (group[j]! > g || (group[j] === g && start[j]! > s))) {
          group[j + 1] = group[j]!;
          start[j + 1] = start[j]!;
          end[j + 1] = end[j]!;
          j--;
        }
        group[j + 1] = g;
        start[j + 1] = s;
        end[j + 1] = e;
      }
      return;
    }
    const order: number[] = [];
    for (let i = 0; i < count; i++) order.push(i);
    order.sort((a, b) => group[a]! - group[b]! || start[a]! - start[b]!);
    const sortedGroup = Int32Array.from(order, (i) => group[i]!);
    const sortedStart = Float64Array.from(order, (i) => start[i]!);
    const sortedEnd = Float64Array.from(order, (i) => end[i]!);
    group.set(sortedGroup);
    start.set(sortedStart);
    end.set(sortedEnd);
  }
}

/** Buffers shared by the per-row kernels (the core is synchronous and never re-entered). */
const scratch = {
  /** Path group of each entry, and each group's path and facts (see groupEntriesByPath). */
  entryGroup: new Int32Array(16),
  groupPaths: [] as string[],
  groupFacts: [] as (PathFacts | undefined)[],
  ranges: new RangeBuffer(),
  density: new Float64Array(16),
  ideal: new Int32Array(16),
  regionHit: new Uint8Array(16),
  regionCovered: new Float64Array(16),
  /** DCG, then IDCG, at the official budgets. */
  dcg: new Float64Array(6),
};

/**
 * Numbers the distinct entry paths 0, 1, … in order of first entry (scratch.entryGroup per entry,
 * scratch.groupFacts per group) and returns how many there are.
 */
function groupEntriesByPath(instance: PreparedInstance): number {
  const predictions = instance.predictions;
  const n = predictions.length;
  if (scratch.entryGroup.length < n) scratch.entryGroup = new Int32Array(2 * n);
  const { entryGroup, groupPaths, groupFacts } = scratch;
  const byPath = n > INSERTION_SORT_LIMIT ? new Map<string, number>() : null;
  let groups = 0;
  for (let i = 0; i < n; i++) {
    const path = predictions[i]!.region.path;
    let group = -1;
    if (byPath === null) {
      for (let g = 0; g < groups; g++) {
        if (groupPaths[g] === path) {
          group = g;
          break;
        }
      }
    } else {
      group = byPath.get(path) ?? -1;
    }
    if (group < 0) {
      group = groups++;
      groupPaths[group] = path;
      groupFacts[group] = instance.pathFacts.get(path);
      byPath?.set(path, group);
    }
    entryGroup[i] = group;
  }
  return groups;
}
