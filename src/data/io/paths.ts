/**
 * Path safety for snapshot access.
 *
 * Region paths come from data files we do not trust (bench records, explorer output, agent
 * answers). Before any file is read they are resolved here: absolute paths and `..` segments that
 * leave the root are refused lexically, and symlinks are resolved with `realpath` and refused when
 * their target lies outside the root's own real path — the target is never opened in that case.
 * For the files this tool writes (audit log, exports), {@link checkFolderChain} refuses a folder on
 * the way that is a link.
 */
import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';

/** Why a path was refused or could not be used. */
export type ResolveFailure = 'absolute' | 'escapes-root' | 'symlink-escape' | 'missing' | 'not-a-file';

export type ResolveResult =
  | {
      readonly ok: true;
      /**
       * The real path after symlink resolution: the one path that was checked, always inside the
       * root's real path, and therefore the only one to open. (A lexically normalised path would
       * differ from it for `link/../x` and could name a file that was never checked.)
       */
      readonly real: string;
    }
  | { readonly ok: false; readonly reason: ResolveFailure };

/** Human wording of a {@link ResolveFailure}, for problem messages and UI. */
export const RESOLVE_FAILURE_TEXT: Readonly<Record<ResolveFailure, string>> = {
  absolute: 'is an absolute path',
  'escapes-root': "leaves the snapshot root through '..'",
  'symlink-escape': 'is a symlink that points outside the snapshot root',
  missing: 'does not exist in the snapshot',
  'not-a-file': 'is not a regular file',
};

/**
 * True for paths that are absolute on POSIX *or* Windows. Data written on one platform is read on
 * the other, so `C:\x`, `\\server\share` and `/x` are all refused everywhere.
 */
export function isAbsoluteAnywhere(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:/.test(p) || path.isAbsolute(p);
}

/**
 * Lexical check only (no file system access): `undefined` when `regionPath` stays inside `root`,
 * else why not. Backslashes count as separators here even on POSIX, so `..\..\x` is refused on
 * every platform; an empty path or `.` is the root itself and therefore not a file.
 */
export function lexicalFailure(regionPath: string): ResolveFailure | undefined {
  if (isAbsoluteAnywhere(regionPath)) return 'absolute';
  // A NUL byte would make the OS call throw; no real file name contains one.
  if (regionPath.includes('\0')) return 'missing';
  let depth = 0;
  for (const segment of regionPath.split(/[\\/]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      depth -= 1;
      if (depth < 0) return 'escapes-root';
    } else depth += 1;
  }
  return undefined;
}

/** True when absolute path `child` is `parent` itself or lies below it (both already real paths). */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  // `..foo` is a legal name inside the parent; only a whole `..` segment leaves it.
  return rel === '' || (!path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`));
}

/** The `code` of a Node.js system error (`ENOENT`, `ELOOP`, …), if any. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/**
 * Resolves a region path against a snapshot root.
 *
 * Refused (never followed): absolute paths, `..` escaping the root, and paths whose real path
 * (after resolving every symlink) is outside the root's real path. A path inside the root that does
 * not exist (including a dangling symlink) is `missing`; a directory or device is `not-a-file`.
 * `..` that stays inside (`a/../b.py`) is fine.
 */
export async function resolveInSnapshot(root: string, regionPath: string): Promise<ResolveResult> {
  const lexical = lexicalFailure(regionPath);
  if (lexical !== undefined) return { ok: false, reason: lexical };
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  let real: string;
  try {
    // Resolve the joined string, not the normalised one, so `link/../x` follows `link` first as
    // the OS (and Python's `Path.resolve`) would.
    real = await realpath(`${root}${path.sep}${regionPath}`);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      // Missing inside the root — unless a symlink on the way already left it; tell those apart
      // so an outside target is reported as the security problem it is.
      return { ok: false, reason: (await leavesRootOnTheWay(root, realRoot, regionPath)) ? 'symlink-escape' : 'missing' };
    }
    if (code === 'ELOOP') return { ok: false, reason: 'symlink-escape' };
    return { ok: false, reason: 'missing' };
  }
  if (!isWithin(realRoot, real)) return { ok: false, reason: 'symlink-escape' };
  try {
    const info = await stat(real);
    if (!info.isFile()) return { ok: false, reason: 'not-a-file' };
  } catch {
    return { ok: false, reason: 'missing' };
  }
  return { ok: true, real };
}

/** Walks the path prefixes of a missing path and reports whether one resolves outside the root. */
async function leavesRootOnTheWay(root: string, realRoot: string, regionPath: string): Promise<boolean> {
  const segments = regionPath.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
  let prefix = root;
  for (const segment of segments) {
    prefix = `${prefix}${path.sep}${segment}`;
    try {
      if (!isWithin(realRoot, await realpath(prefix))) return true;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * Resolves an instance's snapshot folder (`repo_dir`, e.g. `repos/<instance_id>`) against the
 * repos root with the same rules as {@link resolveInSnapshot}, but expecting a directory.
 */
export async function resolveSnapshotDir(reposRoot: string, repoDir: string): Promise<ResolveResult> {
  const lexical = lexicalFailure(repoDir);
  if (lexical !== undefined) return { ok: false, reason: lexical };
  let realRoot: string;
  let real: string;
  try {
    realRoot = await realpath(reposRoot);
    real = await realpath(`${reposRoot}${path.sep}${repoDir}`);
  } catch (error) {
    return { ok: false, reason: errnoCode(error) === 'ELOOP' ? 'symlink-escape' : 'missing' };
  }
  // The repos folder itself may be a symlink (snapshots often live on another disk), but the
  // instance folder must stay inside its real path.
  if (!isWithin(realRoot, real)) return { ok: false, reason: 'symlink-escape' };
  try {
    if (!(await stat(real)).isDirectory()) return { ok: false, reason: 'missing' };
  } catch {
    return { ok: false, reason: 'missing' };
  }
  return { ok: true, real };
}

/**
 * Finds an instance's snapshot folder under `reposRoot`. Tries `repoDir` (the record's
 * `repo_dir`, default `repos/<instanceId>` as in the release), then its last segment directly
 * under the root, so pointing the root at the `repos/` folder itself works too. A refused path
 * (absolute, escaping) is reported as such and not retried.
 */
export async function locateSnapshot(reposRoot: string, instanceId: string, repoDir?: string | null): Promise<ResolveResult> {
  const given = repoDir !== undefined && repoDir !== null && repoDir !== '' ? repoDir : `repos/${instanceId}`;
  const first = await resolveSnapshotDir(reposRoot, given);
  if (first.ok || first.reason !== 'missing') return first;
  const last = given
    .split(/[\\/]/)
    .filter((s) => s !== '' && s !== '.')
    .pop();
  if (last === undefined || last === '..' || last === given) return first;
  const second = await resolveSnapshotDir(reposRoot, last);
  return second.ok ? second : first;
}

/** What a non-regular directory entry is, for messages. */
export function kindOf(info: { isSymbolicLink(): boolean; isFIFO(): boolean; isDirectory(): boolean; isSocket(): boolean }): string {
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isDirectory()) return 'a folder';
  if (info.isSocket()) return 'a socket';
  return 'a device or other special file';
}

/**
 * Checks every component of `dir` below `root` with `lstat` (never following a link): each must
 * be a real folder. With `create`, missing components are made one by one (never through a link).
 * Returns the first component that is a link or not a folder, or `missing` when `dir` does not
 * exist and `create` is off.
 */
export async function checkFolderChain(root: string, dir: string, create: boolean): Promise<{ readonly ok: true } | { readonly ok: false; readonly missing: boolean; readonly message: string }> {
  const relative = path.relative(path.resolve(root), path.resolve(dir));
  if (relative.startsWith('..') || path.isAbsolute(relative)) return { ok: false, missing: false, message: `${dir} is not inside ${root}` };
  let current = path.resolve(root);
  for (const segment of relative.split(path.sep).filter((s) => s !== '')) {
    current = path.join(current, segment);
    let info;
    try {
      info = await lstat(current);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
      if (!create) return { ok: false, missing: true, message: `${current} does not exist` };
      await mkdir(current).catch((mkdirError: unknown) => {
        if (errnoCode(mkdirError) !== 'EEXIST') throw mkdirError;
      });
      info = await lstat(current);
    }
    if (info.isSymbolicLink()) return { ok: false, missing: false, message: `${current} is a symbolic link; data this tool writes lives only in real folders inside the workspace` };
    if (!info.isDirectory()) return { ok: false, missing: false, message: `${current} is ${kindOf(info)}, not a folder` };
  }
  return { ok: true };
}
