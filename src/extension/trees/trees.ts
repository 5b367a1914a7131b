import * as vscode from 'vscode';
import { Disposable } from '../base/lifecycle';
import { evaluateQuery, queryReadsMetrics, type InstanceQuery, type OfficialMetricName, type QueryContext } from '../../core';
import { safeNotificationText as safe } from '../../shared/escape';
import { METRIC_INFO } from '../../shared/metricInfo';
import { budgetStatusText, capitalised, describeResolution, layerPhrase, trajectoryLabel } from '../../shared/texts';
import { provenanceOf } from '../model/viewCaches';
import { changesView, type Store, type StoreChange } from '../state/store';
import { COMMANDS, TREE_ITEMS } from '../base/ids';

/** Arguments of `sweExplore.revealRegion`. */
export type RevealTarget =
  | { readonly kind: 'core'; readonly index: number }
  | { readonly kind: 'optional'; readonly index: number }
  | { readonly kind: 'prediction'; readonly rank: number }
  | { readonly kind: 'place'; readonly path: string; readonly start: number; readonly end: number };

/** "✓ accepted", "✂ 2 removals", "⚠ conflict", or '' for an unaudited instance. */
function auditLabel(store: Store, instanceId: string): string {
  switch (store.auditStatusOf(instanceId)) {
    case 'unaudited':
      return '';
    case 'accepted':
      return '✓ accepted';
    case 'removals': {
      const n = store.removalsOf(instanceId).length;
      return `✂ ${n} removal${n === 1 ? '' : 's'}`;
    }
    case 'conflict':
      return '⚠ conflict';
  }
}

/** Up to this many instances the Instances tree opens with every repo expanded. */
const EXPAND_REPOS_UP_TO = 200;

type InstanceNode = { readonly kind: 'repo'; readonly repo: string } | { readonly kind: 'instance'; readonly instanceId: string };

function formatScore(value: number): string {
  return value.toFixed(3);
}

/** Instances grouped by repo, each with a compact score for the current explorer; filterable, queryable and sortable. */
export class InstancesTreeProvider extends Disposable implements vscode.TreeDataProvider<InstanceNode> {
  private readonly changed = this.register(new vscode.EventEmitter<InstanceNode | InstanceNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private filterText = '';
  private sortMetricValue: OfficialMetricName | undefined;
  /** `sweExplore.queryInstances`: applied together with the text filter. */
  private queryValue: InstanceQuery | undefined;
  /** Visible ids, computed once per change (the tree asks for them once per repo). */
  private visibleCache: string[] | undefined;
  /** Where "n of m instances match" is shown, once the view exists. */
  private view: { message?: string | undefined } | undefined;

  /** One node object per instance, so that a change can refresh exactly the items it affects. */
  private readonly instanceNodes = new Map<string, InstanceNode>();

  constructor(private readonly store: Store) {
    super();
    this.register(store.onDidChange((change) => this.onStoreChange(change)));
  }

  private onStoreChange(change: StoreChange): void {
    if (change.kind === 'data') this.instanceNodes.clear();
    this.visibleCache = undefined;
    // Counts of a batch of other instances only fill in their scores: refresh those items, unless
    // the order or the query's matches depend on the scores.
    if (change.kind === 'lineCounts' && !change.current && this.sortMetricValue === undefined && this.queryValue === undefined) {
      const nodes: InstanceNode[] = [];
      for (const id of change.instanceIds) {
        const node = this.instanceNodes.get(id);
        if (node !== undefined) nodes.push(node);
      }
      if (nodes.length > 0) this.changed.fire(nodes);
      return;
    }
    if (change.kind === 'selection' && !change.changed.has('explorer') && !change.changed.has('instanceId') && !change.changed.has('profile') && !change.changed.has('topK')) return;
    this.changed.fire(undefined);
  }

  private instanceNode(instanceId: string): InstanceNode {
    let node = this.instanceNodes.get(instanceId);
    if (node === undefined) this.instanceNodes.set(instanceId, (node = { kind: 'instance', instanceId }));
    return node;
  }

  get filter(): string {
    return this.filterText;
  }

  set filter(text: string) {
    this.filterText = text.trim().toLowerCase();
    this.visibleCache = undefined;
    this.changed.fire(undefined);
  }

  get query(): InstanceQuery | undefined {
    return this.queryValue;
  }

  /** A query without terms clears it. */
  set query(query: InstanceQuery | undefined) {
    this.queryValue = query === undefined || query.terms.length === 0 ? undefined : query;
    this.visibleCache = undefined;
    this.changed.fire(undefined);
  }

  /** The tree view showing this provider: its message says how many instances match. */
  attach(view: { message?: string | undefined }): void {
    this.view = view;
  }

  get sortMetric(): OfficialMetricName | undefined {
    return this.sortMetricValue;
  }

  set sortMetric(metric: OfficialMetricName | undefined) {
    this.sortMetricValue = metric;
    this.changed.fire(undefined);
  }

  /** Instance ids in the order the tree shows them (used by next/previous instance). */
  orderedInstanceIds(): string[] {
    return this.repos().flatMap((repo) => this.instancesOf(repo));
  }

  getChildren(node?: InstanceNode): InstanceNode[] {
    if (node === undefined) return this.repos().map((repo) => ({ kind: 'repo', repo }));
    if (node.kind === 'repo') return this.instancesOf(node.repo).map((instanceId) => this.instanceNode(instanceId));
    return [];
  }

  /** Tree items made so far: the view asks only for what it shows (the scale test prints this). */
  treeItemCount = 0;

  getTreeItem(node: InstanceNode): vscode.TreeItem {
    this.treeItemCount++;
    if (node.kind === 'repo') {
      const count = this.instancesOf(node.repo).length;
      // A big benchmark opens with its repos collapsed: expanding them all would make (and score)
      // every instance's item before anyone looks at it.
      const state = this.store.data.instances.size > EXPAND_REPOS_UP_TO ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded;
      // Labels, descriptions and tooltips carry data: shown through safe() (no $(icon) or links).
      const item = new vscode.TreeItem(safe(node.repo), state);
      item.description = `${count} instance${count === 1 ? '' : 's'}`;
      item.iconPath = new vscode.ThemeIcon('repo');
      item.id = `repo:${node.repo}`;
      return item;
    }
    const { selection } = this.store;
    const metrics = this.store.scoreOf(node.instanceId, selection.explorer);
    const item = new vscode.TreeItem(safe(node.instanceId), vscode.TreeItemCollapsibleState.None);
    item.id = `instance:${node.instanceId}`;
    const shown: OfficialMetricName = this.sortMetricValue ?? 'recall';
    if (metrics === undefined) {
      item.description = selection.explorer === undefined ? 'no explorer loaded' : this.store.hasRow(node.instanceId, selection.explorer) ? '…' : '— missing: no row from this explorer';
    } else {
      const parts = [`${METRIC_INFO[shown].label} ${formatScore(metrics[shown])}`];
      if (shown !== 'ndcg_at_500') parts.push(`nDCG@500 ${formatScore(metrics.ndcg_at_500)}`);
      item.description = parts.join(' · ');
    }
    const audit = auditLabel(this.store, node.instanceId);
    if (audit !== '') item.description = `${audit} · ${String(item.description)}`;
    const isCurrent = selection.instanceId === node.instanceId;
    item.iconPath = new vscode.ThemeIcon(isCurrent ? 'eye' : metrics === undefined ? 'circle-outline' : metrics.recall >= 1 ? 'pass' : metrics.recall > 0 ? 'circle-large-outline' : 'error');
    item.tooltip = `${safe(node.instanceId)}${selection.explorer === undefined ? '' : ` · ${safe(selection.explorer)}`}${isCurrent ? ' (open)' : ''} · audit: ${audit === '' ? 'unaudited' : audit}`;
    item.command = { command: COMMANDS.openInstance, title: 'Open Instance', arguments: [node.instanceId] };
    item.contextValue = TREE_ITEMS.instance;
    return item;
  }

  private repos(): string[] {
    const repos = new Set<string>();
    for (const id of this.visibleIds()) repos.add(this.store.data.instances.get(id)!.repo);
    return [...repos].sort();
  }

  private visibleIds(): string[] {
    if (this.visibleCache !== undefined) return this.visibleCache;
    const ids = this.store.instanceIds;
    const query = this.queryValue;
    const matches = query === undefined ? undefined : evaluateQuery(query, this.queryContext());
    const visible =
      this.filterText === '' && matches === undefined
        ? ids
        : ids.filter((id) => {
            const entry = this.store.data.instances.get(id)!;
            if (this.filterText !== '' && !id.toLowerCase().includes(this.filterText) && !entry.repo.toLowerCase().includes(this.filterText)) return false;
            return matches === undefined || matches(id);
          });
    this.visibleCache = visible;
    if (this.view !== undefined) {
      let message: string | undefined;
      if (this.filterText !== '' || query !== undefined) {
        message = `${visible.length} of ${ids.length} instance${ids.length === 1 ? '' : 's'} match`;
        // Metric terms match only scored instances: say when some are still being counted.
        let pending = 0;
        if (query !== undefined && queryReadsMetrics(query)) for (const id of ids) if (!this.store.hasLineCounts(id)) pending++;
        if (pending > 0) message += ` (${pending} not scored yet)`;
      }
      this.view.message = message;
    }
    return visible;
  }

  /** Metrics only where the explorer has a row and the line counts are read; audited as the status bar counts it. */
  private queryContext(): QueryContext {
    const store = this.store;
    return {
      currentExplorer: store.selection.explorer,
      metric: (instanceId, explorer, name) => (store.data.explorers.get(explorer)?.rows.has(instanceId) === true ? store.scoreOf(instanceId, explorer)?.[name] : undefined),
      repo: (instanceId) => store.data.instances.get(instanceId)?.repo,
      audited: (instanceId) => store.audit.accepted.has(instanceId) || store.audit.removalsByInstance.has(instanceId),
    };
  }

  private instancesOf(repo: string): string[] {
    const ids = this.visibleIds().filter((id) => this.store.data.instances.get(id)!.repo === repo);
    const metric = this.sortMetricValue;
    if (metric === undefined) return ids;
    const explorer = this.store.selection.explorer;
    const value = (id: string): number => this.store.scoreOf(id, explorer)?.[metric] ?? -1;
    return [...ids].sort((a, b) => value(b) - value(a) || a.localeCompare(b));
  }
}

type RegionNode =
  | { readonly kind: 'group'; readonly group: 'core' | 'predictions' | `optional:${string}`; readonly label: string }
  | { readonly kind: 'leaf'; readonly target: Exclude<RevealTarget, { readonly kind: 'place' }> };

/** Core regions with coverage, optional regions by model, predictions by rank. */
export class RegionsTreeProvider extends Disposable implements vscode.TreeDataProvider<RegionNode> {
  private readonly changed = this.register(new vscode.EventEmitter<RegionNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly store: Store) {
    super();
    this.register(
      store.onDidChange((change) => {
        if (changesView(change)) this.changed.fire(undefined);
      }),
    );
  }

  getChildren(node?: RegionNode): RegionNode[] {
    const view = this.store.view;
    if (view === undefined) return [];
    if (node === undefined) {
      const groups: RegionNode[] = [{ kind: 'group', group: 'core', label: `Core regions (${view.explanation.coreRegions.length})` }];
      for (const model of Object.keys(view.instance.groundTruth.optionalRegionsByModel)) {
        const count = view.prepared.optionalRegions.filter((r) => r.model === model).length;
        groups.push({ kind: 'group', group: `optional:${model}`, label: `${safe(capitalised(layerPhrase('optional', model)))} (${count})` });
      }
      groups.push({ kind: 'group', group: 'predictions', label: `Predictions · ${view.explorer === undefined ? 'no explorer' : safe(view.explorer)} (${view.predictions.length})` });
      return groups;
    }
    if (node.kind === 'leaf') return [];
    if (node.group === 'core') return view.explanation.coreRegions.map((r) => ({ kind: 'leaf', target: { kind: 'core', index: r.index } }));
    if (node.group === 'predictions') return view.explanation.predictions.map((p) => ({ kind: 'leaf', target: { kind: 'prediction', rank: p.rank } }));
    const model = node.group.slice('optional:'.length);
    return view.prepared.optionalRegions.flatMap((r, index) => (r.model === model ? [{ kind: 'leaf', target: { kind: 'optional', index } } as RegionNode] : []));
  }

  getTreeItem(node: RegionNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(node.label, node.group === 'core' || node.group === 'predictions' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.iconPath = new vscode.ThemeIcon(node.group === 'core' ? 'target' : node.group === 'predictions' ? 'list-ordered' : 'circle-outline');
      return item;
    }
    const view = this.store.view!;
    const target = node.target;
    const reveal = { command: COMMANDS.revealRegion, title: 'Reveal', arguments: [target] };
    if (target.kind === 'core') {
      const r = view.explanation.coreRegions[target.index]!;
      const item = new vscode.TreeItem(safe(`${r.region.path}:${r.region.start}–${r.region.end}`));
      const status = r.lines === 0 ? 'no lines' : `${r.coveredLinesInBudget}/${r.lines} in B` + (r.coveredLines > r.coveredLinesInBudget ? ` (${r.coveredLines} overall)` : '');
      const provenance = provenanceOf(view, this.store.getLineCounts(view.instance.instanceId));
      const region = provenance.regions[target.index];
      const share = region?.consensusShare;
      item.description = `${r.lines} lines · ${status}${share === null || share === undefined ? '' : ` · consensus ${Math.round(share * 100)}%`} · read by ${region?.trajectories.length ?? 0}/${provenance.trajectoryCount}`;
      item.iconPath = new vscode.ThemeIcon(r.lines > 0 && r.coveredLinesInBudget === r.lines ? 'pass-filled' : r.coveredLinesInBudget > 0 ? 'circle-large-outline' : 'error');
      item.tooltip = `Core ${target.index + 1}/${view.explanation.coreRegions.length} · ${r.lines} lines · weight ${r.weight} · covering ranks: ${r.coveringRanks.map((k) => `#${k}`).join(', ') || 'none'}\n${region === undefined ? '' : `${region.consensusLines} consensus lines; trajectories: ${safe(region.trajectories.map(trajectoryLabel).join(', ') || 'none')}`}`;
      item.command = reveal;
      item.contextValue = TREE_ITEMS.coreRegion;
      return item;
    }
    if (target.kind === 'optional') {
      const r = view.prepared.optionalRegions[target.index]!;
      const item = new vscode.TreeItem(safe(`${r.region.path}:${r.region.start}–${r.region.end}`));
      item.description = describeResolution(r.resolution);
      item.iconPath = new vscode.ThemeIcon('circle-outline');
      item.command = reveal;
      item.contextValue = TREE_ITEMS.optionalRegion;
      return item;
    }
    const p = view.explanation.predictions[target.rank - 1]!;
    const item = new vscode.TreeItem(safe(`#${p.rank} ${p.region.path}:${p.region.start}–${p.region.end}`));
    item.description = `${p.lines} lines · cum ${p.cumulativeLength} · ${budgetStatusText(p)}`;
    item.tooltip = `${describeResolution(p.resolution)} · gain ${p.gain} · discount ${p.discount.toFixed(3)} · ${p.noise ? 'noise region' : `touches core ${p.coreRegionsTouched.map((i) => i + 1).join(', ') || '—'}`}`;
    item.contextValue = TREE_ITEMS.prediction;
    item.iconPath = new vscode.ThemeIcon(p.budgetStatus === 'in' ? 'pass' : p.budgetStatus === 'partial' ? 'circle-large-outline' : 'warning');
    item.command = reveal;
    return item;
  }
}
