/**
 * The sentences about an explorer's own run and the repair runs' way to a line (src/shared/texts.ts,
 * issue 19), on the data `lineViewing` and `lineArrivals` give.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { VIEWED_TO_END } from '../../../src/core';
import { lineArrivalsText, lineViewingText, runArrivalText, viewedRangesText } from '../../../src/shared/texts';

describe('what the explorer run viewed of a missed line', () => {
  it('words the three cases as the issue does', () => {
    assert.equal(
      lineViewingText({ kind: 'seen', step: 14, idiom: 'sed_range', command: "sed -n '120,180p' astropy/modeling/separable.py" }),
      "seen at step 14 (`sed -n '120,180p' astropy/modeling/separable.py`), not reported",
    );
    assert.equal(lineViewingText({ kind: 'never-opened', written: false }), 'never viewed (the run never opened this file)');
    assert.equal(lineViewingText({ kind: 'never-opened', written: true }), 'never viewed (the run only wrote this file)');
    assert.equal(lineViewingText({ kind: 'other-lines', viewed: [[1, 40]] }), 'never viewed (opened lines 1–40 of this file only)');
  });

  it('lists viewed ranges briefly: single lines, open ends, at most four', () => {
    assert.equal(
      viewedRangesText([
        [8, 8],
        [40, 105],
      ]),
      '8, 40–105',
    );
    assert.equal(viewedRangesText([[120, VIEWED_TO_END]]), '120 to the end');
    assert.equal(
      viewedRangesText([
        [1, 2],
        [4, 5],
        [7, 8],
        [10, 11],
        [13, 14],
      ]),
      '1–2, 4–5, 7–8, 10–11, …',
    );
  });
});

describe('how the repair runs got to a line', () => {
  const found = { firstRead: { step: 7, idiom: 'grep_hit' as const, command: 'grep -rn separability_matrix .' }, search: { step: 7, command: 'grep -rn separability_matrix .' } };
  it('names each run: found after a search, with it, read without one, never read, not loaded', () => {
    assert.equal(runArrivalText({ trajPath: 't/claude-4-5/x.json', model: 'claude-4-5', arrival: found }), 'claude-4-5 found it at step 7 with `grep -rn separability_matrix .`');
    assert.equal(
      runArrivalText({
        trajPath: 't/gemini/x.json',
        model: 'gemini',
        arrival: { firstRead: { step: 12, idiom: 'cat', command: 'cat astropy/modeling/separable.py' }, search: { step: 9, command: 'find . -name separable.py' } },
      }),
      'gemini found it at step 12 after `find . -name separable.py` (step 9)',
    );
    assert.equal(
      runArrivalText({ trajPath: 't/glm/x.json', model: '', arrival: { firstRead: { step: 3, idiom: 'cat', command: 'cat a.py' }, search: null } }),
      'glm/x.json read it at step 3 (`cat a.py`), no search named the file before',
    );
    assert.equal(runArrivalText({ trajPath: 't/glm/x.json', model: 'glm', arrival: { firstRead: null, search: null } }), 'glm never read it');
    assert.equal(runArrivalText({ trajPath: 't/glm/x.json', model: 'glm', arrival: 'not-loaded' }), 'glm: run not loaded');
  });

  it('says when nothing can be said', () => {
    assert.equal(lineArrivalsText({ kind: 'no-runs', reason: 'runs-not-loaded' }), 'repair runs not loaded');
    assert.equal(lineArrivalsText({ kind: 'no-runs', reason: 'no-runs-cited' }), 'the record cites no repair run');
    assert.equal(
      lineArrivalsText({
        kind: 'runs',
        runs: [
          { trajPath: 'a', model: 'claude-4-5', arrival: found },
          { trajPath: 'b', model: 'gemini', arrival: 'not-loaded' },
        ],
      }),
      'claude-4-5 found it at step 7 with `grep -rn separability_matrix .`; gemini: run not loaded',
    );
  });
});
