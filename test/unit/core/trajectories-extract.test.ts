/**
 * Which messages the builder reads and how (§1 "Which messages"), the Python text rules, path
 * normalisation and the filters (§1 "Normalisation", "Filters"), on synthetic trajectories.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareCodePoints,
  instanceBases,
  instanceIdFromFileName,
  keptByNameRules,
  messageText,
  modifiedFiles,
  normalizeTrajectoryPath,
  pyIntOfString,
  pyRepr,
  pySplitLines,
  trajectoryInstanceId,
  trajectoryModel,
  trajectoryRawReads,
  trajectoryReads,
  type Trajectory,
  type TrajectoryMessage,
} from '../../../src/core';

function message(role: string, content: unknown, toolCalls: { name: string; arguments: unknown }[] = []): TrajectoryMessage {
  return { role, content, toolCalls };
}

function trajectory(messages: TrajectoryMessage[], info: Trajectory['info'] = {}): Trajectory {
  return { format: 'swe-explore-unified', info, messages, notes: [] };
}

const fence = (command: string): string => `THOUGHT: look\n\n\`\`\`bash\n${command}\n\`\`\``;
const view = (path: string, viewRange?: unknown): { name: string; arguments: string } => ({
  name: 'str_replace_editor',
  arguments: JSON.stringify({ command: 'view', path, ...(viewRange === undefined ? {} : { view_range: viewRange }) }),
});
const bash = (command: unknown, name = 'bash'): { name: string; arguments: string } => ({ name, arguments: JSON.stringify({ command }) });

/** `[path, start, end, stepIdx, idiom]` of every raw read. */
function raw(t: Trajectory): [string, number, number, number, string][] {
  return trajectoryRawReads(t).reads.map((r) => [r.path, r.start, r.end, r.stepIdx, r.idiom]);
}

describe('Python text rules', () => {
  it('message text: strings as they are, lists join their strings, other truthy values print as Python does', () => {
    assert.equal(messageText('a'), 'a');
    assert.equal(messageText(['a', { type: 'text', text: 'hidden' }, 'b', 3]), 'a b');
    assert.equal(messageText([{ type: 'text', text: 'x' }]), '');
    assert.equal(messageText({ b: 1, a: [true, null, "it's"], c: 'q"' }), `{'b': 1, 'a': [True, None, "it's"], 'c': 'q"'}`);
    assert.equal(messageText(5), '5');
    assert.equal(messageText(true), 'True');
    for (const falsy of [undefined, null, 0, false, '', {}, []]) assert.equal(messageText(falsy), '');
  });
  it('repr of strings escapes as Python does', () => {
    assert.equal(pyRepr('a\nb\t\\\u0007\u00e9\u2028'), "'a\\nb\\t\\\\\\x07é\\u2028'");
    assert.equal(pyRepr(`both ' and "`), `'both \\' and "'`);
  });
  it('repr of floats follows Python (exponent from 1e16 and below 1e-4, .0 on integral values)', () => {
    assert.equal(pyRepr(1.5), '1.5');
    assert.equal(pyRepr(1e16), '1e+16');
    assert.equal(pyRepr(1.5e-5), '1.5e-05');
    assert.equal(pyRepr(0.0001), '0.0001');
    assert.equal(pyRepr(123.456), '123.456');
    assert.equal(pyRepr(2 ** 60), '1.152921504606847e+18');
  });
  it('splitlines, int() and code-point order', () => {
    assert.deepEqual(pySplitLines('a\r\nb\rc\u000bd\u0085e\n'), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(pyIntOfString('+1_000'), 1000);
    assert.equal(pyIntOfString('\u0661\u0662'), 12);
    assert.equal(pyIntOfString('1.5'), undefined);
    assert.equal(pyIntOfString('1__0'), undefined);
    assert.ok(compareCodePoints('\uff01', '\u{1f600}') < 0, 'U+FF01 sorts before U+1F600 by code point (UTF-16 units say otherwise)');
  });
});

describe('which messages', () => {
  it('only assistant messages; step_idx is the message index; the output is the next message of any role', () => {
    const t = trajectory([message('system', fence('cat s.py')), message('user', fence('cat u.py')), message('assistant', fence('grep -rn foo .')), message('tool', 'a.py:3:foo')]);
    assert.deepEqual(raw(t), [['a.py', 3, 3, 2, 'grep_hit']]);
  });
  it('only the first ```bash fence counts; untagged, sh and mswea_bash_command fences never match', () => {
    assert.deepEqual(raw(trajectory([message('assistant', `${fence('cat a.py')}\n${fence('cat b.py')}`)])), [['a.py', 1, -1, 0, 'cat']]);
    for (const tag of ['', 'sh', 'mswea_bash_command', 'Bash']) assert.deepEqual(raw(trajectory([message('assistant', `\`\`\`${tag}\ncat a.py\n\`\`\``)])), [], tag);
  });
  it('the fence may have blanks after its tag and CRLF lines', () => {
    assert.deepEqual(raw(trajectory([message('assistant', '```bash   \r\ncat a.py\r\n```')])), [['a.py', 1, -1, 0, 'cat']]);
  });
  it('list-form contents: dict parts are invisible (a grep output given as parts gives no hits)', () => {
    const t = trajectory([message('assistant', [fence('grep -n foo a.py')]), message('tool', [{ type: 'text', text: 'b.py:3:foo' }])]);
    assert.deepEqual(raw(t), [['a.py', 1, -1, 0, 'grep_whole']]);
  });
  it('fence reads come before tool-call reads; both strategies run', () => {
    const t = trajectory([message('assistant', fence('cat a.py'), [view('/testbed/b.py', [3, 9]), bash('cat c.py', 'execute_bash')])]);
    assert.deepEqual(raw(t), [
      ['a.py', 1, -1, 0, 'cat'],
      ['/testbed/b.py', 3, 9, 0, 'view_range'],
      ['c.py', 1, -1, 0, 'cat'],
    ]);
  });
  it('parallel bash calls all get the first reply as output', () => {
    const t = trajectory([message('assistant', '', [bash('grep -rn x .'), bash('grep -rn y .')]), message('tool', 'a.py:1:x'), message('tool', 'b.py:2:y')]);
    assert.deepEqual(raw(t), [
      ['a.py', 1, 1, 0, 'grep_hit'],
      ['a.py', 1, 1, 0, 'grep_hit'],
    ]);
  });
});

describe('str_replace_editor view', () => {
  it('view_range gives (int(a), int(b)); without a list of two, the whole file', () => {
    const t = trajectory([
      message('assistant', '', [view('/testbed/a.py', [10, 40]), view('/testbed/b.py'), view('/testbed/c.py', [7]), view('/testbed/d.py', ['5', 9.9]), view('/testbed/e.py', [true, -1])]),
    ]);
    assert.deepEqual(raw(t), [
      ['/testbed/a.py', 10, 40, 0, 'view_range'],
      ['/testbed/b.py', 1, -1, 0, 'view_whole'],
      ['/testbed/c.py', 1, -1, 0, 'view_whole'],
      ['/testbed/d.py', 5, 9, 0, 'view_range'],
      ['/testbed/e.py', 1, -1, 0, 'view_range'],
    ]);
  });
  it('what the builder would stop on is skipped and reported; bad JSON reads as {}', () => {
    const t = trajectory([
      message('assistant', '', [
        view('/testbed/a.py', [null, 3]),
        { name: 'str_replace_editor', arguments: '{"command": "view", "path": ' },
        { name: 'str_replace_editor', arguments: '[1]' },
        { name: 'bash', arguments: JSON.stringify({ command: ['cat', 'a.py'] }) },
        { name: 'str_replace_editor', arguments: { command: 'view', path: '/testbed/ok.py' } },
        { name: 'str_replace_editor', arguments: JSON.stringify({ command: 'create', path: '/testbed/new.py' }) },
        { name: 'open_file', arguments: JSON.stringify({ path: '/testbed/x.py' }) },
        view(''),
      ]),
    ]);
    const found = trajectoryRawReads(t);
    assert.deepEqual(
      found.reads.map((r) => [r.path, r.call]),
      [['/testbed/ok.py', 4]],
    );
    assert.deepEqual(
      found.skipped.map((s) => [s.call, s.reason]),
      [
        [0, 'a str_replace_editor view whose view_range is not a pair of integers'],
        [2, "the str_replace_editor call's arguments are not a JSON object"],
        [3, 'a bash call whose command is not a string'],
      ],
    );
  });
});

describe('normalisation', () => {
  it('strips the base, then / and one ./', () => {
    assert.equal(normalizeTrajectoryPath('/testbed/a/b.py', '/testbed'), 'a/b.py');
    assert.equal(normalizeTrajectoryPath('/testbed/./a.py', '/testbed'), 'a.py');
    assert.equal(normalizeTrajectoryPath('./a.py', '/testbed'), 'a.py');
    assert.equal(normalizeTrajectoryPath('a/../a/x.py', '/testbed'), 'a/../a/x.py');
  });
  it('plain startsWith: /testbed2/x matches the base /testbed', () => {
    assert.equal(normalizeTrajectoryPath('/testbed2/x.py', '/testbed'), '2/x.py');
  });
  it('/workspace/<dir>/<rest> gives the rest; /workspace/x.py gives ""', () => {
    assert.equal(normalizeTrajectoryPath('/workspace/org__repo__1.0/pkg/a.py', '/testbed'), 'pkg/a.py');
    assert.equal(normalizeTrajectoryPath('/workspace/x.py', '/testbed'), '');
    assert.equal(normalizeTrajectoryPath('/workspace/org__repo__1.0/pkg/a.py', '/workspace/org__repo__1.0'), 'pkg/a.py');
  });
  it("strips open(' '), backticks, then trailing \" ) ' ` ,", () => {
    assert.equal(normalizeTrajectoryPath("open('/testbed/a.py')", '/testbed'), 'a.py');
    assert.equal(normalizeTrajectoryPath('`a.py`', '/testbed'), 'a.py');
    assert.equal(normalizeTrajectoryPath('a.py",', '/testbed'), 'a.py');
  });
});

describe('filters', () => {
  const kept = (t: Trajectory, exists: (p: string) => boolean = () => true): string[] => trajectoryReads(t, '/testbed', { kind: 'repository', exists }).reads.map((r) => r.path);
  const dropped = (t: Trajectory, exists: (p: string) => boolean = () => true): [string, string][] =>
    trajectoryReads(t, '/testbed', { kind: 'repository', exists }).dropped.map((d) => [d.read.rawPath, d.reason]);
  const cat = (...paths: string[]): Trajectory => trajectory([message('assistant', fence(`cat ${paths.join(' ')}`))]);

  it('temp file names of the normalised path', () => {
    assert.deepEqual(dropped(cat('/testbed/reproduce_bug.py', 'x/debug_a.py', 'tmp_a.py', 'temp_b.py', 'test_reproduce.py', 'pkg/__pycache__')), [
      ['/testbed/reproduce_bug.py', 'temp-name'],
      ['x/debug_a.py', 'temp-name'],
      ['tmp_a.py', 'temp-name'],
      ['temp_b.py', 'temp-name'],
      ['test_reproduce.py', 'temp-name'],
      ['pkg/__pycache__', 'temp-name'],
    ]);
  });
  it('URLs, the 24 characters, and temp prefixes of the raw path (relative first directories only)', () => {
    assert.deepEqual(dropped(cat('http://x/a.py', 'a[1].py', 'a(b.py', 'templates/a.html', '/testbed/templates/b.html', 'src/template.py', 'reproduce.py')), [
      ['http://x/a.py', 'url'],
      ['a[1].py', 'special-character'],
      ['templates/a.html', 'temp-prefix'],
      ['src/template.py', 'temp-prefix'],
      ['reproduce.py', 'temp-prefix'],
    ]);
    assert.deepEqual(kept(cat('a(b.py', '/testbed/templates/b.html')), ['a(b.py', 'templates/b.html']);
  });
  it('the existence test: only files the injected test accepts', () => {
    const t = cat('/testbed/a.py', 'build/x.py', '/usr/lib/y.py');
    assert.deepEqual(
      kept(t, (p) => p === 'a.py'),
      ['a.py'],
    );
    assert.deepEqual(
      dropped(t, (p) => p === 'a.py'),
      [
        ['build/x.py', 'not-a-file'],
        ['/usr/lib/y.py', 'not-a-file'],
      ],
    );
  });
  it('without a repository, the builder name rules', () => {
    assert.ok(keptByNameRules('src/module', 'astropy'));
    assert.ok(!keptByNameRules('foo/module', 'astropy'));
    assert.ok(keptByNameRules('foo/bar.py', 'astropy'));
    assert.ok(!keptByNameRules('foo/bar.PY', 'astropy'), 'the extension test is case-sensitive here');
    assert.ok(keptByNameRules('astropy/data.weird', 'astropy'));
    assert.ok(keptByNameRules('tests/data.weird', 'astropy'));
    assert.ok(!keptByNameRules('data.weird', 'astropy'));
    const t = cat('src/module', 'foo/module');
    assert.deepEqual(
      trajectoryReads(t, '/testbed', { kind: 'name-rules', repoName: 'astropy' }).reads.map((r) => r.path),
      ['src/module'],
    );
  });
  it('start or 1: a view from line 0 is kept from line 1', () => {
    const t = trajectory([message('assistant', '', [view('/testbed/a.py', [0, 5])])]);
    const [read] = trajectoryReads(t, '/testbed', { kind: 'repository', exists: () => true }).reads;
    assert.deepEqual([read!.start, read!.end, read!.seen], [1, 5, [[1, 5]]]);
  });
  it('swallowed paths pass the same filters', () => {
    const t = cat('-n', '/testbed/a.py');
    const result = trajectoryReads(t, '/testbed', { kind: 'repository', exists: (p) => p === 'a.py' });
    assert.deepEqual(result.reads, []);
    assert.deepEqual(
      result.swallowed.map((s) => [s.path, s.flag, s.seen]),
      [['a.py', '-n', [[1, -1]]]],
    );
  });
});

describe('bases, models, instances, modified files', () => {
  const plain = trajectory([]);
  const withCwd = (cwd: string): Trajectory => trajectory([], { cwd });
  const withWorkspace = trajectory([message('assistant', '', [{ name: 'str_replace_editor', arguments: JSON.stringify({ command: 'create', path: '/workspace/org__r__1/x.py' }) }])]);
  it('the first base found is used for this and every later trajectory; before it, the placeholder', () => {
    assert.deepEqual(instanceBases([plain, withCwd('/repo'), plain, withCwd('/other')], '/testbed'), ['/testbed', '/repo', '/repo', '/repo']);
    assert.deepEqual(instanceBases([withWorkspace, withCwd('/repo')], '/testbed'), ['/workspace/org__r__1', '/workspace/org__r__1']);
  });
  it('model: info.model, else the grand-parent folder; instance: info, else the file name', () => {
    assert.equal(trajectoryModel(trajectory([], { model: 'm' }), 'a/b/c.json'), 'm');
    assert.equal(trajectoryModel(plain, 'runs/claude/x/x__0.json'), 'claude');
    assert.equal(instanceIdFromFileName('dir/a__b-1__0.json'), 'a__b-1');
    assert.equal(instanceIdFromFileName('a__b-1.traj.json'), 'a__b-1');
    assert.equal(instanceIdFromFileName('a__b-1.traj'), 'a__b-1');
    assert.equal(trajectoryInstanceId(trajectory([], { instanceId: 'i' }), 'x.json'), 'i');
  });
  it('modified files: submission diff headers and str_replace edits, normalised, temp names dropped, never existence-checked', () => {
    const submission = 'diff --git a/src/a.py b/src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n@@\ndiff --git a/reproduce_x.py b/reproduce_x.py\n+++ b/new dir/b.py \r\n';
    const t = trajectory([message('assistant', '', [{ name: 'str_replace_editor', arguments: JSON.stringify({ command: 'str_replace', path: '/testbed/pyproject.toml' }) }])], { submission });
    assert.deepEqual(modifiedFiles(t, '/testbed').sort(), ['new dir/b.py', 'pyproject.toml', 'src/a.py']);
  });
});
