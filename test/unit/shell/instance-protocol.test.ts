import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseFromInstanceWebview, parseToInstanceWebview, type InstanceState } from '../../../src/shared/instanceProtocol';
import { buildInstanceState, decodeTestList, MAX_PROBLEM_STATEMENT_CHARS, type InstanceRecordLike } from '../../../src/extension/instance/instanceState';
import { parseUnifiedDiff, patchedText } from '../../../src/core/unifiedDiff';

const PATCH = [
  'diff --git a/pkg/core.py b/pkg/core.py',
  'index 1111111..2222222 100644',
  '--- a/pkg/core.py',
  '+++ b/pkg/core.py',
  '@@ -2,3 +2,4 @@ def f():',
  ' two',
  '-three',
  '-- a removed line that looks like a header',
  '+THREE',
  '+3b',
  '+four-ish',
  '@@ -8,2 +9,2 @@',
  ' eight',
  '-nine',
  '+NINE',
  '\\ No newline at end of file',
  'diff --git a/pkg/new.py b/pkg/new.py',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/pkg/new.py',
  '@@ -0,0 +1,2 @@',
  '+hello',
  '+world',
  'diff --git a/old name.py b/new name.py',
  'similarity index 100%',
  'rename from old name.py',
  'rename to new name.py',
  '',
].join('\n');

const BASE = ['one', 'two', 'three', '- a removed line that looks like a header', 'five', 'six', 'seven', 'eight', 'nine'].join('\n') + '\n';

describe('parseUnifiedDiff', () => {
  it('lists files with +/- counts, reading hunk bodies by their header counts', () => {
    const files = parseUnifiedDiff(PATCH);
    assert.deepEqual(
      files.map((f) => [f.path, f.oldPath, f.status, f.added, f.removed, f.malformed]),
      [
        ['pkg/core.py', 'pkg/core.py', 'modified', 4, 3, false],
        ['pkg/new.py', null, 'added', 2, 0, false],
        ['new name.py', 'old name.py', 'renamed', 0, 0, false],
      ],
    );
    assert.equal(files[0]!.hunks[1]!.lines[2]!.noNewline, true);
  });

  it('flags a hunk whose body is shorter than its header', () => {
    const files = parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\nnot a diff line\n');
    assert.equal(files[0]!.malformed, true);
  });

  it('reads plain (non-git) diffs and deleted files', () => {
    const files = parseUnifiedDiff('--- a/x.py\t2020-01-01\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n');
    assert.deepEqual(
      files.map((f) => [f.path, f.status, f.removed]),
      [['x.py', 'deleted', 1]],
    );
  });
});

describe('patchedText', () => {
  it('applies the hunks of one file', () => {
    const expected = ['one', 'two', 'THREE', '3b', 'four-ish', 'five', 'six', 'seven', 'eight', 'NINE'].join('\n');
    assert.equal(patchedText(BASE, PATCH, 'pkg/core.py'), expected);
  });

  it('keeps CRLF line endings and uses them for added lines', () => {
    const crlf = BASE.replace(/\n/g, '\r\n');
    assert.equal(patchedText(crlf, PATCH, 'pkg/core.py'), ['one', 'two', 'THREE', '3b', 'four-ish', 'five', 'six', 'seven', 'eight', 'NINE'].join('\r\n'));
  });

  it('creates a new file from empty base text', () => {
    assert.equal(patchedText('', PATCH, 'pkg/new.py'), 'hello\nworld\n');
  });

  it('returns undefined on a context mismatch, an unknown path or a malformed hunk', () => {
    assert.equal(patchedText(BASE.replace('two', 'TWO'), PATCH, 'pkg/core.py'), undefined);
    assert.equal(patchedText(BASE, PATCH, 'pkg/other.py'), undefined);
    assert.equal(patchedText('a\n', '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n', 'x'), undefined);
    // Base shorter than the hunk expects.
    assert.equal(patchedText('one\ntwo\n', PATCH, 'pkg/core.py'), undefined);
  });

  it('inserts after line N for a "-N,0" hunk and appends after a last line without newline', () => {
    assert.equal(patchedText('a\nb\n', '--- a/x\n+++ b/x\n@@ -1,0 +2 @@\n+inserted\n', 'x'), 'a\ninserted\nb\n');
    assert.equal(patchedText('a\nb', '--- a/x\n+++ b/x\n@@ -2 +2,2 @@\n-b\n\\ No newline at end of file\n+b\n+c\n', 'x'), 'a\nb\nc\n');
  });

  it('round-trips random edits of random files', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', ''), { minLength: 1, maxLength: 12 }), fc.array(fc.boolean(), { maxLength: 12 }), (lines, removeMask) => {
        // Build a single-hunk diff that removes masked lines and adds "X" after each removal.
        const body: string[] = [];
        const result: string[] = [];
        let added = 0;
        let removed = 0;
        lines.forEach((line, i) => {
          if (removeMask[i] === true) {
            body.push(`-${line}`, '+X');
            result.push('X');
            added++;
            removed++;
          } else {
            body.push(` ${line}`);
            result.push(line);
          }
        });
        const patch = `--- a/f\n+++ b/f\n@@ -1,${lines.length} +1,${lines.length - removed + added} @@\n${body.join('\n')}\n`;
        assert.equal(patchedText(lines.join('\n') + '\n', patch, 'f'), result.join('\n') + '\n');
      }),
    );
  });
});

describe('decodeTestList', () => {
  it('decodes the JSON-encoded string of a list', () => {
    assert.deepEqual(decodeTestList('["a::b", "c"]'), { tests: ['a::b', 'c'], note: '' });
    assert.deepEqual(decodeTestList(JSON.stringify(JSON.stringify(['x']))), { tests: ['x'], note: '' });
    assert.deepEqual(decodeTestList(['plain']), { tests: ['plain'], note: '' });
  });

  it('tolerates garbage', () => {
    assert.equal(decodeTestList('[not json').tests.length, 0);
    assert.match(decodeTestList('[not json').note, /not a JSON list/);
    assert.match(decodeTestList('{"a":1}').note, /not a JSON list/);
    assert.match(decodeTestList(undefined).note, /No FAIL_TO_PASS/);
    assert.deepEqual(decodeTestList('["ok", 3, null]'), { tests: ['ok'], note: '2 FAIL_TO_PASS entries are not strings and are not shown.' });
  });
});

const RECORD: InstanceRecordLike = {
  instance_id: 'org__repo-1',
  repo: 'org/repo',
  base_commit: 'abcdef0123456789',
  problem_statement: '# Bug\r\nIt **fails**.',
  patch: PATCH,
  FAIL_TO_PASS: '["tests/test_core.py::test_f"]',
  meta: { num_trajectories: 3 },
  read_step_info: {
    'pkg/core.py': [
      { traj_path: 'runs/m/t2.json', step_idx: 4, start: -5, end: -1 },
      { traj_path: 'runs/m/t1.json', step_idx: 2, start: 1, end: -1 },
      { traj_path: 'runs/m/t1.json', step_idx: 1, start: 3, end: 8 },
    ],
    'unknown.py': [{ traj_path: 'runs/m/t1.json', step_idx: 3, start: 1, end: -1 }],
  },
};

describe('buildInstanceState', () => {
  const state = buildInstanceState(RECORD, new Map([['pkg/core.py', 9]]));

  it('collects issue, patch files, tests and trajectories', () => {
    assert.equal(state.instanceId, 'org__repo-1');
    assert.equal(state.problemStatement, '# Bug\r\nIt **fails**.');
    assert.deepEqual(
      state.patchFiles.map((f) => [f.path, f.status, f.added, f.removed, f.oldPath]),
      [
        ['pkg/core.py', 'modified', 4, 3, null],
        ['pkg/new.py', 'added', 2, 0, null],
        ['new name.py', 'renamed', 0, 0, 'old name.py'],
      ],
    );
    assert.deepEqual(state.failToPass, ['tests/test_core.py::test_f']);
    assert.equal(state.trajectoryCount, 3);
    assert.deepEqual(state.agreement, []);
  });

  it('lists each trajectory’s steps in step order with resolved ranges', () => {
    assert.deepEqual(
      state.trajectories.map((t) => [t.label, t.steps.map((s) => [s.stepIdx, s.path, s.start, s.end, s.rangeText])]),
      [
        [
          'm/t1.json',
          [
            [1, 'pkg/core.py', 3, 8, '3–8'],
            [2, 'pkg/core.py', 1, 9, '1–9 (1–EOF)'],
            [3, 'unknown.py', null, null, '1–EOF (line count unknown)'],
          ],
        ],
        ['m/t2.json', [[4, 'pkg/core.py', 5, 9, '5–9 (last 5 lines)']]],
      ],
    );
  });

  it('produces a state the webview guard accepts', () => {
    assert.notEqual(parseToInstanceWebview({ type: 'state', state }), null);
  });

  it('cuts an overlong issue text', () => {
    const long = buildInstanceState({ instance_id: 'x', problem_statement: 'a'.repeat(MAX_PROBLEM_STATEMENT_CHARS + 5) }, new Map());
    assert.equal(long.problemStatement.length, MAX_PROBLEM_STATEMENT_CHARS);
    assert.equal(long.problemStatementTruncated, true);
    assert.match(long.patchNote, /No gold patch/);
  });

  it('always passes the guard, whatever the record holds', () => {
    const junk = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.anything(), { maxLength: 3 }), fc.object({ maxDepth: 2 }));
    const step = fc.record({
      traj_path: fc.oneof(fc.string(), fc.integer()),
      step_idx: fc.oneof(fc.integer(), fc.double()),
      start: fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.constant(-1)),
      end: fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.constant(-1)),
    });
    fc.assert(
      fc.property(
        fc.record({
          instance_id: fc.string(),
          problem_statement: fc.oneof(fc.string(), fc.constant(null)),
          patch: fc.oneof(fc.string(), fc.constant(PATCH), fc.constant(null), fc.constant('--- a/\n+++ b/\n@@ -1 +1 @@\n-x\n+y\n')),
          FAIL_TO_PASS: junk,
          meta: fc.oneof(fc.constant(null), fc.record({ num_trajectories: junk })),
          read_step_info: fc.oneof(fc.constant(null), fc.dictionary(fc.string(), fc.array(fc.oneof(step, junk), { maxLength: 4 }), { maxKeys: 3 })),
        }),
        fc.dictionary(fc.string(), fc.integer({ min: 0, max: 1e12 })),
        (record, counts) => {
          const s = buildInstanceState(record as unknown as InstanceRecordLike, new Map(Object.entries(counts)));
          assert.notEqual(parseToInstanceWebview({ type: 'state', state: s }), null);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('instance protocol guards', () => {
  it('accepts the three webview messages', () => {
    assert.deepEqual(parseFromInstanceWebview({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseFromInstanceWebview({ type: 'openDiff', path: 'a.py', extra: 1 }), { type: 'openDiff', path: 'a.py' });
    assert.deepEqual(parseFromInstanceWebview({ type: 'revealStep', path: 'a.py', start: 3, end: 3 }), { type: 'revealStep', path: 'a.py', start: 3, end: 3 });
  });

  it('rejects malformed messages', () => {
    for (const bad of [
      null,
      'ready',
      [],
      { type: 'nope' },
      { type: 'openDiff' },
      { type: 'openDiff', path: '' },
      { type: 'openDiff', path: 'x'.repeat(5000) },
      { type: 'openDiff', path: 7 },
      { type: 'revealStep', path: 'a', start: 0, end: 3 },
      { type: 'revealStep', path: 'a', start: 4, end: 3 },
      { type: 'revealStep', path: 'a', start: 1.5, end: 3 },
      { type: 'revealStep', path: 'a', start: '1', end: 3 },
      { type: 'revealStep', path: 'a', start: 1, end: Infinity },
    ]) {
      assert.equal(parseFromInstanceWebview(bad), null, JSON.stringify(bad));
    }
  });

  it('validates a state field by field, element by element', () => {
    const good: InstanceState = buildInstanceState(RECORD, new Map([['pkg/core.py', 9]]));
    assert.notEqual(parseToInstanceWebview({ type: 'state', state: good }), null);
    const broken: unknown[] = [
      { ...good, patchFiles: [{ ...good.patchFiles[0], added: -1 }] },
      { ...good, patchFiles: [{ ...good.patchFiles[0], status: 'weird' }] },
      { ...good, failToPass: ['ok', 3] },
      { ...good, trajectories: [{ ...good.trajectories[0], steps: [{ ...good.trajectories[0]!.steps[0], start: 5, end: null }] }] },
      { ...good, trajectories: [{ ...good.trajectories[0], steps: 'many' }] },
      { ...good, agreement: [{ label: 'x' }] },
      { ...good, problemStatement: 3 },
      { ...good, trajectoryCount: -1 },
    ];
    for (const state of broken) assert.equal(parseToInstanceWebview({ type: 'state', state }), null);
    assert.equal(parseToInstanceWebview({ type: 'other', state: good }), null);
  });
});
