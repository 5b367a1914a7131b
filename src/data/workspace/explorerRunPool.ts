/**
 * Explorer runs read on worker threads (./explorerRunWorker.ts), for `misses --explorer-trajs` over a
 * benchmark's runs: each job is one run, answered with the viewed lines of the paths that matter. The
 * pool starts `size` workers (one per core by default, at most four) and hands each the next job when
 * it answers, so at most `size` runs are in memory at once. Where no worker can start (the worker
 * bundle is missing, or a worker dies), the jobs left run in the calling thread, with the same result.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { IntervalSet, LineSet, RunLength } from '../../core';
import type { Problem } from '../io/problems';
import { loadExplorerRun, type ExplorerRunEntry } from '../trajectories/explorerRuns';
import { filesInRepository } from '../trajectories/repository';

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
 * Whether snapshot paths are files, as this thread found them: an instance's runs (one per explorer)
 * ask about the same core files. Bounded by the benchmark's distinct (snapshot, path) pairs asked.
 */
const snapshotFiles = new Map<string, boolean>();

async function filesInSnapshot(snapshotRoot: string, paths: readonly string[]): Promise<ReadonlySet<string>> {
  const key = (p: string): string => `${snapshotRoot}\u0000${p}`;
  const unknown = paths.filter((p) => !snapshotFiles.has(key(p)));
  if (unknown.length > 0) {
    const found = await filesInRepository(snapshotRoot, unknown);
    for (const p of unknown) snapshotFiles.set(key(p), found.has(p));
  }
  return new Set(paths.filter((p) => snapshotFiles.get(key(p)) === true));
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
      ...(snapshotRoot === undefined ? {} : { filesInSnapshot: (paths: readonly string[]) => filesInSnapshot(snapshotRoot, paths) }),
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
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private broken = false;
  /** Jobs a worker answered (the rest ran in the calling thread). */
  answeredByWorkers = 0;

  private constructor(workers: readonly Worker[]) {
    for (const worker of workers) {
      worker.on('message', (result: ExplorerRunJobResult) => this.answered(worker, result));
      worker.on('error', () => this.lost(worker));
      worker.on('exit', () => this.lost(worker));
      this.idle.push(worker);
    }
  }

  /** Starts `size` workers; undefined when the worker script is not there (run jobs with {@link runJobHere}). */
  static start(size: number = defaultWorkerCount()): ExplorerRunPool | undefined {
    const start = workerStart();
    if (start === undefined || size < 1) return undefined;
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < size; i++) workers.push(new Worker(start.script, { eval: start.eval }));
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
    const workers = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private next(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const pending = this.queue.shift()!;
      this.busy.set(worker, pending);
      worker.postMessage(pending.job);
    }
  }

  private answered(worker: Worker, result: ExplorerRunJobResult): void {
    const pending = this.busy.get(worker);
    this.busy.delete(worker);
    this.idle.push(worker);
    if (pending !== undefined) {
      if (result.failure !== undefined) runJobHere(pending.job).then(pending.resolve, pending.reject);
      else {
        this.answeredByWorkers++;
        pending.resolve(outcomeOf(result));
      }
    }
    this.next();
  }

  /** A worker died: its job and every queued one run here, and so do later ones. */
  private lost(worker: Worker): void {
    if (this.broken && !this.busy.has(worker)) return;
    this.broken = true;
    const orphaned = [...this.busy.values(), ...this.queue];
    this.busy.clear();
    this.queue.length = 0;
    for (const pending of orphaned) runJobHere(pending.job).then(pending.resolve, pending.reject);
    void this.close();
  }
}
