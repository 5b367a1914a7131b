/**
 * Scale figures for `npm run bench` (also runnable alone: `node --import tsx scripts/bench-scale.ts`):
 *   (g) the synthetic 848 × 20 workspace (files up to 20k lines) through the extension's data path,
 *       in this process: load (bench + 20 prediction files), line counts, macro averages of every
 *       explorer, the benchmark-wide miss anatomy at B = 500 and the leaderboard, with the heap after each step.
 *       The same workspace inside the real extension host is measured by the integration test
 *       "scale: …" (its [timing] lines in `npm test`).
 */
import * as path from 'node:path';
import { leaderboardOfModel } from '../src/data/workspace/leaderboard';
import { LineCountCache } from '../src/data/workspace/lineCounts';
import { missesOfWorkspaceModel } from '../src/data/workspace/misses';
import { prepareScoredGroundTruths, scoreWorkspaceModel } from '../src/data/workspace/scoring';
import { loadWorkspace } from '../src/data/workspace/workspace';
import { generateSyntheticWorkspace } from './gen-synthetic';

const INSTANCES = 848;
const EXPLORERS = 20;

const heapMb = (): string => `${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB heap`;

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

export async function benchScale(work: string): Promise<void> {
  const ws = await generateSyntheticWorkspace({ out: path.join(work, `synthetic-${INSTANCES}x${EXPLORERS}`), instances: INSTANCES, explorers: EXPLORERS, maxLines: 20000, seed: 1 });
  console.log(`(g) ${INSTANCES} × ${EXPLORERS} workspace through the extension's data path (in process)`);
  const load = await timed(() => loadWorkspace({ benchFile: ws.benchFile, predictionFiles: ws.predictionFiles }));
  console.log(`    load bench + ${EXPLORERS} prediction files: ${load.ms.toFixed(0)} ms (${heapMb()})`);
  const cache = new LineCountCache();
  const options = { profile: 'official' as const, k: 5 };
  const scored = await timed(() => scoreWorkspaceModel(load.result, options, cache));
  console.log(`    line counts + macro averages of ${scored.result.summaries.length} explorers over ${scored.result.rows.length} rows: ${scored.ms.toFixed(0)} ms (${heapMb()})`);
  const misses = await timed(() => missesOfWorkspaceModel(load.result, { ...options, budget: 500 }, cache));
  console.log(`    benchmark-wide miss anatomy at B=500 (${misses.result.rows.length} rows, counts cached): ${misses.ms.toFixed(0)} ms (${heapMb()})`);
  // The leaderboard as the extension computes it once the line counts are in: scores of every row,
  // per-repo macros and the miss anatomy with its top instances per category.
  const { prepared } = await prepareScoredGroundTruths(load.result, options, cache);
  const boards: number[] = [];
  for (let i = 0; i < 5; i++) boards.push((await timed(async () => leaderboardOfModel(load.result, (entry) => prepared.get(entry.instanceId), { ...options, budget: 500 }))).ms);
  boards.sort((a, b) => a - b);
  console.log(`    leaderboard (macros, per-repo, anatomy + top instances) of ${EXPLORERS} explorers: median ${boards[2]!.toFixed(0)} ms of 5 (target < 2000; ${heapMb()})`);
}

if (require.main === module) {
  benchScale(path.join(path.resolve(__dirname, '..'), '.bench')).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
