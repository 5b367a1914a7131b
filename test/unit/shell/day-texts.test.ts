/** Sentences of issue 16 ("a researcher's day on the real records"): bench choice, exports. */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  benchCaption,
  benchChoiceWarning,
  exportWrittenText,
  patchLineLabel,
  patchLineSentence,
  patchMarkerText,
  patchMissedText,
  reasonDescription,
  removalConfirmation,
  removedText,
  restoredText,
} from '../../../src/shared/texts';

describe('bench files and exports', () => {
  it('names the loaded bench and how many files looked like one', () => {
    assert.equal(benchChoiceWarning('bench.jsonl', 2), '2 files look like the bench; loaded bench.jsonl. Choose one to stop guessing (saved in sweExplore.data.benchFile).');
    assert.equal(benchCaption('data/bench.jsonl'), 'Bench: data/bench.jsonl');
    assert.equal(benchCaption(''), '');
  });

  it('says where the export went and that it is never loaded as the bench', () => {
    assert.equal(
      exportWrittenText(3, 1, '.swe-explore/exports/bench.audited.jsonl', 0),
      'wrote 3 records (1 with removals) to .swe-explore/exports/bench.audited.jsonl. It is never loaded as the bench.',
    );
    assert.match(exportWrittenText(1, 0, 'x.jsonl', 2), /^wrote 1 record \(0 with removals\).* 2 audit problems: see the Problems panel\.$/);
  });
});

describe('removals: confirmation and undo', () => {
  it('asks about a whole file or a large span with its size', () => {
    assert.equal(removalConfirmation('astropy/table/table.py', 1, 3972, 'core', true), 'Remove all 3,972 lines of astropy/table/table.py from core?');
    assert.equal(removalConfirmation('a.py', 10, 309, 'core', false), 'Remove 300 lines (a.py 10–309) from core?');
  });

  it('words the removal and the restore, saying when the instance is unaudited again', () => {
    assert.equal(removedText('a.py', 40, 45, 'core', 'over-broad-read'), 'Removed a.py 40–45 from core (over-broad-read).');
    assert.equal(restoredText('a.py', 40, 45, 'i-1', false), 'Restored a.py 40–45.');
    assert.equal(restoredText('a.py', 40, 45, 'i-1', true), 'Restored a.py 40–45. i-1 has no removal or accept left: it counts as unaudited again.');
  });
});

describe('gold patch reach', () => {
  it('labels and hovers say whether the list reaches a patch line within B', () => {
    assert.equal(patchLineLabel(true, 500), '± gold patch edits here');
    assert.equal(patchLineLabel(false, 500), '± gold patch edits here · not reached within B=500');
    assert.equal(patchLineSentence('agent', null, 500), 'The gold patch edits this line; agent does not reach it within B=500.');
    assert.equal(patchLineSentence('agent', 2, 100), 'The gold patch edits this line; agent reaches it within B=100 (#2).');
    assert.equal(patchLineSentence(undefined, null, 500), 'The gold patch edits this line; the list does not reach it within B=500.');
  });

  it('markers and missed runs', () => {
    assert.equal(patchMarkerText(1), '◆ 1 patch line');
    assert.equal(patchMarkerText(6), '◆ 6 patch lines');
    assert.equal(
      patchMissedText(
        [
          { path: 'a.py', start: 8, end: 8 },
          { path: 'b.py', start: 3, end: 5 },
        ],
        2,
      ),
      'not reached: a.py 8, b.py 3–5 and 2 more',
    );
  });
});

describe('removal reasons', () => {
  it('describes every built-in reason, nothing for a custom one or a prototype key', () => {
    for (const reason of ['incidental-read', 'over-broad-read', 'not-needed-for-fix', 'test-or-fixture', 'config-or-boilerplate', 'duplicate', 'other']) assert.ok(reasonDescription(reason));
    assert.equal(reasonDescription('my-own-reason'), undefined);
    assert.equal(reasonDescription('constructor'), undefined);
  });
});
