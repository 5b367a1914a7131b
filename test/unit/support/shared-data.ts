/**
 * Where the read-only real data (`../shared`: conformance records, the real workspace) is: beside
 * the checkout (`/work/main` → `/work/shared`) or one level further up for a worktree
 * (`/work/wt/<name>` → `/work/shared`), or `SWE_EXPLORE_SHARED`. Tests skip with a message without it.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The first of the candidate folders holding `relative`, or undefined. */
export function sharedPath(relative: string): string | undefined {
  const roots = [process.env['SWE_EXPLORE_SHARED'], path.resolve(ROOT, '..', 'shared'), path.resolve(ROOT, '..', '..', 'shared')];
  for (const root of roots) if (root !== undefined && root !== '' && existsSync(path.join(root, relative))) return path.join(root, relative);
  return undefined;
}
