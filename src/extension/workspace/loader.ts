import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  benchCandidates,
  checkWorkspace,
  EMPTY_WORKSPACE,
  EXPLORER_TRAJECTORY_EXCLUDE_GLOB,
  findExplorerTrajectoryFolder,
  globBase,
  indexExplorerRuns,
  LineCountCache,
  loadWorkspace,
  nextTurn,
  type ExplorerRunIndex,
  type Problem,
  type WorkspaceModel,
} from '../../data';
import { Debounced } from '../base/debounce';
import { Disposable } from '../base/lifecycle';
import { LineCountReader } from './lineCountReader';
import { readDataSettings, type DataSettings } from '../base/settings';
import type { Store } from '../state/store';
import { SETTING_GROUPS, VIEWS } from '../base/ids';

const RELOAD_DEBOUNCE_MS = 150;

/**
 * Finds the workspace's bench and prediction files, loads them through the shared workspace model
 * (the same loader as the CLI), reads snapshot line counts (the current instance first, then the
 * rest in the background), runs the data checks for the Problems panel off the critical path, and
 * reloads when a data file changes on disk. A reload supersedes the one before it: stale results
 * are dropped and stale background work stops at its next step.
 */
export class WorkspaceLoader extends Disposable {
  private readonly cache = new LineCountCache();
  private watchers: vscode.Disposable[] = [];
  private generation = 0;
  private readonly reloadSoon = this.register(new Debounced(RELOAD_DEBOUNCE_MS, () => void this.load()));
  private readonly problemsChanged = this.register(new vscode.EventEmitter<readonly Problem[]>());
  /** Fires with every problem known (what reading found, then the data checks). */
  readonly onDidChangeProblems = this.problemsChanged.event;
  /** The data checks' problems, found after loading. */
  private checkProblems: readonly Problem[] = [];
  private latestLoad: Promise<void> = Promise.resolve();
  /** Resolves when the data checks of the latest load are done (tests wait for it). */
  private latestCheck: Promise<void> = Promise.resolve();
  private latestCount: Promise<void> = Promise.resolve();
  /** Cancels the read of the load in progress when a newer one replaces it. */
  private loadAbort: AbortController | undefined;
  /** Set when the user pressed Cancel on the loading notification (the failure that follows is no error). */
  private cancelled = false;
  /**
   * Runs the user added (Add Predictions), read on every load after the found prediction files.
   * Asked for when the files are read, so a provider set during activation covers the first load.
   */
  addedRuns: () => AddedRuns = () => NO_ADDED_RUNS;
  /** Explorer run folders the user added (Add Explorer Trajectories), by explorer label; they win over a `trajs/` found beside the file. */
  addedExplorerRuns: () => ReadonlyMap<string, string> = () => new Map();

  private readonly counter: LineCountReader;
  private benchChoiceValue: BenchChoice = NO_BENCH;
  private readonly benchChosen = this.register(new vscode.EventEmitter<BenchChoice>());
  /** Fires after each load with the bench it chose and the other candidates. */
  readonly onDidChooseBench = this.benchChosen.event;

  /** The latest load's bench and the other files that may be the bench. */
  get benchChoice(): BenchChoice {
    return this.benchChoiceValue;
  }

  constructor(
    private readonly store: Store,
    /** Scores the rows of counted instances in the background (the model's row cache), stopping when `stale()`. */
    warmRows: (instanceIds: readonly string[], stale: () => boolean) => Promise<void>,
  ) {
    super();
    this.counter = new LineCountReader(store, this.cache, warmRows, () => this.generation);
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING_GROUPS.data)) this.scheduleReload();
      }),
    );
    this.register(
      store.onDidChange((change) => {
        const id = store.selection.instanceId;
        if (change.kind === 'selection' && change.changed.has('instanceId') && id !== undefined) void this.ensureLineCounts(id);
      }),
    );
    this.register({ dispose: () => this.disposeWatchers() });
    this.register({ dispose: () => this.loadAbort?.abort() });
  }

  /** Reads everything again from disk; the promise resolves (never rejects) when this load is done. */
  load(): Promise<void> {
    this.latestLoad = this.loadOnce();
    return this.latestLoad;
  }

  /** Resolves when the most recent load has finished (commands wait for it). */
  whenLoaded(): Promise<void> {
    return this.latestLoad;
  }

  /** Resolves when the most recent load has counted every instance and scored its rows in the background. */
  whenCounted(): Promise<void> {
    return this.latestCount;
  }

  /** Resolves when the most recent load's data checks have reached the Problems panel. */
  whenChecked(): Promise<void> {
    return this.latestCheck;
  }

  private async loadOnce(): Promise<void> {
    const generation = ++this.generation;
    // A results file appended to every fraction of a second must not pile up concurrent reads.
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    this.counter.reset();
    this.store.setLoading(true);
    try {
      await this.read(generation, abort.signal);
    } catch (error) {
      // Whatever failed, the views must leave "Loading…" and say why (in the Problems panel and
      // the Scores view, never as data text in a notification).
      if (generation !== this.generation) return;
      const cancelled = this.cancelled;
      this.cancelled = false;
      const message = cancelled ? 'loading was cancelled; run "SWE-Explore: Reload Data" to load again' : `loading the data failed: ${error instanceof Error ? error.message : String(error)}`;
      this.store.setData({ ...EMPTY_WORKSPACE, problems: [{ file: this.store.data.benchFile ?? '', line: 0, severity: 'error', code: 'io-error', message }] });
      this.problemsChanged.fire(this.allProblems());
      if (!cancelled) void vscode.window.showErrorMessage('SWE-Explore: loading the data failed; see the Problems panel.');
    }
  }

  private async read(generation: number, signal: AbortSignal): Promise<void> {
    const settings = readDataSettings();
    const reading = readWorkspace(
      settings,
      signal,
      () => this.addedRuns(),
      (choice) => {
        if (generation === this.generation) this.benchChoiceValue = choice;
      },
    );
    void vscode.window.withProgress({ location: { viewId: VIEWS.instances }, title: 'Loading SWE-Explore data' }, () => reading.catch(() => undefined));
    // A load that takes a while (a full benchmark with many runs) also gets a notification with
    // Cancel; quick reloads (a prediction file saved) stay quiet.
    const slow = setTimeout(() => {
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'SWE-Explore: loading the benchmark and its runs…', cancellable: true }, (_progress, token) => {
        token.onCancellationRequested(() => {
          if (generation === this.generation) this.cancelled = true;
          this.loadAbort?.abort();
        });
        return reading.catch(() => undefined);
      });
    }, NOTIFY_AFTER_MS);
    const read = await reading.finally(() => clearTimeout(slow));
    if (generation !== this.generation) return;
    const runs = await indexRunFolders(read, this.addedExplorerRuns());
    const model = runs.problems.length === 0 ? read : { ...read, problems: [...read.problems, ...runs.problems] };
    // Building the model's last index and filling the store and views are separate turns, so a
    // large benchmark never holds the extension host for both at once.
    await nextTurn();
    if (generation !== this.generation) return;
    this.cache.clear();
    this.checkProblems = [];
    this.store.setData(model, runs.folders);
    this.problemsChanged.fire(this.allProblems());
    this.benchChosen.fire(this.benchChoiceValue);
    this.watch(settings, model.benchFile);
    const current = this.store.selection.instanceId;
    if (current !== undefined) await this.ensureLineCounts(current);
    this.latestCount = this.counter.countInBackground(generation);
    this.latestCheck = this.check(generation, model);
  }

  /** Runs the data checks (inverted / past-EOF regions, missing files, escaping paths) for the Problems panel. */
  private async check(generation: number, model: WorkspaceModel): Promise<void> {
    if (model.benchFile === undefined) return;
    const problems = await checkWorkspace(model, this.cache);
    if (generation !== this.generation || this.store.data !== model) return;
    // checkWorkspace returns the reading problems too, sorted with the checks.
    this.checkProblems = problems;
    this.problemsChanged.fire(problems);
  }

  /** Resolves once the given instance's line counts are in the store (one read in flight per instance). */
  ensureLineCounts(instanceId: string): Promise<void> {
    return this.counter.ensure(instanceId);
  }

  /** Every problem known: what reading the files found, or — once they ran — the data checks (which include it). */
  allProblems(): Problem[] {
    return this.checkProblems.length > 0 ? [...this.checkProblems] : [...this.store.data.problems];
  }

  scheduleReload(): void {
    this.reloadSoon.schedule();
  }

  private watch(settings: DataSettings, benchFile: string | undefined): void {
    this.disposeWatchers();
    if (benchFile === undefined) return;
    const benchDir = path.dirname(benchFile);
    // Each glob is watched from its own literal folder, never the bench folder as a whole (which holds the snapshots).
    const watched = [{ base: benchDir, pattern: path.basename(benchFile) }, ...settings.predictionGlobs.map((glob) => globBase(benchDir, glob))];
    for (const { base, pattern } of watched) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(base), pattern));
      const reload = (): void => this.scheduleReload();
      this.watchers.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload));
    }
  }

  private disposeWatchers(): void {
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = [];
  }
}

/**
 * The explorers' own run folders (issue 19): the one the user added for a label, else `trajs/` beside
 * the explorer's prediction file. Indexing lists file names only; a run is read when it is needed.
 */
async function indexRunFolders(model: WorkspaceModel, added: ReadonlyMap<string, string>): Promise<{ folders: Map<string, ExplorerRunIndex>; problems: Problem[] }> {
  const folders = new Map<string, ExplorerRunIndex>();
  const problems: Problem[] = [];
  // One index per folder: the explorers of one prediction file share its trajs/.
  const byFolder = new Map<string, Promise<ExplorerRunIndex>>();
  const isInstance = (id: string): boolean => model.instances.has(id);
  for (const [label, run] of model.explorers) {
    const folder = added.get(label) ?? (await findExplorerTrajectoryFolder(run.file));
    if (folder === undefined) continue;
    let index = byFolder.get(folder);
    if (index === undefined) {
      byFolder.set(folder, (index = indexExplorerRuns(folder, isInstance)));
      for (const p of (await index).problems) problems.push(p);
    }
    folders.set(label, await index);
  }
  return { folders, problems };
}

/** Prediction files and transcript folders added by the user, as absolute paths. */
export interface AddedRuns {
  readonly predictionFiles: readonly string[];
  readonly transcriptFolders: readonly string[];
}

const NO_ADDED_RUNS: AddedRuns = { predictionFiles: [], transcriptFolders: [] };

/** A load still running after this long shows a cancellable notification too. */
const NOTIFY_AFTER_MS = 400;

function resolveSetting(value: string): string | undefined {
  if (value === '') return undefined;
  if (path.isAbsolute(value)) return value;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder === undefined ? undefined : path.join(folder.uri.fsPath, value);
}

/**
 * The bench file: the setting, else the first `bench*.jsonl` in the workspace (shallowest first)
 * that is not a file this tool wrote (an export under `.swe-explore/`, or one the export registry
 * recognises wherever it was moved). The other candidates are returned so that more than one is
 * a visible choice, never a silent one.
 */
async function findBenchFile(settings: DataSettings): Promise<BenchChoice> {
  const configured = resolveSetting(settings.benchFile);
  if (configured !== undefined) return { file: configured, candidates: [configured], configured: true };
  const candidates = await searchBenchCandidates();
  return { file: candidates[0], candidates, configured: false };
}

/** The workspace's `bench*.jsonl` files that may be the bench (not this tool's exports), shallowest first. */
export async function searchBenchCandidates(): Promise<readonly string[]> {
  const found = await vscode.workspace.findFiles('**/bench*.jsonl', '**/{node_modules,.git}/**', 50);
  const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  return (
    await benchCandidates(
      found.map((uri) => uri.fsPath),
      roots,
    )
  ).candidates;
}

/** Which bench a load chose, and among which candidates. */
export interface BenchChoice {
  readonly file: string | undefined;
  /** Every file that may be the bench, the loaded one first when it was found (not configured). */
  readonly candidates: readonly string[];
  /** Whether `sweExplore.data.benchFile` named it. */
  readonly configured: boolean;
}

const NO_BENCH: BenchChoice = { file: undefined, candidates: [], configured: false };

/** Finds the files the settings point at and loads them through the shared workspace model. */
async function readWorkspace(settings: DataSettings, signal: AbortSignal, addedRuns: () => AddedRuns, chosen: (choice: BenchChoice) => void): Promise<WorkspaceModel> {
  const choice = await findBenchFile(settings);
  chosen(choice);
  const benchFile = choice.file;
  if (benchFile === undefined) return EMPTY_WORKSPACE;
  const added = addedRuns();
  const benchDir = path.dirname(benchFile);
  const predictionFiles = new Set<string>();
  for (const glob of settings.predictionGlobs) {
    // Searched from the glob's literal folder (results/), so the snapshots beside it are not walked.
    const { base, pattern } = globBase(benchDir, glob);
    // An explorer's runs (`results/<explorer>/trajs/`) are `.jsonl` too, and are not predictions.
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.file(base), pattern), `{**/node_modules/**,${EXPLORER_TRAJECTORY_EXCLUDE_GLOB}}`);
    for (const uri of uris) if (uri.fsPath !== benchFile) predictionFiles.add(uri.fsPath);
  }
  const reposRoot = resolveSetting(settings.reposRoot);
  const lineCountsFile = resolveSetting(settings.lineCountsFile);
  const found = [...predictionFiles].sort();
  const foundSet = new Set(found);
  return loadWorkspace({
    benchFile,
    predictionFiles: [...found, ...added.predictionFiles.filter((file) => !foundSet.has(file))],
    transcriptFolders: added.transcriptFolders,
    ...(reposRoot === undefined ? {} : { reposRoot }),
    ...(lineCountsFile === undefined ? {} : { lineCountsFile }),
    signal,
  });
}
