import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseAnswerInRepo, parseAnswerText } from '../../../src/data/formats/answerFormat';
import type { Region } from '../../../src/core/types';

const r = (p: string, start: number, end: number): Region => ({ path: p, start, end });
const regions = (text: string): Region[] => parseAnswerText(text).regions;

describe('parseAnswerText: block detection', () => {
  it('reads a bullet block and stops at the first non-bullet line', () => {
    const text = 'Intro\nRELEVANT_FILES:\n- a.py:1-2\n* b.py:3\nc.py:4\n- d.py:5';
    const parsed = parseAnswerText(text);
    assert.deepEqual(parsed.regions, [r('a.py', 1, 2), r('b.py', 3, 3)]);
    assert.equal(parsed.source, 'block');
    assert.equal(parsed.blockLine, 2);
    assert.deepEqual(
      parsed.entries.map((e) => e.line),
      [3, 4],
    );
  });

  it('allows trailing spaces and blank lines after the header', () => {
    assert.deepEqual(regions('RELEVANT_FILES:   \n\n\n- a.py:7'), [r('a.py', 7, 7)]);
  });

  it('requires a newline after the header', () => {
    // No newline: no block; prose sweeping still finds the location.
    const parsed = parseAnswerText('RELEVANT_FILES: a.py:1-3');
    assert.equal(parsed.source, 'prose');
    assert.deepEqual(parsed.regions, [r('a.py', 1, 3)]);
  });

  it('falls back to the run of non-empty lines', () => {
    const text = 'RELEVANT_FILES:\nsrc/a.py:10-20\n1. src/b.py:5\n2) src/c.py\n\nsrc/d.py:1-2';
    assert.deepEqual(regions(text), [r('src/a.py', 10, 20), r('src/b.py', 5, 5), r('src/c.py', 1, -1)]);
  });

  it('prefers a later header with bullets over an earlier one without', () => {
    const text = 'RELEVANT_FILES:\nnot/a_bullet.py:1\n\nFinal answer:\nRELEVANT_FILES:\n- x/y.py:2-3\n';
    assert.deepEqual(regions(text), [r('x/y.py', 2, 3)]);
  });

  it('indented bullets are not bullets (fallback block takes them)', () => {
    const parsed = parseAnswerText('RELEVANT_FILES:\n  - a/b.py:1-2\n  - a/c.py:3\n');
    assert.deepEqual(parsed.regions, [r('a/b.py', 1, 2), r('a/c.py', 3, 3)]);
  });

  it('handles CRLF answers', () => {
    assert.deepEqual(regions('RELEVANT_FILES:\r\n- a.py:1-2\r\n- b.py\r\n'), [r('a.py', 1, 2), r('b.py', 1, -1)]);
  });

  it('keeps duplicates and order; topK applies after parsing', () => {
    const text = 'RELEVANT_FILES:\n- b.py:9\n- a.py:1\n- bad.py:3-\n- b.py:9\n- c.py';
    assert.deepEqual(regions(text), [r('b.py', 9, 9), r('a.py', 1, 1), r('b.py', 9, 9), r('c.py', 1, -1)]);
    assert.deepEqual(parseAnswerText(text, { topK: 3 }).regions, [r('b.py', 9, 9), r('a.py', 1, 1), r('b.py', 9, 9)]);
    assert.equal(parseAnswerText(text, { topK: 0 }).regions.length, 4);
  });

  it('no header, no location: nothing', () => {
    const parsed = parseAnswerText('I am not sure.');
    assert.deepEqual(parsed, { regions: [], entries: [], skipped: [], source: 'none' });
  });
});

describe('parseAnswerText: entry grammar', () => {
  const cases: Array<[string, Region | null]> = [
    ['a.py', r('a.py', 1, -1)],
    ['a.py:12', r('a.py', 12, 12)],
    ['a.py:12-30', r('a.py', 12, 30)],
    ['a.py: 12 - 30', r('a.py', 12, 30)],
    ['a.py:L12-L30', r('a.py', 12, 30)],
    ['a.py:l12', r('a.py', 12, 12)],
    ['a.py:12\u201330', r('a.py', 12, 30)],
    ['a.py:12 \u2014 30', r('a.py', 12, 30)],
    ['`a.py:12-30`', r('a.py', 12, 30)],
    ['**a.py:12-30**', r('a.py', 12, 30)],
    ['"a.py":12', r('a.py', 12, 12)],
    ["'pkg/a.py'", r('pkg/a.py', 1, -1)],
    ['a.py:12-30.', r('a.py', 12, 30)],
    ['a.py:12-30 (the parser)', r('a.py', 12, 30)],
    ['a.py:12-30 # main loop', r('a.py', 12, 30)],
    ['a.py (whole file)', r('a.py', 1, -1)],
    ['a.py:12-30, extra words', r('a.py', 12, 30)],
    ['./pkg/a.py:3', r('pkg/a.py', 3, 3)],
    ['././pkg/a.py:3', r('pkg/a.py', 3, 3)],
    ['pkg\\sub\\a.py:3', r('pkg/sub/a.py', 3, 3)],
    ['/testbed/pkg/a.py:3-4', r('pkg/a.py', 3, 4)],
    ['/workspace/repo/pkg/a.py:3', r('pkg/a.py', 3, 3)],
    ['/workspace/a.py:3', r('a.py', 3, 3)],
    ['/opt/swe/data/repos/org__r-1/pkg/a.py:3', r('pkg/a.py', 3, 3)],
    ['/usr/lib/x.py:3', r('/usr/lib/x.py', 3, 3)],
    ['C:\\repo\\a.py:3', r('C:/repo/a.py', 3, 3)],
    ['C:\\repo\\a.py', r('C:/repo/a.py', 1, -1)],
    ['Makefile:1-5', r('Makefile', 1, 5)],
    ['a.py:\u0661\u0662', r('a.py', 12, 12)],
    // Rejected or dropped:
    ['a.py:3-', null],
    ['a.py:0-3', null],
    ['a.py:5-3', null],
    ['a.py:-5', null],
    ['a.py:x', null],
    ['a.py:3--5', null],
    ['Makefile', null],
    ['README', null],
    ['``', null],
  ];
  for (const [entry, want] of cases) {
    it(JSON.stringify(entry), () => {
      const parsed = parseAnswerText(`RELEVANT_FILES:\n- ${entry}\n`);
      assert.deepEqual(parsed.regions, want === null ? [] : [want]);
    });
  }

  it('reports skipped entries with reasons and lines', () => {
    const parsed = parseAnswerText('RELEVANT_FILES:\n- a.py:3-\n- README\n- ok.py:1\n- ``\n');
    assert.deepEqual(
      parsed.skipped.map((s) => [s.line, s.reason, s.text]),
      [
        [2, 'invalid-range', 'a.py:3-'],
        [3, 'bare-name', 'README'],
      ],
    );
  });
});

describe('parseAnswerText: prose sweeping', () => {
  it('harvests location tokens from prose when there is no block', () => {
    const text = 'The bug is in pkg/mod.py : 12 - 30 and "x.py":4; it\'s also in `y.ts`:7-9.\nSee (z/w.go:3) too.';
    assert.deepEqual(regions(text), [r('pkg/mod.py', 12, 30), r('x.py', 4, 4), r('y.ts', 7, 9), r('z/w.go', 3, 3)]);
    assert.deepEqual(
      parseAnswerText(text).entries.map((e) => e.line),
      [1, 1, 1, 2],
    );
  });

  it('only takes tokens with a known extension followed by a colon', () => {
    assert.deepEqual(regions('a.pyc:3 b.exe:4 c.py 12 d.rs:5 Makefile:2'), [r('d.rs', 5, 5)]);
  });

  it('a dangling range in prose stays invalid instead of shrinking', () => {
    const parsed = parseAnswerText('look at a.py:3 - and more');
    assert.deepEqual(parsed.regions, []);
    assert.equal(parsed.skipped[0]?.reason, 'invalid-range');
  });

  it('rejected block entries are not retried as prose, but prose outside the block is swept', () => {
    const text = 'Before b.py:1-2\nRELEVANT_FILES:\n- a.py:0-3\n- c.py:9-1\nAfter d.py:5';
    const parsed = parseAnswerText(text);
    assert.deepEqual(parsed.regions, [r('b.py', 1, 2), r('d.py', 5, 5)]);
    assert.equal(parsed.source, 'prose');
    assert.deepEqual(
      parsed.entries.map((e) => e.line),
      [1, 5],
    );
    assert.deepEqual(
      parsed.skipped.map((s) => s.line),
      [3, 4],
    );
  });

  it('does not sweep prose when the block yields regions', () => {
    assert.deepEqual(regions('RELEVANT_FILES:\n- a.py:1\n\nalso b.py:2'), [r('a.py', 1, 1)]);
  });

  it('parses the sample fixture', async () => {
    const text = await readFile(path.join(__dirname, 'fixtures-data', 'answer.sample.txt'), 'utf8');
    const parsed = parseAnswerText(text);
    assert.deepEqual(parsed.regions, [r('astropy/modeling/separable.py', 219, 247), r('astropy/modeling/separable.py', 290, 311), r('astropy/modeling/core.py', 1, -1)]);
    assert.deepEqual(
      parsed.skipped.map((s) => s.reason),
      ['invalid-range', 'bare-name'],
    );
  });
});

describe('parseAnswerInRepo', () => {
  let base: string;
  let root: string;
  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'data-answer-'));
    root = path.join(base, 'org__repo-1');
    await mkdir(path.join(root, 'pkg'), { recursive: true });
    await mkdir(path.join(base, 'outside'));
    await writeFile(path.join(root, 'pkg', 'a.py'), 'x\n');
    await writeFile(path.join(root, 'Makefile'), 'all:\n');
    await writeFile(path.join(base, 'outside', 'secret.py'), 'x\n');
    await symlink(path.join(base, 'outside', 'secret.py'), path.join(root, 'pkg', 'leak.py'));
    await symlink(path.join(root, 'pkg', 'a.py'), path.join(root, 'alias.py'));
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const inRepo = async (entry: string): Promise<Region[]> => (await parseAnswerInRepo(`RELEVANT_FILES:\n- ${entry}\n`, root)).regions;

  it('accepts existing files and stores POSIX relative paths', async () => {
    assert.deepEqual(await inRepo('pkg/a.py:3-4'), [r('pkg/a.py', 3, 4)]);
    assert.deepEqual(await inRepo('./pkg/a.py'), [r('pkg/a.py', 1, -1)]);
    assert.deepEqual(await inRepo('pkg\\a.py:2'), [r('pkg/a.py', 2, 2)]);
    assert.deepEqual(await inRepo('Makefile'), [r('Makefile', 1, -1)]);
  });

  it('maps container prefixes and a leading repo-directory name', async () => {
    assert.deepEqual(await inRepo('/testbed/pkg/a.py:1'), [r('pkg/a.py', 1, 1)]);
    assert.deepEqual(await inRepo('/workspace/org__repo-1/pkg/a.py:1'), [r('pkg/a.py', 1, 1)]);
    assert.deepEqual(await inRepo('org__repo-1/pkg/a.py:1'), [r('pkg/a.py', 1, 1)]);
    assert.deepEqual(await inRepo(`${root}/pkg/a.py:1`), [r('pkg/a.py', 1, 1)]);
  });

  it('stores the real path of a symlink that stays inside', async () => {
    assert.deepEqual(await inRepo('alias.py:1'), [r('pkg/a.py', 1, 1)]);
  });

  it('refuses missing files, directories, escapes and outside symlinks', async () => {
    for (const entry of ['pkg/missing.py:1', 'pkg', '../outside/secret.py', '../../etc/passwd', 'pkg/leak.py', '/etc/passwd', 'C:/x/a.py', `${base}/outside/secret.py`]) {
      const parsed = await parseAnswerInRepo(`RELEVANT_FILES:\n- ${entry}\n`, root);
      assert.deepEqual(parsed.regions, [], entry);
      assert.equal(parsed.skipped[0]?.reason, 'unresolvable-path', entry);
    }
  });

  it('a missing root resolves nothing', async () => {
    const parsed = await parseAnswerInRepo('RELEVANT_FILES:\n- pkg/a.py\n', path.join(base, 'nope'));
    assert.deepEqual(parsed.regions, []);
    assert.equal(parsed.skipped.length, 1);
  });
});
