import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { patchBaseLines } from '../../../src/core';

const diff = [
  'diff --git a/pkg/a.py b/pkg/a.py',
  '--- a/pkg/a.py',
  '+++ b/pkg/a.py',
  '@@ -10,4 +10,4 @@ def f():',
  '     x = 1',
  '-    y = 2',
  '+    y = 3',
  '     z = 4',
  '     return x',
  '@@ -40,2 +40,3 @@',
  '     a = 1',
  '+    b = 2',
  '     c = 3',
  '@@ -0,0 +1,1 @@',
  '+# header',
  'diff --git a/new.py b/new.py',
  '--- /dev/null',
  '+++ b/new.py',
  '@@ -0,0 +1,2 @@',
  '+print(1)',
  '+print(2)',
  'diff --git a/pkg/b.py b/pkg/b.py',
  '--- a/pkg/b.py',
  '+++ b/pkg/b.py',
  '@@ -5 +5 @@',
  '-old',
  '+new',
  '\\ No newline at end of file',
].join('\n');

describe('patchBaseLines', () => {
  it('marks removed lines, the line before an insertion, and line 1 for an insertion at the top', () => {
    const lines = patchBaseLines(diff);
    assert.deepEqual(lines.get('pkg/a.py'), [
      [1, 1],
      [11, 11],
      [40, 40],
    ]);
    assert.deepEqual(lines.get('pkg/b.py'), [[5, 5]]);
  });

  it('gives a created file no base lines', () => {
    assert.equal(patchBaseLines(diff).has('new.py'), false);
  });

  it('reads CRLF patches and empty input', () => {
    assert.deepEqual(patchBaseLines(diff.replace(/\n/g, '\r\n')).get('pkg/b.py'), [[5, 5]]);
    assert.equal(patchBaseLines('').size, 0);
  });
});
