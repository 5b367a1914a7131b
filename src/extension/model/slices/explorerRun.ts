/**
 * What the explorer's own run viewed on the open instance (issue 19): the run of explorer A (and of
 * B while comparing) read in the background on first use — the same reader as `swe-explore misses
 * --explorer-trajs` — with its viewed lines, and the missed core lines it viewed ("seen but not
 * reported", what Next Seen-but-Missed walks).
 */
import { seenAnatomy, seenMissedLines, viewedLineSet, type LineSet, type MissAnatomy, type PreparedGroundTruth, type SeenAnatomy } from '../../../core';
import { explorerRunInstance, loadExplorerRun, type ExplorerRunEntry, type ExplorerRunView, type InstanceEntry } from '../../../data';
import type { InstanceSlice, SliceInput } from '../slices';

/** The explorer's run on this instance, or why there is none (yet). */
export type ExplorerRunState =
  /** No explorer chosen (or no compare side B). */
  | { readonly kind: 'none' }
  /** The explorer has no run folder (nothing found beside its file, none added). */
  | { readonly kind: 'no-folder'; readonly explorer: string }
  /** The explorer's folder holds no run of this instance. */
  | { readonly kind: 'no-run'; readonly explorer: string; readonly folder: string }
  | { readonly kind: 'loading'; readonly explorer: string; readonly path: string }
  | { readonly kind: 'failed'; readonly explorer: string; readonly path: string; readonly message: string }
  | {
      readonly kind: 'loaded';
      readonly explorer: string;
      readonly run: ExplorerRunView;
      /** Per path, every line the run showed. */
      readonly viewed: LineSet;
      /** The explorer's missed core lines the run showed (undefined without the explorer's anatomy). */
      readonly seenMissed: LineSet | undefined;
      /** The explorer's core lines per miss category, split by seen (undefined without its anatomy). */
      readonly seen: SeenAnatomy | undefined;
    };

/** An explorer run read (what it viewed), or why it could not be. */
export type LoadedRun = { readonly run: ExplorerRunView } | { readonly message: string };

/** Reads one explorer run of an instance (every read of the run: the editor shows every file it viewed). */
export function readExplorerRun(instance: InstanceEntry, groundTruth: PreparedGroundTruth, entry: ExplorerRunEntry): Promise<LoadedRun> {
  return loadExplorerRun(entry, explorerRunInstance(instance, groundTruth, instance.snapshotRoot)).then((loaded) =>
    loaded.run !== undefined ? { run: loaded.run } : { message: loaded.problems[0]?.message ?? 'the run could not be read' },
  );
}

/**
 * The key of a run's read among the model's background reads: the instance, the file and how many
 * line counts were known (read again once they are: `end = -1` reads resolve with them).
 */
export function explorerRunKey(instanceId: string, entry: ExplorerRunEntry, lineCounts: number): string {
  return JSON.stringify(['explorerRun', instanceId, entry.file, lineCounts]);
}

/** What a failed read settles to. */
export function failedRead(error: unknown): LoadedRun {
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The run of `explorer` on the slice's instance, with what it viewed of `anatomy`'s missed lines. */
function runState(input: SliceInput, explorer: string | undefined, anatomy: MissAnatomy | undefined, stale: () => void): ExplorerRunState {
  if (explorer === undefined) return { kind: 'none' };
  const folder = input.store.explorerRuns.get(explorer);
  if (folder === undefined) return { kind: 'no-folder', explorer };
  const entry = folder.runs.get(input.instance.instanceId);
  if (entry === undefined) return { kind: 'no-run', explorer, folder: folder.folder };
  const key = explorerRunKey(input.instance.instanceId, entry, input.lineCounts.size);
  const read = input.background.get(key, () => readExplorerRun(input.instance, input.groundTruth, entry), failedRead, stale);
  if (!read.done) return { kind: 'loading', explorer, path: entry.path };
  if (!('run' in read.value)) return { kind: 'failed', explorer, path: entry.path, message: read.value.message };
  const viewed = viewedLineSet(read.value.run.viewed);
  return {
    kind: 'loaded',
    explorer,
    run: read.value.run,
    viewed,
    seenMissed: anatomy === undefined ? undefined : seenMissedLines(anatomy, viewed),
    seen: anatomy === undefined ? undefined : seenAnatomy(anatomy, viewed),
  };
}

const keyOf = (explorer: string | undefined, { selection: s, groundTruthKey }: SliceInput): string => JSON.stringify([explorer ?? null, s.budget, s.topK, groundTruthKey]);

/** Explorer A's run (the selection's explorer). */
export const EXPLORER_RUN: InstanceSlice<ExplorerRunState> = {
  id: 'explorerRun',
  key: (input) => keyOf(input.selection.explorer, input),
  compute: (input, stale) => runState(input, input.selection.explorer, input.view?.anatomy, stale),
};

/** Compare side B's run, while comparing. */
export const COMPARED_EXPLORER_RUN: InstanceSlice<ExplorerRunState> = {
  id: 'comparedExplorerRun',
  key: (input) => keyOf(input.selection.compareWith, input),
  compute: (input, stale) => runState(input, input.selection.compareWith, input.view?.compared?.anatomy, stale),
};
