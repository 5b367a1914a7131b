/** Deep links: the URI handler (`vscode://swe-explore.swe-explore-inspector/open?…`) and `sweExplore.copyLink`. */
import * as vscode from 'vscode';
import { formatDeepLink, LINK_PATH, type LinkTarget, OFFICIAL_METRIC_NAMES, parseDeepLink } from '../../core';
import { safeNotificationText as safe } from '../../shared/escape';
import { isRecord } from '../../shared/guards';
import { registerAddExplorerRuns } from './addExplorerRuns';
import { registerAddPredictions, type AddPredictionsServices } from './addPredictions';
import { resolveSnapshotFile, showLines } from '../base/navigation';
import { snapshotPathOf } from '../base/snapshot';
import type { RevealTarget } from '../base/places';
import type { InstanceView } from '../model/instanceView';
import { placeOf } from '../model/lineFacts';
import type { InspectorModel } from '../model/model';
import type { Selection, Store } from '../state/store';
import { COMMANDS } from '../base/ids';

/** What links need: Add Predictions' services (links register it), with the model instead of the bare store. */
export interface LinkServices extends Omit<AddPredictionsServices, 'store'> {
  readonly model: InspectorModel;
}

/** What following a link did: refused (with the message shown), or navigated (with the warnings shown). */
export type LinkOutcome = { readonly ok: true; readonly warnings: readonly string[] } | { readonly ok: false; readonly message: string };

/** The test API's part for links (integration tests cannot open `vscode://` URIs headless). */
export interface LinkApi {
  /** Follows a link exactly as the URI handler does. */
  readonly handleLink: (uri: vscode.Uri) => Promise<LinkOutcome>;
  /** Forgets the runs added with Add Predictions and Add Explorer Trajectories and reloads (tests clean up with it). */
  readonly forgetAddedRuns: () => Promise<void>;
}

export interface LinkRegistration {
  readonly disposables: vscode.Disposable[];
  readonly api: LinkApi;
}

/** How long the "Copied link" status-bar message stays. */
const COPIED_MESSAGE_MS = 5000;

export function registerLinks(services: LinkServices): LinkRegistration {
  const { model, whenLoaded, log } = services;
  const { store } = model;
  const added = registerAddPredictions({ ...services, store });
  const addedExplorerRuns = registerAddExplorerRuns({ ...services, store });

  const refuse = (message: string): LinkOutcome => {
    log(`link refused: ${message}`);
    void vscode.window.showErrorMessage(`SWE-Explore: link refused: ${safe(message)}.`);
    return { ok: false, message };
  };
  const warn = (warnings: readonly string[]): void => {
    if (warnings.length === 0) return;
    log(`link: ${warnings.join('; ')}`);
    void vscode.window.showWarningMessage(`SWE-Explore: ${safe(warnings.join('; '))}.`);
  };

  /** Follows a link: checks everything first, then only selects, opens and reveals. */
  const handleLink = async (uri: vscode.Uri): Promise<LinkOutcome> => {
    if (uri.path !== LINK_PATH) return refuse(`the link's path ${JSON.stringify(uri.path)} is not ${LINK_PATH}`);
    const parsed = parseDeepLink(uri.query);
    if (!parsed.ok) return refuse(parsed.message);
    const target = parsed.target;
    const warnings = [...parsed.warnings];
    await whenLoaded();
    const unknown: string[] = [];
    if (target.instance !== undefined && !store.data.instances.has(target.instance)) unknown.push(`instance ${JSON.stringify(target.instance)}`);
    for (const [what, name] of [
      ['explorer', target.explorer],
      ['compare explorer', target.compare],
    ] as const) {
      if (name !== undefined && !store.explorers.includes(name)) unknown.push(`${what} ${JSON.stringify(name)}`);
    }
    if (unknown.length > 0) return refuse(`the loaded data has no ${unknown.join(' and no ')}`);

    if (target.view === 'leaderboard') {
      store.select(selectionOf(target));
      const metric = OFFICIAL_METRIC_NAMES.find((m) => m === target.metric);
      if (target.metric !== undefined && metric === undefined) warnings.push(`unknown metric ${JSON.stringify(target.metric)} ignored`);
      if (metric === undefined) await vscode.commands.executeCommand(COMMANDS.showLeaderboard);
      else await vscode.commands.executeCommand(COMMANDS.showLeaderboard, { metric });
      warn(warnings);
      return { ok: true, warnings };
    }

    const instanceId = target.instance!;
    // The file is resolved before anything moves, so a refused path leaves everything as it was.
    let file: string | undefined;
    if (target.path !== undefined) {
      const resolved = await resolveSnapshotFile(store.data.instances.get(instanceId)!, target.path);
      if (!resolved.ok) return refuse(resolved.problem);
      file = resolved.file;
    }
    // The link's explorer, budget and compare explorer are selected with the instance: one change, one paint.
    await vscode.commands.executeCommand(COMMANDS.openInstance, instanceId, selectionOf(target));
    // Only the checked real path is opened (see resolveSnapshotFile).
    if (file !== undefined) await showLines(file, target.line ?? 1, target.line ?? 1);
    warn(warnings);
    return { ok: true, warnings };
  };

  const copyLink = async (arg?: unknown): Promise<string | undefined> => {
    const target = linkTargetOf(model, arg);
    if (target === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: open an instance first; a link leads to an instance (or the leaderboard).');
      return undefined;
    }
    const link = formatDeepLink(target);
    // What is copied must be followable: check it the way the handler will.
    const check = parseDeepLink(vscode.Uri.parse(link).query);
    if (!check.ok) {
      void vscode.window.showWarningMessage(`SWE-Explore: no link copied: ${safe(check.message)}.`);
      return undefined;
    }
    await vscode.env.clipboard.writeText(link);
    vscode.window.setStatusBarMessage(`Copied link to ${safe(describe(target))}`, COPIED_MESSAGE_MS);
    return link;
  };

  return {
    disposables: [
      ...added.disposables,
      ...addedExplorerRuns.disposables,
      vscode.window.registerUriHandler({
        handleUri: (uri) =>
          handleLink(uri).then(
            () => undefined,
            // Opening the file can still fail (permissions, a file removed meanwhile): say so in the log.
            (error: unknown) => log(`link failed: ${error instanceof Error ? error.message : String(error)}`),
          ),
      }),
      vscode.commands.registerCommand(COMMANDS.copyLink, copyLink),
    ],
    api: {
      handleLink,
      forgetAddedRuns: async () => {
        await added.forget();
        await addedExplorerRuns.forget();
      },
    },
  };
}

/** A link's explorer, budget and compare explorer (only those it names), as a selection change. */
function selectionOf(target: LinkTarget): Partial<Pick<Selection, 'explorer' | 'budget' | 'compareWith'>> {
  return {
    ...(target.explorer === undefined ? {} : { explorer: target.explorer }),
    ...(target.budget === undefined ? {} : { budget: target.budget }),
    ...(target.compare === undefined ? {} : { compareWith: target.compare }),
  };
}

/** "acme__x-1 · agent · B=500 · src/a.py:12", for the status-bar message. */
function describe(target: LinkTarget): string {
  if (target.view === 'leaderboard') return ['leaderboard', target.metric, target.explorer].filter((s) => s !== undefined).join(' · ');
  const parts: string[] = [target.instance ?? ''];
  if (target.explorer !== undefined) parts.push(target.compare === undefined ? target.explorer : `${target.explorer} vs ${target.compare}`);
  if (target.budget !== undefined) parts.push(`B=${target.budget}`);
  if (target.path !== undefined) parts.push(target.line === undefined ? target.path : `${target.path}:${target.line}`);
  return parts.join(' · ');
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function optionalInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

/** The current explorer, compare explorer and budget, as link fields. */
function currentChoice(store: Store): Pick<LinkTarget, 'explorer' | 'compare' | 'budget'> {
  const { explorer, compareWith, budget } = store.selection;
  return { ...(explorer === undefined ? {} : { explorer }), ...(compareWith === undefined ? {} : { compare: compareWith }), budget };
}

/**
 * What `sweExplore.copyLink` was asked to link to: an editor (no argument, or the document's URI
 * from the editor context menu), an Instances tree item, a Regions tree item, or a plain object
 * of link fields (the leaderboard passes `{ view: 'leaderboard', explorer, metric }`).
 */
function linkTargetOf(model: InspectorModel, arg: unknown): LinkTarget | undefined {
  const { store } = model;
  const selected = store.selection.instanceId;
  if (arg === undefined || arg instanceof vscode.Uri) {
    if (selected === undefined) return undefined;
    const editor = vscode.window.activeTextEditor;
    const uri = arg ?? editor?.document.uri;
    const path = uri === undefined ? undefined : snapshotPathOf(model.view, uri);
    const onEditor = editor !== undefined && uri !== undefined && editor.document.uri.toString() === uri.toString();
    return { instance: selected, ...currentChoice(store), ...(path === undefined ? {} : { path, ...(onEditor ? { line: editor.selection.active.line + 1 } : {}) }) };
  }
  if (!isRecord(arg)) return undefined;
  if (arg['kind'] === 'instance' && typeof arg['instanceId'] === 'string') return { instance: arg['instanceId'], ...currentChoice(store) };
  if (arg['kind'] === 'leaf' && isRecord(arg['target'])) {
    const view = model.view;
    if (view === undefined || selected === undefined) return undefined;
    const place = placeOfLeaf(view, arg['target']);
    return { instance: selected, ...currentChoice(store), ...(place === undefined ? {} : place) };
  }
  if (arg['view'] === 'leaderboard') {
    const explorer = optionalString(arg['explorer']);
    const metric = optionalString(arg['metric']);
    const budget = optionalInteger(arg['budget']);
    return { view: 'leaderboard', ...(explorer === undefined ? {} : { explorer }), ...(metric === undefined ? {} : { metric }), ...(budget === undefined ? {} : { budget }) };
  }
  const instance = optionalString(arg['instance']) ?? selected;
  if (instance === undefined) return undefined;
  const explorer = optionalString(arg['explorer']);
  const budget = optionalInteger(arg['budget']);
  const path = optionalString(arg['path']);
  const line = optionalInteger(arg['line']);
  const current = currentChoice(store);
  return {
    instance,
    ...current,
    ...(explorer === undefined ? {} : { explorer }),
    ...(budget === undefined ? {} : { budget }),
    ...(path === undefined ? {} : { path, ...(line === undefined ? {} : { line }) }),
  };
}

/** A Regions tree leaf's path and first line (the line its reveal lands on). */
function placeOfLeaf(view: InstanceView, target: Record<string, unknown>): { path: string; line: number } | undefined {
  const { kind, index, rank } = target;
  const reveal: RevealTarget | undefined =
    (kind === 'core' || kind === 'optional') && typeof index === 'number' ? { kind, index } : kind === 'prediction' && typeof rank === 'number' ? { kind, rank } : undefined;
  const place = reveal === undefined ? undefined : placeOf(view, reveal);
  return place === undefined ? undefined : { path: place.path, line: Math.max(1, place.start) };
}
