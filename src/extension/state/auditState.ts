/**
 * The audit folder as the store holds it (effective removals per instance, accepts, conflicts,
 * drift), and the questions every view asks of it. Pure (no `vscode`).
 */
import type { AuditFolder, RemoveEvent } from '../../data';

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

export function auditStatusOf(audit: AuditState, instanceId: string): AuditStatus {
  if (audit.conflicted.has(instanceId)) return 'conflict';
  if (audit.removalsByInstance.has(instanceId)) return 'removals';
  return audit.accepted.has(instanceId) ? 'accepted' : 'unaudited';
}

/** Audited = accepted or at least one effective removal, over the given (bench) instances. */
export function auditedCount(audit: AuditState, instanceIds: Iterable<string>): { readonly audited: number; readonly total: number } {
  let audited = 0;
  let total = 0;
  for (const id of instanceIds) {
    total++;
    if (audit.accepted.has(id) || audit.removalsByInstance.has(id)) audited++;
  }
  return { audited, total };
}

/** The instance's effective removals (empty when none). */
export function removalsOf(audit: AuditState, instanceId: string): readonly RemoveEvent[] {
  return audit.removalsByInstance.get(instanceId) ?? [];
}

/**
 * What changed between two audit states: the instances whose effective removals differ (their
 * ground truth, so their numbers), and those whose accepts, conflicts or drift flags differ (what
 * they show, not their numbers).
 */
export function auditDifference(before: AuditState, after: AuditState): { readonly removals: ReadonlySet<string>; readonly status: ReadonlySet<string> } {
  const removals = new Set<string>();
  for (const id of new Set([...before.removalsByInstance.keys(), ...after.removalsByInstance.keys()])) {
    if (!sameRemovals(before.removalsByInstance.get(id), after.removalsByInstance.get(id))) removals.add(id);
  }
  const status = new Set<string>();
  for (const [a, b] of [
    [before.accepted, after.accepted],
    [before.conflicted, after.conflicted],
  ] as const) {
    for (const id of a) if (!b.has(id)) status.add(id);
    for (const id of b) if (!a.has(id)) status.add(id);
  }
  if (before.drifted !== after.drifted) {
    for (const list of [before.removalsByInstance, after.removalsByInstance]) {
      for (const [id, events] of list) if (events.some((e) => before.drifted.has(e.id) !== after.drifted.has(e.id))) status.add(id);
    }
  }
  return { removals, status };
}

function sameRemovals(a: readonly RemoveEvent[] | undefined, b: readonly RemoveEvent[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.id !== b[i]!.id) return false;
  return true;
}
