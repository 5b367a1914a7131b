/**
 * The runner's `token_usage` of a result row (metrics-spec §9; SWE-Explore-Bench's `eval_runner.py`
 * writes its `TokenUsage.to_dict()`: `{input, output, cache_read, cache_write, reasoning, total,
 * separate_reasoning, subagent, subagent_total}`, or `null`). What an explorer spent on an instance is
 * its `total` (input + output + reasoning reported on top of the output; cache reads excluded, as the
 * runner counts it); a row written before `total` existed gives `input + output + separate_reasoning`.
 * Anything else (no field, `null`, no usable number) is no figure, never 0.
 */
import { isRecord } from '../../shared/guards';

/** A count the runner would have written: a finite number ≥ 0. */
function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The tokens an explorer spent on a row's instance, from the row's `token_usage`; undefined when it has none. */
export function rowTokens(row: Readonly<Record<string, unknown>>): number | undefined {
  const usage = row['token_usage'];
  if (!isRecord(usage)) return undefined;
  const total = countOf(usage['total']);
  if (total !== undefined) return total;
  const parts = [usage['input'], usage['output'], usage['separate_reasoning']].map(countOf);
  if (parts.every((p) => p === undefined)) return undefined;
  return parts.reduce<number>((sum, p) => sum + (p ?? 0), 0);
}
