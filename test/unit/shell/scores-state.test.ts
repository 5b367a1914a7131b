/** The Scores view's state (pure: built from a Store without `vscode`) and its message guards. */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { MISS_CATEGORIES, missAnatomy } from '../../../src/core/missAnatomy';
import { OFFICIAL_METRIC_NAMES, type GroundTruth, type Region } from '../../../src/core';
import type { WorkspaceModel } from '../../../src/data';
import { buildScoresState } from '../../../src/extension/scores/scoresState';
import { ANATOMY_CATEGORIES, ANATOMY_INFO } from '../../../src/shared/anatomy';
import { parseFromScoresWebview, parseToScoresWebview, type ScoresState } from '../../../src/shared/scoresProtocol';
import type { InspectorModel } from '../../../src/extension/model/model';
import { newModel, workspaceModel } from '../support/store-builders';

const groundTruth: GroundTruth = {
  coreFiles: ['a.py', 'b.py'],
  coreRegions: [
    { path: 'a.py', start: 10, end: 19 },
    { path: 'a.py', start: 40, end: 44 },
    { path: 'a.py', start: 60, end: 61 },
    { path: 'a.py', start: 80, end: 80 },
    { path: 'b.py', start: 1, end: 5 },
  ],
  optionalFilesByModel: {},
  optionalRegionsByModel: {},
  mainFiles: ['a.py'],
  modifiedCoreFiles: ['a.py'],
};

/** `rows[explorer][instance]`: an instance left out of an explorer's map has no row there. */
function data(ids: string[], rows: Record<string, Record<string, Region[]>>): WorkspaceModel {
  return workspaceModel(ids, groundTruth, rows);
}

// good: hits a.py 10–19; everything else of a.py is a wrong region; b.py is not predicted.
const good: Region[] = [
  { path: 'a.py', start: 10, end: 19 },
  { path: 'a.py', start: 100, end: 120 },
];
// weak: a path mismatch on b.py, an inverted range over a.py 44–40, and a huge region first.
const weak: Region[] = [
  { path: 'c.py', start: 1, end: 400 },
  { path: './b.py', start: 1, end: 5 },
  { path: 'a.py', start: 44, end: 40 },
  { path: 'a.py', start: 10, end: 19 },
];

function loadedModel(): InspectorModel {
  const model = newModel({ budget: 100, profile: 'official', topK: 5 });
  const { store } = model;
  store.setData(data(['x-1', 'x-2'], { good: { 'x-1': good, 'x-2': good }, weak: { 'x-1': weak, 'x-2': weak }, partial: { 'x-2': good } }));
  const counts = new Map([
    ['a.py', 200],
    ['b.py', 50],
    ['c.py', 400],
  ]);
  store.setLineCounts(
    new Map([
      ['x-1', counts],
      ['x-2', counts],
    ]),
    true,
  );
  store.select({ instanceId: 'x-1', explorer: 'good' });
  return model;
}

function ready(state: ScoresState): ScoresState {
  assert.equal(state.status, 'ready', state.message);
  return state;
}

describe('buildScoresState', () => {
  it("carries the shown explorer's miss anatomy: the six counts in core order, equal to missAnatomy's", () => {
    const model = loadedModel();
    const state = ready(buildScoresState(model));
    const view = model.view!;
    const direct = missAnatomy(view.prepared, 100);
    assert.ok(state.anatomy);
    assert.equal(state.anatomy.coreLines, direct.coreLines);
    assert.equal(state.anatomy.budget, 100);
    assert.deepEqual(
      state.anatomy.categories.map((row) => row.category),
      [...MISS_CATEGORIES],
    );
    for (const row of state.anatomy.categories) assert.equal(row.lines, direct.counts[row.category], row.category);
    assert.equal(
      state.anatomy.categories.reduce((sum, row) => sum + row.lines, 0),
      state.anatomy.coreLines,
    );
    // hit / core lines is Recall@B.
    assert.equal(state.anatomy.categories[0]!.lines / state.anatomy.coreLines, state.recallAtBudget);
    // a.py 40–44, 60–61 and 80 are wrong-region spans, each with the nearest prediction.
    assert.equal(state.anatomy.wrongRegionSpans, 3);
    assert.deepEqual(state.anatomy.wrongRegion, [
      { path: 'a.py', start: 40, end: 44, nearest: { rank: 1, distance: 21, side: 'above' } },
      { path: 'a.py', start: 60, end: 61, nearest: { rank: 2, distance: 39, side: 'below' } },
      { path: 'a.py', start: 80, end: 80, nearest: { rank: 2, distance: 20, side: 'below' } },
    ]);
    assert.equal(state.compare, null);
  });

  it('lists at most three wrong-region spans but counts all of them', () => {
    const model = loadedModel();
    const { store } = model;
    store.select({ explorer: 'weak', budget: 1 });
    const anatomy = ready(buildScoresState(model)).anatomy!;
    const direct = model.view!.anatomy;
    assert.deepEqual(
      anatomy.categories.map((row) => [row.category, row.lines]),
      MISS_CATEGORIES.map((c) => [c, direct.counts[c]]),
    );
    assert.ok(direct.counts.path_mismatch > 0 && direct.counts.inverted > 0 && direct.counts.beyond_budget > 0, JSON.stringify(direct.counts));
    assert.equal(anatomy.wrongRegionSpans, direct.wrongRegion.length);
    assert.ok(anatomy.wrongRegion.length <= 3);
  });

  it("compare mode: A's and B's 17 metrics equal scoreOf, Δ is B − A, and both anatomies are there", () => {
    const model = loadedModel();
    const { store } = model;
    store.select({ compareWith: 'weak' });
    const state = ready(buildScoresState(model));
    const compare = state.compare;
    assert.ok(compare);
    assert.equal(compare.a.explorer, 'good');
    assert.equal(compare.b.explorer, 'weak');
    const a = model.scoreOf('x-1', 'good')!;
    const b = model.scoreOf('x-1', 'weak')!;
    assert.deepEqual(
      compare.metrics.map((m) => m.name),
      [...OFFICIAL_METRIC_NAMES],
    );
    for (const m of compare.metrics) {
      assert.equal(m.a, a[m.name], `A ${m.name}`);
      assert.equal(m.b, b[m.name], `B ${m.name}`);
      assert.equal(m.delta, b[m.name] - a[m.name], `Δ ${m.name}`);
    }
    const view = model.view!;
    assert.equal(compare.a.ndcgAtBudget, view.explanation.ndcg.ndcg);
    assert.equal(compare.b.recallAtBudget, view.compared!.explanation.recallAtBudget);
    for (const category of MISS_CATEGORIES) {
      assert.equal(compare.a.anatomy!.categories.find((r) => r.category === category)!.lines, view.anatomy.counts[category]);
      assert.equal(compare.b.anatomy!.categories.find((r) => r.category === category)!.lines, view.compared!.anatomy.counts[category]);
    }
    store.select({ compareWith: undefined });
    assert.equal(buildScoresState(model).compare, null);
  });

  it('an explorer without a row is missing, not zero: in the explorer list and on either side of compare mode', () => {
    const model = loadedModel();
    const { store } = model;
    const state = ready(buildScoresState(model));
    assert.deepEqual(
      state.comparison.map((c) => [c.explorer, c.values === null]),
      [
        ['good', false],
        ['partial', true],
        ['weak', false],
      ],
    );
    assert.deepEqual(state.comparison.find((c) => c.explorer === 'weak')!.values, model.scoreOf('x-1', 'weak'));

    store.select({ compareWith: 'partial' });
    const asB = ready(buildScoresState(model)).compare!;
    assert.equal(asB.b.hasRow, false);
    assert.equal(asB.b.anatomy, null);
    assert.equal(asB.b.ndcgAtBudget, null);
    assert.ok(asB.metrics.every((m) => m.b === null && m.delta === null && typeof m.a === 'number'));

    store.select({ explorer: 'partial', compareWith: 'good' });
    const asA = ready(buildScoresState(model)).compare!;
    assert.equal(asA.a.hasRow, false);
    assert.ok(asA.metrics.every((m) => m.a === null && m.delta === null && typeof m.b === 'number'));

    // On x-2 every explorer has a row.
    store.select({ instanceId: 'x-2' });
    assert.ok(ready(buildScoresState(model)).comparison.every((c) => c.values !== null));
  });

  it('passes its own guard, also through JSON (as postMessage and setState carry it)', () => {
    const model = loadedModel();
    const { store } = model;
    store.select({ compareWith: 'partial' });
    for (const state of [buildScoresState(model), buildScoresState(newModel({ budget: 100, profile: 'official', topK: 5 }))]) {
      const parsed = parseToScoresWebview(JSON.parse(JSON.stringify({ type: 'state', state })));
      assert.ok(parsed, state.status);
      assert.deepEqual(parsed.state, JSON.parse(JSON.stringify(state)));
    }
  });
});

describe('Scores protocol', () => {
  it("keeps the view's category order equal to the core's, with a glyph and label for each", () => {
    assert.deepEqual([...ANATOMY_CATEGORIES], [...MISS_CATEGORIES]);
    const glyphs = new Set(MISS_CATEGORIES.map((c) => ANATOMY_INFO[c].glyph));
    assert.equal(glyphs.size, MISS_CATEGORIES.length);
    assert.equal(ANATOMY_INFO.wrong_region.label, 'file predicted · wrong lines');
  });

  it('accepts stopComparing and rejects malformed messages', () => {
    assert.deepEqual(parseFromScoresWebview({ type: 'stopComparing' }), { type: 'stopComparing' });
    assert.deepEqual(parseFromScoresWebview({ type: 'stopComparing', extra: 1 }), { type: 'stopComparing' });
    for (const bad of [
      null,
      'stopComparing',
      ['stopComparing'],
      { type: 'stopcomparing' },
      { type: 'StopComparing' },
      { kind: 'stopComparing' },
      { type: 'setBudget', budget: 0 },
      { type: 'setExplorer', explorer: '' },
    ]) {
      assert.equal(parseFromScoresWebview(bad), null, JSON.stringify(bad));
    }
  });

  it('rejects states whose anatomy or compare section is malformed or absent', () => {
    const model = loadedModel();
    const { store } = model;
    store.select({ compareWith: 'weak' });
    const good = JSON.parse(JSON.stringify(buildScoresState(model))) as Record<string, unknown>;
    const anatomy = good['anatomy'] as Record<string, unknown>;
    const compare = good['compare'] as Record<string, unknown>;
    const variants: Record<string, unknown>[] = [
      { ...good, anatomy: undefined },
      { ...good, compare: undefined },
      { ...good, anatomy: 'x' },
      { ...good, anatomy: { ...anatomy, coreLines: '5' } },
      { ...good, anatomy: { ...anatomy, categories: [{ category: 'miss', lines: 1 }] } },
      { ...good, anatomy: { ...anatomy, categories: [{ category: 'hit', lines: null }] } },
      { ...good, anatomy: { ...anatomy, wrongRegion: {} } },
      { ...good, compare: [] },
      { ...good, compare: { ...compare, a: null } },
      { ...good, compare: { ...compare, b: { explorer: 'weak', hasRow: 'yes', anatomy: null } } },
      { ...good, compare: { ...compare, metrics: {} } },
    ];
    assert.ok(parseToScoresWebview({ type: 'state', state: good }));
    for (const state of variants) assert.equal(parseToScoresWebview({ type: 'state', state }), null, JSON.stringify(state).slice(0, 200));
  });
});
