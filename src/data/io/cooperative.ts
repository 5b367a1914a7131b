/**
 * Yield points for long synchronous loops, so validation running inside the extension host never
 * holds the event loop for long (a 100,000-region row, thousands of records).
 */

/** Resolves on a later turn of the event loop, after pending I/O and timers had their go. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A yield point: `await yielder()` costs a clock read until `sliceMs` has passed since the last
 * yield, then gives the event loop one turn. Returns `undefined` (nothing to await) in between, so
 * hot loops can skip the `await` cheaply: `const pause = yielder(); if (pause) await pause;`.
 */
export function createYielder(sliceMs = 10): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    if (performance.now() - last < sliceMs) return undefined;
    return nextTurn().then(() => {
      last = performance.now();
    });
  };
}
