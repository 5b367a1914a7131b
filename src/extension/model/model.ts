/**
 * The derived model: every number and every derived fact the painters show, computed from the
 * store on first read and cached until a store event makes it stale. It listens to the store,
 * invalidates exactly what an event touches, and then tells the painters once, with `view` saying
 * whether the open instance's view changed. Painters only read it (src/extension/README.md).
 */
import { patchBaseLines, seenAnatomy, viewedLineSet, type LineCounts, type LineSet, type OfficialMetrics, type PreparedGroundTruth, type Region } from '../../core';
import { citedRuns, leaderboardExplorerRuns, leaderboardTokens, mapWithConcurrency, rowAnatomy, type LeaderboardExplorerRuns, type LeaderboardTokens, type RowSeenOf } from '../../data';
import { groundTruthCaption } from '../../shared/texts';
import { Emitter } from '../base/emitter';
import { Disposable } from '../base/lifecycle';
import { removalsOf } from '../state/auditState';
import type { Store, StoreChange } from '../state/store';
import { BackgroundReads } from './backgroundReads';
import { Benchmark, type BenchmarkInputs, type BenchmarkLeaderboard, type ExplorerMacro } from './benchmark';
import { AS_WRITTEN_SOURCE, GroundTruths, type GroundTruthSelection } from './groundTruth';
import { buildInstanceView, type InstanceView } from './instanceView';
import { entryOf, RowCache } from './rows';
import { SliceCache, type InstanceSlice } from './slices';
import { explorerRunKey, failedRead, readExplorerRun, type LoadedRun } from './slices/explorerRun';
import { trajectoryRunsLoaded } from './slices/trajectoryRuns';

/** Explorer runs read at once for the leaderboard: reading one file overlaps parsing another. */
const RUNS_IN_PARALLEL = 2;

/** The leaderboard's columns from the explorers' own runs and the rows' token usage (issue 19). */
export interface RunColumns {
  /** Explorers with a run folder, model order. */
  readonly runs: readonly LeaderboardExplorerRuns[];
  /** Every explorer, model order (zero rows when none carries `token_usage`). */
  readonly tokens: readonly LeaderboardTokens[];
  /** Per explorer with runs, its scored rows' runs not read yet (those rows count as without a run until they are). */
  readonly pending: ReadonlyMap<string, number>;
}

/**
 * A store change as the model passes it on, or one of the model's own: a slice of an instance
 * learnt more (`slice`), a ground-truth source was added or replaced (`groundTruths`). `view`:
 * the open instance's view changed, so the editor, the Regions tree, the Scores view and the status
 * bar repaint.
 */
export type ModelChange = (
  | StoreChange
  | { readonly kind: 'slice'; readonly slice: string; readonly instanceId: string }
  | { readonly kind: 'groundTruths'; readonly source: string }
  /** More explorer runs were read for the leaderboard's run columns. */
  | { readonly kind: 'runsRead' }
) & {
  readonly view: boolean;
};

const NO_COUNTS: LineCounts = new Map();

export class InspectorModel extends Disposable {
  private readonly changed = this.register(new Emitter<ModelChange>());
  /** Fires after the model has dropped what a change made stale: listeners read fresh values. */
  readonly onDidChange = this.changed.event;
  /** The effective ground truth per instance, and the sources a selection can name. */
  readonly groundTruths: GroundTruths;
  private readonly rows = new RowCache();
  private readonly benchmark = new Benchmark(this.rows);
  private readonly slices = new SliceCache();
  /** Runs read from disk for slices (an explorer's run, repair runs), kept until the data is replaced. */
  readonly background = new BackgroundReads();
  private readonly patchLines = new Map<string, LineSet>();
  private viewCache: InstanceView | undefined;
  private runColumnsCache: { readonly key: string; readonly value: RunColumns } | undefined;

  constructor(readonly store: Store) {
    super();
    this.groundTruths = new GroundTruths(store, (source) => this.sourceChanged(source));
    this.register(store.onDidChange((change) => this.update(change)));
  }

  /** The open instance, scored and explained for the selection; computed once per change. */
  get view(): InstanceView | undefined {
    const { selection, data, audit } = this.store;
    const instance = selection.instanceId === undefined ? undefined : data.instances.get(selection.instanceId);
    if (instance === undefined) return undefined;
    if (this.viewCache !== undefined) return this.viewCache;
    const removalsHere = removalsOf(audit, instance.instanceId);
    const source = this.groundTruths.sourceOf(selection);
    this.viewCache = buildInstanceView({
      instance,
      selection,
      groundTruth: this.groundTruths.effective(instance, selection),
      asWritten: this.groundTruths.differsFromWritten(instance, selection) ? this.groundTruths.asWritten(instance, selection.profile) : undefined,
      groundTruthLabel: groundTruthCaption(source.label, selection.audited, removalsHere.length),
      lineCountsReady: this.store.hasLineCounts(instance.instanceId),
      removals: selection.audited ? removalsHere : [],
      patchLines: entryOf(this.patchLines, instance.instanceId, () => patchBaseLines(instance.record.patch ?? '')),
      listOf: (explorer) => ({ predictions: this.predictionsFor(instance.instanceId, explorer), hasRow: this.store.hasRow(instance.instanceId, explorer) }),
      hasExplorer: (explorer) => data.explorers.has(explorer),
    });
    return this.viewCache;
  }

  /** A slice of an instance (default: the open one); undefined when there is no such instance. */
  slice<T>(slice: InstanceSlice<T>, instanceId: string | undefined = this.store.selection.instanceId): T | undefined {
    const { selection, data } = this.store;
    const instance = instanceId === undefined ? undefined : data.instances.get(instanceId);
    if (instance === undefined) return undefined;
    const isOpen = instance.instanceId === selection.instanceId;
    const input = {
      instance,
      selection,
      lineCounts: this.store.getLineCounts(instance.instanceId) ?? NO_COUNTS,
      audit: this.store.audit,
      groundTruth: this.groundTruths.effective(instance, selection),
      groundTruthKey: this.groundTruths.keyOf(selection),
      benchFile: data.benchFile,
      view: isOpen ? this.view : undefined,
      slice: <U>(other: InstanceSlice<U>): U => this.slice(other, instance.instanceId) as U,
      store: this.store,
      background: this.background,
    };
    return this.slices.read(slice, input, () => this.changed.fire({ kind: 'slice', slice: slice.id, instanceId: instance.instanceId, view: instance.instanceId === this.store.selection.instanceId }));
  }

  /** The explorer's scored list for an instance: its row cut to top-k. */
  predictionsFor(instanceId: string, explorer: string | undefined): Region[] {
    const row = explorer === undefined ? undefined : this.store.data.explorers.get(explorer)?.rows.get(instanceId);
    return row === undefined ? [] : row.regions.slice(0, this.store.selection.topK);
  }

  /** Official metrics of any instance for an explorer; undefined until its line counts are read, and without a row (missing is not zero). */
  scoreOf(instanceId: string, explorer: string | undefined): OfficialMetrics | undefined {
    const entry = this.store.data.instances.get(instanceId);
    if (explorer === undefined || entry === undefined || !this.store.hasRow(instanceId, explorer) || !this.store.hasLineCounts(instanceId)) return undefined;
    return this.rowScore(instanceId, explorer, this.groundTruths.effective(entry, this.store.selection));
  }

  /** Every explorer's macro averages over the instances counted so far (`instances === expected` once all are). */
  get macros(): ReadonlyMap<string, ExplorerMacro> {
    return this.benchmark.macros(this.inputs());
  }

  /** Every explorer's macro averages on the bench as written (no audit), over the same instances rule: the "before" of a what-if's rankings. */
  get macrosAsWritten(): ReadonlyMap<string, ExplorerMacro> {
    return this.benchmark.macros(this.inputs({ groundTruth: AS_WRITTEN_SOURCE.id, audited: false, profile: this.store.selection.profile }));
  }

  /** The leaderboard over the same instances as {@link macros}, its anatomy at `budget` (default: the selection's). */
  leaderboard(budget: number = this.store.selection.budget): BenchmarkLeaderboard {
    return this.benchmark.leaderboard(this.inputs(), budget);
  }

  /**
   * The leaderboard's run columns at `budget`: per explorer with runs, the seen anatomy of its rows
   * summed over the runs read so far (`misses --explorer-trajs`' totals once all are), the runs'
   * lengths, and every explorer's token spend. Cached until a run is read or a number moves.
   */
  runColumns(budget: number = this.store.selection.budget): RunColumns {
    const inputs = this.inputs();
    const key = `${inputs.variant}|B${budget}|${this.background.settled}`;
    if (this.runColumnsCache?.key === key) return this.runColumnsCache.value;
    const { topK } = inputs;
    const pending = new Map<string, number>();
    const seenOf: RowSeenOf = (label, instanceId, row, groundTruth, entry) => {
      const run = this.store.explorerRuns.get(label)?.runs;
      if (run === undefined) return undefined;
      const file = run.get(instanceId);
      if (file === undefined) return null;
      const read = this.background.peek<LoadedRun>(explorerRunKey(instanceId, file, this.store.getLineCounts(instanceId)?.size ?? 0));
      if (!read.done) {
        pending.set(label, (pending.get(label) ?? 0) + 1);
        return null;
      }
      if (!('run' in read.value)) return null;
      const { run: view } = read.value;
      return { anatomy: seenAnatomy(rowAnatomy(groundTruth, row, entry, topK, budget), viewedLineSet(view.viewed)), trajectory: file.path, length: view.length };
    };
    const groundTruthOf = (entry: Parameters<BenchmarkInputs['averaged']>[0]): PreparedGroundTruth | undefined => inputs.averaged(entry);
    const runs = this.store.explorerRuns.size === 0 ? [] : leaderboardExplorerRuns(inputs.data, groundTruthOf, { k: topK, budget }, seenOf);
    const anatomyKey = RowCache.anatomyKey(inputs.variant, budget);
    const tokens = leaderboardTokens(inputs.data, groundTruthOf, { k: topK, budget }, (label, _id, row, groundTruth, entry) =>
      this.rows.anatomyAt(anatomyKey, budget, entry, label, groundTruth, row, topK),
    );
    const value = { runs, tokens, pending };
    this.runColumnsCache = { key, value };
    return value;
  }

  /**
   * `seen_missed` of a row (the query column): the missed core lines at the selection's budget that
   * the explorer's own run viewed; undefined without a run, before it is read, or before the line
   * counts (missing, not zero: the term then matches nothing).
   */
  seenMissedOf(instanceId: string, explorer: string): number | undefined {
    const { store } = this;
    const file = store.explorerRuns.get(explorer)?.runs.get(instanceId);
    const entry = store.data.instances.get(instanceId);
    const row = store.data.explorers.get(explorer)?.rows.get(instanceId);
    const counts = store.getLineCounts(instanceId);
    if (file === undefined || entry === undefined || row === undefined || counts === undefined) return undefined;
    const read = this.background.peek<LoadedRun>(explorerRunKey(instanceId, file, counts.size));
    if (!read.done || !('run' in read.value)) return undefined;
    const { budget, topK } = store.selection;
    return seenAnatomy(rowAnatomy(this.groundTruths.effective(entry, store.selection), row, entry, topK, budget), viewedLineSet(read.value.run.viewed)).seenMissed;
  }

  /**
   * Reads the explorers' runs of every scored row whose instance is counted, a few at a time, into
   * the reads the editor shares (a run read here is not read again when its instance opens); fires
   * `runsRead` as they land. Stops when `stale()` says so.
   */
  async readExplorerRuns(stale: () => boolean): Promise<void> {
    const { store } = this;
    const jobs: { instanceId: string; file: Parameters<typeof explorerRunKey>[1] }[] = [];
    for (const [label, folder] of store.explorerRuns) {
      const rows = store.data.explorers.get(label)?.rows;
      if (rows === undefined) continue;
      for (const [instanceId, file] of folder.runs) if (rows.has(instanceId) && store.hasLineCounts(instanceId)) jobs.push({ instanceId, file });
    }
    await mapWithConcurrency(jobs, RUNS_IN_PARALLEL, async ({ instanceId, file }) => {
      const entry = store.data.instances.get(instanceId);
      if (stale() || entry === undefined) return;
      const key = explorerRunKey(instanceId, file, store.getLineCounts(instanceId)?.size ?? 0);
      if (this.background.peek(key).done) return;
      await this.background.read(key, () => readExplorerRun(entry, this.groundTruths.effective(entry, store.selection), file), failedRead);
      if (!stale()) this.changed.fire({ kind: 'runsRead', view: false });
    });
  }

  /**
   * Reads what the open instance's views will ask for from disk — the explorers' runs on it and the
   * repair runs it cites — into the reads the slices share, so that opening it paints once with
   * them instead of again when they land. The caller bounds the wait (a long run keeps loading).
   */
  async prefetchRuns(instanceId: string, explorers: readonly (string | undefined)[]): Promise<void> {
    const { store } = this;
    const entry = store.data.instances.get(instanceId);
    if (entry === undefined) return;
    const counts = store.getLineCounts(instanceId) ?? new Map<string, number>();
    const reads: Promise<unknown>[] = [];
    for (const explorer of explorers) {
      const file = explorer === undefined ? undefined : store.explorerRuns.get(explorer)?.runs.get(instanceId);
      if (file === undefined) continue;
      const groundTruth = this.groundTruths.effective(entry, store.selection);
      reads.push(this.background.read(explorerRunKey(instanceId, file, counts.size), () => readExplorerRun(entry, groundTruth, file), failedRead));
    }
    // The repair runs matter only where an explorer's run is shown (the Scores view asks for them then):
    // the runs the Trajectory view loads too (REPAIR_RUNS indexes them), found with the selection's sources.
    if (reads.length > 0 && citedRuns(entry.record.read_step_info).length > 0) reads.push(trajectoryRunsLoaded(entry, store.data.benchFile, store.selection.trajectorySources));
    await Promise.all(reads);
  }

  /** Scores these instances' rows in the background (see Benchmark.warmRows). */
  warmRows(instanceIds: Iterable<string>, anatomyBudget: number | undefined, stale: () => boolean): Promise<void> {
    return this.benchmark.warmRows(() => this.inputs(), instanceIds, anatomyBudget, stale);
  }

  /**
   * Scores these instances' rows under another ground truth than the selected one, then their macro
   * averages, in slices, before it is chosen (a what-if just computed): choosing it then reads
   * caches instead of blocking.
   */
  async warmRowsUnder(groundTruth: GroundTruthSelection, instanceIds: Iterable<string>, stale: () => boolean): Promise<void> {
    await this.benchmark.warmRows(() => this.inputs(groundTruth), instanceIds, undefined, stale);
    if (!stale()) await this.benchmark.prepareMacros(this.inputs(groundTruth), stale);
  }

  /** Whether every row and the averages under a ground truth are cached: choosing it reads caches only. */
  isPreparedUnder(groundTruth: GroundTruthSelection): boolean {
    return this.benchmark.hasMacros(this.variant(groundTruth));
  }

  /** Fills the leaderboard's patch-reach column for `budget` in slices (see Benchmark.preparePatchReach). */
  preparePatchReach(budget: number, stale: () => boolean): Promise<void> {
    return this.benchmark.preparePatchReach(() => this.inputs(), budget, stale);
  }

  /** Fills the leaderboard's caches for `budget` in slices (see Benchmark.prepareLeaderboard). */
  prepareLeaderboard(budget: number, stale: () => boolean): Promise<void> {
    return this.benchmark.prepareLeaderboard(() => this.inputs(), budget, stale);
  }

  private update(change: StoreChange): void {
    const open = this.store.selection.instanceId;
    let view = true;
    switch (change.kind) {
      case 'data':
        this.forgetAll();
        break;
      case 'selection':
        // Every cache keys on the parts of the selection it depends on: only the view is rebuilt.
        break;
      case 'lineCounts':
        this.forget(change.instanceIds);
        view = open !== undefined && change.instanceIds.has(open);
        break;
      case 'audit':
        this.forget(change.instanceIds);
        // Accepts, conflicts and drift move no number, but slices that show them (agreement) are stale.
        this.slices.forget(change.statusIds);
        view = open !== undefined && (change.instanceIds.has(open) || change.statusIds.has(open));
        break;
    }
    if (view) this.viewCache = undefined;
    this.changed.fire({ ...change, view });
  }

  /** A ground-truth source was added, replaced or removed: only what was computed from it is dropped. */
  private sourceChanged(source: string): void {
    const prefix = GroundTruths.keyPrefix(source);
    this.rows.forgetVariants(prefix);
    this.benchmark.forgetVariants(prefix);
    this.slices.clear();
    this.viewCache = undefined;
    this.runColumnsCache = undefined;
    this.changed.fire({ kind: 'groundTruths', source, view: this.store.selection.groundTruth === source });
  }

  /** Drops every number of these instances, and the averages that summed them. */
  private forget(instanceIds: ReadonlySet<string>): void {
    if (instanceIds.size === 0) return;
    this.runColumnsCache = undefined;
    this.groundTruths.forget(instanceIds);
    this.rows.forget(instanceIds);
    this.slices.forget(instanceIds);
    this.benchmark.clear();
  }

  private forgetAll(): void {
    this.viewCache = undefined;
    this.runColumnsCache = undefined;
    this.background.clear();
    this.groundTruths.clear();
    this.rows.clear();
    this.slices.clear();
    this.benchmark.clear();
    this.patchLines.clear();
  }

  private inputs(selection: GroundTruthSelection = this.store.selection): BenchmarkInputs {
    const { data } = this.store;
    const { topK } = this.store.selection;
    // Built once per walk, not per row: the walks read 17k rows in one go.
    const variant = this.variant(selection);
    return {
      data,
      topK,
      variant,
      averaged: (entry) => (this.store.hasLineCounts(entry.instanceId) ? withCore(this.groundTruths.effective(entry, selection)) : undefined),
      score: (id, explorer, groundTruth) => this.rows.score(variant, id, explorer, groundTruth, () => this.predictionsFor(id, explorer)),
    };
  }

  /** The key every row cache keys on: the effective ground truth (source, audit, profile) and top-k. */
  private variant(selection: GroundTruthSelection = this.store.selection): string {
    return `${this.groundTruths.keyOf(selection)}|k${this.store.selection.topK}`;
  }

  private rowScore(instanceId: string, explorer: string, groundTruth: PreparedGroundTruth): OfficialMetrics {
    return this.rows.score(this.variant(), instanceId, explorer, groundTruth, () => this.predictionsFor(instanceId, explorer));
  }
}

/** Averages take part only with a core: an instance whose core the audit emptied drops out, as `audit-impact` drops it. */
function withCore(prepared: PreparedGroundTruth): PreparedGroundTruth | undefined {
  return prepared.coreRegions.length === 0 ? undefined : prepared;
}
