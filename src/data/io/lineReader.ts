/**
 * Streaming line splitter over a file's bytes.
 *
 * Lines are cut on `\n` bytes before any decoding (a `\n` byte never occurs inside a multi-byte
 * UTF-8 character), so memory is bounded by the longest accepted line, not the file. A line longer
 * than the limit is not kept at all: its bytes are counted and dropped as they stream past, and it
 * is reported by number so every other line still loads.
 *
 * Decoding is the expensive part at benchmark scale (one decode per line cost more than parsing),
 * so for a visitor that takes decoded text the complete lines of a read chunk are decoded in one go
 * when they are all ASCII — what JSON writers produce by default — and handed over as slices of that
 * one string; other lines are handed over as bytes, for the visitor to decode and check.
 */
import { isAscii } from 'node:buffer';
import { openRegularFile } from './regularFile';

/** Lines longer than this many bytes (terminator excluded) are skipped by default. */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

/** Bytes requested per read; one buffer of this size is reused for the whole file. */
const READ_CHUNK_BYTES = 1 << 20;

export interface LineReadOptions {
  /** Longest line kept, in bytes without the `\n`; longer ones go to {@link LineVisitor.tooLong}. */
  readonly maxLineBytes?: number;
  /** Refuse a symbolic link (ELOOP) instead of following it. */
  readonly noFollow?: boolean;
}

export interface LineVisitor {
  /**
   * One line's bytes without the `\n` (a `\r` before it stays). The buffer may be reused once the
   * call returns, so it must be consumed (decoded or copied) synchronously. A returned promise is
   * awaited before the next read (a writer's back-pressure).
   */
  line(bytes: Buffer, line: number, terminated: boolean): void | Promise<void>;
  /**
   * When given: a line known to be ASCII (so valid UTF-8, and as many bytes as characters), already
   * decoded, in place of {@link LineVisitor.line}. A returned promise is awaited likewise.
   */
  asciiLine?(text: string, line: number, terminated: boolean): void | Promise<void>;
  /** A line over the limit, with its full length in bytes; its content was never held. */
  tooLong(line: number, bytes: number, limit: number): void;
}

/**
 * Feeds the lines of `text` (ASCII, every line terminated: the last one by the `\n` just past its
 * end) to `visitor.asciiLine` as slices of it, numbered from `line`; resolves to the next number.
 */
async function feedAsciiLines(text: string, line: number, limit: number, visitor: LineVisitor): Promise<number> {
  let from = 0;
  for (;;) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    if (end - from > limit) visitor.tooLong(line, end - from, limit);
    else {
      const pending = visitor.asciiLine!(text.slice(from, end), line, true);
      if (pending !== undefined) await pending;
    }
    line += 1;
    if (nl === -1) return line;
    from = nl + 1;
  }
}

/**
 * Feeds every line of the regular file `filePath` to `visitor`, in order. Throws when the file
 * cannot be opened or is not a regular file (see `openRegularFile`); nothing was fed then.
 */
export async function readLines(filePath: string, visitor: LineVisitor, options: LineReadOptions = {}): Promise<void> {
  const limit = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const { handle } = await openRegularFile(filePath, { noFollow: options.noFollow === true });
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    // The current line so far: copied pieces from earlier chunks, and its total byte length.
    let pieces: Buffer[] = [];
    let length = 0;
    let oversized = false;
    let line = 1;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      // Where the chunk's last complete line ends: the lines before it may be decoded at once,
      // tried once per chunk, from the first line that starts in it (a chunk holding a non-ASCII
      // byte goes line by line).
      const lastNewline = visitor.asciiLine === undefined ? -1 : chunk.lastIndexOf(0x0a);
      let bulkTried = false;
      let i = 0;
      while (i < bytesRead) {
        if (length === 0 && !bulkTried && i < lastNewline) {
          bulkTried = true;
          if (isAscii(chunk.subarray(i, lastNewline))) {
            line = await feedAsciiLines(chunk.toString('latin1', i, lastNewline), line, limit, visitor);
            i = lastNewline + 1;
            continue;
          }
        }
        const nl = chunk.indexOf(0x0a, i);
        const end = nl === -1 ? bytesRead : nl;
        length += end - i;
        if (!oversized && length > limit) {
          oversized = true;
          pieces = [];
        }
        if (nl === -1) {
          // The line continues in the next chunk; the buffer is reused, so keep a copy.
          if (!oversized) pieces.push(Buffer.from(chunk.subarray(i, end)));
          break;
        }
        let pending: void | Promise<void> = undefined;
        if (oversized) visitor.tooLong(line, length, limit);
        else if (pieces.length === 0) pending = visitor.line(chunk.subarray(i, end), line, true);
        else {
          pieces.push(chunk.subarray(i, end));
          pending = visitor.line(Buffer.concat(pieces, length), line, true);
        }
        // The chunk is only refilled by the next read, so the rest of it stays valid meanwhile.
        if (pending !== undefined) await pending;
        pieces = [];
        length = 0;
        oversized = false;
        line += 1;
        i = nl + 1;
      }
    }
    if (oversized) visitor.tooLong(line, length, limit);
    else if (length > 0) await visitor.line(Buffer.concat(pieces, length), line, false);
  } finally {
    await handle.close();
  }
}
