/**
 * `swe-explore score --group-by repo`: per-explorer, per-repo macro averages that agree with the
 * rows printed beside them, on the demo workspace and on a generated two-repo fixture.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { buildCliBundle, runCli, type CliRun } from './cliBundle';
import assert from 'node:assert/strict';
import { OFFICIAL_METRIC_NAMES } from '../../src/core';
import { summariseByRepo, type ScoredRow, type WorkspaceModel } from '../../src/data';

const ROOT = path.resolve(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'demo');

before(buildCliBundle);

function cli(...args: string[]): CliRun {
  return runCli(args);
}

interface Row {
  readonly instance_id: string;
  readonly explorer: string;
  readonly metrics: Record<string, number>;
}
interface Macro {
  readonly explorer: string;
  readonly macro: Record<string, number>;
  readonly instances: number;
}
interface Group extends Macro {
  readonly repo: string;
}

function parseJsonOutput(stdout: string): { rows: Row[]; macros: Macro[]; groups: Group[]; order: string[] } {
  const rows: Row[] = [];
  const macros: Macro[] = [];
  const groups: Group[] = [];
  const order: string[] = [];
  for (const line of stdout.trim().split('\n')) {
    const value = JSON.parse(line) as Record<string, unknown>;
    if ('instance_id' in value) {
      rows.push(value as unknown as Row);
      order.push('row');
    } else if ('repo' in value) {
      groups.push(value as unknown as Group);
      order.push('group');
    } else {
      macros.push(value as unknown as Macro);
      order.push('macro');
    }
  }
  return { rows, macros, groups, order };
}

/** The repo the workspace rule gives an instance: the record's `repo`, else derived from the id. */
type RepoOf = (instanceId: string) => string;

/**
 * Every group's macro is the mean of that explorer's rows of that repo (same output), and the
 * groups' instance counts add up to the explorer's.
 */
function checkGroups(stdout: string, repoOf: RepoOf): { groups: Group[]; macros: Macro[] } {
  const { rows, macros, groups, order } = parseJsonOutput(stdout);
  assert.ok(groups.length > 0, 'group lines printed');
  // Rows, then explorer macros, then groups.
  assert.deepEqual(
    order,
    [...order].sort((a, b) => ['row', 'macro', 'group'].indexOf(a) - ['row', 'macro', 'group'].indexOf(b)),
  );
  for (const group of groups) {
    assert.deepEqual(Object.keys(group).slice(0, 4), ['explorer', 'repo', 'macro', 'instances']);
    const mine = rows.filter((r) => r.explorer === group.explorer && repoOf(r.instance_id) === group.repo);
    assert.equal(group.instances, mine.length, `${group.explorer} ${group.repo}`);
    for (const name of OFFICIAL_METRIC_NAMES) {
      let sum = 0;
      for (const r of mine) sum += r.metrics[name]!;
      const mean = sum / mine.length;
      assert.ok(Math.abs(group.macro[name]! - mean) <= 1e-12, `${group.explorer} ${group.repo} ${name}: ${group.macro[name]} vs ${mean}`);
    }
  }
  for (const macro of macros) {
    let total = 0;
    for (const g of groups) if (g.explorer === macro.explorer) total += g.instances;
    assert.equal(total, macro.instances, `instances of ${macro.explorer}`);
  }
  // Every (explorer, repo) with rows has exactly one group.
  const keys = new Set(rows.map((r) => `${r.explorer}\u0000${repoOf(r.instance_id)}`));
  assert.equal(groups.length, keys.size);
  return { groups, macros };
}

test('score --group-by repo on the demo workspace: each group is the mean of its repo rows', () => {
  const preds = ['agent', 'bm25', 'localizer'].flatMap((e) => ['--preds', path.join(DEMO, 'results', e, 'top5.jsonl')]);
  const out = cli('score', '--bench', path.join(DEMO, 'bench.jsonl'), ...preds, '--format', 'json', '--group-by', 'repo');
  assert.equal(out.status, 0, out.stderr);
  const repoOf = (id: string): string => id.replace(/-\d+$/, '').replace('__', '/');
  const { groups } = checkGroups(out.stdout, repoOf);
  assert.deepEqual([...new Set(groups.map((g) => g.repo))].sort(), ['acme/inventory', 'acme/tinyhttp']);

  // Without the flag the output is exactly the rows and explorer macros of before.
  const plain = cli('score', '--bench', path.join(DEMO, 'bench.jsonl'), ...preds, '--format', 'json');
  assert.equal(plain.status, 0, plain.stderr);
  assert.ok(out.stdout.startsWith(plain.stdout));
  assert.equal(parseJsonOutput(plain.stdout).groups.length, 0);
});

/** A line-range-only workspace (no snapshots needed): two repos, a record with its own `repo`. */
function writeFixture(): { bench: string; preds: string[]; repoOf: RepoOf } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-group-by-'));
  const record = (id: string, repo: string | undefined, core: ReadonlyArray<readonly [string, number, number]>): string =>
    JSON.stringify({
      instance_id: id,
      ...(repo === undefined ? {} : { repo }),
      ground_truth: {
        read_core_files: [...new Set(core.map(([p]) => p))],
        read_core_regions: core.map(([p, start, end]) => ({ path: p, start, end })),
        read_optional_files_map: {},
        read_optional_regions_map: {},
        modified_core_files: [],
        main_files: core.length > 0 ? [core[0]![0]] : [],
      },
    });
  const bench = path.join(dir, 'bench.jsonl');
  writeFileSync(
    bench,
    [
      record('org__one-1', undefined, [['a.py', 1, 10]]),
      record('org__one-2', undefined, [
        ['a.py', 5, 20],
        ['b.py', 1, 4],
      ]),
      // The record's own repo wins over the id's prefix.
      record('org__one-3', 'Other/Two', [['c.py', 10, 30]]),
      record('zzz__two-4', 'Other/Two', [['d.py', 1, 3]]),
      // Empty core: skipped by the official rule, so in no group.
      record('org__one-5', undefined, []),
    ].join('\n') + '\n',
  );
  const row = (id: string, explorer: string, regions: ReadonlyArray<readonly [string, number, number]>): string =>
    JSON.stringify({ instance_id: id, explorer, regions: regions.map(([p, start, end]) => ({ path: p, start, end })) });
  const first = path.join(dir, 'first.jsonl');
  writeFileSync(
    first,
    [
      row('org__one-1', 'alpha', [['a.py', 1, 5]]),
      row('org__one-2', 'alpha', [
        ['b.py', 1, 4],
        ['x.py', 1, 9],
      ]),
      row('org__one-3', 'alpha', [['c.py', 12, 14]]),
      row('zzz__two-4', 'alpha', [['d.py', 1, 3]]),
      row('org__one-5', 'alpha', [['a.py', 1, 2]]),
      row('org__one-1', 'beta', [['q.py', 1, 5]]),
      row('zzz__two-4', 'beta', [['d.py', 2, 2]]),
    ].join('\n') + '\n',
  );
  // The same explorer name in a second file: a separate explorer, labelled with its file.
  const second = path.join(dir, 'second.jsonl');
  writeFileSync(second, [row('org__one-2', 'beta', [['a.py', 1, 30]]), row('org__one-3', 'beta', [['c.py', 1, 100]])].join('\n') + '\n');
  const repos: Record<string, string> = { 'org__one-1': 'org/one', 'org__one-2': 'org/one', 'org__one-3': 'Other/Two', 'zzz__two-4': 'Other/Two' };
  return { bench, preds: [first, second], repoOf: (id) => repos[id]! };
}

test('score --group-by repo on a generated two-repo fixture: record repo, id-derived repo, explorer labels', () => {
  const { bench, preds, repoOf } = writeFixture();
  const out = cli('score', '--bench', bench, ...preds.flatMap((p) => ['--preds', p]), '--format', 'json', '--group-by', 'repo');
  assert.equal(out.status, 0, out.stderr);
  const { groups, macros } = checkGroups(out.stdout, repoOf);
  assert.deepEqual(
    groups.map((g) => [g.explorer, g.repo, g.instances]),
    [
      ['alpha', 'Other/Two', 2],
      ['alpha', 'org/one', 2],
      ['beta (first.jsonl)', 'Other/Two', 1],
      ['beta (first.jsonl)', 'org/one', 1],
      ['beta (second.jsonl)', 'Other/Two', 1],
      ['beta (second.jsonl)', 'org/one', 1],
    ],
  );
  assert.deepEqual(
    macros.map((m) => [m.explorer, m.instances]),
    [
      ['alpha', 4],
      ['beta (first.jsonl)', 2],
      ['beta (second.jsonl)', 2],
    ],
  );

  // Table and CSV show the same groups.
  const csv = cli('score', '--bench', bench, ...preds.flatMap((p) => ['--preds', p]), '--format', 'csv', '--group-by', 'repo');
  assert.equal(csv.status, 0, csv.stderr);
  const csvGroups = csv.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('MACRO:'));
  assert.deepEqual(
    csvGroups.map((l) => l.split(',').slice(0, 2)),
    groups.map((g) => [`MACRO:${g.repo}`, g.explorer]),
  );
  for (const [i, line] of csvGroups.entries()) {
    const cells = line.split(',').slice(2).map(Number);
    assert.deepEqual(
      cells,
      OFFICIAL_METRIC_NAMES.map((name) => groups[i]!.macro[name]),
    );
  }
  const table = cli('score', '--bench', bench, ...preds.flatMap((p) => ['--preds', p]), '--group-by', 'repo');
  assert.equal(table.status, 0, table.stderr);
  for (const g of groups) assert.match(table.stdout, new RegExp(`MACRO ${g.repo} \\(${g.instances}\\)\\s+${g.explorer.replace(/[()]/g, '\\$&')}\\s`));
});

test('score --group-by accepts only repo (usage error, exit 2)', () => {
  const out = cli('score', '--bench', path.join(DEMO, 'bench.jsonl'), '--preds', path.join(DEMO, 'results', 'agent', 'top5.jsonl'), '--group-by', 'explorer');
  assert.equal(out.status, 2);
  assert.equal(out.stdout, '');
  assert.match(out.stderr, /^swe-explore: --group-by takes repo, got "explorer"\n$/);
});

test('group lines escape data: a repo with controls stays one line in every format', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-group-by-escape-'));
  const bench = path.join(dir, 'bench.jsonl');
  const repo = 'evil/\u001b[31mred\nnext\u2028=cmd()';
  const gt = {
    read_core_files: ['a.py'],
    read_core_regions: [{ path: 'a.py', start: 1, end: 3 }],
    read_optional_files_map: {},
    read_optional_regions_map: {},
    modified_core_files: [],
    main_files: [],
  };
  writeFileSync(bench, `${JSON.stringify({ instance_id: 'x__y-1', repo, ground_truth: gt })}\n`);
  const preds = path.join(dir, 'p.jsonl');
  writeFileSync(preds, `${JSON.stringify({ instance_id: 'x__y-1', explorer: 'e', regions: [{ path: 'a.py', start: 1, end: 2 }] })}\n`);
  const base = ['score', '--bench', bench, '--preds', preds, '--group-by', 'repo'];
  const json = cli(...base, '--format', 'json');
  assert.equal(json.status, 0, json.stderr);
  const lines = json.stdout.trim().split('\n');
  assert.equal(lines.length, 3);
  assert.doesNotMatch(json.stdout, /[\u001b\u2028]/);
  assert.equal((JSON.parse(lines[2]!) as Group).repo, repo);
  const table = cli(...base, '--format', 'table');
  assert.equal(table.status, 0, table.stderr);
  assert.doesNotMatch(table.stdout, /[\u001b\u2028]/);
  assert.equal(table.stdout.split('\n').filter((l) => l.includes('evil/')).length, 1);
  // CSV shows the controls escaped too (a CSV is cat-ed as often as it is opened), one cell on one line.
  const csv = cli(...base, '--format', 'csv');
  assert.equal(csv.status, 0, csv.stderr);
  assert.doesNotMatch(csv.stdout, /[\u001b\u2028]/);
  assert.ok(csv.stdout.includes('\nMACRO:evil/\\x1b[31mred\\nnext\\u2028=cmd(),e,'), csv.stdout);
});

test('summariseByRepo equals summarise over each repo and falls back to the id rule', () => {
  const metrics = (v: number): Record<string, number> => Object.fromEntries(OFFICIAL_METRIC_NAMES.map((n) => [n, v]));
  const rows: ScoredRow[] = [
    { instanceId: 'a__b-1', explorer: 'e', metrics: metrics(1) },
    { instanceId: 'a__b-2', explorer: 'e', metrics: metrics(0) },
    { instanceId: 'c__d-3', explorer: 'e', metrics: metrics(0.5) },
  ];
  const model = { instances: new Map([['c__d-3', { repo: 'own/repo' }]]) } as unknown as WorkspaceModel;
  const groups = summariseByRepo(rows, model, OFFICIAL_METRIC_NAMES);
  assert.deepEqual(
    groups.map((g) => [g.explorer, g.repo, g.instances, g.macro['recall']]),
    [
      ['e', 'a/b', 2, 0.5],
      ['e', 'own/repo', 1, 0.5],
    ],
  );
});
