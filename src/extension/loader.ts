import * as path from 'node:path';
import { access } from 'node:fs/promises';
import * as vscode from 'vscode';
import { readBenchFile, readPredictionFile, type JsonlItem } from '../data/jsonl';
import { LineCountCache, snapshotLineCounts } from '../data/lineCounts';
import { locateSnapshot } from '../data/paths';
import { readLineCountsFile } from '../data/lineCountsFile';
import type { Problem } from '../data/problems';
import { toGroundTruth, toRegions } from '../data/records';
import type { BenchRecord, PredictionRow } from '../data/schemas';
import { validateData } from '../data/validate';
import { readDataSettings, type DataSettings } from './settings';
import type { InstanceEntry, PredictionEntry, Store, WorkspaceData } from './store';

/** Instances whose line counts are read per batch in the background (one store update each). */
const BACKGROUND_BATCH = 25;
const RELOAD_DEBOUNCE_MS = 150;

/**
 * Finds and reads the workspace's bench and prediction files into the store, reads snapshot line
 * counts (the current instance first, then the rest in the background), and reloads when a data
 * file changes on disk.
 */
export class WorkspaceLoader implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly cache = new LineCountCache();
  private watchers: vscode.Disposable[] = [];
  private generation = 0;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private precomputedCounts = new Map<string, Map<string, number>>();
  private readonly problemsChanged = new vscode.EventEmitter<readonly Problem[]>();
  /** Fires with every problem known (load problems plus snapshot problems). */
  readonly onDidChangeProblems = this.problemsChanged.event;
  /** Line-counts-file problems and the data checks (regions, snapshot files), found after loading. */
  private checkProblems: Problem[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  private latestLoad: Promise<void> = Promise.resolve();

  constructor(private readonly store: Store) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('sweExplore.data')) this.scheduleReload();
      }),
      store.onDidChange((change) => {
        const id = store.selection.instanceId;
        if (change === 'selection' && id !== undefined) void this.ensureLineCounts(id);
      }),
    );
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

  private async loadOnce(): Promise<void> {
    const generation = ++this.generation;
    this.inFlight.clear();
    this.store.setLoading(true);
    try {
      await this.read(generation);
    } catch (error) {
      // Whatever failed, the views must leave "Loading…" and say why.
      if (generation !== this.generation) return;
      const message = `SWE-Explore: loading the data failed: ${error instanceof Error ? error.message : String(error)}`;
      this.store.setData({ ...EMPTY_WORKSPACE, problems: [{ file: this.store.data.benchFile ?? '', line: 0, severity: 'error', code: 'io-error', message }] });
      void vscode.window.showErrorMessage(message);
    }
  }

  private async read(generation: number): Promise<void> {
    const settings = readDataSettings();
    const { data, benchItems, predictionFiles } = await vscode.window.withProgress(
      { location: { viewId: 'sweExplore.instances' }, title: 'Loading SWE-Explore data' },
      () => readWorkspaceData(settings),
    );
    if (generation !== this.generation) return;
    const precomputed = await readConfiguredLineCounts(settings, data.benchFile);
    if (generation !== this.generation) return;
    this.precomputedCounts = precomputed.counts;
    this.cache.clear();
    this.checkProblems = precomputed.problems;
    this.store.clearLineCounts();
    this.store.setData(data);
    this.problemsChanged.fire(this.allProblems());
    this.watch(settings, data.benchFile);
    const current = this.store.selection.instanceId;
    if (current !== undefined) await this.ensureLineCounts(current);
    void this.countInBackground(generation);
    if (data.benchFile !== undefined) void this.check(generation, data, benchItems, predictionFiles);
  }

  /** Runs the data checks (inverted / past-EOF regions, missing files, escaping paths) for the Problems panel. */
  private async check(generation: number, data: WorkspaceData, bench: BenchItems, predictions: PredictionItems): Promise<void> {
    const problems = await validateData({
      benchFile: data.benchFile!,
      bench,
      predictions,
      reposRoot: data.reposRoot ?? null,
      lineCounts: this.precomputedCounts,
      cache: this.cache,
    });
    if (generation !== this.generation || this.store.data !== data) return;
    this.checkProblems = [...this.checkProblems, ...problems];
    this.problemsChanged.fire(this.allProblems());
  }

  /** Resolves once the given instance's line counts are in the store (one read in flight per instance). */
  ensureLineCounts(instanceId: string): Promise<void> {
    if (this.store.hasLineCounts(instanceId)) return Promise.resolve();
    let pending = this.inFlight.get(instanceId);
    if (pending === undefined) {
      const counting: Promise<void> = this.countInstances([instanceId], this.generation).finally(() => {
        // A reload may have replaced this entry meanwhile; only remove our own.
        if (this.inFlight.get(instanceId) === counting) this.inFlight.delete(instanceId);
      });
      pending = counting;
      this.inFlight.set(instanceId, pending);
    }
    return pending;
  }

  private async countInBackground(generation: number): Promise<void> {
    const pending = this.store.instanceIds.filter((id) => !this.store.hasLineCounts(id));
    for (let i = 0; i < pending.length && generation === this.generation; i += BACKGROUND_BATCH) {
      await this.countInstances(pending.slice(i, i + BACKGROUND_BATCH), generation);
    }
  }

  private async countInstances(instanceIds: readonly string[], generation: number): Promise<void> {
    // Counts belong to the data they were read for: a reload while reading makes them worthless.
    const data = this.store.data;
    const results = new Map<string, ReadonlyMap<string, number>>();
    await Promise.all(
      instanceIds.map(async (id) => {
        const entry = data.instances.get(id);
        if (entry === undefined) return;
        const paths = referencedPaths(entry, data);
        // Missing or escaping files are reported by the data checks; here they just get no count.
        const counted = entry.snapshotRoot === undefined ? { counts: new Map<string, number>() } : await snapshotLineCounts(entry.snapshotRoot, paths, { cache: this.cache, concurrency: 8 });
        const counts = new Map(this.precomputedCounts.get(id) ?? []);
        for (const [p, n] of counted.counts) counts.set(p, n);
        results.set(id, counts);
      }),
    );
    if (generation !== this.generation || this.store.data !== data) return;
    this.store.setLineCounts(results);
  }

  /** Every problem known: what reading the files found, then the data checks. */
  allProblems(): Problem[] {
    return [...this.store.data.problems, ...this.checkProblems];
  }

  scheduleReload(): void {
    if (this.reloadTimer !== undefined) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      void this.load();
    }, RELOAD_DEBOUNCE_MS);
  }

  private watch(settings: DataSettings, benchFile: string | undefined): void {
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = [];
    if (benchFile === undefined) return;
    const base = vscode.Uri.file(path.dirname(benchFile));
    const patterns = [path.basename(benchFile), ...settings.predictionGlobs];
    for (const pattern of patterns) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, pattern));
      const reload = (): void => this.scheduleReload();
      this.watchers.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload));
    }
  }

  dispose(): void {
    if (this.reloadTimer !== undefined) clearTimeout(this.reloadTimer);
    for (const d of [...this.subscriptions, ...this.watchers]) d.dispose();
    this.problemsChanged.dispose();
  }
}

/** Every path an instance's regions, files, reads and predictions mention: the files to count. */
function referencedPaths(entry: InstanceEntry, data: WorkspaceData): Set<string> {
  const gt = entry.groundTruth;
  const paths = new Set<string>([...gt.coreFiles, ...gt.coreRegions.map((r) => r.path)]);
  for (const files of Object.values(gt.optionalFilesByModel)) for (const p of files) paths.add(p);
  for (const regions of Object.values(gt.optionalRegionsByModel)) for (const r of regions) paths.add(r.path);
  for (const p of Object.keys(entry.record.read_step_info ?? {})) paths.add(p);
  for (const rows of data.predictions.values()) for (const r of rows.get(entry.instanceId)?.regions ?? []) paths.add(r.path);
  return paths;
}

function resolveSetting(value: string): string | undefined {
  if (value === '') return undefined;
  if (path.isAbsolute(value)) return value;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder === undefined ? undefined : path.join(folder.uri.fsPath, value);
}

/** The bench file: the setting, else the first `bench*.jsonl` in the workspace (shallowest first). */
async function findBenchFile(settings: DataSettings): Promise<string | undefined> {
  const configured = resolveSetting(settings.benchFile);
  if (configured !== undefined) return configured;
  const found = await vscode.workspace.findFiles('**/bench*.jsonl', '**/{node_modules,.git}/**', 50);
  const paths = found.map((uri) => uri.fsPath).sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || a.localeCompare(b));
  return paths[0];
}

type BenchItems = readonly JsonlItem<BenchRecord>[];
type PredictionItems = readonly { readonly file: string; readonly rows: readonly JsonlItem<PredictionRow>[] }[];

const EMPTY_WORKSPACE: WorkspaceData = { benchFile: undefined, reposRoot: undefined, instances: new Map(), predictions: new Map(), problems: [] };

async function readWorkspaceData(settings: DataSettings): Promise<{ data: WorkspaceData; benchItems: BenchItems; predictionFiles: PredictionItems }> {
  const benchFile = await findBenchFile(settings);
  if (benchFile === undefined) return { data: EMPTY_WORKSPACE, benchItems: [], predictionFiles: [] };
  const benchDir = path.dirname(benchFile);
  const reposRoot = resolveSetting(settings.reposRoot) ?? benchDir;
  const bench = await readBenchFile(benchFile);
  const problems: Problem[] = [...bench.problems];
  const instances = new Map<string, InstanceEntry>();
  // The same rule as `validate`: a refused or missing repo_dir gives no snapshot at all. Looked
  // up for all records at once rather than one await after another.
  const snapshots = await Promise.all(bench.items.map(({ value }) => locateSnapshot(reposRoot, value.instance_id, value.repo_dir)));
  bench.items.forEach(({ line, value }, index) => {
    if (instances.has(value.instance_id)) return;
    const snapshot = snapshots[index]!;
    instances.set(value.instance_id, {
      instanceId: value.instance_id,
      repo: value.repo ?? value.instance_id.replace(/-\d+$/, '').replace('__', '/'),
      record: value,
      groundTruth: toGroundTruth(value),
      benchLine: line,
      snapshotRoot: snapshot.ok ? snapshot.absolute : undefined,
    });
  });

  const predictionFiles = new Set<string>();
  for (const glob of settings.predictionGlobs) {
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.file(benchDir), glob), '**/node_modules/**');
    for (const uri of uris) if (uri.fsPath !== benchFile) predictionFiles.add(uri.fsPath);
  }
  const predictionItems: { file: string; rows: JsonlItem<PredictionRow>[] }[] = [];
  for (const file of [...predictionFiles].sort()) {
    const read = await readPredictionFile(file);
    problems.push(...read.problems);
    predictionItems.push({ file, rows: read.items });
  }
  // One explorer name in several files (e.g. top5.jsonl and top10.jsonl of one explorer) becomes
  // one explorer per file, labelled with the file, rather than a silent merge.
  const filesByExplorer = new Map<string, Set<string>>();
  for (const { file, rows } of predictionItems) {
    for (const { value } of rows) filesByExplorer.set(value.explorer, (filesByExplorer.get(value.explorer) ?? new Set()).add(file));
  }
  const predictions = new Map<string, Map<string, PredictionEntry>>();
  for (const { file, rows: items } of predictionItems) {
    for (const { line, value } of items) {
      const label = filesByExplorer.get(value.explorer)!.size > 1 ? `${value.explorer} (${path.relative(benchDir, file)})` : value.explorer;
      let rows = predictions.get(label);
      if (rows === undefined) predictions.set(label, (rows = new Map()));
      if (!rows.has(value.instance_id)) rows.set(value.instance_id, { regions: toRegions(value.regions), file, line });
    }
  }
  return { data: { benchFile, reposRoot, instances, predictions, problems }, benchItems: bench.items, predictionFiles: predictionItems };
}

/** `{instance_id: {path: count}}` from the setting, or `line_counts.json` beside the bench file when present. */
async function readConfiguredLineCounts(settings: DataSettings, benchFile: string | undefined): Promise<{ counts: Map<string, Map<string, number>>; problems: Problem[] }> {
  const configured = resolveSetting(settings.lineCountsFile);
  const file = configured ?? (benchFile === undefined ? undefined : path.join(path.dirname(benchFile), 'line_counts.json'));
  if (file === undefined) return { counts: new Map(), problems: [] };
  if (configured === undefined) {
    try {
      await access(file);
    } catch {
      // No line-counts file beside the bench is the normal case: snapshots on disk are used.
      return { counts: new Map(), problems: [] };
    }
  }
  return readLineCountsFile(file);
}
