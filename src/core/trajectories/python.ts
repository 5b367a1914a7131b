/**
 * The few Python built-ins the benchmark's builder (`bench_build.py`) leans on, re-implemented with
 * Python's semantics where JavaScript's differ, so that the read extraction gives the builder's
 * output bit for bit (../shared/trajectories.md §1):
 *
 * - whitespace is `str.isspace()` (and `re`'s `\s` for str patterns): JavaScript's `\s` and `trim`
 *   also take U+FEFF but miss U+001C–U+001F and U+0085;
 * - `str.split()`, `str.strip()`, `str.splitlines()` with those characters;
 * - `re`'s `\d` for str patterns is any Unicode decimal digit (`\p{Nd}`), and `int()` reads such
 *   digits, a sign and `_` between digits;
 * - `str(value)` of a JSON value (the builder's message-text rule for non-string content), which
 *   prints dicts, lists, numbers, booleans and None the way Python's `repr` does;
 * - `sorted()` on strings compares code points, not UTF-16 code units;
 * - `json.dumps(..., ensure_ascii=False)` layout (`", "` and `": "` separators).
 */

/** The characters of `str.isspace()` (= `\s` of Python's `re` on str patterns), as a class body. */
export const PY_WHITESPACE_CLASS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const IS_SPACE = new RegExp(`[${PY_WHITESPACE_CLASS}]`);
const SPACE_RUN = new RegExp(`[${PY_WHITESPACE_CLASS}]+`);
const LEADING_SPACE = new RegExp(`^[${PY_WHITESPACE_CLASS}]+`);
const TRAILING_SPACE = new RegExp(`[${PY_WHITESPACE_CLASS}]+$`);

/** `c.isspace()` for one character. */
export function isPySpace(character: string): boolean {
  return IS_SPACE.test(character);
}

/** `text.strip()` (no argument): Python whitespace removed from both ends. */
export function pyStrip(text: string): string {
  return text.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
}

/** `text.strip(chars)`: every character of `chars` removed from both ends. */
export function pyStripChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** `text.rstrip(chars)`. */
export function pyRstripChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text.lstrip(chars)`. */
export function pyLstripChars(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start]!)) start++;
  return start === 0 ? text : text.slice(start);
}

/** `text.split()` (no argument): runs of Python whitespace separate words; no empty words. */
export function pySplitWords(text: string): string[] {
  const stripped = pyStrip(text);
  return stripped === '' ? [] : stripped.split(SPACE_RUN);
}

/** `text.splitlines()`: breaks at `\n`, `\r`, `\r\n`, `\v`, `\f`, `\x1c`–`\x1e`, U+0085, U+2028, U+2029. */
export function pySplitLines(text: string): string[] {
  const lines: string[] = [];
  const breaks = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/g;
  let last = 0;
  for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
    lines.push(text.slice(last, match.index));
    last = match.index + match[0].length;
  }
  if (last < text.length) lines.push(text.slice(last));
  return lines;
}

const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * The value of one Unicode decimal digit (category Nd). Unicode guarantees that Nd characters come
 * in contiguous runs of ten starting at the digit zero, so the value is the distance to the start
 * of the run, modulo 10 (runs can be adjacent, as for the mathematical digits).
 */
function digitValue(codePoint: number): number {
  if (codePoint >= 0x30 && codePoint <= 0x39) return codePoint - 0x30;
  let first = codePoint;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(first - 1))) first--;
  return (codePoint - first) % 10;
}

/** A run of Unicode decimal digits (what `\d+` of Python's `re` matched) as a number. */
export function pyDigitsValue(digits: string): number {
  let value = 0;
  for (const character of digits) value = value * 10 + digitValue(character.codePointAt(0)!);
  return value;
}

const PY_INT_LITERAL = new RegExp(`^[${PY_WHITESPACE_CLASS}]*([+-]?)(\\p{Nd}+(?:_\\p{Nd}+)*)[${PY_WHITESPACE_CLASS}]*$`, 'u');

/**
 * `int(text)` for a string: optional whitespace, an optional sign, decimal digits (any script)
 * with single underscores between them. `undefined` where Python raises `ValueError`. Values past
 * 2^53 lose precision (Python's are exact); no real line number gets there.
 */
export function pyIntOfString(text: string): number | undefined {
  const match = PY_INT_LITERAL.exec(text);
  if (match === null) return undefined;
  const value = pyDigitsValue(match[2]!.replace(/_/g, ''));
  return match[1] === '-' ? -value : value;
}

/**
 * `int(value)` for a JSON value: integers as they are, floats truncated toward zero, booleans 0/1,
 * strings as {@link pyIntOfString}. `undefined` where Python raises (`None`, lists, dicts, bad
 * strings).
 */
export function pyInt(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) + 0 : undefined;
  if (typeof value === 'string') return pyIntOfString(value);
  return undefined;
}

/** Python's `bool(value)` for a JSON value. */
export function pyTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Characters `repr` shows escaped: not printable per `str.isprintable()` (space is printable). */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr` of a string. */
export function pyReprString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const character of text) {
    if (character === quote || character === '\\') out += `\\${character}`;
    else if (character === '\t') out += '\\t';
    else if (character === '\n') out += '\\n';
    else if (character === '\r') out += '\\r';
    else if (character !== ' ' && NOT_PRINTABLE.test(character)) {
      const code = character.codePointAt(0)!;
      out += code < 0x100 ? `\\x${hex(code, 2)}` : code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
    } else out += character;
  }
  return out + quote;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/**
 * Python's `repr` of a number read from JSON. JSON does not tell an integer `1` from a float `1.0`
 * once parsed; safe integers print as Python ints, everything else as Python floats (shortest
 * round-trip digits, scientific notation from 1e16 and below 1e-4, exponent with a sign and at
 * least two digits, `.0` on integral fixed-point values).
 */
export function pyReprNumber(value: number): string {
  if (Number.isSafeInteger(value)) return String(value + 0);
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]!}${fraction}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integer = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${integer}.${fraction === '' ? '0' : fraction}`;
}

/**
 * Nesting past this depth is shown as `...`: Python's own `repr` would raise `RecursionError`
 * there (and the builder would stop), and a recursive printer must not exhaust the stack on
 * hostile input.
 */
const MAX_REPR_DEPTH = 200;

/**
 * Python's `repr` of a JSON value (`None`, `True`, ints, floats, strings, lists, dicts in key
 * order). Differences that JSON parsing makes unavoidable: integer-like object keys come first
 * (JavaScript orders them so), and `1.0` prints as `1` (see {@link pyReprNumber}).
 */
export function pyRepr(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pyReprNumber(value);
  if (typeof value === 'string') return pyReprString(value);
  if (depth >= MAX_REPR_DEPTH) return '...';
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) parts.push(pyRepr(item, depth + 1));
    return `[${parts.join(', ')}]`;
  }
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const [key, item] of Object.entries(value)) parts.push(`${pyReprString(key)}: ${pyRepr(item, depth + 1)}`);
    return `{${parts.join(', ')}}`;
  }
  return pyReprString(String(value));
}

/** Python's `str(value)` of a JSON value: a string as it is, anything else as {@link pyRepr}. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

/** Python's ordering of strings (`sorted`, `<`): by code point, which UTF-16 order breaks above U+D7FF. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only when a surrogate meets a unit in U+E000–U+FFFF does UTF-16 order differ from code-point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (xs ? y >= 0xe000 : x >= 0xe000)) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * A value laid out as Python's `json.dumps(value, ensure_ascii=False)` writes it: `", "` between
 * items, `": "` after keys, strings and numbers as `JSON.stringify` writes them (the same escapes
 * for these inputs). Objects are given as `[key, value]` entry lists ({@link JsonObjectEntries}) so
 * that key order is exactly the builder's even for integer-like keys, which a JavaScript object
 * would reorder.
 */
export function pyJsonDumps(value: PyJsonValue): string {
  if (value instanceof JsonObjectEntries) {
    const parts: string[] = [];
    for (const [key, item] of value.entries) parts.push(`${JSON.stringify(key)}: ${pyJsonDumps(item)}`);
    return `{${parts.join(', ')}}`;
  }
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) parts.push(pyJsonDumps(item));
    return `[${parts.join(', ')}]`;
  }
  return JSON.stringify(value);
}

/** An ordered JSON object for {@link pyJsonDumps}. */
export class JsonObjectEntries {
  constructor(readonly entries: ReadonlyArray<readonly [string, PyJsonValue]>) {}
}

export type PyJsonValue = string | number | boolean | null | JsonObjectEntries | readonly PyJsonValue[];
