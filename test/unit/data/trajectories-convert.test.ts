/**
 * The trajectory converters (src/data/trajectories/convert/): every synthetic fixture of
 * test/fixtures/trajectories/ converted into the builder's message model, asserted message by
 * message (role, content text, tool calls), with its info and its notes; the reads those messages
 * should yield under the builder's rules are the data of test/unit/support/trajectory-expected-reads.ts.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Trajectory } from '../../../src/core/trajectories/types';
import type { TrajectoryContent } from '../../../src/data/trajectories/reader';
import { CONVERTERS } from '../../../src/data/trajectories/convert';
import { ConversionNotes, hasBashFence, linesOf, numberedLineRange, posixPath, shellQuote } from '../../../src/data/trajectories/convert/common';
import { shellWords } from '../../../src/data/trajectories/convert/sweAgent';
import { contentOfFile, contentOfText } from '../support/trajectory-content';
import { EXPECTED_READS } from '../support/trajectory-expected-reads';
import { cpuNow } from '../support/cpu-time';

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'trajectories');

function convert(rel: string): Trajectory {
  const file = path.join(FIXTURES, rel);
  const content = contentOfFile(file);
  const readers = CONVERTERS.filter((reader) => reader.sniff(content));
  assert.equal(readers.length, 1, `${rel}: sniffed by ${readers.map((r) => r.format).join(', ') || 'none'}`);
  return readers[0]!.read(content, file);
}

/** The one converter that accepts `content`, applied. */
function convert1(content: TrajectoryContent): Trajectory {
  const readers = CONVERTERS.filter((reader) => reader.sniff(content));
  assert.equal(readers.length, 1, readers.map((r) => r.format).join(', '));
  return readers[0]!.read(content, 'inline');
}

interface Shown {
  readonly role: string;
  readonly text: unknown;
  readonly calls: ReadonlyArray<{ readonly name: string; readonly args: unknown; readonly id?: string }>;
}

/** A message as the tests compare it: role, content, tool calls with their JSON arguments parsed. */
function shown(t: Trajectory): Shown[] {
  return t.messages.map((m) => ({
    role: m.role,
    text: m.content,
    calls: m.toolCalls.map((c) => {
      const args: unknown = typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments;
      return c.id === undefined ? { name: c.name, args } : { name: c.name, args, id: c.id };
    }),
  }));
}

const msg = (role: string, text: unknown, ...calls: Shown['calls']): Shown => ({ role, text, calls });
const call = (name: string, args: unknown, id?: string): Shown['calls'][number] => (id === undefined ? { name, args } : { name, args, id });
const view = (p: string, range?: readonly [number, number], id?: string): Shown['calls'][number] =>
  call('str_replace_editor', range === undefined ? { command: 'view', path: p } : { command: 'view', path: p, view_range: [range[0], range[1]] }, id);
const bash = (command: string, id?: string): Shown['calls'][number] => call('bash', { command }, id);

function fixtureJson(rel: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(FIXTURES, rel), 'utf8')) as Record<string, unknown>;
}

function fixtureLines(rel: string): readonly unknown[] {
  const content = contentOfFile(path.join(FIXTURES, rel));
  return content.kind === 'jsonl' ? content.values : [];
}

/** Every expected read points at an assistant message of the converted trajectory. */
function assertReadSteps(rel: string, t: Trajectory): void {
  for (const read of EXPECTED_READS[rel]!) assert.equal(t.messages[read.step_idx]?.role, 'assistant', `${rel}: read at step ${read.step_idx}`);
}

describe('SWE-agent 1.x', () => {
  it('text mode: actions become tool calls, observations the next message, unparsable views whole files', () => {
    const rel = 'swe-agent-1/text-mode.traj';
    const t = convert(rel);
    const source = fixtureJson(rel) as { trajectory: Array<{ observation: string }>; info: { submission: string } };
    const obs = (i: number): string => source.trajectory[i]!.observation;
    assert.equal(t.format, 'swe-agent-1');
    assert.deepEqual(t.info, { instanceId: 'octo__widgets-7', model: 'openai/gpt-5', cwd: '/testbed', submission: source.info.submission, exitStatus: 'submitted' });
    assert.deepEqual(shown(t), [
      msg('system', 'You are a helpful assistant that can interact with a computer.'),
      msg('user', '<uploaded_files>\n/testbed\n</uploaded_files>\nrender() returns 0 instead of 1.'),
      msg('assistant', 'DISCUSSION\nRead the renderer.\n\n', view('/testbed/widgets/core.py', [10, 40])),
      msg('tool', obs(0)),
      msg('assistant', 'DISCUSSION\nLook further down.\n\n', view('/testbed/widgets/core.py')),
      msg('tool', obs(1)),
      msg('assistant', 'DISCUSSION\nOpen the big module.\n\n', view('/testbed/widgets/big.py')),
      msg('tool', obs(2)),
      msg('assistant', 'DISCUSSION\nFind every renderer.\n\n', bash('grep -rn "def render" /testbed/widgets\n')),
      msg('tool', '/testbed/widgets/core.py:12:def render():\n/testbed/widgets/extra.py:3:def render_all():\n'),
      msg('assistant', 'DISCUSSION\nPackaging and helpers.\n\n', bash('cat /testbed/setup.py && head -n 20 /testbed/widgets/util.py\n')),
      msg('tool', obs(4)),
      msg('assistant', 'I could run:\n```bash\ncat /testbed/README.md\n```\nbut I will not.'),
      msg('user', ''),
      msg('assistant', 'DISCUSSION\nFix the return value.\n\n', call('str_replace_editor', { command: 'str_replace', path: '/testbed/widgets/core.py', old_str: 'return 0', new_str: 'return 1' })),
      msg('tool', obs(6)),
      msg('assistant', 'DISCUSSION\nSubmit.\n\n', call('submit', { action: 'submit\n' })),
      msg('tool', obs(7)),
    ]);
    assert.deepEqual(t.notes, [
      'demonstration messages of `history` (`is_demo`) were dropped: they are examples shown to the model, not this run.',
      'a message of `history` had list-form content; its text parts were joined into one string.',
      'Step 4: `str_replace_editor view` with a range the tool could not parse (it answered with a usage error) was read as a view of the whole file, as the builder counts a failed call and credits a view without range.',
      'Step 6: the tool abbreviated its view of a large file; read as a view of the whole file, as the builder credits a view without range.',
      'Step 12: the agent’s text holds a ```bash block that was not run as such (this agent runs commands through its tool calls); the builder reads it as a command.',
    ]);
    assertReadSteps(rel, t);
  });

  it('function calling: the steps come from trajectory[].action, one view range short is a usage error', () => {
    const rel = 'swe-agent-1/function-calling.traj';
    const t = convert(rel);
    assert.deepEqual(t.info, { instanceId: undefined, model: undefined, cwd: '/testbed', submission: undefined, exitStatus: 'exit_cost' });
    assert.deepEqual(
      shown(t).map((m) => [m.role, m.calls]),
      [
        ['system', []],
        ['user', []],
        ['assistant', [view('/testbed/pkg/mod.py', [5, 25])]],
        ['tool', []],
        ['assistant', [bash('find /testbed -name "*.py" | head -n 5')]],
        ['tool', []],
        ['assistant', [call('str_replace_editor', { command: 'create', path: '/testbed/reproduce.py', file_text: 'from pkg import mod\nprint(mod.f())\n' })]],
        ['tool', []],
        ['assistant', [bash("sed -n '5,25p' /testbed/pkg/mod.py")]],
        ['tool', []],
        ['assistant', [view('/testbed/pkg/mod.py')]],
        ['tool', []],
      ],
    );
    assert.equal(t.messages[2]!.content, 'Let me view the module.');
    assert.deepEqual(t.notes, [
      'Step 10: `str_replace_editor view` with a range the tool could not parse (it answered with a usage error) was read as a view of the whole file, as the builder counts a failed call and credits a view without range.',
    ]);
    assertReadSteps(rel, t);
  });
});

describe('SWE-agent 0.x', () => {
  it('windows become view ranges of the lines shown, searches become grep/find, edits are not reads', () => {
    const rel = 'swe-agent-0/windowed.traj';
    const t = convert(rel);
    const source = fixtureJson(rel) as { trajectory: Array<{ observation: string; action: string }> };
    const obs = (i: number): string => source.trajectory[i]!.observation;
    const core = '/octo__widgets/widgets/core.py';
    assert.equal(t.format, 'swe-agent-0');
    assert.deepEqual(t.info, { instanceId: undefined, model: undefined, cwd: '/octo__widgets', submission: 'diff --git a/widgets/core.py b/widgets/core.py\n', exitStatus: 'submitted' });
    const expected: Shown[] = [
      msg('system', 'SETTING: You are an autonomous programmer.'),
      msg('user', 'We are solving: render() returns 0.'),
      msg('assistant', 'Where is core.py?', bash('find . -name core.py')),
      msg('tool', obs(0)),
      msg('assistant', 'Open it near the renderer.', view(core, [100, 199])),
      msg('tool', obs(1)),
      msg('assistant', 'Keep reading.', view(core, [200, 299])),
      msg('tool', obs(2)),
      msg('assistant', 'Jump to the end.', view(core, [221, 320])),
      msg('tool', obs(3)),
      msg('assistant', 'Find the renderers in this file.', bash(`grep -n 'def render' ${core}`)),
      msg('tool', `Found 2 matches for "def render" in ${core}:\n12:def render():\n140:def render_all():\nEnd of matches for "def render" in ${core}\n`),
      msg('assistant', 'Who else renders?', bash('grep -rl render widgets')),
      msg('tool', obs(5)),
      msg('assistant', 'Packaging.', view('/octo__widgets/setup.py')),
      msg('tool', obs(6)),
      msg('assistant', 'Is there a missing module?', view('missing.py')),
      msg('tool', obs(7)),
      msg('assistant', 'Fix it.', call('edit', { action: source.trajectory[8]!.action })),
      msg('tool', obs(8)),
      msg('assistant', 'Odd search.', call('search_file', { action: source.trajectory[9]!.action })),
      msg('tool', obs(9)),
      msg('assistant', 'Reproduce.', call('create', { action: 'create reproduce.py\n' })),
      msg('tool', obs(10)),
      msg('assistant', 'Run it and read the helper.', bash('python reproduce.py && cat widgets/extra.py\n')),
      msg('tool', obs(11)),
      msg('assistant', 'Done.', call('submit', { action: 'submit\n' })),
      msg('tool', obs(12)),
    ];
    assert.deepEqual(shown(t), expected);
    assert.deepEqual(t.notes, [
      'Steps 2, 12: `find_file`/`search_dir` were written as `find D -name N` / `grep -rl T D`: they list file names, not lines, so they are not reads (a loader that writes them as `grep -rn` credits whole files instead).',
      'Steps 4, 6, 8, 14: `open`/`goto`/`scroll_*` showed a window of a file: read as a view of exactly the lines shown (of the whole file when the window held all of it).',
      'Step 10: `search_file` was written as `grep -n TERM FILE` with its matches printed as grep prints them for one file (`N:text`): the builder credits the whole file.',
      'Step 16: `open` showed no window (an error): read as a view of the whole named file, as the builder counts a failed call.',
      'Step 20: a search term or folder holds `;`, `&&` or `||`, which the builder would split the written command on: the command was kept under its own name (no read).',
    ]);
    assertReadSteps(rel, t);
  });
});

describe('OpenHands', () => {
  it('event stream: each action with the observation it caused, read ranges, bookkeeping skipped', () => {
    const rel = 'openhands-events/events.json';
    const t = convert(rel);
    const events = fixtureJson(rel) as unknown as Array<{ content?: string }>;
    const W = '/workspace/octo__widgets__1.0';
    assert.equal(t.format, 'openhands-events');
    assert.deepEqual(t.info, { instanceId: undefined, model: 'claude-sonnet-4-5', cwd: W, submission: undefined, exitStatus: undefined });
    assert.deepEqual(shown(t), [
      msg('system', 'You are OpenHands agent.'),
      msg('user', 'Fix render in widgets.'),
      msg('assistant', 'Look at core.', view(`${W}/widgets/core.py`, [10, 40], 'toolu_01')),
      msg('tool', events[6]!.content),
      msg('assistant', 'Search.', call('execute_bash', { command: `grep -rn "def render" ${W}/widgets` }, 'toolu_02')),
      msg('tool', events[8]!.content),
      msg('assistant', '', view(`${W}/widgets/extra.py`, [5, 20])),
      msg('tool', 'line 5\nline 6\n'),
      msg('assistant', '', view(`${W}/widgets/big.py`, undefined, 'toolu_04')),
      msg('tool', events[12]!.content),
      msg('assistant', 'Fix.', call('str_replace_editor', { command: 'str_replace', path: `${W}/widgets/core.py`, old_str: 'return 0', new_str: 'return 1' }, 'toolu_05')),
      msg('tool', events[14]!.content),
      msg('user', 'Sandbox restarted.'),
      msg('assistant', '', call('execute_bash', { command: `cat ${W}/setup.py` }, 'toolu_06')),
      msg('tool', 'from setuptools import setup\nsetup()'),
      msg('assistant', 'Done: render fixed.'),
      msg('assistant', 'Fixed render.', call('finish', { outputs: {}, final_thought: 'Fixed render.' }, 'toolu_07')),
    ]);
    assert.deepEqual(t.notes, [
      'Step 6: a `read` with `start`/`end` (a 0-based start and an exclusive end) was read as `view_range [start+1, end]`.',
      'Step 8: the editor abbreviated its view of a large file; read as a view of the whole file, as the builder credits a view without range.',
    ]);
    assert.equal(t.messages.filter((m) => m.role === 'assistant').length, 8);
    assertReadSteps(rel, t);
  });

  it('output.jsonl record in the older [action, observation] pair form: info from the record, delegation noted', () => {
    const rel = 'openhands-events/output.jsonl';
    const t = convert(rel);
    const W = '/workspace/octo__widgets__1.0';
    assert.deepEqual(t.info, { instanceId: 'octo__widgets-7', model: 'openai/gpt-4o', cwd: W, submission: 'diff --git a/widgets/core.py b/widgets/core.py\n', exitStatus: undefined });
    assert.deepEqual(shown(t), [
      msg('user', 'Fix it.'),
      msg('assistant', 'Peek.', call('execute_bash', { command: `sed -n '3,9p' ${W}/widgets/core.py` })),
      msg('tool', 'line 3\nline 4\n'),
      msg('assistant', '', call('delegate', { agent: 'BrowsingAgent', inputs: { task: 'read the docs' } })),
      msg('tool', 'docs read'),
      msg('assistant', 'Done.', call('finish', { outputs: {} })),
      msg('tool', ''),
    ]);
    assert.deepEqual(t.notes, ['Step 3: the agent delegated to another agent; the delegate’s actions are converted as they appear in the stream.']);
    assertReadSteps(rel, t);
  });

  it('an output.jsonl with several records is one clear error', () => {
    const file = path.join(FIXTURES, 'openhands-events', 'two-records.jsonl');
    const content = contentOfFile(file);
    const readers = CONVERTERS.filter((r) => r.sniff(content));
    assert.deepEqual(
      readers.map((r) => r.format),
      ['openhands-events'],
    );
    assert.throws(() => readers[0]!.read(content, file), /two-records\.jsonl: an OpenHands output\.jsonl with 2 records; a trajectory file holds one run/);
  });

  it('OpenAI-style messages: kept as they are, list-form contents joined, non-objects dropped', () => {
    const rel = 'openhands-messages/messages.json';
    const t = convert(rel);
    const W = '/workspace/octo__widgets__1.0';
    assert.equal(t.format, 'openhands-messages');
    assert.deepEqual(t.info, { instanceId: 'octo__widgets-7', model: 'nebius/qwen-coder', cwd: undefined, submission: 'diff --git a/widgets/core.py b/widgets/core.py\n', exitStatus: undefined });
    const toolOutput = (fixtureJson(rel) as { messages: Array<{ content: Array<{ text: string }> }> }).messages[3]!.content[0]!.text;
    assert.deepEqual(shown(t), [
      msg('system', 'You are OpenHands agent.'),
      msg('user', 'Fix render.'),
      msg('assistant', 'Viewing.', call('str_replace_editor', { command: 'view', path: `${W}/widgets/core.py`, view_range: [10, 40] }, 'call_1')),
      msg('tool', toolOutput),
      msg('assistant', 'Searching.', call('execute_bash', { command: `grep -rn render ${W}/widgets` }, 'call_2')),
      msg('tool', `${W}/widgets/core.py:12:def render():`),
      msg('assistant', 'Done.', call('finish', {}, 'call_3')),
    ]);
    assert.deepEqual(t.notes, ['list-form message contents were joined into one string (the builder would not see their parts).']);
    assertReadSteps(rel, t);
  });
});

describe('Claude Code', () => {
  it('stream-json: Read ranges from the numbered lines, Grep as grep -rn with its hits, a Task without its sub-agent noted', () => {
    const rel = 'claude-code/stream.jsonl';
    const t = convert(rel);
    const H = '/home/ana/widgets';
    const numbered = (a: number, b: number): string => Array.from({ length: b - a + 1 }, (_, i) => `${String(a + i).padStart(6)}→line ${a + i}`).join('\n');
    assert.equal(t.format, 'claude-code-stream');
    assert.deepEqual(t.info, { instanceId: undefined, model: 'claude-sonnet-4-5-20250929', cwd: H, submission: undefined, exitStatus: 'success' });
    assert.deepEqual(shown(t), [
      msg('assistant', 'Let me look at the renderer.'),
      msg('assistant', '', view(`${H}/widgets/core.py`, [10, 14], 'toolu_1')),
      msg('tool', numbered(10, 14)),
      msg('assistant', '', bash(`grep -rn 'def render' ${H}`, 'toolu_2')),
      msg('tool', `${H}/widgets/core.py:10:def render():\n${H}/widgets/extra.py:3:def render_all():`),
      msg('assistant', '', view(`${H}/setup.py`, undefined, 'toolu_3')),
      msg('tool', numbered(1, 2)),
      msg('assistant', '', bash('head -n 3 widgets/extra.py', 'toolu_4')),
      msg('tool', 'def render_all():\n    pass\n'),
      msg('assistant', '', call('Task', { description: 'explore tests', prompt: 'Find tests for render', subagent_type: 'Explore' }, 'toolu_5')),
      msg('tool', 'Tests are in tests/test_core.py'),
      msg('assistant', '', call('Grep', { pattern: `a;cat ${H}/secret.py`, path: H }, 'toolu_6')),
      msg('tool', 'No matches found'),
      msg('assistant', '', call('Glob', { pattern: '**/*.py' }, 'toolu_7')),
      msg('tool', ''),
      msg('assistant', 'To check yourself, run:\n```bash\ncat widgets/core.py\n```\nRELEVANT_FILES:\n- widgets/core.py:10-14'),
    ]);
    assert.deepEqual(t.notes, [
      'Line 6 of the file is not JSON and was skipped.',
      'Steps 1, 5: a Read’s range was taken from the numbered lines of its result (the event has no `toolUseResult.file`).',
      'Step 11: a Grep pattern, path or glob holds `;`, `&&` or `||`, which the builder would split a written command on: the call was kept as `Grep` (no read).',
      'Step 13: a tool call has no result in the stream; its output is empty.',
      'Step 15: the agent’s text holds a ```bash block that was not run as such (this agent runs commands through its tool calls); the builder reads it as a command.',
      'Step 9: a sub-agent (Task) explored on its own: sub-agent reads are absent from the stream (only its summary is there).',
    ]);
    assertReadSteps(rel, t);
  });

  it('session JSONL: toolUseResult.file decides the range, failed Reads count, sidechain messages are steps', () => {
    const rel = 'claude-code/session.jsonl';
    const t = convert(rel);
    const H = '/home/ana/widgets';
    const lines = fixtureLines(rel) as Array<{ message: { content: Array<{ content: unknown }> } }>;
    const result = (line: number): unknown => lines[line - 1]!.message.content[0]!.content;
    assert.deepEqual(t.info, { instanceId: undefined, model: 'claude-opus-4-1', cwd: H, submission: undefined, exitStatus: undefined });
    assert.deepEqual(shown(t), [
      msg('user', 'Why does render return 0?'),
      msg('assistant', '', view(`${H}/widgets/core.py`, [100, 120], 'toolu_a1')),
      msg('tool', result(4)),
      msg('assistant', '', view(`${H}/widgets/extra.py`, undefined, 'toolu_a2')),
      msg('tool', result(6)),
      msg('assistant', '', view(`${H}/widgets/huge.py`, undefined, 'toolu_a3')),
      msg('tool', 'File content (300KB) exceeds maximum allowed size (256KB).'),
      msg('assistant', '', call('Task', { description: 'find tests', prompt: 'Find the tests', subagent_type: 'general-purpose' }, 'toolu_a4')),
      msg('tool', 'Tests live in tests/test_core.py'),
      msg('user', 'Find the tests'),
      msg('assistant', '', bash(`grep -rl 'def test_render' ${H}/tests`, 'toolu_s1')),
      msg('tool', `Found 1 file\n${H}/tests/test_core.py`),
      msg('assistant', 'Tests live in tests/test_core.py'),
      msg('assistant', '', call('str_replace_editor', { command: 'str_replace', path: `${H}/widgets/core.py`, old_str: 'return 0', new_str: 'return 1' }, 'toolu_a5')),
      msg('tool', `The file ${H}/widgets/core.py has been updated.`),
      msg('assistant', 'Fixed: render returned 0.'),
    ]);
    assert.deepEqual(t.notes, [
      'Step 5: a Read failed (`is_error`); it counts, from its request, as the builder counts failed calls.',
      'Steps 10, 12: these messages come from sub-agents (Task); their tool calls are converted like the main agent’s.',
    ]);
    assertReadSteps(rel, t);
  });

  it('Windows paths are written with / and the drive as /c, in calls, grep hits and cwd', () => {
    const rel = 'claude-code/windows.jsonl';
    const t = convert(rel);
    assert.equal(t.info.cwd, '/c/Users/ana/widgets');
    assert.deepEqual(shown(t), [
      msg('assistant', '', view('/c/Users/ana/widgets/widgets/core.py', [1, 2], 't1')),
      msg('tool', '     1\tdef render():\n     2\t    return 0'),
      msg('assistant', '', bash('grep -rn render /c/Users/ana/widgets', 't2')),
      msg('tool', '/c/Users/ana/widgets/widgets/core.py:1:def render():'),
    ]);
    assert.deepEqual(t.notes, [
      'Step 0: a Read’s range was taken from the numbered lines of its result (the event has no `toolUseResult.file`).',
      'Windows paths were written with `/` (a drive `C:` as `/c`), as the builder rejects a path holding `\\`.',
    ]);
    assertReadSteps(rel, t);
  });
});

describe('OpenCode', () => {
  it('read ranges from display / numbered lines / the request, grep hits as path:N:text, task sub-agents noted', () => {
    const rel = 'opencode/events.jsonl';
    const t = convert(rel);
    const lines = fixtureLines(rel) as Array<{ part: { state: { output?: string; error?: string } } }>;
    const output = (line: number): string | undefined => lines[line - 1]!.part.state.output;
    assert.equal(t.format, 'opencode-events');
    assert.deepEqual(t.info, { instanceId: undefined, model: undefined, cwd: undefined, submission: undefined, exitStatus: undefined });
    assert.deepEqual(shown(t), [
      msg('assistant', '', view('/repo/widgets/core.py', [10, 14], 'c1')),
      msg('tool', output(2)),
      msg('assistant', '', view('/repo/widgets/extra.py', undefined, 'c2')),
      msg('tool', output(3)),
      msg('assistant', '', view('/repo/widgets/util.py', [21, 30], 'c3')),
      msg('tool', output(4)),
      msg('assistant', '', view('/repo/widgets/gone.py', undefined, 'c4')),
      msg('tool', 'Error: File not found: /repo/widgets/gone.py'),
      msg('assistant', '', bash("grep -rn --include='*.py' 'def render' /repo", 'c5')),
      msg('tool', 'Found 3 matches\n/repo/widgets/core.py:10:def render():\n/repo/widgets/core.py:40:def render_all():\n\n/repo/widgets/extra.py:1:def render_all():'),
      msg('assistant', '', call('glob', { pattern: '**/*.py' }, 'c6')),
      msg('tool', output(7)),
      msg('assistant', '', bash("nl -ba widgets/core.py | sed -n '30,45p'", 'c7')),
      msg('tool', output(8)),
      msg('assistant', '', call('task', { description: 'explore', prompt: 'find callers of render', subagent_type: 'explore' }, 'c8')),
      msg('tool', output(9)),
      msg('assistant', '', view('/c/repo/widgets/core.py', [1, 2], 'c10')),
      msg('tool', output(11)),
      msg('assistant', '', call('grep', { pattern: 'x||y', path: '/repo' }, 'c11')),
      msg('tool', 'No files found'),
      msg('assistant', '', call('str_replace_editor', { command: 'str_replace', path: '/repo/widgets/core.py', old_str: 'return 0', new_str: 'return 1' }, 'c12')),
      msg('tool', 'Edit applied successfully.'),
      msg('assistant', 'RELEVANT_FILES:\n- widgets/core.py:10-14'),
    ]);
    assert.deepEqual(t.notes, [
      'Line 14 of the file is not JSON and was skipped.',
      'Step 4: a read’s range was taken from the numbered lines of its output (no `metadata.display`).',
      'Step 6: a read failed; it counts, from its request, as the builder counts failed calls.',
      'Step 8: grep matches were written as grep prints them (`path:N:text`), one hit per line.',
      'Step 14: a `task` sub-agent explored on its own: sub-agent reads are absent from the stream (only its summary is there).',
      'tool events still pending or running (not yet calls) were skipped.',
      'Step 18: a grep pattern, path or include glob holds `;`, `&&` or `||`, which the builder would split a written command on: the call was kept as `grep` (no read).',
      'Windows paths were written with `/` (a drive `C:` as `/c`), as the builder rejects a path holding `\\`.',
    ]);
    assertReadSteps(rel, t);
  });
});

/** A deep copy of `content` with the value of the slots picked by `damage` (index modulo the number of slots) replaced. */
function damaged(content: TrajectoryContent, damage: ReadonlyArray<readonly [number, unknown]>): TrajectoryContent {
  const copy = JSON.parse(JSON.stringify(content)) as TrajectoryContent;
  const root: unknown = copy.kind === 'json' ? copy.value : copy.values;
  const slots: Array<{ holder: Record<string, unknown> | unknown[]; key: string | number }> = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        slots.push({ holder: value, key: i });
        walk(value[i]);
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        slots.push({ holder: value as Record<string, unknown>, key });
        walk((value as Record<string, unknown>)[key]);
      }
    }
  };
  walk(root);
  for (const [index, replacement] of damage) {
    const slot = slots[index % slots.length]!;
    (slot.holder as Record<string | number, unknown>)[slot.key] = replacement;
  }
  return copy;
}

describe('converters on hostile input', () => {
  it('malformed events are skipped with a note, never a crash', () => {
    const opencode = contentOfText(['7', 'null', '{"type":"tool_use","part":{"tool":"read"}}', '{"type":"text","part":{}}', '{"type":"text","part":{"text":"ok"}}'].join('\n'), true);
    const t = CONVERTERS.find((r) => r.format === 'opencode-events')!.read(opencode, 'x.jsonl');
    assert.deepEqual(shown(t), [msg('assistant', 'ok')]);
    assert.deepEqual(t.notes, [
      'Event 1 is not an object and was skipped.',
      'Event 2 is not an object and was skipped.',
      'Event 3 (tool_use) has no tool part with a state and was skipped.',
      'Event 4 (text) has no text part and was skipped.',
    ]);
    const claude = contentOfText(
      ['{"type":"system","subtype":"init","cwd":"/r"}', '{"type":"assistant","message":"nope"}', '{"type":"assistant","message":{"content":[7,{"type":"tool_use"}]}}'].join('\n'),
      true,
    );
    const c = CONVERTERS.find((r) => r.format === 'claude-code-stream')!.read(claude, 'y.jsonl');
    assert.deepEqual(shown(c), [msg('assistant', '', call('', {})), msg('tool', '')]);
    assert.deepEqual(c.notes, ['Event 2 (assistant) has no message object and was skipped.', 'Step 0: a tool call has no result in the stream; its output is empty.']);
  });

  it('a one-line event log read as one JSON value is a log of one event', () => {
    const line = '{"type":"tool_use","part":{"tool":"bash","callID":"c","state":{"status":"completed","input":{"command":"cat a.py"},"output":"x"}}}';
    const t = convert1(contentOfText(line, false));
    assert.equal(t.format, 'opencode-events');
    assert.deepEqual(shown(t), [msg('assistant', '', bash('cat a.py', 'c')), msg('tool', 'x')]);
    const claude = convert1(contentOfText('{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}', false));
    assert.deepEqual([claude.format, shown(claude)], ['claude-code-stream', [msg('assistant', 'hi')]]);
  });

  it('keys such as __proto__ stay data', () => {
    const text = JSON.stringify([{ id: 1, source: 'agent', action: 'think', args: JSON.parse('{"__proto__": {"polluted": true}, "thought": "t"}') as unknown }]);
    const t = CONVERTERS.find((r) => r.format === 'openhands-events')!.read(contentOfText(text, false), 'z.json');
    assert.equal(t.messages[0]!.toolCalls[0]!.arguments, '{"__proto__":{"polluted":true}}');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const swe = { trajectory: [{ action: 'str_replace_editor view /a.py __proto__ x', observation: '', thought: '', state: { working_dir: '/testbed' } }], history: [], info: {} };
    const s = CONVERTERS.find((r) => r.format === 'swe-agent-1')!.read(contentOfText(JSON.stringify(swe), false), 'w.traj');
    assert.deepEqual(shown(s)[0]!.calls, [view('/a.py')]);
  });

  it('str_replace_editor is read as its argument parser reads it: flags anywhere, a stray word a usage error', () => {
    const run = (action: string): Shown['calls'] => {
      const swe = { trajectory: [{ action, observation: '', thought: '', state: { working_dir: '/testbed' } }], history: [], info: {} };
      return shown(CONVERTERS.find((r) => r.format === 'swe-agent-1')!.read(contentOfText(JSON.stringify(swe), false), 'w.traj'))[0]!.calls;
    };
    assert.deepEqual(run('str_replace_editor view --view_range 3 9 /a.py'), [view('/a.py', [3, 9])]);
    assert.deepEqual(run('str_replace_editor view /a.py --view_range 3 -1'), [view('/a.py', [3, -1])]);
    assert.deepEqual(run('str_replace_editor view /a.py --view_range 3 x'), [view('/a.py')]);
    assert.deepEqual(run('str_replace_editor view /a.py --bogus'), [view('/a.py')]);
    assert.deepEqual(run('str_replace_editor insert /a.py --insert_line 4 --new_str "x = 1"'), [call('str_replace_editor', { command: 'insert', path: '/a.py', insert_line: 4, new_str: 'x = 1' })]);
  });

  it('random damage to any field of any fixture never makes a converter throw once its sniffer accepted the content', () => {
    const fixtures = Object.keys(EXPECTED_READS).map((rel) => contentOfFile(path.join(FIXTURES, rel)));
    fc.assert(
      fc.property(fc.nat(fixtures.length - 1), fc.array(fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 2 })), { minLength: 1, maxLength: 6 }), (which, damage) => {
        const content = damaged(fixtures[which]!, damage);
        for (const reader of CONVERTERS) if (reader.sniff(content)) reader.read(content, 'damaged');
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 300) },
    );
  });

  it('a converter refuses content that is not its format, naming the file', () => {
    const unified = contentOfFile(path.join(FIXTURES, 'native', 'unified.json'));
    for (const reader of CONVERTERS) assert.throws(() => reader.read(unified, 'some/unified.json'), /some\/unified\.json: not /, reader.format);
  });

  it('work stays linear: 50,000 events convert in well under a few seconds', () => {
    const line = JSON.stringify({
      type: 'tool_use',
      part: { tool: 'grep', callID: 'c', state: { status: 'completed', input: { pattern: 'p', path: '/r' }, output: 'Found 1 matches\n/r/a.py:\n  Line 3: x' } },
    });
    const content = contentOfText(Array.from({ length: 50_000 }, () => line).join('\n'), true);
    const started = cpuNow();
    const t = CONVERTERS.find((r) => r.format === 'opencode-events')!.read(content, 'big.jsonl');
    assert.equal(t.messages.length, 100_000);
    assert.ok(cpuNow() - started < 5_000);
  });
});

describe('converter helpers', () => {
  it('shellWords splits as a POSIX shell would, without expansion', () => {
    assert.deepEqual(shellWords(`str_replace_editor str_replace /a.py --old_str 'x = "1"' --new_str "y = \\"2\\" \\$HOME"`), [
      'str_replace_editor',
      'str_replace',
      '/a.py',
      '--old_str',
      'x = "1"',
      '--new_str',
      'y = "2" $HOME',
    ]);
    assert.deepEqual(shellWords('view /a.py [1060, 1220]'), ['view', '/a.py', '[1060,', '1220]']);
    assert.deepEqual(shellWords(`open "unterminated`), ['open', 'unterminated']);
    assert.deepEqual(shellWords('a\\ b  c'), ['a b', 'c']);
  });

  it('shellQuote leaves safe words alone and single-quotes the rest', () => {
    assert.equal(shellQuote('/repo/a.py'), '/repo/a.py');
    assert.equal(shellQuote('def render'), `'def render'`);
    assert.equal(shellQuote(`it's`), `'it'\\''s'`);
    assert.equal(shellQuote(''), `''`);
  });

  it('posixPath writes Windows paths with / and the drive as /c', () => {
    assert.equal(posixPath('C:\\Users\\ana\\a.py'), '/c/Users/ana/a.py');
    assert.equal(posixPath('D:/x/y.py'), '/d/x/y.py');
    assert.equal(posixPath('/repo\\src\\a.py'), '/repo/src/a.py');
    assert.equal(posixPath('/repo/a.py'), '/repo/a.py');
    assert.equal(posixPath('a:b'), 'a:b');
  });

  it('hasBashFence finds what the builder’s fence regex finds, in one pass', () => {
    assert.equal(hasBashFence('x\n```bash\ncat a.py\n```'), true);
    assert.equal(hasBashFence('```bash  \n\ncat a.py\n```'), true);
    assert.equal(hasBashFence('```bash cat a.py\n```'), false);
    assert.equal(hasBashFence('```sh\ncat a.py\n```'), false);
    assert.equal(hasBashFence('```bash\ncat a.py'), false);
    assert.equal(hasBashFence('```bashrc\nx\n```bash\ny\n```'), true);
    const hostile = '```bash'.repeat(200_000) + '\n```';
    const started = cpuNow();
    assert.equal(hasBashFence(hostile), false);
    assert.ok(cpuNow() - started < 1_000);
  });

  it('numberedLineRange finds the first and last numbered lines of linesOf, without splitting every line', () => {
    // The definition: every line of linesOf tried in order.
    const reference = (text: string, pattern: RegExp): { first: number; last: number } | undefined => {
      let first: number | undefined;
      let last = 0;
      for (const line of linesOf(text)) {
        const match = pattern.exec(line);
        if (match === null) continue;
        const number = Number(match[1]);
        if (!Number.isSafeInteger(number)) continue;
        first ??= number;
        last = number;
      }
      return first === undefined ? undefined : { first, last };
    };
    const patterns = [/^\s*(\d+)(?:→|\t)/, /^(\d+)(?:: |:$|\| |\|$)/];
    const piece = fc.constantFrom('\n', '\r', '\r\n', ' ', '\t', '→', ':', ': ', '|', 'x', '7', '12', '99999999999999999999', '0');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.constantFrom(...patterns), (pieces, pattern) => {
        const text = pieces.join('');
        assert.deepEqual(numberedLineRange(text, pattern), reference(text, pattern), JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
    assert.deepEqual(numberedLineRange('     1→a\n     2→b\r\n  3→c\r\n', patterns[0]!), { first: 1, last: 3 });
    assert.equal(numberedLineRange('', patterns[0]!), undefined);
  });

  it('notes list their steps in order, at most 20 of them', () => {
    const notes = new ConversionNotes();
    for (let step = 0; step < 50; step += 2) notes.atStep('a thing happened.', step);
    notes.add('once.');
    notes.add('once.');
    notes.badLines([3]);
    assert.deepEqual(notes.list(), [
      'Steps 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38 and 5 more: a thing happened.',
      'once.',
      'Line 3 of the file is not JSON and was skipped.',
    ]);
  });
});
