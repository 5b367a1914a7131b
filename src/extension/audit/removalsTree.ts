import * as vscode from 'vscode';
import { safeNotificationText as safe } from '../../shared/escape';
import { layerPhrase } from '../../shared/texts';
import { ViewPainter } from '../base/viewPainter';
import type { Probe } from '../base/probe';
import type { InspectorModel } from '../model/model';
import { removalsOf } from '../state/auditState';
import { COMMANDS, TREE_ITEMS } from '../base/ids';

/** A Removals tree item; `removalId` is what `sweExplore.restoreSpan` takes from the context menu. */
export interface RemovalNode {
  readonly removalId: string;
}

/** The open instance's effective removals, with reason, author and drift; restore from the context menu. */
export class RemovalsTreeProvider extends ViewPainter implements vscode.TreeDataProvider<RemovalNode> {
  private readonly changed = this.register(new vscode.EventEmitter<RemovalNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private view: vscode.TreeView<RemovalNode> | undefined;

  constructor(
    private readonly model: InspectorModel,
    probe: Probe,
  ) {
    super(model, probe, 'removalsTree');
  }

  /** The tree view, so that its message can say what an empty list means. */
  attach(view: vscode.TreeView<RemovalNode>): void {
    this.view = view;
    this.paint();
  }

  private get store(): InspectorModel['store'] {
    return this.model.store;
  }

  protected paint(): void {
    this.changed.fire(undefined);
    if (this.view === undefined) return;
    const id = this.store.selection.instanceId;
    if (id === undefined) {
      this.view.message = 'Open an instance to see its removals.';
      return;
    }
    const removals = removalsOf(this.store.audit, id).length;
    const accepted = this.store.audit.folder.accepted.filter((a) => a.instanceId === id).map((a) => a.author);
    const parts: string[] = [];
    if (removals === 0) parts.push('No removals.');
    if (accepted.length > 0) parts.push(`Accepted (nothing to remove) by ${safe([...new Set(accepted)].join(', '))}.`);
    if (this.store.audit.conflicted.has(id)) parts.push('⚠ A removal was restored by someone other than its author.');
    this.view.message = parts.length === 0 ? undefined : parts.join(' ');
  }

  getChildren(node?: RemovalNode): RemovalNode[] {
    if (node !== undefined) return [];
    const id = this.store.selection.instanceId;
    return id === undefined ? [] : removalsOf(this.store.audit, id).map((r) => ({ removalId: r.id }));
  }

  getTreeItem(node: RemovalNode): vscode.TreeItem {
    const id = this.store.selection.instanceId ?? '';
    const removal = removalsOf(this.store.audit, id).find((r) => r.id === node.removalId);
    if (removal === undefined) return new vscode.TreeItem('(gone)');
    const drifted = this.store.audit.drifted.has(removal.id);
    const layer = layerPhrase(removal.layer, removal.model);
    const item = new vscode.TreeItem(safe(`${removal.path}:${removal.start}–${removal.end}`));
    item.id = `removal:${removal.id}`;
    item.description = safe(`${layer} · ${removal.reason} · ${removal.author}${drifted ? ' · ⚠ drifted' : ''}`);
    const tooltip = new vscode.MarkdownString(undefined, false);
    tooltip.isTrusted = false;
    tooltip.appendText(
      `Removed from ${layer} by ${removal.author} at ${removal.at}\nReason: ${removal.reason}${removal.note === null ? '' : `\nNote: ${removal.note}`}${drifted ? '\n⚠ Drifted: the snapshot text changed since the removal; it stays where it was.' : ''}\n${removal.file}:${removal.line}`,
    );
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(drifted ? 'warning' : 'close');
    item.contextValue = TREE_ITEMS.removal;
    item.command = { command: COMMANDS.revealRegion, title: 'Reveal', arguments: [{ kind: 'place', path: removal.path, start: removal.start, end: removal.end }] };
    return item;
  }
}
