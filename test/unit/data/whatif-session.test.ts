/**
 * The what-if data API the extension uses (WhatIfSession) on a workspace written here: runs found
 * through roots and templates, loaded once per instance and verified, variants cached per rule set,
 * reasons from the cache, the variant ground truth and recounted meta, the byte-preserving variant
 * bench, and scores before → after over the same instances.
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeWhatIfLine, OFFICIAL_METRIC_NAMES, parseWhatIfRules, type WhatIfRules } from '../../../src/core';
import { LineCountCache, loadWorkspace, variantBenchLines, whatIfOutputRefusal, whatIfScores, WhatIfSession, type WhatIfSources } from '../../../src/data';
import { writeWhatIfFixture } from '../support/whatif-fixture';

const fixture = writeWhatIfFixture();
after(() => rmSync(fixture.dir, { recursive: true, force: true }));

function rules(text: string, dropPromoted = false): WhatIfRules {
  const parsed = parseWhatIfRules(text, dropPromoted);
  assert.ok(parsed.ok);
  return parsed.rules;
}

function sources(extra: Partial<WhatIfSources> = {}): WhatIfSources {
  return { locator: { roots: [fixture.dir], templates: [], templateBase: fixture.dir }, reports: [], reportsBase: fixture.dir, ...extra };
}

async function session(extra: Partial<WhatIfSources> = {}, withPreds = false): Promise<WhatIfSession> {
  const model = await loadWorkspace({ benchFile: fixture.bench, predictionFiles: withPreds ? [fixture.preds] : [] });
  assert.deepEqual(model.problems, []);
  return new WhatIfSession(model, sources(extra), new LineCountCache());
}

describe('WhatIfSession', () => {
  it('loads each run the record cites once, verifies it, and counts the others as recorded', async () => {
    const s = await session();
    const runs = await s.runsOf('o__r-1');
    assert.deepEqual(
      runs.runs.map((r) => [r.trajPath, r.model, r.loaded, r.verification?.verified]),
      [
        ['trajs/m1/o__r-1__0.json', 'org/model-one', true, true],
        ['trajs/m2/o__r-1__0.json', 'model-two', true, true],
        ['trajs/m3/o__r-1__0.json', 'model-three', true, true],
      ],
    );
    assert.equal(await s.runsOf('o__r-1'), runs, 'loaded once');
    const other = await s.runsOf('o__r-2');
    assert.deepEqual(
      other.runs.map((r) => [r.loaded, r.located.found]),
      [
        [false, false],
        [false, false],
      ],
    );
    await assert.rejects(s.runsOf('nope'), /no bench record/);
  });

  it('official gives back the core as written; the variant is cached per rule set', async () => {
    const s = await session();
    const official = await s.variantOf('o__r-1', rules('official'));
    assert.equal(official.variant.joinedLines + official.variant.leftLines, 0);
    assert.deepEqual(official.variant.runCounts, { rebuilt: 3, asRecorded: 0, dropped: 0 });
    assert.equal(await s.variantOf('o__r-1', rules('official')), official);
    assert.equal(s.cachedVariant('o__r-1', rules('as-seen')), undefined);
    const asSeen = await s.variantOf('o__r-1', rules('as-seen'));
    assert.equal(s.cachedVariant('o__r-1', rules('as-seen')), asSeen);
    assert.deepEqual(
      [...asSeen.variant.joined].map(([p, set]) => [p, set]),
      [['pkg/c.py', [[1, 20]]]],
    );
    assert.equal(asSeen.variant.leftLines, 98 + 26);
  });

  it('the variant ground truth: core, files, main files as recorded ∩ core; optional maps as recorded; meta recounted', async () => {
    const s = await session();
    const v = await s.variantOf('o__r-1', rules('as-seen'));
    const entry = s.model.instances.get('o__r-1')!;
    assert.deepEqual(v.groundTruth.coreRegions, [
      { path: 'pkg/a.py', start: 15, end: 16 },
      { path: 'pkg/c.py', start: 1, end: 20 },
      { path: 'pkg/d.py', start: 1, end: 5 },
    ]);
    assert.deepEqual(v.groundTruth.coreFiles, ['pkg/a.py', 'pkg/c.py', 'pkg/d.py']);
    assert.deepEqual(v.groundTruth.mainFiles, ['pkg/a.py', 'pkg/c.py']);
    assert.equal(v.groundTruth.optionalRegionsByModel, entry.groundTruth.optionalRegionsByModel);
    assert.equal(v.groundTruth.modifiedCoreFiles, entry.groundTruth.modifiedCoreFiles);
    assert.deepEqual(
      [...v.meta],
      [
        ['num_trajectories', 3],
        ['num_read_core', 3],
        ['num_read_core_regions', 3],
        ['num_modified_core', 2],
        ['num_main', 2],
      ],
    );
  });

  it('explains a line from the cache, with the command when commands are kept', async () => {
    const s = await session({ keepCommands: true });
    const ruleSet = rules('as-seen');
    assert.equal(s.explainLine('o__r-1', ruleSet, 'pkg/a.py', 50), undefined, 'nothing before the variant is computed');
    await s.variantOf('o__r-1', ruleSet);
    const reason = s.explainLine('o__r-1', ruleSet, 'pkg/a.py', 50)!;
    assert.equal(reason.change, 'left');
    assert.equal(reason.seen, 'yes');
    assert.equal(describeWhatIfLine(reason, ruleSet), "credited by m1's `nl -ba | sed -n '10,30p'` at step 2 as the whole file; m3 saw it");
    const heredoc = s.explainLine('o__r-1', ruleSet, 'pkg/b.py', 30)!;
    assert.equal(heredoc.runs[2]!.creditedAsWritten[0]!.idiom, 'heredoc_write');
  });

  it('finds runs through a template when no root holds them; resolved-only reads the reports', async () => {
    const s = await session({
      locator: { roots: [path.join(fixture.dir, 'nowhere')], templates: [{ key: 'm2', template: 'trajs/m2/{instance_id}__0.json' }], templateBase: fixture.dir },
      reports: [{ key: 'model-two', path: 'reports' }],
    });
    const v = await s.variantOf('o__r-1', rules('resolved-only'));
    assert.deepEqual(
      v.runs.map((r) => [r.located.found, r.resolution]),
      [
        [false, 'unknown'],
        [true, 'not-resolved'],
        [false, 'unknown'],
      ],
    );
    assert.deepEqual(v.variant.runCounts, { rebuilt: 0, asRecorded: 2, dropped: 1 });
    assert.equal(v.variant.joinedLines, 24);
  });

  it('variants: every instance in bench order, with progress; retainRuns false forgets the runs after use', async () => {
    const s = await session({ retainRuns: false });
    const progress: number[] = [];
    const all = await s.variants(rules('official'), { onProgress: (done) => progress.push(done) });
    assert.deepEqual([...all.keys()], ['o__r-1', 'o__r-2']);
    assert.deepEqual(progress, [1, 2]);
    assert.equal(s.explainLine('o__r-1', rules('official'), 'pkg/a.py', 1), undefined);
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(s.variants(rules('as-seen'), { signal: aborted.signal }));
  });
});

describe('the variant bench', () => {
  it('untouched records byte-for-byte; a changed record only in the lists and meta values that differ', async () => {
    const s = await session();
    const lines = variantBenchLines(s.model, await s.variants(rules('as-seen')));
    assert.equal(lines[1], fixture.benchLines[1]);
    const changed = lines[0]!;
    const original = fixture.benchLines[0]!;
    assert.match(changed, /"problem_statement": "caf\\u00e9 \\ud83d\\ude00", "weight": 1\.50\}$/);
    assert.ok(changed.includes(original.slice(original.indexOf('"read_optional_files_map"'), original.indexOf('"main_files"'))), 'optional maps and modified files as written');
    assert.ok(changed.includes(original.slice(original.indexOf('"read_step_info"'), original.indexOf('"meta"'))), 'read_step_info as written');
    assert.ok(
      changed.includes(
        '"read_core_files": ["pkg/a.py", "pkg/c.py", "pkg/d.py"], "read_core_regions": [{"path": "pkg/a.py", "start": 15, "end": 16}, {"path": "pkg/c.py", "start": 1, "end": 20}, {"path": "pkg/d.py", "start": 1, "end": 5}]',
      ),
    );
    assert.ok(changed.includes('"main_files": ["pkg/a.py", "pkg/c.py"]}'));
    assert.ok(changed.includes('"meta": {"num_trajectories": 3, "num_read_core": 3, "num_read_core_regions": 3, "num_modified_core": 2, "num_main": 2}'));
  });

  it('official: the same lines, the core only re-sorted; a record whose lists and meta agree is written back as read', async () => {
    const s = await session();
    const lines = variantBenchLines(s.model, await s.variants(rules('official')));
    assert.equal(lines[1], fixture.benchLines[1]);
    const parsed = JSON.parse(lines[0]!) as { ground_truth: { read_core_regions: unknown[] } };
    assert.deepEqual(parsed.ground_truth.read_core_regions, [
      { path: 'pkg/a.py', start: 1, end: 100 },
      { path: 'pkg/b.py', start: 20, end: 45 },
      { path: 'pkg/d.py', start: 1, end: 5 },
    ]);
    assert.equal(lines[0]!.replace(/"read_core_regions": \[[^\]]*\]/, ''), fixture.benchLines[0]!.replace(/"read_core_regions": \[[^\]]*\]/, ''));
  });

  it('refuses to write over an input or inside .swe-explore/audit, by real path', async () => {
    assert.match((await whatIfOutputRefusal(path.join(fixture.dir, 'repos', '..', 'bench.jsonl'), [fixture.bench]))!, /names an input file/);
    assert.match((await whatIfOutputRefusal(path.join(fixture.dir, '.swe-explore', 'audit', 'x.jsonl'), [fixture.bench]))!, /\.swe-explore\/audit/);
    assert.equal(await whatIfOutputRefusal(path.join(fixture.dir, 'variant.jsonl'), [fixture.bench]), undefined);
  });
});

describe('whatIfScores', () => {
  it('before and after over the same instances, with rankings and τ-b; an emptied core leaves both sides', async () => {
    const s = await session({}, true);
    const cache = new LineCountCache();
    const variants = await s.variants(rules('as-seen'));
    const scores = await whatIfScores(s.model, variants, { profile: 'official', k: 5 }, cache);
    assert.deepEqual(
      scores.explorers.map((e) => e.explorer),
      ['wide', 'narrow', '=HYPERLINK("x")'],
    );
    for (const e of scores.explorers) assert.deepEqual(Object.keys(e.before), [...OFFICIAL_METRIC_NAMES]);
    assert.deepEqual(
      scores.rankings.map((r) => r.metric),
      ['precision', 'recall', 'ndcg_at_500', 'hit_file_rate', 'context_efficiency'],
    );
    assert.deepEqual(scores.emptiedByVariant, []);
    const dropAll = await s.variants(rules('drop-model:org/model-one,drop-model:model-two,drop-model:model-three', true));
    const emptied = await whatIfScores(s.model, dropAll, { profile: 'official', k: 5 }, cache, scores.before);
    assert.deepEqual(emptied.emptiedByVariant, ['o__r-1']);
    const wide = emptied.explorers.find((e) => e.explorer === 'wide')!;
    const wideBefore = scores.before.rows.find((r) => r.explorer === 'wide' && r.instanceId === 'o__r-2')!;
    assert.equal(wide.before.precision, wideBefore.metrics['precision'], 'only o__r-2 is averaged');
  });
});
