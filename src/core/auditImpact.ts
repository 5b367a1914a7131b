/**
 * How an audit moves scores and rankings: before/after macro averages per explorer, per-instance
 * deltas, ranking changes with Kendall's τ-b, removals per reason, a seeded null model of random
 * audits, and agreement between auditors. Pure: the caller scores, this module compares.
 */
import { kendallTau, macroAverage } from './aggregate';
import { intersect, intersectionSize, lineSetSize, subtract, union, EMPTY_SET, type IntervalSet, type LineSet } from './intervals';
import { OFFICIAL_METRIC_NAMES, type OfficialMetricName, type OfficialMetrics, type Region, type Removal } from './types';

/** One scored (instance, explorer) pair; extra metric fields are allowed and ignored. */
export interface ImpactRow {
  readonly instanceId: string;
  readonly explorer: string;
  readonly metrics: Readonly<Record<string, number>>;
}

/** The metrics whose explorer ranking the report compares before and after. */
export const RANKING_METRICS = ['precision', 'recall', 'ndcg_at_500', 'hit_file_rate', 'context_efficiency'] as const satisfies readonly OfficialMetricName[];

export type RankingMetric = (typeof RANKING_METRICS)[number];

export interface ExplorerImpact {
  readonly kind: 'explorer';
  readonly explorer: string;
  readonly instances_before: number;
  readonly instances_after: number;
  readonly before: OfficialMetrics;
  readonly after: OfficialMetrics;
}

export interface InstanceImpact {
  readonly kind: 'instance';
  readonly instance_id: string;
  readonly explorer: string;
  /** `null` when the instance is not scored on that side (e.g. its core became empty). */
  readonly before: OfficialMetrics | null;
  readonly after: OfficialMetrics | null;
}

export interface RankingImpact {
  readonly kind: 'ranking';
  readonly metric: RankingMetric;
  readonly before: readonly string[];
  readonly after: readonly string[];
  readonly kendall_tau_b: number | null;
}

export interface ReasonImpact {
  readonly kind: 'reason';
  readonly reason: string;
  readonly removals: number;
  readonly lines: number;
}

export interface NullImpact {
  readonly kind: 'null';
  readonly metric: RankingMetric;
  readonly tau_p05: number | null;
  readonly tau_median: number | null;
  readonly tau_p95: number | null;
  readonly audit_tau: number | null;
}

/**
 * Agreement of two auditors on one instance: Cohen's κ over its core lines (removed vs kept) and
 * the core lines exactly one of them removed (see {@link AuthorAgreement}).
 */
export interface AgreementImpact {
  readonly kind: 'agreement';
  readonly instance_id: string;
  readonly authors: readonly [string, string];
  readonly kappa: number | null;
  readonly disputed_lines: number;
  readonly disputed: readonly { readonly path: string; readonly start: number; readonly end: number }[];
}

/**
 * Agreement of many auditors on one instance (more than {@link MAX_PAIRWISE_AUTHORS}): one
 * Fleiss' κ over its core lines instead of a line per pair, and the core lines the auditors do
 * not all label alike.
 */
export interface FleissAgreementImpact {
  readonly kind: 'agreement_fleiss';
  readonly instance_id: string;
  /** How many auditors judged the instance. */
  readonly authors: number;
  readonly kappa: number | null;
  readonly disputed_lines: number;
  readonly disputed: readonly { readonly path: string; readonly start: number; readonly end: number }[];
}

export type ImpactLine = ExplorerImpact | InstanceImpact | RankingImpact | ReasonImpact | NullImpact | AgreementImpact | FleissAgreementImpact;

/** One effective removal as the report counts it: its reason and the ground-truth lines it covers. */
export interface ReasonCount {
  readonly reason: string;
  /** Lines of its layer the removal covers (see `removalEffects`). */
  readonly lines: number;
}

export interface AuditImpactInput {
  /** Rows scored on the ground truth as read. */
  readonly before: readonly ImpactRow[];
  /** Rows scored on the audited ground truth; instances whose core became empty have no row. */
  readonly after: readonly ImpactRow[];
  /** Instances with an effective removal or an accept. */
  readonly auditedInstances: Iterable<string>;
  /** Every effective removal with its reason (removals that change nothing included, with 0 lines). */
  readonly removals: readonly ReasonCount[];
}

/**
 * Kendall's τ-b over paired values, or `null` with fewer than two pairs (τ is undefined there;
 * {@link kendallTau} reports 0 for that case, which a report must not present as "no change").
 * With at least two pairs a constant side still gives 0, as in {@link kendallTau}.
 */
export function kendallTauB(before: readonly number[], after: readonly number[]): number | null {
  return Math.min(before.length, after.length) < 2 ? null : kendallTau(before, after);
}

/** The 17 official fields of a row, in the evaluator's order (extra fields dropped). */
function officialOnly(metrics: Readonly<Record<string, number>>): OfficialMetrics {
  const out = {} as OfficialMetrics;
  for (const name of OFFICIAL_METRIC_NAMES) out[name] = metrics[name] ?? 0;
  return out;
}

interface ExplorerSide {
  readonly rows: Map<string, OfficialMetrics>;
}

function byExplorer(rows: readonly ImpactRow[], order: string[], seen: Set<string>): Map<string, ExplorerSide> {
  const out = new Map<string, ExplorerSide>();
  for (const row of rows) {
    if (!seen.has(row.explorer)) {
      seen.add(row.explorer);
      order.push(row.explorer);
    }
    let side = out.get(row.explorer);
    if (side === undefined) out.set(row.explorer, (side = { rows: new Map() }));
    // The first row of a pair wins, as in the readers (duplicate rows are reported there).
    if (!side.rows.has(row.instanceId)) side.rows.set(row.instanceId, officialOnly(row.metrics));
  }
  return out;
}

function macroOf(side: ExplorerSide | undefined): OfficialMetrics {
  return macroAverage(side === undefined ? [] : [...side.rows.values()]);
}

/** Explorers best first by one metric; ties keep the explorers' first-seen order. */
function rank(explorers: readonly string[], value: (explorer: string) => number): string[] {
  return explorers
    .map((explorer, index) => ({ explorer, index, v: value(explorer) }))
    .sort((a, b) => b.v - a.v || a.index - b.index)
    .map((e) => e.explorer);
}

/** Macro value per explorer (in `explorers` order) for one metric, per side. */
function macroValues(explorers: readonly string[], macros: ReadonlyMap<string, OfficialMetrics>, metric: RankingMetric): number[] {
  return explorers.map((e) => macros.get(e)?.[metric] ?? 0);
}

/**
 * The report's JSON-line objects, in this order: one `explorer` line per explorer (macro averages
 * of the 17 metrics over that explorer's rows on each side: `after` drops instances whose core
 * became empty because the caller's scoring skips them), one `instance` line per audited instance
 * and explorer (instances sorted by id), one `ranking` line per {@link RANKING_METRICS} metric
 * (explorers best first; τ-b over the explorers' paired macro values), one `reason` line per
 * removal reason (sorted by reason): `removals` = number of effective removals with that
 * reason, `lines` = Σ of the lines each covers (overlapping removals each count their lines).
 */
export function auditImpact(input: AuditImpactInput): ImpactLine[] {
  const explorers: string[] = [];
  const seen = new Set<string>();
  const before = byExplorer(input.before, explorers, seen);
  const after = byExplorer(input.after, explorers, seen);
  const out: ImpactLine[] = [];

  const beforeMacro = new Map<string, OfficialMetrics>();
  const afterMacro = new Map<string, OfficialMetrics>();
  for (const explorer of explorers) {
    const b = before.get(explorer);
    const a = after.get(explorer);
    beforeMacro.set(explorer, macroOf(b));
    afterMacro.set(explorer, macroOf(a));
    out.push({
      kind: 'explorer',
      explorer,
      instances_before: b?.rows.size ?? 0,
      instances_after: a?.rows.size ?? 0,
      before: beforeMacro.get(explorer)!,
      after: afterMacro.get(explorer)!,
    });
  }

  const audited = [...new Set(input.auditedInstances)].sort(compareStrings);
  for (const instanceId of audited) {
    for (const explorer of explorers) {
      const b = before.get(explorer)?.rows.get(instanceId) ?? null;
      const a = after.get(explorer)?.rows.get(instanceId) ?? null;
      if (b === null && a === null) continue;
      out.push({ kind: 'instance', instance_id: instanceId, explorer, before: b, after: a });
    }
  }

  for (const metric of RANKING_METRICS) {
    out.push({
      kind: 'ranking',
      metric,
      before: rank(explorers, (e) => beforeMacro.get(e)![metric]),
      after: rank(explorers, (e) => afterMacro.get(e)![metric]),
      kendall_tau_b: kendallTauB(macroValues(explorers, beforeMacro, metric), macroValues(explorers, afterMacro, metric)),
    });
  }

  const reasons = new Map<string, { removals: number; lines: number }>();
  for (const { reason, lines } of input.removals) {
    let entry = reasons.get(reason);
    if (entry === undefined) reasons.set(reason, (entry = { removals: 0, lines: 0 }));
    entry.removals += 1;
    entry.lines += lines;
  }
  for (const reason of [...reasons.keys()].sort(compareStrings)) {
    const { removals, lines } = reasons.get(reason)!;
    out.push({ kind: 'reason', reason, removals, lines });
  }
  return out;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Null model: how much do rankings move under random audits of the same size?

/** One audited instance for the null model: its core lines before the audit and the core lines the audit removed. */
export interface NullModelInstance {
  readonly instanceId: string;
  /** Resolved core lines of the ground truth as read. */
  readonly coreLines: LineSet;
  /** Core lines the real audit removed (only their intersection with `coreLines` counts). */
  readonly removedCoreLines: LineSet;
}

export interface NullModelInput {
  /** Number of random audits (N ≥ 1). */
  readonly trials: number;
  readonly seed: number;
  readonly instances: readonly NullModelInstance[];
  /** Rows scored before the audit (the same rows {@link auditImpact} gets). */
  readonly before: readonly ImpactRow[];
  /** Rows scored after the real audit: gives `audit_tau`. */
  readonly after: readonly ImpactRow[];
  /**
   * Scores the whole workspace with these core removals applied (instances not in the map
   * unchanged), skipping instances whose core becomes empty, exactly as the real "after" rows.
   */
  readonly scoreAfter: (removalsByInstance: ReadonlyMap<string, readonly Removal[]>) => readonly ImpactRow[] | Promise<readonly ImpactRow[]>;
  /** Called after each trial with the trials done so far (for a progress display). */
  readonly onTrial?: (done: number, total: number) => void;
}

/**
 * mulberry32: a tiny seeded PRNG with a 32-bit state, uniform in [0, 1). Deterministic for a
 * seed, so a null-model report can be reproduced exactly.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Paths of a line set in a fixed order, so the same seed gives the same audit whatever the map's insertion order. */
function sortedPaths(lines: LineSet): string[] {
  return [...lines.keys()].sort(compareStrings);
}

/**
 * One random audit of an instance: the same number of core lines as the real audit removed, in
 * spans of the same lengths as the real removed runs (maximal runs of consecutive removed core
 * lines), placed uniformly at random without overlap on the instance's core lines taken as one
 * sequence (paths sorted, lines ascending). A span may cross from one core interval (or file)
 * into the next; it then becomes several removals.
 */
export function randomCoreRemovals(instance: NullModelInstance, random: () => number): Removal[] {
  const paths = sortedPaths(instance.coreLines);
  const lengths: number[] = [];
  let total = 0;
  for (const path of paths) {
    const core = instance.coreLines.get(path)!;
    for (const [s, e] of intersect(core, instance.removedCoreLines.get(path) ?? EMPTY_SET)) {
      lengths.push(e - s + 1);
      total += e - s + 1;
    }
  }
  if (lengths.length === 0) return [];
  // Fisher–Yates, so span lengths appear in random order along the sequence.
  for (let i = lengths.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = lengths[i]!;
    lengths[i] = lengths[j]!;
    lengths[j] = t;
  }
  const coreSize = lineSetSize(instance.coreLines);
  const slack = coreSize - total;
  // r gaps drawn from [0, slack] and sorted: span i starts after gap i plus the earlier spans.
  const gaps = lengths.map(() => Math.floor(random() * (slack + 1))).sort((a, b) => a - b);
  const spans: [number, number][] = [];
  let before = 0;
  for (let i = 0; i < lengths.length; i++) {
    const start = gaps[i]! + before;
    spans.push([start, start + lengths[i]! - 1]);
    before += lengths[i]!;
  }
  return spansToRemovals(instance.coreLines, paths, spans);
}

/** Maps 0-based sequence positions over the core lines (paths in `paths` order) back to (path, line) removals. */
function spansToRemovals(core: LineSet, paths: readonly string[], spans: readonly (readonly [number, number])[]): Removal[] {
  const out: Removal[] = [];
  let k = 0;
  let offset = 0;
  for (const path of paths) {
    for (const [s, e] of core.get(path)!) {
      const first = offset;
      const last = offset + (e - s);
      while (k < spans.length && spans[k]![0] <= last) {
        const [from, to] = spans[k]!;
        const a = Math.max(from, first);
        const b = Math.min(to, last);
        if (a <= b) out.push({ layer: 'core', model: null, path, start: s + (a - first), end: s + (b - first) });
        if (to > last) break; // the span continues in the next interval
        k++;
      }
      offset = last + 1;
    }
  }
  return out;
}

/** Linear-interpolation percentile of sorted values (p in [0, 1]). */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function macrosByExplorer(rows: readonly ImpactRow[], explorers: string[], seen: Set<string>): Map<string, OfficialMetrics> {
  const sides = byExplorer(rows, explorers, seen);
  const out = new Map<string, OfficialMetrics>();
  for (const [explorer, side] of sides) out.set(explorer, macroOf(side));
  return out;
}

/**
 * The null model: for each {@link RANKING_METRICS} metric, the 5th percentile, median and 95th
 * percentile of τ-b (explorer macro values before vs after) over `trials` random audits that
 * remove as many core lines from the same instances as the real audit did
 * ({@link randomCoreRemovals}), next to the real audit's τ-b. Trials where τ is undefined
 * (fewer than two explorers) are left out of the percentiles.
 */
export async function nullModelImpact(input: NullModelInput): Promise<NullImpact[]> {
  const explorers: string[] = [];
  const seen = new Set<string>();
  const beforeMacro = macrosByExplorer(input.before, explorers, seen);
  const auditMacro = macrosByExplorer(input.after, explorers, seen);
  const taus = new Map<RankingMetric, number[]>(RANKING_METRICS.map((m) => [m, []]));
  const random = mulberry32(input.seed);
  const instances = [...input.instances].sort((a, b) => compareStrings(a.instanceId, b.instanceId));
  for (let trial = 0; trial < input.trials; trial++) {
    const removals = new Map<string, readonly Removal[]>();
    for (const instance of instances) removals.set(instance.instanceId, randomCoreRemovals(instance, random));
    const trialMacro = macrosByExplorer(await input.scoreAfter(removals), explorers, seen);
    for (const metric of RANKING_METRICS) {
      const tau = kendallTauB(macroValues(explorers, beforeMacro, metric), macroValues(explorers, trialMacro, metric));
      if (tau !== null) taus.get(metric)!.push(tau);
    }
    input.onTrial?.(trial + 1, input.trials);
  }
  return RANKING_METRICS.map((metric) => {
    const sorted = taus.get(metric)!.sort((a, b) => a - b);
    return {
      kind: 'null',
      metric,
      tau_p05: percentile(sorted, 0.05),
      tau_median: percentile(sorted, 0.5),
      tau_p95: percentile(sorted, 0.95),
      audit_tau: kendallTauB(macroValues(explorers, beforeMacro, metric), macroValues(explorers, auditMacro, metric)),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Agreement between auditors

/** One instance as audited by several authors. */
export interface AgreementInput {
  readonly instanceId: string;
  /** Resolved core lines of the ground truth as read. */
  readonly coreLines: LineSet;
  /**
   * Core lines each author removed, for every author who audited the instance (an author who
   * only accepted it maps to an empty set: "nothing to remove" is a judgement too).
   */
  readonly removedByAuthor: ReadonlyMap<string, LineSet>;
}

export interface AuthorAgreement {
  readonly method: 'cohen';
  readonly instance_id: string;
  readonly authors: readonly [string, string];
  /** Core lines judged (the instance's core size). */
  readonly core_lines: number;
  /**
   * Cohen's κ over core lines, each labelled removed or kept by each author:
   * κ = (p_o − p_e) / (1 − p_e), p_o = share of lines both label alike,
   * p_e = r_a·r_b + (1 − r_a)(1 − r_b) with r = share of lines an author removed.
   * `null` when p_e = 1 (both authors label every line the same single way), where κ is undefined.
   */
  readonly kappa: number | null;
  /** Core lines exactly one of the two removed. */
  readonly disputed_lines: number;
  readonly disputed: readonly Region[];
}

/** Agreement of more than {@link MAX_PAIRWISE_AUTHORS} auditors of one instance, as one number. */
export interface FleissAgreement {
  readonly method: 'fleiss';
  readonly instance_id: string;
  /** How many auditors judged the instance. */
  readonly authors: number;
  readonly core_lines: number;
  /**
   * Fleiss' κ over core lines with two categories (removed, kept) and m auditors, n_i of whom
   * removed line i of N: P_i = (n_i(n_i − 1) + (m − n_i)(m − n_i − 1)) / (m(m − 1)),
   * P̄ = mean P_i, p = Σ n_i / (N·m), P̄_e = p² + (1 − p)², κ = (P̄ − P̄_e) / (1 − P̄_e);
   * `null` when P̄_e = 1 (every auditor labels every line the same single way).
   */
  readonly kappa: number | null;
  /** Core lines some auditors removed and others kept. */
  readonly disputed_lines: number;
  readonly disputed: readonly Region[];
}

export type InstanceAgreement = AuthorAgreement | FleissAgreement;

/**
 * Up to this many auditors on one instance, agreement is Cohen's κ for every pair (at most 435
 * pairs); beyond, the pairs would grow quadratically (2,000 auditors: 2 million pairs), so one
 * Fleiss' κ over all of them is reported instead.
 */
export const MAX_PAIRWISE_AUTHORS = 30;

/**
 * Agreement per instance (instances in input order): with 2…{@link MAX_PAIRWISE_AUTHORS}
 * auditors, Cohen's κ for each pair (authors sorted); with more, one Fleiss' κ. Pairs only ever
 * join auditors of the same instance. Linear in the removed intervals of the instance (plus the
 * pairs when they are reported).
 */
export function authorAgreement(inputs: readonly AgreementInput[]): InstanceAgreement[] {
  const out: InstanceAgreement[] = [];
  for (const input of inputs) {
    const paths = sortedPaths(input.coreLines);
    const n = lineSetSize(input.coreLines);
    const authors = [...input.removedByAuthor.keys()].sort(compareStrings);
    if (authors.length < 2) continue;
    // Each author's removals restricted to core, once per author.
    const removed = new Map<string, Map<string, IntervalSet>>();
    const removedCount = new Map<string, number>();
    for (const author of authors) {
      const lines = input.removedByAuthor.get(author)!;
      const inCore = new Map<string, IntervalSet>();
      let count = 0;
      for (const [path, set] of lines) {
        const core = input.coreLines.get(path);
        if (core === undefined) continue;
        const kept = intersect(core, set);
        if (kept.length > 0) inCore.set(path, kept);
        for (const [s, e] of kept) count += e - s + 1;
      }
      removed.set(author, inCore);
      removedCount.set(author, count);
    }
    if (authors.length > MAX_PAIRWISE_AUTHORS) {
      out.push(fleissAgreement(input.instanceId, input.coreLines, paths, n, [...removed.values()]));
      continue;
    }
    for (let i = 0; i < authors.length; i++) {
      for (let j = i + 1; j < authors.length; j++) {
        const a = authors[i]!;
        const b = authors[j]!;
        const ra = removed.get(a)!;
        const rb = removed.get(b)!;
        let both = 0;
        const disputed: Region[] = [];
        let disputedLines = 0;
        for (const path of paths) {
          const sa = ra.get(path) ?? EMPTY_SET;
          const sb = rb.get(path) ?? EMPTY_SET;
          both += intersectionSize(sa, sb);
          for (const [s, e] of subtract(union(sa, sb), intersect(sa, sb))) {
            disputed.push({ path, start: s, end: e });
            disputedLines += e - s + 1;
          }
        }
        out.push({
          method: 'cohen',
          instance_id: input.instanceId,
          authors: [a, b],
          core_lines: n,
          kappa: cohenKappa(n, removedCount.get(a)!, removedCount.get(b)!, both),
          disputed_lines: disputedLines,
          disputed,
        });
      }
    }
  }
  return out;
}

/**
 * Fleiss' κ (see {@link FleissAgreement}) from each auditor's removed core intervals, by one sweep
 * over the interval ends per path: between two ends every line has the same number of removers,
 * so the work is in the intervals, not the lines.
 */
function fleissAgreement(instanceId: string, coreLines: LineSet, paths: readonly string[], n: number, removedByAuthor: readonly ReadonlyMap<string, IntervalSet>[]): FleissAgreement {
  const m = removedByAuthor.length;
  let agreementSum = 0;
  let removedSum = 0;
  const disputed: Region[] = [];
  let disputedLines = 0;
  for (const path of paths) {
    // +1 where an author's removal starts, −1 just past where it ends.
    const deltas = new Map<number, number>();
    for (const sets of removedByAuthor) {
      for (const [s, e] of sets.get(path) ?? EMPTY_SET) {
        deltas.set(s, (deltas.get(s) ?? 0) + 1);
        deltas.set(e + 1, (deltas.get(e + 1) ?? 0) - 1);
      }
    }
    const points = [...deltas.keys()].sort((a, b) => a - b);
    for (const [coreStart, coreEnd] of coreLines.get(path)!) {
      // Removers at `line`: the running sum of the deltas at or before it.
      let k = 0;
      let count = 0;
      let line = coreStart;
      while (k < points.length && points[k]! <= line) count += deltas.get(points[k++]!)!;
      while (line <= coreEnd) {
        const next = k < points.length ? Math.min(points[k]!, coreEnd + 1) : coreEnd + 1;
        const length = next - line;
        agreementSum += (length * (count * (count - 1) + (m - count) * (m - count - 1))) / (m * (m - 1));
        removedSum += length * count;
        if (count > 0 && count < m) {
          const last = disputed[disputed.length - 1];
          if (last !== undefined && last.path === path && last.end === line - 1) disputed[disputed.length - 1] = { path, start: last.start, end: next - 1 };
          else disputed.push({ path, start: line, end: next - 1 });
          disputedLines += length;
        }
        line = next;
        while (k < points.length && points[k]! <= line) count += deltas.get(points[k++]!)!;
      }
    }
  }
  let kappa: number | null = null;
  if (n > 0) {
    const observed = agreementSum / n;
    const p = removedSum / (n * m);
    const expected = p * p + (1 - p) * (1 - p);
    kappa = expected === 1 ? null : (observed - expected) / (1 - expected);
  }
  return { method: 'fleiss', instance_id: instanceId, authors: m, core_lines: n, kappa, disputed_lines: disputedLines, disputed };
}

/** The report's `agreement` (pairs) and `agreement_fleiss` lines, in the order {@link authorAgreement} gives them (key order as in the report). */
export function agreementImpactLines(agreements: readonly InstanceAgreement[]): (AgreementImpact | FleissAgreementImpact)[] {
  return agreements.map((a) =>
    a.method === 'cohen'
      ? {
          kind: 'agreement',
          instance_id: a.instance_id,
          authors: a.authors,
          kappa: a.kappa,
          disputed_lines: a.disputed_lines,
          disputed: a.disputed.map((r) => ({ path: r.path, start: r.start, end: r.end })),
        }
      : {
          kind: 'agreement_fleiss',
          instance_id: a.instance_id,
          authors: a.authors,
          kappa: a.kappa,
          disputed_lines: a.disputed_lines,
          disputed: a.disputed.map((r) => ({ path: r.path, start: r.start, end: r.end })),
        },
  );
}

/** κ from counts: n items, a and b labelled positive by each rater, both by both. */
export function cohenKappa(n: number, a: number, b: number, both: number): number | null {
  if (n === 0) return null;
  const agree = n - a - b + 2 * both;
  const po = agree / n;
  const ra = a / n;
  const rb = b / n;
  const pe = ra * rb + (1 - ra) * (1 - rb);
  return pe === 1 ? null : (po - pe) / (1 - pe);
}
