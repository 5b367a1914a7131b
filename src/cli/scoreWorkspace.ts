import type { Profile } from '../core';
import { checkWorkspace, LineCountCache, loadWorkspace, scoreWorkspaceModel, summariseByRepo, type Problem, type RepoSummary, type ScoreResult, type WorkspaceSources } from '../data';

export type { ExplorerSummary, MetricValues, RepoSummary, ScoredRow, ScoreResult } from '../data';

/** What `score --group-by` groups macro averages by. */
export type GroupBy = 'repo';

export interface ScoreOptions {
  readonly benchFile: string;
  readonly predictionFiles: readonly string[];
  /** Folders of agent transcripts (`RELEVANT_FILES:` answers), one explorer each. */
  readonly transcriptFolders?: readonly string[];
  /** Folder `repo_dir` is resolved against; default: the bench file's folder. */
  readonly reposRoot?: string;
  /** `{instance_id: {path: count}}`; default: `line_counts.json` beside the bench, when present. */
  readonly lineCountsFile?: string;
  readonly profile: Profile;
  readonly k: number;
  /** Extra budgets besides the official 100/300/500 (their nDCG/Recall fields are appended). */
  readonly budgets: readonly number[];
  readonly keepEmptyCore: boolean;
  /** Also average each explorer per group (`repo`): `repoSummaries` is empty without it. */
  readonly groupBy?: GroupBy;
}

/**
 * `swe-explore score`: loads the workspace through the shared workspace model and scores it with
 * the shared scoring path, so the numbers and labels equal the extension's.
 */
export async function scoreWorkspace(options: ScoreOptions): Promise<ScoreResult & { readonly repoSummaries: readonly RepoSummary[] }> {
  const model = await loadWorkspace(scoringSources(options));
  const result = await scoreWorkspaceModel(model, options, new LineCountCache());
  const problems: Problem[] = [];
  for (const list of [model.problems, result.lineCountProblems, result.problems]) for (const p of list) problems.push(p);
  const repoSummaries = options.groupBy === 'repo' ? summariseByRepo(result.rows, model, result.fields) : [];
  return { ...result, problems, repoSummaries };
}

/**
 * What `score` and `misses` load: the sources of `options` (its scoring fields left out), with the
 * snapshots looked up only when a line count needs one, unless transcripts are read.
 */
export function scoringSources(options: Pick<WorkspaceSources, 'benchFile' | 'predictionFiles' | 'transcriptFolders' | 'reposRoot' | 'lineCountsFile'>): WorkspaceSources {
  const { benchFile, predictionFiles, transcriptFolders = [], reposRoot, lineCountsFile } = options;
  return {
    benchFile,
    predictionFiles,
    transcriptFolders,
    ...(reposRoot === undefined ? {} : { reposRoot }),
    ...(lineCountsFile === undefined ? {} : { lineCountsFile }),
    // Transcripts are parsed against their instance's snapshot, so snapshots are located up front then.
    ...(transcriptFolders.length === 0 ? { locateSnapshots: 'when-needed' as const } : {}),
  };
}

/** `swe-explore validate`: the same problems the extension's Problems panel shows for the folder. */
export async function validateSources(sources: WorkspaceSources): Promise<Problem[]> {
  return checkWorkspace(await loadWorkspace(sources), new LineCountCache());
}
