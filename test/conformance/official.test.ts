/**
 * Conformance: every bench record of ../shared/conformance × its CoSIL row must reproduce the
 * official evaluator's 17 values to 1e-9 under the `official` profile, through the library and
 * through the CLI's scoring pipeline. Skipped (with a message) when ../shared is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { OFFICIAL_METRIC_NAMES, officialMetrics, prepareInstance } from '../../src/core';
import { readBenchFile, readPredictionFile } from '../../src/data/formats/jsonl';
import { readLineCountsFile } from '../../src/data/formats/lineCountsFile';
import { toGroundTruth, toRegions } from '../../src/data/formats/records';
import { scoreWorkspace } from '../../src/cli/scoreWorkspace';
import { sharedPath } from '../unit/support/shared-data';

const DIR = sharedPath('conformance') ?? path.resolve(__dirname, '..', '..', '..', 'shared', 'conformance');
const BENCH = path.join(DIR, 'bench.subset.jsonl');
const PREDS = path.join(DIR, 'cosil.top5.jsonl');
const COUNTS = path.join(DIR, 'line_counts.json');
const present = existsSync(BENCH) && existsSync(PREDS) && existsSync(COUNTS);
const skip = present ? false : `../shared/conformance is absent (looked in ${DIR}); conformance against the official evaluator not checked`;
const TOLERANCE = 1e-9;

test('library reproduces every official value of the conformance records', { skip }, async () => {
  const bench = await readBenchFile(BENCH);
  const preds = await readPredictionFile(PREDS);
  const counts = await readLineCountsFile(COUNTS);
  assert.equal(bench.problems.filter((p) => p.severity === 'error').length, 0);
  const records = new Map(bench.items.map((item) => [item.value.instance_id, item.value]));
  let compared = 0;
  let exact = 0;
  for (const { value: row } of preds.items) {
    const record = records.get(row.instance_id);
    if (record === undefined) continue;
    const prepared = prepareInstance(toGroundTruth(record), toRegions(row.regions).slice(0, 5), counts.counts.get(row.instance_id) ?? new Map(), 'official');
    const metrics = officialMetrics(prepared);
    for (const name of OFFICIAL_METRIC_NAMES) {
      const official = row.metrics?.[name];
      assert.equal(typeof official, 'number', `${row.instance_id} has an official ${name}`);
      assert.ok(Math.abs(metrics[name] - (official as number)) <= TOLERANCE, `${row.instance_id} ${name}: ours ${metrics[name]}, official ${official}`);
      if (metrics[name] === official) exact++;
      compared++;
    }
  }
  assert.equal(compared, 32 * 17, 'all 32 records × 17 metrics compared');
  console.log(`conformance: ${compared} values compared, ${exact} bit-exact`);
});

test('feeding counts for every path (the snapshot profile) changes seaborn-3069 precision, as metrics-spec says', { skip }, async () => {
  const bench = await readBenchFile(BENCH);
  const preds = await readPredictionFile(PREDS);
  const counts = await readLineCountsFile(COUNTS);
  const id = 'mwaskom__seaborn-3069';
  const record = bench.items.find((i) => i.value.instance_id === id)!.value;
  const row = preds.items.find((i) => i.value.instance_id === id)!.value;
  const snapshot = officialMetrics(prepareInstance(toGroundTruth(record), toRegions(row.regions), counts.counts.get(id)!, 'snapshot'));
  const official = officialMetrics(prepareInstance(toGroundTruth(record), toRegions(row.regions), counts.counts.get(id)!, 'official'));
  assert.equal(official.precision, 1.0);
  assert.ok(Math.abs(snapshot.precision - 0.2713) < 5e-5, `snapshot precision ${snapshot.precision}`);
});

test('the CLI scoring pipeline (score --line-counts) reproduces the official values', { skip }, async () => {
  const result = await scoreWorkspace({ benchFile: BENCH, predictionFiles: [PREDS], lineCountsFile: COUNTS, profile: 'official', k: 5, budgets: [100, 300, 500], keepEmptyCore: false });
  const official = new Map<string, Record<string, number | null>>();
  for (const line of readFileSync(PREDS, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { instance_id: string; metrics: Record<string, number | null> };
    official.set(row.instance_id, row.metrics);
  }
  assert.equal(result.rows.length, 32);
  for (const row of result.rows) {
    const expected = official.get(row.instanceId)!;
    for (const name of OFFICIAL_METRIC_NAMES) {
      assert.ok(Math.abs((row.metrics[name] ?? NaN) - (expected[name] as number)) <= TOLERANCE, `${row.instanceId} ${name}`);
    }
  }
});
