/**
 * The benchmark-wide numbers: every explorer's macro averages and the leaderboard (scores per
 * explorer and repo, miss anatomy at a budget), through the same scoring path as `swe-explore
 * score` / `misses`, summed from the row caches and filled a slice at a time in the background.
 */
import type { OfficialMetrics, PreparedGroundTruth } from '../../core';
import {
  createYielder,
  forEachScoredRow,
  isScored,
  leaderboardAnatomy,
  leaderboardPatchReach,
  leaderboardScores,
  metricFields,
  nextTurn,
  summarise,
  Summariser,
  type ExplorerSummary,
  type InstanceEntry,
  type Leaderboard,
  type LeaderboardPatchReach,
  type ScoredRow,
  type WorkspaceModel,
} from '../../data';
import { entryOf, RowCache } from './rows';

/** Longest slice of background scoring before the event loop gets a turn. */
const WARM_SLICE_MS = 8;

/** Macro averages of one explorer over the instances scored so far. */
export interface ExplorerMacro extends ExplorerSummary {
  /** Instances that take part (bench records with a core, and a row of this explorer). */
  readonly expected: number;
}

/** What the benchmark walks read: the data, the current variant and the rows that take part. */
export interface BenchmarkInputs {
  readonly data: WorkspaceModel;
  readonly topK: number;
  /** The key of the current ground truth, audit, profile and top-k: everything is cached under it. */
  readonly variant: string;
  /** The effective ground truth of an instance that takes part in averages (counts known, core not empty), else undefined. */
  averaged(entry: InstanceEntry): PreparedGroundTruth | undefined;
  /** A row's metrics, memoised in the row cache. */
  score(instanceId: string, explorer: string, groundTruth: PreparedGroundTruth): OfficialMetrics;
}

/** The leaderboard the views show: scores and miss anatomy, and the patch-reach column (same explorers). */
export interface BenchmarkLeaderboard extends Leaderboard {
  /** Undefined until {@link Benchmark.preparePatchReach} has filled it for this budget (the column comes after the table). */
  readonly patchReach: readonly LeaderboardPatchReach[] | undefined;
}

interface LeaderboardCache {
  scores?: BenchmarkLeaderboard['scores'];
  /** The anatomy and the patch reach at one budget: a budget change recomputes these only. */
  anatomy?: { readonly budget: number; readonly value: BenchmarkLeaderboard['anatomy'] };
  patchReach?: { readonly budget: number; readonly value: BenchmarkLeaderboard['patchReach'] };
}

export class Benchmark {
  private readonly macroCache = new Map<string, ReadonlyMap<string, ExplorerMacro>>();
  private readonly leaderboardCache = new Map<string, LeaderboardCache>();
  /** Bumped whenever averages are forgotten: a walk in slices that saw it move started on stale rows. */
  private generation = 0;

  constructor(private readonly rows: RowCache) {}

  /** Forgets every average (a row changed somewhere). */
  clear(): void {
    this.generation++;
    this.macroCache.clear();
    this.leaderboardCache.clear();
  }

  /** Forgets the averages of the variants whose key starts with `prefix` (a ground-truth source changed). */
  forgetVariants(prefix: string): void {
    this.generation++;
    for (const cache of [this.macroCache, this.leaderboardCache]) for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
  }

  /**
   * Macro averages per explorer over the instances whose line counts are known (top-k, empty-core
   * instances left out), so the sidebar and the CLI agree once every instance is counted.
   */
  macros(inputs: BenchmarkInputs): ReadonlyMap<string, ExplorerMacro> {
    return entryOf(this.macroCache, inputs.variant, () => {
      const rows: ScoredRow[] = [];
      forEachScoredRow(
        inputs.data,
        false,
        (entry) => inputs.averaged(entry),
        (label, instanceId, _row, groundTruth) => {
          rows.push({ instanceId, explorer: label, metrics: inputs.score(instanceId, label, groundTruth) });
        },
      );
      return this.macrosOf(inputs, summarise(rows, metricFields()));
    });
  }

  /** Whether the averages of a variant are cached (every row of it was scored since the last change). */
  hasMacros(variant: string): boolean {
    return this.macroCache.has(variant);
  }

  /**
   * Fills {@link macros}' cache for `inputs` a slice at a time (a ground truth about to be chosen),
   * walking the rows in the same order, so choosing it reads the same sums without one long block.
   * Stops when `stale()` says so, or leaves nothing behind when averages were forgotten meanwhile.
   */
  async prepareMacros(inputs: BenchmarkInputs, stale: () => boolean): Promise<void> {
    if (this.macroCache.has(inputs.variant)) return;
    const generation = this.generation;
    const summariser = new Summariser(metricFields());
    const pause = createYielder(WARM_SLICE_MS);
    for (const [label, run] of inputs.data.explorers) {
      for (const instanceId of run.rows.keys()) {
        const entry = inputs.data.instances.get(instanceId);
        const groundTruth = entry === undefined || !isScored(entry) ? undefined : inputs.averaged(entry);
        if (groundTruth !== undefined) summariser.add({ instanceId, explorer: label, metrics: inputs.score(instanceId, label, groundTruth) });
        const wait = pause();
        if (wait !== undefined) {
          await wait;
          if (stale() || generation !== this.generation) return;
        }
      }
    }
    this.macroCache.set(inputs.variant, this.macrosOf(inputs, summariser.summaries()));
  }

  /** Every loaded explorer's summary (zeros without a row) with the instances it is expected over. */
  private macrosOf(inputs: BenchmarkInputs, summaries: readonly ExplorerSummary[]): Map<string, ExplorerMacro> {
    const macros = new Map<string, ExplorerMacro>();
    const byExplorer = new Map(summaries.map((s) => [s.explorer, s]));
    for (const [label, run] of inputs.data.explorers) {
      let expected = 0;
      for (const instanceId of run.rows.keys()) {
        const entry = inputs.data.instances.get(instanceId);
        if (entry !== undefined && isScored(entry)) expected++;
      }
      const summary = byExplorer.get(label) ?? { explorer: label, macro: Object.fromEntries(metricFields().map((f) => [f, 0])), instances: 0 };
      macros.set(label, { ...summary, expected });
    }
    return macros;
  }

  /** The leaderboard over the same instances as {@link macros}, its anatomy and patch reach at `budget`. */
  leaderboard(inputs: BenchmarkInputs, budget: number): BenchmarkLeaderboard {
    const cache = entryOf(this.leaderboardCache, inputs.variant, (): LeaderboardCache => ({}));
    const groundTruthOf = (entry: InstanceEntry): PreparedGroundTruth | undefined => inputs.averaged(entry);
    cache.scores ??= this.scores(inputs);
    if (cache.anatomy?.budget !== budget) {
      const key = RowCache.anatomyKey(inputs.variant, budget);
      const value = leaderboardAnatomy(inputs.data, groundTruthOf, { k: inputs.topK, budget }, (label, _instanceId, row, groundTruth, entry) =>
        this.rows.anatomyAt(key, budget, entry, label, groundTruth, row, inputs.topK),
      );
      cache.anatomy = { budget, value };
    }
    return { k: inputs.topK, budget, scores: cache.scores, anatomy: cache.anatomy.value, patchReach: cache.patchReach?.budget === budget ? cache.patchReach.value : undefined };
  }

  /**
   * Scores these instances' rows ahead of time (and their anatomy at `anatomyBudget`), a slice at a
   * time with event-loop turns between, so that the averages and the leaderboard later only sum
   * cached values instead of blocking the extension host. Stops early when `stale()` says so.
   */
  async warmRows(inputs: () => BenchmarkInputs, instanceIds: Iterable<string>, anatomyBudget: number | undefined, stale: () => boolean): Promise<void> {
    const pause = createYielder(WARM_SLICE_MS);
    // The inputs (and the selection they read) are taken again after every pause: it may have changed.
    let now = inputs();
    let anatomyKey = anatomyBudget === undefined ? '' : RowCache.anatomyKey(now.variant, anatomyBudget);
    for (const instanceId of instanceIds) {
      const entry = now.data.instances.get(instanceId);
      const groundTruth = entry === undefined ? undefined : now.averaged(entry);
      if (entry === undefined || groundTruth === undefined) continue;
      for (const [label, run] of now.data.explorers) {
        const row = run.rows.get(instanceId);
        if (row === undefined) continue;
        now.score(instanceId, label, groundTruth);
        if (anatomyBudget !== undefined) this.rows.anatomyAt(anatomyKey, anatomyBudget, entry, label, groundTruth, row, now.topK);
      }
      const wait = pause();
      if (wait !== undefined) {
        await wait;
        if (stale()) return;
        now = inputs();
        anatomyKey = anatomyBudget === undefined ? '' : RowCache.anatomyKey(now.variant, anatomyBudget);
      }
    }
  }

  /** Fills the leaderboard's caches for `budget` without one long block: the rows in slices, then each walk on its own turn. */
  async prepareLeaderboard(inputs: () => BenchmarkInputs, budget: number, stale: () => boolean): Promise<void> {
    await this.warmRows(inputs, [...inputs().data.instances.keys()], budget, stale);
    if (stale()) return;
    const now = inputs();
    const cache = entryOf(this.leaderboardCache, now.variant, (): LeaderboardCache => ({}));
    cache.scores ??= this.scores(now);
    await nextTurn();
    if (!stale()) this.leaderboard(inputs(), budget);
  }

  /**
   * Fills the patch-reach column for `budget`: each row's reach in slices (a walk per row whose
   * instance has a patch), then the sums. Run after the table is drawn, so the headline numbers never
   * wait for it.
   */
  async preparePatchReach(inputs: () => BenchmarkInputs, budget: number, stale: () => boolean): Promise<void> {
    const pause = createYielder(WARM_SLICE_MS);
    let now = inputs();
    let key = RowCache.anatomyKey(now.variant, budget);
    for (const [instanceId, entry] of now.data.instances) {
      const groundTruth = now.averaged(entry);
      if (groundTruth !== undefined)
        for (const [label, run] of now.data.explorers) {
          const row = run.rows.get(instanceId);
          if (row !== undefined) this.rows.patchReachAt(key, budget, entry, label, groundTruth, row, now.topK);
        }
      const wait = pause();
      if (wait !== undefined) {
        await wait;
        if (stale()) return;
        now = inputs();
        key = RowCache.anatomyKey(now.variant, budget);
      }
    }
    await nextTurn();
    if (stale()) return;
    now = inputs();
    key = RowCache.anatomyKey(now.variant, budget);
    const cache = entryOf(this.leaderboardCache, now.variant, (): LeaderboardCache => ({}));
    const groundTruthOf = (entry: InstanceEntry): PreparedGroundTruth | undefined => now.averaged(entry);
    const value = leaderboardPatchReach(now.data, groundTruthOf, { k: now.topK, budget }, (label, _instanceId, row, groundTruth, entry) =>
      this.rows.patchReachAt(key, budget, entry, label, groundTruth, row, now.topK),
    );
    cache.patchReach = { budget, value };
  }

  private scores(inputs: BenchmarkInputs): BenchmarkLeaderboard['scores'] {
    // The walk reads the memoised rows (see warmRows): a warmed leaderboard is sums of cached values.
    return leaderboardScores(
      inputs.data,
      (entry) => inputs.averaged(entry),
      { k: inputs.topK },
      (label, instanceId, _row, groundTruth) => inputs.score(instanceId, label, groundTruth),
    );
  }
}
