/**
 * What-if ground truth on the real records (issue 20 targets), skipped (with a message) when
 * ../shared is absent:
 * (a) `official` with the 20 public gemini-3-pro runs loaded (the other two models as recorded)
 *     gives back every record's R_int: nothing joins or leaves, on all 32 records;
 * (b) `official` with every run loaded (the other two models replayed from read_step_info as
 *     unified runs) rebuilds R_int exactly;
 * (c) the figures of the closing note for as-seen, resolved-only (the runs' own SWE-bench reports)
 *     and support:2, on the 20 records with a public run and on all 32;
 * (d) `whatif -o` then `score` gives exactly the `after` values (CoSIL's real run).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OFFICIAL_METRIC_NAMES, parseWhatIfRules, recordedRInt, type LineSet, type WhatIfRules } from '../../src/core';
import { loadWorkspace, whatIfInstanceLine, whatIfTotalLine, WhatIfSession, type InstanceWhatIf, type WhatIfSources } from '../../src/data';
import { replay, trajPathOf, type RealRecord } from '../unit/support/real-replays';
import { sharedPath } from '../unit/support/shared-data';

const ROOT = path.resolve(__dirname, '..', '..');
const TSX = pathToFileURL(require.resolve('tsx')).href;
const WORKSPACE = sharedPath('real-workspace/bench.jsonl');
const RUNS = sharedPath('real-trajs/mini-swe-agent-v1');
const skip = WORKSPACE === undefined || RUNS === undefined ? '../shared/real-workspace or real-trajs is absent (or set SWE_EXPLORE_SHARED); what-if conformance not checked' : false;
const BENCH = WORKSPACE ?? '';
const GEMINI_TEMPLATE = `gemini-3-pro=${RUNS ?? ''}/{instance_id}.traj.json`;
const REPORTS = `gemini-3-pro=${RUNS ?? ''}/reports`;

function rules(text: string, dropPromoted = false): WhatIfRules {
  const parsed = parseWhatIfRules(text, dropPromoted);
  assert.ok(parsed.ok);
  return parsed.rules;
}

function sources(extra: Partial<WhatIfSources> = {}): WhatIfSources {
  const [key, template] = GEMINI_TEMPLATE.split('=') as [string, string];
  return { locator: { roots: [], templates: [{ key, template }], templateBase: ROOT }, reports: [{ key, path: `${RUNS ?? ''}/reports` }], reportsBase: ROOT, ...extra };
}

function sameLines(a: LineSet, b: LineSet): boolean {
  return JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
}

const work = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-whatif-real-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('what-if on the real records', { skip }, () => {
  let session: WhatIfSession;
  const withRun = new Set<string>();
  const totals = (variants: ReadonlyMap<string, InstanceWhatIf>, only?: ReadonlySet<string>): unknown =>
    whatIfTotalLine([...variants.values()].filter((v) => only === undefined || only.has(v.instanceId)).map(whatIfInstanceLine));

  it('(a) official with the public gemini runs (others as recorded): R_int comes back, nothing joins or leaves', async () => {
    const model = await loadWorkspace({ benchFile: BENCH, predictionFiles: [] });
    session = new WhatIfSession(model, sources());
    const variants = await session.variants(rules('official'));
    for (const v of variants.values()) {
      assert.equal(v.variant.joinedLines + v.variant.leftLines, 0, v.instanceId);
      const entry = model.instances.get(v.instanceId)!;
      const counts = (await session.runsOf(v.instanceId)).input.lineCounts;
      assert.ok(sameLines(v.variant.rInt, recordedRInt(entry.record.read_step_info, counts)), v.instanceId);
      if (v.variant.runCounts.rebuilt > 0) withRun.add(v.instanceId);
      for (const run of v.runs) if (run.loaded) assert.ok(run.verification?.verified, `${v.instanceId} ${run.trajPath}`);
    }
    assert.equal(withRun.size, 20);
    assert.deepEqual(totals(variants), { kind: 'total', instances: 32, core_lines_before: 48830, core_lines_after: 48830, joined: 0, left: 0 });
    // Without the promoted regions the variant is R_int: 48,516 lines, the 314 promoted lines leave.
    const rInt = await session.variants(rules('official', true));
    assert.deepEqual(totals(rInt), { kind: 'total', instances: 32, core_lines_before: 48830, core_lines_after: 48516, joined: 0, left: 314 });
    assert.deepEqual(totals(rInt, withRun), { kind: 'total', instances: 20, core_lines_before: 28482, core_lines_after: 28298, joined: 0, left: 184 });
  });

  it('(b) official with every run loaded (the other two models replayed): R_int rebuilt exactly', async () => {
    const records = new Map<string, RealRecord>();
    for (const line of readFileSync(BENCH, 'utf8').split('\n')) if (line.trim() !== '') records.set((JSON.parse(line) as RealRecord).instance_id, JSON.parse(line) as RealRecord);
    for (const id of withRun) {
      const record = records.get(id)!;
      for (const [folder, model] of [
        ['claude-4-5', 'anthropic/claude-sonnet-4-5'],
        ['glm4-6', 'glm-4.6'],
      ] as const) {
        const file = path.join(work, trajPathOf(record, folder));
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(replay(record, trajPathOf(record, folder), model, Object.keys(record.read_step_info))));
      }
    }
    const model = await loadWorkspace({ benchFile: BENCH, predictionFiles: [] });
    const all = new WhatIfSession(model, sources({ locator: { ...sources().locator, roots: [work] } }));
    for (const id of withRun) {
      const v = await all.variantOf(id, rules('official'));
      assert.deepEqual(v.variant.runCounts, { rebuilt: 3, asRecorded: 0, dropped: 0 }, id);
      for (const run of v.runs) assert.ok(run.verification?.verified, `${id} ${run.trajPath}`);
      assert.equal(v.variant.joinedLines + v.variant.leftLines, 0, id);
      assert.ok(sameLines(v.variant.rInt, recordedRInt(model.instances.get(id)!.record.read_step_info, (await all.runsOf(id)).input.lineCounts)), id);
    }
  });

  it('(c) as-seen: 4,714 core lines of 28,482 (16.6 %) are whole-file credit no run saw, all in 3 records', async () => {
    const variants = await session.variants(rules('as-seen'));
    assert.deepEqual(totals(variants, withRun), { kind: 'total', instances: 20, core_lines_before: 28482, core_lines_after: 23768, joined: 0, left: 4714 });
    assert.deepEqual(totals(variants), { kind: 'total', instances: 32, core_lines_before: 48830, core_lines_after: 44116, joined: 0, left: 4714 });
    const unseen = [...variants.values()].reduce((n, v) => n + v.variant.unseenLines, 0);
    assert.equal(unseen, 4714);
    assert.deepEqual(
      [...variants.values()].filter((v) => v.variant.leftLines > 0).map((v) => [v.instanceId, v.variant.leftLines, [...v.variant.left.keys()]]),
      [
        ['astropy__astropy-13453', 1665, ['astropy/io/ascii/core.py']],
        ['astropy__astropy-13977', 2616, ['astropy/units/core.py']],
        ['astropy__astropy-14309', 433, ['astropy/io/fits/connect.py']],
      ],
    );
  });

  it('(c) resolved-only: the 9 unresolved gemini runs dropped; 4,728 lines join in 3 records', async () => {
    const variants = await session.variants(rules('resolved-only'));
    assert.deepEqual(totals(variants, withRun), { kind: 'total', instances: 20, core_lines_before: 28482, core_lines_after: 33210, joined: 4728, left: 0 });
    assert.deepEqual(totals(variants), { kind: 'total', instances: 32, core_lines_before: 48830, core_lines_after: 53558, joined: 4728, left: 0 });
    const dropped = [...variants.values()].reduce((n, v) => n + v.variant.runCounts.dropped, 0);
    assert.equal(dropped, 9);
  });

  it('(c) support:2: 10,276 lines join on the 20 records, 26,075 on all 32', async () => {
    const variants = await session.variants(rules('support:2'));
    assert.deepEqual(totals(variants, withRun), { kind: 'total', instances: 20, core_lines_before: 28482, core_lines_after: 38747, joined: 10276, left: 11 });
    assert.deepEqual(totals(variants), { kind: 'total', instances: 32, core_lines_before: 48830, core_lines_after: 74894, joined: 26075, left: 11 });
  });

  it('(d) whatif -o, then score on the variant: exactly the after values', () => {
    const preds = path.join(path.dirname(BENCH), 'results', 'cosil', 'top5.jsonl');
    const variant = path.join(work, 'variant.jsonl');
    const run = (...args: string[]): { status: number | null; stdout: string; stderr: string } =>
      spawnSync(process.execPath, ['--import', TSX, path.join(ROOT, 'src', 'cli', 'main.ts'), ...args], { encoding: 'utf8', cwd: work });
    const whatif = run('whatif', '--bench', BENCH, '--rules', 'as-seen,resolved-only', '--traj-template', GEMINI_TEMPLATE, '--reports', REPORTS, '--preds', preds, '-o', variant);
    assert.equal(whatif.status, 0, whatif.stderr);
    const explorer = whatif.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; after: Record<string, number> })
      .find((l) => l.kind === 'explorer')!;
    const score = run('score', '--bench', variant, '--repos', path.dirname(BENCH), '--preds', preds, '--format', 'json');
    assert.equal(score.status, 0, score.stderr);
    const macro = (JSON.parse(score.stdout.trimEnd().split('\n').at(-1)!) as { macro: Record<string, number> }).macro;
    for (const name of OFFICIAL_METRIC_NAMES) assert.ok(Math.abs(explorer.after[name]! - macro[name]!) <= 1e-9, name);
  });
});
