/**
 * Audit commands: remove a span from the ground truth (core or one model's optional regions),
 * restore one, accept an instance as audited, and keyboard triage. Every command only appends to
 * the audit log; the store picks the change up from there.
 */
import * as vscode from 'vscode';
import { rangeIntersectionSize, type IntervalSet } from '../../core';
import { acceptEvent, fileTextSha, removeEvent, resolveInSnapshot, restoreEvent, type RemoveEvent } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import { isRecord } from '../../shared/guards';
import { capitalised, layerPhrase, reasonDescription, removalConfirmation, removedText, restoredText } from '../../shared/texts';
import { readConfirmAboveLines } from '../base/settings';
import { snapshotPathOf } from '../base/snapshot';
import type { InstanceView } from '../model/instanceView';
import type { InspectorModel } from '../model/model';
import { auditStatusOf, removalsOf } from '../state/auditState';
import type { InstancesTreeProvider } from '../trees/instancesTree';
import { readReasons, type AuditController } from './auditController';
import { COMMANDS } from '../base/ids';

interface Services {
  readonly model: InspectorModel;
  readonly audit: AuditController;
  readonly instancesTree: InstancesTreeProvider;
  readonly whenLoaded: () => Promise<void>;
}

/** A span the user asked to remove, before the layer is decided. */
interface Span {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** Set when the caller already names the layer (a Regions tree item). */
  readonly layer?: { readonly layer: 'core' | 'optional'; readonly model: string | null };
}

interface Layer {
  readonly layer: 'core' | 'optional';
  readonly model: string | null;
}

/**
 * The span a command argument names: `{kind:'core', index}` (CodeLens), a Regions tree node
 * `{kind:'leaf', target}`, or nothing (the active editor's selection).
 */
function spanFromArgument(view: InstanceView, arg: unknown): Span | undefined {
  if (!isRecord(arg)) return undefined;
  const target = arg['kind'] === 'leaf' && isRecord(arg['target']) ? arg['target'] : arg;
  const index = target['index'];
  if (typeof index !== 'number') return undefined;
  if (target['kind'] === 'core') {
    const region = view.explanation.coreRegions[index];
    if (region === undefined || region.resolution.kind !== 'resolved' || region.resolution.start > region.resolution.end) return undefined;
    return { path: region.region.path, start: region.resolution.start, end: region.resolution.end, layer: { layer: 'core', model: null } };
  }
  if (target['kind'] === 'optional') {
    const region = view.prepared.optionalRegions[index];
    if (region === undefined || region.resolution.kind !== 'resolved' || region.resolution.start > region.resolution.end) return undefined;
    return { path: region.region.path, start: region.resolution.start, end: region.resolution.end, layer: { layer: 'optional', model: region.model ?? null } };
  }
  return undefined;
}

/** The selected lines, or the core region under the cursor when nothing is selected. */
function spanFromEditor(view: InstanceView): Span | string {
  const editor = vscode.window.activeTextEditor;
  const path = editor === undefined ? undefined : snapshotPathOf(view, editor.document.uri);
  if (editor === undefined || path === undefined) return `open a file of ${view.instance.instanceId}'s snapshot and select the lines to remove`;
  const selection = editor.selection;
  if (selection.isEmpty) {
    const line = selection.active.line + 1;
    const region = view.explanation.coreRegions.find((r) => r.region.path === path && r.resolution.kind === 'resolved' && r.resolution.start <= line && line <= r.resolution.end);
    if (region === undefined || region.resolution.kind !== 'resolved') return `line ${line} is in no core region; select the lines to remove`;
    return { path, start: region.resolution.start, end: region.resolution.end };
  }
  const start = selection.start.line + 1;
  // A selection ending at column 0 of a line (a whole-line selection) does not include that line.
  const end = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  return { path, start, end };
}

function overlaps(set: IntervalSet | undefined, start: number, end: number): boolean {
  return set !== undefined && rangeIntersectionSize(set, start, end) > 0;
}

/** The layers the span has ground-truth lines in: core, and each model's optional regions. */
function layersOf(view: InstanceView, span: Span): Layer[] {
  const out: Layer[] = [];
  if (overlaps(view.explanation.lines.core.get(span.path), span.start, span.end)) out.push({ layer: 'core', model: null });
  for (const [model, set] of view.explanation.lines.optionalByModel) if (overlaps(set.get(span.path), span.start, span.end)) out.push({ layer: 'optional', model });
  return out;
}

/** The removed text's hash, streamed from the file on disk (what drift checks compare against). */
async function shaOf(view: InstanceView, span: Span): Promise<string | null> {
  const root = view.instance.snapshotRoot;
  if (root === undefined) return null;
  const resolved = await resolveInSnapshot(root, span.path);
  if (!resolved.ok) return null;
  try {
    return await fileTextSha(resolved.real, span.start, span.end);
  } catch {
    return null;
  }
}

export function registerAuditCommands(services: Services): vscode.Disposable[] {
  const { model, audit, instancesTree, whenLoaded } = services;
  const { store } = model;

  const requireView = (): InstanceView | undefined => {
    const view = model.view;
    if (view === undefined) void vscode.window.showInformationMessage('SWE-Explore: open an instance first ("SWE-Explore: Open Instance").');
    return view;
  };

  const write = async (what: () => Promise<unknown>): Promise<boolean> => {
    try {
      await what();
      return true;
    } catch (error) {
      void vscode.window.showErrorMessage(`SWE-Explore: writing the audit log failed: ${safe(error instanceof Error ? error.message : String(error))}`);
      return false;
    }
  };

  const removeSpan = async (arg: unknown, promptForReason: boolean): Promise<void> => {
    await whenLoaded();
    const view = requireView();
    if (view === undefined) return;
    let span = spanFromArgument(view, arg);
    if (span === undefined) {
      const fromEditor = spanFromEditor(view);
      if (typeof fromEditor === 'string') {
        void vscode.window.showWarningMessage(`SWE-Explore: ${safe(fromEditor)}.`);
        return;
      }
      span = fromEditor;
    }
    let layer: Layer | undefined = span.layer;
    if (layer === undefined) {
      const layers = layersOf(view, span);
      if (layers.length === 0) {
        void vscode.window.showWarningMessage(`SWE-Explore: ${safe(span.path)} lines ${span.start}–${span.end} hold no core or optional line; nothing to remove.`);
        return;
      }
      if (layers.length === 1 || !promptForReason) layer = layers[0];
      else {
        const picked = await vscode.window.showQuickPick(
          layers.map((l) => ({
            label: safe(capitalised(layerPhrase(l.layer, l.model))),
            description: l.layer === 'core' ? 'the gold core regions' : "this model's optional regions",
            layer: l,
          })),
          { title: `SWE-Explore: remove ${span.start}–${span.end} from which layer?` },
        );
        if (picked === undefined) return;
        layer = picked.layer;
      }
    }
    if (layer === undefined) return;
    // A large span or a whole file is one stray key away from a lost region: ask first (modal).
    const lines = span.end - span.start + 1;
    const wholeFile = span.start === 1 && view.prepared.knownLineCounts.get(span.path) === span.end;
    if (wholeFile || lines > readConfirmAboveLines()) {
      const question = removalConfirmation(span.path, span.start, span.end, layerPhrase(layer.layer, layer.model), wholeFile);
      const answer = await vscode.window.showWarningMessage(
        `SWE-Explore: ${safe(question)}`,
        { modal: true, detail: 'Undo stays possible from the notification that follows, or the Removals view.' },
        'Remove',
      );
      if (answer !== 'Remove') return;
    }
    let reason = promptForReason ? undefined : audit.lastReason;
    let note: string | null = null;
    if (reason === undefined) {
      const picked = await vscode.window.showQuickPick(
        readReasons().map((r) => ({ label: safe(r), description: reasonDescription(r), reason: r })),
        { title: `SWE-Explore: reason for removing ${safe(span.path)} ${span.start}–${span.end} from ${safe(layerPhrase(layer.layer, layer.model))}`, placeHolder: 'Why is this span not needed?' },
      );
      if (picked === undefined) return;
      reason = picked.reason;
      const typed = await vscode.window.showInputBox({
        title: 'SWE-Explore: note for this removal (optional)',
        prompt: 'Press Enter to leave it empty; Escape cancels the removal',
        placeHolder: 'e.g. only the import line was needed',
      });
      if (typed === undefined) return;
      note = typed.trim() === '' ? null : typed.trim();
    }
    const author = await audit.author();
    const sha = await shaOf(view, span);
    const chosen = layer;
    const chosenReason = reason;
    const event = removeEvent({
      instanceId: view.instance.instanceId,
      layer: chosen.layer,
      model: chosen.layer === 'core' ? null : chosen.model,
      path: span.path,
      start: span.start,
      end: span.end,
      reason: chosenReason,
      note,
      author,
      textSha: sha,
    });
    if (!(await write(() => audit.append(event)))) return;
    audit.lastReason = chosenReason;
    const done = removedText(span.path, span.start, span.end, layerPhrase(chosen.layer, chosen.model), chosenReason);
    void vscode.window.showInformationMessage(`SWE-Explore: ${safe(done)}`, 'Undo').then(async (action) => {
      if (action === undefined) return;
      // Undo is a restore event: the log stays append-only.
      await write(async () => audit.append(restoreEvent(event.id, await audit.author())));
    });
  };

  const restoreSpan = async (arg: unknown): Promise<void> => {
    await whenLoaded();
    const view = requireView();
    if (view === undefined) return;
    const removals = removalsOf(store.audit, view.instance.instanceId);
    const wanted = typeof arg === 'string' ? arg : isRecord(arg) && typeof arg['removalId'] === 'string' ? arg['removalId'] : undefined;
    let target: RemoveEvent | undefined = wanted === undefined ? undefined : removals.find((r) => r.id === wanted);
    if (target === undefined) {
      if (removals.length === 0) {
        void vscode.window.showInformationMessage(`SWE-Explore: ${safe(view.instance.instanceId)} has no removal to restore.`);
        return;
      }
      const picked = await vscode.window.showQuickPick(
        removals.map((r) => ({
          label: safe(`${r.path}:${r.start}–${r.end}`),
          description: safe(`${layerPhrase(r.layer, r.model)} · ${r.reason} · ${r.author}`),
          detail: r.note === null ? undefined : safe(r.note),
          removal: r,
        })),
        { title: `SWE-Explore: restore a removal of ${safe(view.instance.instanceId)}` },
      );
      if (picked === undefined) return;
      target = picked.removal;
    }
    const restored = target;
    const author = await audit.author();
    if (!(await write(() => audit.append(restoreEvent(restored.id, author))))) return;
    // An accept is never erased by a restore; without one, the instance is unaudited again: say so
    // and offer the accept (the person did look at it).
    const instanceId = restored.instanceId;
    const unaudited = auditStatusOf(store.audit, instanceId) === 'unaudited';
    const text = restoredText(restored.path, restored.start, restored.end, instanceId, unaudited);
    const actions = unaudited ? ['Mark as Audited'] : [];
    void vscode.window.showInformationMessage(`SWE-Explore: ${safe(text)}`, ...actions).then((action) => {
      if (action !== undefined) void vscode.commands.executeCommand(COMMANDS.acceptInstance, instanceId);
    });
  };

  const acceptInstance = async (arg: unknown): Promise<void> => {
    await whenLoaded();
    const instanceId = typeof arg === 'string' ? arg : isRecord(arg) && typeof arg['instanceId'] === 'string' ? arg['instanceId'] : store.selection.instanceId;
    if (instanceId === undefined || !store.data.instances.has(instanceId)) {
      void vscode.window.showInformationMessage('SWE-Explore: open an instance first ("SWE-Explore: Open Instance").');
      return;
    }
    const author = await audit.author();
    if (await write(() => audit.append(acceptEvent(instanceId, author)))) {
      void vscode.window.showInformationMessage(`SWE-Explore: ${safe(instanceId)} marked as audited, nothing to remove.`);
    }
  };

  const nextUnaudited = async (): Promise<void> => {
    await whenLoaded();
    const ids = instancesTree.orderedInstanceIds();
    const start = ids.indexOf(store.selection.instanceId ?? '');
    for (let step = 1; step <= ids.length; step++) {
      const id = ids[(start + step + ids.length) % ids.length]!;
      if (auditStatusOf(store.audit, id) === 'unaudited' && id !== store.selection.instanceId) {
        await vscode.commands.executeCommand(COMMANDS.openInstance, id);
        return;
      }
    }
    void vscode.window.showInformationMessage('SWE-Explore: every instance shown is audited.');
  };

  return [
    vscode.commands.registerCommand(COMMANDS.removeSpan, (arg?: unknown) => removeSpan(arg, true)),
    vscode.commands.registerCommand(COMMANDS.removeSpanWithLastReason, (arg?: unknown) => removeSpan(arg, false)),
    vscode.commands.registerCommand(COMMANDS.restoreSpan, restoreSpan),
    vscode.commands.registerCommand(COMMANDS.acceptInstance, acceptInstance),
    vscode.commands.registerCommand(COMMANDS.nextUnauditedInstance, nextUnaudited),
  ];
}
