/**
 * The CLI as it ships: `src/cli/main.ts` bundled by the same `buildCli` as `dist/cli.js` (zod's
 * schemas in a lazily required `schemas.js` beside it), built once per test process into a temp
 * folder, and spawned as a user runs it. A spawn is then a plain Node start, where
 * `node --import tsx src/cli/main.ts` cost about ten times that (tsx's loader, every source file
 * transpiled again): the CLI tests were most of the unit run.
 *
 * Call {@link buildCliBundle} in a `before` hook; {@link runCli} then runs it synchronously.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(__dirname, '..', '..');

let bundle: string | undefined;

/** Builds the bundle into a temp folder (once per process; removed when the process exits). */
export async function buildCliBundle(): Promise<void> {
  if (bundle !== undefined) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-cli-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const { buildCli } = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'build.mjs')).href)) as { buildCli: (outDir: string) => Promise<void> };
  await buildCli(dir);
  bundle = path.join(dir, 'cli.js');
}

/** What a CLI run printed and how it ended. */
export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The bundle's path, for tests that spawn it themselves. */
export function cliBundlePath(): string {
  if (bundle === undefined) throw new Error('buildCliBundle() has not run (call it in a before hook)');
  return bundle;
}

/** Runs the bundled CLI with `args` in `cwd` (default: the repository root). */
export function runCli(args: readonly string[], cwd = ROOT): CliRun {
  const result = spawnSync(process.execPath, [cliBundlePath(), ...args], { encoding: 'utf8', cwd });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
