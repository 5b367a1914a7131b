/**
 * "The exported bench must never replace the bench" (issue 16, item 1) at the data level: the
 * loader's old rule (first `bench*.jsonl`, shallowest first) picks an export written beside the
 * bench; {@link benchCandidates} never does — wherever the export was written, moved or renamed —
 * and returns every remaining candidate so the caller can ask.
 */
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AUDIT_FOLDER,
  appendAuditEvent,
  benchCandidates,
  computeAuditImpact,
  defaultExportFile,
  exportRootFor,
  isInToolFolder,
  LineCountCache,
  loadAudit,
  loadWorkspace,
  orderBenchFiles,
  readExportRegistry,
  removeEvent,
  writeBenchExport,
  writeCorrectedBench,
  type Problem,
} from '../../../src/data';
import type { ExplorerImpact } from '../../../src/core';
import { buildCliBundle, runCli } from '../../cli/cliBundle';

let dir: string;
let bench: string;
let auditDir: string;

const record = (id: string): string =>
  `{"instance_id": "${id}", "repo_dir": "repos/${id}", "ground_truth": {"read_core_files": ["a.py"], "read_core_regions": [{"path": "a.py", "start": 1, "end": 10}], "read_optional_files_map": {}, "read_optional_regions_map": {}, "modified_core_files": [], "main_files": []}}`;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'swe-bench-files-'));
  bench = path.join(dir, 'bench.jsonl');
  auditDir = path.join(dir, AUDIT_FOLDER);
  await writeFile(bench, `${record('o__r-1')}\n${record('o__r-2')}\n`);
  await writeFile(path.join(dir, 'preds.jsonl'), `${JSON.stringify({ instance_id: 'o__r-1', explorer: 'e', regions: [{ path: 'a.py', start: 1, end: 4 }] })}\n`);
  await appendAuditEvent(
    auditDir,
    removeEvent({ instanceId: 'o__r-1', layer: 'core', model: null, path: 'a.py', start: 1, end: 3, reason: 'incidental-read', note: null, author: 'alice', textSha: null }),
  );
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What the workspace glob `**\/bench*.jsonl` finds (the extension asks VS Code; here a walk). */
async function globBench(folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /^bench.*\.jsonl$/.test(entry.name)) out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}

/** The loader's rule before this change: the first match, shallowest first. */
function oldRule(found: readonly string[]): string | undefined {
  return [...found].sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || a.localeCompare(b))[0];
}

/** Exports the corrected bench of the fixture to `target` as the CLI and the extension do. */
async function exportTo(target: string): Promise<void> {
  const model = await loadWorkspace({ benchFile: bench, predictionFiles: [] });
  const audit = await loadAudit(model, auditDir);
  const problems: Problem[] = [];
  await writeCorrectedBench(model, audit, new LineCountCache(), problems, (content) => writeBenchExport(target, content, { root: exportRootFor(auditDir, bench), benchFile: bench }));
}

describe('bench discovery: exports never become the bench', () => {
  it('reproduces the issue: an export beside the bench wins the old rule; the new rule keeps the bench and the audit impact', async () => {
    const beside = path.join(dir, 'bench.audited.jsonl');
    await exportTo(beside);
    const found = await globBench(dir);
    assert.equal(oldRule(found), beside, 'the old loader switched to the export');

    const { candidates, excluded } = await benchCandidates(found, [dir]);
    assert.deepEqual(candidates, [bench]);
    assert.deepEqual(excluded, [{ file: beside, reason: 'export' }]);

    // Reloading from the chosen bench keeps the audit meaningful: before ≠ after for the removal.
    const model = await loadWorkspace({ benchFile: candidates[0]!, predictionFiles: [path.join(dir, 'preds.jsonl')] });
    const problems: Problem[] = [];
    const impact = await computeAuditImpact(model, await loadAudit(model, auditDir), { profile: 'official', k: 5, trials: 0, seed: 0 }, new LineCountCache(), problems);
    const explorer = impact.find((line): line is ExplorerImpact => line.kind === 'explorer')!;
    assert.notEqual(explorer.before.precision, explorer.after.precision);
    // Scoring the export instead shows before = after: the symptom the issue saw.
    const wrong = await loadWorkspace({ benchFile: beside, predictionFiles: [path.join(dir, 'preds.jsonl')] });
    const wrongImpact = await computeAuditImpact(wrong, await loadAudit(wrong, auditDir), { profile: 'official', k: 5, trials: 0, seed: 0 }, new LineCountCache(), []);
    const wrongExplorer = wrongImpact.find((line): line is ExplorerImpact => line.kind === 'explorer')!;
    assert.equal(wrongExplorer.before.precision, wrongExplorer.after.precision);
    await rm(beside);
  });

  it('the default export goes to .swe-explore/exports/, which is never searched', async () => {
    const target = defaultExportFile(exportRootFor(auditDir, bench), bench);
    assert.equal(target, path.join(dir, '.swe-explore', 'exports', 'bench.audited.jsonl'));
    await exportTo(target);
    const found = await globBench(dir);
    assert.ok(found.includes(target));
    const { candidates, excluded } = await benchCandidates(found, [dir]);
    assert.deepEqual(candidates, [bench]);
    assert.deepEqual(excluded, [{ file: target, reason: 'tool-folder' }]);
  });

  it('an export the user moved and renamed out of the folder is still recognised by its content', async () => {
    const target = defaultExportFile(dir, bench);
    const moved = path.join(dir, 'data', 'bench-fixed.jsonl');
    await mkdir(path.dirname(moved), { recursive: true });
    await rename(target, moved);
    const { candidates, excluded } = await benchCandidates(await globBench(dir), [dir]);
    assert.deepEqual(candidates, [bench]);
    assert.deepEqual(excluded, [{ file: moved, reason: 'export' }]);

    // Edited, it is the user's file now: two candidates, both returned for the caller to ask.
    await writeFile(moved, `${(await readFile(moved, 'utf8')).trimEnd()}\n${record('o__r-3')}\n`);
    assert.deepEqual((await benchCandidates(await globBench(dir), [dir])).candidates, [bench, moved]);
    await rm(path.dirname(moved), { recursive: true });
  });

  it('an export equal to its bench (no removal took effect) is recognised only where it was written; the bench stays', async () => {
    const plain = path.join(dir, 'bench.copy.jsonl');
    await writeBenchExport(plain, await readFile(bench, 'utf8'), { root: dir, benchFile: bench });
    const { candidates, excluded } = await benchCandidates(await globBench(dir), [dir]);
    assert.deepEqual(candidates, [bench]);
    assert.deepEqual(excluded, [{ file: plain, reason: 'export' }]);
    await rm(plain);
  });

  it('the registry is append-only JSON lines; torn or foreign lines are skipped', async () => {
    const registry = path.join(dir, '.swe-explore', 'exports', 'exports.jsonl');
    await writeFile(registry, `${await readFile(registry, 'utf8')}{"file": 1}\nnot json\n{"file": "x.jsonl", "by`, 'utf8');
    const records = await readExportRegistry(dir);
    assert.ok(records.length >= 2);
    // The next export starts a line of its own after the torn fragment.
    await writeBenchExport(path.join(dir, '.swe-explore', 'exports', 'again.jsonl'), 'x\n', { root: dir, benchFile: bench });
    assert.equal((await readExportRegistry(dir)).length, records.length + 1);
    for (const r of records) assert.match(r.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual((await benchCandidates(await globBench(dir), [dir])).candidates, [bench]);
  });

  it('several benches, none written by the tool: all returned, shallowest first', async () => {
    const other = path.join(dir, 'sub', 'bench-verified.jsonl');
    await mkdir(path.dirname(other), { recursive: true });
    await writeFile(other, `${record('o__r-9')}\n`);
    assert.deepEqual((await benchCandidates([other, bench], [dir])).candidates, [bench, other]);
    await rm(path.dirname(other), { recursive: true });
  });

  it('pure helpers: the tool folder only counts below the workspace folder; ordering', () => {
    assert.equal(isInToolFolder('/w/.swe-explore/exports/bench.jsonl', ['/w']), true);
    assert.equal(isInToolFolder('/home/u/.swe-explore/w/bench.jsonl', ['/home/u/.swe-explore/w']), false);
    assert.equal(isInToolFolder('/w/a/.swe-explore/bench.jsonl'), true);
    assert.equal(exportRootFor('/w/.swe-explore/audit', '/w/data/bench.jsonl'), '/w');
    assert.equal(exportRootFor('/tmp/my-audit', '/w/data/bench.jsonl'), '/w/data');
    assert.deepEqual(orderBenchFiles(['/w/b/bench.jsonl', '/w/bench2.jsonl', '/w/bench.jsonl']), ['/w/bench.jsonl', '/w/bench2.jsonl', '/w/b/bench.jsonl']);
  });
});

describe('swe-explore export: default output under .swe-explore/exports/', () => {
  before(buildCliBundle);
  it('writes there without -o, registers it, and the bench stays the only candidate', async () => {
    const target = defaultExportFile(dir, bench);
    await rm(target, { force: true });
    const result = runCli(['export', '--bench', bench, '--audit', auditDir]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /wrote 2 record\(s\), 1 with removals, to .*\.swe-explore[/\\]exports[/\\]bench\.audited\.jsonl/);
    const registered = await readExportRegistry(dir);
    assert.equal(registered[registered.length - 1]!.file, '.swe-explore/exports/bench.audited.jsonl');
    // -o elsewhere is registered too: moved next to the bench, it is still no candidate.
    const elsewhere = path.join(dir, 'bench.mine.jsonl');
    const withO = runCli(['export', '--bench', bench, '--audit', auditDir, '-o', elsewhere]);
    assert.equal(withO.status, 0, withO.stderr);
    assert.deepEqual((await benchCandidates(await globBench(dir), [dir])).candidates, [bench]);
  });
});
