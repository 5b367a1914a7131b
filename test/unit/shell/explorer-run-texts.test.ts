/**
 * The sentences about an explorer's own run and the repair runs' way to a line (src/shared/texts.ts,
 * issue 19), on the data `lineViewing` and `lineArrivals` give.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { VIEWED_TO_END } from '../../../src/core';
import {
  arrivalsSentence,
  lineArrivalsText,
  lineViewingText,
  plainLabel,
  runArrivalText,
  runStatusText,
  runSummaryText,
  runViewingSentence,
  viewedLineText,
  viewedRangesText,
  viewingLabel,
} from '../../../src/shared/texts';

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

describe('the extension surfaces of an explorer run (labels, hover lines, Scores summary)', () => {
  it('labels a missed span ◉ seen or ○ never viewed; hostile command text stays plain in a label', () => {
    assert.equal(viewingLabel({ kind: 'seen', step: 4, idiom: 'nl_pipe', command: "nl -ba f | sed -n '1,9p'" }), "◉ seen at step 4 (`nl -ba f | sed -n '1,9p'`), not reported");
    assert.equal(viewingLabel({ kind: 'other-lines', viewed: [[60, 85]] }), '○ never viewed (opened lines 60–85 of this file only)');
    const hostile = plainLabel(viewingLabel({ kind: 'seen', step: 1, idiom: 'cat', command: 'cat a\u001b[31m.py' }));
    assert.ok(!hostile.includes('\u001b'), hostile);
  });

  it('words the hover lines and why a run says nothing yet', () => {
    assert.equal(runViewingSentence('agent', { kind: 'never-opened', written: false }), 'Explorer run (agent): never viewed (the run never opened this file)');
    assert.equal(viewedLineText('agent', 3, 'cat a.py'), "agent's run saw this line first at step 3 (`cat a.py`)");
    assert.equal(arrivalsSentence({ kind: 'no-runs', reason: 'runs-not-loaded' }), 'How the repair runs got here: repair runs not loaded');
    assert.equal(runStatusText({ kind: 'no-run', explorer: 'agent' }), "agent's runs hold none of this instance");
    assert.equal(runStatusText({ kind: 'loading', explorer: 'agent' }), "reading agent's run…");
    assert.equal(runStatusText({ kind: 'failed', explorer: 'agent', message: 'not UTF-8' }), "agent's run could not be read: not UTF-8");
    assert.match(runStatusText({ kind: 'no-folder', explorer: 'agent' }), /^agent has no runs loaded \(put them in trajs\/ beside its prediction file/);
  });

  it('summarises a run for the Scores view', () => {
    const run = { path: 'results/agent/trajs/a.json', format: 'mini-swe-agent-1', steps: 6, reads: 4, viewedLines: 98 };
    assert.equal(runSummaryText('agent', run, 5, 69), "agent's run (results/agent/trajs/a.json, mini-swe-agent-1): 6 steps, 4 reads, 98 lines viewed; it viewed 5 of its 69 missed core lines");
    assert.equal(
      runSummaryText('agent', { ...run, viewedLines: 1 }, 0, 1),
      "agent's run (results/agent/trajs/a.json, mini-swe-agent-1): 6 steps, 4 reads, 1 line viewed; it viewed 0 of its 1 missed core line",
    );
    assert.match(runSummaryText('agent', run, 0, 0), /; nothing is missed$/);
  });
});
