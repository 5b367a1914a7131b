/**
 * Bounded concurrency: the one helper for "do this for every item, at most `limit` at a time".
 * Unbounded `Promise.all(items.map(...))` over thousands of records opens thousands of files at
 * once and exhausts file descriptors; this keeps `limit` in flight and the results in input order.
 */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.max(1, Math.min(limit, items.length)); i++) workers.push(worker());
  await Promise.all(workers);
  return results;
}
