/**
 * What a run viewed (src/core/trajectories/viewed.ts), anatomy × seen (src/core/seenMisses.ts) and
 * how repair runs got to a line (src/core/trajectories/arrival.ts), on trajectories written here.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  arrivalAt,
  inferredRunBase,
  intersectionSize,
  isSearchSegment,
  keepReads,
  lineArrivals,
  lineViewing,
  MISS_CATEGORIES,
  missAnatomy,
  normalize,
  prepareInstance,
  rawReadsNaming,
  readCommandLine,
  repairRunIndex,
  resolveViewedRange,
  searchNamesFile,
  searchSteps,
  seenAnatomy,
  seenMissedLines,
  spanViewing,
  stageReads,
  trajectoryRawReads,
  VIEWED_TO_END,
  viewedLineCount,
  viewedLines,
  viewedLineSet,
  type IntervalSet,
  type LineSet,
  type Trajectory,
  type TrajectoryMessage,
  type TrajectoryRead,
} from '../../../src/core';
import { instanceArb } from '../support/core-arbitraries';
import { cpuNow } from '../support/cpu-time';

function assistant(command: string): TrajectoryMessage {
  return { role: 'assistant', content: `THOUGHT: look.\n\n\`\`\`bash\n${command}\n\`\`\``, toolCalls: [] };
}
function output(text: string): TrajectoryMessage {
  return { role: 'user', content: text, toolCalls: [] };
}
function toolUse(name: string, args: Record<string, unknown>): TrajectoryMessage {
  return { role: 'assistant', content: '', toolCalls: [{ name, arguments: JSON.stringify(args) }] };
}
function run(...messages: TrajectoryMessage[]): Trajectory {
  return { format: 'swe-explore-unified', info: { cwd: '/testbed' }, messages: [{ role: 'user', content: 'task', toolCalls: [] }, ...messages], notes: [] };
}
/** Kept reads with every path accepted (the existence test is the data layer's). */
function readsOf(trajectory: Trajectory): TrajectoryRead[] {
  return [...keepReads(stageReads(trajectoryRawReads(trajectory), '/testbed'), { kind: 'repository', exists: () => true }).reads];
}
const COUNTS = new Map([
  ['pkg/a.py', 200],
  ['pkg/b.py', 50],
  ['pkg/c.py', 30],
]);
const count = (p: string): number | undefined => COUNTS.get(p);

describe('resolveViewedRange', () => {
  it('resolves -1, tails, start 0 and ends past the file like a region', () => {
    assert.deepEqual(resolveViewedRange([1, -1], 200), [1, 200]);
    assert.deepEqual(resolveViewedRange([-20, -1], 200), [181, 200]);
    assert.deepEqual(resolveViewedRange([-500, -1], 200), [1, 200]);
    assert.deepEqual(resolveViewedRange([0, 10], 200), [1, 10]);
    assert.deepEqual(resolveViewedRange([150, 900], 200), [150, 200]);
    assert.deepEqual(resolveViewedRange([120, -1], 200), [120, 200]);
    assert.equal(resolveViewedRange([30, 20], 200), undefined);
    assert.equal(resolveViewedRange([1, 0], 200), undefined);
    assert.equal(resolveViewedRange([1, -2], 200), undefined);
    assert.equal(resolveViewedRange([1, -1], 0), undefined, 'an empty file shows nothing');
  });
  it('without a line count: -1 stays open, a tail is dropped', () => {
    assert.deepEqual(resolveViewedRange([5, -1], undefined), [5, VIEWED_TO_END]);
    assert.equal(resolveViewedRange([-5, -1], undefined), undefined);
    assert.deepEqual(resolveViewedRange([5, 9000], undefined), [5, 9000]);
  });
});

describe('viewedLines: the union of the seen lines, with the first read that showed each line', () => {
  const trajectory = run(
    assistant("nl -ba pkg/a.py | sed -n '120,180p'"), // 1: seen 120–180 (credited whole)
    output('   120\tx'),
    assistant('cat <<EOF > pkg/b.py\nprint(1)\nEOF'), // 3: heredoc write: no line
    output(''),
    assistant("sed -n '100,150p' pkg/a.py"), // 5: 100–119 first seen here
    output('...'),
    assistant('grep -n "def f" pkg/c.py'), // 7: grep without a path prefix: lines 4 and 9
    output('4:def f():\n9:    def f_inner():'),
    assistant('tail -n 20 pkg/a.py'), // 9: 181–200
    output('...'),
  );
  const reads = readsOf(trajectory);
  const viewed = viewedLines(reads, count, (r) => readCommandLine(trajectory, r));

  it('unions the seen ranges per file; a heredoc write is not a view', () => {
    assert.deepEqual(viewedLineSet(viewed).get('pkg/a.py'), [[100, 200]]);
    assert.deepEqual(viewedLineSet(viewed).get('pkg/c.py'), [
      [4, 4],
      [9, 9],
    ]);
    assert.equal(viewed.files.has('pkg/b.py'), false);
    assert.ok(viewed.readPaths.has('pkg/b.py'));
    assert.equal(viewedLineCount(viewed), 101 + 2);
  });

  it('keeps the first step that showed each line, with its idiom and command', () => {
    assert.deepEqual(lineViewing(viewed, 'pkg/a.py', 130), { kind: 'seen', step: 1, idiom: 'nl_pipe', command: "nl -ba pkg/a.py | sed -n '120,180p'" });
    assert.deepEqual(lineViewing(viewed, 'pkg/a.py', 110), { kind: 'seen', step: 5, idiom: 'sed_range', command: "sed -n '100,150p' pkg/a.py" });
    assert.deepEqual(lineViewing(viewed, 'pkg/a.py', 190), { kind: 'seen', step: 9, idiom: 'tail', command: 'tail -n 20 pkg/a.py' });
    assert.deepEqual(lineViewing(viewed, 'pkg/c.py', 9), { kind: 'seen', step: 7, idiom: 'grep_whole', command: 'grep -n "def f" pkg/c.py' });
  });

  it('says "never opened" (or only written) and "other lines only" for unseen lines', () => {
    assert.deepEqual(lineViewing(viewed, 'pkg/a.py', 50), { kind: 'other-lines', viewed: [[100, 200]] });
    assert.deepEqual(lineViewing(viewed, 'pkg/z.py', 1), { kind: 'never-opened', written: false });
    assert.deepEqual(lineViewing(viewed, 'pkg/b.py', 1), { kind: 'never-opened', written: true });
  });

  it('cuts a span where the viewing changes', () => {
    const parts = spanViewing(viewed, 'pkg/a.py', 95, 125).map((p) => [p.start, p.end, p.viewing.kind === 'seen' ? p.viewing.step : p.viewing.kind]);
    assert.deepEqual(parts, [
      [95, 99, 'other-lines'],
      [100, 119, 5],
      [120, 125, 1],
    ]);
    assert.deepEqual(
      spanViewing(viewed, 'pkg/z.py', 3, 4).map((p) => p.viewing.kind),
      ['never-opened'],
    );
  });

  it('credits instead of seen lines when asked (the repair-run reading)', () => {
    const credited = viewedLines(reads, count, () => '', { rangesOf: (r) => [[r.start, r.end]] });
    assert.deepEqual(viewedLineSet(credited).get('pkg/a.py'), [[1, 200]], 'the nl pipe is credited as the whole file');
    assert.ok(credited.files.has('pkg/b.py'), 'a heredoc write is a read for the builder');
  });
});

describe('rawReadsNaming: only messages that can name a path are parsed, with the same reads of those paths', () => {
  it('equals the full extraction restricted to the paths, on tool calls, fences and grep hits', () => {
    const trajectory = run(
      assistant('grep -rn needle pkg/'),
      output('pkg/a.py:12:needle\npkg/b.py:3:needle'),
      toolUse('str_replace_editor', { command: 'view', path: '/testbed/pkg/b.py', view_range: [1, 20] }),
      output('...'),
      // A JSON escape hides the path from a text search of the arguments: they are parsed then.
      { role: 'assistant', content: '', toolCalls: [{ name: 'bash', arguments: '{"command": "head -n 5 pkg\\u002fc.py"}' }] },
      output('...'),
      toolUse('bash', { command: 'cat pkg/c.py' }),
      output('...'),
      assistant('ls'),
      output('pkg'),
    );
    assert.ok(readsOf(trajectory).some((r) => r.path === 'pkg/c.py' && r.idiom === 'head'));
    for (const needles of [['pkg/a.py'], ['pkg/b.py'], ['pkg/c.py'], ['pkg/a.py', 'pkg/c.py'], []]) {
      const fast = keepReads(stageReads(rawReadsNaming(trajectory, needles), '/testbed'), { kind: 'repository', exists: () => true }).reads.filter((r) => needles.includes(r.path));
      const full = readsOf(trajectory).filter((r) => needles.includes(r.path));
      assert.deepEqual(fast, full, needles.join(','));
    }
  });
});

describe('inferredRunBase: a base for a run that names none', () => {
  it('takes the folder most absolute paths share in front of a known path', () => {
    const known = ['src/button.py', 'src/theme.py', 'README.md'];
    assert.equal(inferredRunBase(['/repo/src/button.py', '/repo/src/theme.py', '/elsewhere/x/README.md'], known), '/repo');
    assert.equal(inferredRunBase(['src/button.py', '/tmp/other.py'], known), undefined);
    assert.equal(inferredRunBase(['/xsrc/button.py'], known), undefined, 'only at a folder boundary');
  });
});

describe('seenAnatomy: anatomy × viewed lines', () => {
  it('splits the viewed core lines by category, each within its category (property)', () => {
    const viewedArb = fc.array(fc.record({ path: fc.constantFrom('a.py', 'b.py', 'c.py', 'd.py'), start: fc.integer({ min: 1, max: 300 }), len: fc.integer({ min: 0, max: 200 }) }), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(instanceArb, viewedArb, (instance, ranges) => {
        const anatomy = missAnatomy(prepareInstance(instance.groundTruth, instance.predictions, instance.lineCounts, instance.profile), instance.budget);
        const byPath = new Map<string, [number, number][]>();
        for (const r of ranges) byPath.set(r.path, [...(byPath.get(r.path) ?? []), [r.start, r.start + r.len]]);
        const viewed: LineSet = new Map([...byPath].map(([p, list]) => [p, normalize(list)]));
        const seen = seenAnatomy(anatomy, viewed);
        let total = 0;
        for (const category of MISS_CATEGORIES) {
          assert.ok(seen.seen[category] <= anatomy.counts[category], category);
          let expected = 0;
          for (const [path, set] of anatomy.spans[category]) expected += intersectionSize(set, viewed.get(path) ?? []);
          assert.equal(seen.seen[category], expected, category);
          total += seen.seen[category];
        }
        assert.equal(seen.viewedCoreLines, total);
        assert.equal(seen.seenMissed, total - seen.seen.hit);
        assert.equal(seen.missed, anatomy.coreLines - anatomy.counts.hit);
        let missedSeen = 0;
        for (const set of seenMissedLines(anatomy, viewed).values()) for (const [s, e] of set as IntervalSet) missedSeen += e - s + 1;
        assert.equal(missedSeen, seen.seenMissed);
      }),
      { numRuns: 300 },
    );
  });
});

describe('how a repair run got to a line', () => {
  it('recognises searches, converted forms included', () => {
    for (const segment of ['grep -rn foo .', 'rg foo', 'find . -name a.py', 'git grep foo', 'ls -R | grep a.py', '/usr/bin/grep -n x f', 'fd a.py']) assert.ok(isSearchSegment(segment), segment);
    for (const segment of ['cat a.py', 'python -c "grep"', 'sed -n 1,5p a.py', 'git log']) assert.equal(isSearchSegment(segment), false, segment);
  });

  it('names a file by path in the command or output, or by base name in the command', () => {
    const at = (commandText: string, out = ''): boolean => searchNamesFile({ commandText, output: out }, 'astropy/modeling/separable.py');
    assert.ok(at('grep -rn separability_matrix .', './astropy/modeling/separable.py:66:def separability_matrix'));
    assert.ok(at('find . -name separable.py'));
    assert.ok(at('find . -name "separable.py"'));
    assert.ok(at('grep -n x /testbed/astropy/modeling/separable.py'));
    assert.equal(at('grep -rn x .', 'astropy/modeling/separable.pyc'), false);
    assert.equal(at('grep -rn x .', 'astropy/modeling/separable.py.orig:3:x'), false);
    assert.equal(at('grep -n x other/separable.py'), false, 'a base name under another folder');
    assert.equal(at('grep -rn separable .', 'docs/separable.rst'), false);
  });

  it('finds the first read step and the nearest search at or before it that named the file', () => {
    const trajectory = run(
      assistant('find . -name "*.py" | head'), // 1: lists files, names pkg/a.py in its output
      output('./pkg/a.py\n./pkg/b.py'),
      assistant('grep -rn helper pkg/'), // 3: names pkg/b.py only
      output('pkg/b.py:7:helper()'),
      assistant("sed -n '10,40p' pkg/a.py"), // 5: first read of a.py 10–40
      output('...'),
      toolUse('Glob', { pattern: '**/c.py' }), // 7: names pkg/c.py in its output
      output('/testbed/pkg/c.py'),
      assistant('cat pkg/c.py'), // 9
      output('...'),
    );
    const reads = readsOf(trajectory);
    const index = repairRunIndex(trajectory, reads, count, (r) => readCommandLine(trajectory, r));
    assert.deepEqual(
      searchSteps(trajectory).map((s) => s.step),
      [1, 3, 7],
    );
    assert.deepEqual(arrivalAt(index, 'pkg/a.py', 20), {
      firstRead: { step: 5, idiom: 'sed_range', command: "sed -n '10,40p' pkg/a.py" },
      search: { step: 1, command: 'find . -name "*.py" | head' },
    });
    assert.deepEqual(arrivalAt(index, 'pkg/b.py', 7), { firstRead: { step: 3, idiom: 'grep_hit', command: 'grep -rn helper pkg/' }, search: { step: 3, command: 'grep -rn helper pkg/' } });
    assert.equal(arrivalAt(index, 'pkg/c.py', 5).search?.command, 'Glob {"pattern":"**/c.py"}');
    assert.deepEqual(arrivalAt(index, 'pkg/a.py', 100), { firstRead: null, search: null }, 'a line no read covers');

    assert.deepEqual(lineArrivals([], 'pkg/a.py', 20), { kind: 'no-runs', reason: 'no-runs-cited' });
    assert.deepEqual(lineArrivals([{ trajPath: 't/m/x.json', model: 'm', index: undefined }], 'pkg/a.py', 20), { kind: 'no-runs', reason: 'runs-not-loaded' });
    const both = lineArrivals(
      [
        { trajPath: 't/m/x.json', model: 'm', index },
        { trajPath: 't/n/x.json', model: 'n', index: undefined },
      ],
      'pkg/a.py',
      20,
    );
    assert.equal(both.kind, 'runs');
    assert.deepEqual(both.kind === 'runs' ? both.runs.map((r) => (r.arrival === 'not-loaded' ? r.arrival : r.arrival.firstRead?.step)) : [], [5, 'not-loaded']);
  });
});

describe('viewedLines against a line-by-line model (property)', () => {
  it('every viewed line is attributed to the earliest read that showed it', () => {
    const readArb = fc.record({
      path: fc.constantFrom('p.py', 'q.py'),
      ranges: fc.array(fc.tuple(fc.integer({ min: -30, max: 120 }), fc.integer({ min: -3, max: 140 })), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(readArb, { maxLength: 25 }), fc.constantFrom(undefined, 0, 60, 130), (specs, lines) => {
        const reads: TrajectoryRead[] = specs.map((spec, i) => ({
          path: spec.path,
          rawPath: spec.path,
          start: 1,
          end: -1,
          stepIdx: i,
          idiom: 'sed_range',
          seen: spec.ranges,
          origin: 'fence',
          call: -1,
          segment: 0,
        }));
        const countOf = (): number | undefined => lines;
        const viewed = viewedLines(reads, countOf, (r) => `read ${r.stepIdx}`);
        for (const path of ['p.py', 'q.py']) {
          // The model: line → earliest step, from every resolved range.
          const earliest = new Map<number, number>();
          reads.forEach((read) => {
            if (read.path !== path) return;
            for (const range of read.seen) {
              const resolved = resolveViewedRange(range, lines);
              if (resolved === undefined) continue;
              const to = Math.min(resolved[1], 200);
              for (let n = resolved[0]; n <= to; n++) if (!earliest.has(n)) earliest.set(n, read.stepIdx);
            }
          });
          for (let n = 1; n <= 200; n++) {
            const viewing = lineViewing(viewed, path, n);
            const step = earliest.get(n);
            if (step === undefined) assert.notEqual(viewing.kind, 'seen', `${path}:${n}`);
            else assert.deepEqual(viewing.kind === 'seen' ? [viewing.step, viewing.command] : viewing.kind, [step, `read ${step}`], `${path}:${n}`);
          }
          const file = viewed.files.get(path);
          if (file !== undefined) {
            // Runs are maximal: neighbours differ in their read.
            for (let i = 1; i < file.firstSight.length; i++) {
              const [a, b] = [file.firstSight[i - 1]!, file.firstSight[i]!];
              assert.ok(a.end < b.start);
              if (a.end + 1 === b.start) assert.notEqual(a.read, b.read);
            }
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('stays fast on 100,000 single-line hits of one file', () => {
    const reads: TrajectoryRead[] = Array.from({ length: 100_000 }, (_, i) => ({
      path: 'big.py',
      rawPath: 'big.py',
      start: 1 + ((i * 7919) % 200_000),
      end: 1 + ((i * 7919) % 200_000),
      stepIdx: i,
      idiom: 'grep_hit',
      seen: [[1 + ((i * 7919) % 200_000), 1 + ((i * 7919) % 200_000)]],
      origin: 'fence',
      call: -1,
      segment: 0,
    }));
    const started = cpuNow();
    const viewed = viewedLines(
      reads,
      () => 200_000,
      () => 'grep',
    );
    // About 0.3 s on a quiet machine; a quadratic sweep would take minutes. The bound allows a loaded machine.
    assert.ok(cpuNow() - started < 20_000);
    assert.equal(viewedLineCount(viewed), 100_000);
  });
});

describe('rawReadsNaming: grep output is scanned only after a grep or rg command, exactly', () => {
  it('finds hits after grep / rg written plainly, in any case, or behind a JSON escape', () => {
    const hit = (command: TrajectoryMessage): TrajectoryRead[] => {
      const trajectory = run(command, output('pkg/a.py:12:needle'));
      const fast = keepReads(stageReads(rawReadsNaming(trajectory, ['pkg/a.py']), '/testbed'), { kind: 'repository', exists: () => true }).reads;
      assert.deepEqual(fast, readsOf(trajectory));
      return fast;
    };
    assert.equal(hit(assistant('grep -rn needle .')).length, 1);
    assert.equal(hit(assistant('GREP -rn needle .')).length, 1);
    assert.equal(hit(assistant('rg needle')).length, 1);
    assert.equal(hit(toolUse('bash', { command: 'grep -rn needle .' })).length, 1);
    assert.equal(hit({ role: 'assistant', content: '', toolCalls: [{ name: 'bash', arguments: '{"command": "g\\u0072ep -rn needle ."}' }] }).length, 1);
    assert.equal(hit(assistant('ls')).length, 0);
  });
});
