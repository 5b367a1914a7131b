import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatOption, parseCount, parseFlags, parseFormat, parseProfile, PREDS_OPTION, runGuarded, SCORING_OPTIONS, UsageError, workspaceSources, WORKSPACE_OPTIONS } from '../../src/cli/args';
import { scoringSources } from '../../src/cli/scoreWorkspace';

const usageError = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

test('parseFlags: shared specs and defaults; unknown flags and positionals are usage errors', () => {
  const options = { ...WORKSPACE_OPTIONS, ...PREDS_OPTION, ...SCORING_OPTIONS, ...formatOption('json') };
  const values = parseFlags(['--bench', 'b.jsonl', '--preds', 'p.jsonl', '--preds', 'q.jsonl'], options);
  assert.deepEqual({ ...values }, { bench: 'b.jsonl', preds: ['p.jsonl', 'q.jsonl'], profile: 'official', k: '5', format: 'json' });
  assert.throws(() => parseFlags(['--nope'], options), UsageError);
  assert.throws(() => parseFlags(['stray'], options), UsageError);
  assert.throws(() => parseFlags(['--bench'], options), UsageError);
});

test('parseCount: digits only, min..1e9', () => {
  assert.equal(parseCount('5', '--k'), 5);
  assert.equal(parseCount('1000000000', '--k'), 1_000_000_000);
  assert.equal(parseCount('0', '--seed', 0), 0);
  for (const bad of ['0', '-1', '1e3', '0x10', '', ' 5', '1000000001', '9007199254740993']) {
    assert.throws(() => parseCount(bad, '--k'), usageError(/^--k takes a whole number from 1 to 1000000000, got /), bad);
  }
  assert.throws(() => parseCount('-1', '--seed', 0), usageError(/^--seed takes a whole number from 0 to 1000000000, got "-1"$/));
});

test('parseProfile and parseFormat name the allowed values; the bad value is quoted as JSON', () => {
  assert.equal(parseProfile('snapshot'), 'snapshot');
  assert.throws(() => parseProfile('fa"st'), usageError(/^--profile must be official or snapshot, got "fa\\"st"$/));
  assert.equal(parseFormat('md', ['json', 'md', 'csv']), 'md');
  assert.throws(() => parseFormat('xml', ['table', 'json', 'csv']), usageError(/^--format must be table, json or csv, got "xml"$/));
});

test('workspaceSources: --bench is required; the loader default (eager snapshots) unless scoringSources', () => {
  assert.throws(() => workspaceSources({}), usageError(/^--bench is required$/));
  const sources = workspaceSources({ bench: 'b.jsonl', preds: ['p.jsonl'], 'line-counts': 'c.json' });
  assert.deepEqual(sources, { benchFile: 'b.jsonl', predictionFiles: ['p.jsonl'], transcriptFolders: [], lineCountsFile: 'c.json' });
  assert.equal(scoringSources(sources).locateSnapshots, 'when-needed');
  assert.equal(scoringSources({ ...sources, transcriptFolders: ['t'] }).locateSnapshots, undefined, 'transcripts are parsed against their snapshots');
});

test('runGuarded: a usage error is exit 2 with one escaped line; other errors propagate', async () => {
  const writes: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((text: string) => writes.push(text) > 0) as typeof process.stderr.write;
  try {
    assert.equal(await runGuarded(() => Promise.reject(new UsageError('bad\nflag'))), 2);
  } finally {
    process.stderr.write = write;
  }
  assert.equal(writes.length, 1);
  assert.match(writes[0]!, /^swe-explore: bad.*flag\n$/);
  assert.equal(writes[0]!.split('\n').length, 2, 'one line');
  await assert.rejects(
    runGuarded(() => Promise.reject(new Error('boom'))),
    /boom/,
  );
  assert.equal(await runGuarded(() => Promise.resolve(0)), 0);
});
