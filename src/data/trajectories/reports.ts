/**
 * SWE-bench harness reports: did a run resolve its issue? (issue 18 item 4). Sources are
 * `KEY=PATH` pairs (`sweExplore.data.resolutionReports`, CLI `--reports`, repeatable); a KEY names a
 * run the way a template key does (its `traj_path`'s model folder or its model name). PATH is
 *
 * - a folder of `<instance_id>/report.json` or `<instance_id>.report.json`, each the harness's
 *   per-run report: a top-level `"resolved"`, or `{"<instance_id>": {"resolved": …}}`; or
 * - one file: `{"<instance_id>": {"resolved": …}, …}`, or the harness summary with
 *   `"resolved_ids"` (resolved), and `"unresolved_ids"`, `"error_ids"`, `"empty_patch_ids"`,
 *   `"completed_ids"` (not resolved when not also in `resolved_ids`).
 *
 * A run without a report, or whose report says nothing about its instance, is `unknown`; a report
 * that cannot be read is `unknown` with a problem. Folder reports are read one instance at a time,
 * when asked; a single-file source is read once.
 */
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { isRecord } from '../../shared/guards';
import { ioProblem, type Problem } from '../io/problems';
import { readRegularFile } from '../io/regularFile';
import { isPlainName, keyMatchesRun } from './locate';

export type RunResolution = 'resolved' | 'not-resolved' | 'unknown';

/** `KEY=PATH`. */
export interface ReportSource {
  readonly key: string;
  readonly path: string;
}

export interface ResolutionAnswer {
  readonly resolution: RunResolution;
  /** The report file that said so (undefined for `unknown` without a file). */
  readonly file?: string;
  readonly problems: readonly Problem[];
}

/** Largest report file read (a harness summary of thousands of runs is a few MB). */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

const NOT_RESOLVED_LISTS = ['unresolved_ids', 'error_ids', 'empty_patch_ids', 'completed_ids'] as const;

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem?: Problem };

async function readJsonFile(file: string): Promise<Parsed> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return { ok: false };
    if (info.size > MAX_REPORT_BYTES) return { ok: false, problem: { file, line: 0, severity: 'warning', code: 'file-too-large', message: 'report is too large to read' } };
    return { ok: true, value: JSON.parse((await readRegularFile(file)).toString('utf8')) };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { ok: false };
    if (error instanceof SyntaxError) return { ok: false, problem: { file, line: 0, severity: 'warning', code: 'resolution-report-invalid', message: 'report is not valid JSON' } };
    return { ok: false, problem: ioProblem(file, error) };
  }
}

function resolvedFlag(value: unknown): RunResolution | undefined {
  return value === true ? 'resolved' : value === false ? 'not-resolved' : undefined;
}

/** What one report (per-run or multi-run) says about one instance. */
export function resolutionInReport(report: unknown, instanceId: string): RunResolution | undefined {
  if (!isRecord(report)) return undefined;
  if (Object.hasOwn(report, instanceId) && isRecord(report[instanceId])) {
    const flag = resolvedFlag((report[instanceId] as Record<string, unknown>)['resolved']);
    if (flag !== undefined) return flag;
  }
  if (Object.hasOwn(report, 'resolved')) return resolvedFlag(report['resolved']);
  const listed = (key: string): boolean => Array.isArray(report[key]) && (report[key] as unknown[]).includes(instanceId);
  if (listed('resolved_ids')) return 'resolved';
  if (NOT_RESOLVED_LISTS.some(listed)) return 'not-resolved';
  return undefined;
}

/** Answers "did this run resolve its instance?" from the configured sources (see the module comment). */
export class ResolutionReports {
  private readonly files = new Map<string, Promise<Parsed>>();

  /** `baseDir`: where relative PATHs resolve. */
  constructor(
    private readonly sources: readonly ReportSource[],
    private readonly baseDir: string,
  ) {}

  /** The first source whose KEY matches the run decides; `unknown` when none does or it says nothing. */
  async resolutionOf(trajPath: string, instanceId: string, model?: string): Promise<ResolutionAnswer> {
    for (const source of this.sources) {
      if (!keyMatchesRun(source.key, trajPath, model)) continue;
      return this.ask(path.resolve(this.baseDir, source.path), instanceId);
    }
    return { resolution: 'unknown', problems: [] };
  }

  private async ask(sourcePath: string, instanceId: string): Promise<ResolutionAnswer> {
    let isFolder: boolean;
    try {
      isFolder = (await stat(sourcePath)).isDirectory();
    } catch (error) {
      return { resolution: 'unknown', problems: [ioProblem(sourcePath, error)] };
    }
    if (!isFolder) return this.fromFile(sourcePath, instanceId, true);
    if (!isPlainName(instanceId)) return { resolution: 'unknown', problems: [] };
    const problems: Problem[] = [];
    for (const candidate of [path.join(sourcePath, instanceId, 'report.json'), path.join(sourcePath, `${instanceId}.report.json`)]) {
      const answer = await this.fromFile(candidate, instanceId, false);
      for (const p of answer.problems) problems.push(p);
      if (answer.resolution !== 'unknown') return { ...answer, problems };
    }
    return { resolution: 'unknown', problems };
  }

  private async fromFile(file: string, instanceId: string, cache: boolean): Promise<ResolutionAnswer> {
    let parsed = cache ? this.files.get(file) : undefined;
    if (parsed === undefined) {
      parsed = readJsonFile(file);
      if (cache) this.files.set(file, parsed);
    }
    const result = await parsed;
    if (!result.ok) return { resolution: 'unknown', problems: result.problem === undefined ? [] : [result.problem] };
    const resolution = resolutionInReport(result.value, instanceId);
    return resolution === undefined ? { resolution: 'unknown', problems: [] } : { resolution, file, problems: [] };
  }
}
