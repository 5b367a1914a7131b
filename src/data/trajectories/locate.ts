/**
 * Finding the run a record's `read_step_info` cites (issue 18 item 4). A `traj_path` is
 * `<root>/<traj_path>` for each root in order (`sweExplore.data.trajectoryRoots`, CLI `--trajs`;
 * default the bench file's folder), else a per-model template (`sweExplore.data.trajectoryTemplates`,
 * CLI `--traj-template KEY=TEMPLATE`) whose key matches the `traj_path`'s model folder (the folder
 * that holds the file: `…/gemini-3-pro/x__0.json` → `gemini-3-pro`) or the run's model name.
 *
 * `traj_path` is data: under a root it is resolved with `resolveInSnapshot`, so an absolute path,
 * a `..` that leaves the root or a symlink out of it is refused, never opened (records written by
 * a builder that stored absolute paths are found through a template instead). A template is the
 * user's own setting and may be absolute; the values put into it come from data and must be plain
 * names (no separator, not `.` or `..`).
 */
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { trajPathModelFolder } from '../../core';
import { RESOLVE_FAILURE_TEXT, resolveInSnapshot } from '../io/paths';

/** Placeholders a template may use. */
export const TEMPLATE_PLACEHOLDERS = ['instance_id', 'model_folder', 'file_name'] as const;

export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

/** `KEY=TEMPLATE`: where the runs of one model live. */
export interface TrajectoryTemplate {
  /** A `traj_path` model folder or a model name. */
  readonly key: string;
  /** A path with `{instance_id}`, `{model_folder}` and/or `{file_name}`; relative ones resolve against the locator's base folder. */
  readonly template: string;
}

/** The placeholders of a template that are not in {@link TEMPLATE_PLACEHOLDERS} (empty when it is valid). */
export function unknownTemplatePlaceholders(template: string): string[] {
  const out: string[] = [];
  for (const match of template.matchAll(/\{([^{}]*)\}/g)) if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(match[1]!)) out.push(match[0]);
  return out;
}

/** The folder that holds the `traj_path`'s file (`unify_trajs/x/gemini-3-pro/a__0.json` → `gemini-3-pro`), if any. */
export function modelFolderOf(trajPath: string): string | undefined {
  return trajPathModelFolder(trajPath);
}

/** Whether a `KEY` of a template or report names this run: its model folder or its model name. */
export function keyMatchesRun(key: string, trajPath: string, model?: string): boolean {
  return key === modelFolderOf(trajPath) || (model !== undefined && key === model);
}

/** A value from data that may go into a path: one plain name. */
export function isPlainName(value: string): boolean {
  return value !== '' && value !== '.' && value !== '..' && !/[\\/\0]/.test(value);
}

export interface RunLocator {
  /** Folders a `traj_path` is resolved against, in order. */
  readonly roots: readonly string[];
  readonly templates: readonly TrajectoryTemplate[];
  /** Where relative templates resolve (the CLI's working folder, the extension's bench folder). */
  readonly templateBase: string;
}

export type LocatedRun =
  | { readonly found: true; readonly file: string; readonly via: 'root' | 'template'; readonly from: string }
  /** `tried` says what was looked at, one phrase each, for the "not found" message. */
  | { readonly found: false; readonly tried: readonly string[] };

/** Expands a template for one run; undefined when a value is not a plain name. */
function expandTemplate(template: string, values: Readonly<Record<TemplatePlaceholder, string | undefined>>): string | undefined {
  let failed = false;
  const expanded = template.replace(/\{(instance_id|model_folder|file_name)\}/g, (_, name: TemplatePlaceholder) => {
    const value = values[name];
    if (value === undefined || !isPlainName(value)) failed = true;
    return value ?? '';
  });
  return failed ? undefined : expanded;
}

async function regularFile(file: string): Promise<string | undefined> {
  try {
    const real = await realpath(file);
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Finds the file of a cited run (see the module comment); `model` is the run's model name when the caller knows it. */
export async function locateRun(trajPath: string, instanceId: string, locator: RunLocator, model?: string): Promise<LocatedRun> {
  const tried: string[] = [];
  for (const root of locator.roots) {
    const resolved = await resolveInSnapshot(root, trajPath);
    if (resolved.ok) return { found: true, file: resolved.real, via: 'root', from: root };
    tried.push(resolved.reason === 'missing' ? `not under ${root}` : `under ${root}: ${RESOLVE_FAILURE_TEXT[resolved.reason].replace('snapshot root', 'root')}`);
  }
  const values = { instance_id: instanceId, model_folder: modelFolderOf(trajPath), file_name: trajPath.split(/[\\/]/).pop() };
  for (const { key, template } of locator.templates) {
    if (!keyMatchesRun(key, trajPath, model)) continue;
    const expanded = expandTemplate(template, values);
    if (expanded === undefined) {
      tried.push(`template ${key}: a value for it is not a plain file name`);
      continue;
    }
    const file = await regularFile(path.resolve(locator.templateBase, expanded));
    if (file !== undefined) return { found: true, file, via: 'template', from: key };
    tried.push(`template ${key}: ${expanded} is not a file`);
  }
  if (locator.roots.length === 0 && locator.templates.length === 0) tried.push('no trajectory root or template is set');
  return { found: false, tried };
}
