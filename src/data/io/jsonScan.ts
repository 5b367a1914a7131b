/**
 * Small JSON scanners for error reporting.
 *
 * `JSON.parse` does the real parsing; these helpers only run on lines that already failed (or on
 * the few records with problems), to turn a failure into a short message with a column, and to
 * find where inside a line a schema problem sits so editors can underline the exact field.
 */

/** A syntax error: 0-based UTF-16 offset into the text, and a short description. */
export interface JsonSyntaxError {
  readonly offset: number;
  readonly message: string;
}

export class ScanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** Deep nesting is legal JSON, but a recursive scanner must stop somewhere. */
// Deep enough for any real record, shallow enough that the recursive scan never exhausts the stack.
const MAX_DEPTH = 1_000;

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function show(text: string, i: number): string {
  if (i >= text.length) return 'end of line';
  const cp = text.codePointAt(i)!;
  const ch = String.fromCodePoint(cp);
  return cp < 0x20 || cp === 0x7f ? `control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : `'${ch}'`;
}

/**
 * A strict RFC 8259 scanner. `scanValue` returns the offset just past the value; with `visit`
 * it also reports object members, which {@link locateJsonPath} and `JsonLocator` use to descend.
 */
export class Scanner {
  constructor(private readonly text: string) {}

  skipWs(i: number): number {
    while (i < this.text.length && isWs(this.text.charCodeAt(i))) i++;
    return i;
  }

  scanValue(i: number, depth: number): number {
    if (depth > MAX_DEPTH) throw new ScanError(i, 'nesting too deep');
    const t = this.text;
    if (i >= t.length) throw new ScanError(i, 'unexpected end of line: value expected');
    const c = t.charCodeAt(i);
    if (c === 0x7b) return this.scanObject(i, depth);
    if (c === 0x5b) return this.scanArray(i, depth);
    if (c === 0x22) return this.scanString(i);
    if (c === 0x2d || isDigit(c)) return this.scanNumber(i);
    for (const word of ['true', 'false', 'null']) {
      if (t.startsWith(word, i)) return i + word.length;
    }
    for (const word of ['NaN', 'Infinity']) {
      if (t.startsWith(word, i)) throw new ScanError(i, `'${word}' is not valid JSON (Python writes it for non-finite floats)`);
    }
    if (c === 0x27) throw new ScanError(i, 'single quotes are not valid JSON (a Python repr instead of json.dumps?)');
    throw new ScanError(i, `unexpected ${show(t, i)}: value expected`);
  }

  /** `visit` may return true to stop early (the return value is then meaningless). */
  scanObject(i: number, depth: number, visit?: (key: string, valueStart: number) => boolean): number {
    const t = this.text;
    i = this.skipWs(i + 1);
    if (t.charCodeAt(i) === 0x7d) return i + 1;
    for (;;) {
      if (t.charCodeAt(i) !== 0x22) {
        throw new ScanError(i, i >= t.length ? 'unexpected end of line inside an object' : `unexpected ${show(t, i)}: property name in double quotes expected`);
      }
      const keyStart = i;
      const keyEnd = this.scanString(i);
      i = this.skipWs(keyEnd);
      if (t.charCodeAt(i) !== 0x3a) throw new ScanError(i, `unexpected ${show(t, i)}: ':' expected after property name`);
      const valueStart = this.skipWs(i + 1);
      if (visit !== undefined && visit(JSON.parse(t.slice(keyStart, keyEnd)) as string, valueStart)) return valueStart;
      i = this.skipWs(this.scanValue(valueStart, depth + 1));
      const c = t.charCodeAt(i);
      if (c === 0x7d) return i + 1;
      if (c !== 0x2c) {
        throw new ScanError(i, i >= t.length ? 'unexpected end of line inside an object' : `unexpected ${show(t, i)}: ',' or '}' expected`);
      }
      i = this.skipWs(i + 1);
      if (t.charCodeAt(i) === 0x7d) throw new ScanError(i, "trailing comma before '}'");
    }
  }

  scanArray(i: number, depth: number, visit?: (index: number, valueStart: number) => boolean): number {
    const t = this.text;
    i = this.skipWs(i + 1);
    if (t.charCodeAt(i) === 0x5d) return i + 1;
    for (let index = 0; ; index++) {
      if (visit !== undefined && visit(index, i)) return i;
      i = this.skipWs(this.scanValue(i, depth + 1));
      const c = t.charCodeAt(i);
      if (c === 0x5d) return i + 1;
      if (c !== 0x2c) {
        throw new ScanError(i, i >= t.length ? 'unexpected end of line inside an array' : `unexpected ${show(t, i)}: ',' or ']' expected`);
      }
      i = this.skipWs(i + 1);
      if (t.charCodeAt(i) === 0x5d) throw new ScanError(i, "trailing comma before ']'");
    }
  }

  scanString(i: number): number {
    const t = this.text;
    const start = i;
    i += 1;
    for (;;) {
      if (i >= t.length) throw new ScanError(start, 'unterminated string');
      const c = t.charCodeAt(i);
      if (c === 0x22) return i + 1;
      if (c < 0x20) throw new ScanError(i, `${show(t, i)} must be escaped inside a string`);
      if (c === 0x5c) {
        const e = t.charCodeAt(i + 1);
        if (e === 0x75) {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) throw new ScanError(i, 'invalid \\u escape');
          i += 6;
        } else if ('"\\/bfnrt'.includes(t.charAt(i + 1)) && i + 1 < t.length) {
          i += 2;
        } else throw new ScanError(i, `invalid escape ${i + 1 < t.length ? `'\\${t.charAt(i + 1)}'` : 'at end of line'}`);
      } else i += 1;
    }
  }

  scanNumber(i: number): number {
    const t = this.text;
    const start = i;
    if (t.charCodeAt(i) === 0x2d) i++;
    if (t.startsWith('Infinity', i)) throw new ScanError(start, "'-Infinity' is not valid JSON (Python writes it for non-finite floats)");
    if (t.charCodeAt(i) === 0x30) i++;
    else if (isDigit(t.charCodeAt(i))) while (isDigit(t.charCodeAt(i))) i++;
    else throw new ScanError(i, `invalid number: digit expected, got ${show(t, i)}`);
    if (t.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(t.charCodeAt(i))) throw new ScanError(i, 'invalid number: digit expected after the decimal point');
      while (isDigit(t.charCodeAt(i))) i++;
    }
    const e = t.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const s = t.charCodeAt(i);
      if (s === 0x2b || s === 0x2d) i++;
      if (!isDigit(t.charCodeAt(i))) throw new ScanError(i, 'invalid number: digit expected in the exponent');
      while (isDigit(t.charCodeAt(i))) i++;
    }
    return i;
  }
}

/**
 * Where and why `text` is not valid JSON, or `undefined` when it is. Messages are short and never
 * quote the whole input (V8's own messages embed the full line, which can be megabytes).
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const scanner = new Scanner(text);
  try {
    const start = scanner.skipWs(0);
    if (start >= text.length) return { offset: 0, message: 'empty input' };
    const end = scanner.skipWs(scanner.scanValue(start, 0));
    if (end < text.length) return { offset: end, message: `unexpected ${show(text, end)} after the JSON value` };
    return undefined;
  } catch (error) {
    if (error instanceof ScanError) return { offset: error.offset, message: error.message };
    throw error;
  }
}

/**
 * 0-based offset of the value at `path` inside the JSON `text` (a line that `JSON.parse`
 * accepted). When the path leads to a missing key or index, returns the offset of the deepest
 * existing ancestor, so a "missing field" problem points at the object that lacks it.
 *
 * Scanning stops at the first match, so locating a field near the start of a large record is
 * cheap; with duplicate keys this points at the first one (`JSON.parse` keeps the last), which
 * is close enough for an editor location.
 */
export function locateJsonPath(text: string, path: readonly PropertyKey[]): number | undefined {
  const scanner = new Scanner(text);
  try {
    let at = scanner.skipWs(0);
    for (const key of path) {
      const c = text.charCodeAt(at);
      let found: number | undefined;
      if (c === 0x7b && typeof key === 'string') {
        scanner.scanObject(at, 0, (k, valueStart) => {
          if (k === key) found = valueStart;
          return found !== undefined;
        });
      } else if (c === 0x5b && typeof key === 'number') {
        scanner.scanArray(at, 0, (index, valueStart) => {
          if (index === key) found = valueStart;
          return found !== undefined;
        });
      }
      if (found === undefined) return at;
      at = found;
    }
    return at;
  } catch {
    return undefined;
  }
}

/**
 * Replaces Python's non-standard `NaN`, `Infinity` and `-Infinity` tokens outside strings with
 * `null`. Returns `undefined` when there was nothing to replace, so callers only re-parse (and
 * warn) when the substitution could matter.
 */
export function replaceNonFiniteTokens(text: string): string | undefined {
  let out = '';
  let last = 0;
  let inString = false;
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    let len = 0;
    if (text.startsWith('NaN', i)) len = 3;
    else if (text.startsWith('Infinity', i)) len = 8;
    else if (text.startsWith('-Infinity', i)) len = 9;
    if (len > 0) {
      out += `${text.slice(last, i)}null`;
      i += len - 1;
      last = i + 1;
      changed = true;
    }
  }
  return changed ? out + text.slice(last) : undefined;
}
