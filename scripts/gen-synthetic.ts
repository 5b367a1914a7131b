/**
 * Deterministic synthetic SWE-Explore workspaces, for the benchmark and for tests.
 *
 *   node --import tsx scripts/gen-synthetic.ts --out DIR [--instances 800] [--explorers 5]
 *        [--max-lines 20000] [--seed 1] [--worst-case]
 *
 * Writes, under DIR:
 *   bench.jsonl                       one record per instance, sorted by instance_id
 *   repos/<instance_id>/...           snapshot files: a `# synthetic <id>:<path> (<n> lines)` header
 *                                     line, then `line 2`, `line 3`, ... (cheap to write). About 5
 *                                     files an instance, mostly short, one in ten up to --max-lines,
 *                                     half the instances with an empty __init__.py (0 lines)
 *   results/<explorer>/top5.jsonl     result rows without metrics (the metric core computes them)
 *   line_counts.json                  {instance_id: {path: count}} for every snapshot file,
 *                                     counted like the official evaluator (str.splitlines)
 *   synthetic.json                    the options used; marks DIR as ours so a rerun may clear it
 *
 * Predictions mix ordinary regions with every shape the evaluator treats specially: whole-file
 * (`end: -1`), negative-start tails, inverted (`start > end`), duplicates, ends past EOF, files
 * outside the ground truth, paths missing from the snapshot, `start: 0`, `end: 0` / `-2`.
 * Rows are mostly 5 regions; about 9% have 1-4, 1% none, and 2% of (instance, explorer) pairs
 * have no row at all (the explorer "failed"). Explorers are ranked by a fixed skill per index
 * (agent > bm25 > localizer > embed > hybrid > explorer-6 ...).
 *
 * `--worst-case` writes a single instance instead: 24 files of 50,000 lines, about 300 core regions
 * (one a whole 50k-line file) and, per explorer, one row of 2,000 predictions
 * (`results/<explorer>/top2000.jsonl`), many of them whole-file.
 *
 * Everything derives from the seed: the same options always give byte-identical output, and
 * instance i (and explorer x's row for it) is the same whatever --instances / --explorers are.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface SyntheticOptions {
  /** Output folder; created if missing. An existing non-empty folder must be one we wrote. */
  readonly out: string;
  /** Number of instances (default 800; ignored with `worstCase`). */
  readonly instances?: number;
  /** Number of explorers, one `results/<explorer>/` folder each (default 5). */
  readonly explorers?: number;
  /** Largest snapshot file in lines (default 20,000; 50,000 with `worstCase`). */
  readonly maxLines?: number;
  /** PRNG seed (default 1). */
  readonly seed?: number;
  /** Write the single worst-case instance instead of the normal workspace. */
  readonly worstCase?: boolean;
}

export interface SyntheticWorkspace {
  readonly benchFile: string;
  readonly predictionFiles: string[];
  readonly reposRoot: string;
  readonly lineCountsFile: string;
}

interface Region {
  path: string;
  start: number;
  end: number;
}

interface SnapshotFile {
  readonly path: string;
  readonly lines: number;
  /** Whether the last line lacks a trailing newline (does not change the count). */
  readonly noFinalNewline: boolean;
}

interface Instance {
  readonly id: string;
  readonly index: number;
  readonly files: SnapshotFile[];
  readonly record: Record<string, unknown>;
  readonly coreRegions: Region[];
  readonly gtPaths: Set<string>;
}

const DEFAULT_INSTANCES = 800;
const DEFAULT_EXPLORERS = 5;
const DEFAULT_MAX_LINES = 20_000;
const WORST_CASE_LINES = 50_000;
const WORST_CASE_PREDICTIONS = 2_000;
const MARKER_FILE = 'synthetic.json';

const MODELS = ['anthropic/claude-sonnet-4-5', 'google/gemini-3-pro-preview', 'glm-4.6'] as const;
const TRAJ_DIRS = ['claude-sonnet-4-5', 'gemini-3-pro-preview', 'glm-4.6'] as const;
const EXPLORER_NAMES = ['agent', 'bm25', 'localizer', 'embed', 'hybrid'];
/** Per-explorer skill, fixed by index so that adding explorers never changes earlier ones. */
const EXPLORER_SKILLS = [0.9, 0.7, 0.5, 0.35, 0.2];
const ORGS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne', 'tyrell'];
const REPOS = ['ledger', 'parser', 'router', 'imaging', 'solver', 'scheduler', 'tinyhttp', 'mesh'];
const DIRS = ['core', 'io', 'utils', 'api', 'models', 'backends', 'cli', 'tests'];
const MODULES = ['base', 'config', 'engine', 'errors', 'helpers', 'handlers', 'loader', 'registry', 'schema', 'types'];

/**
 * A small seeded generator: a Weyl sequence (golden-ratio increment) passed through a
 * murmur-style 32-bit finaliser. Fast, stateless apart from one counter, and good enough
 * for test data; not for anything cryptographic.
 */
class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  u32(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.float() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Log-uniform integer in [lo, hi]: many small values, a few large ones (like file sizes). */
  logInt(lo: number, hi: number): number {
    const value = Math.floor(Math.exp(Math.log(lo) + this.float() * (Math.log(hi + 1) - Math.log(lo))));
    return Math.min(hi, Math.max(lo, value));
  }
}

/** Derives an independent sub-seed, so instance i does not depend on how many came before. */
function subSeed(seed: number, stream: number, index: number): number {
  const rng = new Rng((seed ^ Math.imul(stream + 1, 0x27d4eb2f) ^ Math.imul(index + 1, 0x165667b1)) >>> 0);
  rng.u32();
  return rng.u32();
}

/**
 * All snapshot files share one buffer: `line 2\nline 3\n...line MAX\n`. A file of n lines is
 * its own header line followed by a slice of that buffer, so nothing is formatted per file.
 */
class LineText {
  private readonly text: Buffer;
  private readonly offsets: Uint32Array;

  constructor(maxLines: number) {
    const parts: string[] = [];
    const offsets = new Uint32Array(maxLines + 2);
    let at = 0;
    for (let n = 2; n <= maxLines; n++) {
      offsets[n] = at;
      const line = `line ${n}\n`;
      parts.push(line);
      at += line.length; // ASCII, so characters == bytes
    }
    offsets[maxLines + 1] = at;
    this.text = Buffer.from(parts.join(''), 'latin1');
    this.offsets = offsets;
  }

  /** Writes a file of exactly `lines` lines (splitlines count) and returns its byte size. */
  write(fullPath: string, header: string, lines: number, noFinalNewline: boolean): number {
    const fd = openSync(fullPath, 'w');
    try {
      if (lines === 0) return 0;
      const head = Buffer.from(lines === 1 && noFinalNewline ? header : `${header}\n`, 'utf8');
      writeSync(fd, head);
      let size = head.length;
      if (lines > 1) {
        const from = this.offsets[2] ?? 0;
        let to = this.offsets[lines + 1] ?? 0;
        if (noFinalNewline) to -= 1;
        writeSync(fd, this.text, from, to - from);
        size += to - from;
      }
      return size;
    } finally {
      closeSync(fd);
    }
  }

  /** The text of line n as written by `write` (line 1 is the header). */
  static lineAt(n: number, header: string): string {
    return n === 1 ? header : `line ${n}`;
  }
}

function headerFor(instanceId: string, path: string, lines: number): string {
  return `# synthetic ${instanceId}:${path} (${lines} lines)`;
}

/** Plain code-unit order, the order Python's `sorted` gives ASCII paths. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Merges sorted-or-not closed intervals into sorted, disjoint, non-adjacent ones. */
function mergeIntervals(intervals: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Parts of [s, e] not covered by the (merged) intervals. */
function subtract(s: number, e: number, cut: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = s;
  for (const [cs, ce] of cut) {
    if (ce < from) continue;
    if (cs > e) break;
    if (cs > from) out.push([from, cs - 1]);
    from = Math.max(from, ce + 1);
  }
  if (from <= e) out.push([from, e]);
  return out;
}

function randomSpan(rng: Rng, fileLines: number, maxLen: number): [number, number] {
  const len = rng.logInt(1, Math.max(1, Math.min(maxLen, fileLines)));
  const start = rng.int(1, Math.max(1, fileLines - len + 1));
  return [start, Math.min(fileLines, start + len - 1)];
}

function hex40(rng: Rng): string {
  let out = '';
  while (out.length < 40) out += rng.u32().toString(16).padStart(8, '0');
  return out.slice(0, 40);
}

/** A one-line fix in `path` at line `at`, with three lines of context, as a git diff. */
function makePatch(instanceId: string, file: SnapshotFile, at: number): string {
  const header = headerFor(instanceId, file.path, file.lines);
  const from = Math.max(1, at - 3);
  const to = Math.min(file.lines, at + 3);
  const body: string[] = [];
  for (let n = from; n <= to; n++) {
    const text = LineText.lineAt(n, header);
    if (n === at) body.push(`-${text}`, `+${text} (fixed)`);
    else body.push(` ${text}`);
  }
  // The hunk never edits the last line, but its trailing context may reach it.
  if (to === file.lines && file.noFinalNewline) body.push('\\ No newline at end of file');
  const count = to - from + 1;
  return `diff --git a/${file.path} b/${file.path}\n--- a/${file.path}\n+++ b/${file.path}\n` + `@@ -${from},${count} +${from},${count} @@\n${body.join('\n')}\n`;
}

function makeTestPatch(testPath: string): string {
  return (
    `diff --git a/${testPath} b/${testPath}\nnew file mode 100644\n--- /dev/null\n+++ b/${testPath}\n` +
    `@@ -0,0 +1,3 @@\n+def test_fix():\n+    # regression test for the synthetic issue\n+    assert True\n`
  );
}

interface InstanceShape {
  readonly fileCount: number;
  readonly maxLines: number;
  readonly coreFiles: number;
  readonly regionsPerCoreFile: [number, number];
  readonly optionalPerModel: [number, number];
  readonly forceFirstFileLines?: number;
  readonly allFilesLines?: number;
  /** Make the first file's core a single whole-file span (1, lines). */
  readonly wholeFirstCore?: boolean;
}

function buildInstance(rng: Rng, index: number, shape: InstanceShape, idOverride?: string): Instance {
  const org = rng.pick(ORGS);
  const repoName = rng.pick(REPOS);
  const id = idOverride ?? `${org}__${repoName}-${index + 1}`;
  const pkg = repoName.replace(/-/g, '_');

  // Snapshot files: unique paths, log-uniform sizes; the first two are big enough to hold a
  // patch with context. An empty __init__.py (0 lines) appears in about half the instances.
  const files: SnapshotFile[] = [];
  const used = new Set<string>();
  while (files.length < shape.fileCount) {
    const dir = rng.pick(DIRS);
    const path = dir === 'tests' ? `tests/test_${rng.pick(MODULES)}.py` : `${pkg}/${dir}/${rng.pick(MODULES)}.py`;
    if (used.has(path)) {
      if (used.size >= DIRS.length * MODULES.length) break;
      continue;
    }
    used.add(path);
    // Most source files are short; one in ten may be as long as maxLines.
    let lines = shape.allFilesLines ?? rng.logInt(1, rng.chance(0.1) ? shape.maxLines : Math.min(shape.maxLines, 2_000));
    if (files.length < 2) lines = Math.max(lines, Math.min(20, shape.maxLines));
    if (files.length === 0 && shape.forceFirstFileLines !== undefined) lines = shape.forceFirstFileLines;
    files.push({ path, lines, noFinalNewline: rng.chance(0.15) });
  }
  if (shape.allFilesLines === undefined && rng.chance(0.5)) {
    files.push({ path: `${pkg}/__init__.py`, lines: 0, noFinalNewline: false });
  }
  const byPath = new Map(files.map((f) => [f.path, f]));
  const nonEmpty = files.filter((f) => f.lines >= 1);

  // Core: merged spans on a few files, sometimes a whole-file read (end = real line count).
  const coreCandidates = [...nonEmpty].sort((a, b) => compareText(a.path, b.path));
  const coreFileList: SnapshotFile[] = [];
  const wantCore = Math.min(shape.coreFiles, coreCandidates.length);
  const pool = [...coreCandidates];
  // Always include a file that can carry the gold patch.
  const anchor = files[0];
  if (anchor) {
    coreFileList.push(anchor);
    pool.splice(pool.indexOf(anchor), 1);
  }
  while (coreFileList.length < wantCore && pool.length > 0) {
    const i = rng.int(0, pool.length - 1);
    const [f] = pool.splice(i, 1);
    if (f) coreFileList.push(f);
  }
  coreFileList.sort((a, b) => compareText(a.path, b.path));
  const coreByPath = new Map<string, Array<[number, number]>>();
  const coreRegions: Region[] = [];
  for (const f of coreFileList) {
    let spans: Array<[number, number]>;
    if (shape.wholeFirstCore === true && f === anchor) spans = [[1, f.lines]];
    else if (f.lines <= 2_000 && rng.chance(0.15)) spans = [[1, f.lines]];
    else {
      const count = rng.int(shape.regionsPerCoreFile[0], shape.regionsPerCoreFile[1]);
      const raw: Array<[number, number]> = [];
      for (let k = 0; k < count; k++) raw.push(randomSpan(rng, f.lines, 120));
      spans = mergeIntervals(raw);
    }
    coreByPath.set(f.path, spans);
    for (const [s, e] of spans) coreRegions.push({ path: f.path, start: s, end: e });
  }
  const coreFiles = coreFileList.map((f) => f.path);
  // Real records occasionally list a core file without any core region.
  const listedCoreFiles = [...coreFiles];
  const extraCore = nonEmpty.find((f) => !coreByPath.has(f.path));
  if (extraCore && rng.chance(0.02)) listedCoreFiles.push(extraCore.path);
  listedCoreFiles.sort(compareText);

  const patchFile = anchor ?? coreFileList[0];
  const modified = new Set<string>(patchFile ? [patchFile.path] : []);
  for (const f of coreFileList) if (rng.chance(0.25)) modified.add(f.path);
  if (rng.chance(0.05) && patchFile) modified.add(`build/lib/${patchFile.path}`);
  const modifiedCoreFiles = [...modified].sort(compareText);
  const mainFiles = modifiedCoreFiles.filter((p) => coreByPath.has(p));

  // Optional regions per model: reads minus core; with tails, inverted and whole-file oddities.
  const optionalRegions: Record<string, Region[]> = {};
  const optionalFiles: Record<string, string[]> = {};
  for (const model of MODELS) {
    const regions: Region[] = [];
    const count = rng.int(shape.optionalPerModel[0], shape.optionalPerModel[1]);
    for (let k = 0; k < count && nonEmpty.length > 0; k++) {
      const f = rng.pick(nonEmpty);
      const core = coreByPath.get(f.path) ?? [];
      const roll = rng.float();
      if (roll < 0.1) {
        regions.push({ path: f.path, start: -rng.int(1, Math.min(f.lines, 200)), end: -1 });
      } else if (roll < 0.15) {
        // What bench_build leaves when a read reached past a core span that ends at EOF.
        regions.push({ path: f.path, start: f.lines + 1, end: f.lines });
      } else {
        const [s, e] = roll < 0.25 ? [1, f.lines] : randomSpan(rng, f.lines, 400);
        for (const [ps, pe] of subtract(s, e, core)) regions.push({ path: f.path, start: ps, end: pe });
      }
    }
    optionalRegions[model] = regions;
    optionalFiles[model] = [...new Set(regions.map((r) => r.path))].sort(compareText);
  }

  const gtPaths = new Set<string>(coreRegions.map((r) => r.path));
  for (const model of MODELS) for (const r of optionalRegions[model] ?? []) gtPaths.add(r.path);

  // read_step_info: the reads behind the ground truth plus reads outside it.
  const steps: Record<string, Array<{ traj_path: string; step_idx: number; start: number; end: number }>> = {};
  const addStep = (path: string, start: number, end: number): void => {
    const t = rng.int(0, MODELS.length - 1);
    const list = steps[path] ?? (steps[path] = []);
    list.push({ traj_path: `trajs/synthetic/${TRAJ_DIRS[t]}/${id}__0.json`, step_idx: rng.int(1, 60), start, end });
  };
  for (const r of coreRegions) {
    const f = byPath.get(r.path);
    addStep(r.path, r.start, f && r.end === f.lines && r.start === 1 ? -1 : r.end);
  }
  for (const model of MODELS) for (const r of optionalRegions[model] ?? []) if (rng.chance(0.5)) addStep(r.path, r.start, r.end);
  addStep('reproduce_issue.py', 1, -1);
  const orderedSteps: typeof steps = {};
  for (const key of Object.keys(steps).sort(compareText)) {
    const list = steps[key];
    if (list) orderedSteps[key] = list.sort((a, b) => compareText(a.traj_path, b.traj_path) || a.step_idx - b.step_idx);
  }

  // Gold patch: a one-line change inside the first core span of the anchor file, never on the
  // file's last line (its context may still reach an unterminated last line; makePatch marks it).
  let patch = '';
  if (patchFile && patchFile.lines >= 3) {
    const span = coreByPath.get(patchFile.path)?.[0] ?? [1, patchFile.lines];
    const at = Math.min(Math.max(span[0], 2), patchFile.lines - 1);
    patch = makePatch(id, patchFile, at);
  }
  const testPath = `tests/test_regression_${index + 1}.py`;

  const record: Record<string, unknown> = {
    instance_id: id,
    repo_path: '/testbed',
    repo_dir: `repos/${id}`,
    ground_truth: {
      read_core_files: listedCoreFiles,
      read_core_regions: coreRegions,
      read_optional_files_map: optionalFiles,
      read_optional_regions_map: optionalRegions,
      modified_core_files: modifiedCoreFiles,
      main_files: mainFiles,
    },
    read_step_info: orderedSteps,
    meta: {
      num_trajectories: 3,
      num_read_core: listedCoreFiles.length,
      num_read_core_regions: coreRegions.length,
      num_modified_core: modifiedCoreFiles.length,
      num_main: mainFiles.length,
    },
    dataset: 'synthetic',
    repo: `${org}/${repoName}`,
    base_commit: hex40(rng),
    problem_statement: `Synthetic issue ${index + 1} in ${org}/${repoName}\nSomething is wrong in \`${patchFile?.path ?? pkg}\`.\r\n\r\nSteps to reproduce: run the test suite.\r\n`,
    patch,
    test_patch: makeTestPatch(testPath),
    FAIL_TO_PASS: JSON.stringify([`${testPath}::test_fix`]),
    PASS_TO_PASS: JSON.stringify([]),
    environment_setup_commit: hex40(rng),
    version: `${rng.int(0, 3)}.${rng.int(0, 20)}`,
    difficulty: rng.pick(['<15 min fix', '15 min - 1 hour', '1-4 hours']),
  };
  return { id, index, files, record, coreRegions, gtPaths };
}

/**
 * One explorer's ranked regions for one instance. `skill` (0..1) shifts the mix from noise
 * towards spans near the core; every quirky shape still appears at every skill level.
 */
function predictRegions(rng: Rng, inst: Instance, skill: number, count: number): Region[] {
  const files = inst.files;
  const byPath = new Map(files.map((f) => [f.path, f]));
  const nonGt = files.filter((f) => !inst.gtPaths.has(f.path));
  const out: Region[] = [];
  for (let k = 0; k < count; k++) {
    const roll = rng.float();
    const core = inst.coreRegions.length > 0 ? rng.pick(inst.coreRegions) : undefined;
    const anyFile = rng.pick(files);
    if (core && roll < 0.25 + 0.35 * skill) {
      // Near a core span: jitter shrinks as skill grows.
      const f = byPath.get(core.path);
      const width = Math.max(1, Math.round((1 - skill) * 60));
      const start = Math.max(1, core.start + rng.int(-width, width));
      const end = Math.max(start, core.end + rng.int(-width, width));
      out.push({ path: core.path, start, end: f ? Math.min(end, f.lines + width) : end });
    } else if (roll < 0.7) {
      const r = rng.float();
      if (r < 0.3) out.push({ path: core && rng.chance(0.6) ? core.path : anyFile.path, start: 1, end: -1 });
      else if (r < 0.45) out.push({ path: anyFile.path, start: -rng.int(1, 300), end: -1 });
      else if (r < 0.6 && out.length > 0) out.push({ ...rng.pick(out) });
      else if (r < 0.72) {
        const s = rng.int(2, Math.max(2, anyFile.lines));
        out.push({ path: anyFile.path, start: s, end: rng.int(1, s - 1) });
      } else if (r < 0.85) {
        out.push({ path: anyFile.path, start: rng.int(1, anyFile.lines + 1), end: anyFile.lines + rng.int(1, 500) });
      } else if (nonGt.length > 0) {
        const f = rng.pick(nonGt);
        out.push(rng.chance(0.5) ? { path: f.path, start: 1, end: -1 } : { path: f.path, start: 1, end: Math.max(1, Math.min(f.lines, 80)) });
      } else {
        out.push({ path: anyFile.path, start: 1, end: -1 });
      }
    } else if (roll < 0.8) {
      const [s, e] = randomSpan(rng, Math.max(1, anyFile.lines), 200);
      out.push({ path: anyFile.path, start: s, end: e });
    } else if (roll < 0.86) {
      // A path the snapshot does not have.
      out.push(rng.chance(0.5) ? { path: `${anyFile.path.replace(/\.py$/, '')}_compat.py`, start: 1, end: -1 } : { path: 'docs/notes.md', start: 1, end: 40 });
    } else if (roll < 0.9) {
      // Values the evaluator normalises or rejects: start 0 -> 1; end 0 / -2 -> unresolvable.
      const pick = rng.int(0, 2);
      out.push({ path: anyFile.path, start: pick === 0 ? 0 : rng.int(1, 20), end: pick === 0 ? rng.int(1, 30) : pick === 1 ? 0 : -2 });
    } else {
      const [s, e] = randomSpan(rng, Math.max(1, anyFile.lines), 2_000);
      out.push({ path: anyFile.path, start: s, end: e });
    }
  }
  return out;
}

function explorerName(i: number): string {
  return EXPLORER_NAMES[i] ?? `explorer-${i + 1}`;
}

function prepareOutDir(out: string): void {
  if (existsSync(out)) {
    const entries = readdirSync(out);
    if (entries.length > 0 && !entries.includes(MARKER_FILE)) {
      throw new Error(`refusing to write into ${out}: not empty and not a synthetic workspace (no ${MARKER_FILE})`);
    }
    for (const name of ['bench.jsonl', 'repos', 'results', 'line_counts.json', MARKER_FILE]) {
      rmSync(join(out, name), { recursive: true, force: true });
    }
  }
  mkdirSync(out, { recursive: true });
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${String(value)}`);
  return v;
}

/**
 * Writes a synthetic workspace (see the file header) and returns where its parts are.
 * Deterministic: identical options give byte-identical files.
 */
export async function generateSyntheticWorkspace(options: SyntheticOptions): Promise<SyntheticWorkspace> {
  const out = resolve(options.out);
  const worst = options.worstCase === true;
  const instances = worst ? 1 : positiveInt(options.instances, DEFAULT_INSTANCES, 'instances');
  const explorers = positiveInt(options.explorers, DEFAULT_EXPLORERS, 'explorers');
  const maxLines = positiveInt(options.maxLines, worst ? WORST_CASE_LINES : DEFAULT_MAX_LINES, 'maxLines');
  const seed = (options.seed ?? 1) >>> 0;

  prepareOutDir(out);
  const reposRoot = join(out, 'repos');
  const text = new LineText(maxLines);

  const shape: InstanceShape = worst
    ? // One core span is a whole 50k-line file, the costliest case for line-set maths.
      { fileCount: 24, maxLines, coreFiles: 12, regionsPerCoreFile: [20, 30], optionalPerModel: [60, 100], allFilesLines: maxLines, wholeFirstCore: true }
    : { fileCount: 0, maxLines, coreFiles: 0, regionsPerCoreFile: [1, 3], optionalPerModel: [0, 3] };

  const built: Instance[] = [];
  const lineCounts: Record<string, Record<string, number>> = {};
  for (let i = 0; i < instances; i++) {
    const rng = new Rng(subSeed(seed, 0, i));
    const thisShape: InstanceShape = worst
      ? shape
      : {
          ...shape,
          fileCount: rng.int(3, 7),
          coreFiles: rng.int(1, 3),
          // Instance 0 always has a file of exactly maxLines lines, so the largest size occurs.
          ...(i === 0 ? { forceFirstFileLines: maxLines } : {}),
        };
    built.push(buildInstance(rng, i, thisShape, worst ? 'synthetic__worst-case-1' : undefined));
  }
  built.sort((a, b) => compareText(a.id, b.id));

  for (const inst of built) {
    const counts: Record<string, number> = {};
    const root = join(reposRoot, inst.id);
    const made = new Set<string>();
    for (const f of [...inst.files].sort((a, b) => compareText(a.path, b.path))) {
      const full = join(root, f.path);
      const dir = dirname(full);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      text.write(full, headerFor(inst.id, f.path, f.lines), f.lines, f.noFinalNewline);
      counts[f.path] = f.lines;
    }
    lineCounts[inst.id] = counts;
  }

  const benchFile = join(out, 'bench.jsonl');
  writeFileSync(benchFile, built.map((inst) => `${JSON.stringify(inst.record)}\n`).join(''));

  const predictionFiles: string[] = [];
  const k = worst ? WORST_CASE_PREDICTIONS : 5;
  for (let x = 0; x < explorers; x++) {
    const name = explorerName(x);
    const skill = EXPLORER_SKILLS[x] ?? new Rng(subSeed(seed, 1_000, x)).float();
    const rows: string[] = [];
    for (const inst of built) {
      const rng = new Rng(subSeed(seed, x + 1, inst.index));
      if (!worst && rng.chance(0.02)) continue; // the explorer failed on this instance: no row
      const roll = rng.float();
      const count = worst ? k : roll < 0.01 ? 0 : roll < 0.1 ? rng.int(1, 4) : k;
      const regions = predictRegions(rng, inst, skill, count);
      rows.push(`${JSON.stringify({ instance_id: inst.id, explorer: name, regions, num_regions: regions.length })}\n`);
    }
    const dir = join(out, 'results', name);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `top${k}.jsonl`);
    writeFileSync(file, rows.join(''));
    predictionFiles.push(file);
  }

  const lineCountsFile = join(out, 'line_counts.json');
  writeFileSync(lineCountsFile, `${JSON.stringify(lineCounts)}\n`);
  writeFileSync(join(out, MARKER_FILE), `${JSON.stringify({ generator: 'scripts/gen-synthetic.ts', instances, explorers, maxLines, seed, worstCase: worst }, null, 2)}\n`);
  return { benchFile, predictionFiles, reposRoot, lineCountsFile };
}

export interface BenchPredictionOptions {
  /** A bench whose records to predict for (e.g. one `swe-explore build` wrote). */
  readonly benchFile: string;
  /** `{instance_id: {path: count}}` of the bench's repositories: the files predictions may name. */
  readonly lineCountsFile: string;
  /** Where `results/<explorer>/top5.jsonl` go. */
  readonly out: string;
  readonly explorers: number;
  readonly seed?: number;
}

/**
 * Prediction files for an existing bench, drawn as for the synthetic workspace (same explorers,
 * skills and region shapes): what a what-if over a built bench scores. Deterministic for a seed.
 */
export function generatePredictionsForBench(options: BenchPredictionOptions): string[] {
  const seed = (options.seed ?? 1) >>> 0;
  const counts = JSON.parse(readFileSync(options.lineCountsFile, 'utf8')) as Record<string, Record<string, number>>;
  const instances: Instance[] = [];
  readFileSync(options.benchFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .forEach((line, index) => {
      const record = JSON.parse(line) as { instance_id: string; ground_truth: { read_core_regions: Region[]; read_optional_regions_map: Record<string, Region[]> } };
      const files = Object.entries(counts[record.instance_id] ?? {}).map(([path, lines]) => ({ path, lines, noFinalNewline: false }));
      const coreRegions = record.ground_truth.read_core_regions;
      const gtPaths = new Set(coreRegions.map((r) => r.path));
      for (const regions of Object.values(record.ground_truth.read_optional_regions_map)) for (const r of regions) gtPaths.add(r.path);
      if (files.length > 0) instances.push({ id: record.instance_id, index, files, record: {}, coreRegions, gtPaths });
    });
  const predictionFiles: string[] = [];
  for (let x = 0; x < options.explorers; x++) {
    const name = explorerName(x);
    const skill = EXPLORER_SKILLS[x] ?? new Rng(subSeed(seed, 1_000, x)).float();
    const rows: string[] = [];
    for (const inst of instances) {
      const rng = new Rng(subSeed(seed, x + 1, inst.index));
      if (rng.chance(0.02)) continue;
      const roll = rng.float();
      const regions = predictRegions(rng, inst, skill, roll < 0.01 ? 0 : roll < 0.1 ? rng.int(1, 4) : 5);
      rows.push(`${JSON.stringify({ instance_id: inst.id, explorer: name, regions, num_regions: regions.length })}\n`);
    }
    const dir = join(options.out, 'results', name);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'top5.jsonl');
    writeFileSync(file, rows.join(''));
    predictionFiles.push(file);
  }
  return predictionFiles;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      instances: { type: 'string' },
      explorers: { type: 'string' },
      'max-lines': { type: 'string' },
      seed: { type: 'string' },
      'worst-case': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help || !values.out) {
    process.stdout.write('usage: node --import tsx scripts/gen-synthetic.ts --out DIR [--instances 800] [--explorers 5]\n' + '       [--max-lines 20000] [--seed 1] [--worst-case]\n');
    if (!values.out && !values.help) process.exitCode = 2;
    return;
  }
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const started = performance.now();
  const ws = await generateSyntheticWorkspace({
    out: values.out,
    instances: num(values.instances),
    explorers: num(values.explorers),
    maxLines: num(values['max-lines']),
    seed: num(values.seed),
    worstCase: values['worst-case'] === true,
  });
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`wrote ${ws.benchFile}, ${ws.predictionFiles.length} prediction file(s), snapshots under ${ws.reposRoot}, ` + `${ws.lineCountsFile} in ${ms} ms\n`);
}

// Run as a script (tsx runs this file as CommonJS); imported by the bench and the integration tests, it only exports.
if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`gen-synthetic: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
