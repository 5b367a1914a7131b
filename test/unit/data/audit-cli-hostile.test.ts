/**
 * `swe-explore export` and `swe-explore audit-impact` on a hostile workspace (issue 15, findings
 * 2, 3 and 5): the audit's integrity problems reach the exit code, export cannot overwrite an
 * audit log by any spelling of the path, untouched records keep their exact bytes, and the null
 * model is bounded.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendAuditEvent, removeEvent, restoreEvent } from '../../../src/data/audit/auditLog';
import { buildCliBundle, cliBundlePath } from '../../cli/cliBundle';

/** Runs a command of the bundled CLI in a child process: the test runner itself talks over this process's stdout. */
function run(command: 'export' | 'audit-impact', args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBundlePath(), command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

before(buildCliBundle);

const AT = new Date('2026-01-01T00:00:00Z');
let dir: string;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'swe-audit-cli-hostile-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A workspace with two records (the second holding invalid UTF-8 and a CRLF ending), a prediction file and alice's removal on the first. */
async function workspace(name: string): Promise<{ root: string; bench: string; preds: string; auditDir: string; benchBytes: Buffer }> {
  const root = path.join(dir, name);
  await mkdir(root, { recursive: true });
  const bench = path.join(root, 'bench.jsonl');
  const gt = (end: number): string => `"ground_truth": {"read_core_files": ["a.py"], "read_core_regions": [{"path": "a.py", "start": 1, "end": ${end}}]}`;
  const benchBytes = Buffer.concat([
    Buffer.from(`{"instance_id": "x__y-1", ${gt(10)}}\n`),
    Buffer.from(`{"instance_id": "x__y-2", "problem_statement": "caf`),
    Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
    Buffer.from(`\u00e9 \\u00e9", ${gt(4)}}\r\n`),
  ]);
  await writeFile(bench, benchBytes);
  const preds = path.join(root, 'preds.jsonl');
  await writeFile(preds, `${JSON.stringify({ instance_id: 'x__y-1', explorer: 'e', regions: [{ path: 'a.py', start: 1, end: 5 }] })}\n`);
  const auditDir = path.join(root, '.swe-explore', 'audit');
  await appendAuditEvent(
    auditDir,
    removeEvent({ instanceId: 'x__y-1', layer: 'core', model: null, path: 'a.py', start: 1, end: 5, reason: 'other', note: null, author: 'alice', textSha: null }, AT, 'r1'),
  );
  return { root, bench, preds, auditDir, benchBytes };
}

describe('export never writes into the audit folder (finding 3)', () => {
  it('refuses -o naming an audit log, a new file there, or either through .. or a symlink', async () => {
    const ws = await workspace('refuse');
    const log = path.join(ws.auditDir, 'alice.jsonl');
    const logBefore = await readFile(log);
    await symlink(ws.auditDir, path.join(ws.root, 'innocent'));
    await mkdir(path.join(ws.root, 'out'));
    for (const output of [
      log,
      path.join(ws.auditDir, 'new.jsonl'),
      path.join(ws.root, 'out', '..', '.swe-explore', 'audit', 'alice.jsonl'),
      path.join(ws.root, 'innocent', 'alice.jsonl'),
      path.join(ws.root, 'innocent', 'x.jsonl'),
    ]) {
      const result = await run('export', ['--bench', ws.bench, '--audit', ws.auditDir, '-o', output]);
      assert.equal(result.code, 2, `${output}: ${result.stderr}`);
      assert.match(result.stderr, /inside the audit folder/);
    }
    assert.deepEqual(await readFile(log), logBefore);
    assert.equal((await readFile(log, 'utf8')).split('\n').length, 2);
  });

  it('a symlinked .swe-explore/exports cannot redirect the default export or its registry', async () => {
    const ws = await workspace('exports-link');
    const outside = path.join(dir, 'exports-link-outside');
    await mkdir(outside);
    await symlink(outside, path.join(ws.root, '.swe-explore', 'exports'));
    const result = await run('export', ['--bench', ws.bench, '--audit', ws.auditDir]);
    assert.notEqual(result.code, 0, result.stderr);
    assert.match(result.stderr, /exports is a symbolic link/);
    assert.deepEqual(await readdir(outside), []);
  });

  it('refuses the bench through a symlink too', async () => {
    const ws = await workspace('bench-link');
    await symlink(ws.bench, path.join(ws.root, 'b2.jsonl'));
    const result = await run('export', ['--bench', ws.bench, '--audit', ws.auditDir, '-o', path.join(ws.root, 'b2.jsonl')]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /never modified/);
  });

  it('keeps an untouched record byte for byte, invalid UTF-8 included', async () => {
    const ws = await workspace('bytes');
    const out = path.join(ws.root, 'corrected.jsonl');
    const result = await run('export', ['--bench', ws.bench, '--audit', ws.auditDir, '-o', out]);
    assert.equal(result.code, 0, result.stderr);
    const written = await readFile(out);
    const lines = ws.benchBytes.toString('latin1').split('\n');
    const second = Buffer.from(lines[1]!.replace(/\r$/, ''), 'latin1');
    assert.ok(written.includes(second), 'the second record is written with its exact bytes');
    assert.match(written.toString('utf8').split('\n')[0]!, /"read_core_regions": \[\{"path": "a.py", "start": 6, "end": 10\}\]/);
  });
});

describe('audit integrity reaches the exit code (finding 2)', () => {
  it('an id reused in another file: audit-impact and export exit 1 and name both places', async () => {
    const ws = await workspace('reused');
    await writeFile(path.join(ws.auditDir, '0-mallory.jsonl'), `${JSON.stringify(restoreEvent('x', '0-mallory', AT, 'r1'))}\n`);
    const impact = await run('audit-impact', ['--bench', ws.bench, '--preds', ws.preds, '--audit', ws.auditDir]);
    assert.equal(impact.code, 1, impact.stderr);
    assert.match(impact.stderr, /0-mallory\.jsonl:1: error: event id "r1" is also used at .*alice\.jsonl:1/);
    assert.match(impact.stderr, /alice\.jsonl:1: error: event id "r1" is also used at .*0-mallory\.jsonl:1/);
    const exported = await run('export', ['--bench', ws.bench, '--audit', ws.auditDir, '-o', path.join(ws.root, 'out.jsonl')]);
    assert.equal(exported.code, 1, exported.stderr);
  });

  it('a symlinked author log: reported by file, exit 1', async () => {
    const ws = await workspace('linked-log');
    await writeFile(path.join(ws.root, 'elsewhere.jsonl'), '');
    await symlink(path.join(ws.root, 'elsewhere.jsonl'), path.join(ws.auditDir, 'bob.jsonl'));
    const impact = await run('audit-impact', ['--bench', ws.bench, '--preds', ws.preds, '--audit', ws.auditDir]);
    assert.equal(impact.code, 1, impact.stderr);
    assert.match(impact.stderr, /bob\.jsonl: error: the audit log is a symbolic link/);
  });
});

describe('the null model is bounded (finding 5)', () => {
  it('--null above 100,000 is refused with exit 2; progress goes to stderr', async () => {
    const ws = await workspace('null');
    const refused = await run('audit-impact', ['--bench', ws.bench, '--preds', ws.preds, '--audit', ws.auditDir, '--null', '1000000000', '--seed', '1']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--null .*100000/);
    const ran = await run('audit-impact', ['--bench', ws.bench, '--preds', ws.preds, '--audit', ws.auditDir, '--null', '50', '--seed', '1']);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /null model: 50\/50 random audits/);
  });
});
