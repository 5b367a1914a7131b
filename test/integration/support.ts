/** What every integration case file shares: the case shape, the timing sink and waiting helpers. */
import type { InspectorApi } from '../../src/extension/extension';

export interface Case {
  readonly name: string;
  readonly run: (api: InspectorApi) => Promise<void>;
}

/** Figures printed as `[timing] name: ms` after the run. */
export const timings: Record<string, number> = {};

/** Figures in other units (counts, MB), printed as `[figure] name: value` after the run. */
export const figures: Record<string, string> = {};

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function until(condition: () => boolean, what: string, timeoutMs = 20000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Longest gap between 5 ms beats while `work` runs: how long the extension host was blocked. */
export async function longestStallDuring<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let longest = 0;
  let last = performance.now();
  const beat = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs: longest };
  } finally {
    clearInterval(beat);
  }
}
