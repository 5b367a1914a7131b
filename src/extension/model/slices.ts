/**
 * Slices: per-instance derived values (provenance, compare reach, missed spans; next trajectory
 * reads, patch reach, an explorer run's seen lines) that the model computes on first read and
 * keeps until a store change makes them stale. A slice says what it depends on beyond the
 * instance's own data, counts and audit through its `key`; a different key recomputes it. Adding a
 * slice is writing one of these and reading it with `model.slice(...)`: nothing in the store or
 * the painters changes.
 */
import type { LineCounts, PreparedGroundTruth } from '../../core';
import type { InstanceEntry } from '../../data';
import type { AuditState } from '../state/auditState';
import type { Store } from '../state/store';
import type { Selection } from '../state/store';
import type { BackgroundReads } from './backgroundReads';
import type { InstanceView } from './instanceView';
import { entryOf } from './rows';

/** What a slice is computed from. */
export interface SliceInput {
  readonly instance: InstanceEntry;
  readonly selection: Selection;
  readonly lineCounts: LineCounts;
  /** The audit as the store holds it (a slice of one instance reads only that instance's part). */
  readonly audit: AuditState;
  /** The instance's effective ground truth (source, audit, profile of the selection), prepared. */
  readonly groundTruth: PreparedGroundTruth;
  /** The key of that ground truth: part of every key that depends on it. */
  readonly groundTruthKey: string;
  /** The bench file the workspace was loaded from (runs are found relative to its folder). */
  readonly benchFile: string | undefined;
  /** The open instance's view when the slice is read for the open instance, else undefined. */
  readonly view: InstanceView | undefined;
  /** Another slice of the same instance (a slice built on another reads it here, cached like any read). */
  readonly slice: <U>(other: InstanceSlice<U>) => U;
  /** The loaded data beyond the instance (the explorers' run folders, the bench file): read-only. */
  readonly store: Pick<Store, 'data' | 'explorerRuns'>;
  /** Reads from disk a slice waits for (see backgroundReads.ts); forgotten when the data is replaced. */
  readonly background: BackgroundReads;
}

export interface InstanceSlice<T> {
  /** Names the slice in change events. */
  readonly id: string;
  /** What the value depends on beyond the instance's data, line counts and audit (which invalidate it anyway). */
  key(input: SliceInput): string;
  /**
   * Computes the value. A slice that reads something slow (a trajectory file) returns what it has
   * and calls `stale()` once more is known: the model drops the value, fires a change, and the next
   * read computes it again.
   */
  compute(input: SliceInput, stale: () => void): T;
}

/** Slice values per instance, invalidated per instance by the model. */
export class SliceCache {
  private readonly values = new Map<string, Map<string, { readonly key: string; readonly value: unknown }>>();

  /**
   * The slice's value for the input's instance, computed when missing or when its key moved on.
   * `onStale` runs when the value's `stale()` is called later (not during its own computation,
   * which only leaves the value uncached) while the value is still the cached one.
   */
  read<T>(slice: InstanceSlice<T>, input: SliceInput, onStale: () => void): T {
    const bySlice = entryOf(this.values, input.instance.instanceId, () => new Map());
    // A value computed without the open instance's view (for another instance) is not the one with it.
    const key = `${input.view === undefined ? '-' : 'view'}|${slice.key(input)}`;
    const cached = bySlice.get(slice.id);
    if (cached !== undefined && cached.key === key) return cached.value as T;
    const state: { computing: boolean; staleEarly: boolean; entry?: { readonly key: string; readonly value: unknown } } = { computing: true, staleEarly: false };
    const stale = (): void => {
      if (state.computing) state.staleEarly = true;
      else if (state.entry !== undefined && this.values.get(input.instance.instanceId) === bySlice && bySlice.get(slice.id) === state.entry) {
        bySlice.delete(slice.id);
        onStale();
      }
    };
    const value = slice.compute(input, stale);
    state.computing = false;
    state.entry = { key, value };
    if (state.staleEarly) bySlice.delete(slice.id);
    else bySlice.set(slice.id, state.entry);
    return value;
  }

  forget(instanceIds: Iterable<string>): void {
    for (const id of instanceIds) this.values.delete(id);
  }

  clear(): void {
    this.values.clear();
  }
}
