import type { Profile } from '../core';
import {
  checkWorkspace,
  LineCountCache,
  loadBenchSide,
  loadWorkspace,
  prepareScoredGroundTruths,
  repoRule,
  scoreEachRow,
  scoreStreamed,
  type Problem,
  type RepoSummary,
  type ScoredRow,
  type ScoreResult,
  type ScoreTotals,
  type WorkspaceSources,
} from '../data';

export type { ExplorerSummary, MetricValues, RepoSummary, ScoredRow, ScoreResult, ScoreTotals } from '../data';

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
  const rows: ScoredRow[] = [];
  const totals = await scoreWorkspaceEach(options, (row) => {
    rows.push(row);
  });
  return { rows, ...totals };
}

/**
 * {@link scoreWorkspace} as a stream: each row goes to `visit` in output order and none is kept
 * (at benchmark scale, keeping 17k rows of 17 numbers cost more in garbage collection than scoring
 * them). When the workspace qualifies, rows are even scored as they are read (see `scoreStreamed`),
 * and a promise returned by `visit` (its output is backed up) holds the next row back; otherwise
 * rows are scored through the workspace model, without waiting. Problems: reading the files, line
 * counts, then the rows'.
 */
export async function scoreWorkspaceEach(options: ScoreOptions, visit: (row: ScoredRow) => void | Promise<void>): Promise<ScoreTotals & { readonly repoSummaries: readonly RepoSummary[] }> {
  const sources = scoringSources(options);
  const bench = await loadBenchSide(sources);
  const streamed = await scoreStreamed(bench, sources, options, visit, options.groupBy === 'repo');
  if (streamed !== undefined) return streamed;
  const model = await loadWorkspace(sources, bench);
  const { prepared, lineCountProblems } = await prepareScoredGroundTruths(model, options, new LineCountCache());
  const result = scoreEachRow(
    model,
    (entry) => prepared.get(entry.instanceId),
    options,
    (row) => void visit(row),
    options.groupBy === 'repo' ? repoRule(model) : undefined,
  );
  const problems: Problem[] = [];
  for (const list of [model.problems, lineCountProblems, result.problems]) for (const p of list) problems.push(p);
  return { ...result, problems };
}

/**
 * What `score` and `misses` load: the sources of `options` (its scoring fields left out), with the
 * snapshots looked up only when a line count needs one, unless transcripts are read, and only what
 * scoring reads of the prediction rows.
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
    keep: 'scoring',
  };
}

/** `swe-explore validate`: the same problems the extension's Problems panel shows for the folder. */
export async function validateSources(sources: WorkspaceSources): Promise<Problem[]> {
  return checkWorkspace(await loadWorkspace(sources), new LineCountCache());
}
