/**
 * The single state store: what was loaded, what was counted, what the audit says and what the
 * person chose. It holds state only and says exactly what changed; every number derived from it is
 * the model's (src/extension/model/), which listens to these events.
 */
import type { Profile } from '../../core';
import { EMPTY_WORKSPACE, type ExplorerRunIndex, type WorkspaceModel } from '../../data';
import { Emitter } from '../base/emitter';
import { Disposable } from '../base/lifecycle';
import { auditDifference, EMPTY_AUDIT, type AuditState } from './auditState';

export type { InstanceEntry, PredictionEntry, WorkspaceModel } from '../../data';

/** The ground truth the numbers use unless the person picks another (see the model's ground-truth sources). */
export const AS_WRITTEN = 'as-written';

export interface Selection {
  readonly instanceId: string | undefined;
  readonly explorer: string | undefined;
  readonly budget: number;
  readonly profile: Profile;
  readonly topK: number;
  /** Explorer B of compare mode (A is `explorer`); undefined when not comparing. */
  readonly compareWith: string | undefined;
  /** Id of the ground-truth source the numbers start from: {@link AS_WRITTEN}, or one the model was given. */
  readonly groundTruth: string;
  /** Whether the audit's effective removals are applied on top of that ground truth. */
  readonly audited: boolean;
  /** The open instance's trajectory the leave-one-out layer drops; forgotten when another instance opens. */
  readonly leftOutTrajectory: string | undefined;
  /**
   * Where repair runs are found and which reports say they resolved (the trajectory settings), as a
   * canonical JSON string, so that an unchanged setting is an unchanged key.
   */
  readonly trajectorySources: string;
}

/** {@link Selection.trajectorySources} when nothing is set: runs under the bench file's folder, no reports. */
export const NO_TRAJECTORY_SOURCES = JSON.stringify({ roots: [], templates: [], reports: [] });

/**
 * What changed, so that the model invalidates exactly what depends on it:
 * - `data`: a (re)load started or finished — everything may differ;
 * - `selection`: which parts of the selection changed;
 * - `lineCounts`: counts arrived for these instances; `complete` when no instance is left to count;
 * - `audit`: the instances whose effective removals changed (their ground truth, so their
 *   numbers), and those whose accepts, conflicts or drift flags changed (what they show).
 */
export type StoreChange =
  | { readonly kind: 'data' }
  | { readonly kind: 'selection'; readonly changed: ReadonlySet<keyof Selection> }
  | { readonly kind: 'lineCounts'; readonly instanceIds: ReadonlySet<string>; readonly complete: boolean }
  | { readonly kind: 'audit'; readonly instanceIds: ReadonlySet<string>; readonly statusIds: ReadonlySet<string> };

const NO_EXPLORER_RUNS: ReadonlyMap<string, ExplorerRunIndex> = new Map();

/** What a new store starts from: the scoring settings. */
export type InitialSelection = Pick<Selection, 'budget' | 'profile' | 'topK'> & Partial<Pick<Selection, 'trajectorySources'>>;

export class Store extends Disposable {
  private readonly changed = this.register(new Emitter<StoreChange>());
  readonly onDidChange = this.changed.event;

  private dataValue: WorkspaceModel = EMPTY_WORKSPACE;
  private explorerRunsValue: ReadonlyMap<string, ExplorerRunIndex> = NO_EXPLORER_RUNS;
  private selectionValue: Selection;
  private loadingValue = false;
  private readonly lineCounts = new Map<string, ReadonlyMap<string, number>>();
  private auditValue: AuditState = EMPTY_AUDIT;

  constructor(initial: InitialSelection) {
    super();
    this.selectionValue = {
      trajectorySources: NO_TRAJECTORY_SOURCES,
      ...initial,
      instanceId: undefined,
      explorer: undefined,
      compareWith: undefined,
      groundTruth: AS_WRITTEN,
      audited: true,
      leftOutTrajectory: undefined,
    };
  }

  get data(): WorkspaceModel {
    return this.dataValue;
  }

  /** Explorer label → its own runs' folder, indexed (issue 19): loaded with the data, replaced with it. */
  get explorerRuns(): ReadonlyMap<string, ExplorerRunIndex> {
    return this.explorerRunsValue;
  }

  get selection(): Selection {
    return this.selectionValue;
  }

  get loading(): boolean {
    return this.loadingValue;
  }

  get audit(): AuditState {
    return this.auditValue;
  }

  /** Explorer labels, sorted (see the workspace model's explorer rule). */
  get explorers(): string[] {
    return [...this.dataValue.explorers.keys()].sort();
  }

  /** Instance ids in bench order. */
  get instanceIds(): string[] {
    return [...this.dataValue.instances.keys()];
  }

  /** Whether the explorer has a row for the instance (without one its scores are missing, not zero). */
  hasRow(instanceId: string, explorer: string | undefined): boolean {
    return explorer !== undefined && this.dataValue.explorers.get(explorer)?.rows.has(instanceId) === true;
  }

  hasLineCounts(instanceId: string): boolean {
    return this.lineCounts.has(instanceId);
  }

  getLineCounts(instanceId: string): ReadonlyMap<string, number> | undefined {
    return this.lineCounts.get(instanceId);
  }

  setLoading(loading: boolean): void {
    if (this.loadingValue === loading) return;
    this.loadingValue = loading;
    this.changed.fire({ kind: 'data' });
  }

  /**
   * Replaces the loaded data and the explorers' run folders found with it (and forgets the line
   * counts read for the old); keeps the selection where it still makes sense.
   */
  setData(data: WorkspaceModel, explorerRuns: ReadonlyMap<string, ExplorerRunIndex> = NO_EXPLORER_RUNS): void {
    this.dataValue = data;
    this.explorerRunsValue = explorerRuns;
    this.loadingValue = false;
    this.lineCounts.clear();
    const { instanceId, explorer, compareWith } = this.selectionValue;
    const explorers = this.explorers;
    const kept = instanceId !== undefined && data.instances.has(instanceId) ? instanceId : undefined;
    this.selectionValue = {
      ...this.selectionValue,
      instanceId: kept,
      leftOutTrajectory: kept === undefined ? undefined : this.selectionValue.leftOutTrajectory,
      explorer: explorer !== undefined && explorers.includes(explorer) ? explorer : explorers[0],
      compareWith: compareWith !== undefined && explorers.includes(compareWith) ? compareWith : undefined,
    };
    this.changed.fire({ kind: 'data' });
  }

  /** Changes part of the selection; one event names every key that really changed (none: no event). */
  select(change: Partial<Selection>): void {
    const next = { ...this.selectionValue, ...change };
    // A trajectory left out belongs to the instance it was picked on.
    if (next.instanceId !== this.selectionValue.instanceId && !('leftOutTrajectory' in change)) next.leftOutTrajectory = undefined;
    const changed = new Set<keyof Selection>();
    for (const key of Object.keys(next) as (keyof Selection)[]) if (next[key] !== this.selectionValue[key]) changed.add(key);
    if (changed.size === 0) return;
    this.selectionValue = next;
    this.changed.fire({ kind: 'selection', changed });
  }

  /** Stores line counts for several instances at once (one event); `complete` says no instance is left to count. */
  setLineCounts(counts: ReadonlyMap<string, ReadonlyMap<string, number>>, complete = false): void {
    if (counts.size === 0 && !complete) return;
    for (const [instanceId, map] of counts) this.lineCounts.set(instanceId, map);
    this.changed.fire({ kind: 'lineCounts', instanceIds: new Set(counts.keys()), complete });
  }

  /** Replaces the audit state; the event names the instances it changes. */
  setAudit(audit: AuditState): void {
    const { removals, status } = auditDifference(this.auditValue, audit);
    this.auditValue = audit;
    this.changed.fire({ kind: 'audit', instanceIds: removals, statusIds: status });
  }
}
