/**
 * The derived model: every number and every derived fact the painters show, computed from the
 * store on first read and cached until a store event makes it stale. It listens to the store,
 * invalidates exactly what an event touches, and then tells the painters once, with `view` saying
 * whether the open instance's view changed. Painters only read it (src/extension/README.md).
 */
import { patchBaseLines, type LineCounts, type LineSet, type OfficialMetrics, type PreparedGroundTruth, type Region } from '../../core';
import type { Leaderboard } from '../../data';
import { groundTruthCaption } from '../../shared/texts';
import { Emitter } from '../base/emitter';
import { Disposable } from '../base/lifecycle';
import { removalsOf } from '../state/auditState';
import type { Store, StoreChange } from '../state/store';
import { Benchmark, type BenchmarkInputs, type ExplorerMacro } from './benchmark';
import { GroundTruths } from './groundTruth';
import { buildInstanceView, type InstanceView } from './instanceView';
import { entryOf, RowCache } from './rows';
import { SliceCache, type InstanceSlice } from './slices';

/**
 * A store change as the model passes it on, or one of the model's own: a slice of an instance
 * learnt more (`slice`), a ground-truth source was added or replaced (`groundTruths`). `view`:
 * the open instance's view changed, so the editor, the Regions tree, the Scores view and the status
 * bar repaint.
 */
export type ModelChange = (StoreChange | { readonly kind: 'slice'; readonly slice: string; readonly instanceId: string } | { readonly kind: 'groundTruths'; readonly source: string }) & {
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
  private readonly patchLines = new Map<string, LineSet>();
  private viewCache: InstanceView | undefined;

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
      view: isOpen ? this.view : undefined,
      slice: <U>(other: InstanceSlice<U>): U => this.slice(other, instance.instanceId) as U,
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

  /** The leaderboard over the same instances as {@link macros}, its anatomy at `budget` (default: the selection's). */
  leaderboard(budget: number = this.store.selection.budget): Leaderboard {
    return this.benchmark.leaderboard(this.inputs(), budget);
  }

  /** Scores these instances' rows in the background (see Benchmark.warmRows). */
  warmRows(instanceIds: Iterable<string>, anatomyBudget: number | undefined, stale: () => boolean): Promise<void> {
    return this.benchmark.warmRows(() => this.inputs(), instanceIds, anatomyBudget, stale);
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
    this.changed.fire({ kind: 'groundTruths', source, view: this.store.selection.groundTruth === source });
  }

  /** Drops every number of these instances, and the averages that summed them. */
  private forget(instanceIds: ReadonlySet<string>): void {
    if (instanceIds.size === 0) return;
    this.groundTruths.forget(instanceIds);
    this.rows.forget(instanceIds);
    this.slices.forget(instanceIds);
    this.benchmark.clear();
  }

  private forgetAll(): void {
    this.viewCache = undefined;
    this.groundTruths.clear();
    this.rows.clear();
    this.slices.clear();
    this.benchmark.clear();
    this.patchLines.clear();
  }

  private inputs(): BenchmarkInputs {
    const { selection, data } = this.store;
    // Built once per walk, not per row: the walks read 17k rows in one go.
    const variant = this.variant();
    return {
      data,
      topK: selection.topK,
      variant,
      averaged: (entry) => (this.store.hasLineCounts(entry.instanceId) ? withCore(this.groundTruths.effective(entry, selection)) : undefined),
      score: (id, explorer, groundTruth) => this.rows.score(variant, id, explorer, groundTruth, () => this.predictionsFor(id, explorer)),
    };
  }

  /** The key every row cache keys on: the effective ground truth (source, audit, profile) and top-k. */
  private variant(): string {
    return `${this.groundTruths.keyOf(this.store.selection)}|k${this.store.selection.topK}`;
  }

  private rowScore(instanceId: string, explorer: string, groundTruth: PreparedGroundTruth): OfficialMetrics {
    return this.rows.score(this.variant(), instanceId, explorer, groundTruth, () => this.predictionsFor(instanceId, explorer));
  }
}

/** Averages take part only with a core: an instance whose core the audit emptied drops out, as `audit-impact` drops it. */
function withCore(prepared: PreparedGroundTruth): PreparedGroundTruth | undefined {
  return prepared.coreRegions.length === 0 ? undefined : prepared;
}
