/**
 * What-if rule sets (issue 20) on synthetic runs extracted with the builder's rules: each rule and
 * their combinations, partial data (runs as recorded), support:k, --drop-promoted, the reasons a
 * line joins or leaves, and the sentence a hover shows.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildGroundTruth,
  buildInputs,
  describeWhatIfLine,
  explainWhatIfLine,
  parseWhatIfRules,
  recordedRInt,
  recordedRunModels,
  whatIfRulesKey,
  whatIfRulesText,
  whatIfVariant,
  trajectoryReads,
  OFFICIAL_RULES,
  type LineSet,
  type Trajectory,
  type WhatIfInput,
  type WhatIfRules,
  type WhatIfRunInput,
} from '../../../src/core';
import type { ReadStepInfo } from '../../../src/core/provenance';

const COUNTS = new Map([
  ['pkg/a.py', 100],
  ['pkg/b.py', 50],
  ['pkg/c.py', 20],
  ['pkg/d.py', 10],
]);
const EXISTS = { kind: 'repository', exists: (p: string) => COUNTS.has(p) } as const;

/** A unified run: one ```bash fence per assistant message, each followed by its output. */
function trajectory(model: string, steps: readonly (string | [command: string, output: string])[]): Trajectory {
  const messages: Trajectory['messages'][number][] = [
    { role: 'system', content: 'sys', toolCalls: [] },
    { role: 'user', content: 'task', toolCalls: [] },
  ];
  for (const step of steps) {
    const [command, output] = typeof step === 'string' ? [step, 'ok'] : step;
    messages.push({ role: 'assistant', content: `THOUGHT\n\n\`\`\`bash\n${command}\n\`\`\``, toolCalls: [] }, { role: 'user', content: output, toolCalls: [] });
  }
  return { format: 'swe-explore-unified', info: { instanceId: 'o__r-1', model, cwd: '/testbed' }, messages, notes: [] };
}

const RUNS = [
  {
    trajPath: 'trajs/m1/o__r-1__0.json',
    model: 'org/model-one',
    trajectory: trajectory('org/model-one', ["nl -ba pkg/a.py | sed -n '10,30p'", 'cat pkg/b.py', 'cat -n pkg/c.py', 'head -n pkg/d.py']),
  },
  { trajPath: 'trajs/m2/o__r-1__0.json', model: 'model-two', trajectory: trajectory('model-two', [['grep -n foo pkg/a.py', '15:foo\n16-bar\n40:foo'], "sed -n '20,45p' pkg/b.py", 'cat pkg/c.py']) },
  { trajPath: 'trajs/m3/o__r-1__0.json', model: 'model-three', trajectory: trajectory('model-three', ['cat pkg/a.py', "cat <<'EOF' > pkg/b.py\nx = 1\nEOF", 'cat pkg/c.py']) },
];

/** The record the builder writes for these runs, plus a promoted region `pkg/d.py` 1–5. */
function record(): { readStepInfo: ReadStepInfo; coreRegions: { path: string; start: number; end: number }[]; optionalModels: string[] } {
  const built = buildGroundTruth(
    buildInputs(
      RUNS.map((r) => ({ trajPath: r.trajPath, filePath: r.trajPath, trajectory: r.trajectory })),
      '/testbed',
      EXISTS,
    ),
  );
  const readStepInfo: Record<string, { traj_path: string; step_idx: number; start: number; end: number }[]> = {};
  for (const { path, steps } of built.readStepInfo) readStepInfo[path] = steps.map((s) => ({ traj_path: s.trajPath, step_idx: s.stepIdx, start: s.start, end: s.end }));
  const core = built.coreRegions.map((r) => ({ ...r, end: r.end === -1 ? COUNTS.get(r.path)! : r.end }));
  return { readStepInfo, coreRegions: [...core, { path: 'pkg/d.py', start: 1, end: 5 }], optionalModels: built.optional.map((o) => o.model) };
}

const RECORD = record();

type Loaded = 'all' | readonly string[];

function runInputs(loaded: Loaded, resolutions: Readonly<Record<string, WhatIfRunInput['resolution']>> = {}, withModels = true): Map<string, WhatIfRunInput> {
  const models = recordedRunModels(RECORD.readStepInfo, RECORD.optionalModels);
  const out = new Map<string, WhatIfRunInput>();
  for (const run of RUNS) {
    const isLoaded = loaded === 'all' || loaded.includes(run.trajPath);
    const reads = trajectoryReads(run.trajectory, '/testbed', EXISTS);
    out.set(run.trajPath, {
      trajPath: run.trajPath,
      model: isLoaded ? run.model : withModels ? models.get(run.trajPath) : undefined,
      resolution: resolutions[run.trajPath] ?? 'unknown',
      loaded: isLoaded ? { reads: reads.reads, swallowed: reads.swallowed } : undefined,
    });
  }
  return out;
}

function rules(text: string, dropPromoted = false): WhatIfRules {
  const parsed = parseWhatIfRules(text, dropPromoted);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.rules;
}

function input(ruleSet: WhatIfRules, loaded: Loaded = 'all', resolutions: Readonly<Record<string, WhatIfRunInput['resolution']>> = {}, withModels = true): WhatIfInput {
  return { readStepInfo: RECORD.readStepInfo, coreRegions: RECORD.coreRegions, runs: runInputs(loaded, resolutions, withModels), rules: ruleSet, lineCounts: COUNTS };
}

/** A line set as `{path: [[s, e]…]}`. */
function lines(set: LineSet): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const [path, intervals] of [...set].sort((a, b) => (a[0] < b[0] ? -1 : 1))) out[path] = intervals.map(([s, e]) => [s, e]);
  return out;
}

const M1 = RUNS[0]!.trajPath;
const M2 = RUNS[1]!.trajPath;

describe('the record the tests use (the builder’s own output)', () => {
  it('R_int is a.py 1–100 and b.py 20–45 (c.py is not read by m1: cat -n swallows it); d.py 1–5 is promoted', () => {
    assert.deepEqual(lines(recordedRInt(RECORD.readStepInfo, COUNTS)), { 'pkg/a.py': [[1, 100]], 'pkg/b.py': [[20, 45]] });
    assert.deepEqual(RECORD.optionalModels, ['org/model-one', 'model-two', 'model-three']);
  });
});

describe('parseWhatIfRules', () => {
  it('reads each rule and their combinations; the canonical text and key', () => {
    assert.deepEqual(rules('official'), OFFICIAL_RULES);
    assert.deepEqual(rules(' as-seen , resolved-only,drop-model:a/b,drop-model:c,support:2 '), {
      extraction: 'as-seen',
      resolvedOnly: true,
      dropModels: ['a/b', 'c'],
      support: 2,
      dropPromoted: false,
    });
    assert.equal(rules('resolved-only').extraction, 'official');
    assert.equal(whatIfRulesText(rules('support:2,as-seen,drop-model:x,drop-model:x')), 'as-seen,drop-model:x,support:2');
    assert.equal(whatIfRulesKey(rules('as-seen', true)), 'as-seen --drop-promoted');
    assert.equal(rules('support:3,support:3').support, 3);
  });
  it('refuses what it cannot read, naming the rules', () => {
    for (const [text, message] of [
      ['', /no rule given; rules are official, as-seen/],
      ['official,,as-seen', /an empty rule/],
      ['official,as-seen', /both extraction rules/],
      ['bogus', /unknown rule "bogus"; rules are official, as-seen, resolved-only, drop-model:<model>, support:<k>/],
      ['support:0', /whole number from 1/],
      ['support:1e3', /whole number from 1/],
      ['support:2,support:3', /given twice/],
      ['drop-model:', /needs a model/],
    ] as const) {
      const parsed = parseWhatIfRules(text);
      assert.equal(parsed.ok, false, text);
      if (!parsed.ok) assert.match(parsed.message, message, text);
    }
  });
});

describe('official', () => {
  it('with every run loaded gives back R_int: nothing joins or leaves; the core merged and sorted', () => {
    const v = whatIfVariant(input(OFFICIAL_RULES));
    assert.deepEqual(v.runCounts, { rebuilt: 3, asRecorded: 0, dropped: 0 });
    assert.equal(v.joinedLines, 0);
    assert.equal(v.leftLines, 0);
    assert.deepEqual(lines(v.rInt), lines(recordedRInt(RECORD.readStepInfo, COUNTS)));
    assert.deepEqual(v.coreRegions, [
      { path: 'pkg/a.py', start: 1, end: 100 },
      { path: 'pkg/b.py', start: 20, end: 45 },
      { path: 'pkg/d.py', start: 1, end: 5 },
    ]);
    assert.deepEqual(v.coreFiles, ['pkg/a.py', 'pkg/b.py', 'pkg/d.py']);
    assert.equal(v.coreLinesBefore, 131);
    assert.equal(v.coreLinesAfter, 131);
  });
  it('with no run loaded (every run as recorded) gives the same core', () => {
    const v = whatIfVariant(input(OFFICIAL_RULES, []));
    assert.deepEqual(v.runCounts, { rebuilt: 0, asRecorded: 3, dropped: 0 });
    assert.equal(v.joinedLines + v.leftLines, 0);
  });
  it('lines of R_int the record left out join (the rules put them back)', () => {
    const v = whatIfVariant({
      ...input(OFFICIAL_RULES),
      coreRegions: [
        { path: 'pkg/a.py', start: 1, end: 90 },
        { path: 'pkg/b.py', start: 20, end: 45 },
      ],
    });
    assert.deepEqual(lines(v.joined), { 'pkg/a.py': [[91, 100]] });
    const reason = explainWhatIfLine({ ...input(OFFICIAL_RULES), coreRegions: [{ path: 'pkg/a.py', start: 1, end: 90 }] }, v, 'pkg/a.py', 95);
    assert.equal(reason.droppedAsWritten, true);
  });
});

describe('as-seen', () => {
  it('credits what each read showed: nl|sed its range, grep -n its numbered lines, heredoc writes nothing, cat -n F the file', () => {
    const v = whatIfVariant(input(rules('as-seen')));
    // a.py: 10–30 (m1) ∩ 15–16, 40 (m2) ∩ 1–100 (m3); b.py: m3's heredoc write shows nothing; c.py: m1's cat -n now counts.
    assert.deepEqual(lines(v.rInt), { 'pkg/a.py': [[15, 16]], 'pkg/c.py': [[1, 20]] });
    assert.deepEqual(lines(v.left), {
      'pkg/a.py': [
        [1, 14],
        [17, 100],
      ],
      'pkg/b.py': [[20, 45]],
    });
    assert.deepEqual(lines(v.joined), { 'pkg/c.py': [[1, 20]] });
    assert.deepEqual(v.coreFiles, ['pkg/a.py', 'pkg/c.py', 'pkg/d.py']);
    assert.equal(v.coreLinesAfter, 2 + 20 + 5);
  });
  it('a flag that takes the path as its value (head -n F) credits nothing', () => {
    const v = whatIfVariant(input(rules('as-seen')));
    assert.equal(v.after.has('pkg/d.py'), true, 'd.py stays only as the promoted region');
    assert.deepEqual(lines(new Map([['pkg/d.py', v.after.get('pkg/d.py')!]])), { 'pkg/d.py': [[1, 5]] });
  });
  it('partial data: a run not loaded keeps its recorded reads and counts as as_recorded', () => {
    const v = whatIfVariant(input(rules('as-seen'), [M1]));
    assert.deepEqual(v.runCounts, { rebuilt: 1, asRecorded: 2, dropped: 0 });
    // m1 as seen (a 10–30, b whole, c whole) ∩ m2, m3 as recorded (a whole, b 20–45 / whole, c whole).
    assert.deepEqual(lines(v.rInt), { 'pkg/a.py': [[10, 30]], 'pkg/b.py': [[20, 45]], 'pkg/c.py': [[1, 20]] });
  });
  it('unseen: core lines loaded runs credit that none of them saw', () => {
    const v = whatIfVariant(input(rules('as-seen'), [M1]));
    assert.deepEqual(lines(v.unseen), {
      'pkg/a.py': [
        [1, 9],
        [31, 100],
      ],
    });
    assert.equal(v.unseenLines, 79);
  });
});

describe('run selection', () => {
  it('resolved-only drops runs a report marks not resolved; unknown ones stay; recorded runs too', () => {
    for (const loaded of ['all', []] as const) {
      const v = whatIfVariant(input(rules('resolved-only'), loaded, { [M1]: 'resolved', [M2]: 'not-resolved' }));
      assert.deepEqual(v.runCounts, { rebuilt: loaded === 'all' ? 2 : 0, asRecorded: loaded === 'all' ? 0 : 2, dropped: 1 });
      assert.deepEqual(
        v.runs.map((r) => [r.label, r.status, r.dropReason]),
        [
          ['m1', loaded === 'all' ? 'rebuilt' : 'as_recorded', undefined],
          ['m2', 'dropped', 'not-resolved'],
          ['m3', loaded === 'all' ? 'rebuilt' : 'as_recorded', undefined],
        ],
      );
      assert.deepEqual(lines(v.rInt), { 'pkg/a.py': [[1, 100]], 'pkg/b.py': [[1, 50]] });
      assert.deepEqual(lines(v.joined), {
        'pkg/b.py': [
          [1, 19],
          [46, 50],
        ],
      });
    }
  });
  it('drop-model matches a traj_path model folder or a model name, recorded runs by the model the record tells', () => {
    for (const name of ['m2', 'model-two']) {
      const v = whatIfVariant(input(rules(`drop-model:${name}`), []));
      assert.deepEqual(
        v.runs.map((r) => r.status),
        ['as_recorded', 'dropped', 'as_recorded'],
        name,
      );
    }
    // Without the record's models, a model name cannot name a recorded run; the folder still can.
    assert.equal(whatIfVariant(input(rules('drop-model:model-two'), [], {}, false)).runCounts.dropped, 0);
    assert.equal(whatIfVariant(input(rules('drop-model:m2'), [], {}, false)).runCounts.dropped, 1);
  });
  it('support:k: lines at least k of the kept runs read; k = n is the builder’s fold; k > n keeps only promoted lines', () => {
    const two = whatIfVariant(input(rules('support:2')));
    assert.deepEqual(lines(two.rInt), { 'pkg/a.py': [[1, 100]], 'pkg/b.py': [[1, 50]], 'pkg/c.py': [[1, 20]] });
    assert.equal(two.leftLines, 0);
    assert.equal(two.joinedLines, 24 + 20);
    assert.deepEqual(lines(whatIfVariant(input(rules('support:3'))).rInt), lines(whatIfVariant(input(OFFICIAL_RULES)).rInt));
    const four = whatIfVariant(input(rules('support:4')));
    assert.deepEqual(lines(four.after), { 'pkg/d.py': [[1, 5]] });
    const one = whatIfVariant(input(rules('support:1')));
    assert.deepEqual(lines(one.rInt), { 'pkg/a.py': [[1, 100]], 'pkg/b.py': [[1, 50]], 'pkg/c.py': [[1, 20]] });
  });
  it('combinations: as-seen with support:2, and with resolved-only', () => {
    const v = whatIfVariant(input(rules('as-seen,support:2')));
    // a.py: 10–30 (m1, m3) and 40 (m2, m3); b.py 20–45 (m1, m2); c.py everyone.
    assert.deepEqual(lines(v.rInt), {
      'pkg/a.py': [
        [10, 30],
        [40, 40],
      ],
      'pkg/b.py': [[20, 45]],
      'pkg/c.py': [[1, 20]],
    });
    const w = whatIfVariant(input(rules('as-seen,resolved-only'), 'all', { [M2]: 'not-resolved' }));
    assert.deepEqual(lines(w.rInt), { 'pkg/a.py': [[10, 30]], 'pkg/c.py': [[1, 20]] });
  });
  it('every run dropped: R_int is empty, the promoted lines stay', () => {
    const v = whatIfVariant(input(rules('drop-model:m1,drop-model:m2,drop-model:m3')));
    assert.deepEqual(v.runCounts, { rebuilt: 0, asRecorded: 0, dropped: 3 });
    assert.deepEqual(lines(v.after), { 'pkg/d.py': [[1, 5]] });
  });
});

describe('--drop-promoted', () => {
  it('leaves the promoted regions out (official: the variant is R_int)', () => {
    const v = whatIfVariant(input(rules('official', true)));
    assert.deepEqual(lines(v.left), { 'pkg/d.py': [[1, 5]] });
    assert.deepEqual(lines(v.promoted), { 'pkg/d.py': [[1, 5]] });
    assert.equal(v.joinedLines, 0);
    const reason = explainWhatIfLine(input(rules('official', true)), v, 'pkg/d.py', 3);
    assert.equal(reason.change, 'left');
    assert.equal(reason.promoted, true);
    assert.match(describeWhatIfLine(reason, rules('official', true)), /promoted line .*--drop-promoted leaves it out/);
  });
});

describe('tails and counts', () => {
  it('a tail of a lone run stays (the builder’s fold keeps it); with two runs tails never intersect', () => {
    const rsi: ReadStepInfo = { 'pkg/a.py': [{ traj_path: 't/x/1.json', step_idx: 2, start: -10, end: -1 }] };
    const one = whatIfVariant({ readStepInfo: rsi, coreRegions: [{ path: 'pkg/a.py', start: -10, end: 100 }], runs: new Map(), rules: OFFICIAL_RULES, lineCounts: COUNTS });
    assert.deepEqual(lines(one.after), { 'pkg/a.py': [[91, 100]] });
    assert.equal(one.joinedLines + one.leftLines, 0);
    const two = whatIfVariant({
      readStepInfo: { 'pkg/a.py': [...rsi['pkg/a.py']!, { traj_path: 't/y/1.json', step_idx: 2, start: -10, end: -1 }] },
      coreRegions: [],
      runs: new Map(),
      rules: rules('support:1'),
      lineCounts: COUNTS,
    });
    assert.deepEqual(lines(two.after), {});
  });
  it('a region that needs a count nobody gave stays as written (end -1) and its path is reported', () => {
    const rsi: ReadStepInfo = { 'pkg/zz.py': [{ traj_path: 't/x/1.json', step_idx: 2, start: 1, end: -1 }] };
    const v = whatIfVariant({ readStepInfo: rsi, coreRegions: [{ path: 'pkg/zz.py', start: 1, end: -1 }], runs: new Map(), rules: OFFICIAL_RULES, lineCounts: COUNTS });
    assert.deepEqual(v.coreRegions, [{ path: 'pkg/zz.py', start: 1, end: -1 }]);
    assert.deepEqual(v.unresolvedPaths, ['pkg/zz.py']);
  });
});

describe('why a line joins or leaves', () => {
  it('a line only whole-file credit held names the read and whether any run saw it', () => {
    const ruleSet = rules('as-seen');
    const whatIf = input(ruleSet, [M1]);
    const v = whatIfVariant(whatIf);
    const reason = explainWhatIfLine(whatIf, v, 'pkg/a.py', 50);
    assert.equal(reason.change, 'left');
    assert.equal(reason.seen, 'no');
    const m1 = reason.runs[0]!;
    assert.equal(m1.status, 'rebuilt');
    assert.deepEqual(
      m1.creditedAsWritten.map((c) => [c.stepIdx, c.idiom, c.start, c.end]),
      [[2, 'nl_pipe', 1, -1]],
    );
    assert.deepEqual(m1.creditedUnderRules, []);
    assert.equal(m1.saw, false);
    assert.equal(reason.runs[1]!.saw, undefined, 'a run as recorded cannot say');
    assert.deepEqual(reason.support, { runs: 2, of: 3, needed: 3 });
    assert.equal(describeWhatIfLine(reason, ruleSet), "credited by m1's nl_pipe read at step 2 as the whole file; no run saw it");
    const withCommand = {
      ...whatIf,
      runs: new Map(
        [...whatIf.runs].map(([k, r]) => [
          k,
          r.loaded === undefined ? r : { ...r, loaded: { ...r.loaded, reads: r.loaded.reads.map((read) => ({ ...read, commandText: "nl -ba pkg/a.py | sed -n '10,30p'" })) } },
        ]),
      ),
    };
    assert.equal(describeWhatIfLine(explainWhatIfLine(withCommand, v, 'pkg/a.py', 50), ruleSet), "credited by m1's `nl -ba | sed -n '10,30p'` at step 2 as the whole file; no run saw it");
  });
  it('a line a swallowed path adds, one a dropped run kept out, one a support count lets in', () => {
    const asSeen = rules('as-seen');
    const all = input(asSeen);
    const c = explainWhatIfLine(all, whatIfVariant(all), 'pkg/c.py', 3);
    assert.equal(c.change, 'joined');
    assert.equal(c.runs[0]!.creditedUnderRules[0]!.swallowedBy, '-n');
    assert.match(describeWhatIfLine(c, asSeen), /^credited by m1's cat read at step 6, which showed it; the builder skipped the path after -n$/);

    const resolved = rules('resolved-only');
    const r = input(resolved, 'all', { [M2]: 'not-resolved' });
    const b = explainWhatIfLine(r, whatIfVariant(r), 'pkg/b.py', 5);
    assert.equal(b.change, 'joined');
    assert.equal(describeWhatIfLine(b, resolved), 'm2, which did not read it, is dropped: its report says not resolved');

    const support = rules('support:2');
    const s = input(support);
    const b2 = explainWhatIfLine(s, whatIfVariant(s), 'pkg/b.py', 5);
    assert.equal(describeWhatIfLine(b2, support), 'read by 2 of 3 kept runs; the core needs 2');
    assert.equal(explainWhatIfLine(s, whatIfVariant(s), 'pkg/a.py', 5).change, 'kept');
  });
});

describe('recordedRunModels', () => {
  it('recovers run → model when the entries fix one trajectory order and there is a model per run; else nothing', () => {
    assert.deepEqual(
      [...recordedRunModels(RECORD.readStepInfo, RECORD.optionalModels)],
      RUNS.map((r) => [r.trajPath, r.model]),
    );
    assert.equal(recordedRunModels(RECORD.readStepInfo, ['only-one']).size, 0);
    const ambiguous: ReadStepInfo = {
      'a.py': [{ traj_path: 'x', step_idx: 1, start: 1, end: 1 }],
      'b.py': [{ traj_path: 'y', step_idx: 1, start: 1, end: 1 }],
    };
    assert.equal(recordedRunModels(ambiguous, ['m', 'n']).size, 0);
  });
});
