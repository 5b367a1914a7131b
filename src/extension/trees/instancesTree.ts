/** The Instances tree: instances grouped by repo, each with a compact score for the current explorer; filterable, queryable and sortable. */
import * as vscode from 'vscode';
import { evaluateQuery, isRowColumn, queryReadsMetrics, type InstanceQuery, type OfficialMetricName, type QueryContext } from '../../core';
import { safeNotificationText as safe } from '../../shared/escape';
import { METRIC_INFO } from '../../shared/metricInfo';
import { COMMANDS, TREE_ITEMS } from '../base/ids';
import { Disposable } from '../base/lifecycle';
import type { Probe } from '../base/probe';
import type { InspectorModel, ModelChange } from '../model/model';
import { auditStatusOf, removalsOf, type AuditState } from '../state/auditState';

/** "✓ accepted", "✂ 2 removals", "⚠ conflict", or '' for an unaudited instance. */
function auditLabel(audit: AuditState, instanceId: string): string {
  switch (auditStatusOf(audit, instanceId)) {
    case 'unaudited':
      return '';
    case 'accepted':
      return '✓ accepted';
    case 'removals': {
      const n = removalsOf(audit, instanceId).length;
      return `✂ ${n} removal${n === 1 ? '' : 's'}`;
    }
    case 'conflict':
      return '⚠ conflict';
  }
}

/** The parts of the selection the items show. */
const SHOWN_SELECTION = ['explorer', 'instanceId', 'profile', 'topK', 'groundTruth', 'audited'] as const;

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

  constructor(
    private readonly model: InspectorModel,
    private readonly probe: Probe,
  ) {
    super();
    this.register(model.onDidChange((change) => this.onModelChange(change)));
  }

  private get store(): InspectorModel['store'] {
    return this.model.store;
  }

  private onModelChange(change: ModelChange): void {
    if (change.kind === 'slice') return;
    // Runs read for a query's `seen_missed` move its matches; otherwise they show nowhere here.
    if (change.kind === 'runsRead' && !this.queryReadsRuns()) return;
    if (change.kind === 'data') this.instanceNodes.clear();
    this.visibleCache = undefined;
    // Counts of a batch of other instances only fill in their scores: refresh those items, unless
    // the order or the query's matches depend on the scores.
    if (change.kind === 'lineCounts' && !change.view && this.sortMetricValue === undefined && this.queryValue === undefined) {
      const nodes: InstanceNode[] = [];
      for (const id of change.instanceIds) {
        const node = this.instanceNodes.get(id);
        if (node !== undefined) nodes.push(node);
      }
      if (nodes.length > 0) this.changed.fire(nodes);
      return;
    }
    // The items show the explorer's scores, which the ground truth, profile and top-k move, and which instance is open.
    if (change.kind === 'selection' && !SHOWN_SELECTION.some((key) => change.changed.has(key))) return;
    this.changed.fire(undefined);
    this.probe.report({ kind: 'paint', surface: 'instancesTree' });
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

  /** A query without terms clears it. A query on `seen_missed` reads the explorers' runs in the background (the tree refreshes as they land). */
  set query(query: InstanceQuery | undefined) {
    this.queryValue = query === undefined || query.terms.length === 0 ? undefined : query;
    this.visibleCache = undefined;
    this.changed.fire(undefined);
    if (this.queryReadsRuns()) {
      const current = this.queryValue;
      void this.model.readExplorerRuns(() => this.queryValue !== current);
    }
  }

  /** Whether the query has a term on a row column (`seen_missed`), which the explorers' runs give. */
  private queryReadsRuns(): boolean {
    return this.queryValue?.terms.some((term) => term.kind === 'metric' && (isRowColumn(term.left.metric) || (term.minus !== undefined && isRowColumn(term.minus.metric)))) === true;
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

  getTreeItem(node: InstanceNode): vscode.TreeItem {
    // The view asks only for what it shows (the scale test counts these).
    this.probe.report({ kind: 'treeItem', surface: 'instancesTree' });
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
    const metrics = this.model.scoreOf(node.instanceId, selection.explorer);
    const item = new vscode.TreeItem(safe(node.instanceId), vscode.TreeItemCollapsibleState.None);
    item.id = `instance:${node.instanceId}`;
    const shown: OfficialMetricName = this.sortMetricValue ?? 'recall';
    if (metrics === undefined) {
      item.description = selection.explorer === undefined ? 'no explorer loaded' : this.store.hasRow(node.instanceId, selection.explorer) ? '…' : '— missing: no row from this explorer';
    } else {
      // Value first: a narrow sidebar cuts the end of a description, and the number is what matters.
      const parts = [`${formatScore(metrics[shown])} ${METRIC_INFO[shown].label}`];
      if (shown !== 'ndcg_at_500') parts.push(`${formatScore(metrics.ndcg_at_500)} nDCG@500`);
      item.description = parts.join(' · ');
    }
    const audit = auditLabel(this.store.audit, node.instanceId);
    if (audit !== '') item.description = `${String(item.description)} · ${audit}`;
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
    const { store, model } = this;
    return {
      currentExplorer: store.selection.explorer,
      metric: (instanceId, explorer, name) => (store.data.explorers.get(explorer)?.rows.has(instanceId) === true ? model.scoreOf(instanceId, explorer)?.[name] : undefined),
      repo: (instanceId) => store.data.instances.get(instanceId)?.repo,
      audited: (instanceId) => store.audit.accepted.has(instanceId) || store.audit.removalsByInstance.has(instanceId),
      rowValue: (instanceId, explorer) => model.seenMissedOf(instanceId, explorer),
    };
  }

  private instancesOf(repo: string): string[] {
    const ids = this.visibleIds().filter((id) => this.store.data.instances.get(id)!.repo === repo);
    const metric = this.sortMetricValue;
    if (metric === undefined) return ids;
    const explorer = this.store.selection.explorer;
    const value = (id: string): number => this.model.scoreOf(id, explorer)?.[metric] ?? -1;
    return [...ids].sort((a, b) => value(b) - value(a) || a.localeCompare(b));
  }
}
