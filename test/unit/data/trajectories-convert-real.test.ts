/**
 * The converters' sniffers against every trajectory we have — each synthetic fixture of
 * test/fixtures/trajectories/ and each real run of ../shared/real-trajs/ is accepted by exactly its own
 * converter, and native shapes (SWE-Explore unified, mini-swe-agent) by none — and the real runs of
 * the converted formats convert without error, with the step counts of real-trajs/MANIFEST.md and the
 * notes their conversions call for.
 *
 * The real runs are looked for where test/unit/support/shared-data.ts finds `../shared`; those tests
 * are skipped, with a message, when it is absent.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { TrajectoryFormat } from '../../../src/core/trajectories/types';
import { CONVERTERS } from '../../../src/data/trajectories/convert';
import { sharedPath } from '../support/shared-data';
import { contentOfFile } from '../support/trajectory-content';

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'trajectories');
const MANIFEST = sharedPath(path.join('real-trajs', 'MANIFEST.md'));
const REAL = MANIFEST === undefined ? undefined : path.dirname(MANIFEST);
const skipReal = REAL === undefined ? 'real-trajs is absent (set SWE_EXPLORE_SHARED or put ../shared beside the repository): real trajectories not checked' : false;

/** Fixture folder → the converter that must accept its files (undefined: none may). */
const FIXTURE_FORMATS: Readonly<Record<string, TrajectoryFormat | undefined>> = {
  'swe-agent-1': 'swe-agent-1',
  'swe-agent-0': 'swe-agent-0',
  'openhands-events': 'openhands-events',
  'openhands-messages': 'openhands-messages',
  'claude-code': 'claude-code-stream',
  opencode: 'opencode-events',
  native: undefined,
};

/** real-trajs folder → the converter that must accept its files (undefined: a native format). */
const REAL_FORMATS: Readonly<Record<string, TrajectoryFormat | undefined>> = {
  'swe-agent-1.x': 'swe-agent-1',
  'swe-agent-0.x': 'swe-agent-0',
  'openhands-events': 'openhands-events',
  'opencode-events': 'opencode-events',
  'mini-swe-agent-v1': undefined,
};

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) for (const file of filesUnder(full)) out.push(file);
    else if (/\.(json|jsonl|traj)$/.test(name)) out.push(full);
  }
  return out;
}

function acceptedBy(file: string): TrajectoryFormat[] {
  const content = contentOfFile(file);
  return CONVERTERS.filter((reader) => reader.sniff(content)).map((reader) => reader.format);
}

describe('converter sniffing', () => {
  it('every synthetic fixture is accepted by exactly its converter; native shapes by none', () => {
    let files = 0;
    for (const [folder, format] of Object.entries(FIXTURE_FORMATS)) {
      for (const file of filesUnder(path.join(FIXTURES, folder))) {
        assert.deepEqual(acceptedBy(file), format === undefined ? [] : [format], path.relative(FIXTURES, file));
        files++;
      }
    }
    assert.ok(files >= 14, `${files} fixtures`);
  });

  it('every real trajectory is accepted by exactly its converter; mini-swe-agent runs (native) and their reports by none', { skip: skipReal }, () => {
    for (const [folder, format] of Object.entries(REAL_FORMATS)) {
      const files = filesUnder(path.join(REAL!, folder));
      assert.ok(files.length > 0, folder);
      for (const file of files) {
        const expected = format === undefined || file.includes(`${path.sep}reports${path.sep}`) ? [] : [format];
        assert.deepEqual(acceptedBy(file), expected, path.relative(REAL!, file));
      }
    }
  });
});

/** MANIFEST.md's table: file name → its *steps* column, for the formats given. */
function manifestSteps(formats: readonly string[]): Map<string, number> {
  const steps = new Map<string, number>();
  for (const line of readFileSync(path.join(REAL!, 'MANIFEST.md'), 'utf8').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 7 || !formats.includes(cells[1]!)) continue;
    const file = /`([^`]+)`/.exec(cells[2]!)?.[1];
    if (file !== undefined) steps.set(`${cells[1]}/${file}`, Number(cells[5]));
  }
  return steps;
}

/** The notes each real run's conversion must leave. */
const REAL_NOTES: Readonly<Record<string, readonly string[]>> = {
  'swe-agent-1.x/pallets__flask-5014.traj': [],
  'swe-agent-1.x/pydata__xarray-4075.traj': [
    'Step 8: the tool abbreviated its view of a large file; read as a view of the whole file, as the builder credits a view without range.',
    'Steps 10, 12, 14, 16, 30: `str_replace_editor view` with a range the tool could not parse (it answered with a usage error) was read as a view of the whole file, as the builder counts a failed call and credits a view without range.',
  ],
  'swe-agent-0.x/marshmallow-code__marshmallow-1867.function_calling_replace_from_source.traj': [
    'Steps 4, 18: `open`/`goto`/`scroll_*` showed a window of a file: read as a view of exactly the lines shown (of the whole file when the window held all of it).',
    'Step 16: `find_file`/`search_dir` were written as `find D -name N` / `grep -rl T D`: they list file names, not lines, so they are not reads (a loader that writes them as `grep -rn` credits whole files instead).',
  ],
  'swe-agent-0.x/pydicom__pydicom-1458.traj': [
    'demonstration messages of `history` (`is_demo`) were dropped: they are examples shown to the model, not this run.',
    'Step 8: `find_file`/`search_dir` were written as `find D -name N` / `grep -rl T D`: they list file names, not lines, so they are not reads (a loader that writes them as `grep -rn` credits whole files instead).',
    'Step 10: `open`/`goto`/`scroll_*` showed a window of a file: read as a view of exactly the lines shown (of the whole file when the window held all of it).',
  ],
  'openhands-events/wrong_initial_state.json': [],
  'opencode-events/deveco_events.jsonl': [],
  'opencode-events/opencode_events.jsonl': [
    'Step 0: a `task` sub-agent explored on its own: sub-agent reads are absent from the stream (only its summary is there).',
    'Windows paths were written with `/` (a drive `C:` as `/c`), as the builder rejects a path holding `\\`.',
  ],
};

describe('real trajectories of the converted formats', { skip: skipReal }, () => {
  it('convert without error, with MANIFEST.md’s step counts and the expected notes', () => {
    const steps = manifestSteps(['swe-agent-1.x', 'swe-agent-0.x', 'openhands-events', 'opencode-events']);
    assert.equal(steps.size, Object.keys(REAL_NOTES).length, 'MANIFEST.md rows of the converted formats');
    for (const [key, expectedSteps] of steps) {
      const file = path.join(REAL!, key);
      const content = contentOfFile(file);
      const reader = CONVERTERS.find((r) => r.sniff(content));
      assert.ok(reader !== undefined, key);
      const trajectory = reader.read(content, file);
      assert.equal(trajectory.messages.filter((m) => m.role === 'assistant').length, expectedSteps, `${key}: steps`);
      assert.deepEqual(trajectory.notes, REAL_NOTES[key], `${key}: notes`);
    }
  });

  it('read the run’s own identity: instance, model and working folder', () => {
    const info = (rel: string): unknown => {
      const file = path.join(REAL!, rel);
      const content = contentOfFile(file);
      const { instanceId, model, cwd } = CONVERTERS.find((r) => r.sniff(content))!.read(content, file).info;
      return { instanceId, model, cwd };
    };
    assert.deepEqual(info('swe-agent-1.x/pydata__xarray-4075.traj'), { instanceId: 'pydata__xarray-4075', model: 'openai/gpt-5', cwd: '/testbed' });
    assert.deepEqual(info('swe-agent-0.x/pydicom__pydicom-1458.traj'), { instanceId: undefined, model: undefined, cwd: '/pydicom__pydicom' });
    assert.deepEqual(info('openhands-events/wrong_initial_state.json'), { instanceId: undefined, model: 'claude-3-5-sonnet-20241022', cwd: undefined });
  });
});
