import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findJsonSyntaxError, locateJsonPath, replaceNonFiniteTokens } from '../../../src/data/io/jsonScan';

describe('findJsonSyntaxError', () => {
  it('accepts exactly what JSON.parse accepts', () => {
    const accepts = (s: string): boolean => {
      try {
        JSON.parse(s);
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(fc.property(fc.json(), (s) => findJsonSyntaxError(s) === undefined));
    // Mutated JSON: delete or insert a character somewhere.
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('', ',', '"', '}', ']', ':', '\\', '-', '0', ' ', '\n', 'x'), (s, at, ch) => {
        const i = at % (s.length + 1);
        const mutated = s.slice(0, i) + ch + s.slice(i + (ch === '' ? 1 : 0));
        return (findJsonSyntaxError(mutated) === undefined) === accepts(mutated);
      }),
      { numRuns: 3000 },
    );
  });

  const cases: Array<[string, number, RegExp]> = [
    ['{"a":}', 5, /value expected/],
    ['{"a":1', 6, /end of line inside an object/],
    ['{a:1}', 1, /property name/],
    ['[1,]', 3, /trailing comma/],
    ['{"a":1} x', 8, /after the JSON value/],
    ['', 0, /empty/],
    ['{"a":"x', 5, /unterminated string/],
    ['{"a": NaN}', 6, /NaN/],
    ["{'a': 1}", 1, /single quotes|property name/],
    ['{"a": 01}', 7, /',' or '}'/],
    ['{"a": "\t"}', 7, /escaped/],
    ['{"a": "\\x"}', 7, /invalid escape/],
  ];
  for (const [text, offset, message] of cases) {
    it(`locates ${JSON.stringify(text)}`, () => {
      const e = findJsonSyntaxError(text);
      assert.ok(e !== undefined);
      assert.equal(e.offset, offset);
      assert.match(e.message, message);
    });
  }

  it('keeps messages short on huge lines', () => {
    const e = findJsonSyntaxError(`{"a":"${'x'.repeat(100_000)}",}`);
    assert.ok(e !== undefined && e.message.length < 200);
  });
});

describe('locateJsonPath', () => {
  const text = '{"instance_id": "x", "ground_truth": {"read_core_regions": [{"path": "a", "start": 1, "end": 2}, {"path": "b", "start": 3, "end": 4.5}]}, "m": {"a/b": [1]}}';
  it('finds nested values', () => {
    const at = locateJsonPath(text, ['ground_truth', 'read_core_regions', 1, 'end']);
    assert.equal(text.slice(at, at! + 3), '4.5');
    const m = locateJsonPath(text, ['m', 'a/b', 0]);
    assert.equal(text.charAt(m!), '1');
  });
  it('falls back to the deepest existing ancestor', () => {
    const at = locateJsonPath(text, ['ground_truth', 'read_core_regions', 5, 'end']);
    assert.equal(text.charAt(at!), '[');
    assert.equal(locateJsonPath(text, ['missing']), 0);
  });
  it('stops at the first occurrence of a key', () => {
    const t = '{"a": 1, "a": 2}';
    assert.equal(t.charAt(locateJsonPath(t, ['a'])!), '1');
  });
  it('handles escaped keys and leading whitespace', () => {
    const t = '  {"a\\"b": {"c": true}}';
    assert.equal(t.slice(locateJsonPath(t, ['a"b', 'c'])!, locateJsonPath(t, ['a"b', 'c'])! + 4), 'true');
  });
  it('returns undefined when it runs into invalid JSON', () => {
    assert.equal(locateJsonPath('{"a": [1,', ['b']), undefined);
  });
});

describe('replaceNonFiniteTokens', () => {
  it('replaces tokens outside strings only', () => {
    assert.equal(replaceNonFiniteTokens('{"a": NaN, "b": "NaN", "c": [Infinity, -Infinity], "d": "x\\"NaN"}'), '{"a": null, "b": "NaN", "c": [null, null], "d": "x\\"NaN"}');
  });
  it('returns undefined when nothing changes', () => {
    assert.equal(replaceNonFiniteTokens('{"a": "NaN"}'), undefined);
  });
});
