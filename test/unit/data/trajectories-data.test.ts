/**
 * The trajectory data layer on files written here: the format registry (sniffing, unknown formats,
 * bad bytes, size cap), the native readers, finding runs (roots, templates, refusals), harness
 * reports, the lazy folder index, the builder's line count, and loading a run's reads.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  builderLineCount,
  indexTrajectoryFolder,
  loadRun,
  locateRun,
  parseTrajectoryBytes,
  parseTrajectoryText,
  readTrajectoryFile,
  ResolutionReports,
  resolutionInReport,
  TRAJECTORY_READERS,
  unknownTemplatePlaceholders,
  type RunLocator,
} from '../../../src/data';

const work = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-trajs-'));
after(() => rmSync(work, { recursive: true, force: true }));

function write(relative: string, content: string | Buffer): string {
  const file = path.join(work, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const unified = (traj: unknown[], info: Record<string, unknown> = {}): string =>
  JSON.stringify({ info: { instance_id: 'org__repo-1', model: 'm/model', config: { environment: { cwd: '/testbed' } }, ...info }, traj });

describe('format registry', () => {
  it('reads a unified file: objects of traj only, info fields', async () => {
    const file = write(
      'u/run__0.json',
      unified([{ role: 'system', content: 's' }, 'not a message', { role: 'assistant', content: 'x', tool_calls: [{ id: 'c1', function: { name: 'bash', arguments: '{}' } }, 7] }], {
        submission: 'diff',
        exit_status: 'Submitted',
      }),
    );
    const result = await readTrajectoryFile(file);
    assert.deepEqual(result.problems, []);
    const t = result.trajectory!;
    assert.equal(t.format, 'swe-explore-unified');
    assert.deepEqual(t.info, { instanceId: 'org__repo-1', model: 'm/model', cwd: '/testbed', submission: 'diff', exitStatus: 'Submitted' });
    assert.equal(t.messages.length, 2, 'the string item is dropped before indexing');
    assert.deepEqual(t.messages[1]!.toolCalls, [
      { name: 'bash', arguments: '{}', id: 'c1' },
      { name: '', arguments: undefined },
    ]);
    assert.match(t.notes[0]!, /not objects/);
  });
  it('mini-swe-agent v1 and v2: messages 1:1, model from config, instance from the top level', async () => {
    const v1 = write(
      'm/a.traj.json',
      JSON.stringify({
        info: { config: { model: { model_name: 'g/gem' }, environment: { cwd: '/repo' } }, mini_version: '1.15.0' },
        messages: [{ role: 'assistant', content: 'x' }],
        trajectory_format: 'mini-swe-agent-1',
        instance_id: 'o__r-2',
      }),
    );
    const r1 = (await readTrajectoryFile(v1)).trajectory!;
    assert.equal(r1.format, 'mini-swe-agent-1');
    assert.deepEqual(r1.info, { instanceId: 'o__r-2', model: 'g/gem', cwd: '/repo' });
    const legacy = write('m/b.traj.json', JSON.stringify({ info: { mini_version: '0.9' }, messages: [] }));
    assert.equal((await readTrajectoryFile(legacy)).trajectory!.format, 'mini-swe-agent-1');
    const text = write('m/c.traj.json', JSON.stringify({ info: {}, messages: [{ role: 'assistant', content: '```mswea_bash_command\ncat a.py\n```' }], trajectory_format: 'mini-swe-agent-1.1' }));
    const r2 = (await readTrajectoryFile(text)).trajectory!;
    assert.equal(r2.format, 'mini-swe-agent-1.1');
    assert.match(r2.notes.join(' '), /yields no reads/);
  });
  it('v2 tool-call runs are read through their tool calls', async () => {
    const file = write(
      'm/d.traj.json',
      JSON.stringify({
        info: { config: { model: { model_name: 'x' }, environment: { cwd: '/testbed' } } },
        messages: [
          { role: 'system', content: 's' },
          { role: 'assistant', content: '', tool_calls: [{ id: '1', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: "sed -n '3,9p' /testbed/a.py" }) } }] },
          { role: 'tool', tool_call_id: '1', content: '...' },
        ],
        trajectory_format: 'mini-swe-agent-1.1',
        instance_id: 'o__r-3',
      }),
    );
    const { run } = await loadRun(file);
    assert.deepEqual(
      run!.reads.reads.map((r) => [r.path, r.start, r.end, r.stepIdx, r.idiom]),
      [['a.py', 3, 9, 1, 'sed_range']],
    );
  });
  it('a JSON object with info but no traj: zero messages (the builder’s reading), with a note', async () => {
    const file = write('u/empty.json', JSON.stringify({ info: { instance_id: 'o__r-4' } }));
    const t = (await readTrajectoryFile(file)).trajectory!;
    assert.equal(t.messages.length, 0);
    assert.match(t.notes[0]!, /empties the core/);
  });
  it('unknown content: one problem naming the file and every format tried', async () => {
    const file = write('x/report.json', JSON.stringify({ resolved: true }));
    const result = await readTrajectoryFile(file);
    assert.equal(result.trajectory, undefined);
    assert.equal(result.problems.length, 1);
    const [problem] = result.problems;
    assert.equal(problem!.file, file);
    assert.equal(problem!.code, 'unknown-trajectory-format');
    for (const reader of TRAJECTORY_READERS) assert.ok(problem!.message.includes(reader.description), reader.description);
  });
  it('bad JSON, a BOM, bad UTF-8, traj null and an oversized file are problems, never exceptions', async () => {
    const cases: [string, string | Buffer, string][] = [
      ['bad.json', '{"info": {', 'invalid-json'],
      ['bom.json', `\ufeff${unified([])}`, 'invalid-json'],
      ['bytes.json', Buffer.from([0x7b, 0xff, 0x7d]), 'invalid-utf8'],
      ['null.json', JSON.stringify({ traj: null }), 'trajectory-unreadable'],
    ];
    for (const [name, content, code] of cases) {
      const result = await readTrajectoryFile(write(`bad/${name}`, content));
      assert.equal(result.trajectory, undefined, name);
      assert.deepEqual(
        result.problems.map((p) => p.code),
        [code],
        name,
      );
    }
    const big = await readTrajectoryFile(write('bad/big.json', unified([])), { maxBytes: 10 });
    assert.deepEqual(
      big.problems.map((p) => p.code),
      ['file-too-large'],
    );
    const missing = await readTrajectoryFile(path.join(work, 'nope.json'));
    assert.deepEqual(
      missing.problems.map((p) => p.code),
      ['io-error'],
    );
    const folder = await readTrajectoryFile(work);
    assert.deepEqual(
      folder.problems.map((p) => p.code),
      ['io-error'],
    );
  });
  it('Python NaN tokens are read as null with a warning; JSON lines parse per line', async () => {
    const nan = await readTrajectoryFile(write('u/nan.json', '{"info": {"cost": NaN}, "traj": []}'));
    assert.ok(nan.trajectory);
    assert.deepEqual(
      nan.problems.map((p) => [p.code, p.severity]),
      [['nonstandard-json', 'warning']],
    );
    const lines = parseTrajectoryText('{"type": "a"}\nnot json\n{"type": "b"}\n', 'events.jsonl');
    assert.deepEqual(lines.content, { kind: 'jsonl', values: [{ type: 'a' }, { type: 'b' }], badLines: [2] });
    assert.equal(parseTrajectoryText('{"a": 1}\n{"b": 2}\n', 'events.log').content?.kind, 'jsonl');
    assert.equal(parseTrajectoryText('{"a": 1}\n', 'one.json').content?.kind, 'json');
  });
  it('parses the bytes of a file as its text: JSON lines decoded line by line give the same lines', () => {
    const piece = fc.constantFrom('\n', '\r\n', '\r', ' ', '\u00a0', '\ufeff', '{"a": 1}', '{"t": "→ é"}', '[NaN]', 'not json', '"x"', '{', '}');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.constantFrom('run.jsonl', 'run.JSONL', 'run.json', 'run.traj'), (pieces, name) => {
        const text = pieces.join('');
        assert.deepEqual(parseTrajectoryBytes(Buffer.from(text, 'utf8'), name), parseTrajectoryText(text, name), JSON.stringify([text, name]));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('finding runs', () => {
  const root = path.join(work, 'root');
  write('root/unify/gemini-3-pro/o__r-1__0.json', unified([]));
  write('outside/secret.json', unified([]));
  write('tpl/gem/o__r-1/o__r-1.traj.json', unified([]));
  const locator: RunLocator = { roots: [root], templates: [{ key: 'gemini-3-pro', template: 'tpl/gem/{instance_id}/{instance_id}.traj.json' }], templateBase: work };

  it('<root>/<traj_path> first', async () => {
    const found = await locateRun('unify/gemini-3-pro/o__r-1__0.json', 'o__r-1', locator);
    assert.deepEqual(found.found && [found.via, path.basename(found.file)], ['root', 'o__r-1__0.json']);
  });
  it('then a template whose key is the model folder or the model name', async () => {
    const found = await locateRun('elsewhere/gemini-3-pro/o__r-1__0.json', 'o__r-1', locator);
    assert.deepEqual(found.found && [found.via, found.from], ['template', 'gemini-3-pro']);
    const byModel = await locateRun('x/y/o__r-1__0.json', 'o__r-1', { ...locator, templates: [{ key: 'google/gem', template: 'tpl/gem/{instance_id}/{instance_id}.traj.json' }] }, 'google/gem');
    assert.ok(byModel.found);
  });
  it('absolute and escaping traj_paths are refused, never opened; data values in templates must be plain names', async () => {
    for (const trajPath of [path.join(work, 'outside', 'secret.json'), '../outside/secret.json']) {
      const found = await locateRun(trajPath, 'o__r-1', { ...locator, templates: [] });
      assert.equal(found.found, false, trajPath);
    }
    const sneaky = await locateRun('a/gemini-3-pro/x.json', '../../outside', locator);
    assert.equal(sneaky.found, false);
    assert.match(JSON.stringify(sneaky), /not a plain file name/);
  });
  it('template placeholders are checked', () => {
    assert.deepEqual(unknownTemplatePlaceholders('a/{instance_id}/{model}/{file_name}'), ['{model}']);
  });
});

describe('resolution reports', () => {
  write('reports/per-run/o__r-1.report.json', JSON.stringify({ resolved: true }));
  write('reports/per-run/o__r-2.report.json', JSON.stringify({ resolved: false }));
  write('reports/harness/o__r-3/report.json', JSON.stringify({ 'o__r-3': { resolved: true } }));
  write('reports/map.json', JSON.stringify({ 'o__r-1': { resolved: false } }));
  write('reports/summary.json', JSON.stringify({ resolved_ids: ['o__r-1'], unresolved_ids: ['o__r-2'] }));
  write('reports/broken/o__r-1.report.json', '{');

  it('per-run files, harness folders, one map, one summary; unknown otherwise', async () => {
    const reports = new ResolutionReports(
      [
        { key: 'gem', path: 'reports/per-run' },
        { key: 'harness', path: path.join(work, 'reports', 'harness') },
        { key: 'map', path: 'reports/map.json' },
        { key: 'sum', path: 'reports/summary.json' },
        { key: 'broken', path: 'reports/broken' },
      ],
      work,
    );
    const ask = async (folder: string, id: string): Promise<string> => (await reports.resolutionOf(`t/${folder}/${id}__0.json`, id)).resolution;
    assert.equal(await ask('gem', 'o__r-1'), 'resolved');
    assert.equal(await ask('gem', 'o__r-2'), 'not-resolved');
    assert.equal(await ask('gem', 'o__r-9'), 'unknown');
    assert.equal(await ask('harness', 'o__r-3'), 'resolved');
    assert.equal(await ask('map', 'o__r-1'), 'not-resolved');
    assert.equal(await ask('sum', 'o__r-1'), 'resolved');
    assert.equal(await ask('sum', 'o__r-2'), 'not-resolved');
    assert.equal(await ask('sum', 'o__r-7'), 'unknown');
    assert.equal(await ask('nobody', 'o__r-1'), 'unknown');
    const broken = await reports.resolutionOf('t/broken/o__r-1__0.json', 'o__r-1');
    assert.deepEqual([broken.resolution, broken.problems.map((p) => p.code)], ['unknown', ['resolution-report-invalid']]);
    assert.equal((await reports.resolutionOf('t/x/o__r-1__0.json', 'o__r-1', 'gem')).resolution, 'resolved', 'a key may name the model');
  });
  it('reads the shapes of one report', () => {
    assert.equal(resolutionInReport({ resolved: 'yes' }, 'a'), undefined);
    assert.equal(resolutionInReport({ error_ids: ['a'] }, 'a'), 'not-resolved');
  });
});

describe('folder index', () => {
  it('lists trajectory files in byte order, without entering symlinked folders or following links out', async () => {
    write('idx/claude/a__0.json', '{}');
    write('idx/claude-4-5/b.traj', '{}');
    write('idx/gemini/sub/c.traj.json', '{}');
    write('idx/notes.txt', 'x');
    write('idx/z.jsonl', '');
    symlinkSync(path.join(work, 'outside'), path.join(work, 'idx', 'linked-dir'));
    symlinkSync(path.join(work, 'outside', 'secret.json'), path.join(work, 'idx', 'escape.json'));
    symlinkSync(path.join(work, 'idx', 'claude', 'a__0.json'), path.join(work, 'idx', 'inside.json'));
    const index = await indexTrajectoryFolder(path.join(work, 'idx'));
    assert.deepEqual(
      index.entries.map((e) => [e.relative, e.folder, e.instanceHint]),
      [
        ['claude-4-5/b.traj', 'claude-4-5', 'b'],
        ['claude/a__0.json', 'claude', 'a'],
        ['gemini/sub/c.traj.json', 'sub', 'c'],
        ['inside.json', '', 'inside'],
        ['z.jsonl', '', 'z'],
      ],
    );
    assert.deepEqual(index.problems, []);
    const missing = await indexTrajectoryFolder(path.join(work, 'no-such'));
    assert.equal(missing.problems[0]!.code, 'io-error');
  });
});

describe('repository', () => {
  it('counts lines as text-mode iteration does: \\n, \\r, \\r\\n only; undecodable bytes ignored', async () => {
    const file = write('repo/f.txt', Buffer.concat([Buffer.from('a\rb\r\nc\u000bd\u000ce\u2028f\n'), Buffer.from([0xff])]));
    assert.equal(await builderLineCount(file), 3);
    assert.equal(await builderLineCount(write('repo/empty.txt', '')), 0);
    assert.equal(await builderLineCount(write('repo/last.txt', 'x\ny')), 2);
  });
  it('loadRun keeps only files of the repository, and reports calls the builder would stop on', async () => {
    write('repo2/src/a.py', 'x\n');
    const file = write(
      'runs/m/o__r-1__0.json',
      unified([
        { role: 'assistant', content: '```bash\ncat src/a.py src/missing.py /testbed/src/../../../etc/passwd.py\n```' },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'str_replace_editor', arguments: JSON.stringify({ command: 'view', path: '/testbed/src/a.py', view_range: ['x', 2] }) } }] },
      ]),
    );
    const { run, problems } = await loadRun(file, { repoDir: path.join(work, 'repo2') });
    assert.deepEqual(
      run!.reads.reads.map((r) => r.path),
      ['src/a.py'],
    );
    assert.deepEqual(
      run!.reads.dropped.map((d) => [d.read.path, d.reason]),
      [
        ['src/missing.py', 'not-a-file'],
        ['src/../../../etc/passwd.py', 'not-a-file'],
      ],
    );
    assert.deepEqual(
      problems.map((p) => p.code),
      ['trajectory-call-skipped'],
    );
  });
});
