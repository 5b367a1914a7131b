/**
 * The argument layer every `swe-explore` command shares: the option specs, strict flag parsing,
 * the checks on counts, profile and format, the usage error (exit 2) and the loadWorkspace sources
 * the input flags name. One place, so a flag means the same and fails the same in every command.
 */
import { stat } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PROFILES, type Profile } from '../core';
import { formatProblem, sortProblems, unknownTemplatePlaceholders, type Problem, type ReportSource, type TrajectoryTemplate, type WorkspaceSources } from '../data';
import { escapeForTerminal } from '../shared/escape';

/** A user-facing failure: printed as one line, never as a stack trace, and the command exits 2. */
export class UsageError extends Error {}

/** A folder named by a flag must be one: a typo would otherwise silently drop every read. */
export async function requireFolder(folder: string, flag: string): Promise<void> {
  let isFolder = false;
  try {
    isFolder = (await stat(folder)).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder) throw new UsageError(`${flag} ${folder} is not a folder`);
}

/** `swe-explore: message` on stderr; the message can carry data (paths, flag values), so it is escaped to stay one line. */
export function printError(message: string): void {
  process.stderr.write(`swe-explore: ${escapeForTerminal(message)}\n`);
}

/** Runs a command body; a {@link UsageError} prints one line and gives exit 2, anything else is rethrown. */
export async function runGuarded(body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError) {
      printError(error.message);
      return 2;
    }
    throw error;
  }
}

/** The bench and where its snapshots and line counts are: every command reads these. */
export const WORKSPACE_OPTIONS = {
  bench: { type: 'string' },
  repos: { type: 'string' },
  'line-counts': { type: 'string' },
} as const;

export const PREDS_OPTION = { preds: { type: 'string', multiple: true } } as const;

const TRANSCRIPTS_OPTION = { transcripts: { type: 'string', multiple: true } } as const;

/** What the scorer needs besides the data: the commands that score take these, with these defaults. */
export const SCORING_OPTIONS = {
  profile: { type: 'string', default: 'official' },
  k: { type: 'string', default: '5' },
} as const;

/** What `score` and `misses` read and score: the workspace, prediction files and/or transcript folders, profile and k. */
export const SCORED_INPUT_OPTIONS = { ...WORKSPACE_OPTIONS, ...PREDS_OPTION, ...TRANSCRIPTS_OPTION, ...SCORING_OPTIONS } as const;

/** `--format`; the default differs per command (the table for `score`, JSON lines elsewhere). */
export function formatOption<const F extends string>(defaultFormat: F): { readonly format: { readonly type: 'string'; readonly default: F } } {
  return { format: { type: 'string', default: defaultFormat } };
}

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** The values `parseArgs` gives for these specs (strict, no positionals). */
export type Flags<O extends OptionSpecs> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>>['values'];

/**
 * Where a record's runs are found and how they are judged (issue 18 item 4): `--trajs ROOT`
 * (repeatable; a `traj_path` is looked up under each root), `--traj-template KEY=TEMPLATE` and
 * `--reports KEY=PATH` (repeatable; KEY is a `traj_path` model folder or a model name).
 */
export const TRAJECTORY_SOURCE_OPTIONS = {
  trajs: { type: 'string', multiple: true },
  'traj-template': { type: 'string', multiple: true },
  reports: { type: 'string', multiple: true },
} as const;

/** `KEY=VALUE` of a repeatable flag; the key is everything before the first `=`. */
export function parseKeyValue(text: string, flag: string, valueName: string): { key: string; value: string } {
  const cut = text.indexOf('=');
  if (cut <= 0 || cut === text.length - 1) throw new UsageError(`${flag} takes KEY=${valueName}, got ${JSON.stringify(text)}`);
  return { key: text.slice(0, cut), value: text.slice(cut + 1) };
}

/** `--traj-template KEY=TEMPLATE …`; a placeholder other than {instance_id}, {model_folder}, {file_name} is a usage error. */
export function parseTrajectoryTemplates(values: readonly string[] | undefined): TrajectoryTemplate[] {
  return (values ?? []).map((text) => {
    const { key, value } = parseKeyValue(text, '--traj-template', 'TEMPLATE');
    const unknown = unknownTemplatePlaceholders(value);
    if (unknown.length > 0) throw new UsageError(`--traj-template ${JSON.stringify(key)}: unknown placeholder ${unknown.join(', ')} (use {instance_id}, {model_folder} or {file_name})`);
    return { key, template: value };
  });
}

/**
 * `--explorer-trajs EXPLORER=DIR …`: an explorer's own runs, per explorer label as `score` prints it.
 * An explorer given twice is a usage error; whether the labels exist is checked once the workspace
 * is loaded ({@link checkExplorerLabels}).
 */
export function parseExplorerTrajectories(values: readonly string[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const text of values ?? []) {
    const { key, value } = parseKeyValue(text, '--explorer-trajs', 'DIR');
    if (out.has(key)) throw new UsageError(`--explorer-trajs names explorer ${JSON.stringify(key)} twice`);
    out.set(key, value);
  }
  return out;
}

/** A flag's explorer labels must be loaded explorers: else a usage error naming the labels there are. */
export function checkExplorerLabels(flag: string, labels: Iterable<string>, loaded: readonly string[]): void {
  for (const label of labels) {
    if (loaded.includes(label)) continue;
    const names = loaded.length === 0 ? 'no explorers are loaded' : `explorers: ${loaded.map((l) => JSON.stringify(l)).join(', ')}`;
    throw new UsageError(`${flag}: no explorer labelled ${JSON.stringify(label)} (${names})`);
  }
}

/** `--reports KEY=PATH …`: SWE-bench harness reports per model folder or model name. */
export function parseReportSources(values: readonly string[] | undefined): ReportSource[] {
  return (values ?? []).map((text) => {
    const { key, value } = parseKeyValue(text, '--reports', 'PATH');
    return { key, path: value };
  });
}

/** The one positional argument of a command that takes one (`reads TRAJ`), with strict flags. */
export function parseFlagsAndOperand<const O extends OptionSpecs>(argv: string[], options: O, operand: string): { values: Flags<O>; operand: string } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== 1) throw new UsageError(parsed.positionals.length === 0 ? `${operand} is required` : `one ${operand} only, got ${parsed.positionals.length}`);
  return { values: parsed.values as Flags<O>, operand: parsed.positionals[0]! };
}

/** Strict parsing: an unknown flag, a missing value or a stray positional is a usage error. */
export function parseFlags<const O extends OptionSpecs>(argv: string[], options: O): Flags<O> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** No file has a billion lines and no explorer a billion predictions; larger values are typos. */
export const MAX_COUNT_ARGUMENT = 1_000_000_000;

/**
 * A whole number in min..1e9 (min 1 unless a flag, like `--seed`, allows 0). Digits only, so `1e3`,
 * `0x10` and `-1` are refused, and the bound keeps every accepted value a safe integer (past 2^53
 * Number() silently rounds).
 */
export function parseCount(value: string, flag: string, min = 1, max = MAX_COUNT_ARGUMENT): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** `--profile`: one of {@link PROFILES}. */
export function parseProfile(value: string): Profile {
  const profile = PROFILES.find((p) => p === value);
  if (profile === undefined) throw new UsageError(`--profile must be official or snapshot, got ${JSON.stringify(value)}`);
  return profile;
}

/** `--format`: one of `allowed`, named in the error in the order given ("a, b or c"). */
export function parseFormat<const F extends string>(value: string, allowed: readonly F[]): F {
  const format = allowed.find((f) => f === value);
  if (format === undefined) {
    const names = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]!}` : allowed.join('');
    throw new UsageError(`--format must be ${names}, got ${JSON.stringify(value)}`);
  }
  return format;
}

/** The input flags as parsed; `preds` and `transcripts` only where the command takes them. */
export interface SourceFlags {
  readonly bench?: string | undefined;
  readonly preds?: readonly string[] | undefined;
  readonly transcripts?: readonly string[] | undefined;
  readonly repos?: string | undefined;
  readonly 'line-counts'?: string | undefined;
}

/**
 * The loadWorkspace sources the flags name (snapshots located eagerly, the loader's default).
 * `--bench` is the one input every command needs: without it this is the usage error, so callers
 * take the sources first, where they check their other required flags.
 */
export function workspaceSources(values: SourceFlags): WorkspaceSources {
  if (values.bench === undefined) throw new UsageError('--bench is required');
  return {
    benchFile: values.bench,
    predictionFiles: values.preds ?? [],
    transcriptFolders: values.transcripts ?? [],
    ...(values.repos === undefined ? {} : { reposRoot: values.repos }),
    ...(values['line-counts'] === undefined ? {} : { lineCountsFile: values['line-counts'] }),
  };
}

/** `score` and `misses` need an explorer to score: at least one prediction file or transcript folder. */
export function requireExplorers(sources: WorkspaceSources, command: string): void {
  if (sources.predictionFiles.length === 0 && (sources.transcriptFolders ?? []).length === 0) throw new UsageError(`${command} needs at least one --preds file or --transcripts folder`);
}

/** Problem lines carry data (ids, paths): controls are shown escaped so each stays one line. */
export function printProblems(problems: readonly Problem[], write: (text: string) => void = (text) => process.stderr.write(text)): void {
  for (const problem of sortProblems(problems)) write(`${escapeForTerminal(formatProblem(problem))}\n`);
}

/**
 * One `swe-explore` verb: its help as data (shown by `swe-explore <verb> --help`, `swe-explore help
 * <verb>` and, as the summary line, by `swe-explore --help`) and the function that runs it. The
 * registry in `verbs.ts` lists them; a new verb is one entry there.
 */
export interface Verb {
  readonly name: string;
  /** One line for the verb list. */
  readonly summary: string;
  /** The synopsis, starting with `swe-explore <name>`, continuation lines indented. */
  readonly usage: string;
  /** The flags and what the verb prints, plain text lines (no trailing newline). */
  readonly details: string;
  /** Runs the verb on its arguments (after the verb name); resolves to the exit code. */
  readonly run: (argv: string[]) => Promise<number>;
}
