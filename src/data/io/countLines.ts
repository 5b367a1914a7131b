/**
 * Line counting under the official evaluator's rule (metrics-spec §2), over bytes, in one pass.
 * {@link LineCounter} takes a file chunk by chunk with a few bytes of state carried across chunk
 * boundaries (an unfinished UTF-8 character, a `\r` awaiting a possible `\n`), so a file of any
 * size is counted in constant memory and exactly as {@link countLines} counts the whole buffer.
 */

/**
 * Length of the UTF-8 character starting at `buf[i]` (2–4), or, when the bytes there are not a
 * valid character, the negated number of bytes the decoder drops before resuming. Python drops the
 * maximal ill-formed subpart (the lead byte plus the continuation bytes that were still plausible)
 * and resumes at the first byte that broke the sequence, as WHATWG decoders do. `0` when the
 * buffer ends inside a still-plausible character and more bytes may follow (`final` false).
 */
function utf8Step(buf: Uint8Array, i: number, n: number, final: boolean): number {
  const b = buf[i]!;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) need = 1;
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    // E0 would be overlong below A0; ED above 9F would encode a surrogate.
    if (b === 0xe0) lo = 0xa0;
    else if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    // F0 below 90 is overlong; F4 above 8F is beyond U+10FFFF.
    if (b === 0xf0) lo = 0x90;
    else if (b === 0xf4) hi = 0x8f;
  } else return -1; // stray continuation byte, C0/C1 (always overlong) or F5..FF
  for (let k = 1; k <= need; k++) {
    if (i + k >= n) return final ? -k : 0;
    const c = buf[i + k]!;
    if (c < lo || c > hi) return -k;
    // Only the second byte has a narrowed range.
    lo = 0x80;
    hi = 0xbf;
  }
  return need + 1;
}

/**
 * Which characters end a line: `splitlines` (the evaluator's rule, see {@link countLines}) or
 * `universal-newlines` (iterating a file opened in text mode, as the benchmark's builder counts
 * lines to resolve `end = -1`: only `\n`, `\r` and `\r\n`).
 */
export type LineBreakRule = 'splitlines' | 'universal-newlines';

/** Counts lines of bytes fed in order (see {@link countLines} for the rule). */
export class LineCounter {
  constructor(private readonly rule: LineBreakRule = 'splitlines') {}

  private breaks = 0;
  /** Whether a decoded character follows the last break (the unterminated last line). */
  private tail = false;
  /** Whether the last decoded character was '\r': a '\n' right after it is the same break. */
  private afterCR = false;
  /** Bytes of a character cut by the chunk boundary (at most 3), decoded with the next chunk. */
  private carry: Uint8Array = new Uint8Array(0);

  /** Takes the next bytes of the file. The buffer is not kept after the call returns. */
  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.carry.length > 0) {
      // Only a few bytes are carried; joining costs one copy of this chunk at most.
      buf = new Uint8Array(this.carry.length + chunk.length);
      buf.set(this.carry, 0);
      buf.set(chunk, this.carry.length);
      this.carry = new Uint8Array(0);
    }
    const stop = this.scan(buf, false);
    // A copy: callers reuse their read buffer (and `Buffer#slice` would be a view of it).
    if (stop < buf.length) this.carry = Uint8Array.from(buf.subarray(stop));
  }

  /** The number of lines, once every byte has been pushed. */
  finish(): number {
    if (this.carry.length > 0) {
      const rest = this.carry;
      this.carry = new Uint8Array(0);
      this.scan(rest, true);
    }
    return this.breaks + (this.tail ? 1 : 0);
  }

  /** Scans `buf`; returns where it stopped (before an unfinished character unless `final`). */
  private scan(buf: Uint8Array, final: boolean): number {
    const n = buf.length;
    const universal = this.rule === 'universal-newlines';
    let { breaks, tail, afterCR } = this;
    let i = 0;
    while (i < n) {
      const b = buf[i]!;
      if (b < 0x80) {
        i += 1;
        if (b >= 0x20 || (b !== 0x0a && b !== 0x0d && (universal || (b !== 0x0b && b !== 0x0c && (b < 0x1c || b > 0x1e))))) {
          tail = true;
          afterCR = false;
        } else if (b === 0x0a) {
          if (!afterCR) breaks += 1;
          afterCR = false;
          tail = false;
        } else {
          // \r, \v, \f, \x1c, \x1d, \x1e
          breaks += 1;
          afterCR = b === 0x0d;
          tail = false;
        }
        continue;
      }
      const step = utf8Step(buf, i, n, final);
      if (step === 0) break;
      if (step < 0) {
        // Dropped bytes decode to nothing: they neither end a line nor start one, and they do not
        // separate a '\r' from a following '\n'.
        i -= step;
        continue;
      }
      const isBreak = !universal && ((step === 2 && b === 0xc2 && buf[i + 1] === 0x85) || (step === 3 && b === 0xe2 && buf[i + 1] === 0x80 && (buf[i + 2] === 0xa8 || buf[i + 2] === 0xa9)));
      if (isBreak) {
        breaks += 1;
        tail = false;
      } else tail = true;
      afterCR = false;
      i += step;
    }
    this.breaks = breaks;
    this.tail = tail;
    this.afterCR = afterCR;
    return i;
  }
}

/**
 * Number of lines in a file's bytes under the official evaluator's rule: UTF-8 decoding with
 * undecodable bytes dropped, universal newlines, then the number of elements of Python's
 * `str.splitlines()`.
 *
 * Count = number of line breaks + 1 if any character follows the last break. Breaks are `\n`,
 * `\r`, `\r\n` (one break, even when only dropped bytes separate the two), `\v`, `\f`, `\x1c`,
 * `\x1d`, `\x1e`, U+0085 (bytes C2 85), U+2028 and U+2029. A trailing break adds no line; an empty
 * file, or one whose bytes all fail to decode, counts 0. A UTF-8 BOM is an ordinary character
 * (Python's `utf-8` codec keeps it), so a file holding only a BOM has one line.
 *
 * Scans the bytes once without building a string; {@link LineCounter} does the same in chunks.
 * With `rule = 'universal-newlines'` only `\n`, `\r` and `\r\n` end a line (the builder's count).
 */
export function countLines(buf: Uint8Array, rule: LineBreakRule = 'splitlines'): number {
  const counter = new LineCounter(rule);
  counter.push(buf);
  return counter.finish();
}
