/**
 * The format registry with every reader registered (native readers first, then the converters):
 * each fixture of test/fixtures/trajectories/ is read in its own format, and the builder's extractor
 * (src/core/trajectories/) gives each converted run exactly the raw reads its converter promises
 * (test/unit/support/trajectory-expected-reads.ts).
 */
import * as path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { trajectoryRawReads, type TrajectoryFormat } from '../../../src/core';
import { readTrajectoryFile } from '../../../src/data';
import { EXPECTED_READS } from '../support/trajectory-expected-reads';

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'trajectories');

/** Fixture → the format the registry reads it as (undefined: refused with one problem). */
const FORMATS: Readonly<Record<string, TrajectoryFormat | undefined>> = {
  'native/unified.json': 'swe-explore-unified',
  'native/mini-v1.traj.json': 'mini-swe-agent-1',
  'native/mini-v2.traj.json': 'mini-swe-agent-1.1',
  'swe-agent-1/text-mode.traj': 'swe-agent-1',
  'swe-agent-1/function-calling.traj': 'swe-agent-1',
  'swe-agent-0/windowed.traj': 'swe-agent-0',
  'openhands-events/events.json': 'openhands-events',
  'openhands-events/output.jsonl': 'openhands-events',
  'openhands-events/two-records.jsonl': undefined,
  'openhands-messages/messages.json': 'openhands-messages',
  'claude-code/stream.jsonl': 'claude-code-stream',
  'claude-code/session.jsonl': 'claude-code-stream',
  'claude-code/windows.jsonl': 'claude-code-stream',
  'opencode/events.jsonl': 'opencode-events',
  'builder/runs/unified/model-a/demo__lib-1__0.json': 'swe-explore-unified',
  'builder/runs/mini-v1/demo__lib-1.traj.json': 'mini-swe-agent-1',
  'builder/runs/mini-v2-tools/demo__lib-1.traj.json': 'mini-swe-agent-1.1',
  'builder/text-mode/mini-v2-text/demo__lib-1.traj.json': 'mini-swe-agent-1.1',
};

describe('the registry reads every fixture in its format', () => {
  for (const [rel, format] of Object.entries(FORMATS)) {
    it(rel, async () => {
      const result = await readTrajectoryFile(path.join(FIXTURES, rel));
      assert.equal(result.trajectory?.format, format, JSON.stringify(result.problems));
      if (format === undefined) assert.equal(result.problems.filter((p) => p.severity === 'error').length, 1);
    });
  }
});

describe('the builder’s extractor on the converted runs', () => {
  for (const [rel, expected] of Object.entries(EXPECTED_READS)) {
    it(`${rel}: the raw reads its converter promises`, async () => {
      const { trajectory } = await readTrajectoryFile(path.join(FIXTURES, rel));
      const reads = trajectoryRawReads(trajectory!).reads.map((r) => ({ step_idx: r.stepIdx, path: r.path, start: r.start, end: r.end }));
      assert.deepEqual(reads, expected);
    });
  }
});
