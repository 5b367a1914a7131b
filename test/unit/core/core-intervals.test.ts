import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  EMPTY_SET,
  containsLine,
  intersect,
  intersectionSize,
  lineSetFrom,
  lineSetIntersectionSize,
  lineSetSize,
  lineSetSubtract,
  lineSetUnion,
  normalize,
  rangeIntersection,
  rangeIntersectionSize,
  setSize,
  subtract,
  union,
  type Interval,
  type IntervalSet,
  type LineSet,
} from '../../../src/core/index';

// ---------------------------------------------------------------------------------------------
// Naive model: a Set<number> of lines.

function toSet(intervals: readonly Interval[]): Set<number> {
  const out = new Set<number>();
  for (const [s, e] of intervals) for (let n = s; n <= e; n++) out.add(n);
  return out;
}

/** The unique canonical form: maximal runs of consecutive numbers, ascending. */
function canonical(set: ReadonlySet<number>): Interval[] {
  const sorted = [...set].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

function isCanonical(set: IntervalSet): boolean {
  for (let i = 0; i < set.length; i++) {
    const [s, e] = set[i]!;
    if (s > e) return false;
    if (i > 0 && s <= set[i - 1]![1] + 1) return false;
  }
  return true;
}

function lineSetToStrings(lines: LineSet): Set<string> {
  const out = new Set<string>();
  for (const [path, set] of lines) for (const n of toSet(set)) out.add(`${path}:${n}`);
  return out;
}

// Arbitraries: small numbers so empty / adjacent / overlapping / nested intervals are common;
// inverted (start > end) raw intervals are included (normalize must drop them).
const line = fc.integer({ min: -3, max: 40 });
const rawInterval: fc.Arbitrary<Interval> = fc.oneof(
  fc.tuple(line, line).map(([a, b]): Interval => [a, b]),
  fc.tuple(line, fc.integer({ min: 0, max: 12 })).map(([s, len]): Interval => [s, s + len]),
  fc.tuple(line, fc.integer({ min: 1, max: 6 })).map(([s, back]): Interval => [s, s - back]),
);
const rawList = fc.array(rawInterval, { maxLength: 8 });
const intervalSet = rawList.map((list) => normalize(list));
const path = fc.constantFrom('a.py', 'b.py', './a.py', 'A.py');
const rangeArb = fc.record({ path, start: line, end: line });
const lineSetArb = fc.array(rangeArb, { maxLength: 8 }).map((ranges) => lineSetFrom(ranges));

const RUNS = { numRuns: 1500 };

// ---------------------------------------------------------------------------------------------

describe('normalize', () => {
  it('sorts, merges overlapping and adjacent intervals', () => {
    assert.deepEqual(
      normalize([
        [10, 12],
        [1, 3],
        [4, 5],
        [11, 20],
        [30, 30],
      ]),
      [
        [1, 5],
        [10, 20],
        [30, 30],
      ],
    );
  });
  it('merges nested intervals into the outer one', () => {
    assert.deepEqual(
      normalize([
        [1, 100],
        [5, 6],
        [50, 60],
      ]),
      [[1, 100]],
    );
  });
  it('keeps a one-line gap (not adjacent)', () => {
    assert.deepEqual(
      normalize([
        [1, 3],
        [5, 7],
      ]),
      [
        [1, 3],
        [5, 7],
      ],
    );
  });
  it('drops inverted (empty) intervals', () => {
    assert.deepEqual(
      normalize([
        [11, 1],
        [3, 3],
        [7, 6],
      ]),
      [[3, 3]],
    );
    assert.deepEqual(normalize([[5, 4]]), []);
  });
  it('handles empty and single inputs', () => {
    assert.deepEqual(normalize([]), []);
    assert.deepEqual(normalize([[2, 9]]), [[2, 9]]);
  });
  it('does not mutate its input', () => {
    const input: [number, number][] = [
      [5, 9],
      [1, 6],
    ];
    normalize(input);
    assert.deepEqual(input, [
      [5, 9],
      [1, 6],
    ]);
  });
  it('property: equals the canonical form of the naive line set', () => {
    fc.assert(
      fc.property(rawList, (list) => {
        const got = normalize(list);
        assert.deepEqual(got, canonical(toSet(list)));
        assert.ok(isCanonical(got));
        assert.equal(setSize(got), toSet(list).size);
      }),
      RUNS,
    );
  });
});

describe('setSize', () => {
  it('sums closed-interval lengths', () => {
    assert.equal(
      setSize([
        [1, 1],
        [3, 10],
      ]),
      9,
    );
    assert.equal(setSize(EMPTY_SET), 0);
  });
});

describe('intersect / intersectionSize', () => {
  it('intersects overlapping, nested and touching intervals', () => {
    assert.deepEqual(
      intersect(
        [
          [1, 10],
          [20, 30],
        ],
        [[5, 25]],
      ),
      [
        [5, 10],
        [20, 25],
      ],
    );
    assert.deepEqual(
      intersect(
        [[1, 100]],
        [
          [10, 20],
          [30, 40],
        ],
      ),
      [
        [10, 20],
        [30, 40],
      ],
    );
    assert.deepEqual(intersect([[1, 5]], [[5, 9]]), [[5, 5]]);
    assert.deepEqual(intersect([[1, 4]], [[5, 9]]), []);
    assert.deepEqual(intersect([], [[1, 9]]), []);
    assert.equal(
      intersectionSize(
        [
          [1, 10],
          [20, 30],
        ],
        [[5, 25]],
      ),
      12,
    );
    assert.equal(intersectionSize([[1, 4]], [[5, 9]]), 0);
    assert.equal(intersectionSize([], []), 0);
  });
  it('property: matches the naive model', () => {
    fc.assert(
      fc.property(intervalSet, intervalSet, (a, b) => {
        const sa = toSet(a);
        const sb = toSet(b);
        const expected = new Set([...sa].filter((n) => sb.has(n)));
        assert.deepEqual(intersect(a, b), canonical(expected));
        assert.equal(intersectionSize(a, b), expected.size);
        assert.equal(intersectionSize(b, a), expected.size);
      }),
      RUNS,
    );
  });
});

describe('union', () => {
  it('merges across the two sets, including adjacency', () => {
    assert.deepEqual(union([[1, 3]], [[4, 6]]), [[1, 6]]);
    assert.deepEqual(
      union(
        [
          [1, 3],
          [10, 12],
        ],
        [[5, 6]],
      ),
      [
        [1, 3],
        [5, 6],
        [10, 12],
      ],
    );
    assert.deepEqual(union([], [[2, 3]]), [[2, 3]]);
    assert.deepEqual(union([[2, 3]], []), [[2, 3]]);
  });
  it('property: matches the naive model', () => {
    fc.assert(
      fc.property(intervalSet, intervalSet, (a, b) => {
        assert.deepEqual(union(a, b), canonical(new Set([...toSet(a), ...toSet(b)])));
      }),
      RUNS,
    );
  });
});

describe('subtract', () => {
  it('splits an interval in two', () => {
    assert.deepEqual(subtract([[1, 100]], [[40, 60]]), [
      [1, 39],
      [61, 100],
    ]);
  });
  it('removes whole, prefix, suffix and nothing', () => {
    assert.deepEqual(subtract([[1, 10]], [[1, 10]]), []);
    assert.deepEqual(subtract([[1, 10]], [[0, 3]]), [[4, 10]]);
    assert.deepEqual(subtract([[1, 10]], [[8, 20]]), [[1, 7]]);
    assert.deepEqual(subtract([[1, 10]], [[11, 20]]), [[1, 10]]);
    assert.deepEqual(subtract([], [[1, 2]]), []);
    assert.deepEqual(subtract([[1, 2]], []), [[1, 2]]);
  });
  it('one subtrahend spanning several intervals, several holes in one interval', () => {
    assert.deepEqual(
      subtract(
        [
          [1, 5],
          [8, 12],
          [20, 25],
        ],
        [[3, 21]],
      ),
      [
        [1, 2],
        [22, 25],
      ],
    );
    assert.deepEqual(
      subtract(
        [[1, 20]],
        [
          [2, 3],
          [5, 5],
          [10, 19],
        ],
      ),
      [
        [1, 1],
        [4, 4],
        [6, 9],
        [20, 20],
      ],
    );
  });
  it('property: matches the naive model', () => {
    fc.assert(
      fc.property(intervalSet, intervalSet, (a, b) => {
        const sb = toSet(b);
        assert.deepEqual(subtract(a, b), canonical(new Set([...toSet(a)].filter((n) => !sb.has(n)))));
      }),
      RUNS,
    );
  });
});

describe('rangeIntersectionSize / rangeIntersection', () => {
  it('counts a closed range against a set', () => {
    const set: IntervalSet = [
      [1, 10],
      [20, 30],
    ];
    assert.equal(rangeIntersectionSize(set, 5, 25), 12);
    assert.equal(rangeIntersectionSize(set, 11, 19), 0);
    assert.equal(rangeIntersectionSize(set, 10, 10), 1);
    assert.equal(rangeIntersectionSize(set, 0, 100), 21);
    assert.deepEqual(rangeIntersection(set, 5, 25), [
      [5, 10],
      [20, 25],
    ]);
  });
  it('is 0 / empty for inverted ranges and empty sets', () => {
    assert.equal(rangeIntersectionSize([[1, 100]], 11, 1), 0);
    assert.equal(rangeIntersectionSize([], 1, 5), 0);
    assert.deepEqual(rangeIntersection([[1, 100]], 11, 1), []);
  });
  it('property: matches the naive model (incl. inverted ranges)', () => {
    fc.assert(
      fc.property(intervalSet, line, line, (set, s, e) => {
        const model = toSet(set);
        const expected = new Set<number>();
        for (let n = s; n <= e; n++) if (model.has(n)) expected.add(n);
        assert.equal(rangeIntersectionSize(set, s, e), expected.size);
        assert.deepEqual(rangeIntersection(set, s, e), canonical(expected));
      }),
      RUNS,
    );
  });
});

describe('containsLine', () => {
  it('finds lines at interval edges and misses gaps', () => {
    const set: IntervalSet = [
      [1, 3],
      [7, 9],
    ];
    assert.equal(containsLine(set, 1), true);
    assert.equal(containsLine(set, 3), true);
    assert.equal(containsLine(set, 4), false);
    assert.equal(containsLine(set, 7), true);
    assert.equal(containsLine(set, 10), false);
    assert.equal(containsLine(set, 0), false);
    assert.equal(containsLine([], 1), false);
  });
  it('property: matches the naive model', () => {
    fc.assert(
      fc.property(intervalSet, line, (set, n) => {
        assert.equal(containsLine(set, n), toSet(set).has(n));
      }),
      RUNS,
    );
  });
});

describe('line sets', () => {
  it('lineSetFrom groups by exact path and skips inverted ranges', () => {
    const lines = lineSetFrom([
      { path: 'a.py', start: 5, end: 9 },
      { path: './a.py', start: 1, end: 2 },
      { path: 'a.py', start: 1, end: 4 },
      { path: 'b.py', start: 11, end: 1 },
    ]);
    assert.deepEqual([...lines.keys()].sort(), ['./a.py', 'a.py']);
    assert.deepEqual(lines.get('a.py'), [[1, 9]]);
    assert.equal(lines.has('b.py'), false);
    assert.equal(lineSetSize(lines), 11);
  });
  it('lineSetIntersectionSize never matches different path strings', () => {
    const a = lineSetFrom([{ path: 'a.py', start: 1, end: 10 }]);
    const b = lineSetFrom([
      { path: './a.py', start: 1, end: 10 },
      { path: 'a.py', start: 8, end: 20 },
    ]);
    assert.equal(lineSetIntersectionSize(a, b), 3);
    assert.equal(lineSetIntersectionSize(b, a), 3);
  });
  it('lineSetUnion and lineSetSubtract work path-wise; emptied paths are dropped', () => {
    const a = lineSetFrom([
      { path: 'a.py', start: 1, end: 10 },
      { path: 'b.py', start: 1, end: 2 },
    ]);
    const b = lineSetFrom([
      { path: 'a.py', start: 11, end: 12 },
      { path: 'b.py', start: 1, end: 5 },
    ]);
    const u = lineSetUnion(a, b);
    assert.deepEqual(u.get('a.py'), [[1, 12]]);
    assert.deepEqual(u.get('b.py'), [[1, 5]]);
    const d = lineSetSubtract(a, b);
    assert.deepEqual(d.get('a.py'), [[1, 10]]);
    assert.equal(d.has('b.py'), false);
    // inputs untouched
    assert.deepEqual(a.get('a.py'), [[1, 10]]);
  });
  it('property: lineSetFrom / size / intersection / union / subtract match a Set<path:line> model', () => {
    fc.assert(
      fc.property(fc.array(rangeArb, { maxLength: 8 }), lineSetArb, (ranges, b) => {
        const a = lineSetFrom(ranges);
        const expectedA = new Set<string>();
        for (const r of ranges) for (let n = r.start; n <= r.end; n++) expectedA.add(`${r.path}:${n}`);
        assert.deepEqual(lineSetToStrings(a), expectedA);
        for (const set of a.values()) assert.ok(isCanonical(set) && set.length > 0);
        assert.equal(lineSetSize(a), expectedA.size);

        const sb = lineSetToStrings(b);
        const inter = [...expectedA].filter((k) => sb.has(k));
        assert.equal(lineSetIntersectionSize(a, b), inter.length);
        assert.equal(lineSetIntersectionSize(b, a), inter.length);

        const u = lineSetUnion(a, b);
        assert.deepEqual(lineSetToStrings(u), new Set([...expectedA, ...sb]));
        for (const set of u.values()) assert.ok(isCanonical(set));

        const d = lineSetSubtract(a, b);
        assert.deepEqual(lineSetToStrings(d), new Set([...expectedA].filter((k) => !sb.has(k))));
        for (const set of d.values()) assert.ok(isCanonical(set) && set.length > 0);
      }),
      RUNS,
    );
  });
});
