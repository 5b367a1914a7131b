/**
 * `swe-explore whatif` run as a user runs it, on a workspace written here: the JSON contract (line
 * kinds, their order and every key in order), `-o` then `score` giving exactly the `after` values,
 * the Markdown and CSV renderings, stderr notes, refusals and usage errors.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCliBundle, runCli, type CliRun } from './cliBundle';
import assert from 'node:assert/strict';
import { OFFICIAL_METRIC_NAMES } from '../../src/core';
import { writeWhatIfFixture } from '../unit/support/whatif-fixture';

const fixture = writeWhatIfFixture();
after(() => rmSync(fixture.dir, { recursive: true, force: true }));

before(buildCliBundle);

function cli(...args: string[]): CliRun {
  return runCli(args, fixture.dir);
}

type Line = Record<string, unknown> & { kind: string };

function jsonLines(text: string): Line[] {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}

const RANKING_METRICS = ['precision', 'recall', 'ndcg_at_500', 'hit_file_rate', 'context_efficiency'];

describe('whatif --format json', () => {
  it('instance lines, explorer lines, ranking lines, one total line: in that order, keys in the contract order', () => {
    const out = cli('whatif', '--bench', 'bench.jsonl', '--rules', 'as-seen', '--preds', 'preds.jsonl');
    assert.equal(out.status, 0, out.stderr);
    const lines = jsonLines(out.stdout);
    assert.deepEqual(
      lines.map((l) => l.kind),
      ['instance', 'instance', 'explorer', 'explorer', 'explorer', 'ranking', 'ranking', 'ranking', 'ranking', 'ranking', 'total'],
    );
    assert.deepEqual(lines[0], { kind: 'instance', instance_id: 'o__r-1', core_lines_before: 131, core_lines_after: 27, joined: 20, left: 124, runs: { rebuilt: 3, as_recorded: 0, dropped: 0 } });
    assert.deepEqual(Object.keys(lines[0]!), ['kind', 'instance_id', 'core_lines_before', 'core_lines_after', 'joined', 'left', 'runs']);
    assert.deepEqual(Object.keys(lines[0]!['runs'] as object), ['rebuilt', 'as_recorded', 'dropped']);
    assert.deepEqual(lines[1]!['runs'], { rebuilt: 0, as_recorded: 2, dropped: 0 });
    for (const explorer of lines.filter((l) => l.kind === 'explorer')) {
      assert.deepEqual(Object.keys(explorer), ['kind', 'explorer', 'before', 'after']);
      assert.deepEqual(Object.keys(explorer['before'] as object), [...OFFICIAL_METRIC_NAMES]);
      assert.deepEqual(Object.keys(explorer['after'] as object), [...OFFICIAL_METRIC_NAMES]);
    }
    const rankings = lines.filter((l) => l.kind === 'ranking');
    assert.deepEqual(
      rankings.map((r) => r['metric']),
      RANKING_METRICS,
    );
    for (const r of rankings) assert.deepEqual(Object.keys(r), ['kind', 'metric', 'before', 'after', 'kendall_tau_b']);
    assert.deepEqual(lines.at(-1), { kind: 'total', instances: 2, core_lines_before: 138, core_lines_after: 34, joined: 20, left: 124 });
    assert.deepEqual(Object.keys(lines.at(-1)!), ['kind', 'instances', 'core_lines_before', 'core_lines_after', 'joined', 'left']);
    assert.match(out.stderr, /runs: 3 rebuilt under the rules, 2 as recorded \(1 of m1 not found, 1 of m2 not found\), 0 dropped/);
  });

  it('without --preds: instance lines and the total only', () => {
    const out = cli('whatif', '--bench', 'bench.jsonl', '--rules', 'official');
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(
      jsonLines(out.stdout).map((l) => l.kind),
      ['instance', 'instance', 'total'],
    );
    assert.deepEqual(jsonLines(out.stdout).at(-1), { kind: 'total', instances: 2, core_lines_before: 138, core_lines_after: 138, joined: 0, left: 0 });
  });

  it('-o writes the variant bench; score on it gives exactly the after values', () => {
    for (const [rules, extra] of [
      ['as-seen', []],
      ['support:2', ['--drop-promoted']],
      ['resolved-only', ['--reports', 'm2=reports']],
    ] as const) {
      const out = cli('whatif', '--bench', 'bench.jsonl', '--rules', rules, ...extra, '--preds', 'preds.jsonl', '-o', 'variant.jsonl');
      assert.equal(out.status, 0, out.stderr);
      const explorers = jsonLines(out.stdout).filter((l) => l.kind === 'explorer');
      const scored = cli('score', '--bench', 'variant.jsonl', '--preds', 'preds.jsonl', '--format', 'json');
      assert.equal(scored.status, 0, scored.stderr);
      const macros = jsonLines(scored.stdout).filter((l) => 'macro' in l);
      assert.equal(macros.length, explorers.length, rules);
      for (const explorer of explorers) {
        const macro = macros.find((m) => m['explorer'] === explorer['explorer'])!['macro'] as Record<string, number>;
        const after = explorer['after'] as Record<string, number>;
        for (const name of OFFICIAL_METRIC_NAMES) assert.ok(Math.abs(after[name]! - macro[name]!) <= 1e-9, `${rules} ${String(explorer['explorer'])} ${name}`);
      }
      assert.match(out.stderr, /wrote the variant bench \(2 record\(s\)\) to variant\.jsonl/);
    }
    // Registered like an export, so the bench discovery never takes it for the bench.
    assert.ok(existsSync(path.join(fixture.dir, '.swe-explore', 'exports', 'exports.jsonl')));
    assert.match(readFileSync(path.join(fixture.dir, '.swe-explore', 'exports', 'exports.jsonl'), 'utf8'), /"file":"variant\.jsonl"/);
  });

  it('resolved-only with a report: the run it marks not resolved is dropped, runs without one are counted', () => {
    const out = cli('whatif', '--bench', 'bench.jsonl', '--rules', 'resolved-only', '--reports', 'model-two=reports');
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(jsonLines(out.stdout)[0]!['runs'], { rebuilt: 2, as_recorded: 0, dropped: 1 });
    assert.match(out.stderr, /resolved-only: 1 run\(s\) not resolved \(dropped\), 4 kept run\(s\) without a report \(kept\)/);
  });
});

describe('whatif --format md|csv', () => {
  it('Markdown: the summary, macro averages, rankings and instances; data text escaped', () => {
    const out = cli('whatif', '--bench', 'bench.jsonl', '--rules', 'as-seen,support:2', '--drop-promoted', '--preds', 'preds.jsonl', '--format', 'md');
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /^# What-if ground truth: as\\-seen\\,support\\:2 \\-\\-drop\\-promoted\n/);
    assert.match(out.stdout, /## Macro averages per explorer/);
    assert.match(out.stdout, /## Explorer rankings/);
    assert.match(out.stdout, /\| o\\_\\_r\\-1 \| 131 \| 68 \| 20 \| 83 \| rebuilt 3; as recorded 0; dropped 0 \|/);
    assert.match(out.stdout, /\| \\=HYPERLINK\\\(\\"x\\"\\\) \| precision \|/);
  });
  it('CSV: long form; a formula-like explorer cell is neutralised', () => {
    const out = cli('whatif', '--bench', 'bench.jsonl', '--rules', 'as-seen', '--preds', 'preds.jsonl', '--format', 'csv');
    assert.equal(out.status, 0, out.stderr);
    const rows = out.stdout.trimEnd().split('\n');
    assert.equal(rows[0], 'kind,instance_id,explorer,metric,before,after,delta,detail');
    assert.equal(rows[1], 'instance,o__r-1,,core_lines,131,27,-104,joined 20; left 124; rebuilt 3; as recorded 0; dropped 0');
    assert.ok(rows.some((r) => r.startsWith('explorer,,"\'=HYPERLINK(""x"")",precision,')));
    assert.equal(rows.at(-1), 'total,,,core_lines,138,34,-104,instances 2; joined 20; left 124');
  });
});

describe('whatif refusals and usage errors', () => {
  it('-o never names an input or the audit folder (exit 2, nothing written)', () => {
    for (const target of ['bench.jsonl', 'preds.jsonl', './repos/../bench.jsonl', '.swe-explore/audit/v.jsonl']) {
      const out = cli('whatif', '--bench', 'bench.jsonl', '--rules', 'official', '--preds', 'preds.jsonl', '-o', target);
      assert.equal(out.status, 2, target);
      assert.match(out.stderr, /^swe-explore: -o /);
    }
    assert.equal(readFileSync(fixture.bench, 'utf8'), `${fixture.benchLines.join('\n')}\n`);
  });
  it('a missing or unreadable --rules, a bad --format or --trajs: exit 2 with one line', () => {
    for (const [args, message] of [
      [[], /--rules is required/],
      [['--rules', 'bogus'], /--rules: unknown rule "bogus"/],
      [['--rules', 'official,as-seen'], /both extraction rules/],
      [['--rules', 'official', '--format', 'table'], /--format must be json, md or csv/],
      [['--rules', 'official', '--trajs', 'missing-folder'], /--trajs missing-folder is not a folder/],
      [['--rules', 'official', '--traj-template', 'm1=x/{nope}'], /unknown placeholder \{nope\}/],
    ] as const) {
      const out = cli('whatif', '--bench', 'bench.jsonl', ...args);
      assert.equal(out.status, 2, args.join(' '));
      assert.match(out.stderr, message);
    }
  });
});
