/**
 * `swe-explore reads`, `build` and `provenance`: the benchmark builder's read extraction, its
 * ground-truth build, and a record's core against the R_int its own reads give
 * (../shared/trajectories.md). Output keys and their order are contracts (issue 18 item 3).
 */
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { promotionProvenance, type PromotionProvenance, type SeenRange, type TrajectoryRead } from '../core';
import { buildBench, DEFAULT_REPO_PATH, hasErrors, instanceLineCounts, LineCountCache, loadRun, loadWorkspace, writeFileAtomically, type InstanceEntry, type Problem } from '../data';
import { escapeForTerminal, jsonForTerminal } from '../shared/escape';
import {
  formatOption,
  parseCount,
  parseFlags,
  parseFlagsAndOperand,
  parseFormat,
  printError,
  printProblems,
  runGuarded,
  TRAJECTORY_SOURCE_OPTIONS,
  UsageError,
  workspaceSources,
  WORKSPACE_OPTIONS,
  type Verb,
  requireFolder,
} from './args';

export const READS_VERB: Verb = {
  name: 'reads',
  summary: "the reads the benchmark's builder extracts from one repair run",
  usage: 'swe-explore reads TRAJ [--repo DIR] [--repo-path /testbed] [--format json|table]',
  details: `The reads the builder (bench_build.py) keeps from one run, in extraction order, each with
its idiom (how the command read it) and the lines the agent actually saw.

json (default): one line per read, {"path","start","end","step_idx","idiom","seen"}; start/end
are the builder's credit (end -1 to the end of the file, a negative start = the last N lines,
start or 1); seen is a list of [start, end]. table: the same with the run's instance, model,
format and base above it.

Flags:
  --repo DIR                 keep only files that exist in DIR (the builder's rule); without it
                             the builder's name rules decide
  --repo-path /testbed       the base paths are normalised against when the run names none
                             (its cwd, else /workspace/<dir> of its editor paths)
  --format json|table        json (default)

Formats: SWE-Explore unified {info, traj}, mini-swe-agent .traj.json v1 and v2, and every
format a converter is registered for (sniffed from the content).
Exit 0; 1 when the file could not be read; 2 usage error.`,
  run: runReads,
};

export const BUILD_VERB: Verb = {
  name: 'build',
  summary: "the builder's ground truth rebuilt from a folder of repair runs",
  usage: `swe-explore build --trajs DIR [--repos DIR] [--repo-path /testbed] [--min-trajectories N]
                  -o OUT.jsonl`,
  details: `One record per instance, as bench_build.py writes it (json.dumps layout): instance_id,
repo_path, repo_dir, ground_truth (read_core_files, read_core_regions, read_optional_files_map,
read_optional_regions_map, modified_core_files, main_files), read_step_info, meta.

Runs are the .json, .jsonl and .traj files under --trajs (recursively), an instance's runs in
byte-sorted path order. Instance: info.instance_id, else a top-level instance_id, else the file
name without .traj/.json/__N; model: info.model, else mini-swe-agent's model name, else the
file's grand-parent folder. traj_path is DIR as given joined with the file's path under it.

Flags:
  --trajs DIR                the folder of runs (required)
  --repos DIR                repositories <repos>/<instance_id> (default repos); an instance
                             without one is skipped with a warning, as the builder skips it
  --repo-path /testbed       the placeholder base and the records' repo_path
  --min-trajectories N       leave out instances with fewer runs (default 1)
  -o OUT.jsonl               where the records go (required)

Exit 0; 1 when a run could not be read (the others are built); 2 usage error.`,
  run: runBuild,
};

export const PROVENANCE_VERB: Verb = {
  name: 'provenance',
  summary: 'R_int (what every run read) against each core: promoted, dropped lines',
  usage: `swe-explore provenance --bench B.jsonl [--repos DIR | --line-counts COUNTS.json]
                       [--format json|table]`,
  details: `R_int is rebuilt from each record's read_step_info exactly as the builder intersects
(grouped by traj_path, merged, intersected, tails never intersected); lines are counted after
resolving -1. promoted = core minus R_int, dropped = R_int minus core; a promoted region's
models are those whose optional regions contain it.

json (default): per record {"instance_id","core_lines","r_int_lines","promoted_lines",
"dropped_lines","promoted_regions":[{"path","start","end","models"}]}. table: the counts per
record and the totals.

Flags:
  --bench B.jsonl            the bench (required)
  --repos DIR                snapshots for line counts (default: the bench file's folder)
  --line-counts COUNTS.json  {instance_id: {path: count}}, used first (default: line_counts.json
                             beside the bench when present)
  --format json|table        json (default)

Exit 0; 1 when a bench line was rejected; 2 usage error.`,
  run: runProvenance,
};

/** One `reads` line: the contract's keys in the contract's order. */
export function readJsonLine(read: TrajectoryRead): string {
  return jsonForTerminal({ path: read.path, start: read.start, end: read.end, step_idx: read.stepIdx, idiom: read.idiom, seen: read.seen });
}

/** `12–40`, `1–EOF`, `last 20` (a tail), for tables. */
export function describeRange(start: number, end: number): string {
  if (start < 0) return end === -1 ? `last ${-start}` : `last ${-start} to ${end}`;
  return `${start}–${end === -1 ? 'EOF' : end}`;
}

function describeSeen(seen: readonly SeenRange[]): string {
  return seen.length === 0 ? '(nothing)' : seen.map(([s, e]) => describeRange(s, e)).join(', ');
}

/** An aligned table; the first `left` columns are left-aligned, the rest right-aligned. */
function table(header: readonly string[], rows: readonly (readonly string[])[], left: ReadonlySet<number>): string {
  const widths = header.map((h) => h.length);
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i]!, cell.length)));
  const render = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : left.has(i) ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  let out = `${render(header)}\n${render(widths.map((w) => '-'.repeat(w)))}\n`;
  for (const row of rows) out += `${render(row)}\n`;
  return out;
}

/** `swe-explore reads TRAJ …`. Exit 0, 1 when the file could not be read, 2 usage. */
export async function runReads(argv: string[]): Promise<number> {
  return runGuarded(async () => {
    const { values, operand } = parseFlagsAndOperand(argv, { repo: { type: 'string' }, 'repo-path': { type: 'string', default: DEFAULT_REPO_PATH }, ...formatOption('json') }, 'TRAJ');
    const format = parseFormat(values.format, ['json', 'table']);
    if (values.repo !== undefined) await requireFolder(values.repo, '--repo');
    const { run, problems } = await loadRun(operand, { repoPath: values['repo-path'], ...(values.repo === undefined ? {} : { repoDir: values.repo }) });
    if (run !== undefined) {
      if (format === 'json') {
        let out = '';
        for (const read of run.reads.reads) out += `${readJsonLine(read)}\n`;
        process.stdout.write(out);
      } else {
        const rows = run.reads.reads.map((r) => [String(r.stepIdx), r.idiom, describeRange(r.start, r.end), describeSeen(r.seen), escapeForTerminal(r.path)]);
        process.stdout.write(
          `${escapeForTerminal(run.instanceId)} · ${escapeForTerminal(run.model)} · ${run.reader.format} · base ${escapeForTerminal(run.reads.base)} · ${values.repo === undefined ? "builder's name rules" : 'files in --repo'}\n`,
        );
        process.stdout.write(table(['step', 'idiom', 'credited', 'seen', 'path'], rows, new Set([1, 2, 3, 4])));
        process.stdout.write(`${run.reads.reads.length} read(s) kept, ${run.reads.dropped.length} dropped\n`);
      }
    }
    printProblems(problems);
    return run === undefined || hasErrors(problems) ? 1 : 0;
  });
}

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/** `swe-explore build …`. Exit 0 written, 1 written with errors (unreadable runs), 2 usage. */
export async function runBuild(argv: string[]): Promise<number> {
  return runGuarded(async () => {
    const values = parseFlags(argv, {
      trajs: TRAJECTORY_SOURCE_OPTIONS.trajs,
      repos: { type: 'string' },
      'repo-path': { type: 'string', default: DEFAULT_REPO_PATH },
      'min-trajectories': { type: 'string', default: '1' },
      output: { type: 'string', short: 'o' },
    });
    const trajs = values.trajs ?? [];
    if (trajs.length !== 1) throw new UsageError(trajs.length === 0 ? '--trajs DIR is required' : 'build takes one --trajs folder');
    if (values.output === undefined) throw new UsageError('-o OUT.jsonl is required');
    const minTrajectories = parseCount(values['min-trajectories'], '--min-trajectories');
    await requireFolder(trajs[0]!, '--trajs');
    await requireFolder(values.repos ?? 'repos', '--repos');
    const result = await buildBench({ trajsDir: trajs[0]!, repoPath: values['repo-path'], minTrajectories, ...(values.repos === undefined ? {} : { reposDir: values.repos }) });
    if (await sameFile(values.output, trajs[0]!)) throw new UsageError('-o names the --trajs folder');
    await writeFileAtomically(values.output, result.records.length === 0 ? '' : `${result.records.join('\n')}\n`);
    printProblems(result.problems);
    process.stderr.write(`wrote ${result.instances} record(s) from ${result.runs} run(s) to ${escapeForTerminal(values.output)}\n`);
    return hasErrors(result.problems) ? 1 : 0;
  });
}

/** One `provenance` line: the contract's keys in the contract's order. */
export function provenanceJsonLine(instanceId: string, result: PromotionProvenance): string {
  return jsonForTerminal({
    instance_id: instanceId,
    core_lines: result.coreLines,
    r_int_lines: result.rIntLines,
    promoted_lines: result.promotedLines,
    dropped_lines: result.droppedLines,
    promoted_regions: result.promotedRegions.map((r) => ({ path: r.path, start: r.start, end: r.end, models: r.models })),
  });
}

/** Every path a record's core, optional regions and reads name: the line counts provenance needs. */
function provenancePaths(entry: InstanceEntry): Set<string> {
  const paths = new Set<string>();
  for (const r of entry.groundTruth.coreRegions) paths.add(r.path);
  for (const regions of Object.values(entry.groundTruth.optionalRegionsByModel)) for (const r of regions) paths.add(r.path);
  for (const p of Object.keys(entry.record.read_step_info ?? {})) paths.add(p);
  return paths;
}

/** `swe-explore provenance …`. Exit 0, 1 when a bench line was rejected, 2 usage. */
export async function runProvenance(argv: string[]): Promise<number> {
  return runGuarded(async () => {
    const values = parseFlags(argv, { ...WORKSPACE_OPTIONS, ...formatOption('json') });
    const sources = workspaceSources(values);
    const format = parseFormat(values.format, ['json', 'table']);
    const model = await loadWorkspace({ ...sources, locateSnapshots: 'when-needed' });
    const problems: Problem[] = [...model.problems];
    const cache = new LineCountCache();
    const results: { instanceId: string; result: PromotionProvenance }[] = [];
    for (const entry of model.instances.values()) {
      const counts = await instanceLineCounts(model, entry, provenancePaths(entry), cache);
      for (const p of counts.problems) problems.push(p);
      const result = promotionProvenance({
        readStepInfo: entry.record.read_step_info,
        coreRegions: entry.groundTruth.coreRegions,
        optionalRegionsByModel: entry.groundTruth.optionalRegionsByModel,
        lineCounts: counts.counts,
      });
      for (const p of result.unresolvedPaths) {
        problems.push({
          file: model.benchFile ?? '',
          line: entry.benchLine,
          severity: 'warning',
          code: 'unresolvable-region',
          instanceId: entry.instanceId,
          message: `${JSON.stringify(p)} has no line count: its whole-file and tail regions are left out of the counts`,
        });
      }
      results.push({ instanceId: entry.instanceId, result });
    }
    if (format === 'json') {
      let out = '';
      for (const { instanceId, result } of results) out += `${provenanceJsonLine(instanceId, result)}\n`;
      process.stdout.write(out);
    } else {
      const rows = results.map(({ instanceId, result }) => [
        escapeForTerminal(instanceId),
        String(result.coreLines),
        String(result.rIntLines),
        String(result.promotedLines),
        String(result.droppedLines),
        String(result.promotedRegions.length),
      ]);
      process.stdout.write(table(['instance', 'core', 'R_int', 'promoted', 'dropped', 'promoted regions'], rows, new Set([0])));
      const promoted = results.filter((r) => r.result.promotedLines > 0);
      const dropped = results.filter((r) => r.result.droppedLines > 0);
      const sum = (list: typeof results, pick: (r: PromotionProvenance) => number): number => list.reduce((total, r) => total + pick(r.result), 0);
      process.stdout.write(
        `${sum(promoted, (r) => r.promotedLines)} promoted line(s) in ${promoted.length} of ${results.length} record(s); ${sum(dropped, (r) => r.droppedLines)} dropped line(s) in ${dropped.length}\n`,
      );
    }
    printProblems(problems);
    if (hasErrors(model.problems)) printError('some bench lines could not be read; they are not in the output');
    return hasErrors(model.problems) ? 1 : 0;
  });
}
