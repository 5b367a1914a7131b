/**
 * Where the read-only real data (`../shared`: conformance records, real runs, a sparse workspace)
 * is: beside the checkout (`<repo>/../shared`), or beside the folder of worktrees when the checkout
 * is a worktree (`<repo>/../../shared`). Tests that read it skip with a message when it is absent.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CANDIDATES = [path.resolve(ROOT, '..', 'shared'), path.resolve(ROOT, '..', '..', 'shared')];

/** The shared folder holding `marker` (e.g. `real-trajs/mini-swe-agent-v1`), or undefined. */
export function sharedDir(marker: string): string | undefined {
  return CANDIDATES.find((dir) => existsSync(path.join(dir, marker)));
}

/** `false` when present, else the skip message naming where it looked. */
export function skipWithoutShared(marker: string, what: string): false | string {
  return sharedDir(marker) === undefined ? `../shared/${marker} is absent (looked in ${CANDIDATES.join(', ')}); ${what} not checked` : false;
}
