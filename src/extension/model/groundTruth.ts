/**
 * The effective ground truth per instance: the one step every number of the extension goes
 * through. A selection names a source (the bench as written, or a variant computed elsewhere —
 * e.g. a what-if rule set) and whether the audit's removals apply on top; the result is prepared
 * per profile and cached under a key every other cache of the model keys on too, so switching back
 * and forth between ground truths recomputes nothing twice.
 */
import { applyRemovals, prepareGroundTruth, type GroundTruth, type LineCounts, type PreparedGroundTruth, type Profile } from '../../core';
import { toRemoval, type InstanceEntry } from '../../data';
import type { DisposableLike } from '../base/lifecycle';
import { removalsOf, type AuditState } from '../state/auditState';
import { AS_WRITTEN, type Selection } from '../state/store';

/** A ground truth the numbers can start from. */
export interface GroundTruthSource {
  /** What a selection names it by (`Selection.groundTruth`). */
  readonly id: string;
  /** What the Scores caption calls it: "as written", "what-if: as-seen". */
  readonly label: string;
  /** The instance's ground truth under this source; `lineCounts` are the snapshot's. */
  groundTruthOf(entry: InstanceEntry, lineCounts: LineCounts): GroundTruth;
}

export const AS_WRITTEN_SOURCE: GroundTruthSource = { id: AS_WRITTEN, label: 'as written', groundTruthOf: (entry) => entry.groundTruth };

/** The parts of a selection the effective ground truth depends on. */
export type GroundTruthSelection = Pick<Selection, 'groundTruth' | 'audited' | 'profile'>;

/** What the ground truths read: the audit and the line counts (the store satisfies it). */
export interface GroundTruthInputs {
  readonly audit: AuditState;
  getLineCounts(instanceId: string): ReadonlyMap<string, number> | undefined;
}

const NO_COUNTS: LineCounts = new Map();

export class GroundTruths {
  private readonly sources = new Map<string, GroundTruthSource>([[AS_WRITTEN, AS_WRITTEN_SOURCE]]);
  /** instance id → key → prepared ground truth. */
  private readonly prepared = new Map<string, Map<string, PreparedGroundTruth>>();
  /**
   * Keys per selection object (the store replaces it on every change), so a walk over 848 instances
   * builds one; forgotten when the sources change (an unknown id's key depends on them).
   */
  private keys = new WeakMap<GroundTruthSelection, string>();

  constructor(
    private readonly inputs: GroundTruthInputs,
    /** Told when a source is added, replaced or removed: every number computed from it is stale. */
    private readonly onSourceChanged: (id: string) => void = () => undefined,
  ) {}

  /**
   * Makes a source selectable (or replaces the one with its id, e.g. after its variant was
   * rebuilt); the returned disposable removes it again.
   */
  register(source: GroundTruthSource): DisposableLike {
    this.sources.set(source.id, source);
    this.forgetSource(source.id);
    return {
      dispose: () => {
        if (this.sources.get(source.id) !== source) return;
        this.sources.delete(source.id);
        this.forgetSource(source.id);
      },
    };
  }

  /** The start of every key computed from the source `id` (see {@link keyOf}); no other source's key starts so. */
  static keyPrefix(id: string): string {
    return `${JSON.stringify([id]).slice(0, -1)},`;
  }

  /** The source a selection names; an unknown id falls back to the ground truth as written. */
  sourceOf(selection: GroundTruthSelection): GroundTruthSource {
    return this.sources.get(selection.groundTruth) ?? AS_WRITTEN_SOURCE;
  }

  /** The key of the effective ground truth a selection gives (source, audit, profile). */
  keyOf(selection: GroundTruthSelection): string {
    let key = this.keys.get(selection);
    if (key === undefined) this.keys.set(selection, (key = JSON.stringify([this.sourceOf(selection).id, selection.audited, selection.profile])));
    return key;
  }

  /** Whether the instance's effective ground truth under `selection` is not the bench as written. */
  differsFromWritten(entry: InstanceEntry, selection: GroundTruthSelection): boolean {
    return this.sourceOf(selection) !== AS_WRITTEN_SOURCE || (selection.audited && removalsOf(this.inputs.audit, entry.instanceId).length > 0);
  }

  /** The instance's effective ground truth under `selection`, prepared at its profile. */
  effective(entry: InstanceEntry, selection: GroundTruthSelection): PreparedGroundTruth {
    return this.cached(entry, this.keyOf(selection), selection.profile, (counts) => {
      const base = this.sourceOf(selection).groundTruthOf(entry, counts);
      const removals = selection.audited ? removalsOf(this.inputs.audit, entry.instanceId) : [];
      return removals.length === 0 ? base : applyRemovals(base, removals.map(toRemoval), counts);
    });
  }

  /** The bench's ground truth as written, prepared at `profile`: the "before" of every before → after. */
  asWritten(entry: InstanceEntry, profile: Profile): PreparedGroundTruth {
    return this.effective(entry, { groundTruth: AS_WRITTEN, audited: false, profile });
  }

  /** Drops what these instances' ground truths were prepared from (their counts or removals changed). */
  forget(instanceIds: Iterable<string>): void {
    for (const id of instanceIds) this.prepared.delete(id);
  }

  clear(): void {
    this.prepared.clear();
  }

  /** Drops what was prepared from one source (it was replaced or removed), then says so. */
  private forgetSource(id: string): void {
    const prefix = GroundTruths.keyPrefix(id);
    this.keys = new WeakMap();
    for (const byKey of this.prepared.values()) for (const key of [...byKey.keys()]) if (key.startsWith(prefix)) byKey.delete(key);
    this.onSourceChanged(id);
  }

  private cached(entry: InstanceEntry, key: string, profile: Profile, groundTruth: (counts: LineCounts) => GroundTruth): PreparedGroundTruth {
    let byKey = this.prepared.get(entry.instanceId);
    if (byKey === undefined) this.prepared.set(entry.instanceId, (byKey = new Map()));
    let prepared = byKey.get(key);
    if (prepared === undefined) {
      const counts = this.inputs.getLineCounts(entry.instanceId) ?? NO_COUNTS;
      prepared = prepareGroundTruth(groundTruth(counts), counts, profile);
      byKey.set(key, prepared);
    }
    return prepared;
  }
}
