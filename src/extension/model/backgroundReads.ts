/**
 * Reads a slice needs from disk (an explorer's run, an instance's repair runs), started on the
 * slice's first read and kept by key until the data is replaced. A slice asks with `get`: the first
 * call starts the read and answers "pending"; when it settles, `onDone` runs (the slice's `stale()`),
 * the model drops the slice's value and fires one change, and the next read finds the value here.
 * Benchmark-wide walks (the leaderboard's explorer-run column) read the same values with `read`
 * and `peek`, so a run read for the leaderboard is not read again for the editor, and back.
 */

/** A read in flight, or its value. */
export type BackgroundValue<T> = { readonly done: false } | { readonly done: true; readonly value: T };

const PENDING: BackgroundValue<never> = { done: false };

interface Entry {
  readonly promise: Promise<unknown>;
  value: BackgroundValue<unknown>;
}

export class BackgroundReads {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by `clear`: a read started before it lands nowhere. */
  private generation = 0;
  private settledValue = 0;

  /** How many reads have settled since the data was loaded: what a sum over read values keys its cache on. */
  get settled(): number {
    return this.settledValue;
  }

  /**
   * The value under `key`: read with `load` on first use. While the read is pending (whoever
   * started it), `onDone` is called once it settles; a read that fails settles to `failed(error)`.
   */
  get<T>(key: string, load: () => Promise<T>, failed: (error: unknown) => T, onDone: () => void): BackgroundValue<T> {
    const known = this.entries.get(key);
    if (known !== undefined && known.value.done) return known.value as BackgroundValue<T>;
    void (known?.promise ?? this.start(key, load, failed)).then(onDone);
    return PENDING;
  }

  /** The value under `key`, read with `load` unless it is read or being read. */
  read<T>(key: string, load: () => Promise<T>, failed: (error: unknown) => T): Promise<T> {
    const known = this.entries.get(key);
    return known !== undefined ? (known.promise as Promise<T>) : this.start(key, load, failed);
  }

  /** The value under `key` when it is read (pending or never asked: not done). */
  peek<T>(key: string): BackgroundValue<T> {
    return (this.entries.get(key)?.value ?? PENDING) as BackgroundValue<T>;
  }

  /** Forgets every value (the data was replaced); reads in flight are dropped when they settle. */
  clear(): void {
    this.generation++;
    this.settledValue = 0;
    this.entries.clear();
  }

  /** Starts a read; the promise resolves once the value is stored (never rejects). */
  private start<T>(key: string, load: () => Promise<T>, failed: (error: unknown) => T): Promise<T> {
    const generation = this.generation;
    const promise = load()
      .catch((error: unknown) => failed(error))
      .then((value) => {
        if (generation === this.generation && this.entries.get(key) === entry) {
          entry.value = { done: true, value };
          this.settledValue++;
        }
        return value;
      });
    const entry: Entry = { promise, value: PENDING };
    this.entries.set(key, entry);
    return promise;
  }
}
