/**
 * The builder's command rules (../shared/trajectories.md §1 "Commands"), one synthetic command per
 * rule and quirk, with the idiom and the seen lines each read gets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { commandReads, commandSegments, isContentReadCommand, isLikelyPath, type ReadIdiom, type SeenRange } from '../../../src/core';

/** `[path, start, end, idiom, seen]` of each read. */
function reads(command: string, output = ''): [string, number, number, ReadIdiom, readonly SeenRange[]][] {
  return commandReads(command, output).reads.map((r) => [r.path, r.start, r.end, r.idiom, r.seen]);
}

describe('splitting', () => {
  it('splits on && || ; (whitespace around them absorbed) and drops empty pieces', () => {
    assert.deepEqual(commandSegments('cd /testbed && cat a.py ;; ls || head -n 3 b.py;'), ['cd /testbed', 'cat a.py', 'ls', 'head -n 3 b.py']);
  });
  it('ignores quoting: a sed script with ; becomes two pieces and yields nothing', () => {
    assert.deepEqual(commandSegments("sed -n '1,5p;9,12p' f.py"), ["sed -n '1,5p", "9,12p' f.py"]);
    assert.deepEqual(reads("sed -n '1,5p;9,12p' f.py"), []);
  });
  it('does not split on | or newlines: a multi-line block is one segment', () => {
    assert.deepEqual(commandSegments('cat a.py | head -5\ncat b.py'), ['cat a.py | head -5\ncat b.py']);
    assert.deepEqual(reads('cat a.py | head -5\ncat b.py'), [
      ['a.py', 1, -1, 'cat', [[1, -1]]],
      ['b.py', 1, -1, 'cat', [[1, -1]]],
    ]);
  });
  it('a leading # comment line makes the whole block a non-read', () => {
    assert.deepEqual(reads('# look at the file\ncat a.py'), []);
  });
  it('only the last segment gets the output', () => {
    assert.deepEqual(reads('grep -n foo a.py; echo done', '12:foo\n'), [['a.py', 1, -1, 'grep_whole', [[1, -1]]]]);
    assert.deepEqual(reads('cd /testbed && grep -n foo a.py', '12:foo\n13-bar\n'), [['a.py', 1, -1, 'grep_whole', [[12, 13]]]]);
  });
  it('Python whitespace: U+0085 separates words, U+FEFF does not', () => {
    assert.deepEqual(reads('cat\u0085a.py'), [['a.py', 1, -1, 'cat', [[1, -1]]]]);
    assert.deepEqual(reads('cat\ufeffa.py'), []);
  });
});

describe('content reads', () => {
  it('recognises cat head tail nl less more (any case) and sed with -n among the first three words', () => {
    for (const c of ['cat x', 'HEAD x', 'tail x', 'nl x', 'less x', 'More x', 'sed -n 1p x', 'sed -i -n 1p x', 'SED -N 1p x']) assert.ok(isContentReadCommand(c), c);
    for (const c of ['sed -e x -n 1p f', 'sed s/a/b/ f', 'sed', 'python cat.py', 'ls a.py', 'awk 1 a.py', 'git show a.py', 'vim a.py']) assert.ok(!isContentReadCommand(c), c);
  });
  it('cat: the whole file, every path-like word', () => {
    assert.deepEqual(reads('cat a.py src/b'), [
      ['a.py', 1, -1, 'cat', [[1, -1]]],
      ['src/b', 1, -1, 'cat', [[1, -1]]],
    ]);
  });
  it('-n -c -q -v followed by a word skip both: cat -n F reads nothing (F is recorded as swallowed)', () => {
    const found = commandReads('cat -n a.py', '');
    assert.deepEqual(found.reads, []);
    assert.deepEqual(
      found.swallowed.map((s) => [s.path, s.flag, s.command, s.start, s.end, s.idiom, s.seen]),
      [['a.py', '-n', 'cat', 1, -1, 'cat', [[1, -1]]]],
    );
    assert.deepEqual(
      commandReads('tail -q b.py', '').swallowed.map((s) => [s.path, s.flag]),
      [['b.py', '-q']],
    );
    assert.deepEqual(
      commandReads('nl -v c.py', '').swallowed.map((s) => [s.path, s.flag]),
      [['c.py', '-v']],
    );
  });
  it('head -c 10 F keeps F (10 is swallowed, and it is not path-like so not recorded)', () => {
    const found = commandReads('head -c 10 a.py', '');
    assert.deepEqual(
      found.reads.map((r) => [r.path, r.start, r.end, r.idiom, r.seen]),
      [['a.py', 1, -1, 'head', [[1, -1]]]],
    );
    assert.deepEqual(found.swallowed, []);
  });
  it('-nN and other dashed words skip themselves', () => {
    assert.deepEqual(reads('cat -A a.py'), [['a.py', 1, -1, 'cat', [[1, -1]]]]);
    assert.deepEqual(reads('head -n20 a.py'), [['a.py', 1, 20, 'head', [[1, 20]]]]);
  });
  it('path-like: a slash or one of the 56 extensions (case-insensitive); not /path/to/ or /example/', () => {
    for (const w of ['a.py', 'X.PY', 'setup.cfg', 'dir/', 'a/b', "'q.py'", '"s.toml"', 'm.proto']) assert.ok(isLikelyPath(w), w);
    for (const w of ['README', 'Makefile', 'a.rst', 'b.pyi', 'c.pyx', 'MANIFEST.in', '/path/to/x.py', '/example/a.py', '10,20p']) assert.ok(!isLikelyPath(w), w);
  });
  it('quotes are stripped from kept paths', () => {
    assert.deepEqual(reads(`cat "a b.py" 'c.py'`), [
      ['b.py', 1, -1, 'cat', [[1, -1]]],
      ['c.py', 1, -1, 'cat', [[1, -1]]],
    ]);
  });
});

describe('head and tail ranges', () => {
  it('head -n N / -nN: (1, N)', () => {
    assert.deepEqual(reads('head -n 20 a.py'), [['a.py', 1, 20, 'head', [[1, 20]]]]);
    assert.deepEqual(reads('head -n +7 a.py'), [['a.py', 1, 7, 'head', [[1, 7]]]]);
  });
  it('head -20 F is credited as the whole file; the agent saw 1..20', () => {
    assert.deepEqual(reads('head -20 a.py'), [['a.py', 1, -1, 'head', [[1, 20]]]]);
    assert.deepEqual(reads('head --lines=30 a.py'), [['a.py', 1, -1, 'head', [[1, 30]]]]);
  });
  it('head F (no count) keeps the credit; head -n -5 F (all but the last 5) too', () => {
    assert.deepEqual(reads('head a.py'), [['a.py', 1, -1, 'head', [[1, -1]]]]);
    assert.deepEqual(reads('head -n -5 a.py'), [['a.py', 1, -1, 'head', [[1, -1]]]]);
  });
  it('tail -n N: the last N lines (-N, -1)', () => {
    assert.deepEqual(reads('tail -n 5 a.py'), [['a.py', -5, -1, 'tail', [[-5, -1]]]]);
  });
  it('tail -n +5 F: credited as the last 5 lines; the agent saw 5..EOF', () => {
    assert.deepEqual(reads('tail -n +5 a.py'), [['a.py', -5, -1, 'tail', [[5, -1]]]]);
    assert.deepEqual(reads('tail -n+12 a.py'), [['a.py', -12, -1, 'tail', [[12, -1]]]]);
  });
  it('tail -5 F: the whole file', () => {
    assert.deepEqual(reads('tail -5 a.py'), [['a.py', 1, -1, 'tail', [[1, -1]]]]);
  });
  it('the first parsable count wins; Python int() reads signs, underscores and non-ASCII digits', () => {
    assert.deepEqual(reads('head -n x -n 4 a.py'), [['a.py', 1, 4, 'head', [[1, 4]]]]);
    assert.deepEqual(reads('head -n 1_0 a.py'), [['a.py', 1, 10, 'head', [[1, 10]]]]);
    assert.deepEqual(reads('head -n \u0665 a.py'), [['a.py', 1, 5, 'head', [[1, 5]]]]);
  });
});

describe('sed ranges', () => {
  it("'a,bp' and \"a,bp\": a range; 'Np': one line", () => {
    assert.deepEqual(reads("sed -n '10,20p' a.py"), [['a.py', 10, 20, 'sed_range', [[10, 20]]]]);
    assert.deepEqual(reads('sed -n "3,4p" a.py'), [['a.py', 3, 4, 'sed_range', [[3, 4]]]]);
    assert.deepEqual(reads("sed -n '406p' a.py"), [['a.py', 406, 406, 'sed_range', [[406, 406]]]]);
  });
  it("'1,$p', /re/p and unquoted scripts: the whole file", () => {
    assert.deepEqual(reads("sed -n '1,$p' a.py"), [['a.py', 1, -1, 'sed_whole', [[1, -1]]]]);
    assert.deepEqual(reads('sed -n 10,20p a.py'), [['a.py', 1, -1, 'sed_whole', [[1, -1]]]]);
    const pattern = commandReads("sed -n '/foo/p' a.py", '');
    assert.deepEqual(
      pattern.reads.map((r) => [r.path, r.start, r.end, r.idiom]),
      [['a.py', 1, -1, 'sed_whole']],
    );
    // -n swallowed the script, which looks like a path: recorded, never credited.
    assert.deepEqual(
      pattern.swallowed.map((s) => s.path),
      ['/foo/p'],
    );
  });
  it('a script with a blank splits into words: the second half is path-like (dropped later by its characters)', () => {
    assert.deepEqual(reads("sed -n '/def foo/,/^$/p' a.py"), [
      ['foo/,/^$/p', 1, -1, 'sed_whole', [[1, -1]]],
      ['a.py', 1, -1, 'sed_whole', [[1, -1]]],
    ]);
  });
  it('a start of 0 is credited as parsed and seen from line 1', () => {
    assert.deepEqual(reads("sed -n '0,3p' a.py"), [['a.py', 0, 3, 'sed_range', [[1, 3]]]]);
  });
  it('Python \\d: non-ASCII digits in the script', () => {
    assert.deepEqual(reads("sed -n '\u0661\u0660,\u0662\u0660p' a.py"), [['a.py', 10, 20, 'sed_range', [[10, 20]]]]);
  });
});

describe('nl', () => {
  it("nl -ba F | sed -n 'a,bp': the whole file, seen a..b", () => {
    assert.deepEqual(reads("nl -ba a.py | sed -n '120,180p'"), [['a.py', 1, -1, 'nl_pipe', [[120, 180]]]]);
    assert.deepEqual(reads("nl -ba a.py | sed -n '406p'"), [['a.py', 1, -1, 'nl_pipe', [[406, 406]]]]);
  });
  it('a pipe without blanks glues the words: "a.py|sed" is not path-like, so no read', () => {
    assert.deepEqual(reads("nl -ba a.py|sed -n '406p'"), []);
  });
  it("a script cut at ';' keeps the credit", () => {
    assert.deepEqual(reads("nl -ba a.py | sed -n '1,25p;310,320p'"), [['a.py', 1, -1, 'nl_pipe', [[1, -1]]]]);
  });
  it('nl F, nl F | grep, less, more: other_whole', () => {
    assert.deepEqual(reads('nl a.py'), [['a.py', 1, -1, 'other_whole', [[1, -1]]]]);
    assert.deepEqual(reads('nl -ba a.py | grep -n foo'), [['a.py', 1, -1, 'other_whole', [[1, -1]]]]);
    assert.deepEqual(reads('less a.py'), [['a.py', 1, -1, 'other_whole', [[1, -1]]]]);
    assert.deepEqual(reads('more a.py'), [['a.py', 1, -1, 'other_whole', [[1, -1]]]]);
  });
});

describe('grep and rg', () => {
  it('path:line: and path:line- output lines are one-line reads of whatever file they name, deduplicated', () => {
    const output = './src/a.py:12:    foo()\nsrc/b.py:3-ctx\n./src/a.py:12:again\nnot a hit\n';
    assert.deepEqual(reads('grep -rn foo src/', output), [
      ['./src/a.py', 12, 12, 'grep_hit', [[12, 12]]],
      ['src/b.py', 3, 3, 'grep_hit', [[3, 3]]],
    ]);
  });
  it('grep -n pat F prints N: lines without a path: the whole file, seen the numbered lines merged', () => {
    assert.deepEqual(reads('grep -n foo a.py', '12:    foo()\n13-    x\n40:foo\n'), [
      [
        'a.py',
        1,
        -1,
        'grep_whole',
        [
          [12, 13],
          [40, 40],
        ],
      ],
    ]);
  });
  it('no output, or output without numbers: the whole file, credit as seen', () => {
    assert.deepEqual(reads('grep foo a.py'), [['a.py', 1, -1, 'grep_whole', [[1, -1]]]]);
    assert.deepEqual(reads('grep foo a.py', 'foo()\n'), [['a.py', 1, -1, 'grep_whole', [[1, -1]]]]);
  });
  it('-C context lines p-12- are not hits', () => {
    assert.deepEqual(reads('grep -C 2 foo a.py b.py', 'a.py-12-  x\n'), [
      ['a.py', 1, -1, 'grep_whole', [[1, -1]]],
      ['b.py', 1, -1, 'grep_whole', [[1, -1]]],
    ]);
  });
  it('a directory argument is kept as a path (it is dropped later as not a file)', () => {
    assert.deepEqual(reads('grep -r foo dir/'), [['dir/', 1, -1, 'grep_whole', [[1, -1]]]]);
  });
  it('rg: hits count, but without hits nothing; "rg" must be followed by a space', () => {
    assert.deepEqual(reads('rg -n foo', 'a.py:3:foo\n'), [['a.py', 3, 3, 'grep_hit', [[3, 3]]]]);
    assert.deepEqual(reads('rg foo a.py'), []);
    assert.deepEqual(reads('rg\tfoo a.py', 'a.py:3:foo\n'), []);
  });
  it('git grep, find | xargs grep: not grep commands', () => {
    assert.deepEqual(reads('git grep -n foo', 'a.py:3:foo\n'), []);
    assert.deepEqual(reads('find . -name "*.py" | xargs grep foo', 'a.py:3:foo\n'), []);
  });
  it('output lines split as Python splitlines does (\\r, \\x1c, U+2028 …)', () => {
    assert.deepEqual(reads('grep -rn foo .', 'a.py:1:x\rb.py:2:y\u2028c.py:3:z'), [
      ['a.py', 1, 1, 'grep_hit', [[1, 1]]],
      ['b.py', 2, 2, 'grep_hit', [[2, 2]]],
      ['c.py', 3, 3, 'grep_hit', [[3, 3]]],
    ]);
  });
});

describe('heredoc writes', () => {
  it("cat <<'EOF' > F: every read of the command is a heredoc write, seen nothing", () => {
    const command = 'cat <<\'EOF\' > repro.py\nfrom pkg import mod\nprint(open("src/x.py").read())\nEOF';
    assert.deepEqual(reads(command), [
      ['repro.py', 1, -1, 'heredoc_write', []],
      ['print(open("src/x.py").read())', 1, -1, 'heredoc_write', []],
    ]);
  });
  it('cat > F <<EOF and cat <<EOF >> F', () => {
    assert.deepEqual(reads('cat > a/b.py <<EOF\nx = 1\nEOF'), [['a/b.py', 1, -1, 'heredoc_write', []]]);
    assert.deepEqual(reads('cat <<EOF >> a/b.py\nx = 1\nEOF'), [['a/b.py', 1, -1, 'heredoc_write', []]]);
  });
  it('pieces of the body split off by ; are part of the write', () => {
    const command = "cat <<'EOF' > t.py\nimport os; cat = 1\nhead -n 5 src/a.py; x = 2\nEOF\n";
    assert.deepEqual(reads(command), [
      ['t.py', 1, -1, 'heredoc_write', []],
      ['src/a.py', 1, -1, 'heredoc_write', []],
    ]);
  });
  it('a read after the heredoc in a later segment is its own idiom', () => {
    assert.deepEqual(reads("cat <<'EOF' > t.py\nx\nEOF\n&& cat src/a.py"), [
      ['t.py', 1, -1, 'heredoc_write', []],
      ['src/a.py', 1, -1, 'cat', [[1, -1]]],
    ]);
  });
  it('cat <<< (a here-string) is not a heredoc', () => {
    assert.deepEqual(reads('cat <<< "a/b.py"'), [['a/b.py', 1, -1, 'cat', [[1, -1]]]]);
  });
});

describe('not reads', () => {
  it('ls, find, python, pytest, git show, awk, vim', () => {
    for (const c of ['ls src/a.py', 'find . -name a.py', 'python a.py', 'pytest tests/test_a.py', 'git show HEAD:a.py', "awk 'NR<5' a.py", 'vim a.py']) assert.deepEqual(reads(c), [], c);
  });
});
