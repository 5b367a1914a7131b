/**
 * Explorer runs read on worker threads (./explorerRunWorker.ts), for `misses --explorer-trajs` over a
 * benchmark's runs: each job is one run, answered with the viewed lines of the paths that matter. The
 * pool starts `size` workers (one per core by default, at most four) and keeps {@link JOBS_PER_WORKER}
 * jobs on each (a worker reads the next run while it parses the current one, instead of idling on
 * the disk), so at most that many runs per worker are in memory at once. Where no worker can start
 * (the worker bundle is missing, or a worker dies), the jobs left run in the calling thread, with
 * the same result.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { IntervalSet, LineSet, RunLength } from '../../core';
import type { Problem } from '../io/problems';
import { loadExplorerRun, type ExplorerRunEntry } from '../trajectories/explorerRuns';
import { builderLineCounts, filesInRepository } from '../trajectories/repository';

/** One run to read: everything is plain data (it crosses a thread). */
export interface ExplorerRunJob {
  readonly id: number;
  readonly entry: ExplorerRunEntry;
  readonly instanceId: string;
  readonly snapshotRoot: string | undefined;
  readonly repoPath: string | undefined;
  readonly knownPaths: readonly string[];
  /** The instance's known line counts. */
  readonly lineCounts: ReadonlyArray<readonly [string, number]>;
  /** Only these files' reads (undefined: every read). */
  readonly paths: readonly string[] | undefined;
  readonly maxBytes: number | undefined;
}

/** A job's answer: the viewed lines and the length when the run could be read. */
export interface ExplorerRunJobResult {
  readonly id: number;
  readonly problems: readonly Problem[];
  readonly viewed?: ReadonlyArray<readonly [string, ReadonlyArray<readonly [number, number]>]>;
  readonly length?: RunLength;
  /** The worker threw (a bug, not bad data): the job is run again in the calling thread. */
  readonly failure?: string;
}

/** What a job yields to its caller. */
export interface ExplorerRunOutcome {
  readonly problems: readonly Problem[];
  readonly run?: { readonly viewed: LineSet; readonly length: RunLength };
}

/** Most workers started: beyond a few, the disk and memory, not the cores, bound the work. */
const MAX_WORKERS = 4;

/** Jobs handed to a worker at once: one being parsed, one being read. */
const JOBS_PER_WORKER = 2;

/**
 * A worker's young generation, in MB. Each job parses a ~2 MB run into short-lived objects many
 * times its size; with V8's default a worker spent about a fifth of its time collecting garbage. 64 MB cut
 * the CPU of `misses --explorer-trajs` at 848 × 5 by ~20 % (66 → 53–57 s user) for ~70 MB more RSS
 * (415 MB); 128 MB saved a little more (49 s user) but reached 563 MB of the 600 MB target.
 */
const WORKER_YOUNG_GENERATION_MB = 64;

/**
 * How to start a worker: the built bundle beside this module; or, running from source under tsx (the
 * tests), the TypeScript file behind tsx's require hook (a worker does not inherit the parent's
 * loader hooks). Undefined when neither is there.
 */
function workerStart(): { readonly script: string; readonly eval: boolean } | undefined {
  if (!__filename.endsWith('.ts')) {
    const bundle = path.join(__dirname, 'explorerRunWorker.js');
    return existsSync(bundle) ? { script: bundle, eval: false } : undefined;
  }
  const source = path.join(__dirname, 'explorerRunWorker.ts');
  let hook: string;
  try {
    hook = require.resolve('tsx/cjs');
  } catch {
    return undefined;
  }
  return existsSync(source) ? { script: `require(${JSON.stringify(hook)}); require(${JSON.stringify(source)});`, eval: true } : undefined;
}

/** The default pool size: the cores this process may use, at most {@link MAX_WORKERS}. */
export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));
}

function outcomeOf(result: ExplorerRunJobResult): ExplorerRunOutcome {
  if (result.viewed === undefined || result.length === undefined) return { problems: result.problems };
  const viewed = new Map<string, IntervalSet>(result.viewed.map(([p, set]) => [p, set.map(([s, e]) => [s, e] as const)]));
  return { problems: result.problems, run: { viewed, length: result.length } };
}

/**
 * What this thread learnt of snapshot paths, per (snapshot, path): an instance's runs (one per
 * explorer) ask about the same core files. Bounded by the benchmark's distinct pairs asked.
 */
class SnapshotPathCache<T> {
  private readonly known = new Map<string, T | undefined>();

  constructor(private readonly learn: (snapshotRoot: string, paths: readonly string[]) => Promise<ReadonlyMap<string, T>>) {}

  /** The value of each of `paths` (undefined where `learn` gave none); only the paths not asked before are learnt. */
  async get(snapshotRoot: string, paths: Iterable<string>): Promise<ReadonlyMap<string, T | undefined>> {
    const key = (p: string): string => `${snapshotRoot}\u0000${p}`;
    const all = [...paths];
    const unknown = all.filter((p) => !this.known.has(key(p)));
    if (unknown.length > 0) {
      const learnt = await this.learn(snapshotRoot, unknown);
      for (const p of unknown) this.known.set(key(p), learnt.get(p));
    }
    return new Map(all.map((p) => [p, this.known.get(key(p))]));
  }
}

/** Whether snapshot paths are files. */
const snapshotFiles = new SnapshotPathCache<boolean>(async (root, paths) => {
  const found = await filesInRepository(root, paths);
  return new Map(paths.map((p) => [p, found.has(p)]));
});

/** The builder's line counts of snapshot files, which the runs' `end = -1` reads need. */
const snapshotLineCounts = new SnapshotPathCache<number>((root, paths) => builderLineCounts(root, paths));

async function filesInSnapshot(snapshotRoot: string, paths: readonly string[]): Promise<ReadonlySet<string>> {
  const isFile = await snapshotFiles.get(snapshotRoot, paths);
  return new Set(paths.filter((p) => isFile.get(p) === true));
}

async function countedLines(snapshotRoot: string, paths: ReadonlySet<string>): Promise<ReadonlyMap<string, number>> {
  const counts = await snapshotLineCounts.get(snapshotRoot, paths);
  const out = new Map<string, number>();
  for (const [p, n] of counts) if (n !== undefined) out.set(p, n);
  return out;
}

/** Reads a job in the calling thread (the fallback, and the path without workers). */
export async function runJobHere(job: ExplorerRunJob): Promise<ExplorerRunOutcome> {
  const counts = new Map(job.lineCounts);
  const snapshotRoot = job.snapshotRoot;
  const loaded = await loadExplorerRun(
    job.entry,
    {
      instanceId: job.instanceId,
      snapshotRoot,
      repoPath: job.repoPath,
      knownPaths: job.knownPaths,
      lineCount: (p) => counts.get(p),
      ...(snapshotRoot === undefined
        ? {}
        : { filesInSnapshot: (paths: readonly string[]) => filesInSnapshot(snapshotRoot, paths), countLines: (paths: ReadonlySet<string>) => countedLines(snapshotRoot, paths) }),
    },
    { ...(job.paths === undefined ? {} : { paths: new Set(job.paths) }), ...(job.maxBytes === undefined ? {} : { maxBytes: job.maxBytes }) },
  );
  if (loaded.run === undefined) return { problems: loaded.problems };
  const viewed = new Map<string, IntervalSet>();
  for (const [p, file] of loaded.run.viewed.files) viewed.set(p, file.lines);
  return { problems: loaded.problems, run: { viewed, length: loaded.run.length } };
}

interface Pending {
  readonly job: ExplorerRunJob;
  readonly resolve: (outcome: ExplorerRunOutcome) => void;
  readonly reject: (error: unknown) => void;
}

/** A fixed set of workers taking jobs from one queue (see the module comment). */
export class ExplorerRunPool {
  /** Each live worker's jobs in flight, by job id. */
  private readonly workers = new Map<Worker, Map<number, Pending>>();
  private readonly queue: Pending[] = [];
  private broken = false;
  /** Jobs a worker answered (the rest ran in the calling thread). */
  answeredByWorkers = 0;

  private constructor(workers: readonly Worker[]) {
    for (const worker of workers) {
      worker.on('message', (result: ExplorerRunJobResult) => this.answered(worker, result));
      worker.on('error', () => this.lost(worker));
      worker.on('exit', () => this.lost(worker));
      this.workers.set(worker, new Map());
    }
  }

  /** Starts `size` workers; undefined when the worker script is not there (run jobs with {@link runJobHere}). */
  static start(size: number = defaultWorkerCount()): ExplorerRunPool | undefined {
    const start = workerStart();
    if (start === undefined || size < 1) return undefined;
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < size; i++) workers.push(new Worker(start.script, { eval: start.eval, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } }));
    } catch {
      for (const worker of workers) void worker.terminate();
      return undefined;
    }
    return new ExplorerRunPool(workers);
  }

  /** Reads one run on the next free worker (or here, once the pool is broken). */
  run(job: ExplorerRunJob): Promise<ExplorerRunOutcome> {
    if (this.broken) return runJobHere(job);
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.next();
    });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    this.broken = true;
    const workers = [...this.workers.keys()];
    this.workers.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /** Hands queued jobs to the workers with the fewest in flight, up to {@link JOBS_PER_WORKER} each. */
  private next(): void {
    while (this.queue.length > 0) {
      let target: [Worker, Map<number, Pending>] | undefined;
      for (const entry of this.workers) if (entry[1].size < JOBS_PER_WORKER && (target === undefined || entry[1].size < target[1].size)) target = entry;
      if (target === undefined) return;
      const pending = this.queue.shift()!;
      target[1].set(pending.job.id, pending);
      target[0].postMessage(pending.job);
    }
  }

  private answered(worker: Worker, result: ExplorerRunJobResult): void {
    const jobs = this.workers.get(worker);
    const pending = jobs?.get(result.id);
    jobs?.delete(result.id);
    if (pending !== undefined) {
      if (result.failure !== undefined) runJobHere(pending.job).then(pending.resolve, pending.reject);
      else {
        this.answeredByWorkers++;
        pending.resolve(outcomeOf(result));
      }
    }
    this.next();
  }

  /** A worker died: its jobs and every queued one run here, and so do later ones. */
  private lost(worker: Worker): void {
    if (this.broken && !this.workers.has(worker)) return;
    this.broken = true;
    const orphaned = [...[...this.workers.values()].flatMap((jobs) => [...jobs.values()]), ...this.queue];
    this.queue.length = 0;
    for (const pending of orphaned) runJobHere(pending.job).then(pending.resolve, pending.reject);
    void this.close();
  }
}
