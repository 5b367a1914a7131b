/**
 * Reads snapshot line counts into the store: the open instance's on demand (one read in flight per
 * instance), every other instance's in the background, a batch at a time, scoring each batch's rows
 * before the next so that the benchmark averages later only sum cached values.
 */
import { instanceLineCounts, mapWithConcurrency, referencedPaths, type LineCountCache } from '../../data';
import type { Store } from '../state/store';

/** Instances whose line counts are read per batch in the background (one store update each). */
const BACKGROUND_BATCH = 25;
/** Instances of a batch counted at once (each reads its files with its own bounded concurrency). */
const INSTANCES_IN_PARALLEL = 8;

export class LineCountReader {
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly cache: LineCountCache,
    /** Scores the rows of counted instances (the model's row cache), stopping when `stale()`. */
    private readonly warmRows: (instanceIds: readonly string[], stale: () => boolean) => Promise<void>,
    /** The loader's current load: counts read for an older one are dropped. */
    private readonly generation: () => number,
  ) {}

  /** Forgets the reads in flight (a new load started). */
  reset(): void {
    this.inFlight.clear();
  }

  /** Resolves once the instance's line counts are in the store. */
  ensure(instanceId: string): Promise<void> {
    if (this.store.hasLineCounts(instanceId)) return Promise.resolve();
    let pending = this.inFlight.get(instanceId);
    if (pending === undefined) {
      const counting: Promise<void> = this.count([instanceId], this.generation()).finally(() => {
        // A reload may have replaced this entry meanwhile; only remove our own.
        if (this.inFlight.get(instanceId) === counting) this.inFlight.delete(instanceId);
      });
      pending = counting;
      this.inFlight.set(instanceId, pending);
    }
    return pending;
  }

  /** Counts every instance not counted yet, then says the counting is complete (one event). */
  async countInBackground(generation: number): Promise<void> {
    const current = (): boolean => generation === this.generation();
    const pending = this.store.instanceIds.filter((id) => !this.store.hasLineCounts(id));
    for (let i = 0; i < pending.length && current(); i += BACKGROUND_BATCH) {
      const batch = pending.slice(i, i + BACKGROUND_BATCH);
      // Scores every explorer's rows of the batch in slices before the last batch says "complete",
      // so the benchmark averages drawn then sum cached rows instead of blocking the host.
      await this.count(batch, generation);
      await this.warmRows(batch, () => !current());
    }
    if (current()) this.store.setLineCounts(new Map(), true);
  }

  private async count(instanceIds: readonly string[], generation: number): Promise<void> {
    // Counts belong to the model they were read for: a reload while reading makes them worthless.
    const model = this.store.data;
    const results = new Map<string, ReadonlyMap<string, number>>();
    await mapWithConcurrency(instanceIds, INSTANCES_IN_PARALLEL, async (id) => {
      const entry = model.instances.get(id);
      if (entry === undefined || generation !== this.generation()) return;
      // Problems (missing or escaping files) are reported by the data checks; here a path just gets no count.
      const { counts } = await instanceLineCounts(model, entry, referencedPaths(model, entry), this.cache);
      results.set(id, counts);
    });
    if (generation !== this.generation() || this.store.data !== model) return;
    this.store.setLineCounts(results);
  }
}
