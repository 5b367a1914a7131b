import { OFFICIAL_METRIC_NAMES, type OfficialMetrics } from './types';

/**
 * Macro average of per-instance rows: a plain mean per field, summed in row order (as the official
 * runner does); `fields` defaults to the 17 official metrics. An empty list averages to all zeros.
 */
export function macroAverage(rows: readonly OfficialMetrics[]): OfficialMetrics;
export function macroAverage<K extends string>(rows: readonly Readonly<Record<K, number>>[], fields: readonly K[]): Record<K, number>;
export function macroAverage(rows: readonly Readonly<Record<string, number>>[], fields: readonly string[] = OFFICIAL_METRIC_NAMES): Record<string, number> {
  const sums = new MacroSums(fields);
  for (const row of rows) sums.add(row);
  return sums.average();
}

/**
 * {@link macroAverage} built up row by row, for callers that score rows as a stream and keep none
 * of them: adding the same rows in the same order gives the same numbers, bit for bit.
 */
export class MacroSums {
  /** Rows added so far. */
  count = 0;
  private readonly sums: Float64Array;
  private readonly official: boolean;

  constructor(private readonly fields: readonly string[] = OFFICIAL_METRIC_NAMES) {
    this.sums = new Float64Array(fields.length);
    this.official = startsWithOfficialFields(fields);
  }

  add(row: Readonly<Record<string, number>>): void {
    // Each field is summed in row order; the official fields are read by name (see addOfficialFields).
    const { fields, sums } = this;
    let from = 0;
    if (this.official) {
      addOfficialFields(row, sums);
      from = SUMMED_IN_ORDER.length;
    }
    for (let f = from; f < fields.length; f++) sums[f] = sums[f]! + (row[fields[f]!] ?? 0);
    this.count++;
  }

  /** The mean of every field over the rows added; all zeros before the first row. */
  average(): Record<string, number> {
    const out: Record<string, number> = {};
    for (let f = 0; f < this.fields.length; f++) out[this.fields[f]!] = this.count === 0 ? 0 : this.sums[f]! / this.count;
    return out;
  }
}

function startsWithOfficialFields(fields: readonly string[]): boolean {
  if (fields.length < SUMMED_IN_ORDER.length) return false;
  for (let f = 0; f < SUMMED_IN_ORDER.length; f++) if (fields[f] !== SUMMED_IN_ORDER[f]) return false;
  return true;
}

/** The order `addOfficialFields` sums in; the type check fails if OFFICIAL_METRIC_NAMES is reordered. */
const SUMMED_IN_ORDER = [
  'precision',
  'recall',
  'f1_score',
  'hit_file_rate',
  'noise_file_rate',
  'hit_region_rate',
  'noise_region_rate',
  'weighted_core_coverage',
  'context_efficiency',
  'optional_coverage',
  'ndcg_at_100',
  'ndcg_at_300',
  'ndcg_at_500',
  'recall_at_100',
  'recall_at_300',
  'recall_at_500',
  'first_useful_hit',
] as const satisfies typeof OFFICIAL_METRIC_NAMES;

/** The 17 official fields read by name (one property shape, not 17 different keyed look-ups). */
function addOfficialFields(row: Readonly<Record<string, number>>, sums: Float64Array): void {
  sums[0] = sums[0]! + (row.precision ?? 0);
  sums[1] = sums[1]! + (row.recall ?? 0);
  sums[2] = sums[2]! + (row.f1_score ?? 0);
  sums[3] = sums[3]! + (row.hit_file_rate ?? 0);
  sums[4] = sums[4]! + (row.noise_file_rate ?? 0);
  sums[5] = sums[5]! + (row.hit_region_rate ?? 0);
  sums[6] = sums[6]! + (row.noise_region_rate ?? 0);
  sums[7] = sums[7]! + (row.weighted_core_coverage ?? 0);
  sums[8] = sums[8]! + (row.context_efficiency ?? 0);
  sums[9] = sums[9]! + (row.optional_coverage ?? 0);
  sums[10] = sums[10]! + (row.ndcg_at_100 ?? 0);
  sums[11] = sums[11]! + (row.ndcg_at_300 ?? 0);
  sums[12] = sums[12]! + (row.ndcg_at_500 ?? 0);
  sums[13] = sums[13]! + (row.recall_at_100 ?? 0);
  sums[14] = sums[14]! + (row.recall_at_300 ?? 0);
  sums[15] = sums[15]! + (row.recall_at_500 ?? 0);
  sums[16] = sums[16]! + (row.first_useful_hit ?? 0);
}

/**
 * Kendall's τ-b between two scorings of the same items (e.g. explorer macro scores before and
 * after an audit): (concordant − discordant) / √((n₀ − ties₁)(n₀ − ties₂)). 1 for identical
 * orderings; 0 when either side is constant or there are fewer than two items.
 */
export function kendallTau(before: readonly number[], after: readonly number[]): number {
  const n = Math.min(before.length, after.length);
  let concordant = 0;
  let discordant = 0;
  let tiesBefore = 0;
  let tiesAfter = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = Math.sign(before[i]! - before[j]!);
      const b = Math.sign(after[i]! - after[j]!);
      if (a === 0) tiesBefore++;
      if (b === 0) tiesAfter++;
      if (a !== 0 && b !== 0) {
        if (a === b) concordant++;
        else discordant++;
      }
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiesBefore) * (pairs - tiesAfter));
  return denominator === 0 ? 0 : (concordant - discordant) / denominator;
}
