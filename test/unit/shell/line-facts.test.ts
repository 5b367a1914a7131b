/** What the labels and hovers name about lines (src/extension/model/lineFacts.ts): pure, so tested here. */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { explainInstance, missAnatomy, prepareInstance, type GroundTruth, type Region } from '../../../src/core';
import { missedSpanAt, missedSpansByPath, nearestToLine, predictionsCovering } from '../../../src/extension/model/lineFacts';
import { missedLabel } from '../../../src/shared/texts';

const groundTruth: GroundTruth = {
  coreFiles: ['a.py', 'b.py', 'c.py'],
  coreRegions: [
    { path: 'a.py', start: 10, end: 19 },
    { path: 'a.py', start: 40, end: 44 },
    { path: 'b.py', start: 1, end: 5 },
    { path: 'c.py', start: 1, end: 3 },
    { path: 'd.py', start: 1, end: 2 },
  ],
  optionalFilesByModel: {},
  optionalRegionsByModel: {},
  mainFiles: ['a.py'],
  modifiedCoreFiles: ['a.py'],
};

// #1 spends the whole budget of 30 on a.py 100–129; #2 names b.py as ./b.py; #3 is inverted over
// a.py 44–40; #4 covers a.py 10–19 past the budget; c.py is named (#5) but away from its core.
const predictions: Region[] = [
  { path: 'a.py', start: 100, end: 129 },
  { path: './b.py', start: 1, end: 5 },
  { path: 'a.py', start: 44, end: 40 },
  { path: 'a.py', start: 10, end: 19 },
  { path: 'c.py', start: 50, end: 60 },
];
const counts = new Map([
  ['a.py', 200],
  ['b.py', 50],
  ['c.py', 100],
  ['d.py', 10],
]);

function facts(): ReturnType<typeof missedSpansByPath> {
  const prepared = prepareInstance(groundTruth, predictions, counts, 'official');
  return missedSpansByPath({ explanation: explainInstance(prepared, 30), anatomy: missAnatomy(prepared, 30), prepared, repoPath: undefined });
}

describe('missedSpansByPath', () => {
  it('splits the missed lines of each file by category, in line order, with what each sentence names', () => {
    const spans = facts();
    assert.deepEqual(
      spans.get('a.py')!.map((s) => [s.start, s.end, s.detail]),
      [
        [10, 19, { category: 'beyond_budget', coveringRanks: [4] }],
        [40, 44, { category: 'inverted', ranks: [3] }],
      ],
    );
    assert.deepEqual(
      spans.get('b.py')!.map((s) => s.detail),
      [{ category: 'path_mismatch', predictedAs: { path: './b.py', rank: 2 } }],
    );
    assert.deepEqual(
      spans.get('c.py')!.map((s) => s.detail),
      [{ category: 'wrong_region', nearest: { rank: 5, distance: 47, side: 'below' } }],
    );
    assert.deepEqual(
      spans.get('d.py')!.map((s) => s.detail),
      [{ category: 'file_not_predicted' }],
    );
    assert.equal(missedLabel(spans.get('c.py')![0]!, 30), '◌ missed core · file predicted, wrong lines: 3 lines — nearest prediction #5 starts 47 lines below');
  });

  it('finds the run of a line, and none for a line that is not missed', () => {
    const spans = facts();
    assert.equal(missedSpanAt(spans, 'a.py', 42)?.category, 'inverted');
    assert.equal(missedSpanAt(spans, 'a.py', 30), undefined);
    assert.equal(missedSpanAt(spans, 'z.py', 1), undefined);
  });
});

describe('predictionsCovering', () => {
  it('lists the entries covering a line and whether Recall@B examines it there', () => {
    const prepared = prepareInstance(groundTruth, predictions, counts, 'official');
    assert.deepEqual(predictionsCovering(explainInstance(prepared, 30), 'a.py', 110), [{ rank: 1, inBudget: true, start: 100, end: 129 }]);
    assert.deepEqual(predictionsCovering(explainInstance(prepared, 20), 'a.py', 125), [{ rank: 1, inBudget: false, start: 100, end: 129 }]);
    assert.deepEqual(predictionsCovering(explainInstance(prepared, 30), 'a.py', 12), [{ rank: 4, inBudget: false, start: 10, end: 19 }]);
    assert.deepEqual(predictionsCovering(explainInstance(prepared, 30), 'a.py', 42), [], 'an inverted entry covers nothing');
  });
});

describe('nearestToLine (issue 16: measured from the hovered line)', () => {
  const prepared = prepareInstance(groundTruth, predictions, counts, 'official');
  it('measures from the line, not from the run it lies in', () => {
    // c.py 1–3 is a wrong-region run; #5 (c.py 50–60) starts 49 lines below line 1 and 47 below line 3.
    assert.deepEqual(nearestToLine(prepared, 'c.py', 1), { rank: 5, distance: 49, side: 'below' });
    assert.deepEqual(nearestToLine(prepared, 'c.py', 3), { rank: 5, distance: 47, side: 'below' });
    assert.deepEqual(nearestToLine(prepared, 'c.py', 70), { rank: 5, distance: 10, side: 'above' });
  });
  it('takes swapped ranges and the better rank on a tie; none on another path', () => {
    // a.py: #4 covers 10–19, #3 is swapped over 40–44, #1 is 100–129.
    assert.deepEqual(nearestToLine(prepared, 'a.py', 30), { rank: 3, distance: 10, side: 'below' });
    assert.deepEqual(nearestToLine(prepared, 'a.py', 21), { rank: 4, distance: 2, side: 'above' });
    assert.deepEqual(nearestToLine(prepared, 'a.py', 35), { rank: 3, distance: 5, side: 'below' });
    // A range holding the line is not "near" it: from a.py 15 (inside #4) the nearest other is #3.
    assert.deepEqual(nearestToLine(prepared, 'a.py', 15), { rank: 3, distance: 25, side: 'below' });
    assert.equal(nearestToLine(prepared, 'e.py', 1), null);
  });
});
