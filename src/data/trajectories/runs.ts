/**
 * One run read from disk and its reads extracted with the builder's rules: the file through the
 * format registry, the base (its own `cwd` / `/workspace/<dir>`, else the instance's, else the
 * `--repo-path` placeholder), the existence test against the instance's repository when there is
 * one (else the builder's name rules), and the tool calls the builder would stop on reported as
 * warnings. Extraction walks the messages with yield points, so a long run never holds an editor's
 * event loop.
 */
import {
  keepReads,
  messageReads,
  pathsToCheck,
  repoNameOf,
  stageReads,
  singleTrajectoryBase,
  trajectoryInstanceId,
  trajectoryModel,
  type MessageReads,
  type RawRead,
  type RawSwallowed,
  type SkippedCall,
  type Trajectory,
  type TrajectoryReads,
} from '../../core';
import { createYielder } from '../io/cooperative';
import type { Problem } from '../io/problems';
import { readTrajectoryFile, type TrajectoryReadOptions } from './formats';
import type { TrajectoryReader } from './reader';
import { filesInRepository } from './repository';

/** The builder's default `--repo-path`: the base used when a run names none. */
export const DEFAULT_REPO_PATH = '/testbed';

/** Raw reads of every message, yielding between messages once a slice of time has passed. */
export async function rawReadsCooperatively(trajectory: Trajectory, sliceMs = 10): Promise<MessageReads> {
  const pause = createYielder(sliceMs);
  const reads: RawRead[] = [];
  const swallowed: RawSwallowed[] = [];
  const skipped: SkippedCall[] = [];
  for (let i = 0; i < trajectory.messages.length; i++) {
    const wait = pause();
    if (wait !== undefined) await wait;
    const found = messageReads(trajectory.messages, i);
    for (const r of found.reads) reads.push(r);
    for (const s of found.swallowed) swallowed.push(s);
    for (const s of found.skipped) skipped.push(s);
  }
  return { reads, swallowed, skipped };
}

export interface RunReadOptions extends TrajectoryReadOptions {
  /** The instance's repository: reads are kept only for files in it. Without it, the builder's name rules. */
  readonly repoDir?: string;
  /** The base to normalise against; default the run's own, else {@link RunReadOptions.repoPath}. */
  readonly base?: string;
  /** The placeholder base (`--repo-path`, default `/testbed`). */
  readonly repoPath?: string;
  /** For the name rules: the instance id (default: the run's). */
  readonly instanceId?: string;
  /**
   * Which of `paths` are files in the repository (default {@link filesInRepository}); a caller that
   * loads several runs of one instance passes a memoised one, so each path is checked once.
   */
  readonly filesIn?: (repoDir: string, paths: readonly string[]) => Promise<ReadonlySet<string>>;
}

export interface LoadedRun {
  readonly file: string;
  readonly trajectory: Trajectory;
  readonly reader: TrajectoryReader;
  readonly instanceId: string;
  /** `info.model`, else mini-swe-agent's model name, else the file's grand-parent folder. */
  readonly model: string;
  readonly reads: TrajectoryReads;
}

/** Warnings for the tool calls the builder would have stopped on. */
export function skippedCallProblems(file: string, skipped: readonly SkippedCall[]): Problem[] {
  return skipped.map((s) => ({
    file,
    line: 0,
    severity: 'warning',
    code: 'trajectory-call-skipped',
    message: `step ${s.stepIdx}, tool call ${s.call + 1}: ${s.reason}; skipped (the builder would stop on it)`,
  }));
}

/** Extracts the kept reads of a trajectory already in memory (see the module comment). */
export async function extractRunReads(
  trajectory: Trajectory,
  base: string,
  instanceId: string,
  repoDir: string | undefined,
  filesIn: NonNullable<RunReadOptions['filesIn']> = filesInRepository,
): Promise<TrajectoryReads> {
  const staged = stageReads(await rawReadsCooperatively(trajectory), base);
  if (repoDir === undefined) return keepReads(staged, { kind: 'name-rules', repoName: repoNameOf(instanceId) });
  const existing = await filesIn(repoDir, pathsToCheck(staged));
  return keepReads(staged, { kind: 'repository', exists: (p) => existing.has(p) });
}

/** Reads a run file and extracts its reads; `run` is undefined when the file could not be read (see `problems`). */
export async function loadRun(file: string, options: RunReadOptions = {}): Promise<{ run?: LoadedRun; problems: Problem[] }> {
  const read = await readTrajectoryFile(file, options);
  const problems = [...read.problems];
  if (read.trajectory === undefined || read.reader === undefined) return { problems };
  const trajectory = read.trajectory;
  const instanceId = options.instanceId ?? trajectoryInstanceId(trajectory, file);
  const base = options.base ?? singleTrajectoryBase(trajectory, options.repoPath ?? DEFAULT_REPO_PATH);
  const reads = await extractRunReads(trajectory, base, instanceId, options.repoDir, options.filesIn);
  for (const p of skippedCallProblems(file, reads.skipped)) problems.push(p);
  return { run: { file, trajectory, reader: read.reader, instanceId, model: trajectoryModel(trajectory, file), reads }, problems };
}
