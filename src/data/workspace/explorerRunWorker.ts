/**
 * A worker thread that reads explorer runs (./explorerRunPool.ts): a run is a few MB of JSON that must
 * be decoded and parsed whole, CPU work one core does at a time; `misses --explorer-trajs` over
 * thousands of runs spreads it over the machine's cores. The worker takes one job at a time (the run's
 * index entry, what the instance is, the paths that matter) and answers with plain data: the viewed
 * lines of those paths, the run's length and the problems.
 *
 * Built as its own bundle (`dist/explorerRunWorker.js`, beside `dist/cli.js`); under tsx the pool
 * starts this file.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import { runJobHere, type ExplorerRunJob, type ExplorerRunJobResult } from './explorerRunPool';

async function answer(job: ExplorerRunJob): Promise<ExplorerRunJobResult> {
  try {
    const outcome = await runJobHere(job);
    if (outcome.run === undefined) return { id: job.id, problems: outcome.problems };
    return { id: job.id, problems: outcome.problems, viewed: [...outcome.run.viewed].map(([p, set]) => [p, set.map(([s, e]) => [s, e] as const)] as const), length: outcome.run.length };
  } catch (error) {
    return { id: job.id, problems: [], failure: error instanceof Error ? error.message : String(error) };
  }
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  port.on('message', (job: ExplorerRunJob) => {
    void answer(job).then((result) => port.postMessage(result));
  });
}
