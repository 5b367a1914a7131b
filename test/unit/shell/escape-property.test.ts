/**
 * Properties of the escaping functions over arbitrary strings (full Unicode, controls, Markdown
 * link and codicon syntax): whatever the data, the escaped text cannot form a link, a command URI,
 * a codicon or a second terminal line, and a CSV text cell is never a formula.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { csvNumberCell, csvTextCell, escapeForTerminal, escapeMarkdownText, jsonForTerminal, safeNotificationText } from '../../../src/shared/escape';

/** Pieces that hostile data is made of, mixed with arbitrary Unicode and controls. */
const HOSTILE_PIECES = [
  '[x](command:y)',
  '](',
  '[',
  ']',
  '(',
  ')',
  '$(zap)',
  '$',
  '`',
  '\\',
  '*',
  '_',
  '<a href=x>',
  'command:',
  'https://e.x',
  '\n',
  '\r',
  '\u001b[31m',
  '\u001b]0;t\u0007',
  '\u009b',
  '\u2028',
  '\u202e',
  '\u2066',
  'a.jsonl:1:1: error: forged',
  '=',
  '+',
  '-',
  '@',
  '\t',
];

const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string({ unit: 'grapheme', maxLength: 2 })), maxLength: 12 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x2070 }).map((c) => String.fromCharCode(c)), maxLength: 30 }),
);

const TERMINAL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** True when `text[index]` is preceded by an odd number of backslashes (so it is escaped). */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) backslashes += 1;
  return backslashes % 2 === 1;
}

/** Characters at `index` that are Markdown-active, i.e. not escaped by a backslash. */
function unescapedAt(text: string, pattern: RegExp): number[] {
  const out: number[] = [];
  for (const match of text.matchAll(pattern)) if (!isEscaped(text, match.index)) out.push(match.index);
  return out;
}

describe('escape properties', () => {
  it('(a) Markdown: no unescaped `[`, `]`, `(`, `$`, backtick, `<`, `:` — so no link, command URI, code or codicon', () => {
    fc.assert(
      fc.property(hostileString, (data) => {
        const out = escapeMarkdownText(data);
        assert.deepEqual(unescapedAt(out, /[[\]()$`<>*_:!&|]/g), [], JSON.stringify(out));
        assert.doesNotMatch(out, TERMINAL_UNSAFE);
      }),
      { numRuns: 2000 },
    );
  });

  it('(a) notification / label text: never `](` or `$(`, on its own or joined with message text', () => {
    fc.assert(
      fc.property(hostileString, fc.constantFrom('', '(', '(command:x)', '(zap)'), (data, after) => {
        const out = safeNotificationText(data);
        const joined = `SWE-Explore: [see ${out}${after}`;
        assert.doesNotMatch(joined, /\]\(/);
        assert.doesNotMatch(joined, /\$\(/);
        assert.doesNotMatch(out, TERMINAL_UNSAFE);
      }),
      { numRuns: 2000 },
    );
  });

  it('(b) terminal: no control, separator or bidi character; a problem line stays one line and cannot forge another', () => {
    fc.assert(
      fc.property(hostileString, (data) => {
        const out = escapeForTerminal(data);
        assert.doesNotMatch(out, TERMINAL_UNSAFE);
        for (let i = 0; i < out.length; i++) {
          const code = out.charCodeAt(i);
          assert.ok(code >= 0x20 && !(code >= 0x7f && code <= 0x9f), `char ${code.toString(16)}`);
        }
        const line = `bench.jsonl:3:1: error: snapshot of ${out} not used`;
        assert.equal(line.split(/\r\n|\r|\n|\u2028|\u2029/).length, 1);
        assert.match(line, /^bench\.jsonl:3:1: error: /);
        // The text reads the same once escapes are shown: only unsafe characters changed.
        assert.equal(escapeForTerminal(out), out, 'idempotent on its own output');
      }),
      { numRuns: 2000 },
    );
  });

  it('(b) JSON lines: nothing a terminal interprets, one line, and the same value when parsed', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (id, explorer) => {
        const value = { instance_id: id, explorer };
        const json = jsonForTerminal(value);
        assert.doesNotMatch(json, TERMINAL_UNSAFE);
        assert.deepEqual(JSON.parse(json), value);
      }),
      { numRuns: 2000 },
    );
  });

  it('(c) CSV: a text cell never starts with = + - @ tab CR; only finite numbers may start with -', () => {
    fc.assert(
      fc.property(hostileString, (data) => {
        const cell = csvTextCell(data);
        const content = cell.startsWith('"') ? cell.slice(1) : cell;
        assert.doesNotMatch(content, /^[=+\-@\t\r]/, JSON.stringify(cell));
        // A quoted cell is well formed: inner quotes doubled.
        if (cell.startsWith('"')) assert.doesNotMatch(cell.slice(1, -1), /(^|[^"])"("")*([^"]|$)/);
        else assert.doesNotMatch(cell, /[",\r\n]/);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.constant(undefined)), (value) => {
        const cell = csvNumberCell(value);
        if (/^[=+\-@\t\r]/.test(cell)) assert.ok(Number.isFinite(Number(cell)), cell);
      }),
      { numRuns: 2000 },
    );
  });
});
