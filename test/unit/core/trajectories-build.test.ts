/**
 * The builder's interval build (§1 "Intervals"), R_int and promotion against a core, and run
 * verification, on hand-made reads.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildGroundTruth,
  builtRecordJson,
  describeVerification,
  endPlaceholderPaths,
  mergeBuilderIntervals,
  promotionProvenance,
  rebuildRInt,
  resolveEndPlaceholders,
  toBuilderInterval,
  verifyRun,
  type BuildTrajectory,
} from '../../../src/core';
import type { ReadStepInfo } from '../../../src/core/provenance';

type R = [path: string, start: number, end: number, step?: number];

function run(trajPath: string, model: string, reads: R[], modified: string[] = []): BuildTrajectory {
  return { trajPath, model, reads: reads.map(([path, start, end, stepIdx = 2]) => ({ path, start, end, stepIdx })), modified };
}

const regions = (list: readonly { path: string; start: number; end: number }[]): [string, number, number][] => list.map((r) => [r.path, r.start, r.end]);

describe('internal form and merge', () => {
  it('tails keep their end; whole files end at 10**6; reversed ranges collapse to their start', () => {
    assert.deepEqual(toBuilderInterval(-5, -1), [-5, -1]);
    assert.deepEqual(toBuilderInterval(-5, 20), [-5, 20]);
    assert.deepEqual(toBuilderInterval(0, -1), [1, 1_000_000]);
    assert.deepEqual(toBuilderInterval(10, 5), [10, 10]);
    assert.deepEqual(toBuilderInterval(5, -3), [5, 5]);
  });
  it('merge joins overlapping and adjacent lines, then appends tails in order (duplicates kept)', () => {
    assert.deepEqual(
      mergeBuilderIntervals([
        [11, 20],
        [-3, -1],
        [1, 10],
        [30, 40],
        [-3, -1],
        [35, 36],
      ]),
      [
        [1, 20],
        [30, 40],
        [-3, -1],
        [-3, -1],
      ],
    );
  });
});

describe('buildGroundTruth', () => {
  it('core = fold-intersection in input order; optional = each model’s union minus core; files sorted', () => {
    const gt = buildGroundTruth([
      run('t/a/1.json', 'A', [
        ['z.py', 1, -1],
        ['b.py', 10, 20],
        ['only-a.py', 1, 5],
      ]),
      run('t/b/1.json', 'B', [
        ['z.py', 50, 60],
        ['b.py', 15, 30],
      ]),
    ]);
    assert.deepEqual(gt.coreFiles, ['b.py', 'z.py']);
    assert.deepEqual(regions(gt.coreRegions), [
      ['b.py', 15, 20],
      ['z.py', 50, 60],
    ]);
    assert.deepEqual(
      gt.optional.map((o) => [o.model, o.files, regions(o.regions)]),
      [
        [
          'A',
          ['b.py', 'only-a.py', 'z.py'],
          [
            ['b.py', 10, 14],
            ['only-a.py', 1, 5],
            ['z.py', 1, 49],
            ['z.py', 61, -1],
          ],
        ],
        ['B', ['b.py'], [['b.py', 21, 30]]],
      ],
    );
  });
  it('tails never intersect (two runs) but stay in a single run’s core, duplicates included', () => {
    const tails: R[] = [
      ['a.py', -20, -1],
      ['a.py', -20, -1],
      ['a.py', 1, 5],
    ];
    const single = buildGroundTruth([run('t/m/1.json', 'M', tails)]);
    assert.deepEqual(regions(single.coreRegions), [
      ['a.py', 1, 5],
      ['a.py', -20, -1],
      ['a.py', -20, -1],
    ]);
    const two = buildGroundTruth([run('t/m/1.json', 'M', tails), run('t/n/1.json', 'N', tails)]);
    assert.deepEqual(regions(two.coreRegions), [['a.py', 1, 5]]);
    assert.deepEqual(regions(two.optional[0]!.regions), [
      ['a.py', -20, -1],
      ['a.py', -20, -1],
    ]);
  });
  it('a run without kept reads empties the core; a file without common lines drops out', () => {
    assert.deepEqual(buildGroundTruth([run('t/a/1.json', 'A', [['a.py', 1, 5]]), run('t/b/1.json', 'B', [])]).coreRegions, []);
    assert.deepEqual(buildGroundTruth([run('t/a/1.json', 'A', [['a.py', 1, 5]]), run('t/b/1.json', 'B', [['a.py', 6, 9]])]).coreFiles, []);
  });
  it('the same model’s runs are united; models in order of first appearance', () => {
    const gt = buildGroundTruth([run('t/b/1.json', 'B', [['a.py', 1, 1]]), run('t/a/1.json', 'A', [['a.py', 1, 3]]), run('t/b/2.json', 'B', [['a.py', 1, 9]])]);
    assert.deepEqual(
      gt.optional.map((o) => o.model),
      ['B', 'A'],
    );
    assert.deepEqual(regions(gt.optional[0]!.regions), [['a.py', 2, 9]]);
  });
  it('modified = ∩ over runs; main = core files ∩ modified; read_step_info in first-seen order with start or 1', () => {
    const gt = buildGroundTruth([
      run(
        't/a/1.json',
        'A',
        [
          ['b.py', 0, 4, 3],
          ['a.py', 1, -1, 5],
        ],
        ['a.py', 'c.py', 'b.py'],
      ),
      run(
        't/b/1.json',
        'B',
        [
          ['a.py', 2, 3, 7],
          ['b.py', 1, 2, 9],
        ],
        ['b.py', 'c.py'],
      ),
    ]);
    assert.deepEqual(gt.modifiedCoreFiles, ['b.py', 'c.py']);
    assert.deepEqual(gt.mainFiles, ['b.py']);
    assert.deepEqual(
      gt.readStepInfo.map(({ path, steps }) => [path, steps.map((s) => [s.trajPath, s.stepIdx, s.start, s.end])]),
      [
        [
          'b.py',
          [
            ['t/a/1.json', 3, 1, 4],
            ['t/b/1.json', 9, 1, 2],
          ],
        ],
        [
          'a.py',
          [
            ['t/a/1.json', 5, 1, -1],
            ['t/b/1.json', 7, 2, 3],
          ],
        ],
      ],
    );
    assert.deepEqual(gt.meta, { numTrajectories: 2, numReadCore: 2, numReadCoreRegions: 2, numModifiedCore: 2, numMain: 1 });
  });
  it('end -1 resolves to the line count when known (tails too, 10**6 as well); otherwise stays -1', () => {
    const gt = buildGroundTruth([
      run('t/a/1.json', 'A', [
        ['a.py', 1, -1],
        ['b.py', -7, -1],
        ['c.py', 1, 1_000_000],
        ['d.py', 1, -1],
      ]),
    ]);
    assert.deepEqual(endPlaceholderPaths(gt), ['a.py', 'b.py', 'c.py', 'd.py']);
    const counts = new Map([
      ['a.py', 120],
      ['b.py', 40],
      ['c.py', 9],
    ]);
    assert.deepEqual(regions(resolveEndPlaceholders(gt, (p) => counts.get(p)).coreRegions), [
      ['a.py', 1, 120],
      ['b.py', -7, 40],
      ['c.py', 1, 9],
      ['d.py', 1, -1],
    ]);
  });
  it('the record is written as json.dumps writes it, keys in the builder’s order (integer-like keys too)', () => {
    const gt = buildGroundTruth([
      run(
        't/m/1.json',
        'M',
        [
          ['z.py', 1, 2, 2],
          ['10', 3, 3, 4],
          ['2', 1, 1, 6],
        ],
        ['z.py'],
      ),
    ]);
    assert.equal(
      builtRecordJson({ instanceId: 'o__r-1', repoPath: '/testbed', repoDir: 'repos/o__r-1', groundTruth: gt }),
      '{"instance_id": "o__r-1", "repo_path": "/testbed", "repo_dir": "repos/o__r-1", "ground_truth": {"read_core_files": ["10", "2", "z.py"], ' +
        '"read_core_regions": [{"path": "10", "start": 3, "end": 3}, {"path": "2", "start": 1, "end": 1}, {"path": "z.py", "start": 1, "end": 2}], ' +
        '"read_optional_files_map": {"M": []}, "read_optional_regions_map": {"M": []}, "modified_core_files": ["z.py"], "main_files": ["z.py"]}, ' +
        '"read_step_info": {"z.py": [{"traj_path": "t/m/1.json", "step_idx": 2, "start": 1, "end": 2}], "10": [{"traj_path": "t/m/1.json", "step_idx": 4, "start": 3, "end": 3}], ' +
        '"2": [{"traj_path": "t/m/1.json", "step_idx": 6, "start": 1, "end": 1}]}, ' +
        '"meta": {"num_trajectories": 1, "num_read_core": 3, "num_read_core_regions": 3, "num_modified_core": 1, "num_main": 1}}',
    );
  });
});

describe('R_int and promotion', () => {
  const step = (traj_path: string, start: number, end: number, step_idx = 1): { traj_path: string; step_idx: number; start: number; end: number } => ({ traj_path, step_idx, start, end });
  const info: ReadStepInfo = {
    'a.py': [step('t/x/1.json', 1, -1), step('t/y/1.json', 10, 30), step('t/y/1.json', -5, -1)],
    'b.py': [step('t/x/1.json', 1, 20), step('t/y/1.json', 5, 8)],
    'c.py': [step('t/x/1.json', 1, 5)],
  };
  it('R_int groups by traj_path, merges, intersects; tails excluded with two runs', () => {
    assert.deepEqual(
      [...rebuildRInt(info)],
      [
        ['a.py', [[10, 30]]],
        ['b.py', [[5, 8]]],
      ],
    );
  });
  it('promoted = core ∖ R_int with the models whose optional regions hold it; dropped = R_int ∖ core', () => {
    const result = promotionProvenance({
      readStepInfo: info,
      coreRegions: [
        { path: 'a.py', start: 10, end: 30 },
        { path: 'a.py', start: 90, end: -1 },
        { path: 'b.py', start: 5, end: 7 },
      ],
      optionalRegionsByModel: { X: [{ path: 'a.py', start: 31, end: -1 }], Y: [{ path: 'a.py', start: 95, end: 100 }] },
      lineCounts: new Map([
        ['a.py', 100],
        ['b.py', 20],
      ]),
    });
    assert.deepEqual([result.coreLines, result.rIntLines, result.promotedLines, result.droppedLines], [21 + 11 + 3, 21 + 4, 11, 1]);
    assert.deepEqual(result.promotedRegions, [{ path: 'a.py', start: 90, end: 100, models: ['X'] }]);
    assert.deepEqual(result.droppedRegions, [{ path: 'b.py', start: 8, end: 8 }]);
  });
  it('a single run keeps its tails in R_int, as the builder’s fold does; a missing line count is reported', () => {
    const single: ReadStepInfo = { 'a.py': [step('t/x/1.json', -5, -1)], 'n.py': [step('t/x/1.json', 1, -1)] };
    const result = promotionProvenance({ readStepInfo: single, coreRegions: [{ path: 'a.py', start: -5, end: 50 }], optionalRegionsByModel: {}, lineCounts: new Map([['a.py', 50]]) });
    assert.deepEqual([result.coreLines, result.rIntLines, result.promotedLines, result.droppedLines], [5, 5, 0, 0]);
    assert.deepEqual(result.unresolvedPaths, ['n.py']);
  });
});

describe('verifyRun', () => {
  const info: ReadStepInfo = {
    'a.py': [
      { traj_path: 'T', step_idx: 2, start: 1, end: -1 },
      { traj_path: 'U', step_idx: 9, start: 1, end: -1 },
      { traj_path: 'T', step_idx: 4, start: 3, end: 9 },
    ],
    'b.py': [{ traj_path: 'T', step_idx: 6, start: 1, end: 5 }],
  };
  it('equal entries per path, in order: verified', () => {
    const v = verifyRun(
      'T',
      [
        { path: 'b.py', stepIdx: 6, start: 1, end: 5 },
        { path: 'a.py', stepIdx: 2, start: 1, end: -1 },
        { path: 'a.py', stepIdx: 4, start: 3, end: 9 },
      ],
      info,
    );
    assert.ok(v.verified);
    assert.equal(describeVerification(v), 'verified 3/3 reads');
  });
  it('what differs: missing and extra reads', () => {
    const v = verifyRun(
      'T',
      [
        { path: 'a.py', stepIdx: 2, start: 1, end: -1 },
        { path: 'a.py', stepIdx: 4, start: 3, end: 10 },
      ],
      info,
    );
    assert.ok(!v.verified);
    assert.equal(v.matched, 1);
    assert.deepEqual(
      v.differences.map((d) => [d.kind, d.read.path, d.read.stepIdx, d.read.end]),
      [
        ['missing', 'a.py', 4, 9],
        ['extra', 'a.py', 4, 10],
        ['missing', 'b.py', 6, 5],
      ],
    );
    assert.equal(describeVerification(v), '1 of 3 recorded reads match; 2 missing, 1 extra');
  });
});
