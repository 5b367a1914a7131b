/** "The next place after the cursor" (src/extension/base/places.ts), shared by span, region and difference navigation. */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { nextPlace, type Place } from '../../../src/extension/base/places';

// Core order: b.py before a.py (a missed-span list follows the core regions' order, not the alphabet).
const places: Place[] = [
  { path: 'b.py', start: 40, end: 50 },
  { path: 'b.py', start: 10, end: 12 },
  { path: 'a.py', start: 5, end: 9 },
];
const at = (path: string | undefined, line: number): { path: string | undefined; line: number } => ({ path, line });
const listed = { files: 'listed' } as const;

describe('nextPlace', () => {
  it('steps through files in the order listed, lines ascending, and wraps around', () => {
    assert.deepEqual(nextPlace(places, at('b.py', 1), 1, listed), places[1]);
    assert.deepEqual(nextPlace(places, at('b.py', 10), 1, listed), places[0], 'a place starting at the cursor is not "next"');
    assert.deepEqual(nextPlace(places, at('b.py', 45), 1, listed), places[2]);
    assert.deepEqual(nextPlace(places, at('a.py', 5), 1, listed), places[1], 'wraps to the first');
    assert.deepEqual(nextPlace(places, at('b.py', 10), -1, listed), places[2], 'wraps to the last');
    assert.deepEqual(nextPlace(places, at('a.py', 7), -1, listed), places[2]);
    assert.deepEqual(nextPlace(places, at('a.py', 5), -1, listed), places[0]);
  });

  it('starts at either end outside the snapshot or in a file without places; nothing without places', () => {
    assert.deepEqual(nextPlace(places, undefined, 1, listed), places[1]);
    assert.deepEqual(nextPlace(places, at(undefined, 3), -1, listed), places[2]);
    assert.deepEqual(nextPlace(places, at('c.py', 3), 1, listed), places[1]);
    assert.equal(nextPlace([], at('a.py', 1), 1, listed), undefined);
  });

  it('orders files by path when asked, so any snapshot file has a place among them', () => {
    const byPath = { files: 'path' } as const;
    assert.deepEqual(nextPlace(places, at('a.py', 9), 1, byPath), places[1], 'a.py comes before b.py');
    assert.deepEqual(nextPlace(places, at('ab.py', 1), 1, byPath), places[1]);
    assert.deepEqual(nextPlace(places, at('ab.py', 1), -1, byPath), places[2]);
    assert.deepEqual(nextPlace(places, at('c.py', 1), 1, byPath), places[2], 'past the last file: wraps to the first');
  });

  it('compares where the cursor lands, so a span past the end of its file is not returned to forever', () => {
    const pastEof: Place[] = [
      { path: 'a.py', start: 90, end: 95 },
      { path: 'a.py', start: 20, end: 30 },
    ];
    // a.py has 50 lines: the span at 90 opens at line 50, where the cursor then is.
    const landing = (p: Place): number => Math.min(p.start, 50);
    assert.deepEqual(nextPlace(pastEof, at('a.py', 50), 1, { files: 'listed', landing }), pastEof[1]);
    assert.deepEqual(nextPlace(pastEof, at('a.py', 20), 1, { files: 'listed', landing }), pastEof[0]);
  });
});
