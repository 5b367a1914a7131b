/**
 * The two things the builder asks of an instance's repository: is a read's normalised path a file
 * there (`(repo_dir / path).is_file()`), and how many lines does a file have (text-mode iteration,
 * universal newlines, undecodable bytes ignored) to resolve `end = -1`.
 *
 * Paths come from trajectories (hostile data), so they are resolved with `resolveInSnapshot`: an
 * absolute path, a `..` that leaves the repository or a symlink whose target lies outside it is
 * "not a file" here, where the builder would have looked outside (`repo_dir / "/etc/x"` is
 * `/etc/x`). That is the one place this tool may keep fewer reads than the builder, and only for
 * paths that name something outside the repository.
 */
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { mapWithConcurrency } from '../io/concurrency';
import { LineCounter } from '../io/countLines';
import { isWithin, lexicalFailure, resolveInSnapshot } from '../io/paths';
import { openRegularFile } from '../io/regularFile';

/** Files checked at once. */
const CHECKS_IN_PARALLEL = 16;

/** The folder part of a relative path (`a/b/c.py` → `a/b`, `c.py` → ``). */
function folderOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash === -1 ? '' : relative.slice(0, slash);
}

/**
 * The paths (relative to `repoDir`) that are regular files inside it (symlinks inside it followed):
 * the rule of `resolveInSnapshot`, answered yes or no only, so a missing path costs one `stat`
 * (a build asks this for hundreds of thousands of reads, most of them agent-made files).
 */
export async function filesInRepository(repoDir: string, paths: Iterable<string>): Promise<Set<string>> {
  const unique = [...new Set(paths)];
  const out = new Set<string>();
  let realRoot: string;
  try {
    realRoot = await realpath(repoDir);
  } catch {
    return out;
  }
  // Runs name many files in folders the repository does not have (agent scripts, `build/`): one
  // `stat` of such a folder settles every path in it.
  const folders = [...new Set(unique.map(folderOf).filter((f) => f !== ''))];
  const folderExists = await mapWithConcurrency(folders, CHECKS_IN_PARALLEL, async (folder): Promise<boolean> => {
    if (lexicalFailure(folder) !== undefined) return true; // decided per path below
    try {
      return (await stat(`${repoDir}${path.sep}${folder}`)).isDirectory();
    } catch {
      return false;
    }
  });
  const missingFolders = new Set(folders.filter((_, i) => folderExists[i] === false));
  const found = await mapWithConcurrency(unique, CHECKS_IN_PARALLEL, async (p): Promise<boolean> => {
    if (lexicalFailure(p) !== undefined || missingFolders.has(folderOf(p))) return false;
    try {
      // One stat settles most paths (missing files, directories); only files pay for the real path.
      const joined = `${repoDir}${path.sep}${p}`;
      if (!(await stat(joined)).isFile()) return false;
      return isWithin(realRoot, await realpath(joined));
    } catch {
      return false;
    }
  });
  unique.forEach((p, i) => {
    if (found[i] === true) out.add(p);
  });
  return out;
}

const CHUNK_BYTES = 1 << 16;

/** The builder's line count of one file: `sum(1 for _ in open(f, encoding="utf-8", errors="ignore"))`. */
export async function builderLineCount(absolutePath: string): Promise<number> {
  const { handle } = await openRegularFile(absolutePath);
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const counter = new LineCounter('universal-newlines');
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      counter.push(buffer.subarray(0, bytesRead));
    }
    return counter.finish();
  } finally {
    await handle.close();
  }
}

/** The builder's line counts of the files among `paths` that exist in the repository (others are left out, as the builder leaves their `-1`). */
export async function builderLineCounts(repoDir: string, paths: Iterable<string>): Promise<Map<string, number>> {
  const unique = [...new Set(paths)];
  const counted = await mapWithConcurrency(unique, CHECKS_IN_PARALLEL, async (p): Promise<number | undefined> => {
    const resolved = await resolveInSnapshot(repoDir, p);
    if (!resolved.ok) return undefined;
    try {
      return await builderLineCount(resolved.real);
    } catch {
      return undefined;
    }
  });
  const out = new Map<string, number>();
  unique.forEach((p, i) => {
    const n = counted[i];
    if (n !== undefined) out.set(p, n);
  });
  return out;
}
