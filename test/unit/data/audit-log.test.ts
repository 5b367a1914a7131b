import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  acceptEvent,
  appendAuditEvent,
  auditFileFor,
  coreRemovalsByAuthor,
  defaultAuthor,
  parseAuditText,
  readAuditFolder,
  removalsByInstance,
  removedText,
  removeEvent,
  restoreEvent,
  sanitizeAuthor,
  textSha,
  type NewRemoval,
} from '../../../src/data/audit/auditLog';
import { cpuNow } from '../support/cpu-time';

const AUDIT_LOG_MODULE = path.resolve(__dirname, '../../../src/data/audit/auditLog.ts');

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'swe-audit-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const removal = (over: Partial<NewRemoval> = {}): NewRemoval => ({
  instanceId: 'org__repo-1',
  layer: 'core',
  model: null,
  path: 'a.py',
  start: 3,
  end: 5,
  reason: 'incidental-read',
  note: null,
  author: 'alice',
  textSha: null,
  ...over,
});

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
const AT = new Date('2026-01-02T03:04:05.000Z');

describe('audit events', () => {
  it('are written with the exact schema keys, in order', () => {
    assert.deepEqual(Object.keys(removeEvent(removal())), ['v', 'op', 'id', 'instance_id', 'layer', 'model', 'path', 'start', 'end', 'reason', 'note', 'author', 'at', 'text_sha']);
    assert.deepEqual(Object.keys(restoreEvent('x', 'alice')), ['v', 'op', 'id', 'target', 'author', 'at']);
    assert.deepEqual(Object.keys(acceptEvent('i', 'alice')), ['v', 'op', 'id', 'instance_id', 'author', 'at']);
    const e = removeEvent(removal(), AT, 'id-1');
    assert.equal(
      JSON.stringify(e),
      '{"v":1,"op":"remove","id":"id-1","instance_id":"org__repo-1","layer":"core","model":null,"path":"a.py","start":3,"end":5,"reason":"incidental-read","note":null,"author":"alice","at":"2026-01-02T03:04:05.000Z","text_sha":null}',
    );
    assert.match(removeEvent(removal()).id, /^[0-9a-f-]{36}$/);
  });

  it('round-trip through the parser', () => {
    const text = line(removeEvent(removal(), AT, 'r1')) + line(acceptEvent('org__repo-2', 'bob', AT, 'a1')) + line(restoreEvent('r1', 'alice', AT, 's1'));
    const parsed = parseAuditText(text, 'f.jsonl');
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.events.map((e) => e.op),
      ['remove', 'accept', 'restore'],
    );
    const r = parsed.events[0]!;
    assert.ok(r.op === 'remove');
    assert.equal(r.instanceId, 'org__repo-1');
    assert.equal(r.line, 1);
  });
});

describe('parseAuditText on damaged files', () => {
  const good = (id: string): string => line(removeEvent(removal(), AT, id));

  it('a torn last line is a warning; earlier events stay', () => {
    const text = good('r1') + good('r2') + '{"v":1,"op":"remove","id":"r3","inst';
    const parsed = parseAuditText(text, 'f.jsonl');
    assert.deepEqual(
      parsed.events.map((e) => (e.op === 'remove' ? e.id : '?')),
      ['r1', 'r2'],
    );
    assert.equal(parsed.problems.length, 1);
    assert.equal(parsed.problems[0]!.code, 'audit-torn-line');
    assert.equal(parsed.problems[0]!.severity, 'warning');
    assert.equal(parsed.problems[0]!.line, 3);
  });

  it('a hand-edited invalid line in the middle is an error at its line and skipped', () => {
    const text = good('r1') + '{"v":1,"op":"remove", oops}\n' + line({ ...removeEvent(removal(), AT, 'r3'), start: 'three' }) + good('r4');
    const parsed = parseAuditText(text, 'f.jsonl');
    assert.deepEqual(
      parsed.events.map((e) => (e.op === 'remove' ? e.id : '?')),
      ['r1', 'r4'],
    );
    assert.deepEqual(
      parsed.problems.map((p) => [p.line, p.code, p.severity]),
      [
        [2, 'audit-event-invalid', 'error'],
        [3, 'audit-event-invalid', 'error'],
      ],
    );
    assert.match(parsed.problems[1]!.message, /"start"/);
    assert.equal(parsed.problems[1]!.instanceId, 'org__repo-1');
  });

  it('unknown ops and unknown fields are kept and ignored; CRLF and blank lines are fine', () => {
    const text = `${JSON.stringify({ v: 1, op: 'comment', id: 'c1', text: 'hi' })}\r\n\n${JSON.stringify({ ...removeEvent(removal(), AT, 'r1'), extra: { nested: [1] } })}\r\n`;
    const parsed = parseAuditText(text, 'f.jsonl');
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.events.map((e) => e.op),
      ['unknown', 'remove'],
    );
    assert.equal(parsed.events[1]!.line, 3);
  });

  it('rejects wrong shapes: model on core, inverted span, bad sha, bad date, other versions', () => {
    const base = removeEvent(removal(), AT, 'r');
    const bad = [
      { ...base, model: 'm' },
      { ...base, start: 5, end: 4 },
      { ...base, start: 0 },
      { ...base, text_sha: 'abc' },
      { ...base, at: 'yesterday' },
      { ...base, v: 2 },
      { ...base, layer: 'gold' },
      [1, 2],
      null,
    ];
    const parsed = parseAuditText(bad.map(line).join(''), 'f.jsonl');
    assert.equal(parsed.events.length, 0);
    assert.equal(parsed.problems.length, bad.length);
  });

  it('never throws on hostile content, and stays linear', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json(), fc.constantFrom('{"__proto__":{"x":1},"v":1,"op":"accept"}', '[[[[', '"\\u12')), { maxLength: 20 }), (parts) => {
        parseAuditText(parts.join('\n'), 'f.jsonl');
      }),
    );
    const deep = `${'['.repeat(100_000)}\n${'{"a":'.repeat(50_000)}`;
    const started = cpuNow();
    const parsed = parseAuditText(deep, 'f.jsonl');
    assert.equal(parsed.problems.length, 2);
    assert.ok(cpuNow() - started < 2_000);
  });
});

describe('readAuditFolder', () => {
  it('folds every author: restores cancel removes; a restore by another author is a conflict', async () => {
    const folder = path.join(dir, 'fold');
    await appendAuditEvent(folder, removeEvent(removal({ author: 'alice' }), AT, 'r1'));
    await appendAuditEvent(folder, removeEvent(removal({ author: 'alice', start: 10, end: 12 }), AT, 'r2'));
    await appendAuditEvent(folder, removeEvent(removal({ author: 'bob', instanceId: 'org__repo-2' }), AT, 'r3'));
    await appendAuditEvent(folder, restoreEvent('r1', 'alice', AT, 's1'));
    await appendAuditEvent(folder, restoreEvent('r2', 'bob', AT, 's2'));
    await appendAuditEvent(folder, acceptEvent('org__repo-9', 'bob', AT, 'a1'));
    await appendAuditEvent(folder, { v: 1, op: 'restore', id: 's3', target: 'nope', author: 'bob', at: AT.toISOString() });
    await writeFile(path.join(folder, 'carol.jsonl'), `${JSON.stringify({ v: 1, op: 'future', id: 'z' })}\n`, { flag: 'a' });
    await writeFile(path.join(folder, 'notes.txt'), 'not an audit file');

    const read = await readAuditFolder(folder);
    assert.deepEqual(
      read.effectiveRemovals.map((r) => r.id),
      ['r3'],
    );
    assert.deepEqual(read.accepted, [{ instanceId: 'org__repo-9', author: 'bob', id: 'a1' }]);
    assert.equal(read.conflicts.length, 1);
    assert.equal(read.conflicts[0]!.restore.id, 's2');
    assert.equal(read.conflicts[0]!.target.id, 'r2');
    assert.deepEqual(read.problems.map((p) => p.code).sort(), ['audit-conflict', 'audit-event-invalid']);
    assert.equal(read.events.length, 8);
    assert.deepEqual([...removalsByInstance(read.effectiveRemovals)], [['org__repo-2', [{ layer: 'core', model: null, path: 'a.py', start: 3, end: 5 }]]]);
  });

  it('duplicate ids keep the first event', async () => {
    const folder = path.join(dir, 'dups');
    const e = removeEvent(removal(), AT, 'same');
    await appendAuditEvent(folder, e);
    await appendAuditEvent(folder, e);
    const read = await readAuditFolder(folder);
    assert.equal(read.effectiveRemovals.length, 1);
    assert.equal(read.problems.length, 1);
    assert.equal(read.problems[0]!.line, 2);
  });

  it('a missing folder is an empty audit', async () => {
    const read = await readAuditFolder(path.join(dir, 'does-not-exist'));
    assert.deepEqual(read, { events: [], effectiveRemovals: [], accepted: [], conflicts: [], disputedIds: [], problems: [] });
  });
});

describe('appendAuditEvent', () => {
  it('after a torn line, the next event starts on a new line; nothing is rewritten', async () => {
    const folder = path.join(dir, 'torn');
    await appendAuditEvent(folder, removeEvent(removal(), AT, 'r1'));
    const file = auditFileFor(folder, 'alice');
    await writeFile(file, '{"v":1,"op":"rem', { flag: 'a' });
    const beforeText = await readFile(file, 'utf8');
    await appendAuditEvent(folder, removeEvent(removal(), AT, 'r2'));
    const afterText = await readFile(file, 'utf8');
    assert.ok(afterText.startsWith(beforeText));
    const read = await readAuditFolder(folder);
    assert.deepEqual(
      read.effectiveRemovals.map((r) => r.id),
      ['r1', 'r2'],
    );
    assert.deepEqual(
      read.problems.map((p) => [p.line, p.code]),
      [[2, 'audit-event-invalid']],
    );
  });

  it('two processes appending 500 events each to the same file: 1000 intact lines', async () => {
    const folder = path.join(dir, 'concurrent');
    const script = path.join(dir, 'append-child.ts');
    await writeFile(
      script,
      `import { appendAuditEvent, removeEvent } from ${JSON.stringify(AUDIT_LOG_MODULE)};
const [folder, tag] = process.argv.slice(2);
(async () => {
  for (let i = 0; i < 500; i++) {
    await appendAuditEvent(folder!, removeEvent({ instanceId: tag + '-' + i, layer: 'core', model: null, path: 'p/' + 'x'.repeat(i % 300) + '.py', start: 1, end: i + 1, reason: 'other', note: 'n'.repeat(i * 7 % 5000), author: 'shared', textSha: null }));
  }
})();
`,
    );
    const run = (tag: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, folder, tag], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code ?? -1));
      });
    const codes = await Promise.all([run('a'), run('b')]);
    assert.deepEqual(codes, [0, 0]);
    const text = await readFile(auditFileFor(folder, 'shared'), 'utf8');
    assert.ok(text.endsWith('\n'));
    // Blank lines are tolerated (see endsMidLine); every other line is one whole event.
    const lines = text.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 1000);
    for (const l of lines) JSON.parse(l);
    const read = await readAuditFolder(folder);
    assert.deepEqual(read.problems, []);
    assert.equal(read.effectiveRemovals.length, 1000);
    assert.equal(new Set(read.effectiveRemovals.map((r) => r.instanceId)).size, 1000);
  });
});

describe('text hashes and drift', () => {
  const file = 'one\r\ntwo\nthree\n';
  it('removedText splits on \\n, drops a trailing \\r, joins with \\n', () => {
    assert.equal(removedText(file, 1, 2), 'one\ntwo');
    assert.equal(removedText(file, 2, 3), 'two\nthree');
    assert.equal(removedText(file, 3, 9), 'three', 'no phantom line after the final newline');
    assert.equal(removedText('a\nb', 2, 2), 'b');
    assert.equal(removedText(file, 5, 6), '');
  });

  it('textSha is the hex SHA-256 of that text; drift compares it', () => {
    assert.equal(textSha(file, 1, 2), createHash('sha256').update('one\ntwo').digest('hex'));
    const sha = textSha(file, 1, 2);
    assert.equal(textSha(file.replace('\r\n', '\n'), 1, 2), sha, 'CRLF vs LF is not drift');
    assert.notEqual(textSha(`zero\n${file}`, 1, 2), sha);
  });
});

describe('authors', () => {
  it('sanitizeAuthor gives a safe file name', () => {
    assert.equal(sanitizeAuthor('Jane Doe'), 'Jane-Doe');
    assert.equal(sanitizeAuthor('../../etc/passwd'), 'etc-passwd');
    assert.equal(sanitizeAuthor('José Ñúñez'), 'José-Ñúñez');
    assert.equal(sanitizeAuthor('   '), 'unknown');
    assert.equal(sanitizeAuthor('con'), '_con');
    assert.equal(sanitizeAuthor('a\u0000b\nc'), 'a-b-c');
    assert.equal(Array.from(sanitizeAuthor('x'.repeat(500))).length, 64);
  });

  it('defaultAuthor returns a sanitised non-empty name', async () => {
    const name = await defaultAuthor(dir);
    assert.ok(name.length > 0);
    assert.equal(sanitizeAuthor(name), name);
  });
});

describe('coreRemovalsByAuthor', () => {
  it('collects each author core lines per instance; accepters map to an empty set', async () => {
    const folder = path.join(dir, 'agreement');
    await appendAuditEvent(folder, removeEvent(removal({ author: 'alice', start: 1, end: 4 }), AT, 'x1'));
    await appendAuditEvent(folder, removeEvent(removal({ author: 'alice', start: 3, end: 8 }), AT, 'x2'));
    await appendAuditEvent(folder, removeEvent(removal({ author: 'alice', layer: 'optional', model: 'm', start: 20, end: 30 }), AT, 'x3'));
    await appendAuditEvent(folder, acceptEvent('org__repo-1', 'bob', AT, 'x4'));
    const byAuthor = coreRemovalsByAuthor(await readAuditFolder(folder));
    assert.deepEqual([...byAuthor.keys()], ['org__repo-1']);
    const one = byAuthor.get('org__repo-1')!;
    assert.deepEqual([...one.get('alice')!], [['a.py', [[1, 8]]]]);
    assert.equal(one.get('bob')!.size, 0);
  });
});
