/**
 * The repair runs the instance's record cites (`read_step_info` `traj_path`s), loaded lazily: found
 * with the run locator (`sweExplore.data.trajectoryRoots`, default the bench file's folder, then
 * `sweExplore.data.trajectoryTemplates`), read in whatever format they are in, their reads extracted
 * with the builder's rules against the instance's snapshot, verified against the record's
 * `read_step_info` entries for that `traj_path`, and marked resolved / not resolved / unknown from
 * `sweExplore.data.resolutionReports`.
 *
 * Loading is asynchronous (the readers yield while they extract, so the extension host is never
 * held for long): the first read of the slice answers `loading` and starts the load; when it is
 * done every value handed out while it ran is made stale, and the next read answers `loaded`. The
 * loaded runs of the last few instances are kept (a run is megabytes), so going back and forth
 * between instances reads nothing twice.
 */
import * as path from 'node:path';
import { verifyRun, type ReadStepInfo, type RunVerification, type Trajectory, type TrajectoryRead } from '../../../core';
import { citedRuns, DEFAULT_REPO_PATH, loadRun, locateRun, modelFolderOf, ResolutionReports, type RunLocator, type RunResolution } from '../../../data';
import type { InstanceEntry } from '../../../data';
import type { TrajectorySources } from '../../base/settings';
import type { InstanceSlice } from '../slices';

/** One run, loaded or not. */
export interface TrajectoryRun {
  /** The `traj_path` the record cites, or the file itself for a run opened on its own. */
  readonly trajPath: string;
  /** The run's model (`info.model`, else the model folder of its `traj_path`). */
  readonly model: string;
  /** The file it was read from; undefined when it was not found. */
  readonly file: string | undefined;
  /** Undefined when the run could not be found or read (see `problem`). */
  readonly trajectory: Trajectory | undefined;
  /** The format's description ("mini-swe-agent .traj.json v1 …"), empty when not read. */
  readonly format: string;
  /** The reads the builder keeps, in extraction order. */
  readonly reads: readonly TrajectoryRead[];
  /** Against the record's entries for `trajPath`; undefined for a run no record cites. */
  readonly verification: RunVerification | undefined;
  readonly resolution: RunResolution;
  /** Why the run is not loaded, in words; undefined when it is. */
  readonly problem: string | undefined;
}

export type TrajectoryRuns = { readonly status: 'loading' } | { readonly status: 'loaded'; readonly runs: readonly TrajectoryRun[] };

/** What a run is read against: the record's base path, the snapshot, the record's reads. */
export interface RunContext {
  readonly instanceId: string;
  readonly repoPath: string | undefined;
  readonly snapshotRoot: string | undefined;
  readonly readStepInfo: ReadStepInfo | null | undefined;
  /** The base the run's paths are normalised against, when known (an explorer run's, as its viewed lines were read); default the run's own, else `repoPath`. */
  readonly base?: string;
}

/** Reads one run file and extracts, verifies and resolves it (`trajPath`: how the record cites it, else the file). */
export async function loadTrajectoryRun(file: string, trajPath: string, context: RunContext, reports: ResolutionReports | undefined): Promise<TrajectoryRun> {
  const folderModel = modelFolderOf(trajPath) ?? '';
  const loaded = await loadRun(file, {
    instanceId: context.instanceId,
    repoPath: context.repoPath ?? DEFAULT_REPO_PATH,
    ...(context.snapshotRoot === undefined ? {} : { repoDir: context.snapshotRoot }),
    ...(context.base === undefined ? {} : { base: context.base }),
  });
  const run = loaded.run;
  if (run === undefined) {
    const why = loaded.problems.map((p) => p.message).join('; ');
    return {
      trajPath,
      model: folderModel,
      file,
      trajectory: undefined,
      format: '',
      reads: [],
      verification: undefined,
      resolution: 'unknown',
      problem: why === '' ? 'the file could not be read' : why,
    };
  }
  const model = run.model !== '' ? run.model : folderModel;
  const reads = run.reads.reads;
  const cited = context.readStepInfo !== null && context.readStepInfo !== undefined && citedRuns(context.readStepInfo).includes(trajPath);
  const verification = cited
    ? verifyRun(
        trajPath,
        reads.map((r) => ({ path: r.path, stepIdx: r.stepIdx, start: r.start, end: r.end })),
        context.readStepInfo,
      )
    : undefined;
  const resolution = reports === undefined ? 'unknown' : (await reports.resolutionOf(trajPath, context.instanceId, model)).resolution;
  return { trajPath, model, file, trajectory: run.trajectory, format: run.reader.description, reads, verification, resolution, problem: undefined };
}

/** Where runs are looked for, from the settings and the bench file's folder. */
export function runLocator(settings: TrajectorySources, benchFile: string | undefined): RunLocator {
  const benchFolder = benchFile === undefined ? undefined : path.dirname(benchFile);
  const absolute = (p: string): string | undefined => (path.isAbsolute(p) ? p : benchFolder === undefined ? undefined : path.resolve(benchFolder, p));
  const roots = settings.roots.length === 0 ? (benchFolder === undefined ? [] : [benchFolder]) : settings.roots.map(absolute).filter((r): r is string => r !== undefined);
  return { roots, templates: settings.templates.map(([key, template]) => ({ key, template })), templateBase: benchFolder ?? process.cwd() };
}

/** Loads every run a record cites, in order of first appearance. */
async function loadCitedRuns(context: RunContext, locator: RunLocator, reports: ResolutionReports): Promise<TrajectoryRun[]> {
  const runs: TrajectoryRun[] = [];
  for (const trajPath of citedRuns(context.readStepInfo)) {
    const located = await locateRun(trajPath, context.instanceId, locator);
    if (!located.found) {
      const resolution = (await reports.resolutionOf(trajPath, context.instanceId)).resolution;
      runs.push({
        trajPath,
        model: modelFolderOf(trajPath) ?? '',
        file: undefined,
        trajectory: undefined,
        format: '',
        reads: [],
        verification: undefined,
        resolution,
        problem: `not found (${located.tried.join('; ')})`,
      });
      continue;
    }
    runs.push(await loadTrajectoryRun(located.file, trajPath, context, reports));
  }
  return runs;
}

/** Instances whose loaded runs are kept. */
const KEPT_INSTANCES = 4;

interface Load {
  value: TrajectoryRuns;
  /** `stale()` of every value handed out while loading. */
  readonly waiting: (() => void)[];
  /** Settles with the runs once loaded (for a caller that waits: prefetching before a paint). */
  readonly done: Promise<readonly TrajectoryRun[]>;
}

/** Loads in flight and done, by instance and settings; the oldest done ones are dropped first. */
class RunLoads {
  private readonly loads = new Map<string, Load>();
  private reports: { readonly key: string; readonly reports: ResolutionReports } | undefined;

  get(key: string, context: RunContext, settings: TrajectorySources, benchFile: string | undefined, stale: () => void): TrajectoryRuns {
    const load = this.load(key, context, settings, benchFile);
    if (load.value.status === 'loading') load.waiting.push(stale);
    return load.value;
  }

  /** The load of `key`, started when there is none. */
  load(key: string, context: RunContext, settings: TrajectorySources, benchFile: string | undefined): Load {
    const existing = this.loads.get(key);
    if (existing !== undefined) {
      // Most recently used last.
      this.loads.delete(key);
      this.loads.set(key, existing);
      return existing;
    }
    const waiting: (() => void)[] = [];
    const done = loadCitedRuns(context, runLocator(settings, benchFile), this.reportsFor(settings, benchFile))
      .catch((error: unknown): TrajectoryRun[] => [
        {
          trajPath: '',
          model: '',
          file: undefined,
          trajectory: undefined,
          format: '',
          reads: [],
          verification: undefined,
          resolution: 'unknown',
          problem: `loading failed: ${error instanceof Error ? error.message : String(error)}`,
        },
      ])
      .then((runs) => {
        load.value = { status: 'loaded', runs };
        this.trim();
        for (const stale of waiting.splice(0)) stale();
        return runs;
      });
    const load: Load = { value: { status: 'loading' }, waiting, done };
    this.loads.set(key, load);
    return load;
  }

  /** One reader of the report files per settings (a single-file report is read once). */
  reportsFor(settings: TrajectorySources, benchFile: string | undefined): ResolutionReports {
    const key = JSON.stringify([settings.reports, benchFile]);
    if (this.reports?.key !== key) {
      const base = benchFile === undefined ? process.cwd() : path.dirname(benchFile);
      this.reports = {
        key,
        reports: new ResolutionReports(
          settings.reports.map(([k, p]) => ({ key: k, path: p })),
          base,
        ),
      };
    }
    return this.reports.reports;
  }

  private trim(): void {
    let done = [...this.loads].filter(([, load]) => load.value.status === 'loaded').length;
    for (const [key, load] of this.loads) {
      if (done <= KEPT_INSTANCES) break;
      if (load.value.status !== 'loaded') continue;
      this.loads.delete(key);
      done--;
    }
  }
}

const LOADS = new RunLoads();

/** The sources a selection names (Selection.trajectorySources); nothing set when it cannot be read. */
export function trajectorySourcesOf(key: string): TrajectorySources {
  try {
    const value = JSON.parse(key) as Partial<TrajectorySources>;
    return { roots: value.roots ?? [], templates: value.templates ?? [], reports: value.reports ?? [] };
  } catch {
    return { roots: [], templates: [], reports: [] };
  }
}

/** The reports reader for the selection's sources (also for runs opened on their own). */
export function currentReports(sourcesKey: string, benchFile: string | undefined): ResolutionReports {
  return LOADS.reportsFor(trajectorySourcesOf(sourcesKey), benchFile);
}

/** The load's key, context and sources for an instance under the selection's trajectory sources. */
function loadOf(instance: InstanceEntry, benchFile: string | undefined, sourcesKey: string): [key: string, context: RunContext, sources: TrajectorySources] {
  const key = JSON.stringify([instance.instanceId, instance.snapshotRoot ?? null, benchFile ?? null, sourcesKey]);
  const context: RunContext = {
    instanceId: instance.instanceId,
    repoPath: typeof instance.record.repo_path === 'string' ? instance.record.repo_path : undefined,
    snapshotRoot: instance.snapshotRoot,
    readStepInfo: instance.record.read_step_info,
  };
  return [key, context, trajectorySourcesOf(sourcesKey)];
}

/**
 * Loads (or joins the load of) the runs an instance cites under these sources, and settles once they
 * are loaded: the slice then answers `loaded` at once (prefetching before an instance is painted).
 */
export function trajectoryRunsLoaded(instance: InstanceEntry, benchFile: string | undefined, sourcesKey: string): Promise<readonly TrajectoryRun[]> {
  const [key, context, sources] = loadOf(instance, benchFile, sourcesKey);
  return LOADS.load(key, context, sources, benchFile).done;
}

export const TRAJECTORY_RUNS: InstanceSlice<TrajectoryRuns> = {
  id: 'trajectoryRuns',
  // The sources are part of the key: changing a root, a template or a report loads again.
  key: ({ selection }) => selection.trajectorySources,
  compute: ({ instance, benchFile, selection }, stale) => {
    const [key, context, sources] = loadOf(instance, benchFile, selection.trajectorySources);
    return LOADS.get(key, context, sources, benchFile, stale);
  },
};

/**
 * Of the runs' whole-file credits of `path`, the one whose agent saw the fewest lines ("narrowest
 * real view"), with its model; undefined when no loaded run credits the whole file.
 */
export function narrowestWholeFileView(runs: readonly TrajectoryRun[], path: string, lineCount: number | undefined): { model: string; seen: readonly (readonly [number, number])[] } | undefined {
  const size = (seen: readonly (readonly [number, number])[]): number => {
    let n = 0;
    for (const [s, e] of seen) n += s < 0 ? -s : (e === -1 ? (lineCount ?? Number.MAX_SAFE_INTEGER / 4) : e) - s + 1;
    return n;
  };
  let best: { model: string; seen: readonly (readonly [number, number])[]; lines: number } | undefined;
  for (const run of runs) {
    for (const read of run.reads) {
      if (read.path !== path || read.start > 1 || read.end !== -1) continue;
      const lines = size(read.seen);
      if (best === undefined || lines < best.lines) best = { model: run.model, seen: read.seen, lines };
    }
  }
  return best === undefined ? undefined : { model: best.model, seen: best.seen };
}
