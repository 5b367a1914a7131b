/** The extension's state store and its derived model, plain TypeScript (no `vscode`) and so testable here. */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { officialMetrics, prepareInstance, type GroundTruth, type Region } from '../../../src/core';
import { Emitter } from '../../../src/extension/base/emitter';
import type { WorkspaceModel } from '../../../src/data';
import type { InspectorModel, ModelChange } from '../../../src/extension/model/model';
import type { StoreChange } from '../../../src/extension/state/store';
import { newModel, workspaceModel } from '../support/store-builders';

const groundTruth: GroundTruth = {
  coreFiles: ['a.py'],
  coreRegions: [{ path: 'a.py', start: 10, end: 19 }],
  optionalFilesByModel: {},
  optionalRegionsByModel: {},
  mainFiles: ['a.py'],
  modifiedCoreFiles: ['a.py'],
};

/** Every explorer of `rows` predicts the same regions for each of the instances `ids`. */
function data(ids: string[], rows: Record<string, Region[]>): WorkspaceModel {
  const byExplorer = Object.fromEntries(Object.entries(rows).map(([explorer, regions]) => [explorer, Object.fromEntries(ids.map((id) => [id, regions]))]));
  return workspaceModel(ids, groundTruth, byExplorer);
}

const wholeOther: Region = { path: 'other.py', start: 1, end: -1 };
const exact: Region = { path: 'a.py', start: 10, end: 19 };

function fresh(): { model: InspectorModel; store: InspectorModel['store'] } {
  const model = newModel();
  return { model, store: model.store };
}

describe('Store', () => {
  it('keeps the selection across a reload when the instance still exists, and picks the first explorer', () => {
    const { store } = fresh();
    store.setData(data(['x-1', 'x-2'], { zeta: [exact], alpha: [wholeOther] }));
    assert.equal(store.selection.explorer, 'alpha');
    store.select({ instanceId: 'x-2', explorer: 'zeta' });
    store.setData(data(['x-2'], { zeta: [exact] }));
    assert.equal(store.selection.instanceId, 'x-2');
    assert.equal(store.selection.explorer, 'zeta');
    store.setData(data(['x-1'], { beta: [exact] }));
    assert.equal(store.selection.instanceId, undefined);
    assert.equal(store.selection.explorer, 'beta');
  });

  it("computes the view with the metric core's numbers, and knows when line counts are pending", () => {
    const { model, store } = fresh();
    store.setData(data(['x-1'], { e: [wholeOther, exact] }));
    store.select({ instanceId: 'x-1', explorer: 'e' });
    assert.equal(model.view!.lineCountsReady, false);
    const counts = new Map([
      ['a.py', 40],
      ['other.py', 1000],
    ]);
    store.setLineCounts(new Map([['x-1', counts]]));
    const view = model.view!;
    assert.equal(view.lineCountsReady, true);
    assert.deepEqual(view.explanation.metrics, officialMetrics(prepareInstance(groundTruth, [wholeOther, exact], counts, 'official')));
    // Official profile: the whole-file prediction on a non-ground-truth file is unresolvable.
    assert.equal(view.explanation.metrics.precision, 1);
  });

  it('fires one change per real selection change and recomputes for the new budget and profile', () => {
    const { model, store } = fresh();
    const events: StoreChange[] = [];
    store.onDidChange((change) => events.push(change));
    store.setData(data(['x-1'], { e: [wholeOther, exact] }));
    store.setLineCounts(
      new Map([
        [
          'x-1',
          new Map([
            ['a.py', 40],
            ['other.py', 1000],
          ]),
        ],
      ]),
    );
    store.select({ instanceId: 'x-1', explorer: 'e' });
    const before = events.length;
    store.select({ instanceId: 'x-1' });
    assert.equal(events.length, before, 'no event for an unchanged selection');
    store.select({ budget: 100 });
    assert.equal(model.view!.explanation.budget, 100);
    assert.equal(model.view!.explanation.metrics.precision, 1);
    store.select({ profile: 'snapshot' });
    assert.equal(model.view!.explanation.metrics.precision, 10 / 1010, 'snapshot profile counts the whole other file');
    assert.equal(model.scoreOf('x-1', 'e')!.precision, 10 / 1010);
  });

  it('scores other instances only once their line counts are known', () => {
    const { model, store } = fresh();
    store.setData(data(['x-1', 'x-2'], { e: [exact] }));
    assert.equal(model.scoreOf('x-2', 'e'), undefined);
    store.setLineCounts(new Map([['x-2', new Map([['a.py', 40]])]]));
    assert.equal(model.scoreOf('x-2', 'e')!.recall, 1);
    assert.equal(model.scoreOf('x-2', 'nobody'), undefined, 'an explorer without a row is missing, not zero');
    assert.equal(store.hasRow('x-2', 'e'), true);
    assert.equal(store.hasRow('x-2', 'nobody'), false);
  });

  it('says what changed: background counts of other instances do not change the open view', () => {
    const { model, store } = fresh();
    const events: ModelChange[] = [];
    model.onDidChange((change) => events.push(change));
    store.setData(data(['x-1', 'x-2', 'x-3'], { e: [exact] }));
    store.select({ instanceId: 'x-1', explorer: 'e' });
    const selection = events.at(-1)!;
    assert.equal(selection.kind, 'selection');
    assert.deepEqual(selection.kind === 'selection' ? [...selection.changed] : [], ['instanceId']);
    store.setLineCounts(new Map([['x-2', new Map([['a.py', 40]])]]));
    const background = events.at(-1)!;
    assert.equal(background.kind, 'lineCounts');
    assert.equal(background.view, false, 'another instance: no repaint');
    store.setLineCounts(new Map([['x-1', new Map([['a.py', 40]])]]));
    assert.equal(events.at(-1)!.view, true, 'the open instance: repaint');
    store.setLineCounts(new Map(), true);
    const last = events.at(-1)!;
    assert.ok(last.kind === 'lineCounts' && last.complete && !last.view);
  });

  it('averages each explorer over the instances counted so far, and says how many are expected', () => {
    const { model, store } = fresh();
    store.setData(data(['x-1', 'x-2'], { e: [exact] }));
    assert.deepEqual([model.macros.get('e')!.instances, model.macros.get('e')!.expected], [0, 2]);
    store.setLineCounts(
      new Map([
        ['x-1', new Map([['a.py', 40]])],
        ['x-2', new Map([['a.py', 40]])],
      ]),
      true,
    );
    const macro = model.macros.get('e')!;
    assert.deepEqual([macro.instances, macro.expected, macro.macro['recall']], [2, 2, 1]);
  });
});

describe('Emitter', () => {
  it('keeps calling listeners after one throws', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    const originalError = console.error;
    console.error = () => undefined;
    try {
      emitter.event(() => {
        throw new Error('broken view');
      });
      emitter.event((n) => seen.push(n));
      emitter.fire(7);
    } finally {
      console.error = originalError;
    }
    assert.deepEqual(seen, [7]);
  });
});
