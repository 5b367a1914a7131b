import * as vscode from 'vscode';
import { PROFILES, type Profile } from '../core/types';

export interface LayerSettings {
  readonly core: boolean;
  readonly optional: boolean;
  readonly hiddenOptionalModels: readonly string[];
  readonly predictions: boolean;
  readonly missed: boolean;
  readonly patch: boolean;
  readonly codeLens: boolean;
}

export interface DataSettings {
  readonly benchFile: string;
  readonly predictionGlobs: readonly string[];
  readonly reposRoot: string;
  readonly lineCountsFile: string;
}

export interface ScoringSettings {
  readonly profile: Profile;
  readonly budget: number;
  readonly topK: number;
}

const SECTION = 'sweExplore';

export function readLayerSettings(): LayerSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    core: config.get<boolean>('layers.core', true),
    optional: config.get<boolean>('layers.optional', true),
    hiddenOptionalModels: config.get<string[]>('layers.hiddenOptionalModels', []),
    predictions: config.get<boolean>('layers.predictions', true),
    missed: config.get<boolean>('layers.missed', true),
    patch: config.get<boolean>('layers.patch', true),
    codeLens: config.get<boolean>('codeLens.enabled', true),
  };
}

export function readDataSettings(): DataSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    benchFile: config.get<string>('data.benchFile', ''),
    predictionGlobs: config.get<string[]>('data.predictionGlobs', ['results/**/*.jsonl']),
    reposRoot: config.get<string>('data.reposRoot', ''),
    lineCountsFile: config.get<string>('data.lineCountsFile', ''),
  };
}

export function readScoringSettings(): ScoringSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const profile = config.get<string>('scoring.profile', 'official');
  const budget = config.get<number>('scoring.budget', 500);
  const topK = config.get<number>('scoring.topK', 5);
  return {
    profile: PROFILES.find((p) => p === profile) ?? 'official',
    budget: Number.isInteger(budget) && budget >= 1 ? budget : 500,
    topK: Number.isInteger(topK) && topK >= 1 ? topK : 5,
  };
}

/** Flips a boolean setting in the narrowest scope that already defines it (workspace by default). */
export async function toggleSetting(key: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const current = config.get<boolean>(key, true);
  const target = vscode.workspace.workspaceFolders === undefined ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  await config.update(key, !current, target);
}

export async function updateSetting(key: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const target = vscode.workspace.workspaceFolders === undefined ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  await config.update(key, value, target);
}
