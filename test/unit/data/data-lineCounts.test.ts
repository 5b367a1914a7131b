import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { LineCountCache, countLines, snapshotLineCounts } from '../../../src/data/workspace/lineCounts';
import { cpuNow } from '../support/cpu-time';

const bytes = (...parts: Array<string | number[]>): Uint8Array => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

// ---------------------------------------------------------------------------------------------
// Naive model of Python's rule, written differently from the scanner: decode one character at a
// time with a strict decoder (dropping a byte whenever no 1–4 byte prefix is a valid character —
// equivalent to dropping maximal ill-formed subparts, since continuation bytes can never start a
// character), translate universal newlines, then split like str.splitlines().

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeIgnore(buf: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < buf.length) {
    let ok = false;
    for (let len = 1; len <= 4 && i + len <= buf.length; len++) {
      try {
        const ch = strict.decode(buf.subarray(i, i + len));
        if ([...ch].length === 1) {
          out += ch;
          i += len;
          ok = true;
          break;
        }
      } catch {
        // try a longer prefix
      }
    }
    if (!ok) i += 1;
  }
  return out;
}

function naiveCount(buf: Uint8Array): number {
  const text = decodeIgnore(buf).replace(/\r\n/g, '\n').replace(/\r/g, '\n');
  const parts = text.split(/[\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  // splitlines: a trailing break adds no element; empty text has none.
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.length;
}

describe('countLines (evaluator rule, metrics-spec §2)', () => {
  const cases: Array<[string, Uint8Array, number]> = [
    ['empty file', bytes(''), 0],
    ['one line, no newline', bytes('a'), 1],
    ['one line with newline', bytes('a\n'), 1],
    ['two lines, no trailing newline', bytes('a\nb'), 2],
    ['two lines, trailing newline', bytes('a\nb\n'), 2],
    ['only a newline', bytes('\n'), 1],
    ['two newlines', bytes('\n\n'), 2],
    ['CRLF is one break', bytes('a\r\nb\r\n'), 2],
    ['lone CR is a break', bytes('a\rb\r'), 2],
    ['CR CR LF is two breaks', bytes('a\r\r\nb'), 3],
    ['LF CR is two breaks', bytes('a\n\rb'), 3],
    ['mixed \\n \\r \\r\\n', bytes('a\nb\rc\r\nd'), 4],
    ['trailing lone CR', bytes('a\r'), 1],
    ['vertical tab and form feed break', bytes('a\vb\fc'), 3],
    ['\\x1c \\x1d \\x1e break', bytes('a\x1cb\x1dc\x1ed'), 4],
    ['\\x1f does not break', bytes('a\x1fb'), 1],
    ['U+0085 (C2 85) breaks', bytes('a', [0xc2, 0x85], 'b'), 2],
    ['lone 0x85 byte is dropped, not a break', bytes('a', [0x85], 'b'), 1],
    ['lone 0x85 after newline adds no line', bytes('a\n', [0x85]), 1],
    ['U+2028 breaks', bytes('a', [0xe2, 0x80, 0xa8], 'b'), 2],
    ['U+2029 breaks', bytes('a', [0xe2, 0x80, 0xa9], 'b'), 2],
    ['U+2028 at end adds no line', bytes('a', [0xe2, 0x80, 0xa8]), 1],
    ['truncated E2 80 is dropped', bytes('a\n', [0xe2, 0x80]), 1],
    ['BOM alone is one line', bytes([0xef, 0xbb, 0xbf]), 1],
    ['BOM then text', bytes([0xef, 0xbb, 0xbf], 'a\nb\n'), 2],
    ['BOM then newline', bytes([0xef, 0xbb, 0xbf], '\n'), 1],
    ['only invalid bytes', bytes([0xff, 0xfe, 0x80, 0xc0]), 0],
    ['invalid bytes after last newline do not count', bytes('a\n', [0xff, 0xfe]), 1],
    ['invalid bytes between lines keep the empty line', bytes('a\n', [0xff], '\nb'), 3],
    ['CR, dropped byte, LF is one break', bytes('a\r', [0xff], '\nb'), 2],
    ['CR, truncated sequence, LF is one break', bytes('a\r', [0xe2, 0x80], '\nb'), 2],
    ['valid multibyte keeps the tail', bytes('a\n', [0xc3, 0xa9]), 2],
    ['4-byte emoji', bytes([0xf0, 0x9f, 0x98, 0x80], '\n', [0xf0, 0x9f, 0x98, 0x80]), 2],
    ['surrogate encoding ED A0 80 is invalid', bytes('a\n', [0xed, 0xa0, 0x80]), 1],
    ['overlong E0 80 80 is invalid', bytes('a\n', [0xe0, 0x80, 0x80]), 1],
    ['F4 90 (beyond U+10FFFF) is invalid', bytes('a\n', [0xf4, 0x90, 0x80, 0x80]), 1],
    ['C2 before a break keeps the break', bytes('a', [0xc2], '\nb'), 2],
    ['E2 then C2 85: the break survives', bytes('a', [0xe2, 0xc2, 0x85], 'b'), 2],
    ['C2 85 right after CR is a second break', bytes('a\r', [0xc2, 0x85], 'b'), 3],
    ['E2 80 85 is U+2005, not a break', bytes('a', [0xe2, 0x80, 0x85], 'b'), 1],
    ['NUL is an ordinary character', bytes([0x00]), 1],
  ];
  for (const [name, buf, want] of cases) {
    it(name, () => {
      assert.equal(countLines(buf), want);
      assert.equal(naiveCount(buf), want, 'naive model disagrees with the expected value');
    });
  }

  it('agrees with the naive model on random byte strings built from tricky pieces', () => {
    const pieces = [
      [0x0a],
      [0x0d],
      [0x0d, 0x0a],
      [0x61],
      [0x0b],
      [0x0c],
      [0x1c],
      [0x1d],
      [0x1e],
      [0x1f],
      [0xc2, 0x85],
      [0x85],
      [0xc2],
      [0xe2, 0x80, 0xa8],
      [0xe2, 0x80, 0xa9],
      [0xe2, 0x80],
      [0xe2],
      [0xff],
      [0xef, 0xbb, 0xbf],
      [0xf0, 0x9f, 0x98, 0x80],
      [0xf0, 0x9f],
      [0xed, 0xa0, 0x80],
      [0xe0, 0x80, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xc0, 0x8a],
      [0x20],
      [0xa8],
      [0x80],
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const buf = Uint8Array.from(parts.flat());
        return countLines(buf) === naiveCount(buf);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the naive model on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (buf) => countLines(buf) === naiveCount(buf)),
      { numRuns: 3000 },
    );
  });

  it('counts a large ASCII file quickly', () => {
    const buf = Buffer.from('x = 1\n'.repeat(2_000_000));
    const t0 = cpuNow();
    assert.equal(countLines(buf), 2_000_000);
    assert.ok(cpuNow() - t0 < 2000);
  });
});

describe('snapshotLineCounts and LineCountCache', () => {
  let root: string;
  let outside: string;

  before(async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'data-lc-'));
    root = path.join(base, 'snap');
    outside = path.join(base, 'outside');
    await mkdir(path.join(root, 'pkg'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(root, 'pkg', 'a.py'), 'a\nb\nc\n');
    await writeFile(path.join(root, 'pkg', 'crlf.py'), 'a\r\nb');
    await writeFile(path.join(root, 'empty.py'), '');
    await writeFile(path.join(outside, 'secret.txt'), 'top\nsecret\n');
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'leak.txt'));
    await symlink(path.join(root, 'pkg', 'a.py'), path.join(root, 'alias.py'));
  });

  after(async () => {
    await rm(path.dirname(root), { recursive: true, force: true });
  });

  it('counts existing files and reports the others', async () => {
    const result = await snapshotLineCounts(root, ['pkg/a.py', 'pkg/crlf.py', 'empty.py', 'alias.py', 'missing.py', '../outside/secret.txt', '/etc/passwd', 'leak.txt', 'pkg', 'pkg/a.py'], {
      location: { file: 'bench.jsonl', line: 7, instanceId: 'x__y-1' },
    });
    assert.deepEqual(
      [...result.counts],
      [
        ['pkg/a.py', 3],
        ['pkg/crlf.py', 2],
        ['empty.py', 0],
        ['alias.py', 3],
      ],
    );
    assert.deepEqual(Object.fromEntries(result.failures), {
      'missing.py': 'missing',
      '../outside/secret.txt': 'escapes-root',
      '/etc/passwd': 'absolute',
      'leak.txt': 'symlink-escape',
      pkg: 'not-a-file',
    });
    const codes = result.problems.map((p) => [p.code, p.severity, p.line, p.file, p.instanceId]);
    assert.deepEqual(codes, [
      ['missing-file', 'warning', 7, 'bench.jsonl', 'x__y-1'],
      ['path-escapes-root', 'error', 7, 'bench.jsonl', 'x__y-1'],
      ['path-absolute', 'error', 7, 'bench.jsonl', 'x__y-1'],
      ['symlink-escape', 'error', 7, 'bench.jsonl', 'x__y-1'],
      ['not-a-file', 'warning', 7, 'bench.jsonl', 'x__y-1'],
    ]);
  });

  it('a missing root yields no counts and one problem per path', async () => {
    const result = await snapshotLineCounts(path.join(root, 'nope'), ['a.py']);
    assert.equal(result.counts.size, 0);
    assert.equal(result.failures.get('a.py'), 'missing');
    assert.equal(result.problems[0]?.line, 0);
  });

  it('the cache re-reads a file only when mtime or size change', async () => {
    const cache = new LineCountCache();
    const file = path.join(root, 'pkg', 'cached.py');
    await writeFile(file, '1\n2\n');
    const t = new Date('2020-01-01T00:00:00Z');
    await utimes(file, t, t);
    assert.equal(await cache.count(file), 2);
    assert.equal(cache.size, 1);
    // Same size and mtime: the cached value is served (proves the key is (path, mtime, size)).
    await writeFile(file, '1\r2\r');
    await utimes(file, t, t);
    assert.equal(await cache.count(file), 2);
    // Same size, new mtime: re-counted.
    await writeFile(file, 'x\ny\n');
    await utimes(file, new Date('2021-01-01T00:00:00Z'), new Date('2021-01-01T00:00:00Z'));
    assert.equal(await cache.count(file), 2);
    // New size, same mtime: re-counted.
    await writeFile(file, '1\n2\n3\n');
    await utimes(file, t, t);
    assert.equal(await cache.count(file), 3);
    cache.clear();
    assert.equal(cache.size, 0);
  });

  it('the cache is bounded', async () => {
    const cache = new LineCountCache(2);
    for (const name of ['b1.py', 'b2.py', 'b3.py']) {
      const file = path.join(root, name);
      await writeFile(file, 'x\n');
      await cache.count(file);
    }
    assert.equal(cache.size, 2);
  });

  it('rejects when the file cannot be read', async () => {
    await assert.rejects(new LineCountCache().count(path.join(root, 'nope.py')));
  });
});
