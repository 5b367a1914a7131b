/** The Regions tree: the open instance's core regions with coverage and provenance, optional regions by model, predictions by rank. */
import * as vscode from 'vscode';
import { safeNotificationText as safe } from '../../shared/escape';
import { budgetStatusText, capitalised, describeResolution, layerPhrase, trajectoryLabel } from '../../shared/texts';
import { COMMANDS, TREE_ITEMS } from '../base/ids';
import { ViewPainter } from '../base/viewPainter';
import type { RevealTarget } from '../base/places';
import type { Probe } from '../base/probe';
import type { InspectorModel } from '../model/model';
import { PROVENANCE } from '../model/slices/provenance';

type RegionNode =
  | { readonly kind: 'group'; readonly group: 'core' | 'predictions' | `optional:${string}`; readonly label: string }
  | { readonly kind: 'leaf'; readonly target: Exclude<RevealTarget, { readonly kind: 'place' }> };

/** Core regions with coverage, optional regions by model, predictions by rank. */
export class RegionsTreeProvider extends ViewPainter implements vscode.TreeDataProvider<RegionNode> {
  private readonly changed = this.register(new vscode.EventEmitter<RegionNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly model: InspectorModel,
    probe: Probe,
  ) {
    super(model, probe, 'regionsTree');
  }

  protected paint(): void {
    this.changed.fire(undefined);
  }

  getChildren(node?: RegionNode): RegionNode[] {
    const view = this.model.view;
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
    const view = this.model.view!;
    const target = node.target;
    const reveal = { command: COMMANDS.revealRegion, title: 'Reveal', arguments: [target] };
    if (target.kind === 'core') {
      const r = view.explanation.coreRegions[target.index]!;
      const item = new vscode.TreeItem(safe(`${r.region.path}:${r.region.start}–${r.region.end}`));
      const status = r.lines === 0 ? 'no lines' : `${r.coveredLinesInBudget}/${r.lines} in B` + (r.coveredLines > r.coveredLinesInBudget ? ` (${r.coveredLines} overall)` : '');
      const provenance = this.model.slice(PROVENANCE);
      const region = provenance?.regions[target.index];
      const share = region?.consensusShare;
      item.description = `${r.lines} lines · ${status}${share === null || share === undefined ? '' : ` · consensus ${Math.round(share * 100)}%`} · read by ${region?.trajectories.length ?? 0}/${provenance?.trajectoryCount ?? 0}`;
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
