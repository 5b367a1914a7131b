/**
 * Where a prediction glob can match. Globs are relative to the bench file's folder, and that folder
 * usually also holds `repos/` with every snapshot (the release's layout): searching or watching the
 * whole folder for `results/**\/*.jsonl` would walk all snapshots — millions of files on the full
 * benchmark, and a recursive file watcher on each of their folders. Starting at the glob's literal
 * leading folders (`results/`) finds the same files and touches nothing else.
 */
import * as path from 'node:path';

/** Characters that make a path segment a pattern rather than a literal folder name. */
const GLOB_SYNTAX = /[*?[\]{}!]/;

/** A glob split into the folder it is anchored at and the pattern left to match below it. */
export interface GlobBase {
  /** Absolute folder: `folder` joined with the glob's literal leading segments. */
  readonly base: string;
  /** The rest of the glob, relative to `base` (never empty). */
  readonly pattern: string;
}

/**
 * Splits `glob` (forward slashes, relative to `folder`) at its first segment with glob syntax:
 * `results/**\/*.jsonl` → `folder/results` + `**\/*.jsonl`; `**\/*.jsonl` stays at `folder`; a
 * literal file path `runs/a.jsonl` → `folder/runs` + `a.jsonl`. `.` and `..` segments are literal,
 * so a glob may point beside the bench folder (`../runs/*.jsonl`).
 */
export function globBase(folder: string, glob: string): GlobBase {
  const segments = glob.split('/').filter((segment) => segment !== '');
  let literal = 0;
  while (literal < segments.length - 1 && !GLOB_SYNTAX.test(segments[literal]!)) literal++;
  return { base: path.join(folder, ...segments.slice(0, literal)), pattern: segments.slice(literal).join('/') };
}
