import * as vscode from 'vscode';
import { PROFILES, type Profile } from '../../core';
import { SETTINGS, SETTINGS_SECTION, type SettingKey } from './ids';

export interface LayerSettings {
  readonly core: boolean;
  readonly optional: boolean;
  readonly hiddenOptionalModels: readonly string[];
  readonly predictions: boolean;
  readonly missed: boolean;
  readonly patch: boolean;
  readonly consensus: boolean;
  readonly promoted: boolean;
  /** The what-if layers (would leave / would join the core) while a what-if is chosen. */
  readonly whatIf: boolean;
  /** What the explorer's own run viewed (issue 19). */
  readonly viewed: boolean;
  readonly rangedReads: boolean;
  readonly codeLens: boolean;
}

export interface DataSettings {
  readonly benchFile: string;
  readonly predictionGlobs: readonly string[];
  readonly reposRoot: string;
  readonly lineCountsFile: string;
}

/** Where the repair runs a record cites are found, and which reports say whether they resolved their issue. */
export interface TrajectorySources {
  /** Roots a `traj_path` resolves against, as written (relative ones against the bench file's folder); empty = that folder. */
  readonly roots: readonly string[];
  /** `KEY → TEMPLATE` (see src/data/trajectories/locate.ts). */
  readonly templates: ReadonlyArray<readonly [key: string, template: string]>;
  /** `KEY → PATH` of SWE-bench harness reports (see src/data/trajectories/reports.ts). */
  readonly reports: ReadonlyArray<readonly [key: string, path: string]>;
}

export interface TrajectorySettings extends TrajectorySources {
  /** Messages shown on each side of a step the view is opened at. */
  readonly contextMessages: number;
}

export interface ScoringSettings {
  readonly profile: Profile;
  readonly budget: number;
  readonly topK: number;
}

// Settings are user input: a hand-edited settings.json can hold any JSON, so every value is checked
// and falls back to its default rather than reaching code that expects another type.
function bool(config: vscode.WorkspaceConfiguration, key: SettingKey, fallback: boolean): boolean {
  const value = config.get<unknown>(key);
  return typeof value === 'boolean' ? value : fallback;
}

function text(config: vscode.WorkspaceConfiguration, key: SettingKey): string {
  const value = config.get<unknown>(key);
  return typeof value === 'string' ? value : '';
}

function strings(config: vscode.WorkspaceConfiguration, key: SettingKey, fallback: readonly string[]): readonly string[] {
  const value = config.get<unknown>(key);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : fallback;
}

/** A `{key: "text"}` object setting, its string entries in order (anything else dropped). */
function textMap(config: vscode.WorkspaceConfiguration, key: SettingKey): ReadonlyArray<readonly [string, string]> {
  const value = config.get<unknown>(key);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '');
}

function positiveInt(config: vscode.WorkspaceConfiguration, key: SettingKey, fallback: number): number {
  const value = config.get<unknown>(key);
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : fallback;
}

export function readLayerSettings(): LayerSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return {
    core: bool(config, SETTINGS.coreLayer, true),
    optional: bool(config, SETTINGS.optionalLayer, true),
    hiddenOptionalModels: strings(config, SETTINGS.hiddenOptionalModels, []),
    predictions: bool(config, SETTINGS.predictionsLayer, true),
    missed: bool(config, SETTINGS.missedLayer, true),
    patch: bool(config, SETTINGS.patchLayer, true),
    consensus: bool(config, SETTINGS.consensusLayer, true),
    promoted: bool(config, SETTINGS.promotedLayer, true),
    whatIf: bool(config, SETTINGS.whatIfLayer, true),
    viewed: bool(config, SETTINGS.viewedLayer, true),
    rangedReads: bool(config, SETTINGS.rangedReadsLayer, true),
    codeLens: bool(config, SETTINGS.codeLens, true),
  };
}

export function readDataSettings(): DataSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return {
    benchFile: text(config, SETTINGS.benchFile),
    predictionGlobs: strings(config, SETTINGS.predictionGlobs, ['results/**/*.jsonl']),
    reposRoot: text(config, SETTINGS.reposRoot),
    lineCountsFile: text(config, SETTINGS.lineCountsFile),
  };
}

export function readTrajectorySettings(): TrajectorySettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const context = config.get<unknown>(SETTINGS.trajectoryContextMessages);
  return {
    roots: strings(config, SETTINGS.trajectoryRoots, []).filter((root) => root !== ''),
    templates: textMap(config, SETTINGS.trajectoryTemplates),
    reports: textMap(config, SETTINGS.resolutionReports),
    contextMessages: typeof context === 'number' && Number.isInteger(context) && context >= 0 && context <= 50 ? context : 4,
  };
}

/** The sources as the store holds them (Selection.trajectorySources): a canonical JSON string. */
export function trajectorySourcesKey(settings: TrajectorySources): string {
  return JSON.stringify({ roots: settings.roots, templates: settings.templates, reports: settings.reports });
}

export function readScoringSettings(): ScoringSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const profile = config.get<unknown>(SETTINGS.profile);
  return {
    profile: PROFILES.find((p) => p === profile) ?? 'official',
    budget: positiveInt(config, SETTINGS.budget, 500),
    topK: positiveInt(config, SETTINGS.topK, 5),
  };
}

/**
 * The scope a setting is written to: the narrowest one that already sets it (so a toggle is never
 * shadowed by a folder value), else the workspace, else the user settings.
 */
function targetOf(config: vscode.WorkspaceConfiguration, key: SettingKey): vscode.ConfigurationTarget {
  const inspected = config.inspect(key);
  if (inspected?.workspaceFolderValue !== undefined) return vscode.ConfigurationTarget.WorkspaceFolder;
  if (inspected?.workspaceValue !== undefined || vscode.workspace.workspaceFolders !== undefined) return vscode.ConfigurationTarget.Workspace;
  return vscode.ConfigurationTarget.Global;
}

/** Flips a boolean setting (see {@link targetOf} for where it is written). */
export async function toggleSetting(key: SettingKey): Promise<void> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  await config.update(key, !bool(config, key, true), targetOf(config, key));
}

export async function updateSetting(key: SettingKey, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  await config.update(key, value, targetOf(config, key));
}

/** `sweExplore.audit.exportFolder` as written (empty: the default `.swe-explore/exports`). */
export function readExportFolder(): string {
  return text(vscode.workspace.getConfiguration(SETTINGS_SECTION), SETTINGS.exportFolder).trim();
}

/** `sweExplore.audit.confirmAboveLines`: removals of more lines than this ask first. */
export function readConfirmAboveLines(): number {
  return positiveInt(vscode.workspace.getConfiguration(SETTINGS_SECTION), SETTINGS.confirmAboveLines, 200);
}
