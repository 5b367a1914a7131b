import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { lexicalFailure, locateSnapshot, resolveInSnapshot, resolveSnapshotDir } from '../../../src/data/io/paths';

describe('lexicalFailure', () => {
  const cases: Array<[string, string | undefined]> = [
    ['a.py', undefined],
    ['pkg/mod.py', undefined],
    ['./pkg/mod.py', undefined],
    ['pkg/../mod.py', undefined],
    ['pkg/sub/../../mod.py', undefined],
    ['..foo/x.py', undefined],
    ['../x.py', 'escapes-root'],
    ['../../etc/passwd', 'escapes-root'],
    ['pkg/../../x.py', 'escapes-root'],
    ['..\\..\\x.py', 'escapes-root'],
    ['/etc/passwd', 'absolute'],
    ['\\\\server\\share\\x', 'absolute'],
    ['C:\\Windows\\x', 'absolute'],
    ['c:/x', 'absolute'],
    ['a\0b', 'missing'],
  ];
  for (const [p, want] of cases) {
    it(JSON.stringify(p), () => assert.equal(lexicalFailure(p), want));
  }
});

describe('resolveInSnapshot', () => {
  let base: string;
  let root: string;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'data-paths-'));
    root = path.join(base, 'repo');
    await mkdir(path.join(root, 'pkg', 'sub'), { recursive: true });
    await mkdir(path.join(base, 'outside'));
    await writeFile(path.join(root, 'pkg', 'a.py'), 'x\n');
    await writeFile(path.join(base, 'outside', 'secret'), 'secret\n');
    await writeFile(path.join(base, 'sibling.py'), 'x\n');
    // Symlinks: to a file outside, to a directory outside, inside the root, dangling, and a loop.
    await symlink(path.join(base, 'outside', 'secret'), path.join(root, 'leak'));
    await symlink(path.join(base, 'outside'), path.join(root, 'outdir'));
    await symlink(path.join(root, 'pkg', 'a.py'), path.join(root, 'alias.py'));
    await symlink('pkg/sub', path.join(root, 'rel-link'));
    await symlink(path.join(root, 'does-not-exist'), path.join(root, 'dangling'));
    await symlink(path.join(root, 'loop2'), path.join(root, 'loop1'));
    await symlink(path.join(root, 'loop1'), path.join(root, 'loop2'));
    // The root itself reached through a symlink: paths inside must still resolve.
    await symlink(root, path.join(base, 'root-link'));
  });

  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('resolves a file inside the root', async () => {
    const r = await resolveInSnapshot(root, 'pkg/a.py');
    assert.ok(r.ok);
    assert.equal(r.real, path.join(await realpath(root), 'pkg', 'a.py'));
  });

  it('accepts .. that stays inside', async () => {
    const r = await resolveInSnapshot(root, 'pkg/sub/../a.py');
    assert.ok(r.ok);
  });

  it('refuses ../../etc/passwd without touching the file system', async () => {
    assert.deepEqual(await resolveInSnapshot(root, '../../etc/passwd'), { ok: false, reason: 'escapes-root' });
  });

  it('refuses a .. path to an existing sibling file', async () => {
    assert.deepEqual(await resolveInSnapshot(root, '../sibling.py'), { ok: false, reason: 'escapes-root' });
  });

  it('refuses absolute paths, even ones inside the root', async () => {
    assert.deepEqual(await resolveInSnapshot(root, '/etc/passwd'), { ok: false, reason: 'absolute' });
    assert.deepEqual(await resolveInSnapshot(root, path.join(root, 'pkg', 'a.py')), { ok: false, reason: 'absolute' });
  });

  it('refuses a symlink to a file outside the root', async () => {
    assert.deepEqual(await resolveInSnapshot(root, 'leak'), { ok: false, reason: 'symlink-escape' });
  });

  it('refuses a path through a symlinked directory outside the root', async () => {
    assert.deepEqual(await resolveInSnapshot(root, 'outdir/secret'), { ok: false, reason: 'symlink-escape' });
  });

  it('reports a missing file under an escaping symlinked directory as an escape', async () => {
    assert.deepEqual(await resolveInSnapshot(root, 'outdir/nothing-here'), { ok: false, reason: 'symlink-escape' });
  });

  it('follows a symlink that stays inside', async () => {
    const r = await resolveInSnapshot(root, 'alias.py');
    assert.ok(r.ok);
    assert.equal(r.real.endsWith(path.join('pkg', 'a.py')), true);
  });

  it('resolves `link/..` physically, as the OS does', async () => {
    // rel-link -> pkg/sub, so rel-link/../a.py is pkg/a.py (lexically it would be a.py at the root).
    const r = await resolveInSnapshot(root, 'rel-link/../a.py');
    assert.ok(r.ok);
    assert.equal(r.real.endsWith(path.join('pkg', 'a.py')), true);
  });

  it('classifies missing, dangling, looping and non-file paths', async () => {
    assert.deepEqual(await resolveInSnapshot(root, 'nope.py'), { ok: false, reason: 'missing' });
    assert.deepEqual(await resolveInSnapshot(root, 'pkg/a.py/x'), { ok: false, reason: 'missing' });
    assert.deepEqual(await resolveInSnapshot(root, 'dangling'), { ok: false, reason: 'missing' });
    assert.deepEqual(await resolveInSnapshot(root, 'loop1'), { ok: false, reason: 'symlink-escape' });
    assert.deepEqual(await resolveInSnapshot(root, 'pkg'), { ok: false, reason: 'not-a-file' });
    assert.deepEqual(await resolveInSnapshot(root, ''), { ok: false, reason: 'not-a-file' });
  });

  it('works when the root itself is a symlink', async () => {
    const r = await resolveInSnapshot(path.join(base, 'root-link'), 'pkg/a.py');
    assert.ok(r.ok);
  });

  it('a missing root is missing', async () => {
    assert.deepEqual(await resolveInSnapshot(path.join(base, 'nope'), 'a.py'), { ok: false, reason: 'missing' });
  });

  it('resolveSnapshotDir and locateSnapshot find instance folders', async () => {
    const reposRoot = path.join(base, 'ws');
    await mkdir(path.join(reposRoot, 'repos', 'org__r-1'), { recursive: true });
    await symlink(path.join(base, 'outside'), path.join(reposRoot, 'repos', 'evil'));
    assert.ok((await resolveSnapshotDir(reposRoot, 'repos/org__r-1')).ok);
    assert.deepEqual(await resolveSnapshotDir(reposRoot, '../outside'), { ok: false, reason: 'escapes-root' });
    assert.deepEqual(await resolveSnapshotDir(reposRoot, 'repos/evil'), { ok: false, reason: 'symlink-escape' });
    // Default repo_dir, explicit repo_dir, and a root pointing at repos/ itself.
    assert.ok((await locateSnapshot(reposRoot, 'org__r-1')).ok);
    assert.ok((await locateSnapshot(reposRoot, 'org__r-1', 'repos/org__r-1')).ok);
    assert.ok((await locateSnapshot(path.join(reposRoot, 'repos'), 'org__r-1', 'repos/org__r-1')).ok);
    assert.deepEqual(await locateSnapshot(reposRoot, 'org__r-2'), { ok: false, reason: 'missing' });
    assert.deepEqual(await locateSnapshot(reposRoot, 'x', '/abs/repos/x'), { ok: false, reason: 'absolute' });
  });
});

describe('resolution returns only the real path it checked', () => {
  let base: string;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'data-paths-real-'));
  });

  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('`sub/../x` never yields the lexical `x` when `x` is a symlink outside', async () => {
    // root/sub -> root/pkg/deep, so `sub/../x` is physically root/pkg/x (inside, checked) while
    // the lexically normalised root/x is a symlink to a file outside the root.
    const root = path.join(base, 'repo');
    await mkdir(path.join(root, 'pkg', 'deep'), { recursive: true });
    await writeFile(path.join(root, 'pkg', 'x'), 'inside\n');
    await writeFile(path.join(base, 'secret'), 'outside\n');
    await symlink(path.join(root, 'pkg', 'deep'), path.join(root, 'sub'));
    await symlink(path.join(base, 'secret'), path.join(root, 'x'));

    const r = await resolveInSnapshot(root, 'sub/../x');
    assert.ok(r.ok);
    assert.equal(Object.hasOwn(r, 'absolute'), false, 'no second, unchecked path is offered');
    assert.equal(r.real, path.join(await realpath(root), 'pkg', 'x'));
    assert.equal(await readFile(r.real, 'utf8'), 'inside\n');
    // The symlink itself, named directly, is refused.
    assert.deepEqual(await resolveInSnapshot(root, 'x'), { ok: false, reason: 'symlink-escape' });
  });

  it('symlinks that stay inside, and a symlinked root, are allowed', async () => {
    const root = path.join(base, 'repo2');
    await mkdir(path.join(root, 'a'), { recursive: true });
    await writeFile(path.join(root, 'a', 'f.py'), 'f\n');
    await symlink(path.join(root, 'a', 'f.py'), path.join(root, 'alias.py'));
    await symlink(root, path.join(base, 'repo2-link'));
    const viaAlias = await resolveInSnapshot(root, 'alias.py');
    assert.ok(viaAlias.ok);
    assert.equal(viaAlias.real, path.join(await realpath(root), 'a', 'f.py'));
    const viaRootLink = await resolveInSnapshot(path.join(base, 'repo2-link'), 'a/f.py');
    assert.ok(viaRootLink.ok);
    assert.equal(viaRootLink.real, path.join(await realpath(root), 'a', 'f.py'));
  });

  it('snapshot folders: `link/../evil` resolves physically, `evil` (outside) is refused', async () => {
    const reposRoot = path.join(base, 'ws');
    await mkdir(path.join(reposRoot, 'store', 'inner'), { recursive: true });
    await mkdir(path.join(reposRoot, 'store', 'evil'), { recursive: true });
    await mkdir(path.join(reposRoot, 'repos'), { recursive: true });
    await mkdir(path.join(base, 'elsewhere'));
    await symlink(path.join(reposRoot, 'store', 'inner'), path.join(reposRoot, 'repos', 'link'));
    await symlink(path.join(base, 'elsewhere'), path.join(reposRoot, 'repos', 'evil'));

    const r = await locateSnapshot(reposRoot, 'evil', 'repos/link/../evil');
    assert.ok(r.ok);
    assert.equal(Object.hasOwn(r, 'absolute'), false);
    assert.equal(r.real, path.join(await realpath(reposRoot), 'store', 'evil'));
    assert.deepEqual(await resolveSnapshotDir(reposRoot, 'repos/evil'), { ok: false, reason: 'symlink-escape' });
    // A symlinked repos root is fine.
    await symlink(reposRoot, path.join(base, 'ws-link'));
    const viaLink = await resolveSnapshotDir(path.join(base, 'ws-link'), 'repos/link');
    assert.ok(viaLink.ok);
    assert.equal(viaLink.real, path.join(await realpath(reposRoot), 'store', 'inner'));
  });
});
