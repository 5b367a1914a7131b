/**
 * The command line's front door (issue 16, item 8): `--help` for every verb, `help <verb>`, an
 * unknown verb named as such, and a score table that fits the width it is given without cutting a
 * number. Child processes for what a user types; the pure parts (verb registry, panels) directly.
 */
import * as path from 'node:path';
import { before, test } from 'node:test';
import { buildCliBundle, runCli, type CliRun } from './cliBundle';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { OFFICIAL_METRIC_NAMES } from '../../src/core';
import { UsageError } from '../../src/cli/args';
import { columnPanels, COLUMN_GAP, wrapItems } from '../../src/cli/tableLayout';
import { overviewHelp, parseInvocation, verbHelp, VERBS } from '../../src/cli/verbs';

const ROOT = path.resolve(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'demo');

before(buildCliBundle);

function cli(...args: string[]): CliRun {
  return runCli(args);
}

function widest(text: string): number {
  let most = 0;
  for (const line of text.split('\n')) most = Math.max(most, line.length);
  return most;
}

test('swe-explore --help, -h and help print the verb list to stdout, exit 0; no argument prints it with exit 2', () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const out = cli(...args);
    assert.equal(out.status, 0, args.join(' '));
    assert.equal(out.stderr, '');
    assert.equal(out.stdout, overviewHelp());
    for (const verb of VERBS) assert.match(out.stdout, new RegExp(`^  ${verb.name} +\\S`, 'm'));
  }
  const bare = cli();
  assert.equal(bare.status, 2);
  assert.equal(bare.stdout, overviewHelp());
});

test('every verb: <verb> --help, <verb> -h and help <verb> print its help to stdout, exit 0, within 100 columns', () => {
  // Every verb with --help; the other spellings on one verb each (each form is a child process).
  const forms = VERBS.map((verb) => [verb.name, '--help']);
  forms.push(['misses', '-h'], ['help', 'export'], ['score', '--bench', 'nowhere.jsonl', '--help']);
  for (const verb of VERBS) {
    for (const args of forms.filter((form) => form.includes(verb.name))) {
      const out = cli(...args);
      assert.equal(out.status, 0, `${args.join(' ')}: ${out.stderr}`);
      assert.equal(out.stderr, '');
      assert.equal(out.stdout, verbHelp(verb), args.join(' '));
    }
    const help = verbHelp(verb);
    assert.match(help, new RegExp(`^swe-explore ${verb.name} — `));
    assert.match(help, new RegExp(`\\nUsage:\\n  swe-explore ${verb.name} `));
    assert.ok(widest(help) <= 100, `${verb.name} help is ${widest(help)} columns wide`);
  }
  assert.ok(widest(overviewHelp()) <= 100);
});

test('an unknown verb is named as such with the verb list, exit 2 (not "--bench is required")', () => {
  const out = cli('bogus');
  assert.equal(out.status, 2);
  assert.equal(out.stdout, '');
  assert.equal(out.stderr, `swe-explore: unknown verb 'bogus'; verbs: ${VERBS.map((v) => v.name).join(', ')} (swe-explore --help)\n`);
  assert.match(cli('scroe', '--bench', 'x').stderr, /unknown verb 'scroe' \(did you mean 'score'\?\)/);
  assert.match(cli('help', 'nope').stderr, /unknown verb 'nope'/);
  assert.match(cli('--bench', 'x.jsonl').stderr, /expected a verb before "--bench"/);
  // The verb is data from the command line: a control character in it is shown escaped.
  const evil = cli('\u001b[31mred');
  assert.equal(evil.status, 2);
  assert.doesNotMatch(evil.stderr, /\u001b/);
});

test('parseInvocation: help anywhere before "--", the verb and its arguments otherwise', () => {
  const score = VERBS.find((v) => v.name === 'score')!;
  assert.deepEqual(parseInvocation([]), { kind: 'overview', exitCode: 2 });
  assert.deepEqual(parseInvocation(['help']), { kind: 'overview', exitCode: 0 });
  assert.deepEqual(parseInvocation(['score', '--k', '3', '-h']), { kind: 'verb-help', verb: score });
  assert.deepEqual(parseInvocation(['score', '--bench', 'b', '--', '--help']), { kind: 'run', verb: score, argv: ['--bench', 'b', '--', '--help'] });
  assert.throws(() => parseInvocation(['nope']), UsageError);
  const names = VERBS.map((v) => v.name);
  assert.equal(new Set(names).size, names.length, 'verb names are unique');
  for (const verb of VERBS) assert.ok(verb.summary.length <= 72, `${verb.name}: summary fits one line`);
});

/** Rows of a table split into panels, joined back per (instance, explorer) label: every metric cell in order. */
function cellsByRow(table: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of table.split('\n')) {
    const match = /^(acme__\S+|MACRO \(\d+\))\s+(\S+)\s+((?:-?\d+\.\d{4}\s*)+)$/.exec(line);
    if (match === null) continue;
    const key = `${match[1]!} ${match[2]!}`;
    out.set(key, [...(out.get(key) ?? []), ...match[3]!.trim().split(/\s+/)]);
  }
  return out;
}

test('score --width N splits the table into panels that fit, with every number whole; unsplit when piped', () => {
  const inputs = ['score', '--bench', path.join(DEMO, 'bench.jsonl'), ...['agent', 'bm25', 'localizer'].flatMap((e) => ['--preds', path.join(DEMO, 'results', e, 'top5.jsonl')])];
  const piped = cli(...inputs);
  assert.equal(piped.status, 0, piped.stderr);
  // Not a terminal: one table, one line per row (grep and awk keep working); 171 columns on the demo.
  assert.ok(widest(piped.stdout) > 150);
  assert.doesNotMatch(piped.stdout, /^metrics \d+–\d+ of/m);
  assert.match(piped.stdout, /^columns: prec = precision · rec = recall/m);
  const full = cellsByRow(piped.stdout);
  assert.equal(full.size, 12);
  for (const cells of full.values()) assert.equal(cells.length, OFFICIAL_METRIC_NAMES.length);

  for (const width of [60, 80, 100, 120]) {
    const out = cli(...inputs, '--width', String(width));
    assert.equal(out.status, 0, out.stderr);
    assert.ok(widest(out.stdout) <= width, `--width ${width}: ${widest(out.stdout)} columns`);
    assert.deepEqual(cellsByRow(out.stdout), full, `--width ${width}: same cells, in order`);
  }
  assert.equal(cli(...inputs, '--width', '0').stdout, piped.stdout);
  assert.equal(cli(...inputs, '--width', 'wide').status, 2);
});

test('columnPanels: each column once, in order; each panel fits or holds one column; the fewest panels, shared evenly', () => {
  // 17 metric columns of 6–8 in 100 columns after 19 + 8 key columns: 6 + 6 + 5, not 8 + 8 + 1.
  const demo = [19, 8, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 8, 8, 8, 6, 6, 6, 6];
  assert.deepEqual(
    columnPanels(demo, 2, 100).map((p) => p.length),
    [6, 6, 5],
  );
  assert.deepEqual(columnPanels(demo, 2, 0), [Array.from({ length: 17 }, (_, i) => i + 2)]);
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 2, maxLength: 25 }), fc.integer({ min: 0, max: 200 }), (widths, width) => {
      const panels = columnPanels(widths, 2, width);
      assert.deepEqual(
        panels.flat(),
        widths.slice(2).map((_, i) => i + 2),
      );
      const keys = widths[0]! + COLUMN_GAP + widths[1]!;
      for (const panel of panels) {
        let used = keys;
        for (const i of panel) used += COLUMN_GAP + widths[i]!;
        if (width > 0 && panel.length > 1) assert.ok(used <= width, `panel ${panel.join(',')} is ${used} > ${width}`);
      }
      if (width === 0) assert.equal(panels.length, 1);
    }),
    { numRuns: 500 },
  );
});

test('wrapItems keeps every item whole and lines within the width', () => {
  assert.deepEqual(wrapItems(['aa', 'bb', 'cc'], 7), ['aa · bb', '  cc']);
  assert.deepEqual(wrapItems(['a-very-long-item', 'b'], 5), ['a-very-long-item', '  b']);
});
