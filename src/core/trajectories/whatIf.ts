/**
 * What-if ground truth (issue 20): an instance's core rebuilt under other extraction rules or
 * another selection of its runs, next to the core as written, line by line with the reasons.
 *
 * - **Rule sets** (composable as a comma list, {@link parseWhatIfRules}): `official` (the builder's
 *   credit) or `as-seen` (each read credits the lines its `seen` says the agent saw, and a path a
 *   flag swallowed in the builder's word walk is credited as the command showed it, see
 *   {@link AS_SEEN_SWALLOWING_FLAGS}); run selection `resolved-only` (drop runs a SWE-bench report
 *   marks not resolved; runs without a report stay), `drop-model:<model>` (a run's `traj_path` model
 *   folder or its model name), `support:<k>` (a line is core when at least k of the instance's n
 *   kept runs read it, instead of all n); and `--drop-promoted`.
 * - **Partial data is explicit**: a run that is loaded is re-extracted under the rules
 *   (`rebuilt`); a run that is not contributes its recorded `read_step_info` reads unchanged
 *   (`as_recorded`: the rules cannot be applied to it). Selection applies to both (`dropped`).
 * - **The variant core** = R_int under the rules (the builder's fold over the kept runs, or the
 *   support count) ∪ the promoted regions kept (core ∖ R_int of the record as written, resolved as
 *   `provenance` resolves them), merged per file, sorted by path. R_int is first written as the
 *   builder writes regions (`-1` ends and tails take the line count), then every line set is
 *   resolved as the evaluator resolves regions; a region that needs a count the caller lacks is
 *   kept as written (`end = -1`) and its path reported in `unresolvedPaths`.
 * - **Runs keep the builder's interval rules**: tails (a negative start) never intersect, so with two
 *   or more runs they drop out of R_int under every rule, as they do for the builder; a support
 *   count counts concrete lines only.
 *
 * Under `official` with every run loaded (and verified), R_int comes back exactly: the variant
 * core is the core as written plus any line of R_int the record no longer holds (none on the
 * released records).
 */
import { intersect, lineSetSize, lineSetSubtract, normalize, type Interval, type IntervalSet, type LineSet } from '../intervals';
import type { ReadStepInfo } from '../provenance';
import { resolveRegion } from '../resolve';
import type { LineCounts, Region } from '../types';
import { fileIntervals, intersectTrajectories, MAX_LINE, type BuilderInterval } from './build';
import type { ReadIdiom, SeenRange, SwallowingFlag } from './commands';
import { promotionProvenance, rebuildRInt, resolvedRegionLines, writtenBuilderRegions } from './promotion';
import { compareCodePoints } from './python';
import type { RecordedRead } from './verify';

// ---------------------------------------------------------------------------------------------
// Rule sets

export type WhatIfExtraction = 'official' | 'as-seen';

/** A parsed rule set. */
export interface WhatIfRules {
  /** How a loaded run's reads are credited. */
  readonly extraction: WhatIfExtraction;
  /** `resolved-only`: runs a report marks not resolved are dropped. */
  readonly resolvedOnly: boolean;
  /** `drop-model:<model>`, in the order given, without repeats. */
  readonly dropModels: readonly string[];
  /** `support:<k>`; undefined: every kept run (the builder's intersection). */
  readonly support: number | undefined;
  /** `--drop-promoted`: the promoted regions are not kept. */
  readonly dropPromoted: boolean;
}

/** The builder's own rules: the variant is the core as written (plus R_int lines it lost, if any). */
export const OFFICIAL_RULES: WhatIfRules = { extraction: 'official', resolvedOnly: false, dropModels: [], support: undefined, dropPromoted: false };

/** The rule names as the CLI and the selector spell them. */
export const WHAT_IF_RULE_NAMES = ['official', 'as-seen', 'resolved-only', 'drop-model:<model>', 'support:<k>'] as const;

export type WhatIfRulesParse = { readonly ok: true; readonly rules: WhatIfRules } | { readonly ok: false; readonly message: string };

/** Largest `support:k` accepted (a typo guard; no instance has a billion runs). */
const MAX_SUPPORT = 1_000_000_000;

/**
 * Parses a comma list of rules (`as-seen,resolved-only,support:2`). `official` and `as-seen` are
 * the two extraction rules (at most one; `official` when neither is named); `drop-model:` may be
 * repeated; `support:` takes a whole number ≥ 1, once. Items are trimmed; an empty list, an empty
 * item or an unknown name is an error whose message lists the rules.
 */
export function parseWhatIfRules(text: string, dropPromoted = false): WhatIfRulesParse {
  const names = `rules are ${WHAT_IF_RULE_NAMES.join(', ')}`;
  const items = text.split(',').map((item) => item.trim());
  if (items.every((item) => item === '')) return { ok: false, message: `no rule given; ${names}` };
  let extraction: WhatIfExtraction | undefined;
  let resolvedOnly = false;
  const dropModels: string[] = [];
  let support: number | undefined;
  for (const item of items) {
    if (item === '') return { ok: false, message: `an empty rule in ${JSON.stringify(text)}; ${names}` };
    if (item === 'official' || item === 'as-seen') {
      if (extraction !== undefined && extraction !== item) return { ok: false, message: 'official and as-seen are both extraction rules; name one of them' };
      extraction = item;
    } else if (item === 'resolved-only') resolvedOnly = true;
    else if (item.startsWith('drop-model:')) {
      const model = item.slice('drop-model:'.length).trim();
      if (model === '') return { ok: false, message: 'drop-model: needs a model (a traj_path model folder or a model name)' };
      if (!dropModels.includes(model)) dropModels.push(model);
    } else if (item.startsWith('support:')) {
      const digits = item.slice('support:'.length).trim();
      const k = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
      if (!Number.isSafeInteger(k) || k < 1 || k > MAX_SUPPORT) return { ok: false, message: `support:<k> takes a whole number from 1, got ${JSON.stringify(item)}` };
      if (support !== undefined && support !== k) return { ok: false, message: `support is given twice (${support} and ${k})` };
      support = k;
    } else return { ok: false, message: `unknown rule ${JSON.stringify(item)}; ${names}` };
  }
  return { ok: true, rules: { extraction: extraction ?? 'official', resolvedOnly, dropModels, support, dropPromoted } };
}

/** The rule set as a canonical comma list (`as-seen,resolved-only,drop-model:m,support:2`), without `--drop-promoted`. */
export function whatIfRulesText(rules: WhatIfRules): string {
  const parts: string[] = [rules.extraction];
  if (rules.resolvedOnly) parts.push('resolved-only');
  for (const model of rules.dropModels) parts.push(`drop-model:${model}`);
  if (rules.support !== undefined) parts.push(`support:${rules.support}`);
  return parts.join(',');
}

/** A key naming the rule set exactly (for caches and captions): the canonical list, then ` --drop-promoted` when set. */
export function whatIfRulesKey(rules: WhatIfRules): string {
  return `${whatIfRulesText(rules)}${rules.dropPromoted ? ' --drop-promoted' : ''}`;
}

/**
 * The paths a flag swallowed in the builder's word walk that `as-seen` credits (command → flags):
 * the commands show the file there. `cat -n F`, `cat -v F`, `nl -v F`, `less -n F`, `more -n F`
 * show the whole file; `head -q F`, `head -v F`, `tail -q F` and `tail -v F` show the range
 * `head`/`tail` give (their `seen`). Other pairs (`head -n F`, `head -c F`, `sed -n F`…) take the
 * word as the flag's value: nothing of the file was shown.
 */
export const AS_SEEN_SWALLOWING_FLAGS: Readonly<Record<string, readonly SwallowingFlag[]>> = {
  cat: ['-n', '-v'],
  nl: ['-v'],
  less: ['-n'],
  more: ['-n'],
  head: ['-q', '-v'],
  tail: ['-q', '-v'],
};

/** Whether `as-seen` credits a path this flag of this command swallowed. */
export function creditsSwallowed(command: string, flag: SwallowingFlag): boolean {
  return Object.hasOwn(AS_SEEN_SWALLOWING_FLAGS, command) && AS_SEEN_SWALLOWING_FLAGS[command]!.includes(flag);
}

// ---------------------------------------------------------------------------------------------
// Inputs

export type WhatIfResolution = 'resolved' | 'not-resolved' | 'unknown';

/** A read of a loaded run as the builder keeps it (a `TrajectoryRead` fits), optionally with its command. */
export interface WhatIfRead {
  readonly path: string;
  /** The builder's credit (`start or 1` applied), `end = -1` to the end of the file. */
  readonly start: number;
  readonly end: number;
  readonly stepIdx: number;
  readonly idiom: ReadIdiom;
  readonly seen: readonly SeenRange[];
  /** The path as the command wrote it. */
  readonly rawPath: string;
  /** The command segment the read came from, when the caller kept it (explanations only). */
  readonly commandText?: string | undefined;
}

/** A path a flag swallowed that passed every filter (a `SwallowedRead` fits). */
export interface WhatIfSwallowed extends WhatIfRead {
  readonly flag: SwallowingFlag;
  /** Lower-cased first word of the segment. */
  readonly command: string;
}

/** One run of a record. */
export interface WhatIfRunInput {
  readonly trajPath: string;
  /** The run's model name when known (the loaded run's, else recovered from the record, see {@link recordedRunModels}). */
  readonly model?: string | undefined;
  /** What a SWE-bench report says about it (`unknown` without one). */
  readonly resolution: WhatIfResolution;
  /** The loaded run's reads re-extracted with the builder's rules; undefined when the run is not loaded. */
  readonly loaded?: { readonly reads: readonly WhatIfRead[]; readonly swallowed: readonly WhatIfSwallowed[] } | undefined;
}

export interface WhatIfInput {
  readonly readStepInfo: ReadStepInfo | null | undefined;
  /** The core as written. */
  readonly coreRegions: readonly Region[];
  /** Per `traj_path` of `read_step_info`; a `traj_path` without an entry is not loaded, resolution unknown. */
  readonly runs: ReadonlyMap<string, WhatIfRunInput>;
  readonly rules: WhatIfRules;
  /** Counts for `-1` ends and tails (of the core, the reads and the runs' seen lines). */
  readonly lineCounts: LineCounts;
}

// ---------------------------------------------------------------------------------------------
// The record's runs

/** The record's runs: `traj_path`s in order of first appearance, each with its entries (paths in the record's order). */
export function recordedRuns(readStepInfo: ReadStepInfo | null | undefined): Map<string, RecordedRead[]> {
  const out = new Map<string, RecordedRead[]>();
  if (readStepInfo === null || readStepInfo === undefined) return out;
  for (const path of Object.keys(readStepInfo)) {
    const steps = readStepInfo[path];
    if (!Array.isArray(steps)) continue;
    for (const step of steps) {
      let list = out.get(step.traj_path);
      if (list === undefined) out.set(step.traj_path, (list = []));
      list.push({ path, start: step.start, end: step.end, stepIdx: step.step_idx });
    }
  }
  return out;
}

/** The folder that holds a `traj_path`'s file (`…/gemini-3-pro/x__0.json` → `gemini-3-pro`), if any. */
export function trajPathModelFolder(trajPath: string): string | undefined {
  const parts = trajPath.split(/[\\/]/).filter((s) => s !== '');
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}

/**
 * The model of each run of a record, recovered from the record alone: the builder writes each
 * path's entries in trajectory order and the optional maps' keys in order of the models' first
 * runs, so when every run has its own model (as many keys as runs) and the entries fix one
 * trajectory order, the i-th run is the i-th key's. Empty when that cannot be told.
 */
export function recordedRunModels(readStepInfo: ReadStepInfo | null | undefined, optionalModels: readonly string[]): Map<string, string> {
  const runs = [...recordedRuns(readStepInfo).keys()];
  const out = new Map<string, string>();
  if (runs.length === 0 || runs.length !== optionalModels.length) return out;
  const after = new Map<string, Set<string>>(runs.map((r) => [r, new Set<string>()]));
  const incoming = new Map<string, number>(runs.map((r) => [r, 0]));
  for (const path of Object.keys(readStepInfo ?? {})) {
    const steps = readStepInfo![path];
    if (!Array.isArray(steps)) continue;
    for (let i = 1; i < steps.length; i++) {
      const a = steps[i - 1]!.traj_path;
      const b = steps[i]!.traj_path;
      if (a === b || after.get(a)!.has(b)) continue;
      after.get(a)!.add(b);
      incoming.set(b, incoming.get(b)! + 1);
    }
  }
  // Kahn's order; recovered only when it is the one order the entries allow.
  const order: string[] = [];
  let ready = runs.filter((r) => incoming.get(r) === 0);
  while (ready.length === 1) {
    const run = ready[0]!;
    order.push(run);
    ready = [];
    for (const next of after.get(run)!) {
      incoming.set(next, incoming.get(next)! - 1);
      if (incoming.get(next) === 0) ready.push(next);
    }
  }
  if (order.length !== runs.length) return out;
  order.forEach((run, i) => out.set(run, optionalModels[i]!));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The variant

export type WhatIfRunStatus = 'rebuilt' | 'as_recorded' | 'dropped';

export type WhatIfDropReason = 'drop-model' | 'not-resolved';

export interface WhatIfRunOutcome {
  readonly trajPath: string;
  readonly model: string | undefined;
  /** How people name the run: its `traj_path` model folder, else its model, else the `traj_path`. */
  readonly label: string;
  readonly resolution: WhatIfResolution;
  readonly status: WhatIfRunStatus;
  readonly dropReason: WhatIfDropReason | undefined;
}

export interface WhatIfVariant {
  readonly rules: WhatIfRules;
  /** Every run of the record, in order of first appearance in `read_step_info`. */
  readonly runs: readonly WhatIfRunOutcome[];
  readonly runCounts: { readonly rebuilt: number; readonly asRecorded: number; readonly dropped: number };
  /** The variant core as a record holds it: merged per file, sorted by path (then unresolvable regions of the path). */
  readonly coreRegions: readonly Region[];
  /** Its files, sorted. */
  readonly coreFiles: readonly string[];
  /** Resolved core lines as written. */
  readonly before: LineSet;
  /** Resolved lines of the variant core. */
  readonly after: LineSet;
  /** after ∖ before. */
  readonly joined: LineSet;
  /** before ∖ after. */
  readonly left: LineSet;
  readonly coreLinesBefore: number;
  readonly coreLinesAfter: number;
  readonly joinedLines: number;
  readonly leftLines: number;
  /** Core ∖ R_int of the record as written (kept in the variant unless `dropPromoted`). */
  readonly promoted: LineSet;
  /** R_int under the rules, resolved. */
  readonly rInt: LineSet;
  /** Core lines as written that a loaded run credits under the builder's rules and no loaded run saw. */
  readonly unseen: LineSet;
  readonly unseenLines: number;
  /** Paths with a region or read that needed a line count that was not given. */
  readonly unresolvedPaths: readonly string[];
}

/** `toBuilderInterval` for a seen range (`[s, -1]` to the end of the file, a negative start = a tail). */
function seenReads(path: string, seen: readonly SeenRange[], out: { path: string; start: number; end: number }[]): void {
  for (const [start, end] of seen) out.push({ path, start, end });
}

type LoadedRun = NonNullable<WhatIfRunInput['loaded']>;

/**
 * A run's credit per extraction rule, computed once per loaded run: a caller that keeps its runs
 * (switching rule sets in an editor) pays the per-read work once. The maps are never mutated.
 */
const creditMemo = new WeakMap<LoadedRun, Partial<Record<WhatIfExtraction, Map<string, BuilderInterval[]>>>>();

/** The lines a loaded run is credited with under an extraction rule, per file in the builder's form. */
function loadedCredit(loaded: LoadedRun, extraction: WhatIfExtraction): Map<string, BuilderInterval[]> {
  let memo = creditMemo.get(loaded);
  if (memo === undefined) creditMemo.set(loaded, (memo = {}));
  const known = memo[extraction];
  if (known !== undefined) return known;
  let credit: Map<string, BuilderInterval[]>;
  if (extraction === 'official') credit = fileIntervals(loaded.reads);
  else {
    const reads: { path: string; start: number; end: number }[] = [];
    for (const read of loaded.reads) seenReads(read.path, read.seen, reads);
    for (const s of loaded.swallowed) if (creditsSwallowed(s.command, s.flag)) seenReads(s.path, s.seen, reads);
    credit = fileIntervals(reads);
  }
  memo[extraction] = credit;
  return credit;
}

/** The lines a loaded run saw: every kept read's `seen` and the swallowed paths `as-seen` credits. */
function loadedSeen(loaded: LoadedRun): Map<string, BuilderInterval[]> {
  return loadedCredit(loaded, 'as-seen');
}

/** The unseen lines depend on the runs, the core and the counts, not on the rules: computed once per input. */
const unseenMemo = new WeakMap<ReadonlyMap<string, WhatIfRunInput>, { readonly core: readonly Region[]; readonly lineCounts: LineCounts; readonly unseen: LineSet }>();

/** Core lines as written that loaded runs credit under the builder's rules and none of them saw. */
function unseenLines(input: WhatIfInput, before: LineSet): LineSet {
  const known = unseenMemo.get(input.runs);
  if (known !== undefined && known.core === input.coreRegions && known.lineCounts === input.lineCounts) return known.unseen;
  const credited: LineSet[] = [];
  const seen: LineSet[] = [];
  for (const run of input.runs.values()) {
    if (run.loaded === undefined) continue;
    // Reads of files the core does not hold may lack a count; they cannot touch the core, so they are not reported.
    credited.push(resolvedBuilderLines(loadedCredit(run.loaded, 'official'), input.lineCounts, new Set()));
    seen.push(resolvedBuilderLines(loadedSeen(run.loaded), input.lineCounts, new Set()));
  }
  const unseen = lineSetSubtract(lineSetIntersect(before, lineSetUnionOf(credited)), lineSetUnionOf(seen));
  unseenMemo.set(input.runs, { core: input.coreRegions, lineCounts: input.lineCounts, unseen });
  return unseen;
}

/** Lines at least `k` of the runs read (concrete lines; tails never count), in the builder's form. */
function supportedLines(perRun: readonly ReadonlyMap<string, readonly BuilderInterval[]>[], k: number): Map<string, BuilderInterval[]> {
  const n = perRun.length;
  if (k === n) return intersectTrajectories(perRun);
  const out = new Map<string, BuilderInterval[]>();
  if (k > n) return out;
  const events = new Map<string, [position: number, delta: number][]>();
  for (const files of perRun) {
    for (const [path, list] of files) {
      let pathEvents = events.get(path);
      if (pathEvents === undefined) events.set(path, (pathEvents = []));
      for (const [s, e] of list) {
        if (s < 0 || e < 0) continue;
        pathEvents.push([s, 1], [e + 1, -1]);
      }
    }
  }
  for (const [path, pathEvents] of events) {
    pathEvents.sort((a, b) => a[0] - b[0]);
    const intervals: [number, number][] = [];
    let count = 0;
    for (let i = 0; i < pathEvents.length;) {
      const position = pathEvents[i]![0];
      while (i < pathEvents.length && pathEvents[i]![0] === position) count += pathEvents[i++]![1];
      const next = i < pathEvents.length ? pathEvents[i]![0] : position;
      if (count < k || next <= position) continue;
      const last = intervals[intervals.length - 1];
      if (last !== undefined && last[1] + 1 >= position) last[1] = next - 1;
      else intervals.push([position, next - 1]);
    }
    if (intervals.length > 0) out.set(path, intervals);
  }
  return out;
}

/** Resolved lines of builder-form intervals (written as the builder writes them, then resolved). */
function resolvedBuilderLines(files: ReadonlyMap<string, readonly BuilderInterval[]>, lineCounts: LineCounts, unresolved: Set<string>): Map<string, IntervalSet> {
  return resolvedRegionLines(writtenBuilderRegions(files, lineCounts), lineCounts, unresolved);
}

function lineSetIntersect(a: LineSet, b: LineSet): Map<string, IntervalSet> {
  const out = new Map<string, IntervalSet>();
  for (const [path, set] of a) {
    const both = intersect(set, b.get(path) ?? []);
    if (both.length > 0) out.set(path, both);
  }
  return out;
}

function lineSetUnionOf(sets: readonly LineSet[]): Map<string, IntervalSet> {
  const byPath = new Map<string, Interval[]>();
  for (const set of sets) {
    for (const [path, intervals] of set) {
      let list = byPath.get(path);
      if (list === undefined) byPath.set(path, (list = []));
      for (const interval of intervals) list.push(interval);
    }
  }
  const out = new Map<string, IntervalSet>();
  for (const [path, list] of byPath) {
    const merged = normalize(list);
    if (merged.length > 0) out.set(path, merged);
  }
  return out;
}

/** How people name a run (see {@link WhatIfRunOutcome.label}). */
export function runLabel(trajPath: string, model: string | undefined): string {
  return trajPathModelFolder(trajPath) ?? (model !== undefined && model !== '' ? model : trajPath);
}

/** Which runs the rules keep, in the record's order. */
function runOutcomes(input: WhatIfInput, recorded: ReadonlyMap<string, readonly RecordedRead[]>): WhatIfRunOutcome[] {
  const { rules } = input;
  return [...recorded.keys()].map((trajPath) => {
    const run = input.runs.get(trajPath);
    const model = run?.model;
    const resolution = run?.resolution ?? 'unknown';
    const folder = trajPathModelFolder(trajPath);
    let dropReason: WhatIfDropReason | undefined;
    if (rules.dropModels.some((m) => m === folder || (model !== undefined && m === model))) dropReason = 'drop-model';
    else if (rules.resolvedOnly && resolution === 'not-resolved') dropReason = 'not-resolved';
    const status: WhatIfRunStatus = dropReason !== undefined ? 'dropped' : run?.loaded !== undefined ? 'rebuilt' : 'as_recorded';
    return { trajPath, model, label: runLabel(trajPath, model), resolution, status, dropReason };
  });
}

/** What a record says as written, whatever the rules: its runs' recorded reads, its core's lines, the promoted lines. */
interface AsWritten {
  readonly recorded: ReadonlyMap<string, readonly RecordedRead[]>;
  /** Each recorded run's reads per file in the builder's form. */
  readonly recordedCredit: ReadonlyMap<string, ReadonlyMap<string, readonly BuilderInterval[]>>;
  readonly before: LineSet;
  readonly promoted: LineSet;
  readonly unresolvedAsWritten: readonly string[];
}

/** Computed once per record (core regions, reads and counts): switching rule sets reuses it. */
const asWrittenMemo = new WeakMap<readonly Region[], { readonly readStepInfo: WhatIfInput['readStepInfo']; readonly lineCounts: LineCounts; readonly value: AsWritten }>();

function asWritten(input: WhatIfInput): AsWritten {
  const known = asWrittenMemo.get(input.coreRegions);
  if (known !== undefined && known.readStepInfo === input.readStepInfo && known.lineCounts === input.lineCounts) return known.value;
  const unresolved = new Set<string>();
  const recorded = recordedRuns(input.readStepInfo);
  const recordedCredit = new Map<string, Map<string, BuilderInterval[]>>();
  for (const [trajPath, reads] of recorded) recordedCredit.set(trajPath, fileIntervals(reads));
  const before = resolvedRegionLines(input.coreRegions, input.lineCounts, unresolved);
  const provenance = promotionProvenance({ readStepInfo: input.readStepInfo, coreRegions: input.coreRegions, optionalRegionsByModel: {}, lineCounts: input.lineCounts });
  const promoted = new Map<string, Interval[]>();
  for (const r of provenance.promotedRegions) {
    let list = promoted.get(r.path);
    if (list === undefined) promoted.set(r.path, (list = []));
    list.push([r.start, r.end]);
  }
  for (const p of provenance.unresolvedPaths) unresolved.add(p);
  const value: AsWritten = { recorded, recordedCredit, before, promoted, unresolvedAsWritten: [...unresolved] };
  asWrittenMemo.set(input.coreRegions, { readStepInfo: input.readStepInfo, lineCounts: input.lineCounts, value });
  return value;
}

/** The variant core of one instance under the rules (see the module comment). */
export function whatIfVariant(input: WhatIfInput): WhatIfVariant {
  const { rules, lineCounts } = input;
  const { recorded, recordedCredit, before, promoted, unresolvedAsWritten } = asWritten(input);
  const runs = runOutcomes(input, recorded);
  const unresolved = new Set<string>(unresolvedAsWritten);

  const perRun: ReadonlyMap<string, readonly BuilderInterval[]>[] = [];
  for (const outcome of runs) {
    if (outcome.status === 'dropped') continue;
    const loaded = input.runs.get(outcome.trajPath)?.loaded;
    perRun.push(loaded === undefined ? recordedCredit.get(outcome.trajPath)! : loadedCredit(loaded, rules.extraction));
  }
  const rIntFiles = supportedLines(perRun, rules.support ?? perRun.length);

  // R_int written as the builder writes it; what cannot be resolved stays as written.
  const rIntLines = new Map<string, IntervalSet>();
  const unresolvable = new Map<string, Region[]>();
  {
    const byPath = new Map<string, Interval[]>();
    for (const region of writtenBuilderRegions(rIntFiles, lineCounts)) {
      const resolution = resolveRegion(region, lineCounts.get(region.path));
      if (resolution.kind !== 'resolved') {
        unresolved.add(region.path);
        let list = unresolvable.get(region.path);
        if (list === undefined) unresolvable.set(region.path, (list = []));
        list.push(region);
        continue;
      }
      let list = byPath.get(region.path);
      if (list === undefined) byPath.set(region.path, (list = []));
      if (resolution.start <= resolution.end) list.push([resolution.start, resolution.end]);
    }
    for (const [path, list] of byPath) {
      const set = normalize(list);
      if (set.length > 0) rIntLines.set(path, set);
    }
  }
  const after = lineSetUnionOf(rules.dropPromoted ? [rIntLines] : [rIntLines, promoted]);

  const coreRegions: Region[] = [];
  const paths = [...new Set([...after.keys(), ...unresolvable.keys()])].sort(compareCodePoints);
  for (const path of paths) {
    for (const [start, end] of after.get(path) ?? []) coreRegions.push({ path, start, end });
    for (const region of unresolvable.get(path) ?? []) coreRegions.push(region);
  }

  const unseen = unseenLines(input, before);

  const joined = lineSetSubtract(after, before);
  const left = lineSetSubtract(before, after);
  const count = (status: WhatIfRunStatus): number => runs.filter((r) => r.status === status).length;
  return {
    rules,
    runs,
    runCounts: { rebuilt: count('rebuilt'), asRecorded: count('as_recorded'), dropped: count('dropped') },
    coreRegions,
    coreFiles: paths,
    before,
    after,
    joined,
    left,
    coreLinesBefore: lineSetSize(before),
    coreLinesAfter: lineSetSize(after),
    joinedLines: lineSetSize(joined),
    leftLines: lineSetSize(left),
    promoted,
    rInt: rIntLines,
    unseen,
    unseenLines: lineSetSize(unseen),
    unresolvedPaths: [...unresolved].sort(compareCodePoints),
  };
}

/** R_int of the record as written (resolved): what `official` gives back with every run loaded. */
export function recordedRInt(readStepInfo: ReadStepInfo | null | undefined, lineCounts: LineCounts): Map<string, IntervalSet> {
  return resolvedBuilderLines(rebuildRInt(readStepInfo), lineCounts, new Set());
}

// ---------------------------------------------------------------------------------------------
// Why a line joins or leaves

/** A read that credits a line. */
export interface WhatIfCredit {
  readonly stepIdx: number;
  /** Undefined for a recorded read (only its range is known). */
  readonly idiom: ReadIdiom | undefined;
  /** The builder's credit. */
  readonly start: number;
  readonly end: number;
  /** What the agent saw (undefined for a recorded read). */
  readonly seen: readonly SeenRange[] | undefined;
  /** The command segment, when kept (plain text from the run: hostile, escape it where shown). */
  readonly command: string | undefined;
  /** The path as the command wrote it (undefined for a recorded read). */
  readonly rawPath: string | undefined;
  /** Set for a path the builder's word walk skipped after this flag (`as-seen` credits it). */
  readonly swallowedBy: SwallowingFlag | undefined;
}

export interface WhatIfRunOnLine extends WhatIfRunOutcome {
  /** Reads whose builder credit covers the line (the loaded run's re-extracted reads, else the record's). */
  readonly creditedAsWritten: readonly WhatIfCredit[];
  /** Reads whose credit under the rules covers the line (none for a dropped run). */
  readonly creditedUnderRules: readonly WhatIfCredit[];
  /** Whether the run saw the line; undefined when it is not loaded. */
  readonly saw: boolean | undefined;
}

export type WhatIfLineChange = 'joined' | 'left' | 'kept' | 'outside';

export interface WhatIfLineReason {
  readonly path: string;
  readonly line: number;
  readonly change: WhatIfLineChange;
  /** In core ∖ R_int as written. */
  readonly promoted: boolean;
  /** In R_int as written but not in the core as written (taken out after the build). */
  readonly droppedAsWritten: boolean;
  /** Kept runs whose credit under the rules holds the line, of how many, and how many the core needs. */
  readonly support: { readonly runs: number; readonly of: number; readonly needed: number };
  /** Whether a loaded run saw it: `unknown` when no run is loaded. */
  readonly seen: 'yes' | 'no' | 'unknown';
  /**
   * The file's line count when the line lies past it: explicit ranges past the end of a file are
   * not clipped (the builder's and the evaluator's rule), while whole-file credit ends at the count.
   */
  readonly pastEndOfFile: number | undefined;
  readonly runs: readonly WhatIfRunOnLine[];
}

function containsLine(set: IntervalSet | undefined, line: number): boolean {
  if (set === undefined) return false;
  let lo = 0;
  let hi = set.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = set[mid]!;
    if (line < s) hi = mid - 1;
    else if (line > e) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Whether a builder credit `(start, end)` covers the line, in the builder's arithmetic: `end = -1`
 * reaches every line (so a line past the end of the file is covered until the count is applied
 * when regions are written, see {@link WhatIfLineReason.pastEndOfFile}); a tail (negative start)
 * covers the last lines, which needs the count.
 */
function creditCovers(start: number, end: number, line: number, count: number | undefined): boolean {
  if (start < 0) {
    const resolution = resolveRegion({ path: '', start, end: end === MAX_LINE ? -1 : end }, count);
    return resolution.kind === 'resolved' && resolution.start <= line && line <= resolution.end;
  }
  const s = Math.max(1, start);
  return s <= line && (end === -1 || line <= Math.max(s, end));
}

function seenCovers(seen: readonly SeenRange[], line: number, count: number | undefined): boolean {
  return seen.some(([s, e]) => creditCovers(s, e, line, count));
}

function creditOf(read: WhatIfRead, swallowedBy: SwallowingFlag | undefined): WhatIfCredit {
  return { stepIdx: read.stepIdx, idiom: read.idiom, start: read.start, end: read.end, seen: read.seen, command: read.commandText, rawPath: read.rawPath, swallowedBy };
}

/** Why one line of a file is (or is not) in the variant core: which runs credit it, as written and under the rules, and who saw it. */
export function explainWhatIfLine(input: WhatIfInput, variant: WhatIfVariant, path: string, line: number): WhatIfLineReason {
  const count = input.lineCounts.get(path);
  const recorded = recordedRuns(input.readStepInfo);
  const inBefore = containsLine(variant.before.get(path), line);
  const inAfter = containsLine(variant.after.get(path), line);
  const runs: WhatIfRunOnLine[] = variant.runs.map((outcome) => {
    const loaded = input.runs.get(outcome.trajPath)?.loaded;
    let creditedAsWritten: WhatIfCredit[];
    let creditedUnderRules: WhatIfCredit[];
    let saw: boolean | undefined;
    if (loaded === undefined) {
      creditedAsWritten = (recorded.get(outcome.trajPath) ?? [])
        .filter((r) => r.path === path && creditCovers(r.start, r.end, line, count))
        .map((r) => ({ stepIdx: r.stepIdx, idiom: undefined, start: r.start, end: r.end, seen: undefined, command: undefined, rawPath: undefined, swallowedBy: undefined }));
      creditedUnderRules = creditedAsWritten;
    } else {
      const reads = loaded.reads.filter((r) => r.path === path);
      const swallowed = loaded.swallowed.filter((s) => s.path === path && creditsSwallowed(s.command, s.flag) && seenCovers(s.seen, line, count));
      creditedAsWritten = reads.filter((r) => creditCovers(r.start, r.end, line, count)).map((r) => creditOf(r, undefined));
      const seenReads = reads.filter((r) => seenCovers(r.seen, line, count)).map((r) => creditOf(r, undefined));
      for (const s of swallowed) seenReads.push(creditOf(s, s.flag));
      creditedUnderRules = input.rules.extraction === 'official' ? creditedAsWritten : seenReads;
      saw = seenReads.length > 0;
    }
    if (outcome.status === 'dropped') creditedUnderRules = [];
    return { ...outcome, creditedAsWritten, creditedUnderRules, saw };
  });
  const kept = runs.filter((r) => r.status !== 'dropped');
  // A run supports the line when its credit under the rules holds it as a concrete line (tails never
  // intersect), or holds it at all when it is the only run (the builder's fold keeps a lone run's tails).
  const supporting = kept.filter((r) => {
    if (kept.length === 1) return r.creditedUnderRules.length > 0;
    const loaded = input.runs.get(r.trajPath)?.loaded;
    const files = loaded === undefined ? fileIntervals(recorded.get(r.trajPath) ?? []) : loadedCredit(loaded, input.rules.extraction);
    return (files.get(path) ?? []).some(([s, e]) => s >= 0 && e >= 0 && s <= line && line <= e);
  }).length;
  const loadedRuns = runs.filter((r) => r.saw !== undefined);
  const rIntAsWritten = recordedRInt(input.readStepInfo, input.lineCounts);
  return {
    path,
    line,
    change: inBefore && inAfter ? 'kept' : inAfter ? 'joined' : inBefore ? 'left' : 'outside',
    promoted: containsLine(variant.promoted.get(path), line),
    droppedAsWritten: !inBefore && containsLine(rIntAsWritten.get(path), line),
    support: { runs: supporting, of: kept.length, needed: input.rules.support ?? kept.length },
    seen: loadedRuns.length === 0 ? 'unknown' : loadedRuns.some((r) => r.saw === true) ? 'yes' : 'no',
    pastEndOfFile: count !== undefined && line > count ? count : undefined,
    runs,
  };
}

// ---------------------------------------------------------------------------------------------
// The sentence a hover shows

const MAX_COMMAND_CHARACTERS = 60;

/** A command for a sentence: its first line, the read's path taken out, shortened. */
export function commandForSentence(command: string, rawPath: string | undefined): string {
  const firstLine = command.split('\n')[0]!;
  const words = firstLine.split(/\s+/).filter((w) => w !== '' && (rawPath === undefined || w.replace(/^['"]+|['"]+$/g, '') !== rawPath));
  const text = words.join(' ');
  return text.length > MAX_COMMAND_CHARACTERS ? `${text.slice(0, MAX_COMMAND_CHARACTERS - 1)}…` : text;
}

function creditText(credit: WhatIfCredit): string {
  if (credit.start === 1 && credit.end === -1) return 'the whole file';
  if (credit.start < 0) return `the last ${-credit.start} lines`;
  return credit.start === credit.end ? `line ${credit.start}` : `lines ${credit.start}–${credit.end === -1 ? 'EOF' : credit.end}`;
}

function readText(run: WhatIfRunOnLine, credit: WhatIfCredit): string {
  const how = credit.command !== undefined ? `\`${commandForSentence(credit.command, credit.rawPath)}\`` : credit.idiom !== undefined ? `${credit.idiom} read` : 'recorded read';
  return `${run.label}'s ${how} at step ${credit.stepIdx}`;
}

function seenText(reason: WhatIfLineReason): string {
  if (reason.seen === 'no') return 'no run saw it';
  if (reason.seen === 'unknown') return 'no run is loaded to say whether it was seen';
  const who = reason.runs.filter((r) => r.saw === true).map((r) => r.label);
  return `${who.join(', ')} saw it`;
}

const DROP_TEXT: Readonly<Record<WhatIfDropReason, string>> = { 'drop-model': 'dropped by drop-model', 'not-resolved': 'dropped: its report says not resolved' };

/**
 * One plain-text sentence for a hover: why the line joins or leaves the core under the rules
 * (`credited by gemini-3-pro's \`nl -ba | sed -n '120,180p'\` at step 9 as the whole file; no run
 * saw it`). Command text comes from the run: the caller escapes it for its surface.
 */
export function describeWhatIfLine(reason: WhatIfLineReason, rules: WhatIfRules): string {
  const text = describeChange(reason, rules);
  return reason.pastEndOfFile === undefined || (reason.change !== 'joined' && reason.change !== 'left')
    ? text
    : `line ${reason.line} lies past the end of the file (${reason.pastEndOfFile} lines), where whole-file credit does not reach; ${text}`;
}

function describeChange(reason: WhatIfLineReason, rules: WhatIfRules): string {
  const { support } = reason;
  const supportText = `read by ${support.runs} of ${support.of} kept run${support.of === 1 ? '' : 's'}; the core needs ${support.needed}`;
  if (reason.change === 'left') {
    if (reason.promoted && rules.dropPromoted) return 'a promoted line (added to the core after the build, not read by every run); --drop-promoted leaves it out';
    const lost = reason.runs.find((r) => r.status !== 'dropped' && r.creditedAsWritten.length > 0 && r.creditedUnderRules.length === 0);
    if (lost !== undefined) {
      const credit = lost.creditedAsWritten[0]!;
      return `credited by ${readText(lost, credit)} as ${creditText(credit)}; ${seenText(reason)}`;
    }
    const dropped = reason.runs.filter((r) => r.status === 'dropped' && r.creditedAsWritten.length > 0);
    const droppedText = dropped.length > 0 ? `; ${dropped.map((r) => `${r.label} ${DROP_TEXT[r.dropReason!]}`).join(', ')}` : '';
    return `${supportText}${droppedText}`;
  }
  if (reason.change === 'joined') {
    if (reason.droppedAsWritten) return 'every run read it (R_int of the record as written), but the core as written left it out';
    const swallowed = reason.runs.find((r) => r.status !== 'dropped' && r.creditedAsWritten.length === 0 && r.creditedUnderRules.some((c) => c.swallowedBy !== undefined));
    if (swallowed !== undefined) {
      const credit = swallowed.creditedUnderRules.find((c) => c.swallowedBy !== undefined)!;
      return `credited by ${readText(swallowed, credit)}, which showed it; the builder skipped the path after ${credit.swallowedBy!}`;
    }
    const dropped = reason.runs.filter((r) => r.status === 'dropped' && r.creditedAsWritten.length === 0);
    if (dropped.length > 0) return `${dropped.map((r) => `${r.label}, which did not read it, is ${DROP_TEXT[r.dropReason!]}`).join('; ')}`;
    return supportText;
  }
  return reason.change === 'kept' ? `in the core as written and under ${whatIfRulesText(rules)}` : `not in the core as written nor under ${whatIfRulesText(rules)}`;
}
