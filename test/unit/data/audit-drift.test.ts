/**
 * The streaming drift check (issue 15, finding 6): the same hashes as hashing the whole text,
 * whatever the bytes and however the reads cut them, in bounded memory; and one check of an audit
 * against the bench for the CLI and the extension.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { removeEvent, textSha, readAuditFolder, appendAuditEvent } from '../../../src/data/audit/auditLog';
import { streamedTextShas } from '../../../src/data/audit/drift';
import { checkAuditAgainstBench } from '../../../src/data/audit/workspaceAudit';
import { EMPTY_WORKSPACE, loadWorkspace } from '../../../src/data/workspace/workspace';

const ROOT = path.resolve(__dirname, '..', '..', '..');

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'swe-audit-drift-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('streamedTextShas', () => {
  it('equals textSha of the whole decoded text for any bytes, range and read size', async () => {
    const file = path.join(dir, 'bytes.txt');
    const byte = fc.oneof(
      fc.constantFrom(0x0a, 0x0d, 0x41, 0x20),
      fc.integer({ min: 0, max: 255 }),
      // pieces of multi-byte characters, so reads cut them
      fc.constantFrom(0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xef, 0xbb, 0xbf, 0xc3, 0xa9),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(byte, { maxLength: 120 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 14 }), fc.integer({ min: 0, max: 6 })), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 9 }),
        async (bytes, spans, chunk) => {
          const buffer = Buffer.from(bytes);
          await writeFile(file, buffer);
          const ranges = spans.map(([start, length]) => ({ start, end: start + length }));
          const text = buffer.toString('utf8');
          assert.deepEqual(
            await streamedTextShas(file, ranges, chunk),
            ranges.map((r) => textSha(text, r.start, r.end)),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses a FIFO instead of waiting for a writer', async () => {
    const fifo = path.join(dir, 'pipe');
    spawnSync('mkfifo', [fifo]);
    await assert.rejects(streamedTextShas(fifo, [{ start: 1, end: 1 }]), /not a regular file/);
  });
});

describe('the drift check reads no file whole', () => {
  it('checks a removal at the end of a file larger than the whole heap', async () => {
    const ws = path.join(dir, 'big');
    const snapshot = path.join(ws, 'repos', 'x__y-1');
    await mkdir(snapshot, { recursive: true });
    // 160 MB of 100-byte lines: as one string it would not fit in the child's 64 MB heap.
    const line = `${'x'.repeat(99)}\n`;
    const lines = 1_600_000;
    const fd = openSync(path.join(snapshot, 'big.py'), 'w');
    const block = line.repeat(10_000);
    for (let i = 0; i < lines; i += 10_000) writeSync(fd, block);
    closeSync(fd);
    await writeFile(
      path.join(ws, 'bench.jsonl'),
      `${JSON.stringify({ instance_id: 'x__y-1', ground_truth: { read_core_files: ['big.py'], read_core_regions: [{ path: 'big.py', start: 1, end: -1 }] } })}\n`,
    );
    const auditDir = path.join(ws, '.swe-explore', 'audit');
    const matching = textSha(`${line.repeat(3)}`, 1, 3);
    await appendAuditEvent(
      auditDir,
      removeEvent(
        { instanceId: 'x__y-1', layer: 'core', model: null, path: 'big.py', start: lines - 2, end: lines, reason: 'other', note: null, author: 'alice', textSha: matching },
        new Date(),
        'same',
      ),
    );
    await appendAuditEvent(
      auditDir,
      removeEvent(
        { instanceId: 'x__y-1', layer: 'core', model: null, path: 'big.py', start: lines - 9, end: lines - 3, reason: 'other', note: null, author: 'alice', textSha: 'f'.repeat(64) },
        new Date(),
        'changed',
      ),
    );
    const script = `const { loadWorkspace } = require('./src/data/workspace/workspace');
const { loadAudit } = require('./src/data/audit/workspaceAudit');
(async () => {
  const model = await loadWorkspace({ benchFile: ${JSON.stringify(path.join(ws, 'bench.jsonl'))}, predictionFiles: [] });
  const audit = await loadAudit(model, ${JSON.stringify(auditDir)});
  process.stdout.write(JSON.stringify({ drifted: audit.problems.filter((p) => p.code === 'audit-drifted').map((p) => p.line), rss: process.resourceUsage().maxRSS }));
})();`;
    const run = spawnSync(process.execPath, ['--max-old-space-size=64', '--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    const out = JSON.parse(run.stdout) as { drifted: number[]; rss: number };
    assert.deepEqual(out.drifted, [2]);
    assert.ok(out.rss < 150 * 1024, `peak RSS ${Math.round(out.rss / 1024)} MB`);
  });
});

describe('checkAuditAgainstBench: one check for the CLI and the extension', () => {
  const removal = (instanceId: string): Parameters<typeof appendAuditEvent>[1] =>
    removeEvent(
      { instanceId, layer: 'core', model: null, path: 'a.py', start: 1, end: 2, reason: 'other', note: null, author: 'alice', textSha: null },
      new Date('2026-01-01T00:00:00Z'),
      `r-${instanceId}`,
    );

  it('no bench loaded yet: removals are not reported as unknown (every one would be)', async () => {
    const auditDir = path.join(dir, 'nobench', '.swe-explore', 'audit');
    await appendAuditEvent(auditDir, removal('x__y-1'));
    const checked = await checkAuditAgainstBench(EMPTY_WORKSPACE, await readAuditFolder(auditDir));
    assert.deepEqual(checked.problems, []);
    assert.equal(checked.events.size, 0);
  });

  it('a loaded bench, even an empty one: a removal of an instance it lacks is reported', async () => {
    const ws = path.join(dir, 'emptybench');
    const auditDir = path.join(ws, '.swe-explore', 'audit');
    await appendAuditEvent(auditDir, removal('x__y-9'));
    await writeFile(path.join(ws, 'bench.jsonl'), '');
    const model = await loadWorkspace({ benchFile: path.join(ws, 'bench.jsonl'), predictionFiles: [] });
    const checked = await checkAuditAgainstBench(model, await readAuditFolder(auditDir));
    assert.deepEqual(
      checked.problems.map((p) => [p.code, p.instanceId]),
      [['unknown-instance', 'x__y-9']],
    );
  });
});
