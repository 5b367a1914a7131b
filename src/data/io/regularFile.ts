/**
 * Opening data files safely. A path from a workspace may name a FIFO (a read would block forever),
 * a device (endless bytes) or a directory; such files are refused before any byte is read.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** Thrown for a path that exists but is not a regular file; `ioProblem` words it. */
export class NotRegularFileError extends Error {
  readonly code: 'ENOTREG' | 'EISDIR';

  constructor(filePath: string, isDirectory: boolean) {
    super(`${filePath} is not a regular file`);
    this.code = isDirectory ? 'EISDIR' : 'ENOTREG';
  }
}

/**
 * Opens `filePath` for reading and returns the handle with its size, or throws (errno errors, or
 * {@link NotRegularFileError}). `O_NONBLOCK` makes opening a FIFO without a writer return at once
 * instead of hanging; `fstat` on the open handle then refuses it, with no window in which the
 * path could be swapped between the check and the read. With `noFollow`, a symbolic link is
 * refused too (ELOOP) rather than followed.
 */
export async function openRegularFile(filePath: string, options: { readonly noFollow?: boolean } = {}): Promise<{ handle: FileHandle; size: number; mtimeMs: number }> {
  const handle = await open(filePath, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow === true ? (constants.O_NOFOLLOW ?? 0) : 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(filePath, info.isDirectory());
    return { handle, size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole content of a regular file (see {@link openRegularFile}). */
export async function readRegularFile(filePath: string): Promise<Buffer> {
  const { handle } = await openRegularFile(filePath);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The text of a regular file of at most `maxBytes` bytes, or `undefined` (nothing read) when it is larger. */
export async function readSmallTextFile(filePath: string, maxBytes: number): Promise<string | undefined> {
  const { handle, size } = await openRegularFile(filePath);
  try {
    if (size > maxBytes) return undefined;
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}
