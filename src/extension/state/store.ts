import {
  applyRemovals,
  explainInstance,
  missAnatomy,
  officialMetrics,
  patchBaseLines,
  prepareGroundTruth,
  preparePredictions,
  type GroundTruth,
  type InstanceExplanation,
  type LineSet,
  type MissAnatomy,
  type OfficialMetrics,
  type PreparedGroundTruth,
  type PreparedInstance,
  type Profile,
  type Region,
} from '../../core';
import {
  createYielder,
  EMPTY_WORKSPACE,
  nextTurn,
  forEachScoredRow,
  isScored,
  leaderboardAnatomy,
  leaderboardScores,
  metricFields,
  repoPathOf,
  rowAnatomy,
  summarise,
  toRemoval,
  type AuditFolder,
  type ExplorerSummary,
  type InstanceEntry,
  type Leaderboard,
  type RemoveEvent,
  type RowMissCounts,
  type ScoredRow,
  type WorkspaceModel,
} from '../../data';
import { Emitter } from '../base/emitter';
import { Disposable } from '../base/lifecycle';

export type { InstanceEntry, PredictionEntry, WorkspaceModel } from '../../data';

/** Longest slice of background scoring before the event loop gets a turn. */
const WARM_SLICE_MS = 8;

export interface Selection {
  readonly instanceId: string | undefined;
  readonly explorer: string | undefined;
  readonly budget: number;
  readonly profile: Profile;
  readonly topK: number;
  /** Explorer B of compare mode (A is `explorer`); undefined when not comparing. */
  readonly compareWith: string | undefined;
}

/** One explorer's list on the open instance, scored and explained. */
export interface ExplorerOnInstance {
  readonly explorer: string | undefined;
  /** False when the explorer has no row for the instance: its scores are missing, not zero. */
  readonly hasRow: boolean;
  /** The scored list: the explorer's row sliced to top-k (empty without an explorer or a row). */
  readonly predictions: readonly Region[];
  readonly prepared: PreparedInstance;
  readonly explanation: InstanceExplanation;
  /** Why each core line was or was not reached within the budget. */
  readonly anatomy: MissAnatomy;
}

/** The current instance, scored and explained for the current explorer, budget and profile. */
export interface InstanceView extends ExplorerOnInstance {
  readonly instance: InstanceEntry;
  /** Explorer B of compare mode on the same instance, budget and profile; undefined when not comparing. */
  readonly compared: ExplorerOnInstance | undefined;
  /** Base lines the gold patch edits. */
  readonly patchLines: LineSet;
  /** False while the snapshot's line counts are still being read. */
  readonly lineCountsReady: boolean;
  /** Milliseconds this view took to compute. */
  readonly computeMs: number;
  /** The instance's effective removals (every author's), in audit-log order; empty when unaudited. */
  readonly removals: readonly RemoveEvent[];
  /**
   * Scores on the ground truth as written, before any removal; undefined when no removal applies
   * (then `explanation` is already computed on the original ground truth).
   */
  readonly original: OriginalScores | undefined;
}

/** The open instance's numbers without the audit, for the before → after display. */
export interface OriginalScores {
  readonly metrics: OfficialMetrics;
  readonly ndcgAtBudget: number;
  readonly recallAtBudget: number;
}

/** What the audit folder says, as the store uses it. */
export interface AuditState {
  readonly folder: AuditFolder;
  /** Effective removals per instance, in log order. */
  readonly removalsByInstance: ReadonlyMap<string, readonly RemoveEvent[]>;
  /** Instances with at least one accept event. */
  readonly accepted: ReadonlySet<string>;
  /** Instances where someone restored another author's removal, or an event id names two events. */
  readonly conflicted: ReadonlySet<string>;
  /** Ids of effective removals whose text no longer matches the snapshot. */
  readonly drifted: ReadonlySet<string>;
}

export const EMPTY_AUDIT: AuditState = {
  folder: { events: [], effectiveRemovals: [], accepted: [], conflicts: [], disputedIds: [], problems: [] },
  removalsByInstance: new Map(),
  accepted: new Set(),
  conflicted: new Set(),
  drifted: new Set(),
};

/** Folds an audit folder into the store's shape; `drifted` comes from the caller, who can read files. */
export function toAuditState(folder: AuditFolder, drifted: ReadonlySet<string> = new Set()): AuditState {
  const removalsByInstance = new Map<string, RemoveEvent[]>();
  for (const event of folder.effectiveRemovals) {
    let list = removalsByInstance.get(event.instanceId);
    if (list === undefined) removalsByInstance.set(event.instanceId, (list = []));
    list.push(event);
  }
  const accepted = new Set<string>();
  for (const entry of folder.accepted) accepted.add(entry.instanceId);
  const conflicted = new Set<string>();
  for (const conflict of folder.conflicts) conflicted.add(conflict.target.instanceId);
  for (const disputed of folder.disputedIds) for (const event of disputed.events) if (event.op === 'remove' || event.op === 'accept') conflicted.add(event.instanceId);
  return { folder, removalsByInstance, accepted, conflicted, drifted };
}

/** How far an instance is audited, for the Instances tree and the audited count. */
export type AuditStatus = 'unaudited' | 'accepted' | 'removals' | 'conflict';

/**
 * What changed, so that each view repaints only what depends on it:
 * - `data`: a (re)load started or finished — everything may differ;
 * - `selection`: which parts of the selection changed;
 * - `lineCounts`: counts arrived for these instances; `current` when the open instance is among
 *   them (only then do the editor, the Regions tree and the instance's scores change), `complete`
 *   when no instance is left to count (benchmark-wide averages are final).
 */
export type StoreChange =
  | { readonly kind: 'data' }
  | { readonly kind: 'selection'; readonly changed: ReadonlySet<keyof Selection> }
  | { readonly kind: 'lineCounts'; readonly instanceIds: ReadonlySet<string>; readonly current: boolean; readonly complete: boolean }
  | { readonly kind: 'audit'; readonly current: boolean };

/** True when the change alters the open instance's view (editor layers, Regions tree, Scores, status bar). */
export function changesView(change: StoreChange): boolean {
  return (change.kind !== 'lineCounts' && change.kind !== 'audit') || change.current;
}

/** Macro averages of one explorer over the instances scored so far. */
export interface ExplorerMacro extends ExplorerSummary {
  /** Instances that take part (bench records with a core, and a row of this explorer). */
  readonly expected: number;
}

/**
 * The single state store: loaded data, line counts, the selection. Views subscribe to
 * {@link onDidChange} and read derived state through the memoised getters, so a change is
 * computed once however many views redraw.
 */
export class Store extends Disposable {
  private readonly changed = this.register(new Emitter<StoreChange>());
  readonly onDidChange = this.changed.event;

  private dataValue: WorkspaceModel = EMPTY_WORKSPACE;
  private selectionValue: Selection;
  private loadingValue = false;
  private readonly lineCounts = new Map<string, ReadonlyMap<string, number>>();
  private viewCache: InstanceView | undefined;
  /*
   * Per-instance caches (instance id → …), so a change to some instances drops exactly their
   * entries, and the benchmark-wide walks (17k rows) look rows up without building string keys.
   */
  /** Official metrics per explorer (top-k applied): the rows every average sums. */
  private readonly scoreCache = new Map<string, Map<string, OfficialMetrics>>();
  /** Miss anatomy per budget and explorer, for the leaderboard. */
  private readonly anatomyCache = new Map<string, Map<number, Map<string, RowMissCounts>>>();
  /** Resolved ground truth per profile, shared by every explorer and budget. */
  private readonly groundTruthCache = new Map<string, Map<Profile, PreparedGroundTruth>>();
  private readonly patchLineCache = new Map<string, LineSet>();
  private macroCache: ReadonlyMap<string, ExplorerMacro> | undefined;
  /** The leaderboard's scores, and its anatomy at `anatomy.budget`: a budget change recomputes the anatomy only. */
  private leaderboardCache: { scores?: Leaderboard['scores']; anatomy?: { readonly budget: number; readonly value: Leaderboard['anatomy'] } } | undefined;
  private auditValue: AuditState = EMPTY_AUDIT;

  constructor(initial: Omit<Selection, 'instanceId' | 'explorer' | 'compareWith'>) {
    super();
    this.selectionValue = { ...initial, instanceId: undefined, explorer: undefined, compareWith: undefined };
  }

  get data(): WorkspaceModel {
    return this.dataValue;
  }

  get selection(): Selection {
    return this.selectionValue;
  }

  get loading(): boolean {
    return this.loadingValue;
  }

  /** Explorer labels, sorted (see the workspace model's explorer rule). */
  get explorers(): string[] {
    return [...this.dataValue.explorers.keys()].sort();
  }

  /** Instance ids in bench order. */
  get instanceIds(): string[] {
    return [...this.dataValue.instances.keys()];
  }

  get audit(): AuditState {
    return this.auditValue;
  }

  /** The instance's effective removals (empty when none). */
  removalsOf(instanceId: string): readonly RemoveEvent[] {
    return this.auditValue.removalsByInstance.get(instanceId) ?? [];
  }

  auditStatusOf(instanceId: string): AuditStatus {
    if (this.auditValue.conflicted.has(instanceId)) return 'conflict';
    if (this.auditValue.removalsByInstance.has(instanceId)) return 'removals';
    return this.auditValue.accepted.has(instanceId) ? 'accepted' : 'unaudited';
  }

  /** Audited = accepted or at least one effective removal, over the bench's instances. */
  get auditedCount(): { readonly audited: number; readonly total: number } {
    let audited = 0;
    for (const id of this.dataValue.instances.keys()) if (this.auditValue.accepted.has(id) || this.auditValue.removalsByInstance.has(id)) audited++;
    return { audited, total: this.dataValue.instances.size };
  }

  /**
   * Replaces the audit state. Only instances whose removals changed lose their cached scores, so
   * another window's append to an unrelated instance costs one instance's rescoring.
   */
  setAudit(audit: AuditState): void {
    const before = this.auditValue;
    this.auditValue = audit;
    const changed = new Set<string>();
    for (const id of new Set([...before.removalsByInstance.keys(), ...audit.removalsByInstance.keys()])) {
      if (!sameRemovals(before.removalsByInstance.get(id), audit.removalsByInstance.get(id))) changed.add(id);
    }
    if (changed.size > 0) {
      this.forgetInstances(changed);
      this.macroCache = undefined;
      this.leaderboardCache = undefined;
    }
    const id = this.selectionValue.instanceId;
    // Drift flags and accepts change what the open instance shows (hover, Removals tree), not its numbers.
    const current =
      id !== undefined && (changed.has(id) || before.drifted !== audit.drifted || before.accepted.has(id) !== audit.accepted.has(id) || before.conflicted.has(id) !== audit.conflicted.has(id));
    if (current) this.viewCache = undefined;
    this.changed.fire({ kind: 'audit', current });
  }

  setLoading(loading: boolean): void {
    if (this.loadingValue === loading) return;
    this.loadingValue = loading;
    this.changed.fire({ kind: 'data' });
  }

  /** Replaces the loaded data; keeps the selection where it still makes sense. */
  setData(data: WorkspaceModel): void {
    this.dataValue = data;
    this.loadingValue = false;
    this.invalidate();
    const { instanceId, explorer, compareWith } = this.selectionValue;
    const explorers = this.explorers;
    this.selectionValue = {
      ...this.selectionValue,
      instanceId: instanceId !== undefined && data.instances.has(instanceId) ? instanceId : undefined,
      explorer: explorer !== undefined && explorers.includes(explorer) ? explorer : explorers[0],
      compareWith: compareWith !== undefined && explorers.includes(compareWith) ? compareWith : undefined,
    };
    this.changed.fire({ kind: 'data' });
  }

  select(change: Partial<Selection>): void {
    const next = { ...this.selectionValue, ...change };
    const changed = new Set<keyof Selection>();
    for (const key of Object.keys(next) as (keyof Selection)[]) if (next[key] !== this.selectionValue[key]) changed.add(key);
    if (changed.size === 0) return;
    this.selectionValue = next;
    this.viewCache = undefined;
    if (changed.has('profile') || changed.has('topK')) {
      this.scoreCache.clear();
      this.anatomyCache.clear();
      this.macroCache = undefined;
      this.leaderboardCache = undefined;
    }
    this.changed.fire({ kind: 'selection', changed });
  }

  hasLineCounts(instanceId: string): boolean {
    return this.lineCounts.has(instanceId);
  }

  getLineCounts(instanceId: string): ReadonlyMap<string, number> | undefined {
    return this.lineCounts.get(instanceId);
  }

  /**
   * Stores line counts for several instances at once (one change event). `complete` says that no
   * instance is left to count.
   */
  setLineCounts(counts: ReadonlyMap<string, ReadonlyMap<string, number>>, complete = false): void {
    if (counts.size === 0 && !complete) return;
    for (const [instanceId, map] of counts) this.lineCounts.set(instanceId, map);
    if (counts.size > 0) {
      this.forgetInstances(counts.keys());
      this.macroCache = undefined;
      this.leaderboardCache = undefined;
    }
    const current = this.selectionValue.instanceId !== undefined && counts.has(this.selectionValue.instanceId);
    if (current) this.viewCache = undefined;
    this.changed.fire({ kind: 'lineCounts', instanceIds: new Set(counts.keys()), current, complete });
  }

  /** Forgets line counts (files changed on disk). */
  clearLineCounts(): void {
    this.lineCounts.clear();
    this.invalidate();
  }

  /** Whether the explorer has a row for the instance (without one its scores are missing, not zero). */
  hasRow(instanceId: string, explorer: string | undefined): boolean {
    return explorer !== undefined && this.dataValue.explorers.get(explorer)?.rows.has(instanceId) === true;
  }

  /** The explorer's scored list for an instance: its row sliced to top-k. */
  predictionsFor(instanceId: string, explorer: string | undefined): Region[] {
    if (explorer === undefined) return [];
    const row = this.dataValue.explorers.get(explorer)?.rows.get(instanceId);
    return row === undefined ? [] : row.regions.slice(0, this.selectionValue.topK);
  }

  /** The current instance view, computed once per change. */
  get view(): InstanceView | undefined {
    const { instanceId, explorer, budget, profile } = this.selectionValue;
    if (instanceId === undefined) return undefined;
    const instance = this.dataValue.instances.get(instanceId);
    if (instance === undefined) return undefined;
    if (this.viewCache !== undefined) return this.viewCache;
    const started = performance.now();
    const groundTruth = this.preparedGroundTruth(instance, profile);
    const repoPath = repoPathOf(instance);
    const onInstance = (name: string | undefined): ExplorerOnInstance => {
      const predictions = this.predictionsFor(instanceId, name);
      const prepared = preparePredictions(groundTruth, predictions);
      return { explorer: name, hasRow: this.hasRow(instanceId, name), predictions, prepared, explanation: explainInstance(prepared, budget), anatomy: missAnatomy(prepared, budget, { repoPath }) };
    };
    const main = onInstance(explorer);
    const { compareWith } = this.selectionValue;
    const compared = compareWith !== undefined && this.dataValue.explorers.has(compareWith) ? onInstance(compareWith) : undefined;
    const { predictions } = main;
    const removals = this.removalsOf(instanceId);
    let original: OriginalScores | undefined;
    if (removals.length > 0) {
      const before = explainInstance(preparePredictions(prepareGroundTruth(instance.groundTruth, this.lineCounts.get(instanceId) ?? new Map(), profile), predictions), budget);
      original = { metrics: before.metrics, ndcgAtBudget: before.ndcg.ndcg, recallAtBudget: before.recallAtBudget };
    }
    this.viewCache = {
      ...main,
      instance,
      compared,
      patchLines: this.patchLinesOf(instance),
      lineCountsReady: this.lineCounts.has(instanceId),
      computeMs: performance.now() - started,
      removals,
      original,
    };
    return this.viewCache;
  }

  /**
   * Official metrics of any instance for an explorer; undefined until its line counts are read, and
   * when the explorer has no row for the instance (missing is not zero).
   */
  scoreOf(instanceId: string, explorer: string | undefined): OfficialMetrics | undefined {
    if (explorer === undefined || !this.hasRow(instanceId, explorer)) return undefined;
    const instance = this.dataValue.instances.get(instanceId);
    const counts = this.lineCounts.get(instanceId);
    if (instance === undefined || counts === undefined) return undefined;
    return this.rowScore(instanceId, explorer, this.preparedGroundTruth(instance, this.selectionValue.profile));
  }

  /** A row's metrics on the (audited) prepared ground truth, memoised. */
  private rowScore(instanceId: string, explorer: string, groundTruth: PreparedGroundTruth): OfficialMetrics {
    let byExplorer = this.scoreCache.get(instanceId);
    if (byExplorer === undefined) this.scoreCache.set(instanceId, (byExplorer = new Map()));
    let metrics = byExplorer.get(explorer);
    if (metrics === undefined) {
      metrics = officialMetrics(preparePredictions(groundTruth, this.predictionsFor(instanceId, explorer)));
      byExplorer.set(explorer, metrics);
    }
    return metrics;
  }

  /** A row's miss anatomy at `budget`, memoised (the same numbers `swe-explore misses` prints). */
  private rowAnatomyAt(instanceId: string, explorer: string, groundTruth: PreparedGroundTruth, entry: InstanceEntry, budget: number): RowMissCounts {
    let byBudget = this.anatomyCache.get(instanceId);
    if (byBudget === undefined) this.anatomyCache.set(instanceId, (byBudget = new Map()));
    let byExplorer = byBudget.get(budget);
    if (byExplorer === undefined) byBudget.set(budget, (byExplorer = new Map()));
    let anatomy = byExplorer.get(explorer);
    if (anatomy === undefined) {
      const row = this.dataValue.explorers.get(explorer)?.rows.get(instanceId);
      const full =
        row === undefined ? missAnatomy(preparePredictions(groundTruth, []), budget, { repoPath: repoPathOf(entry) }) : rowAnatomy(groundTruth, row, entry, this.selectionValue.topK, budget);
      // Only the counts are kept: 17k rows' spans would weigh on the heap (and GC) for nothing.
      anatomy = { coreLines: full.coreLines, counts: full.counts };
      byExplorer.set(explorer, anatomy);
    }
    return anatomy;
  }

  /** Drops every cached number of these instances (their counts or removals changed). */
  private forgetInstances(instanceIds: Iterable<string>): void {
    for (const id of instanceIds) {
      this.scoreCache.delete(id);
      this.anatomyCache.delete(id);
      this.groundTruthCache.delete(id);
    }
  }

  /** The rows the benchmark averages take part in: line counts known, audited core not empty. */
  private readonly averagedGroundTruth = (entry: InstanceEntry): PreparedGroundTruth | undefined => {
    if (!this.lineCounts.has(entry.instanceId)) return undefined;
    const prepared = this.preparedGroundTruth(entry, this.selectionValue.profile);
    // An instance whose core the audit emptied drops out, as `swe-explore audit-impact` drops it.
    return prepared.coreRegions.length === 0 ? undefined : prepared;
  };

  /**
   * Scores the rows of these instances ahead of time (and their miss anatomy at `anatomyBudget`),
   * a slice at a time with event-loop turns in between, so that the benchmark-wide averages and the
   * leaderboard later only sum cached values instead of blocking the extension host for a whole
   * benchmark. Stops early when `stale()` says the data moved on.
   */
  async warmRows(instanceIds: Iterable<string>, anatomyBudget: number | undefined, stale: () => boolean): Promise<void> {
    const pause = createYielder(WARM_SLICE_MS);
    for (const instanceId of instanceIds) {
      const entry = this.dataValue.instances.get(instanceId);
      const groundTruth = entry === undefined ? undefined : this.averagedGroundTruth(entry);
      if (entry === undefined || groundTruth === undefined) continue;
      for (const [label, run] of this.dataValue.explorers) {
        if (!run.rows.has(instanceId)) continue;
        this.rowScore(instanceId, label, groundTruth);
        if (anatomyBudget !== undefined) this.rowAnatomyAt(instanceId, label, groundTruth, entry, anatomyBudget);
      }
      const wait = pause();
      if (wait !== undefined) {
        await wait;
        if (stale()) return;
      }
    }
  }

  /**
   * Macro averages per explorer over the instances whose line counts are known, through the same
   * scoring path as `swe-explore score` (top-k, empty-core instances left out), so the sidebar and
   * the CLI agree once every instance is counted (`instances === expected`).
   */
  get macros(): ReadonlyMap<string, ExplorerMacro> {
    if (this.macroCache !== undefined) return this.macroCache;
    const rows: ScoredRow[] = [];
    forEachScoredRow(this.dataValue, false, this.averagedGroundTruth, (label, instanceId, _row, groundTruth) => {
      rows.push({ instanceId, explorer: label, metrics: this.rowScore(instanceId, label, groundTruth) });
    });
    const macros = new Map<string, ExplorerMacro>();
    const summaries = new Map(summarise(rows, metricFields()).map((s) => [s.explorer, s]));
    for (const [label, run] of this.dataValue.explorers) {
      let expected = 0;
      for (const instanceId of run.rows.keys()) {
        const entry = this.dataValue.instances.get(instanceId);
        if (entry !== undefined && isScored(entry)) expected++;
      }
      const summary = summaries.get(label) ?? { explorer: label, macro: Object.fromEntries(metricFields().map((f) => [f, 0])), instances: 0 };
      macros.set(label, { ...summary, expected });
    }
    this.macroCache = macros;
    return macros;
  }

  /**
   * The leaderboard (src/data/workspace/leaderboard.ts) over the same instances as {@link macros}: line counts
   * known, audited ground truth, empty core dropped; its anatomy at `budget` (default: the selection's).
   */
  leaderboard(budget: number = this.selectionValue.budget): Leaderboard {
    const { topK } = this.selectionValue;
    const groundTruthOf = this.averagedGroundTruth;
    const cache = (this.leaderboardCache ??= {});
    // Both walks read the memoised rows (see warmRows): a warmed leaderboard is sums of cached values.
    cache.scores ??= leaderboardScores(this.dataValue, groundTruthOf, { k: topK }, (label, instanceId, _row, groundTruth) => this.rowScore(instanceId, label, groundTruth));
    if (cache.anatomy?.budget !== budget) {
      cache.anatomy = {
        budget,
        value: leaderboardAnatomy(this.dataValue, groundTruthOf, { k: topK, budget }, (label, instanceId, _row, groundTruth, entry) =>
          this.rowAnatomyAt(instanceId, label, groundTruth, entry, budget),
        ),
      };
    }
    return { k: topK, budget, scores: cache.scores, anatomy: cache.anatomy.value };
  }

  /**
   * Fills the leaderboard's caches for `budget` without one long block: the rows a slice at a time
   * (see warmRows), then the scores' walk and the anatomy's walk on separate event-loop turns.
   */
  async prepareLeaderboard(budget: number, stale: () => boolean): Promise<void> {
    await this.warmRows(this.instanceIds, budget, stale);
    if (stale()) return;
    const { topK } = this.selectionValue;
    const cache = (this.leaderboardCache ??= {});
    cache.scores ??= leaderboardScores(this.dataValue, this.averagedGroundTruth, { k: topK }, (label, instanceId, _row, groundTruth) => this.rowScore(instanceId, label, groundTruth));
    await nextTurn();
    if (!stale()) this.leaderboard(budget);
  }

  /** The gold patch's base lines depend on the record only, not on explorer, budget or profile. */
  private patchLinesOf(instance: InstanceEntry): LineSet {
    let lines = this.patchLineCache.get(instance.instanceId);
    if (lines === undefined) {
      lines = patchBaseLines(instance.record.patch ?? '');
      this.patchLineCache.set(instance.instanceId, lines);
    }
    return lines;
  }

  private preparedGroundTruth(instance: InstanceEntry, profile: Profile): PreparedGroundTruth {
    let byProfile = this.groundTruthCache.get(instance.instanceId);
    if (byProfile === undefined) this.groundTruthCache.set(instance.instanceId, (byProfile = new Map()));
    let prepared = byProfile.get(profile);
    if (prepared === undefined) {
      const counts = this.lineCounts.get(instance.instanceId) ?? new Map<string, number>();
      prepared = prepareGroundTruth(this.auditedGroundTruth(instance, counts), counts, profile);
      byProfile.set(profile, prepared);
    }
    return prepared;
  }

  /** The ground truth with the instance's effective removals applied (the same object when none). */
  private auditedGroundTruth(instance: InstanceEntry, counts: ReadonlyMap<string, number>): GroundTruth {
    const removals = this.removalsOf(instance.instanceId);
    return removals.length === 0 ? instance.groundTruth : applyRemovals(instance.groundTruth, removals.map(toRemoval), counts);
  }

  private invalidate(): void {
    this.viewCache = undefined;
    this.scoreCache.clear();
    this.anatomyCache.clear();
    this.groundTruthCache.clear();
    this.patchLineCache.clear();
    this.macroCache = undefined;
    this.leaderboardCache = undefined;
  }
}

function sameRemovals(a: readonly RemoveEvent[] | undefined, b: readonly RemoveEvent[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.id !== b[i]!.id) return false;
  return true;
}
