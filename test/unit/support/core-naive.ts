/**
 * NAIVE reference evaluator for property tests.
 *
 * Written from /work/shared/metrics-spec.md §1–§7 alone, deliberately without any interval
 * algebra: every region is expanded into explicit `path:line` strings and every metric is
 * computed on `Set<string>`s, literally as the prose describes it. It shares no code with
 * src/core (only the types), so agreement between the two is evidence, not tautology.
 */
import type { GroundTruth, LineCounts, OfficialMetrics, Profile, Region } from '../../../src/core/index';

export interface NaiveResolved {
  readonly s: number;
  readonly e: number;
}

/** §1: resolve(path, start, end) with the evaluator's line count L (undefined = unknown). */
export function naiveResolve(start: number, end: number, L: number | undefined): NaiveResolved | null {
  const needsL = end === -1 || start < 0;
  if (needsL) {
    if (L === undefined || L < 1) return null;
    let e = end === -1 ? L : end;
    let s = start < 0 ? L + start + 1 : start;
    if (s < 1) s = 1;
    if (s > L) s = L;
    if (e < 1) e = 1;
    if (e > L) e = L;
    return { s, e };
  }
  const s = start < 1 ? 1 : start;
  if (end < 1) return null;
  return { s, e: end };
}

export function lineKey(path: string, n: number): string {
  return `${path}:${n}`;
}

/** §1.5: `s..e` inclusive; empty when `s > e` or unresolvable. */
export function naiveExpand(path: string, res: NaiveResolved | null): string[] {
  const out: string[] = [];
  if (res === null) return out;
  for (let n = res.s; n <= res.e; n++) out.push(lineKey(path, n));
  return out;
}

/** §2: which line counts the evaluator sees under a profile. */
export function naiveCountFor(groundTruth: GroundTruth, lineCounts: LineCounts, profile: Profile): (path: string) => number | undefined {
  if (profile === 'snapshot') return (path) => lineCounts.get(path);
  const gtPaths: string[] = [];
  for (const r of groundTruth.coreRegions) gtPaths.push(r.path);
  for (const model of Object.keys(groundTruth.optionalRegionsByModel)) {
    for (const r of groundTruth.optionalRegionsByModel[model]!) gtPaths.push(r.path);
  }
  return (path) => (gtPaths.includes(path) ? lineCounts.get(path) : undefined);
}

interface Entry {
  readonly path: string;
  readonly res: NaiveResolved | null;
  readonly lines: string[];
}

export interface NaiveResult {
  readonly metrics: OfficialMetrics;
  ndcgAt(budget: number): number;
  recallAt(budget: number): number;
  /** The line sets, for other checks. */
  readonly C: ReadonlySet<string>;
  readonly O: ReadonlySet<string>;
  readonly P: ReadonlySet<string>;
}

function div(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}

function overlap(a: Entry, b: Entry): boolean {
  return a.path === b.path && a.res !== null && b.res !== null && a.res.s <= b.res.e && b.res.s <= a.res.e;
}

export function naiveEvaluate(groundTruth: GroundTruth, predictions: readonly Region[], lineCounts: LineCounts, profile: Profile): NaiveResult {
  const L = naiveCountFor(groundTruth, lineCounts, profile);
  const entry = (r: Region): Entry => {
    const res = naiveResolve(r.start, r.end, L(r.path));
    return { path: r.path, res, lines: naiveExpand(r.path, res) };
  };

  // §3 inputs
  const CR = groundTruth.coreRegions.map(entry);
  const OR: Entry[] = [];
  for (const model of Object.keys(groundTruth.optionalRegionsByModel)) {
    for (const r of groundTruth.optionalRegionsByModel[model]!) OR.push(entry(r));
  }
  const preds = predictions.map(entry);
  const C = new Set<string>();
  for (const e of CR) for (const k of e.lines) C.add(k);
  const O = new Set<string>();
  for (const e of OR) for (const k of e.lines) O.add(k);
  const P = new Set<string>();
  for (const e of preds) for (const k of e.lines) P.add(k);
  const CF = new Set(groundTruth.coreFiles);
  const OF = new Set<string>();
  for (const model of Object.keys(groundTruth.optionalFilesByModel)) {
    for (const p of groundTruth.optionalFilesByModel[model]!) OF.add(p);
  }
  const main = new Set(groundTruth.mainFiles);
  const V = new Set(predictions.map((r) => r.path));

  const countIn = (set: ReadonlySet<string>, other: (k: string) => boolean): number => {
    let n = 0;
    for (const k of set) if (other(k)) n++;
    return n;
  };

  // §4
  const pc = countIn(P, (k) => C.has(k));
  const precision = div(pc, P.size);
  const recall = div(pc, C.size);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const hitFile = div(
    countIn(V, (p) => CF.has(p)),
    CF.size,
  );
  const noiseFile = div(
    countIn(V, (p) => !CF.has(p) && !OF.has(p)),
    V.size,
  );
  let coreHit = 0;
  for (const c of CR) if (preds.some((p) => overlap(c, p))) coreHit++;
  const hitRegion = div(coreHit, CR.length);
  let noisy = 0;
  for (const p of preds) if (!CR.some((c) => overlap(p, c)) && !OR.some((o) => overlap(p, o))) noisy++;
  const noiseRegion = div(noisy, preds.length);
  let wNum = 0;
  let wDen = 0;
  for (const c of CR) {
    if (c.res === null || c.lines.length === 0) continue;
    const cov = c.lines.filter((k) => P.has(k)).length / c.lines.length;
    const w = main.has(c.path) ? 3 : 2;
    wNum += w * cov;
    wDen += w;
  }
  const wcc = div(wNum, wDen);
  const contextEfficiency = div(
    countIn(P, (k) => C.has(k) || O.has(k)),
    P.size,
  );
  const optionalCoverage = div(
    countIn(P, (k) => O.has(k)),
    O.size,
  );

  // §5 nDCG
  const gains = preds.map((p) => {
    if (p.res === null) return { gain: 0, len: 0 };
    let gain = 0;
    for (const k of p.lines) if (C.has(k)) gain += main.has(p.path) ? 1.5 : 1.0;
    return { gain, len: p.res.e - p.res.s + 1 };
  });
  const walk = (list: readonly { gain: number; len: number }[], B: number): number => {
    let total = 0;
    let dcg = 0;
    for (let i = 0; i < list.length; i++) {
      total += list[i]!.len;
      if (total > B && i > 0) break;
      dcg += list[i]!.gain / Math.log2(i + 2);
    }
    return dcg;
  };
  const density = (g: { gain: number; len: number }): number => g.gain / Math.max(g.len, 1);
  // Explicitly stable: ties broken by original position.
  const ideal = gains.map((g, i) => ({ ...g, i })).sort((a, b) => (density(a) !== density(b) ? (density(b) > density(a) ? 1 : -1) : a.i - b.i));
  const ndcgAt = (B: number): number => {
    if (CR.length === 0 || preds.length === 0) return 0;
    const dcg = walk(gains, B);
    const idcg = walk(ideal, B);
    return idcg > 0 ? Math.min(dcg / idcg, 1.0) : 0;
  };

  // §6 Recall@B
  const recallAt = (B: number): number => {
    if (C.size === 0) return 0;
    const covered = new Set<string>();
    let total = 0;
    outer: for (const p of preds) {
      if (p.res === null) continue;
      for (const k of p.lines) {
        total += 1;
        if (C.has(k)) covered.add(k);
        if (total >= B) break outer;
      }
    }
    return covered.size / C.size;
  };

  // §7 FUH
  let fuh = 0;
  if (preds.length > 0 && C.size > 0) {
    for (let i = 0; i < preds.length; i++) {
      if (preds[i]!.lines.some((k) => C.has(k))) {
        fuh = 1 - i / preds.length;
        break;
      }
    }
  }

  const metrics: OfficialMetrics = {
    precision,
    recall,
    f1_score: f1,
    hit_file_rate: hitFile,
    noise_file_rate: noiseFile,
    hit_region_rate: hitRegion,
    noise_region_rate: noiseRegion,
    weighted_core_coverage: wcc,
    context_efficiency: contextEfficiency,
    optional_coverage: optionalCoverage,
    ndcg_at_100: ndcgAt(100),
    ndcg_at_300: ndcgAt(300),
    ndcg_at_500: ndcgAt(500),
    recall_at_100: recallAt(100),
    recall_at_300: recallAt(300),
    recall_at_500: recallAt(500),
    first_useful_hit: fuh,
  };
  return { metrics, ndcgAt, recallAt, C, O, P };
}

/** Lines of a region list resolved with the full line counts (used for removal checks). */
export function naiveLinesOf(regions: readonly Region[], lineCounts: LineCounts): Set<string> {
  const out = new Set<string>();
  for (const r of regions) for (const k of naiveExpand(r.path, naiveResolve(r.start, r.end, lineCounts.get(r.path)))) out.add(k);
  return out;
}
