/**
 * The audit log against a hostile workspace (issue 15, findings 1–2): a symlinked log or folder
 * cannot redirect an append outside the workspace, a log that is not a regular file is reported
 * instead of skipped, and no event can be forged into another author's name or replace another
 * author's event by reusing its id.
 */
import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { acceptEvent, appendAuditEvent, readAuditFolder, removeEvent, restoreEvent, type NewRemoval } from '../../../src/data/audit/auditLog';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'swe-audit-hostile-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const AT = new Date('2026-01-02T03:04:05.000Z');

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

/** A fresh workspace folder with an outside folder next to it (where a link would redirect writes). */
async function workspace(name: string): Promise<{ root: string; auditDir: string; outside: string }> {
  const root = path.join(dir, name, 'ws');
  const outside = path.join(dir, name, 'outside');
  await mkdir(root, { recursive: true });
  await mkdir(outside, { recursive: true });
  return { root, auditDir: path.join(root, '.swe-explore', 'audit'), outside };
}

/** The data-controlled instance id the issue saw run when a shell sourced the redirected file. */
const SHELL_ID = 'x$(touch /tmp/pwned)';

describe('audit writes never follow a link out of the workspace (finding 1)', () => {
  it('a symlinked <author>.jsonl is refused and the link target is untouched', async () => {
    const { auditDir, outside } = await workspace('file-link');
    await mkdir(auditDir, { recursive: true });
    const target = path.join(outside, '.bashrc');
    await writeFile(target, 'export PS1=x\n');
    await symlink(target, path.join(auditDir, 'alice.jsonl'));
    await assert.rejects(appendAuditEvent(auditDir, removeEvent(removal({ instanceId: SHELL_ID }), AT, 'r1')), /alice\.jsonl is a symbolic link/);
    assert.equal(await readFile(target, 'utf8'), 'export PS1=x\n');
  });

  it('a symlinked .swe-explore/audit folder is refused', async () => {
    const { auditDir, outside } = await workspace('dir-link');
    await mkdir(path.dirname(auditDir), { recursive: true });
    await symlink(outside, auditDir);
    await assert.rejects(appendAuditEvent(auditDir, removeEvent(removal({ instanceId: SHELL_ID }), AT, 'r1')), /audit is a symbolic link/);
    assert.deepEqual(execFileSync('ls', ['-A', outside], { encoding: 'utf8' }), '');
  });

  it('a symlinked .swe-explore folder is refused (checked from the workspace root down)', async () => {
    const { root, auditDir, outside } = await workspace('parent-link');
    await symlink(outside, path.join(root, '.swe-explore'));
    await assert.rejects(appendAuditEvent(auditDir, acceptEvent('org__repo-1', 'alice', AT, 'a1')), /\.swe-explore is a symbolic link/);
    assert.deepEqual(execFileSync('ls', ['-A', outside], { encoding: 'utf8' }), '');
  });

  it('a hard link to a file outside the workspace is refused', async () => {
    const { auditDir, outside } = await workspace('hard-link');
    await mkdir(auditDir, { recursive: true });
    const target = path.join(outside, 'profile');
    await writeFile(target, 'x\n');
    await link(target, path.join(auditDir, 'alice.jsonl'));
    await assert.rejects(appendAuditEvent(auditDir, acceptEvent('org__repo-1', 'alice', AT, 'a1')), /hard link/);
    assert.equal(await readFile(target, 'utf8'), 'x\n');
  });

  it('a FIFO named <author>.jsonl is refused at once (no hang)', async () => {
    const { auditDir } = await workspace('fifo');
    await mkdir(auditDir, { recursive: true });
    execFileSync('mkfifo', [path.join(auditDir, 'alice.jsonl')]);
    const started = Date.now();
    await assert.rejects(appendAuditEvent(auditDir, acceptEvent('org__repo-1', 'alice', AT, 'a1')), /not a regular file/);
    assert.ok(Date.now() - started < 2_000);
  });

  it('the folder is created inside a real workspace and written as before', async () => {
    const { auditDir } = await workspace('plain');
    const file = await appendAuditEvent(auditDir, acceptEvent('org__repo-1', 'alice', AT, 'a1'));
    assert.equal(file, path.join(auditDir, 'alice.jsonl'));
    assert.equal((await readAuditFolder(auditDir)).accepted.length, 1);
  });
});

describe('reading: nothing is skipped or resolved silently (finding 2)', () => {
  it('a symlinked or FIFO author log is reported, file named, and not read', async () => {
    const { auditDir, outside } = await workspace('read-links');
    await appendAuditEvent(auditDir, acceptEvent('org__repo-1', 'alice', AT, 'a1'));
    await writeFile(path.join(outside, 'bob.jsonl'), `${JSON.stringify(removeEvent(removal({ author: 'bob' }), AT, 'r9'))}\n`);
    await symlink(path.join(outside, 'bob.jsonl'), path.join(auditDir, 'bob.jsonl'));
    execFileSync('mkfifo', [path.join(auditDir, 'carol.jsonl')]);
    const read = await readAuditFolder(auditDir);
    assert.equal(read.effectiveRemovals.length, 0);
    const refused = read.problems.filter((p) => p.code === 'audit-file-refused');
    assert.deepEqual(
      refused.map((p) => [path.basename(p.file), p.severity]),
      [
        ['bob.jsonl', 'error'],
        ['carol.jsonl', 'error'],
      ],
    );
    assert.match(refused[0]!.message, /symbolic link/);
    assert.match(refused[1]!.message, /FIFO/);
  });

  it('a symlinked audit folder is reported and not read', async () => {
    const { auditDir, outside } = await workspace('read-dir-link');
    await writeFile(path.join(outside, 'alice.jsonl'), `${JSON.stringify(removeEvent(removal(), AT, 'r1'))}\n`);
    await mkdir(path.dirname(auditDir), { recursive: true });
    await symlink(outside, auditDir);
    const read = await readAuditFolder(auditDir);
    assert.equal(read.effectiveRemovals.length, 0);
    assert.deepEqual(
      read.problems.map((p) => [p.code, p.severity]),
      [['audit-file-refused', 'error']],
    );
  });

  it("an event in another author's file that claims that author is an error and does nothing", async () => {
    const { auditDir } = await workspace('forged-author');
    await appendAuditEvent(auditDir, removeEvent(removal({ author: 'bob' }), AT, 'bob-1'));
    // mallory's file sorts first and claims to be bob, restoring bob's removal
    await writeFile(path.join(auditDir, '0-mallory.jsonl'), `${JSON.stringify(restoreEvent('bob-1', 'bob', AT, 'm-1'))}\n`);
    const read = await readAuditFolder(auditDir);
    assert.deepEqual(
      read.effectiveRemovals.map((r) => r.id),
      ['bob-1'],
    );
    const mismatch = read.problems.filter((p) => p.code === 'audit-author-mismatch');
    assert.equal(mismatch.length, 1);
    assert.equal(mismatch[0]!.severity, 'error');
    assert.equal(path.basename(mismatch[0]!.file), '0-mallory.jsonl');
  });

  it('an id reused by another file is a conflict: an error at both places, neither event applied', async () => {
    const { auditDir } = await workspace('reused-id');
    await appendAuditEvent(auditDir, removeEvent(removal({ author: 'bob', start: 3, end: 5 }), AT, 'shared-id'));
    // mallory writes under her own name but reuses bob's id for a different removal
    await writeFile(path.join(auditDir, '0-mallory.jsonl'), `${JSON.stringify(removeEvent(removal({ author: '0-mallory', start: 90, end: 99 }), AT, 'shared-id'))}\n`);
    const read = await readAuditFolder(auditDir);
    assert.deepEqual(read.effectiveRemovals, []);
    const conflicts = read.problems.filter((p) => p.code === 'audit-duplicate-id');
    assert.deepEqual(conflicts.map((p) => [path.basename(p.file), p.severity]).sort(), [
      ['0-mallory.jsonl', 'error'],
      ['bob.jsonl', 'error'],
    ]);
    assert.deepEqual(
      read.disputedIds.map((d) => [d.id, d.events.length]),
      [['shared-id', 2]],
    );
  });

  it('the same event twice in one file (a merged line) is still one event with a warning', async () => {
    const { auditDir } = await workspace('merged-twice');
    const event = removeEvent(removal(), AT, 'same');
    await appendAuditEvent(auditDir, event);
    await appendAuditEvent(auditDir, event);
    const read = await readAuditFolder(auditDir);
    assert.equal(read.effectiveRemovals.length, 1);
    assert.deepEqual(
      read.problems.map((p) => [p.line, p.severity]),
      [[2, 'warning']],
    );
  });
});
