/** Builders for the extension's Store tests: a workspace model made in memory, with no files behind it. */
import type { GroundTruth, Region } from '../../../src/core';
import { EMPTY_WORKSPACE, type ExplorerRun, type WorkspaceModel } from '../../../src/data';
import type { BenchRecord } from '../../../src/data/formats/schemas';
import { InspectorModel } from '../../../src/extension/model/model';
import { Store, type InitialSelection, type InstanceEntry } from '../../../src/extension/state/store';

/** An instance of repo `org/repo` with the given ground truth; its bench record is a stub. */
export function instanceEntry(instanceId: string, groundTruth: GroundTruth): InstanceEntry {
  const record = { instance_id: instanceId, ground_truth: {} } as unknown as BenchRecord;
  return { instanceId, repo: 'org/repo', record, groundTruth, benchLine: 1, raw: '{}', snapshotRoot: `/snapshots/${instanceId}`, snapshotFailure: undefined };
}

/**
 * A workspace of the instances `ids`, all with `groundTruth`, and one explorer per key of `rows`:
 * `rows[explorer][instance]` are its predicted regions; an instance left out of an explorer's map has no row there.
 */
export function workspaceModel(ids: readonly string[], groundTruth: GroundTruth, rows: Readonly<Record<string, Readonly<Record<string, readonly Region[]>>>>): WorkspaceModel {
  const explorers = new Map<string, ExplorerRun>();
  for (const [explorer, byId] of Object.entries(rows)) {
    const file = `${explorer}.jsonl`;
    explorers.set(explorer, { label: explorer, name: explorer, file, rows: new Map(Object.entries(byId).map(([id, regions]) => [id, { regions, file, line: 1 }])) });
  }
  return { ...EMPTY_WORKSPACE, benchFile: '/bench.jsonl', reposRoot: '/', instances: new Map(ids.map((id) => [id, instanceEntry(id, groundTruth)])), explorers };
}

/** A store and the model derived from it (`model.store`), as the extension makes them. */
export function newModel(initial: InitialSelection = { budget: 500, profile: 'official', topK: 5 }): InspectorModel {
  return new InspectorModel(new Store(initial));
}
