/**
 * What-if ground truth on a loaded workspace (issue 20): the runs each record cites found, loaded
 * and re-extracted once per instance, the variant core per instance and rule set computed lazily
 * and cached, the variant ground truth every score uses, and the before → after comparison.
 * Shared by `swe-explore whatif` and the extension, so both give the same numbers.
 *
 * - A record's runs are its `read_step_info` `traj_path`s. Each is looked up through the locator
 *   (roots, then templates); one that is found is read with the builder's rules against the
 *   instance's snapshot (else the builder's name rules), its base its own (`cwd`), else the
 *   record's `repo_path`, and verified against the record. A run that is not found, or cannot be
 *   read, contributes its recorded reads (`as_recorded`).
 * - A run's model is the loaded run's, else the one the record itself tells ({@link recordedRunModels});
 *   its resolution comes from the reports (`unknown` without one).
 * - The variant ground truth: `read_core_regions` the variant core, `read_core_files` its files,
 *   `main_files` those in `modified_core_files` as recorded; the optional maps and
 *   `modified_core_files` as recorded; `meta` recounted (kept runs, files, regions, modified, main).
 *   A list equal to the record's keeps the record's own objects, so an unchanged record is written
 *   back byte-for-byte.
 * - Line counts are the workspace's (the line-counts file, else the snapshot), for every path the
 *   core, the record's reads and the loaded runs' reads name.
 */
import {
  auditImpact,
  explainWhatIfLine,
  readCommandText,
  recordedRunModels,
  recordedRuns,
  verifyRun,
  whatIfRulesKey,
  whatIfVariant,
  type GroundTruth,
  type LineCounts,
  type OfficialMetrics,
  type RankingImpact,
  type RunVerification,
  type WhatIfInput,
  type WhatIfLineReason,
  type WhatIfRead,
  type WhatIfRules,
  type WhatIfRunInput,
  type WhatIfSwallowed,
  type WhatIfVariant,
} from '../../core';
import { realTarget, spliceGroundTruth } from '../audit/exportBench';
import * as path from 'node:path';
import { mapWithConcurrency } from '../io/concurrency';
import { createYielder } from '../io/cooperative';
import { locateSnapshot } from '../io/paths';
import type { Problem } from '../io/problems';
import { LineCountCache } from '../workspace/lineCounts';
import { isScored, scoreWorkspaceModel, type ScoredRow, type ScoreResult, type ScoringOptions } from '../workspace/scoring';
import { groundTruthPaths, instanceLineCounts, type InstanceEntry, type WorkspaceModel } from '../workspace/workspace';
import { locateRun, type LocatedRun, type RunLocator } from './locate';
import { ResolutionReports, type ReportSource, type RunResolution } from './reports';
import { filesInRepository } from './repository';
import { DEFAULT_REPO_PATH, loadRun } from './runs';

export interface WhatIfSources {
  /** Where the cited runs are looked for. */
  readonly locator: RunLocator;
  /** `KEY=PATH` report sources; relative paths resolve against {@link WhatIfSources.reportsBase}. */
  readonly reports: readonly ReportSource[];
  readonly reportsBase: string;
  /** Keep each read's command segment, for the reasons a hover shows (default false: counts only). */
  readonly keepCommands?: boolean;
  /**
   * Keep each instance's loaded runs once its variant is computed (default true: switching rules
   * then costs no reading). The CLI, which visits each instance once, turns it off to bound memory.
   */
  readonly retainRuns?: boolean;
}

export interface VariantsOptions {
  /** Stops between instances. */
  readonly signal?: AbortSignal;
  /** After each instance: how many are done, of how many. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Instances whose runs are read at once (default 1; a batch run overlaps reading and extraction with 2). */
  readonly instancesAtOnce?: number;
}

/** One run of a record as found and loaded. */
export interface WhatIfRunInfo {
  readonly trajPath: string;
  /** The loaded run's model, else the record's (when it tells), else undefined. */
  readonly model: string | undefined;
  readonly resolution: RunResolution;
  /** The report that said so. */
  readonly reportFile: string | undefined;
  /** Where the run was found, or what was tried. */
  readonly located: LocatedRun;
  /** Whether it was read (a run found but unreadable is used as recorded; see the problems). */
  readonly loaded: boolean;
  /** The loaded run against the record's entries. */
  readonly verification: RunVerification | undefined;
}

/** An instance's runs, loaded: what every rule set of the instance is computed from. */
export interface InstanceRuns {
  readonly instanceId: string;
  readonly runs: readonly WhatIfRunInfo[];
  /** The what-if input without the rules. */
  readonly input: Omit<WhatIfInput, 'rules'>;
  readonly problems: readonly Problem[];
}

/** One instance under one rule set. */
export interface InstanceWhatIf {
  readonly instanceId: string;
  readonly rules: WhatIfRules;
  readonly variant: WhatIfVariant;
  /** The variant ground truth (what `score` sees in the written variant bench). */
  readonly groundTruth: GroundTruth;
  /** `meta` recounted: `num_trajectories`, `num_read_core`, `num_read_core_regions`, `num_modified_core`, `num_main`. */
  readonly meta: ReadonlyMap<string, number>;
  readonly runs: readonly WhatIfRunInfo[];
  /** Problems met loading the instance's runs and line counts (the same for every rule set). */
  readonly problems: readonly Problem[];
}

function sameRegions(a: GroundTruth['coreRegions'], b: GroundTruth['coreRegions']): boolean {
  return a.length === b.length && a.every((r, i) => r.path === b[i]!.path && r.start === b[i]!.start && r.end === b[i]!.end);
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The variant ground truth and recounted meta of a record (see the module comment). */
export function variantGroundTruth(asWritten: GroundTruth, variant: WhatIfVariant): { groundTruth: GroundTruth; meta: Map<string, number> } {
  const coreRegions = sameRegions(asWritten.coreRegions, variant.coreRegions) ? asWritten.coreRegions : variant.coreRegions;
  const coreFiles = sameStrings(asWritten.coreFiles, variant.coreFiles) ? asWritten.coreFiles : variant.coreFiles;
  const modified = new Set(asWritten.modifiedCoreFiles);
  const main = variant.coreFiles.filter((p) => modified.has(p));
  const mainFiles = sameStrings(asWritten.mainFiles, main) ? asWritten.mainFiles : main;
  const unchanged = coreRegions === asWritten.coreRegions && coreFiles === asWritten.coreFiles && mainFiles === asWritten.mainFiles;
  const groundTruth: GroundTruth = unchanged ? asWritten : { ...asWritten, coreRegions, coreFiles, mainFiles };
  const meta = new Map<string, number>([
    ['num_trajectories', variant.runCounts.rebuilt + variant.runCounts.asRecorded],
    ['num_read_core', coreFiles.length],
    ['num_read_core_regions', coreRegions.length],
    ['num_modified_core', asWritten.modifiedCoreFiles.length],
    ['num_main', mainFiles.length],
  ]);
  return { groundTruth, meta };
}

/** Scoring options as a cache key. */
function scoringKey(options: ScoringOptions): string {
  return JSON.stringify([options.profile, options.k, options.budgets ?? [], options.keepEmptyCore === true]);
}

/** The paths whose line counts a what-if of the instance may need. */
function whatIfPaths(entry: InstanceEntry, loaded: readonly (WhatIfRunInput['loaded'] | undefined)[]): Set<string> {
  const paths = groundTruthPaths(entry.groundTruth);
  for (const p of Object.keys(entry.record.read_step_info ?? {})) paths.add(p);
  for (const run of loaded) {
    if (run === undefined) continue;
    for (const r of run.reads) paths.add(r.path);
    for (const s of run.swallowed) paths.add(s.path);
  }
  return paths;
}

/**
 * What-if variants of a workspace's instances (see the module comment). Runs are loaded once per
 * instance; a variant is computed once per instance and rule set. The data API the extension uses:
 * {@link WhatIfSession.variantOf} (async, the first time per instance reads its runs),
 * {@link WhatIfSession.cachedVariant} and {@link WhatIfSession.explainLine} (synchronous, from the
 * cache), {@link WhatIfSession.variants} (every instance, for scores).
 */
export class WhatIfSession {
  private readonly reports: ResolutionReports;
  private readonly runs = new Map<string, Promise<InstanceRuns>>();
  private readonly settledRuns = new Map<string, InstanceRuns>();
  private readonly variantsByInstance = new Map<string, Map<string, InstanceWhatIf>>();
  /** The as-written side, scored once per scoring options. */
  private readonly scoredAsWritten = new Map<string, WhatIfScores>();
  private readonly scoresByKey = new Map<string, WhatIfScores>();

  constructor(
    readonly model: WorkspaceModel,
    private readonly sources: WhatIfSources,
    private readonly cache: LineCountCache = new LineCountCache(),
  ) {
    this.reports = new ResolutionReports(sources.reports, sources.reportsBase);
  }

  /** The instance's runs, found and loaded once (concurrent callers share the work). Rejects for an id the bench lacks. */
  runsOf(instanceId: string): Promise<InstanceRuns> {
    let pending = this.runs.get(instanceId);
    if (pending === undefined) {
      const entry = this.model.instances.get(instanceId);
      if (entry === undefined) return Promise.reject(new Error(`no bench record for instance ${JSON.stringify(instanceId)}`));
      pending = this.loadRuns(entry).then((runs) => {
        this.settledRuns.set(instanceId, runs);
        return runs;
      });
      this.runs.set(instanceId, pending);
      // A failed load is not cached: the next call tries again.
      pending.catch(() => this.runs.delete(instanceId));
    }
    return pending;
  }

  /** The instance under the rules: computed once per rule set, then from the cache. */
  async variantOf(instanceId: string, rules: WhatIfRules): Promise<InstanceWhatIf> {
    const cached = this.cachedVariant(instanceId, rules);
    if (cached !== undefined) return cached;
    const runs = await this.runsOf(instanceId);
    const entry = this.model.instances.get(instanceId)!;
    const variant = whatIfVariant({ ...runs.input, rules });
    const { groundTruth, meta } = variantGroundTruth(entry.groundTruth, variant);
    const result: InstanceWhatIf = { instanceId, rules, variant, groundTruth, meta, runs: runs.runs, problems: runs.problems };
    let byRules = this.variantsByInstance.get(instanceId);
    if (byRules === undefined) this.variantsByInstance.set(instanceId, (byRules = new Map()));
    byRules.set(whatIfRulesKey(rules), result);
    if (this.sources.retainRuns === false) {
      this.runs.delete(instanceId);
      this.settledRuns.delete(instanceId);
    }
    return result;
  }

  /** A variant already computed, or undefined. */
  cachedVariant(instanceId: string, rules: WhatIfRules): InstanceWhatIf | undefined {
    return this.variantsByInstance.get(instanceId)?.get(whatIfRulesKey(rules));
  }

  /**
   * Why a line joins or leaves (or stays in) the variant core: from the cache, synchronously;
   * undefined until {@link variantOf} computed it (and its runs are still held).
   */
  explainLine(instanceId: string, rules: WhatIfRules, filePath: string, line: number): WhatIfLineReason | undefined {
    const computed = this.cachedVariant(instanceId, rules);
    const runs = this.settledRuns.get(instanceId);
    if (computed === undefined || runs === undefined) return undefined;
    return explainWhatIfLine({ ...runs.input, rules }, computed.variant, filePath, line);
  }

  /**
   * Every instance of the bench under the rules, in bench order. `onProgress(done, total)` after
   * each instance; an aborted signal stops between instances.
   */
  async variants(rules: WhatIfRules, options: VariantsOptions = {}): Promise<Map<string, InstanceWhatIf>> {
    const ids = [...this.model.instances.keys()];
    let done = 0;
    // With the runs loaded every step is synchronous: a turn of the event loop every slice keeps a host responsive.
    const pause = createYielder();
    const results = await mapWithConcurrency(ids, options.instancesAtOnce ?? 1, async (instanceId) => {
      options.signal?.throwIfAborted();
      const wait = pause();
      if (wait !== undefined) await wait;
      const result = await this.variantOf(instanceId, rules);
      options.onProgress?.(++done, ids.length);
      return result;
    });
    return new Map(results.map((r) => [r.instanceId, r]));
  }

  /**
   * Every explorer as written and under the rules ({@link whatIfScores}), computed once per rule set
   * and scoring options (the as-written side once per options), then from the cache.
   */
  async scoresOf(rules: WhatIfRules, options: ScoringOptions, progress: VariantsOptions = {}): Promise<WhatIfScores> {
    const key = `${whatIfRulesKey(rules)}\u0000${scoringKey(options)}`;
    const cached = this.scoresByKey.get(key);
    if (cached !== undefined) return cached;
    const variants = await this.variants(rules, progress);
    const asWritten = this.scoredAsWritten.get(scoringKey(options));
    let scores = await whatIfScores(this.model, variants, options, this.cache, asWritten?.before);
    if (asWritten === undefined) this.scoredAsWritten.set(scoringKey(options), scores);
    // Problems belong to the as-written pass: every rule set reports them.
    else scores = { ...scores, problems: asWritten.problems };
    this.scoresByKey.set(key, scores);
    return scores;
  }

  /** Scores already computed for the rules and options, or undefined. */
  cachedScores(rules: WhatIfRules, options: ScoringOptions): WhatIfScores | undefined {
    return this.scoresByKey.get(`${whatIfRulesKey(rules)}\u0000${scoringKey(options)}`);
  }

  /** Forgets every loaded run, variant and score (after the workspace or the sources changed). */
  clear(): void {
    this.runs.clear();
    this.settledRuns.clear();
    this.variantsByInstance.clear();
    this.scoredAsWritten.clear();
    this.scoresByKey.clear();
  }

  private async snapshotOf(entry: InstanceEntry): Promise<string | undefined> {
    if (entry.snapshotRoot !== undefined || entry.snapshotFailure !== undefined || this.model.reposRoot === undefined) return entry.snapshotRoot;
    const located = await locateSnapshot(this.model.reposRoot, entry.instanceId, entry.record.repo_dir);
    return located.ok ? located.real : undefined;
  }

  private async loadRuns(entry: InstanceEntry): Promise<InstanceRuns> {
    const instanceId = entry.instanceId;
    const readStepInfo = entry.record.read_step_info;
    const recordModels = recordedRunModels(readStepInfo, Object.keys(entry.groundTruth.optionalRegionsByModel));
    const repoDir = await this.snapshotOf(entry);
    const repoPath = typeof entry.record.repo_path === 'string' && entry.record.repo_path !== '' ? entry.record.repo_path : DEFAULT_REPO_PATH;
    const problems: Problem[] = [];
    // The runs of an instance name mostly the same files: each is checked on disk once.
    const known = new Map<string, boolean>();
    const filesIn = async (dir: string, paths: readonly string[]): Promise<ReadonlySet<string>> => {
      const found = await filesInRepository(
        dir,
        paths.filter((p) => !known.has(p)),
      );
      for (const p of paths) if (!known.has(p)) known.set(p, found.has(p));
      return new Set(paths.filter((p) => known.get(p) === true));
    };
    const infos: WhatIfRunInfo[] = [];
    const inputs = new Map<string, WhatIfRunInput>();
    // The runs of an instance are read at once (their file reads overlap), and kept in the record's order.
    const loadOne = async (trajPath: string): Promise<{ info: WhatIfRunInfo; input: WhatIfRunInput; problems: Problem[] }> => {
      const runProblems: Problem[] = [];
      const recordModel = recordModels.get(trajPath);
      const located = await locateRun(trajPath, instanceId, this.sources.locator, recordModel);
      let loaded: WhatIfRunInput['loaded'];
      let model = recordModel;
      let verification: RunVerification | undefined;
      if (located.found) {
        const { run, problems: readProblems } = await loadRun(located.file, { repoPath, instanceId, filesIn, ...(repoDir === undefined ? {} : { repoDir }) });
        for (const p of readProblems) runProblems.push({ ...p, instanceId });
        if (run !== undefined) {
          model = run.model !== '' ? run.model : recordModel;
          const keep = this.sources.keepCommands === true;
          const reads: WhatIfRead[] = run.reads.reads.map((r) => (keep ? { ...r, commandText: readCommandText(run.trajectory.messages, r) } : r));
          const swallowed: WhatIfSwallowed[] = run.reads.swallowed.map((s) => (keep ? { ...s, commandText: readCommandText(run.trajectory.messages, s) } : s));
          loaded = { reads, swallowed };
          verification = verifyRun(
            trajPath,
            run.reads.reads.map((r) => ({ path: r.path, stepIdx: r.stepIdx, start: r.start, end: r.end })),
            readStepInfo,
          );
        }
      }
      const answer = await this.reports.resolutionOf(trajPath, instanceId, model);
      for (const p of answer.problems) runProblems.push(p);
      return {
        info: { trajPath, model, resolution: answer.resolution, reportFile: answer.file, located, loaded: loaded !== undefined, verification },
        input: { trajPath, model, resolution: answer.resolution, loaded },
        problems: runProblems,
      };
    };
    for (const { info, input, problems: runProblems } of await Promise.all([...recordedRuns(readStepInfo).keys()].map(loadOne))) {
      infos.push(info);
      inputs.set(info.trajPath, input);
      for (const p of runProblems) problems.push(p);
    }
    const counted = await instanceLineCounts(
      this.model,
      entry,
      whatIfPaths(
        entry,
        [...inputs.values()].map((i) => i.loaded),
      ),
      this.cache,
    );
    for (const p of counted.problems) problems.push(p);
    const lineCounts: LineCounts = counted.counts;
    return { instanceId, runs: infos, input: { readStepInfo, coreRegions: entry.groundTruth.coreRegions, runs: inputs, lineCounts }, problems };
  }
}

// ---------------------------------------------------------------------------------------------
// The report lines (`swe-explore whatif --format json`: keys and their order are the contract)

export interface WhatIfInstanceLine {
  readonly kind: 'instance';
  readonly instance_id: string;
  readonly core_lines_before: number;
  readonly core_lines_after: number;
  readonly joined: number;
  readonly left: number;
  readonly runs: { readonly rebuilt: number; readonly as_recorded: number; readonly dropped: number };
}

export interface WhatIfExplorerLine {
  readonly kind: 'explorer';
  readonly explorer: string;
  readonly before: OfficialMetrics;
  readonly after: OfficialMetrics;
}

export type WhatIfRankingLine = RankingImpact;

export interface WhatIfTotalLine {
  readonly kind: 'total';
  readonly instances: number;
  readonly core_lines_before: number;
  readonly core_lines_after: number;
  readonly joined: number;
  readonly left: number;
}

export type WhatIfLine = WhatIfInstanceLine | WhatIfExplorerLine | WhatIfRankingLine | WhatIfTotalLine;

/** An instance's line. */
export function whatIfInstanceLine(result: InstanceWhatIf): WhatIfInstanceLine {
  const v = result.variant;
  return {
    kind: 'instance',
    instance_id: result.instanceId,
    core_lines_before: v.coreLinesBefore,
    core_lines_after: v.coreLinesAfter,
    joined: v.joinedLines,
    left: v.leftLines,
    runs: { rebuilt: v.runCounts.rebuilt, as_recorded: v.runCounts.asRecorded, dropped: v.runCounts.dropped },
  };
}

/** The total line over instance lines. */
export function whatIfTotalLine(instances: readonly WhatIfInstanceLine[]): WhatIfTotalLine {
  const sum = (pick: (l: WhatIfInstanceLine) => number): number => instances.reduce((total, l) => total + pick(l), 0);
  return {
    kind: 'total',
    instances: instances.length,
    core_lines_before: sum((l) => l.core_lines_before),
    core_lines_after: sum((l) => l.core_lines_after),
    joined: sum((l) => l.joined),
    left: sum((l) => l.left),
  };
}

/**
 * The report's lines in the contract's order: every instance (bench order), then, with scores, every
 * explorer and the ranking lines, then the total. What `swe-explore whatif` prints and the Markdown
 * report renders.
 */
export function whatIfLines(variants: ReadonlyMap<string, InstanceWhatIf>, scores?: Pick<WhatIfScores, 'explorers' | 'rankings'>): WhatIfLine[] {
  const instances = [...variants.values()].map(whatIfInstanceLine);
  const lines: WhatIfLine[] = [...instances];
  if (scores !== undefined) {
    for (const line of scores.explorers) lines.push(line);
    for (const line of scores.rankings) lines.push(line);
  }
  lines.push(whatIfTotalLine(instances));
  return lines;
}

export interface WhatIfScores {
  readonly explorers: readonly WhatIfExplorerLine[];
  readonly rankings: readonly WhatIfRankingLine[];
  /** Scored as written but not under the variant (its core became empty): left out of both sides. */
  readonly emptiedByVariant: readonly string[];
  /** Scored under the variant but not as written (an empty core as written): left out of both sides. */
  readonly filledByVariant: readonly string[];
  /** The as-written scoring (every row). */
  readonly before: ScoreResult;
  /** The rows under the variant, over the instances scored on both sides, in the as-written order. */
  readonly after: readonly ScoredRow[];
  /** Problems of the before pass (rows of unknown instances, line counts). */
  readonly problems: readonly Problem[];
}

/** The workspace with each instance's ground truth replaced by its variant (others as written). */
export function variantWorkspace(model: WorkspaceModel, variants: ReadonlyMap<string, { readonly groundTruth: GroundTruth }>): WorkspaceModel {
  const instances = new Map<string, InstanceEntry>();
  for (const [instanceId, entry] of model.instances) {
    const variant = variants.get(instanceId);
    instances.set(instanceId, variant === undefined ? entry : { ...entry, groundTruth: variant.groundTruth });
  }
  return { ...model, instances };
}

/**
 * Every explorer scored as written and under the variant, exactly as `score` scores each bench
 * (top-k, empty cores skipped), then macro-averaged over the same instances on both sides: those
 * scored on both (an instance whose core the variant empties, or fills, is left out of both and
 * named). Rankings (best first) and Kendall's τ-b per ranking metric, as in the audit impact.
 * `before` may be passed when the caller already scored the workspace as written.
 */
export async function whatIfScores(
  model: WorkspaceModel,
  variants: ReadonlyMap<string, { readonly groundTruth: GroundTruth }>,
  options: ScoringOptions,
  cache: LineCountCache,
  before?: ScoreResult,
): Promise<WhatIfScores> {
  const problems: Problem[] = [];
  let beforeResult = before;
  if (beforeResult === undefined) {
    const scored = await scoreWorkspaceModel(model, options, cache);
    for (const p of scored.problems) problems.push(p);
    for (const p of scored.lineCountProblems) problems.push(p);
    beforeResult = scored;
  }
  const variantModel = variantWorkspace(model, variants);
  const emptiedByVariant: string[] = [];
  const filledByVariant: string[] = [];
  const changed = new Map<string, InstanceEntry>();
  for (const [instanceId, entry] of model.instances) {
    const variantEntry = variantModel.instances.get(instanceId)!;
    const scoredBefore = isScored(entry, options.keepEmptyCore);
    const scoredAfter = isScored(variantEntry, options.keepEmptyCore);
    if (scoredBefore && !scoredAfter) emptiedByVariant.push(instanceId);
    if (!scoredBefore && scoredAfter) filledByVariant.push(instanceId);
    if (scoredBefore && scoredAfter && variantEntry.groundTruth !== entry.groundTruth) changed.set(instanceId, variantEntry);
  }
  const leftOut = new Set([...emptiedByVariant, ...filledByVariant]);
  // Only instances whose ground truth the rules changed are scored again (through the very path
  // `score` takes); the others keep their as-written rows, which are what `score` gives them on the
  // variant bench. Rows stay in the as-written order, so the averages sum in `score`'s order.
  const rescored = await scoreWorkspaceModel({ ...variantModel, instances: changed }, options, cache);
  const rowsByKey = new Map(rescored.rows.map((row) => [`${row.explorer}\u0000${row.instanceId}`, row]));
  const beforeRows: ScoredRow[] = [];
  const afterRows: ScoredRow[] = [];
  for (const row of beforeResult.rows) {
    const after = changed.has(row.instanceId) ? rowsByKey.get(`${row.explorer}\u0000${row.instanceId}`) : row;
    if (leftOut.has(row.instanceId) || after === undefined) continue;
    beforeRows.push(row);
    afterRows.push(after);
  }
  const impact = auditImpact({ before: beforeRows, after: afterRows, auditedInstances: [], removals: [] });
  const explorers: WhatIfExplorerLine[] = [];
  const rankings: WhatIfRankingLine[] = [];
  for (const line of impact) {
    if (line.kind === 'explorer') explorers.push({ kind: 'explorer', explorer: line.explorer, before: line.before, after: line.after });
    else if (line.kind === 'ranking') rankings.push(line);
  }
  return { explorers, rankings, emptiedByVariant, filledByVariant, before: beforeResult, after: afterRows, problems };
}

/** The variant bench's record lines, in the bench's order (see `spliceGroundTruth`); records without a variant are written as read. */
export function variantBenchLines(model: WorkspaceModel, variants: ReadonlyMap<string, Pick<InstanceWhatIf, 'groundTruth' | 'meta'>>): string[] {
  return model.benchItems.map((item) => {
    const entry = model.instances.get(item.value.instance_id);
    const variant = variants.get(item.value.instance_id);
    // A repeated id's later records are not the instance (the first record wins): written as read.
    if (entry === undefined || variant === undefined || entry.benchLine !== item.line) return item.raw;
    return spliceGroundTruth(item.raw, entry.groundTruth, variant.groundTruth, variant.meta);
  });
}

/**
 * Why the variant bench must not be written to `output`, or undefined when it may: one of the
 * inputs (the bench, prediction files, the line-counts file) or anything inside a
 * `.swe-explore/audit` folder (the audit log), compared by real path so a symlink or `..` cannot
 * get around it.
 */
export async function whatIfOutputRefusal(output: string, inputs: readonly string[]): Promise<string | undefined> {
  const target = await realTarget(output);
  for (const input of inputs) if (target === (await realTarget(input))) return `names an input file (${input}); inputs are never overwritten`;
  const parts = target.split(path.sep);
  for (let i = 0; i + 1 < parts.length - 1; i++)
    if (parts[i] === '.swe-explore' && parts[i + 1] === 'audit') return 'lies inside a .swe-explore/audit folder; the audit log is never written by a what-if';
  return undefined;
}

/** Where a variant bench written to `output` is registered: the bench's folder when the output lies inside it, else the output's own folder. */
export function whatIfRegistryRoot(output: string, benchFile: string): string {
  const benchDir = path.dirname(path.resolve(benchFile));
  const target = path.resolve(output);
  return target.startsWith(benchDir + path.sep) ? benchDir : path.dirname(target);
}
