/**
 * The derived model (src/extension/model/): the effective ground truth as one pluggable step,
 * invalidation from the store's narrow events, and slices computed lazily and cached.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { officialMetrics, prepareInstance, type GroundTruth, type Region } from '../../../src/core';
import type { RemoveEvent } from '../../../src/data';
import type { InspectorModel, ModelChange } from '../../../src/extension/model/model';
import type { InstanceSlice } from '../../../src/extension/model/slices';
import { MISSED_SPANS } from '../../../src/extension/model/slices/missedSpans';
import { PROVENANCE } from '../../../src/extension/model/slices/provenance';
import { toAuditState } from '../../../src/extension/state/auditState';
import type { StoreChange } from '../../../src/extension/state/store';
import { newModel, workspaceModel } from '../support/store-builders';

const groundTruth: GroundTruth = {
  coreFiles: ['a.py'],
  coreRegions: [
    { path: 'a.py', start: 10, end: 19 },
    { path: 'a.py', start: 30, end: 39 },
  ],
  optionalFilesByModel: {},
  optionalRegionsByModel: {},
  mainFiles: ['a.py'],
  modifiedCoreFiles: ['a.py'],
};
const predictions: Region[] = [{ path: 'a.py', start: 10, end: 19 }];
const counts = new Map([['a.py', 100]]);

function loaded(): InspectorModel {
  const model = newModel();
  const { store } = model;
  store.setData(workspaceModel(['x-1', 'x-2'], groundTruth, { e: { 'x-1': predictions, 'x-2': predictions } }));
  store.setLineCounts(
    new Map([
      ['x-1', counts],
      ['x-2', counts],
    ]),
    true,
  );
  store.select({ instanceId: 'x-1', explorer: 'e' });
  return model;
}

function removal(instanceId: string, start: number, end: number, id = `r-${instanceId}-${start}`): RemoveEvent {
  return {
    op: 'remove',
    id,
    instanceId,
    layer: 'core',
    model: null,
    path: 'a.py',
    start,
    end,
    reason: 'incidental-read',
    note: null,
    author: 'ana',
    at: '2026-12-01T00:00:00Z',
    textSha: null,
    file: '/audit/ana.jsonl',
    line: 1,
  };
}

function audit(removals: readonly RemoveEvent[], accepted: readonly string[] = []): ReturnType<typeof toAuditState> {
  return toAuditState({
    events: [],
    effectiveRemovals: removals,
    accepted: accepted.map((instanceId) => ({ instanceId, author: 'ana', id: `a-${instanceId}` })),
    conflicts: [],
    disputedIds: [],
    problems: [],
  });
}

describe('the store says which instances an audit change touches', () => {
  it('names the instances whose removals changed, and apart from them those whose accepts changed', () => {
    const model = loaded();
    const events: StoreChange[] = [];
    const changes: ModelChange[] = [];
    model.store.onDidChange((change) => events.push(change));
    model.onDidChange((change) => changes.push(change));
    model.store.setAudit(audit([removal('x-2', 30, 39)]));
    assert.deepEqual(events.at(-1), { kind: 'audit', instanceIds: new Set(['x-2']), statusIds: new Set() });
    assert.equal(changes.at(-1)!.view, false, 'another instance: the open view is unchanged');
    model.store.setAudit(audit([removal('x-2', 30, 39)], ['x-1']));
    assert.deepEqual(events.at(-1), { kind: 'audit', instanceIds: new Set(), statusIds: new Set(['x-1']) });
    assert.equal(changes.at(-1)!.view, true, 'an accept on the open instance changes what it shows');
  });
});

describe('the effective ground truth', () => {
  it('applies the audit on top of the ground truth as written, keeps the before for before → after, and says which it is', () => {
    const model = loaded();
    const asWritten = model.view!;
    assert.equal(asWritten.original, undefined);
    assert.equal(asWritten.groundTruthLabel, 'as written');
    model.store.setAudit(audit([removal('x-1', 30, 39)]));
    const audited = model.view!;
    const removed: GroundTruth = { ...groundTruth, coreRegions: [groundTruth.coreRegions[0]!] };
    assert.deepEqual(audited.explanation.metrics, officialMetrics(prepareInstance(removed, predictions, counts, 'official')));
    assert.deepEqual(audited.original?.metrics, asWritten.explanation.metrics);
    assert.equal(audited.groundTruthLabel, 'audited (1 removal on this instance)');
    assert.equal(model.scoreOf('x-1', 'e')!.recall, 1);
    assert.equal(model.scoreOf('x-2', 'e')!.recall, 0.5, 'another instance keeps its own ground truth');
    // Not applying the audit is a selection like any other: the numbers are as written again.
    model.store.select({ audited: false });
    assert.deepEqual(model.view!.explanation.metrics, asWritten.explanation.metrics);
    assert.equal(model.view!.groundTruthLabel, 'as written (audit not applied: 1 removal on this instance)');
    assert.equal(model.scoreOf('x-1', 'e')!.recall, 0.5);
  });

  it('takes another source (a what-if variant computed elsewhere), with the audit on top, and caches per source', () => {
    const model = loaded();
    const changes: ModelChange[] = [];
    model.onDidChange((change) => changes.push(change));
    const writtenMacros = model.macros;
    // A variant that drops the second core region of every instance.
    const variant = model.groundTruths.register({
      id: 'what-if:first-region',
      label: 'what-if: first region',
      groundTruthOf: (entry) => ({ ...entry.groundTruth, coreRegions: entry.groundTruth.coreRegions.slice(0, 1) }),
    });
    assert.deepEqual(changes.at(-1), { kind: 'groundTruths', source: 'what-if:first-region', view: false }, 'not the selected source: the view is unchanged');
    model.store.select({ groundTruth: 'what-if:first-region' });
    assert.equal(model.scoreOf('x-1', 'e')!.recall, 1);
    assert.equal(model.macros.get('e')!.macro['recall'], 1);
    assert.equal(model.view!.groundTruthLabel, 'what-if: first region');
    assert.equal(model.view!.original?.metrics.recall, 0.5, 'before → after: as written → what-if');
    // Back and forth: each ground truth's averages are kept under its own key, none is computed twice.
    model.store.select({ groundTruth: 'as-written' });
    assert.equal(model.macros, writtenMacros);
    model.store.select({ groundTruth: 'what-if:first-region' });
    model.store.setAudit(audit([removal('x-1', 10, 19)]));
    assert.equal(model.view!.groundTruthLabel, 'what-if: first region + audit (1 removal on this instance)');
    assert.equal(model.view!.prepared.coreRegions.length, 0, 'the audit applies on top of the variant');
    variant.dispose();
    assert.equal(model.view!.groundTruthLabel, 'audited (1 removal on this instance)', 'an unknown source falls back to the ground truth as written');
  });
});

describe('slices', () => {
  it('are computed on first read, kept while their key holds, and dropped by a store event on their instance', () => {
    const model = loaded();
    const provenance = model.slice(PROVENANCE);
    const missed = model.slice(MISSED_SPANS);
    assert.ok(provenance !== undefined && missed !== undefined);
    assert.equal(model.slice(PROVENANCE), provenance, 'cached');
    model.store.select({ budget: 5 });
    assert.equal(model.slice(PROVENANCE), provenance, 'provenance does not depend on the budget');
    assert.notEqual(model.slice(MISSED_SPANS), missed, 'missed spans do');
    model.store.setLineCounts(new Map([['x-2', counts]]));
    assert.equal(model.slice(PROVENANCE), provenance, "another instance's counts leave it alone");
    model.store.setLineCounts(new Map([['x-1', counts]]));
    assert.notEqual(model.slice(PROVENANCE), provenance, "the instance's own counts drop it");
    assert.equal(model.slice(PROVENANCE, 'nobody'), undefined);
  });

  it('a slice that learns more later says so once, and the next read computes it again', () => {
    const model = loaded();
    const changes: ModelChange[] = [];
    model.onDidChange((change) => changes.push(change));
    let computed = 0;
    let later: (() => void) | undefined;
    const slow: InstanceSlice<number> = {
      id: 'slow',
      key: () => '',
      compute: (_input, stale) => {
        later = stale;
        return ++computed;
      },
    };
    assert.equal(model.slice(slow), 1);
    assert.equal(model.slice(slow), 1);
    later!();
    assert.deepEqual(changes, [{ kind: 'slice', slice: 'slow', instanceId: 'x-1', view: true }]);
    assert.equal(model.slice(slow), 2);
    later!();
    later!();
    assert.equal(changes.length, 2, 'a second call for a value already dropped is ignored');
  });
});
