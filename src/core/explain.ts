import { EMPTY_SET, lineSetIntersectionSize, lineSetSize, lineSetSubtract, rangeIntersection, rangeIntersectionSize, insertInterval, subtract, type IntervalSet, type LineSet } from './intervals';
import { coreRegionHits, coreRegionWeight, examinedWithinBudget, idealOrder, ndcgDetail, noisePredictions, officialMetrics, type NdcgDetail } from './metrics';
import type { PreparedInstance } from './prepare';
import { resolvedOverlap, type Resolution } from './resolve';
import type { OfficialMetrics, Region } from './types';

/** Everything that made a number differ from what a reader of the paper might expect. */
export type QuirkKind =
  | 'unresolvable-no-line-count'
  | 'unresolvable-empty-file'
  | 'unresolvable-non-positive-end'
  | 'past-eof'
  | 'inverted'
  | 'start-zero'
  | 'repeated-lines'
  | 'first-over-budget'
  | 'ndcg-self-normalised'
  | 'ndcg-clamped'
  | 'main-file-weight'
  | 'empty-core'
  | 'ground-truth-unresolvable'
  | 'ground-truth-inverted';

export interface Quirk {
  readonly kind: QuirkKind;
  readonly message: string;
  /** 1-based prediction rank the quirk is about, if any. */
  readonly rank?: number;
  /** 0-based core region index the quirk is about, if any. */
  readonly coreIndex?: number;
}

/** How much of an entry the line budget B examines (Recall@B's line-by-line walk). */
export type BudgetStatus = 'in' | 'partial' | 'over' | 'no-lines';

export interface PredictionExplanation {
  /** 1-based rank. */
  readonly rank: number;
  readonly region: Region;
  readonly resolution: Resolution;
  /** Real lines covered (0 for unresolvable or inverted entries). */
  readonly lines: number;
  /** Length as nDCG counts it (may be 0 or negative). */
  readonly ndcgLength: number;
  /** Running nDCG length total after this entry. */
  readonly cumulativeLength: number;
  /** Admitted into DCG at the budget. */
  readonly ndcgAdmitted: boolean;
  /** Lines of this entry among the first B predicted line occurrences. */
  readonly linesInBudget: number;
  readonly budgetStatus: BudgetStatus;
  /** nDCG gain (core lines × 1.5 on main files, × 1 elsewhere; not de-duplicated). */
  readonly gain: number;
  /** 1 / log2(rank + 1). */
  readonly discount: number;
  /** Core lines inside this entry. */
  readonly coreLinesHit: number;
  /** Core lines this entry reaches that no earlier entry reached. */
  readonly newCoreLines: number;
  /** 0-based indices of the core regions this entry overlaps (evaluator's overlap test). */
  readonly coreRegionsTouched: readonly number[];
  /** Overlaps no core and no optional region. */
  readonly noise: boolean;
}

export interface CoreRegionExplanation {
  readonly index: number;
  readonly region: Region;
  readonly resolution: Resolution;
  readonly lines: number;
  /** Weight in weighted core coverage (3 on main files, else 2). */
  readonly weight: number;
  readonly coveredLines: number;
  readonly coveredLinesInBudget: number;
  /** 1-based ranks of the entries whose lines cover part of the region. */
  readonly coveringRanks: readonly number[];
  readonly coveringRanksInBudget: readonly number[];
  /** Region lines no entry examined within the budget reaches. */
  readonly missedSpans: IntervalSet;
  /** Region lines no entry reaches at all. */
  readonly uncoveredSpans: IntervalSet;
  /** Counted as hit by HitRegion (overlap test). */
  readonly hit: boolean;
}

/** Line categories per path, for decorations and hovers. */
export interface LineCategories {
  readonly core: LineSet;
  readonly optional: LineSet;
  readonly optionalByModel: ReadonlyMap<string, LineSet>;
  readonly predicted: LineSet;
  /** Lines among the first B predicted line occurrences. */
  readonly inBudget: LineSet;
  /** Core lines not examined within the budget. */
  readonly missed: LineSet;
}

export interface InstanceExplanation {
  readonly budget: number;
  readonly metrics: OfficialMetrics;
  /** nDCG and Recall at the chosen budget (which need not be 100/300/500). */
  readonly ndcg: NdcgDetail;
  readonly recallAtBudget: number;
  readonly coreLines: number;
  readonly optionalLines: number;
  readonly predictedLines: number;
  readonly predictions: readonly PredictionExplanation[];
  readonly coreRegions: readonly CoreRegionExplanation[];
  readonly lines: LineCategories;
  readonly quirks: readonly Quirk[];
}

/**
 * Scores one instance and explains every number: per prediction, per core region, per line
 * category, plus every evaluator quirk that affected a value. `budget` is the line budget the
 * UI focuses on (any B ≥ 1).
 */
export function explainInstance(instance: PreparedInstance, budget: number): InstanceExplanation {
  const noise = noisePredictions(instance);
  const regionHits = coreRegionHits(instance);
  const metrics = officialMetrics(instance, { coreRegionHits: regionHits, noisePredictions: noise });
  const ndcg = ndcgDetail(instance, budget);
  const { examined, linesPerEntry } = examinedWithinBudget(instance, budget);
  const quirks: Quirk[] = [];

  const predictions: PredictionExplanation[] = [];
  // Core lines reached by earlier entries, per path, grown in place (an entry-by-entry union).
  const reachedCore = new Map<string, [number, number][]>();
  const coreIndicesByPath = groupIndices(instance.coreRegions.map((r) => r.region.path));
  let cumulativeLength = 0;
  for (const prediction of instance.predictions) {
    const rank = prediction.index + 1;
    const { region, resolution } = prediction;
    cumulativeLength += prediction.ndcgLength;
    let newCoreLines = 0;
    if (resolution.kind === 'resolved' && prediction.coreLinesHit > 0) {
      const coreHere = rangeIntersection(instance.core.get(region.path) ?? EMPTY_SET, resolution.start, resolution.end);
      let reached = reachedCore.get(region.path);
      if (reached === undefined) reachedCore.set(region.path, (reached = []));
      for (const [s, e] of coreHere) newCoreLines += e - s + 1 - rangeIntersectionSize(reached, s, e);
      for (const [s, e] of coreHere) insertInterval(reached, s, e);
    }
    const linesInBudget = linesPerEntry[prediction.index] ?? 0;
    predictions.push({
      rank,
      region,
      resolution,
      lines: prediction.lines,
      ndcgLength: prediction.ndcgLength,
      cumulativeLength,
      ndcgAdmitted: prediction.index < ndcg.admitted,
      linesInBudget,
      budgetStatus: prediction.lines === 0 ? 'no-lines' : linesInBudget === prediction.lines ? 'in' : linesInBudget > 0 ? 'partial' : 'over',
      gain: prediction.gain,
      discount: 1 / Math.log2(rank + 1),
      coreLinesHit: prediction.coreLinesHit,
      newCoreLines,
      coreRegionsTouched: (coreIndicesByPath.get(region.path) ?? []).filter((i) => resolvedOverlap(instance.coreRegions[i]!.resolution, resolution)),
      noise: noise[prediction.index] ?? false,
    });
    for (const quirk of predictionQuirks(instance, prediction.index, budget, prediction.coreLinesHit > newCoreLines)) quirks.push(quirk);
  }

  const predictionsByPath = new Map<string, PredictionExplanation[]>();
  for (const p of predictions) {
    const list = predictionsByPath.get(p.region.path) ?? [];
    list.push(p);
    predictionsByPath.set(p.region.path, list);
  }
  const coreRegions: CoreRegionExplanation[] = instance.coreRegions.map(({ region, resolution }, index) => {
    const resolved = resolution.kind === 'resolved' && resolution.start <= resolution.end;
    const start = resolved ? resolution.start : 1;
    const end = resolved ? resolution.end : 0;
    const own: IntervalSet = resolved ? [[start, end]] : EMPTY_SET;
    const predicted = instance.predicted.get(region.path) ?? EMPTY_SET;
    const inBudget = examined.get(region.path) ?? EMPTY_SET;
    const coveringRanks = (predictionsByPath.get(region.path) ?? []).filter((p) => p.resolution.kind === 'resolved' && rangesMeet(p.resolution, start, end)).map((p) => p.rank);
    if (resolution.kind !== 'resolved') {
      quirks.push({
        kind: 'ground-truth-unresolvable',
        coreIndex: index,
        message: `core region ${index + 1} (${describe(region)}) cannot be resolved (${resolution.reason}); it contributes no lines`,
      });
    } else if (resolution.start > resolution.end) {
      quirks.push({
        kind: 'ground-truth-inverted',
        coreIndex: index,
        message: `core region ${index + 1} (${describe(region)}) has start > end: it covers no line and is skipped by weighted core coverage`,
      });
    } else {
      const pastEof = pastEofLines(instance, region.path, resolution);
      if (pastEof > 0) {
        quirks.push({
          kind: 'past-eof',
          coreIndex: index,
          message: `core region ${index + 1} (${describe(region)}) runs ${pastEof} line(s) past the end of the file; the evaluator does not clip them`,
        });
      }
    }
    return {
      index,
      region,
      resolution,
      lines: end - start + 1 > 0 ? end - start + 1 : 0,
      weight: coreRegionWeight(instance, region.path),
      coveredLines: rangeIntersectionSize(predicted, start, end),
      coveredLinesInBudget: rangeIntersectionSize(inBudget, start, end),
      coveringRanks,
      coveringRanksInBudget: coveringRanks.filter((rank) => {
        const p = predictions[rank - 1]!;
        return p.linesInBudget > 0 && p.resolution.kind === 'resolved' && rangesMeet({ start: p.resolution.start, end: p.resolution.start + p.linesInBudget - 1 }, start, end);
      }),
      missedSpans: subtract(own, inBudget),
      uncoveredSpans: subtract(own, predicted),
      hit: regionHits[index] ?? false,
    };
  });

  for (const quirk of instanceQuirks(instance, ndcg, budget)) quirks.push(quirk);

  return {
    budget,
    metrics,
    ndcg,
    recallAtBudget: lineSetSize(instance.core) === 0 ? 0 : lineSetIntersectionSize(examined, instance.core) / lineSetSize(instance.core),
    coreLines: lineSetSize(instance.core),
    optionalLines: lineSetSize(instance.optional),
    predictedLines: lineSetSize(instance.predicted),
    predictions,
    coreRegions,
    lines: {
      core: instance.core,
      optional: instance.optional,
      optionalByModel: instance.optionalByModel,
      predicted: instance.predicted,
      inBudget: examined,
      missed: lineSetSubtract(instance.core, examined),
    },
    quirks,
  };
}

/** Positions of each distinct key, in order. */
function groupIndices(keys: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const list = out.get(key) ?? [];
    list.push(i);
    out.set(key, list);
  });
  return out;
}

/** Whether the lines of `range` (s ≤ e) meet `[start, end]`. */
function rangesMeet(range: { start: number; end: number }, start: number, end: number): boolean {
  return range.start <= range.end && range.start <= end && start <= range.end;
}

function describe(region: Region): string {
  return `${region.path}:${region.start}-${region.end}`;
}

/** Lines of a resolved region beyond the file's real end, when that is known. */
function pastEofLines(instance: PreparedInstance, path: string, resolution: Resolution): number {
  const known = instance.knownLineCounts.get(path);
  if (resolution.kind !== 'resolved' || known === undefined || resolution.start > resolution.end) return 0;
  return Math.max(0, resolution.end - Math.max(known, resolution.start - 1));
}

function predictionQuirks(instance: PreparedInstance, index: number, budget: number, repeatsLines: boolean): Quirk[] {
  const prediction = instance.predictions[index]!;
  const rank = index + 1;
  const { region, resolution } = prediction;
  const where = `prediction #${rank} (${describe(region)})`;
  const quirks: Quirk[] = [];
  if (resolution.kind === 'unresolvable') {
    if (resolution.reason === 'no-line-count') {
      const known = instance.knownLineCounts.has(region.path);
      const why =
        instance.profile === 'official' && known
          ? 'the file is outside the ground-truth regions, and the official evaluator only knows line counts for ground-truth-region files'
          : 'no line count is known for this file (missing from the snapshot?)';
      quirks.push({
        kind: 'unresolvable-no-line-count',
        rank,
        message: `${where} is a whole-file or tail region, but ${why}: it adds 0 lines, cannot hit anything, and still counts as a noise region and occupies rank ${rank}`,
      });
    } else if (resolution.reason === 'empty-file') {
      quirks.push({ kind: 'unresolvable-empty-file', rank, message: `${where} needs the line count of an empty file: it adds 0 lines but still occupies rank ${rank}` });
    } else {
      quirks.push({ kind: 'unresolvable-non-positive-end', rank, message: `${where} has an end of ${region.end}: only -1 means end of file, so it is unresolvable and adds 0 lines` });
    }
    return quirks;
  }
  if (region.start === 0) quirks.push({ kind: 'start-zero', rank, message: `${where} starts at line 0, which the evaluator treats as line 1` });
  if (resolution.start > resolution.end) {
    quirks.push({
      kind: 'inverted',
      rank,
      message: `${where} resolves to start ${resolution.start} > end ${resolution.end}: it covers no line, the overlap test can still match it, and its nDCG length ${prediction.ndcgLength} frees budget for later entries`,
    });
  }
  const pastEof = pastEofLines(instance, region.path, resolution);
  if (pastEof > 0) quirks.push({ kind: 'past-eof', rank, message: `${where} runs ${pastEof} line(s) past the end of the file; the evaluator does not clip them, so they count as predicted lines` });
  if (repeatsLines)
    quirks.push({
      kind: 'repeated-lines',
      rank,
      message: `${where} repeats core lines of earlier entries: nDCG credits them again and Recall@B spends budget on them again, while precision and recall count them once`,
    });
  if (index === 0 && prediction.ndcgLength > budget) {
    quirks.push({ kind: 'first-over-budget', rank, message: `${where} alone has ${prediction.ndcgLength} lines, more than B = ${budget}; nDCG admits the first entry anyway` });
  }
  return quirks;
}

function instanceQuirks(instance: PreparedInstance, ndcg: NdcgDetail, budget: number): Quirk[] {
  const quirks: Quirk[] = [];
  if (instance.coreRegions.length === 0) {
    quirks.push({ kind: 'empty-core', message: 'this instance has no core regions: recall-type metrics are 0, and the official runner skips such instances by default' });
  }
  if (instance.mainFiles.size > 0 && lineSetIntersectionSize(instance.core, mainFileLines(instance)) > 0) {
    quirks.push({
      kind: 'main-file-weight',
      message: `core lines in main files (${[...instance.mainFiles].join(', ')}) weigh 1.5 in nDCG gains, and their core regions weigh 3 (else 2) in weighted core coverage`,
    });
  }
  const idealFirst = idealOrder(instance.predictions.map((p) => ({ gain: p.gain, length: p.ndcgLength, index: p.index })))[0];
  if (ndcg.idcg > 0 && idealFirst !== undefined && idealFirst.index !== 0 && idealFirst.length > budget) {
    quirks.push({
      kind: 'first-over-budget',
      rank: idealFirst.index + 1,
      message: `the ideal ranking puts prediction #${idealFirst.index + 1} (${idealFirst.length} lines, more than B = ${budget}) first, where the first-entry rule admits it; the ideal DCG, and so nDCG@${budget}, rest on that`,
    });
  }
  if (ndcg.clamped) {
    quirks.push({ kind: 'ndcg-clamped', message: `DCG exceeded the self-normalised ideal at B = ${budget} and nDCG was clamped to 1` });
  }
  if (ndcg.idcg > 0) {
    quirks.push({
      kind: 'ndcg-self-normalised',
      message: `nDCG@${budget}'s ideal re-ranks this explorer's own regions by core density; 1.0 means "already in density order", not "found every core line"`,
    });
  }
  return quirks;
}

function mainFileLines(instance: PreparedInstance): LineSet {
  const out = new Map<string, IntervalSet>();
  for (const path of instance.mainFiles) {
    const set = instance.core.get(path);
    if (set !== undefined) out.set(path, set);
  }
  return out;
}
