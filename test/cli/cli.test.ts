/**
 * The `swe-explore` command line, run as a user runs it (a child process), on fixture workspaces
 * the project writes itself.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { buildCliBundle, runCli, type CliRun } from './cliBundle';
import * as assert from 'node:assert/strict';
import { OFFICIAL_METRIC_NAMES } from '../../src/core';

const ROOT = path.resolve(__dirname, '..', '..');
const TINY = path.join(ROOT, 'test', 'fixtures', 'tiny');
const DEMO = path.join(ROOT, 'demo');

before(buildCliBundle);

function cli(...args: string[]): CliRun {
  return runCli(args);
}

interface ExpectedRow {
  instance_id: string;
  explorer: string;
  metrics: Record<string, number>;
}

test('score --format json matches the hand-computed values of the tiny fixture (official and snapshot)', () => {
  const expected = JSON.parse(readFileSync(path.join(TINY, 'expected.json'), 'utf8')) as { profiles: Record<string, { rows: ExpectedRow[] }> };
  for (const profile of ['official', 'snapshot']) {
    const out = cli('score', '--bench', path.join(TINY, 'bench.jsonl'), '--preds', path.join(TINY, 'preds.jsonl'), '--profile', profile, '--format', 'json');
    assert.equal(out.status, 0, out.stderr);
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const rows = lines.filter((l) => 'instance_id' in l) as unknown as ExpectedRow[];
    const expectedRows = expected.profiles[profile]!.rows;
    assert.equal(rows.length, expectedRows.length);
    for (const want of expectedRows) {
      const got = rows.find((r) => r.instance_id === want.instance_id && r.explorer === want.explorer);
      assert.ok(got, `row ${want.instance_id}`);
      assert.deepEqual(Object.keys(got.metrics), [...OFFICIAL_METRIC_NAMES]);
      for (const name of OFFICIAL_METRIC_NAMES) {
        assert.ok(Math.abs(got.metrics[name]! - want.metrics[name]!) <= 1e-12, `${profile} ${want.instance_id} ${name}: ${got.metrics[name]} vs ${want.metrics[name]}`);
      }
    }
    const macro = lines.filter((l) => 'macro' in l);
    assert.equal(macro.length, 1);
    assert.equal(macro[0]!['instances'], expectedRows.length);
  }
});

test('score with --line-counts equals score with snapshots on disk (official profile)', () => {
  const base = ['score', '--bench', path.join(TINY, 'bench.jsonl'), '--preds', path.join(TINY, 'preds.jsonl'), '--format', 'json'];
  const fromDisk = cli(...base);
  const fromCounts = cli(...base, '--line-counts', path.join(TINY, 'line_counts.json'));
  assert.equal(fromCounts.status, 0, fromCounts.stderr);
  assert.equal(fromCounts.stdout, fromDisk.stdout);
});

test('score --format csv and table carry the same numbers; extra budgets add fields', () => {
  const preds = ['agent', 'bm25', 'localizer'].flatMap((e) => ['--preds', path.join(DEMO, 'results', e, 'top5.jsonl')]);
  const csv = cli('score', '--bench', path.join(DEMO, 'bench.jsonl'), ...preds, '--format', 'csv', '--budgets', '100,300,500,50');
  assert.equal(csv.status, 0, csv.stderr);
  const [header, ...rows] = csv.stdout.trim().split('\n');
  assert.deepEqual(header!.split(','), ['instance_id', 'explorer', ...OFFICIAL_METRIC_NAMES, 'ndcg_at_50', 'recall_at_50']);
  assert.equal(rows.length, 9 + 3, '9 rows and 3 macro rows');
  const table = cli('score', '--bench', path.join(DEMO, 'bench.jsonl'), ...preds);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^profile official/);
  assert.match(table.stdout, /MACRO \(3\)\s+agent/);
});

test('validate reports every problem of the corrupt fixture with file:line and exits 1', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-cli-'));
  const bench = path.join(dir, 'bench.jsonl');
  const good = { instance_id: 'x__y-1', repo_dir: 'repos/x__y-1', ground_truth: { read_core_files: ['a.py'], read_core_regions: [{ path: 'a.py', start: 1, end: 3 }] } };
  writeFileSync(
    bench,
    [
      JSON.stringify(good),
      '{"instance_id": "x__y-2", "ground_truth": ',
      JSON.stringify({ instance_id: 'x__y-3' }),
      JSON.stringify({ ...good, instance_id: 'x__y-4', ground_truth: { read_core_regions: [{ path: 'a.py', start: 1.5, end: 3 }] } }),
      JSON.stringify({ ...good, instance_id: 'x__y-5', ground_truth: { read_core_regions: [{ path: '../../etc/passwd', start: 1, end: 3 }] } }),
      JSON.stringify(good),
    ].join('\n') + '\n',
  );
  const out = cli('validate', '--bench', bench);
  assert.equal(out.status, 1);
  assert.match(out.stdout, new RegExp(`${escape(bench)}:2:\\d+: error`));
  assert.match(out.stdout, new RegExp(`${escape(bench)}:3:\\d+: error.*ground_truth`));
  assert.match(out.stdout, new RegExp(`${escape(bench)}:4:\\d+: error.*integer`));
  assert.match(out.stdout, new RegExp(`${escape(bench)}:5:\\d+: error`));
  assert.match(out.stdout, new RegExp(`${escape(bench)}:6:\\d+: error.*x__y-1`));
  assert.doesNotMatch(out.stdout + out.stderr, /\n\s+at /, 'no stack trace');
});

test('score still scores the good lines of a corrupt file, reports the bad ones, exits 1', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-cli-'));
  const preds = path.join(dir, 'preds.jsonl');
  const good = readFileSync(path.join(TINY, 'preds.jsonl'), 'utf8').trim().split('\n');
  writeFileSync(preds, [good[0], '{not json', ...good.slice(1)].join('\n') + '\n');
  const out = cli('score', '--bench', path.join(TINY, 'bench.jsonl'), '--preds', preds, '--format', 'json');
  assert.equal(out.status, 1);
  assert.match(out.stderr, new RegExp(`${escape(preds)}:2:\\d+: error`));
  assert.equal(
    out.stdout
      .trim()
      .split('\n')
      .filter((l) => l.includes('"instance_id"')).length,
    good.length,
  );
});

test('a repo_dir that escapes the repos root is refused: nothing outside is counted', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-cli-'));
  const bench = path.join(dir, 'bench.jsonl');
  const preds = path.join(dir, 'preds.jsonl');
  const region = { path: 'etc/passwd', start: 1, end: -1 };
  writeFileSync(bench, JSON.stringify({ instance_id: 'evil__x-1', repo_dir: '../../../../../../../../', ground_truth: { read_core_files: ['etc/passwd'], read_core_regions: [region] } }) + '\n');
  writeFileSync(preds, JSON.stringify({ instance_id: 'evil__x-1', explorer: 'e', regions: [region] }) + '\n');
  const out = cli('score', '--bench', bench, '--preds', preds, '--format', 'json');
  assert.equal(out.status, 1, 'an escaping repo_dir is an error');
  assert.match(out.stderr, /snapshot of evil__x-1 not used/);
  const row = JSON.parse(out.stdout.trim().split('\n')[0]!) as { metrics: Record<string, number> };
  assert.equal(row.metrics['recall'], 0, 'the whole-file region stays unresolvable: /etc/passwd was never counted');
});

test('bad invocations are one-line errors, never stack traces', () => {
  for (const args of [
    ['score'],
    ['score', '--bench', '/nonexistent/bench.jsonl', '--preds', '/nonexistent/p.jsonl'],
    ['score', '--bench', 'x', '--preds', 'y', '--k', 'zero'],
    ['frobnicate', '--bench', 'x'],
    ['score', '--bench', 'x', '--preds', 'y', '--profile', 'fast'],
  ]) {
    const out = cli(...args);
    assert.notEqual(out.status, 0, args.join(' '));
    assert.doesNotMatch(out.stderr, /\n\s+at /, `no stack trace for ${args.join(' ')}`);
    assert.ok(out.stderr.trim().split('\n').length <= 3, `short message for ${args.join(' ')}: ${out.stderr}`);
  }
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
