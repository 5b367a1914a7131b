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

  it('anchors a pure insertion inside a hunk on the base line before it (the requests-6028 shape)', () => {
    // Context 974–976, four added lines, context 977–979: one anchor, line 976.
    const insertion = [
      'diff --git a/requests/utils.py b/requests/utils.py',
      '--- a/requests/utils.py',
      '+++ b/requests/utils.py',
      '@@ -974,6 +974,10 @@ def prepend_scheme_if_needed(url, new_scheme):',
      '     if not netloc:',
      '         netloc, path = path, netloc',
      '',
      '+    if auth:',
      "+        # parse_url doesn't provide the netloc with auth",
      "+        # so we'll add it ourselves.",
      "+        netloc = '@'.join([auth, netloc])",
      '     if scheme is None:',
      '         scheme = new_scheme',
      '     if path is None:',
      '',
    ].join('\n');
    assert.deepEqual([...patchBaseLines(insertion)], [['requests/utils.py', [[976, 976]]]]);
  });

  it('anchors every separate run of insertions, and a replacement adds no anchor of its own', () => {
    const lines = patchBaseLines(['--- a/x.py', '+++ b/x.py', '@@ -1,5 +1,6 @@', ' a', '+b', ' c', '-d', '+D', ' e', '+f', ' g'].join('\n'));
    // +b after line 1; d (line 3) replaced; +f after line 4.
    assert.deepEqual(lines.get('x.py'), [
      [1, 1],
      [3, 4],
    ]);
  });

  it('reads hunk bodies by their header counts: a removed "-- comment" line is not a file header', () => {
    const sql = ['diff --git a/q.sql b/q.sql', '--- a/q.sql', '+++ b/q.sql', '@@ -3,3 +3,2 @@', ' select 1;', '--- old comment', '+++ new comment', ' select 2;'].join('\n');
    // Line 4 "-- old comment" is removed, "++ new comment" added in its place.
    assert.deepEqual([...patchBaseLines(sql)], [['q.sql', [[4, 4]]]]);
  });

  it("puts a renamed file's lines on its old path", () => {
    const renamed = ['diff --git a/old.py b/new.py', 'rename from old.py', 'rename to new.py', '--- a/old.py', '+++ b/new.py', '@@ -2 +2 @@', '-x', '+y'].join('\n');
    assert.deepEqual([...patchBaseLines(renamed)], [['old.py', [[2, 2]]]]);
  });
});
