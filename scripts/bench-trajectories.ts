/**
 * Trajectory figures for `npm run bench` (h):
 *   - `swe-explore build` over 848 instances × 3 synthetic runs (~600 MB, ./gen-trajectories.ts):
 *     wall time and peak RSS of the built CLI (targets: < 60 s, < 500 MB);
 *   - the extension's data path: indexing that folder of 2,544 runs, then loading and extracting
 *     one 2 MB run, with a 5 ms heartbeat: the longest event-loop stall (target < 100 ms).
 * Also runnable alone: `node --import tsx scripts/bench-trajectories.ts` (after `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { indexTrajectoryFolder, loadRun } from '../src/data';
import { generateTrajectories } from './gen-trajectories';

function measureCli(cli: string, args: string[]): { wall: number; rssMb: number; status: number | null } {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', 'node', cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = (result.stderr ?? '').trim().split('\n');
  return { wall, rssMb: Number(lines[lines.length - 1]) / 1024, status: result.status };
}

/** Longest gap beyond the 5 ms heartbeat while `work` runs. */
async function longestStall(work: () => Promise<void>): Promise<{ ms: number; stallMs: number }> {
  let longest = 0;
  let last = performance.now();
  const heartbeat = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  clearInterval(heartbeat);
  return { ms, stallMs: longest };
}

export async function benchTrajectories(work: string, cli: string): Promise<void> {
  const started = Date.now();
  const generated = generateTrajectories({ out: path.join(work, 'trajectories-848x3'), instances: 848, runs: 3 });
  console.log(`(h) ${generated.runs} synthetic runs, ${(generated.bytes / 1e6).toFixed(0)} MB (848 instances × 3 models; ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const out = path.join(work, 'trajectories-848x3', 'built.jsonl');
  const build = measureCli(cli, ['build', '--trajs', generated.trajsDir, '--repos', generated.reposDir, '-o', out]);
  console.log(`    CLI build: ${build.wall.toFixed(1)} s wall, peak RSS ${build.rssMb.toFixed(0)} MB (targets < 60 s, < 500 MB; exit ${build.status})`);

  let entries = 0;
  const indexing = await longestStall(async () => {
    entries = (await indexTrajectoryFolder(generated.trajsDir)).entries.length;
  });
  console.log(`    index a folder of ${entries} runs (listing, no parsing): ${indexing.ms.toFixed(0)} ms, longest event-loop stall ${indexing.stallMs.toFixed(1)} ms (target < 100)`);
  const big = generateTrajectories({ out: path.join(work, 'trajectory-2mb'), instances: 1, runs: 1, runKb: 2048 });
  const file = (await indexTrajectoryFolder(big.trajsDir)).entries[0]!.file;
  const loading = await longestStall(async () => {
    await loadRun(file, { repoDir: path.join(big.reposDir, 'synth__repo0-10000') });
  });
  console.log(`    load + extract one ${(big.bytes / 1e6).toFixed(1)} MB run: ${loading.ms.toFixed(0)} ms, longest event-loop stall ${loading.stallMs.toFixed(1)} ms (the JSON parse is one step)`);
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  void benchTrajectories(path.join(root, '.bench'), path.join(root, 'dist', 'cli.js'));
}
