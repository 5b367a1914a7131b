import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendAuditEvent, acceptEvent, removeEvent, restoreEvent, textSha } from '../../../src/data/audit/auditLog';
import { scoreWorkspace } from '../../../src/cli/scoreWorkspace';
import { buildCliBundle, cliBundlePath } from '../../cli/cliBundle';

let dir: string;
let bench: string;
let preds: string;
let auditDir: string;
const benchLines: string[] = [];

const record = (id: string, regions: string): string =>
  `{"instance_id": "${id}", "unknown": [1.0, 2e2], "repo_dir": "repos/${id}", "ground_truth": {"read_core_files": ["a.py"], "read_core_regions": ${regions}, "read_optional_files_map": {}, "read_optional_regions_map": {}, "modified_core_files": ["a.py"], "main_files": ["a.py"]}}`;

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

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'swe-audit-cli-'));
  bench = path.join(dir, 'bench.jsonl');
  preds = path.join(dir, 'preds.jsonl');
  auditDir = path.join(dir, '.swe-explore', 'audit');
  benchLines.push(
    record('x__y-1', '[{"path": "a.py", "start": 1, "end": 10}]'),
    record('x__y-2', '[{"path": "a.py", "start": 1, "end": 4}]'),
    record('x__y-3', '[{"path": "a.py", "start": 1, "end": -1}]'),
  );
  await writeFile(bench, `${benchLines.join('\n')}\n`);
  await writeFile(path.join(dir, 'counts.json'), JSON.stringify({ 'x__y-3': { 'a.py': 8 } }));
  const row = (id: string, explorer: string, start: number, end: number): string => JSON.stringify({ instance_id: id, explorer, regions: [{ path: 'a.py', start, end }] });
  await writeFile(
    preds,
    [row('x__y-1', 'early', 1, 5), row('x__y-2', 'early', 1, 4), row('x__y-3', 'early', 1, 2), row('x__y-1', 'late', 6, 10), row('x__y-2', 'late', 3, 4), row('x__y-3', 'late', 5, 8)].join('\n') +
      '\n',
  );
  const at = new Date('2026-01-01T00:00:00Z');
  const rm1 = removeEvent(
    { instanceId: 'x__y-1', layer: 'core', model: null, path: 'a.py', start: 1, end: 5, reason: 'incidental-read', note: null, author: 'alice', textSha: textSha('l1\nl2\nl3\nl4\nl5\n', 1, 5) },
    at,
    'r1',
  );
  await appendAuditEvent(auditDir, rm1);
  await appendAuditEvent(
    auditDir,
    removeEvent({ instanceId: 'x__y-2', layer: 'core', model: null, path: 'a.py', start: 1, end: 4, reason: 'duplicate', note: 'all', author: 'alice', textSha: null }, at, 'r2'),
  );
  await appendAuditEvent(
    auditDir,
    removeEvent({ instanceId: 'x__y-3', layer: 'core', model: null, path: 'a.py', start: 2, end: 3, reason: 'other', note: null, author: 'bob', textSha: null }, at, 'r3'),
  );
  await appendAuditEvent(auditDir, restoreEvent('r3', 'bob', at, 's3'));
  await appendAuditEvent(
    auditDir,
    removeEvent({ instanceId: 'x__y-3', layer: 'core', model: null, path: 'a.py', start: 7, end: 20, reason: 'other', note: null, author: 'bob', textSha: null }, at, 'r4'),
  );
  await appendAuditEvent(auditDir, acceptEvent('x__y-1', 'bob', at, 'a1'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('swe-explore export', () => {
  it('writes the corrected bench; untouched and unchanged records byte-for-byte; the bench is untouched', async () => {
    const out = path.join(dir, 'corrected.jsonl');
    const benchBefore = await readFile(bench, 'utf8');
    const result = await run('export', ['--bench', bench, '--audit', auditDir, '--line-counts', path.join(dir, 'counts.json'), '-o', out]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await readFile(bench, 'utf8'), benchBefore);
    const lines = (await readFile(out, 'utf8')).split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines[0], benchLines[0]!.replace('[{"path": "a.py", "start": 1, "end": 10}]', '[{"path": "a.py", "start": 6, "end": 10}]'));
    assert.equal(
      lines[1],
      benchLines[1]!
        .replace('"read_core_files": ["a.py"], "read_core_regions": [{"path": "a.py", "start": 1, "end": 4}]', '"read_core_files": [], "read_core_regions": []')
        .replace('"main_files": ["a.py"]', '"main_files": []'),
    );
    assert.equal(lines[2], benchLines[2]!.replace('[{"path": "a.py", "start": 1, "end": -1}]', '[{"path": "a.py", "start": 1, "end": 6}]'));
  });

  it('refuses to overwrite the bench', async () => {
    const result = await run('export', ['--bench', bench, '--audit', auditDir, '-o', bench]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /never modified/);
  });
});

describe('swe-explore audit-impact', () => {
  it('JSON lines: explorer, instance, ranking and reason lines; emptied core drops out of "after"', async () => {
    const result = await run('audit-impact', ['--bench', bench, '--preds', preds, '--audit', auditDir, '--line-counts', path.join(dir, 'counts.json')]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const explorers = lines.filter((l) => l['kind'] === 'explorer');
    assert.deepEqual(
      explorers.map((e) => [e['explorer'], e['instances_before'], e['instances_after']]),
      [
        ['early', 3, 2],
        ['late', 3, 2],
      ],
    );
    assert.equal(lines.filter((l) => l['kind'] === 'instance').length, 6);
    const recall = lines.find((l) => l['kind'] === 'ranking' && l['metric'] === 'recall')!;
    assert.deepEqual(recall['before'], ['early', 'late']);
    assert.deepEqual(recall['after'], ['late', 'early']);
    assert.equal(recall['kendall_tau_b'], -1);
    assert.deepEqual(
      lines.filter((l) => l['kind'] === 'reason').map((l) => [l['reason'], l['removals'], l['lines']]),
      [
        ['duplicate', 1, 4],
        ['incidental-read', 1, 5],
        ['other', 1, 2],
      ],
    );
    // x__y-1: alice removed core 1–5 of 10, bob accepted it (removed nothing). By hand: agree on 5
    // lines, p_o = 0.5; p_e = 0.5·0 + 0.5·1 = 0.5; κ = (0.5 − 0.5) / (1 − 0.5) = 0. x__y-3 has one author only.
    const agreements = lines.filter((l) => l['kind'] === 'agreement');
    assert.deepEqual(agreements, [{ kind: 'agreement', instance_id: 'x__y-1', authors: ['alice', 'bob'], kappa: 0, disputed_lines: 5, disputed: [{ path: 'a.py', start: 1, end: 5 }] }]);
    assert.equal(lines.map((l) => l['kind']).lastIndexOf('reason') + 1, lines.indexOf(agreements[0]!), 'agreement lines follow the reason lines');
  });

  it('export → score round trip: scoring the exported bench gives exactly the "after" numbers', async () => {
    const counts = path.join(dir, 'counts.json');
    const out = path.join(dir, 'roundtrip.jsonl');
    const exported = await run('export', ['--bench', bench, '--audit', auditDir, '--line-counts', counts, '-o', out]);
    assert.equal(exported.code, 0, exported.stderr);
    const impact = await run('audit-impact', ['--bench', bench, '--preds', preds, '--audit', auditDir, '--line-counts', counts]);
    const after = new Map(
      impact.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l['kind'] === 'explorer')
        .map((l) => [l['explorer'] as string, l]),
    );
    const scored = await scoreWorkspace({ benchFile: out, predictionFiles: [preds], lineCountsFile: counts, profile: 'official', k: 5, budgets: [], keepEmptyCore: false });
    assert.equal(scored.summaries.length, after.size);
    for (const summary of scored.summaries) {
      const line = after.get(summary.explorer)!;
      assert.equal(summary.instances, line['instances_after']);
      assert.deepEqual(summary.macro, line['after']);
    }
  });

  it('--null N --seed S adds reproducible null-model lines; md and csv render', async () => {
    const args = ['--bench', bench, '--preds', preds, '--audit', auditDir, '--line-counts', path.join(dir, 'counts.json'), '--null', '20', '--seed', '3'];
    const first = await run('audit-impact', args);
    const second = await run('audit-impact', args);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, second.stdout);
    const nulls = first.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['kind'] === 'null');
    assert.equal(nulls.length, 5);
    const md = await run('audit-impact', [...args, '--format', 'md']);
    assert.match(md.stdout, /^# Audit impact/);
    assert.match(md.stdout, /## Agreement between auditors/);
    const csv = await run('audit-impact', [...args, '--format', 'csv']);
    assert.match(csv.stdout, /^kind,explorer,instance_id,metric,reason,before,after,delta,detail\n/);
    assert.match(csv.stdout, /\nagreement,,x__y-1,cohen_kappa,,5,0,,alice vs bob; disputed: a\.py 1–5\n/);
    const bad = await run('audit-impact', [...args.slice(0, -2), '--format', 'xml']);
    assert.equal(bad.code, 2);
  });
});
