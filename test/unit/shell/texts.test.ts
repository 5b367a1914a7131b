/** Every user-facing sentence built from data (src/shared/texts.ts), one wording each. */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  budgetStatusText,
  capitalised,
  compareLabels,
  compareLineText,
  coreRegionTitle,
  describeRawRange,
  describeReaders,
  describeResolution,
  layerPhrase,
  leaveOneOutLabel,
  leaveOneOutSentence,
  lineCount,
  missedLabel,
  missedLineSentence,
  missReason,
  nearestPredictionText,
  plainLabel,
  provenanceLabel,
  provenanceSentence,
  readStepText,
  removalLabel,
  removalSentence,
  trajectoryLabel,
  type MissedSpan,
} from '../../../src/shared/texts';

const span = (detail: MissedSpan['detail'], start = 10, end = 27): MissedSpan => ({ path: 'a.py', start, end, category: detail.category, detail });

describe('counts, labels and names', () => {
  it('counts lines in the singular and plural', () => {
    assert.equal(lineCount(1), '1 line');
    assert.equal(lineCount(18), '18 lines');
    assert.equal(capitalised('optional · m'), 'Optional · m');
    assert.equal(capitalised(''), '');
  });

  it('makes data fit an editor label: controls escaped, length capped', () => {
    assert.equal(plainLabel('a\nb\u202e'), 'a\\nb\\u202e');
    const long = plainLabel('x'.repeat(500));
    assert.equal(long.length, 120);
    assert.ok(long.endsWith('…'));
  });

  it('names a trajectory by its model folder and file', () => {
    assert.equal(trajectoryLabel('trajs/claude-4/astropy__astropy-1.json'), 'claude-4/astropy__astropy-1.json');
    assert.equal(trajectoryLabel('t.json'), 't.json');
  });
});

describe('read ranges', () => {
  it('writes a raw range as the data has it, negative starts included', () => {
    assert.equal(describeRawRange(12, 40), '12–40');
    assert.equal(describeRawRange(1, -1), '1–EOF');
    assert.equal(describeRawRange(-8, -1), 'last 8 lines');
    assert.equal(describeRawRange(-8, 40), 'last 8 lines (to 40)');
  });

  it('words a read step the same way in the hover and the Instance panel', () => {
    assert.equal(readStepText({ traj_path: 'trajs/m/x.json', step_idx: 5, start: 1, end: -1 }), 'm/x.json step 5: lines 1–EOF');
    assert.equal(readStepText({ traj_path: 'trajs/m/x.json', step_idx: 7, start: -8, end: -1 }), 'm/x.json step 7: the last 8 lines');
  });
});

describe('provenance', () => {
  it('names the readers of a run', () => {
    assert.equal(
      describeReaders(['a/t1.json', 'a/t2.json'], 3, (t) => t.split('/').pop()!),
      'read by 2 of 3 trajectories: t1.json, t2.json',
    );
    assert.equal(describeReaders([], 3), 'read by none of 3 trajectories');
    assert.equal(describeReaders([], 1), 'read by none of 1 trajectory');
  });

  it('labels consensus and promoted runs', () => {
    assert.equal(provenanceLabel(3, 3), '● consensus: read by all 3');
    assert.equal(provenanceLabel(2, 3), '◐ promoted: read by 2 of 3');
    assert.equal(provenanceLabel(0, 0), '◐ promoted: read by 0 of 0', 'no trajectory known: nothing is consensus');
    assert.equal(provenanceSentence(['m/a.json', 'm/b.json'], 3), 'Promoted core line: read by 2 of 3 trajectories: m/a.json, m/b.json');
    assert.equal(provenanceSentence(['x/m/a.json'], 1), 'Consensus core line: read by 1 of 1 trajectory: m/a.json');
  });

  it('words the leave-one-out layer', () => {
    assert.equal(leaveOneOutLabel('join', 'trajs/m/t3.json'), '⊕ joins the consensus without m/t3.json');
    assert.equal(leaveOneOutLabel('leave', 'trajs/m/t3.json'), '⊖ leaves the consensus without m/t3.json');
    assert.match(leaveOneOutSentence('join', 'trajs/m/t3.json'), /^⊕ Leave-one-out: without m\/t3\.json this line would join the consensus/);
    assert.match(leaveOneOutSentence('none', 'trajs/m/t3.json'), /does not change this core line's consensus status$/);
  });
});

describe('layers and removals', () => {
  it('spells a ground-truth layer one way', () => {
    assert.equal(layerPhrase('core', null), 'core');
    assert.equal(layerPhrase('optional', 'claude-4'), 'optional · claude-4');
    assert.equal(layerPhrase('optional', null), 'optional · every model');
    assert.equal(layerPhrase('optional', undefined), 'optional · every model');
  });

  it('labels a removal in the editor and explains it in the hover', () => {
    const removal = { layer: 'optional' as const, model: 'm', start: 3, end: 9, reason: 'incidental-read', author: 'ana', note: 'only the import' };
    assert.equal(removalLabel(removal, false), '✂ removed from optional · m: incidental-read');
    assert.equal(removalLabel({ ...removal, layer: 'core', model: null }, true), '✂ removed from core: incidental-read · ⚠ drifted');
    assert.equal(removalSentence(removal, false), '✂ Removed from optional · m, lines 3–9, by ana (incidental-read): only the import');
    assert.match(removalSentence({ ...removal, note: null }, true), /\(incidental-read\) — ⚠ drifted: the text changed since it was removed/);
  });
});

describe('resolution and budget status', () => {
  it('describes a resolution', () => {
    assert.equal(describeResolution({ kind: 'resolved', start: 12, end: 40, usedLineCount: false }), '12–40');
    assert.equal(describeResolution({ kind: 'resolved', start: 40, end: 12, usedLineCount: false }), '40–12 (inverted: no lines)');
    assert.equal(describeResolution({ kind: 'unresolvable', reason: 'no-line-count' }), 'unresolvable: no line count');
    assert.equal(describeResolution({ kind: 'unresolvable', reason: 'empty-file' }), 'unresolvable: empty file');
    assert.equal(describeResolution({ kind: 'unresolvable', reason: 'non-positive-end' }), 'unresolvable: end < 1');
  });

  it('says how much of a prediction the budget examines, one wording for badges and the Regions tree', () => {
    const resolved = { kind: 'resolved' as const, start: 1, end: 90, usedLineCount: false };
    assert.equal(budgetStatusText({ resolution: resolved, budgetStatus: 'in', linesInBudget: 90, lines: 90 }), '✓ in budget');
    assert.equal(budgetStatusText({ resolution: resolved, budgetStatus: 'partial', linesInBudget: 40, lines: 90 }), '◐ 40/90 lines in budget');
    assert.equal(budgetStatusText({ resolution: resolved, budgetStatus: 'over', linesInBudget: 0, lines: 90 }), '✗ over budget');
    assert.equal(budgetStatusText({ resolution: { kind: 'resolved', start: 9, end: 1, usedLineCount: false }, budgetStatus: 'no-lines', linesInBudget: 0, lines: 0 }), '⚠ inverted (0 lines)');
    assert.equal(budgetStatusText({ resolution: { kind: 'unresolvable', reason: 'no-line-count' }, budgetStatus: 'no-lines', linesInBudget: 0, lines: 0 }), '⚠ unresolvable (0 lines)');
  });

  it('titles a core region', () => {
    assert.equal(coreRegionTitle({ index: 1, lines: 18, coveredLinesInBudget: 12, coveringRanksInBudget: [1, 3] }, 4, 500), 'Core 2/4 · 18 lines · 12/18 covered within B=500 by #1, #3');
    assert.equal(coreRegionTitle({ index: 0, lines: 5, coveredLinesInBudget: 0, coveringRanksInBudget: [] }, 1, 100), 'Core 1/1 · 5 lines · 0/5 covered within B=100');
  });
});

describe('miss reasons', () => {
  it('words each category, naming what the model found', () => {
    assert.equal(missReason(span({ category: 'beyond_budget', coveringRanks: [4, 5] }), 500), 'beyond budget: 18 lines (covered by #4, #5 after B=500 ran out)');
    assert.equal(missReason(span({ category: 'beyond_budget', coveringRanks: [] }), 100), 'beyond budget: 18 lines (covered by a prediction after B=100 ran out)');
    assert.equal(missReason(span({ category: 'path_mismatch', predictedAs: { path: './a.py', rank: 2 } }), 500), 'path mismatch: 18 lines predicted as ‘./a.py’ (#2)');
    assert.equal(missReason(span({ category: 'path_mismatch', predictedAs: undefined }), 500), 'path mismatch: 18 lines');
    assert.equal(missReason(span({ category: 'inverted', ranks: [1, 2, 3, 4] }), 500), 'inverted range #1, #2, #3, …: 18 lines (start > end, so it reads nothing)');
    assert.equal(missReason(span({ category: 'inverted', ranks: [] }, 5, 5), 500), 'inverted range: 1 line (start > end, so it reads nothing)');
    assert.equal(
      missReason(span({ category: 'wrong_region', nearest: { rank: 2, distance: 2, side: 'below' } }), 500),
      'file predicted, wrong lines: 18 lines — nearest prediction #2 starts 2 lines below',
    );
    assert.equal(missReason(span({ category: 'file_not_predicted' }), 500), 'file not predicted: 18 lines');
  });

  it('words the nearest prediction the same in the editor and the Scores view ("on this file")', () => {
    assert.equal(nearestPredictionText({ rank: 3, distance: 1, side: 'above' }), 'nearest prediction #3 ends 1 line above');
    assert.equal(nearestPredictionText(null), 'no prediction on this file has a usable range');
  });

  it('labels a run and explains a line in the same words, with the predicted spelling made plain', () => {
    const run = span({ category: 'path_mismatch', predictedAs: { path: 'a\u202e.py', rank: 1 } });
    assert.equal(missedLabel(run, 500), '◌ missed core · path mismatch: 18 lines predicted as ‘a\\u202e.py’ (#1)');
    assert.equal(missedLineSentence(run, 500), 'Missed core line · path mismatch: 18 lines predicted as ‘a\\u202e.py’ (#1)');
  });
});

describe('compare mode', () => {
  it('labels the four sets with the explorers made plain and capped', () => {
    const labels = compareLabels('agent\n', 'x'.repeat(60));
    assert.equal(labels.onlyA, 'A only ◧ agent\\n');
    assert.equal(labels.onlyB, `B only ◨ ${'x'.repeat(39)}…`);
    assert.equal(labels.both, 'both ■');
    assert.equal(labels.neither, 'neither □ missed by both');
    assert.equal(compareLabels(undefined, 'b').onlyA, 'A only ◧ (none)');
  });

  it('explains a core line with both explorers', () => {
    assert.equal(
      compareLineText('onlyB', 500, { explorer: 'agent', hasRow: true, covering: [] }, { explorer: 'bm25', hasRow: true, covering: [{ rank: 1, inBudget: true }] }),
      'Compare: only B reaches this line within B=500 — A (agent): no prediction covers it · B (bm25): #1 (in budget)',
    );
    assert.equal(
      compareLineText('neither', 300, { explorer: 'agent', hasRow: false, covering: [] }, { explorer: 'bm25', hasRow: true, covering: [{ rank: 4, inBudget: false }] }),
      'Compare: neither reaches this line within B=300 — A (agent): no row for this instance · B (bm25): #4 (past budget)',
    );
  });
});
