/**
 * The Trajectory view's pure parts: its state built from a run (reads on their steps, the ±k window,
 * the whole-file flag, verification and resolution words), the protocol guards both ways, the reads
 * that cover a line, the runs slice's narrowest view, and the sentences of src/shared/texts.ts it
 * uses. Also: the demo's runs (demo/trajs/) are what scripts/gen-demo-trajectories.ts writes, and
 * the verified ones give back the bench's `read_step_info` exactly.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { verifyRun, type Trajectory, type TrajectoryRead } from '../../../src/core';
import { loadRun } from '../../../src/data';
import { buildTrajectoryState, callText, displayText, readAtStep, readLines, readsOverlapping, seenSpan, windowOf } from '../../../src/extension/trajectory/trajectoryState';
import { narrowestWholeFileView, trajectorySourcesOf, type TrajectoryRun } from '../../../src/extension/model/slices/trajectoryRuns';
import { parseFromTrajectoryWebview, parseToTrajectoryWebview } from '../../../src/shared/trajectoryProtocol';
import { parseFromInstanceWebview } from '../../../src/shared/instanceProtocol';
import { promotedModelsText, readCreditText, readCursorText, runResolutionText, seenLinesText, wholeFileConsensusText, wholeFileCreditNote } from '../../../src/shared/texts';

const ROOT = path.join(__dirname, '..', '..', '..');

function read(stepIdx: number, p: string, start: number, end: number, idiom: TrajectoryRead['idiom'], seen: TrajectoryRead['seen'] = [[start, end]]): TrajectoryRead {
  return { path: p, rawPath: p, start, end, stepIdx, idiom, seen, origin: 'fence', call: -1, segment: 0 };
}

const TRAJECTORY: Trajectory = {
  format: 'swe-explore-unified',
  info: { model: 'm' },
  notes: ['a note'],
  messages: [
    { role: 'system', content: 'sys', toolCalls: [] },
    { role: 'user', content: 'issue <script>alert(1)</script>', toolCalls: [] },
    { role: 'assistant', content: "look\n\n```bash\nnl -ba a.py | sed -n '120,180p'\n```", toolCalls: [] },
    { role: 'user', content: 'out', toolCalls: [] },
    { role: 'assistant', content: [{ type: 'text', text: 'part' }, 'plain'], toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: "sed -n '3,9p' b.py" }) }] },
    { role: 'tool', content: 'lines', toolCalls: [] },
  ],
};

const RUN: TrajectoryRun = {
  trajPath: 'trajs/m/x__0.json',
  model: 'm',
  file: '/f/x__0.json',
  trajectory: TRAJECTORY,
  format: 'SWE-Explore unified',
  reads: [read(2, 'a.py', 1, -1, 'nl_pipe', [[120, 180]]), read(4, 'b.py', 3, 9, 'sed_range')],
  verification: verifyRun(
    'trajs/m/x__0.json',
    [
      { path: 'a.py', stepIdx: 2, start: 1, end: -1 },
      { path: 'b.py', stepIdx: 4, start: 3, end: 9 },
    ],
    {
      'a.py': [{ traj_path: 'trajs/m/x__0.json', step_idx: 2, start: 1, end: -1 }],
      'b.py': [{ traj_path: 'trajs/m/x__0.json', step_idx: 4, start: 3, end: 9 }],
    },
  ),
  resolution: 'not-resolved',
  problem: undefined,
};

describe('buildTrajectoryState', () => {
  it('puts each read on its step, flags a whole-file credit from a narrower idiom, and says verified and resolved', () => {
    const state = buildTrajectoryState(RUN, 'org__x-1', undefined, undefined);
    assert.equal(state.trajectory, 'trajs/m/x__0.json');
    assert.equal(state.verified, true);
    assert.equal(state.verificationText, 'verified 2/2 reads');
    assert.equal(state.resolutionText, 'did not resolve its issue (SWE-bench report)');
    assert.equal(state.title, 'm · org__x-1');
    assert.equal(state.steps.length, 6);
    assert.deepEqual(
      state.steps.flatMap((s) => s.reads.map((r) => [s.index, r.path, r.start, r.end, r.idiom, r.seenNote])),
      [
        [2, 'a.py', 1, -1, 'nl_pipe', 'read as the whole file by the builder; the agent saw lines 120–180'],
        [4, 'b.py', 3, 9, 'sed_range', ''],
      ],
    );
    assert.equal(state.steps[4]!.text, 'part\nplain');
    assert.deepEqual(state.steps[4]!.calls, ["bash: sed -n '3,9p' b.py"]);
    assert.deepEqual(state.notes, ['a note']);
    assert.notEqual(parseToTrajectoryWebview({ type: 'state', state }), null);
  });

  it('opens at a step with ±k messages and the cursor on a read', () => {
    const state = buildTrajectoryState(RUN, 'org__x-1', { step: 4, context: 1 }, 1);
    assert.deepEqual(
      state.steps.map((s) => s.index),
      [3, 4, 5],
    );
    assert.deepEqual(state.window, { first: 3, last: 5 });
    assert.equal(state.focusStep, 4);
    assert.equal(state.cursorText, 'read 2 of 2 · step 4');
    assert.equal(state.steps[1]!.reads[0]!.current, true);
  });

  it('says what differs for an unverified run, and why a run is not loaded', () => {
    const unverified = { ...RUN, verification: verifyRun(RUN.trajPath, [], { 'a.py': [{ traj_path: RUN.trajPath, step_idx: 2, start: 1, end: -1 }] }) };
    const state = buildTrajectoryState(unverified, '', undefined, undefined);
    assert.equal(state.verified, false);
    assert.equal(state.verificationText, '0 of 1 recorded reads match; 1 missing');
    assert.ok(state.notes.includes('In the record, not extracted from the run: a.py step 2, the whole file'));
    const missing = buildTrajectoryState({ ...RUN, trajectory: undefined, reads: [], verification: undefined, problem: 'not found (not under /r)' }, '', undefined, undefined);
    assert.equal(missing.verificationText, 'not verified (the run is not loaded)');
    assert.deepEqual(missing.notes, ['Not loaded: not found (not under /r)']);
    assert.notEqual(parseToTrajectoryWebview({ type: 'state', state: missing }), null);
  });

  it("says an explorer's own run is not a repair run and claims no verification or resolution", () => {
    const own = { ...RUN, trajPath: 'results/agent/trajs/org__x-1.traj.json', verification: undefined, resolution: 'unknown' as const };
    const state = buildTrajectoryState(own, 'org__x-1', { step: 4, context: 1 }, 1, 'agent');
    assert.equal(state.trajectory, 'results/agent/trajs/org__x-1.traj.json');
    assert.equal(state.verified, false);
    assert.equal(state.verificationText, 'explorer run (agent) — not a repair run; not verified against the bench');
    assert.equal(state.resolutionText, 'no resolution (an explorer run does not try to fix the issue)');
    assert.equal(state.title, "agent's run (explorer) · org__x-1");
    assert.equal(state.focusStep, 4);
    assert.equal(state.steps[1]!.reads[0]!.current, true);
    assert.notEqual(parseToTrajectoryWebview({ type: 'state', state }), null);
    // A verified repair run handed in as an explorer's still claims nothing.
    assert.equal(buildTrajectoryState(RUN, '', undefined, undefined, 'agent').verified, false);
  });

  it("puts the cursor on the read of the step that saw a line: the one covering it, else the step's first on the file", () => {
    const reads = [read(2, 'a.py', 1, -1, 'nl_pipe', [[120, 180]]), read(4, 'b.py', 3, 9, 'sed_range'), read(4, 'b.py', 20, 30, 'sed_range'), read(4, 'a.py', 5, 6, 'sed_range')];
    assert.equal(readAtStep(reads, 4, 'b.py', 25, 100), 2);
    assert.equal(readAtStep(reads, 4, 'b.py', 12, 100), 1);
    assert.equal(readAtStep(reads, 2, 'a.py', 150, 200), 0);
    assert.equal(readAtStep(reads, 3, 'a.py', 150, 200), undefined);
    assert.equal(readAtStep(reads, 4, 'c.py', 1, 10), undefined);
  });

  it("an explorer run's read reveals the lines the agent saw, not the builder's credit", () => {
    assert.deepEqual(seenSpan(read(4, 'a.py', 1, -1, 'nl_pipe', [[100, 140]]), 300), { start: 100, end: 140 });
    assert.deepEqual(
      seenSpan(
        read(4, 'a.py', 1, -1, 'grep_whole', [
          [12, 12],
          [40, 44],
        ]),
        300,
      ),
      { start: 12, end: 44 },
    );
    assert.deepEqual(seenSpan(read(4, 'a.py', 250, -1, 'tail', [[250, -1]]), 300), { start: 250, end: 300 });
    assert.deepEqual(seenSpan(read(4, 'a.py', 1, -1, 'heredoc_write', []), 300), { start: 1, end: 300 });
  });

  it('windows clamp to the run', () => {
    assert.deepEqual(windowOf({ step: 0, context: 4 }, 3), { first: 0, last: 2 });
    assert.equal(windowOf({ step: 2, context: undefined }, 3), null);
    assert.equal(windowOf(undefined, 3), null);
  });
});

describe('message text and tool calls for people', () => {
  it('shows text parts the builder ignores, and one line per call', () => {
    assert.equal(displayText([{ type: 'text', text: 'a' }, 'b', 3]), 'a\nb');
    assert.equal(displayText(null), '');
    assert.equal(callText({ name: 'str_replace_editor', arguments: JSON.stringify({ command: 'view', path: '/t/x.py', view_range: [1, 5] }) }), 'str_replace_editor view /t/x.py [1,5]');
    assert.equal(callText({ name: 'Glob', arguments: '{"pattern":"*.py"}' }), 'Glob {"pattern":"*.py"}');
  });
});

describe('reads covering lines', () => {
  it('resolves tails and open ends with the line count', () => {
    assert.deepEqual(readLines({ start: -5, end: -1 }, 20), { start: 16, end: 20 });
    assert.equal(readLines({ start: -5, end: -1 }, undefined), undefined);
    assert.deepEqual(readLines({ start: 3, end: -1 }, 10), { start: 3, end: 10 });
    assert.equal(readLines({ start: 9, end: 3 }, 10), undefined);
  });

  it('finds every read of every run that overlaps the lines', () => {
    const found = readsOverlapping([RUN], 'a.py', 150, 150, new Map([['a.py', 200]]));
    assert.deepEqual(
      found.map((f) => f.read),
      [0],
    );
    assert.equal(readsOverlapping([RUN], 'b.py', 10, 12, new Map()).length, 0);
  });
});

describe('the runs slice helpers', () => {
  it('names the narrowest real view of a whole-file credit', () => {
    const other: TrajectoryRun = {
      ...RUN,
      model: 'n',
      reads: [
        read(3, 'a.py', 1, -1, 'grep_whole', [
          [7, 7],
          [9, 10],
        ]),
      ],
    };
    assert.deepEqual(narrowestWholeFileView([RUN, other], 'a.py', 300), {
      model: 'n',
      seen: [
        [7, 7],
        [9, 10],
      ],
    });
    assert.equal(narrowestWholeFileView([RUN], 'b.py', 300), undefined);
  });

  it('reads the selection’s sources, and nothing from garbage', () => {
    assert.deepEqual(trajectorySourcesOf('{"roots":["r"],"templates":[["k","t"]],"reports":[]}'), { roots: ['r'], templates: [['k', 't']], reports: [] });
    assert.deepEqual(trajectorySourcesOf('nope'), { roots: [], templates: [], reports: [] });
  });
});

describe('protocol guards', () => {
  it('accept only well-formed webview messages', () => {
    assert.deepEqual(parseFromTrajectoryWebview({ type: 'revealRead', read: 3 }), { type: 'revealRead', read: 3 });
    assert.equal(parseFromTrajectoryWebview({ type: 'revealRead', read: -1 }), null);
    assert.equal(parseFromTrajectoryWebview({ type: 'revealRead', read: '3' }), null);
    assert.equal(parseFromTrajectoryWebview({ type: 'open', file: '/etc/passwd' }), null);
    assert.deepEqual(parseFromTrajectoryWebview({ type: 'showWholeRun' }), { type: 'showWholeRun' });
    assert.deepEqual(parseFromInstanceWebview({ type: 'openTrajectory', trajPath: 't' }), { type: 'openTrajectory', trajPath: 't' });
    assert.equal(parseFromInstanceWebview({ type: 'openTrajectory', trajPath: 5 }), null);
  });

  it('reject a state with a malformed read', () => {
    const state = buildTrajectoryState(RUN, 'x', undefined, undefined);
    const bad = { ...state, steps: [{ ...state.steps[2]!, reads: [{ ...state.steps[2]!.reads[0]!, start: 'one' }] }] };
    assert.equal(parseToTrajectoryWebview({ type: 'state', state: bad }), null);
  });
});

describe('sentences', () => {
  it('word credits, seen lines, whole-file flags, resolution, cursor, consensus and promotion', () => {
    assert.equal(readCreditText(1, -1), 'the whole file');
    assert.equal(readCreditText(5, -1), 'lines 5 to the end');
    assert.equal(readCreditText(-12, -1), 'the last 12 lines');
    assert.equal(readCreditText(7, 7), 'line 7');
    assert.equal(seenLinesText([]), 'none');
    assert.equal(seenLinesText([[406, 406]]), 'line 406');
    assert.equal(
      seenLinesText([
        [1, 20],
        [40, -1],
      ]),
      'lines 1–20, 40 to the end',
    );
    assert.equal(wholeFileCreditNote({ start: 1, end: -1, idiom: 'cat', seen: [[1, -1]] }), '');
    assert.equal(wholeFileCreditNote({ start: 10, end: 20, idiom: 'sed_range', seen: [[10, 20]] }), '');
    assert.equal(wholeFileCreditNote({ start: 1, end: -1, idiom: 'heredoc_write', seen: [] }), 'read as the whole file by the builder; the agent wrote the file and saw none of it');
    assert.equal(wholeFileCreditNote({ start: 1, end: -1, idiom: 'head', seen: [[1, 20]] }), 'read as the whole file by the builder; the agent saw lines 1–20');
    assert.equal(runResolutionText('unknown'), 'resolution unknown (no report)');
    assert.equal(runResolutionText('resolved'), 'resolved its issue (SWE-bench report)');
    assert.equal(readCursorText(0, 14, 7), 'read 1 of 14 · step 7');
    assert.equal(wholeFileConsensusText({ model: 'gemini-3-pro', seen: [[120, 180]] }), 'every trajectory credited the whole file; narrowest real view: 120–180 by gemini-3-pro');
    assert.equal(wholeFileConsensusText(undefined), 'every trajectory credited the whole file');
    assert.equal(promotedModelsText([]), "promoted: in no model's optional reads");
    assert.equal(promotedModelsText(['glm-4.6', 'claude']), 'promoted from the optional reads of glm-4.6, claude');
  });
});

describe('the demo repair runs', () => {
  it('are exactly what scripts/gen-demo-trajectories.ts writes', () => {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'gen-demo-trajectories.ts'), '--check'], { cwd: ROOT, stdio: 'pipe' });
  });

  it('give back the bench’s read_step_info for the runs that verify (3 of 9), in three formats', async () => {
    const demo = path.join(ROOT, 'demo');
    const verdicts: string[] = [];
    const formats = new Set<string>();
    for (const line of readFileSync(path.join(demo, 'bench.jsonl'), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const record = JSON.parse(line) as { instance_id: string; repo_dir: string; read_step_info: Record<string, { traj_path: string }[]> };
      const cited = [...new Set(Object.values(record.read_step_info).flatMap((steps) => steps.map((s) => s.traj_path)))];
      for (const trajPath of cited) {
        const { run } = await loadRun(path.join(demo, trajPath), { repoDir: path.join(demo, record.repo_dir), repoPath: '/testbed', instanceId: record.instance_id });
        assert.ok(run !== undefined, trajPath);
        formats.add(run.trajectory.format);
        const verification = verifyRun(
          trajPath,
          run.reads.reads.map((r) => ({ path: r.path, stepIdx: r.stepIdx, start: r.start, end: r.end })),
          record.read_step_info as never,
        );
        if (verification.verified) verdicts.push(trajPath);
        // What does not verify is only what the builder itself would drop: reads are never extra.
        assert.ok(
          verification.differences.every((d) => d.kind === 'missing'),
          trajPath,
        );
      }
    }
    assert.deepEqual(verdicts.sort(), [
      'trajs/demo/claude-sonnet-4-5/acme__inventory-102__0.json',
      'trajs/demo/gemini-3-pro-preview/acme__inventory-101__0.json',
      'trajs/demo/glm-4.6/acme__inventory-102__0.json',
    ]);
    assert.deepEqual([...formats].sort(), ['claude-code-stream', 'mini-swe-agent-1', 'swe-explore-unified']);
  });
});

describe('the Trajectory view renderer takes run text as text only', () => {
  it('never writes HTML, links or command URIs into the page', () => {
    const source = ['renderTrajectory.ts', 'main.ts'].map((f) => readFileSync(path.join(ROOT, 'src', 'webview', 'trajectory', f), 'utf8')).join('\n');
    assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment/);
    assert.doesNotMatch(source, /['"]href['"]|\.href\b|command:/);
    // Assistant text goes through the Instance panel's inert Markdown tree; everything else is a text child of el().
    assert.match(source, /renderMarkdown\(step\.text\)/);
  });
});
