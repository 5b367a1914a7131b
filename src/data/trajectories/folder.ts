/**
 * A folder of trajectories, indexed lazily: listing and names only, no file is opened until one is
 * needed. Built for an extension host (2,500 runs, about 1 GB): directories are read one at a time
 * with a yield point between batches of entries, so the event loop is never held for long, and the
 * work is one `readdir` per folder and one `lstat` per entry (no parsing).
 *
 * Rules: files ending `.json`, `.jsonl` or `.traj` (the builder itself globs `*.json`; the other
 * two are SWE-agent and JSON-lines formats that converters read); symlinked folders are not entered
 * (no cycles, nothing outside the root); a symlinked file is listed only when its real path is
 * inside the root's. Entries are in byte order of their path under the root, which is the order
 * `build` takes an instance's runs in.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { compareCodePoints, instanceIdFromFileName } from '../../core';
import { createYielder } from '../io/cooperative';
import { isWithin } from '../io/paths';
import { ioProblem, type Problem } from '../io/problems';

/** File name endings the index lists. */
export const TRAJECTORY_FILE_ENDINGS = ['.json', '.jsonl', '.traj'] as const;

export interface IndexedTrajectory {
  /** The path to open (inside the root; a symlink's checked real path). */
  readonly file: string;
  /** Its path under the root, with `/` separators. */
  readonly relative: string;
  readonly size: number;
  /** The folder that holds it (a `traj_path`'s model folder), "" at the root. */
  readonly folder: string;
  /** The instance its name suggests (`x__0.json`, `x.traj.json` → `x`); the file's `info` decides when it is read. */
  readonly instanceHint: string;
}

export interface TrajectoryFolderIndex {
  readonly root: string;
  readonly entries: readonly IndexedTrajectory[];
  readonly problems: readonly Problem[];
}

export interface IndexOptions {
  readonly signal?: AbortSignal;
  /** Milliseconds of work between yields (default 10). */
  readonly sliceMs?: number;
}

function isTrajectoryFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return TRAJECTORY_FILE_ENDINGS.some((ending) => lower.endsWith(ending));
}

/** Lists the trajectory files under `root` (see the module comment). Never throws on the folder's content; an unreadable root is a problem. */
export async function indexTrajectoryFolder(root: string, options: IndexOptions = {}): Promise<TrajectoryFolderIndex> {
  const problems: Problem[] = [];
  const entries: IndexedTrajectory[] = [];
  const pause = createYielder(options.sliceMs ?? 10);
  let realRoot: string;
  try {
    realRoot = await realpath(root);
    if (!(await stat(realRoot)).isDirectory()) return { root, entries, problems: [{ file: root, line: 0, severity: 'error', code: 'io-error', message: 'not a folder' }] };
  } catch (error) {
    return { root, entries, problems: [ioProblem(root, error)] };
  }
  const pending: string[] = [''];
  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    const relativeDir = pending.pop()!;
    const dir = relativeDir === '' ? root : path.join(root, ...relativeDir.split('/'));
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      problems.push(ioProblem(dir, error));
      continue;
    }
    for (const name of names) {
      const wait = pause();
      if (wait !== undefined) await wait;
      const relative = relativeDir === '' ? name : `${relativeDir}/${name}`;
      const full = path.join(dir, name);
      let info;
      try {
        info = await lstat(full);
      } catch {
        continue;
      }
      if (info.isDirectory()) {
        pending.push(relative);
        continue;
      }
      if (!isTrajectoryFileName(name)) continue;
      let file = full;
      let size = info.size;
      if (info.isSymbolicLink()) {
        try {
          const real = await realpath(full);
          const target = await stat(real);
          if (!target.isFile() || !isWithin(realRoot, real)) continue;
          file = real;
          size = target.size;
        } catch {
          continue;
        }
      } else if (!info.isFile()) continue;
      entries.push({ file, relative, size, folder: relativeDir.split('/').pop() ?? '', instanceHint: instanceIdFromFileName(name) });
    }
  }
  entries.sort((a, b) => compareCodePoints(a.relative, b.relative));
  return { root, entries, problems };
}
