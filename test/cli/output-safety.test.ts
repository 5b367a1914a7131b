/**
 * What the `swe-explore` command line writes when the data is hostile: control characters in ids
 * never reach the terminal raw, CSV cells never become formulas, huge tables stream, and budgets
 * past 2^53 are refused.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { buildCliBundle, runCli, type CliRun } from './cliBundle';
import * as assert from 'node:assert/strict';
import { formatTable } from '../../src/cli/format';
import type { ScoreResult } from '../../src/cli/scoreWorkspace';
import { OFFICIAL_METRIC_NAMES } from '../../src/core';

before(buildCliBundle);

function cli(...args: string[]): CliRun {
  return runCli(args);
}

/** Anything a terminal interprets: C0, DEL, C1, line/paragraph separators, bidi controls. */
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const HOSTILE_ID = 'x__y-1\u001b]0;pwned\u0007\u001b[31mRED\r\n/etc/passwd:1:1: error: forged\u202e\u009b2J';
const HOSTILE_EXPLORER = 'agent\u001b[2J\nforged-explorer';

/** A bench whose one instance has a hostile id and no snapshot, and a prediction row for it. */
function hostileWorkspace(): { dir: string; bench: string; preds: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-cli-hostile-'));
  const bench = path.join(dir, 'bench.jsonl');
  const preds = path.join(dir, 'preds.jsonl');
  // end -1 needs a line count, and the snapshot is missing: the CLI reports a problem naming the id.
  const region = { path: 'a.py', start: 1, end: -1 };
  writeFileSync(bench, JSON.stringify({ instance_id: HOSTILE_ID, repo_dir: 'repos/none', ground_truth: { read_core_files: ['a.py'], read_core_regions: [region] } }) + '\n');
  writeFileSync(preds, JSON.stringify({ instance_id: HOSTILE_ID, explorer: HOSTILE_EXPLORER, regions: [region] }) + '\n');
  return { dir, bench, preds };
}

test('table output shows control characters in ids and explorers escaped; no row is broken', () => {
  const { bench, preds } = hostileWorkspace();
  const out = cli('score', '--bench', bench, '--preds', preds, '--format', 'table', '--keep-empty-core');
  assert.doesNotMatch(out.stdout, TERMINAL_CONTROL, JSON.stringify(out.stdout));
  assert.match(out.stdout, /x__y-1\\x1b\]0;pwned\\x07\\x1b\[31mRED\\r\\n\/etc\/passwd:1:1: error: forged\\u202e\\x9b2J/);
  const lines = out.stdout.trimEnd().split('\n');
  // profile note, header, rule, one row, rule, one macro row; then the legend of the column names
  assert.equal(
    lines.findIndex((line) => line.startsWith('columns: ')),
    6,
    out.stdout,
  );
  assert.ok(!lines.some((line) => line.startsWith('/etc/passwd')), 'no forged line');
});

test('problem lines on stderr show data controls escaped: a newline in an id cannot forge a located error', () => {
  const { bench, preds } = hostileWorkspace();
  const out = cli('score', '--bench', bench, '--preds', preds, '--format', 'json', '--keep-empty-core');
  assert.notEqual(out.stderr, '', 'the missing snapshot is reported');
  assert.doesNotMatch(out.stderr, TERMINAL_CONTROL, JSON.stringify(out.stderr));
  for (const line of out.stderr.trimEnd().split('\n')) assert.ok(line.startsWith(bench), `every problem line is located in the real file: ${JSON.stringify(line)}`);
});

test('json output is already safe: controls are JSON escapes and the ids round-trip', () => {
  const { bench, preds } = hostileWorkspace();
  const out = cli('score', '--bench', bench, '--preds', preds, '--format', 'json', '--keep-empty-core');
  assert.doesNotMatch(out.stdout, TERMINAL_CONTROL);
  const rows = out.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { instance_id?: string; explorer: string });
  assert.equal(rows.length, 2, 'one row and one macro line');
  assert.equal(rows[0]!.instance_id, HOSTILE_ID);
  assert.equal(rows[0]!.explorer, HOSTILE_EXPLORER);
});

test('validate prints one line per problem even when the file name carries a newline and ESC', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-cli-hostile-'));
  const bench = path.join(dir, 'bench\u001b[31m\nforged.jsonl:1:1: error: fake.jsonl');
  writeFileSync(bench, '{not json\n{"instance_id": 3}\n');
  const out = cli('validate', '--bench', bench);
  assert.equal(out.status, 1);
  assert.doesNotMatch(out.stdout, TERMINAL_CONTROL, JSON.stringify(out.stdout));
  const lines = out.stdout.trimEnd().split('\n');
  const shown = path.join(dir, 'bench\\x1b[31m\\nforged.jsonl:1:1: error: fake.jsonl');
  assert.ok(lines.length >= 3, out.stdout);
  for (const line of lines.slice(0, -1)) assert.ok(line.startsWith(`${shown}:`), JSON.stringify(line));
  assert.match(lines[lines.length - 1]!, /^\d+ error\(s\), \d+ warning\(s\)$/);
});

test('csv output neutralises formula-looking ids and explorers but keeps numbers numeric', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-cli-csv-'));
  const bench = path.join(dir, 'bench.jsonl');
  const preds = path.join(dir, 'preds.jsonl');
  const ids = ['=HYPERLINK("http://evil","x")', '+1+1', '-2', '@SUM(A1)', '\tcmd', '\rcmd'];
  const region = { path: 'a.py', start: 1, end: 3 };
  writeFileSync(bench, ids.map((id) => JSON.stringify({ instance_id: id, repo_dir: 'none', ground_truth: { read_core_files: ['a.py'], read_core_regions: [region] } })).join('\n') + '\n');
  writeFileSync(preds, ids.map((id) => JSON.stringify({ instance_id: id, explorer: '=cmd|"/C calc"!A0', regions: [region] })).join('\n') + '\n');
  const out = cli('score', '--bench', bench, '--preds', preds, '--format', 'csv');
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^"'=HYPERLINK\(""http:\/\/evil"",""x""\)","'=cmd\|""\/C calc""!A0",/m);
  assert.match(out.stdout, /^'\+1\+1,/m);
  assert.match(out.stdout, /^'-2,/m);
  assert.match(out.stdout, /^'@SUM\(A1\),/m);
  assert.match(out.stdout, /^'\tcmd,/m);
  assert.match(out.stdout, /^'\\rcmd,/m);
  assert.match(out.stdout, /^MACRO,"'=cmd\|""\/C calc""!A0",1,/m);
  // Every metric cell is a plain number.
  const header = out.stdout.split('\n')[0]!.split(',');
  assert.deepEqual(header.slice(2), [...OFFICIAL_METRIC_NAMES]);
});

/** What a CSV may hold raw: no C0 control but tab and the row ends, no DEL, C1, U+2028/2029 or bidi control. */
const CSV_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]|\r/;

test('csv of score, misses and audit-impact: data controls escaped, one row per line, whatever the output is', () => {
  const { dir, bench, preds } = hostileWorkspace();
  const auditDir = path.join(dir, '.swe-explore', 'audit');
  mkdirSync(auditDir, { recursive: true });
  const removal = {
    v: 1,
    op: 'remove',
    id: 'r1',
    instance_id: HOSTILE_ID,
    layer: 'core',
    model: null,
    path: 'a.py',
    start: 1,
    end: 1,
    reason: 'other\u001b]8;;x\u0007\nkind,forged',
    note: null,
    author: 'alice',
    at: '2026-01-01T00:00:00Z',
    text_sha: null,
  };
  writeFileSync(path.join(auditDir, 'alice.jsonl'), `${JSON.stringify(removal)}\n`);
  const counts = path.join(dir, 'counts.json');
  writeFileSync(counts, JSON.stringify({ [HOSTILE_ID]: { 'a.py': 3 } }));
  const runs = {
    score: cli('score', '--bench', bench, '--preds', preds, '--line-counts', counts, '--format', 'csv'),
    misses: cli('misses', '--bench', bench, '--preds', preds, '--line-counts', counts, '--format', 'csv'),
    'audit-impact': cli('audit-impact', '--bench', bench, '--preds', preds, '--line-counts', counts, '--audit', auditDir, '--format', 'csv'),
  };
  for (const [command, out] of Object.entries(runs)) {
    assert.notEqual(out.stdout, '', `${command}: ${out.stderr}`);
    assert.doesNotMatch(out.stdout, CSV_UNSAFE, `${command}: ${JSON.stringify(out.stdout)}`);
    const columns = out.stdout.split('\n')[0]!.split(',').length;
    for (const line of out.stdout.trimEnd().split('\n')) {
      assert.ok(!line.startsWith('/etc/passwd') && !line.startsWith('forged'), `${command}: a forged line ${JSON.stringify(line)}`);
      // every row has the header's columns: no cell spans lines (quoted cells hold no comma here)
      assert.equal(line.replace(/"[^"]*"/g, 'x').split(',').length, columns, `${command}: ${JSON.stringify(line)}`);
    }
    assert.match(out.stdout, /x__y-1\\x1b\]0;pwned\\x07/, command);
  }
});

test('--budgets and --k past 2^53 (or absurdly large) are usage errors, exit 2', () => {
  const base = ['score', '--bench', 'b.jsonl', '--preds', 'p.jsonl'];
  for (const extra of [
    ['--budgets', '9007199254740993'],
    ['--budgets', '100,99999999999999999999'],
    ['--k', '9007199254740993'],
    ['--budgets', '1e3'],
    ['--budgets', '0'],
    ['--budgets', '2000000000'],
  ]) {
    const out = cli(...base, ...extra);
    assert.equal(out.status, 2, `${extra.join(' ')}: ${out.stderr}`);
    assert.match(out.stderr, new RegExp(`^swe-explore: ${extra[0]} `), out.stderr);
  }
});

function bigResult(rows: number): ScoreResult {
  const metrics: Record<string, number> = {};
  for (const name of OFFICIAL_METRIC_NAMES) metrics[name] = 0.5;
  const list = [];
  for (let i = 0; i < rows; i++) list.push({ instanceId: `org__repo-${i}`, explorer: 'agent', metrics });
  return { rows: list, summaries: [{ explorer: 'agent', macro: metrics, instances: rows }], problems: [], fields: [...OFFICIAL_METRIC_NAMES], skippedEmptyCore: 0 };
}

test('formatting 150,000 rows as a table streams and does not overflow the stack', () => {
  const rows = 150_000;
  let lines = 0;
  let chunks = 0;
  let last = '';
  for (const chunk of formatTable(bigResult(rows), 'official')) {
    chunks += 1;
    assert.ok(chunk.endsWith('\n'), 'chunks hold whole lines');
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) lines += 1;
    last = chunk;
  }
  const legend = last.slice(last.indexOf('columns: ')).split('\n').length - 1;
  assert.equal(lines, rows + 5 + legend, 'note, header, rule, rows, rule, macro, legend');
  assert.ok(chunks > 1, 'written in pieces, not one giant string');
});
