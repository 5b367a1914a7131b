/** Transcript folders (Add Predictions): one agent answer per instance, one explorer per folder. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { loadWorkspace, readTranscriptFolder, type TranscriptInstance } from '../../../src/data';

/** Synthetic bench: three instances with snapshots (`a.py` of 30 lines, `pkg/b.py` of 10), one without. */
function workspace(): { root: string; bench: string; folder: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-transcripts-'));
  const ids = ['o__r-1', 'o__r-2', 'o__r-3'];
  const records = [...ids, 'o__r-4'].map((id) => ({ instance_id: id, repo_dir: `repos/${id}`, ground_truth: { read_core_files: ['a.py'], read_core_regions: [{ path: 'a.py', start: 1, end: 5 }] } }));
  writeFileSync(path.join(root, 'bench.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  for (const id of ids) {
    mkdirSync(path.join(root, 'repos', id, 'pkg'), { recursive: true });
    writeFileSync(path.join(root, 'repos', id, 'a.py'), 'x\n'.repeat(30));
    writeFileSync(path.join(root, 'repos', id, 'pkg', 'b.py'), 'y\n'.repeat(10));
  }
  const folder = path.join(root, 'my-agent');
  mkdirSync(folder);
  // Good: a block with two entries, one of them a path that is not in the snapshot (skipped).
  writeFileSync(path.join(folder, 'o__r-1.txt'), 'I looked around.\n\nRELEVANT_FILES:\n- a.py:3-8\n- pkg/b.py\n- missing.py:1-2\n');
  // No RELEVANT_FILES block and no location: answer-empty.
  writeFileSync(path.join(folder, 'o__r-2.md'), 'I could not find anything useful.\n');
  // One level down: the first transcript in sorted order is the answer.
  mkdirSync(path.join(folder, 'o__r-3'));
  writeFileSync(path.join(folder, 'o__r-3', 'b-second.log'), 'RELEVANT_FILES:\n- a.py:20-21\n');
  writeFileSync(path.join(folder, 'o__r-3', 'a-first.txt'), 'RELEVANT_FILES:\n- a.py:1-2\n');
  // Not a bench instance.
  writeFileSync(path.join(folder, 'someone__else-9.txt'), 'RELEVANT_FILES:\n- a.py:1\n');
  // A second answer for o__r-1 (a subfolder): the top-level file wins, this one is ignored with a warning.
  mkdirSync(path.join(folder, 'o__r-1'));
  writeFileSync(path.join(folder, 'o__r-1', 'answer.txt'), 'RELEVANT_FILES:\n- a.py:9\n');
  // Not a transcript extension: not read at all.
  writeFileSync(path.join(folder, 'notes.json'), '{}\n');
  // No snapshot for o__r-4: parsed without a repo root (paths kept as written).
  writeFileSync(path.join(folder, 'o__r-4.txt'), 'RELEVANT_FILES:\n- anything/at/all.py:4-5\n');
  return { root, bench: path.join(root, 'bench.jsonl'), folder };
}

describe('readTranscriptFolder', () => {
  it('reads each transcript against its snapshot and reports located problems', async () => {
    const { root, folder } = workspace();
    const instances = new Map<string, TranscriptInstance>([
      ['o__r-1', { snapshotRoot: path.join(root, 'repos', 'o__r-1') }],
      ['o__r-2', { snapshotRoot: path.join(root, 'repos', 'o__r-2') }],
      ['o__r-3', { snapshotRoot: path.join(root, 'repos', 'o__r-3') }],
      ['o__r-4', { snapshotRoot: undefined }],
    ]);
    const run = await readTranscriptFolder(folder, instances);
    assert.equal(run.explorer, 'my-agent');
    const rows = new Map(run.files.flatMap((f) => f.rows.map((item) => [item.value.instance_id, { file: f.file, item }] as const)));
    assert.deepEqual([...rows.keys()].sort(), ['o__r-1', 'o__r-2', 'o__r-3', 'o__r-4']);
    for (const { item } of rows.values()) assert.equal(item.value.explorer, 'my-agent');
    assert.deepEqual(rows.get('o__r-1')!.item.value.regions, [
      { path: 'a.py', start: 3, end: 8 },
      { path: 'pkg/b.py', start: 1, end: -1 },
    ]);
    assert.equal(rows.get('o__r-1')!.file, path.join(folder, 'o__r-1.txt'));
    assert.equal(rows.get('o__r-1')!.item.line, 4, 'the row is located at its first entry');
    assert.deepEqual(rows.get('o__r-2')!.item.value.regions, []);
    assert.deepEqual(rows.get('o__r-3')!.item.value.regions, [{ path: 'a.py', start: 1, end: 2 }]);
    assert.equal(rows.get('o__r-3')!.file, path.join(folder, 'o__r-3', 'a-first.txt'));
    assert.deepEqual(rows.get('o__r-4')!.item.value.regions, [{ path: 'anything/at/all.py', start: 4, end: 5 }]);

    const byCode = (code: string): { file: string; line: number; instanceId?: string }[] =>
      run.problems.filter((p) => p.code === code).map((p) => ({ file: p.file, line: p.line, ...(p.instanceId === undefined ? {} : { instanceId: p.instanceId }) }));
    assert.deepEqual(byCode('answer-empty'), [{ file: path.join(folder, 'o__r-2.md'), line: 0, instanceId: 'o__r-2' }]);
    assert.deepEqual(byCode('unknown-instance'), [{ file: path.join(folder, 'someone__else-9.txt'), line: 0 }]);
    assert.deepEqual(byCode('duplicate-row'), [{ file: path.join(folder, 'o__r-1', 'answer.txt'), line: 0, instanceId: 'o__r-1' }]);
    assert.deepEqual(byCode('answer-entry-skipped'), [{ file: path.join(folder, 'o__r-1.txt'), line: 6, instanceId: 'o__r-1' }]);
    assert.ok(run.problems.every((p) => p.severity === 'warning'));
  });

  it('reads every transcript as an answer, whatever its first character; empty ones and prose-only locations are reported', async () => {
    const { root } = workspace();
    const folder = path.join(root, 'logged-agent');
    mkdirSync(folder);
    // A log that starts with a timestamp in brackets (would look like a JSON array).
    writeFileSync(path.join(folder, 'o__r-1.log'), '[2024-05-01 10:00:00] agent started\nI looked around.\n\nRELEVANT_FILES:\n- a.py:3-8\n');
    // An empty transcript.
    writeFileSync(path.join(folder, 'o__r-2.md'), '');
    // A JSON log record first, then prose with a location and no block.
    writeFileSync(path.join(folder, 'o__r-3.txt'), '{"event": "start"}\nThe bug is in a.py:20-21 somewhere.\n');
    const instances = new Map<string, TranscriptInstance>(['o__r-1', 'o__r-2', 'o__r-3'].map((id) => [id, { snapshotRoot: path.join(root, 'repos', id) }]));
    const run = await readTranscriptFolder(folder, instances);
    const regions = new Map(run.files.flatMap((f) => f.rows.map((item) => [item.value.instance_id, item.value.regions] as const)));
    assert.deepEqual(regions.get('o__r-1'), [{ path: 'a.py', start: 3, end: 8 }]);
    assert.deepEqual(regions.get('o__r-2'), [], 'an empty transcript is an answer with no region, like a prose one');
    assert.deepEqual(regions.get('o__r-3'), [{ path: 'a.py', start: 20, end: 21 }]);
    const codes = run.problems.map((p) => [p.code, path.basename(p.file), p.severity]);
    assert.deepEqual(codes.sort(), [
      ['answer-empty', 'o__r-2.md', 'warning'],
      ['answer-no-block', 'o__r-3.txt', 'warning'],
    ]);
  });

  it('a folder that cannot be read is one io-error problem, not a failure', async () => {
    const run = await readTranscriptFolder(path.join(os.tmpdir(), 'swe-explore-no-such-folder-' + process.pid), new Map());
    assert.deepEqual(run.files, []);
    assert.equal(run.problems.length, 1);
    assert.equal(run.problems[0]!.code, 'io-error');
  });
});

describe('loadWorkspace with transcript folders', () => {
  it('a transcript folder is one explorer named after the folder, after the prediction files', async () => {
    const { bench, folder } = workspace();
    const preds = path.join(path.dirname(bench), 'preds.jsonl');
    writeFileSync(preds, JSON.stringify({ instance_id: 'o__r-1', explorer: 'bm25', regions: [{ path: 'a.py', start: 1, end: 2 }] }) + '\n');
    const model = await loadWorkspace({ benchFile: bench, predictionFiles: [preds], transcriptFolders: [folder] });
    assert.deepEqual([...model.explorers.keys()], ['bm25', 'my-agent']);
    const run = model.explorers.get('my-agent')!;
    assert.equal(run.name, 'my-agent');
    assert.deepEqual([...run.rows.keys()].sort(), ['o__r-1', 'o__r-2', 'o__r-3', 'o__r-4']);
    assert.deepEqual(run.rows.get('o__r-3')!.regions, [{ path: 'a.py', start: 1, end: 2 }]);
    // The data checks see each transcript as its own file.
    assert.ok(model.predictionItems.some((p) => p.file === path.join(folder, 'o__r-1.txt')));
    assert.ok(model.problems.some((p) => p.code === 'unknown-instance' && p.file.endsWith('someone__else-9.txt')));
    assert.ok(model.problems.some((p) => p.code === 'answer-empty' && p.file.endsWith('o__r-2.md')));
  });

  it('a folder named like an existing explorer gets the file-labelled rule', async () => {
    const { bench, folder } = workspace();
    const preds = path.join(path.dirname(bench), 'preds.jsonl');
    writeFileSync(preds, JSON.stringify({ instance_id: 'o__r-1', explorer: 'my-agent', regions: [{ path: 'a.py', start: 1, end: 2 }] }) + '\n');
    const model = await loadWorkspace({ benchFile: bench, predictionFiles: [preds], transcriptFolders: [folder] });
    assert.deepEqual([...model.explorers.keys()], ['my-agent (preds.jsonl)', 'my-agent (my-agent)']);
  });
});

describe('readTranscriptFolder on a hostile folder (issue 15, finding 8)', () => {
  it('a symlinked transcript pointing outside the folder is refused, never read or echoed; one pointing inside is read', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-transcripts-links-'));
    const folder = path.join(root, 'agent');
    mkdirSync(folder);
    const secret = path.join(root, 'secret.txt');
    writeFileSync(secret, 'RELEVANT_FILES:\n- SECRET-TOKEN-abc123:1-2\n');
    symlinkSync(secret, path.join(folder, 'o__r-1.txt'));
    mkdirSync(path.join(folder, 'o__r-2'));
    symlinkSync(secret, path.join(folder, 'o__r-2', 'answer.txt'));
    writeFileSync(path.join(folder, 'real-answer.log'), 'RELEVANT_FILES:\n- a.py:1-2\n');
    symlinkSync(path.join(folder, 'real-answer.log'), path.join(folder, 'o__r-3.txt'));
    const instances = new Map<string, TranscriptInstance>(['o__r-1', 'o__r-2', 'o__r-3'].map((id) => [id, { snapshotRoot: undefined }]));
    const run = await readTranscriptFolder(folder, instances);
    assert.deepEqual(
      run.files.map((f) => f.rows[0]!.value.instance_id),
      ['o__r-3'],
    );
    assert.doesNotMatch(JSON.stringify(run.problems), /SECRET-TOKEN/);
    const refused = run.problems.filter((p) => p.code === 'symlink-escape');
    assert.deepEqual(refused.map((p) => path.relative(folder, p.file)).sort(), ['o__r-1.txt', path.join('o__r-2', 'answer.txt')]);
  });
});
