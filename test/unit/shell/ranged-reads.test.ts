/** Ranged reads (issue 16): reads narrower than the file, counted apart from whole-file credit. */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { rangedReadLines, rangedReadRuns, type ResolvedReadStep } from '../../../src/extension/model/slices/readSteps';
import { rangedReadsLabel, wholeFileReadsText } from '../../../src/shared/texts';

const step = (traj: string, start: number, end: number, whole = false): ResolvedReadStep => ({ step: { traj_path: traj, step_idx: 1, start, end }, start, end, whole });

describe('rangedReadRuns', () => {
  it('counts only reads narrower than the file, as runs of equal count', () => {
    const steps = [step('a', 1, 100, true), step('b', 1, 100, true), step('a', 10, 20), step('a', 15, 30), step('c', 15, 20)];
    assert.deepEqual(rangedReadRuns(steps), [
      { start: 10, end: 14, reads: 1 },
      { start: 15, end: 20, reads: 3 },
      { start: 21, end: 30, reads: 1 },
    ]);
  });

  it('seven zooms into one span read whole by every run: the span stands out', () => {
    const steps = [...['a', 'b', 'c'].map((t) => step(t, 1, 3000, true)), ...Array.from({ length: 7 }, () => step('a', 1628, 1680))];
    const runs = rangedReadRuns(steps);
    assert.deepEqual(runs, [{ start: 1628, end: 1680, reads: 7 }]);
    assert.deepEqual(rangedReadLines(runs, 2), [[1628, 1680]]);
    assert.deepEqual(rangedReadLines(runs, 1, 1), []);
  });

  it('merges adjacent runs of one level; none without ranged reads', () => {
    const runs = rangedReadRuns([step('a', 1, 5), step('b', 3, 8), step('c', 3, 4)]);
    assert.deepEqual(rangedReadLines(runs, 2), [[3, 5]]);
    assert.deepEqual(rangedReadRuns([step('a', 1, 9, true)]), []);
  });
});

describe('ranged-read sentences', () => {
  it('collapses whole-file reads and labels zoomed runs', () => {
    assert.equal(wholeFileReadsText(3, 12), 'read whole by 3 runs (12 times)');
    assert.equal(wholeFileReadsText(1, 1), 'read whole by 1 run (1 time)');
    assert.equal(rangedReadsLabel(7), '◎ 7 ranged reads');
  });
});
