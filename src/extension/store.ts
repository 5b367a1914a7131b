import {
  explainInstance,
  officialMetrics,
  patchBaseLines,
  prepareGroundTruth,
  preparePredictions,
  type GroundTruth,
  type InstanceExplanation,
  type LineSet,
  type OfficialMetrics,
  type PreparedGroundTruth,
  type PreparedInstance,
  type Profile,
  type Region,
} from '../core';
import type { BenchRecord } from '../data/schemas';
import type { Problem } from '../data/problems';
import { Emitter, type Disposable } from './emitter';

/** One bench record as the inspector holds it. */
export interface InstanceEntry {
  readonly instanceId: string;
  /** `org/repo`, or the id's prefix when the record has no `repo`. */
  readonly repo: string;
  readonly record: BenchRecord;
  readonly groundTruth: GroundTruth;
  /** 1-based line of the record in the bench file. */
  readonly benchLine: number;
  /**
   * Absolute folder of the instance's repo snapshot, or undefined when `repo_dir` is missing on
   * disk or refused (absolute, escaping the repos root): then nothing of it is read or opened.
   */
  readonly snapshotRoot: string | undefined;
}

/** One explorer's prediction row for one instance. */
export interface PredictionEntry {
  readonly regions: readonly Region[];
  readonly file: string;
  readonly line: number;
}

/** Everything read from disk; replaced as a whole on every (re)load. */
export interface WorkspaceData {
  readonly benchFile: string | undefined;
  readonly reposRoot: string | undefined;
  readonly instances: ReadonlyMap<string, InstanceEntry>;
  /** explorer → instance id → row. */
  readonly predictions: ReadonlyMap<string, ReadonlyMap<string, PredictionEntry>>;
  readonly problems: readonly Problem[];
}

export interface Selection {
  readonly instanceId: string | undefined;
  readonly explorer: string | undefined;
  readonly budget: number;
  readonly profile: Profile;
  readonly topK: number;
}

/** The current instance, scored and explained for the current explorer, budget and profile. */
export interface InstanceView {
  readonly instance: InstanceEntry;
  readonly explorer: string | undefined;
  /** The scored list: the explorer's row sliced to top-k (empty without an explorer). */
  readonly predictions: readonly Region[];
  readonly prepared: PreparedInstance;
  readonly explanation: InstanceExplanation;
  /** Base lines the gold patch edits. */
  readonly patchLines: LineSet;
  /** False while the snapshot's line counts are still being read. */
  readonly lineCountsReady: boolean;
  /** Milliseconds this view took to compute. */
  readonly computeMs: number;
}

export type StoreChange = 'data' | 'selection' | 'lineCounts';

const EMPTY_DATA: WorkspaceData = { benchFile: undefined, reposRoot: undefined, instances: new Map(), predictions: new Map(), problems: [] };

/**
 * The single state store: loaded data, line counts, the selection. Views subscribe to
 * {@link onDidChange} and read derived state through the memoised getters, so a change is
 * computed once however many views redraw.
 */
export class Store implements Disposable {
  private readonly changed = new Emitter<StoreChange>();
  readonly onDidChange = this.changed.event;

  private dataValue: WorkspaceData = EMPTY_DATA;
  private selectionValue: Selection;
  private loadingValue = false;
  private readonly lineCounts = new Map<string, ReadonlyMap<string, number>>();
  private viewCache: InstanceView | undefined;
  private readonly scoreCache = new Map<string, OfficialMetrics>();
  /** Resolved ground truth per instance and profile, shared by every explorer and budget. */
  private readonly groundTruthCache = new Map<string, PreparedGroundTruth>();
  private readonly patchLineCache = new Map<string, LineSet>();

  constructor(initial: Omit<Selection, 'instanceId' | 'explorer'>) {
    this.selectionValue = { ...initial, instanceId: undefined, explorer: undefined };
  }

  get data(): WorkspaceData {
    return this.dataValue;
  }

  get selection(): Selection {
    return this.selectionValue;
  }

  get loading(): boolean {
    return this.loadingValue;
  }

  get explorers(): string[] {
    return [...this.dataValue.predictions.keys()].sort();
  }

  /** Instance ids in bench order. */
  get instanceIds(): string[] {
    return [...this.dataValue.instances.keys()];
  }

  setLoading(loading: boolean): void {
    if (this.loadingValue === loading) return;
    this.loadingValue = loading;
    this.changed.fire('data');
  }

  /** Replaces the loaded data; keeps the selection where it still makes sense. */
  setData(data: WorkspaceData): void {
    this.dataValue = data;
    this.loadingValue = false;
    this.invalidate();
    const { instanceId, explorer } = this.selectionValue;
    const explorers = this.explorers;
    this.selectionValue = {
      ...this.selectionValue,
      instanceId: instanceId !== undefined && data.instances.has(instanceId) ? instanceId : undefined,
      explorer: explorer !== undefined && explorers.includes(explorer) ? explorer : explorers[0],
    };
    this.changed.fire('data');
  }

  select(change: Partial<Selection>): void {
    const next = { ...this.selectionValue, ...change };
    const same = (Object.keys(next) as (keyof Selection)[]).every((key) => next[key] === this.selectionValue[key]);
    if (same) return;
    const scoresChange = next.profile !== this.selectionValue.profile || next.topK !== this.selectionValue.topK;
    this.selectionValue = next;
    this.viewCache = undefined;
    if (scoresChange) this.scoreCache.clear();
    this.changed.fire('selection');
  }

  hasLineCounts(instanceId: string): boolean {
    return this.lineCounts.has(instanceId);
  }

  getLineCounts(instanceId: string): ReadonlyMap<string, number> | undefined {
    return this.lineCounts.get(instanceId);
  }

  /** Stores line counts for several instances at once (one change event). */
  setLineCounts(counts: ReadonlyMap<string, ReadonlyMap<string, number>>): void {
    if (counts.size === 0) return;
    for (const [instanceId, map] of counts) {
      this.lineCounts.set(instanceId, map);
      for (const cache of [this.scoreCache, this.groundTruthCache]) {
        for (const key of cache.keys()) if (key.startsWith(`${instanceId}\u0000`)) cache.delete(key);
      }
    }
    if (this.selectionValue.instanceId !== undefined && counts.has(this.selectionValue.instanceId)) this.viewCache = undefined;
    this.changed.fire('lineCounts');
  }

  /** Forgets line counts (files changed on disk). */
  clearLineCounts(): void {
    this.lineCounts.clear();
    this.invalidate();
  }

  /** The explorer's scored list for an instance: its row sliced to top-k. */
  predictionsFor(instanceId: string, explorer: string | undefined): Region[] {
    if (explorer === undefined) return [];
    const row = this.dataValue.predictions.get(explorer)?.get(instanceId);
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
    const predictions = this.predictionsFor(instanceId, explorer);
    const prepared = preparePredictions(this.preparedGroundTruth(instance, profile), predictions);
    const explanation = explainInstance(prepared, budget);
    this.viewCache = {
      instance,
      explorer,
      predictions,
      prepared,
      explanation,
      patchLines: this.patchLinesOf(instance),
      lineCountsReady: this.lineCounts.has(instanceId),
      computeMs: performance.now() - started,
    };
    return this.viewCache;
  }

  /** Official metrics of any instance for an explorer, or undefined until its line counts are read. */
  scoreOf(instanceId: string, explorer: string | undefined): OfficialMetrics | undefined {
    if (explorer === undefined) return undefined;
    const instance = this.dataValue.instances.get(instanceId);
    const counts = this.lineCounts.get(instanceId);
    if (instance === undefined || counts === undefined) return undefined;
    const key = `${instanceId}\u0000${explorer}`;
    let metrics = this.scoreCache.get(key);
    if (metrics === undefined) {
      const prepared = preparePredictions(this.preparedGroundTruth(instance, this.selectionValue.profile), this.predictionsFor(instanceId, explorer));
      metrics = officialMetrics(prepared);
      this.scoreCache.set(key, metrics);
    }
    return metrics;
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
    const key = `${instance.instanceId}\u0000${profile}`;
    let prepared = this.groundTruthCache.get(key);
    if (prepared === undefined) {
      prepared = prepareGroundTruth(instance.groundTruth, this.lineCounts.get(instance.instanceId) ?? new Map(), profile);
      this.groundTruthCache.set(key, prepared);
    }
    return prepared;
  }

  private invalidate(): void {
    this.viewCache = undefined;
    this.scoreCache.clear();
    this.groundTruthCache.clear();
    this.patchLineCache.clear();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
