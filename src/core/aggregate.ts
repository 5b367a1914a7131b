import { OFFICIAL_METRIC_NAMES, type OfficialMetrics } from './types';

/**
 * Macro average of per-instance rows: a plain mean per field, summed in row order (as the official
 * runner does); `fields` defaults to the 17 official metrics. An empty list averages to all zeros.
 */
export function macroAverage(rows: readonly OfficialMetrics[]): OfficialMetrics;
export function macroAverage<K extends string>(rows: readonly Readonly<Record<K, number>>[], fields: readonly K[]): Record<K, number>;
export function macroAverage(rows: readonly Readonly<Record<string, number>>[], fields: readonly string[] = OFFICIAL_METRIC_NAMES): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of fields) {
    let sum = 0;
    for (const row of rows) sum += row[name] ?? 0;
    out[name] = rows.length === 0 ? 0 : sum / rows.length;
  }
  return out;
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
