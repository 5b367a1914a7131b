/**
 * The editor's place in the data, as context keys for the keybindings: `sweExplore.inSnapshot`
 * (a file of the open instance's snapshot: the navigation and audit keys act) and
 * `sweExplore.inOtherSnapshot` (a file of another instance's snapshot: the same keys would act on
 * an instance this file is not part of, so they say so and offer to open the file's instance).
 */
import * as vscode from 'vscode';
import type { WorkspaceModel } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import { keyOutsideOpenInstance } from '../../shared/texts';
import { COMMANDS, CONTEXT_KEYS, WORKBENCH_COMMANDS } from '../base/ids';
import { Disposable } from '../base/lifecycle';
import { instanceOfFile, snapshotPathOf } from '../base/snapshot';
import type { InspectorModel } from '../model/model';

export class SnapshotContext extends Disposable {
  /** Snapshot root → instance id, for the data it was built from. */
  private roots: { readonly data: WorkspaceModel; readonly instanceOfRoot: ReadonlyMap<string, string> } | undefined;
  /** The instance of the active editor's file when it is not the open one. */
  private otherInstance: string | undefined;
  /** The context keys as last set (`[inSnapshot, inOtherSnapshot]`): every view change calls update, few change them. */
  private keysSet: readonly [boolean, boolean] | undefined;

  constructor(private readonly model: InspectorModel) {
    super();
    this.register(model.onDidChange((change) => (change.view || change.kind === 'data' ? this.update() : undefined)));
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    this.register(vscode.commands.registerCommand(COMMANDS.keyOutsideOpenInstance, () => this.explainKey()));
    this.update();
  }

  private instanceOfRoot(): ReadonlyMap<string, string> {
    const data = this.model.store.data;
    if (this.roots?.data !== data) {
      const instanceOfRoot = new Map<string, string>();
      for (const entry of data.instances.values()) if (entry.snapshotRoot !== undefined) instanceOfRoot.set(entry.snapshotRoot, entry.instanceId);
      this.roots = { data, instanceOfRoot };
    }
    return this.roots.instanceOfRoot;
  }

  private update(): void {
    const editor = vscode.window.activeTextEditor;
    const uri = editor?.document.uri;
    const inSnapshot = uri !== undefined && snapshotPathOf(this.model.view, uri) !== undefined;
    this.otherInstance = uri === undefined || inSnapshot || uri.scheme !== 'file' ? undefined : instanceOfFile(this.instanceOfRoot(), uri.fsPath);
    const inOther = this.otherInstance !== undefined;
    if (this.keysSet?.[0] === inSnapshot && this.keysSet[1] === inOther) return;
    this.keysSet = [inSnapshot, inOther];
    void vscode.commands.executeCommand(WORKBENCH_COMMANDS.setContext, CONTEXT_KEYS.inSnapshot, inSnapshot);
    void vscode.commands.executeCommand(WORKBENCH_COMMANDS.setContext, CONTEXT_KEYS.inOtherSnapshot, inOther);
  }

  /** A navigation or audit key pressed in a file of another instance: say why nothing moved, offer that instance. */
  private async explainKey(): Promise<void> {
    const fileInstance = this.otherInstance;
    if (fileInstance === undefined) return;
    const open = this.model.view?.instance.instanceId;
    const action = `Open ${safe(fileInstance)}`;
    const chosen = await vscode.window.showInformationMessage(keyOutsideOpenInstance(safe(fileInstance), open === undefined ? undefined : safe(open)), action);
    if (chosen === action) await vscode.commands.executeCommand(COMMANDS.openInstance, fileInstance);
  }
}
