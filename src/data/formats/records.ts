/**
 * The zod-free half of the data layer's record handling: converting validated records for the
 * metric core, the fast structural checks that accept well-formed lines without zod, and message
 * helpers. Kept apart from `schemas.ts` so that reading a well-formed file never loads zod (whose
 * start-up cost dominated a CLI run); zod is loaded on the first line the fast checks reject.
 */
import type { GroundTruth, Region } from '../../core/types';
import type { BenchRecord, PredictionRow, RegionRecord } from './schemas';
import { defineEntry } from './values';
import { isRecord } from '../../shared/guards';

// Re-exported: callers have always found it here.
export { describeValue } from './values';

function toRegion(r: RegionRecord): Region {
  // Extra keys stay in the record (and in the raw line); the core sees exactly the triple.
  return { path: r.path, start: r.start, end: r.end };
}

/** Plain triples of a validated region list, in order, duplicates kept. */
export function toRegions(regions: readonly RegionRecord[]): Region[] {
  return regions.map(toRegion);
}

/**
 * Maps a validated bench record to the metric core's {@link GroundTruth}: same order, duplicates
 * kept (the evaluator counts duplicate regions), nothing repaired.
 */
export function toGroundTruth(record: Pick<BenchRecord, 'ground_truth'>): GroundTruth {
  const gt = record.ground_truth;
  // Null-prototype maps: model names come from data, so a model called "constructor" must not
  // collide with Object.prototype members.
  const optionalFilesByModel: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
  // `defineEntry`, not assignment: a model may be called `__proto__`.
  for (const [model, paths] of Object.entries(gt.read_optional_files_map)) defineEntry(optionalFilesByModel, model, [...paths]);
  const optionalRegionsByModel: Record<string, readonly Region[]> = Object.create(null) as Record<string, readonly Region[]>;
  for (const [model, regions] of Object.entries(gt.read_optional_regions_map)) {
    defineEntry(optionalRegionsByModel, model, toRegions(regions));
  }
  return {
    coreFiles: [...gt.read_core_files],
    coreRegions: toRegions(gt.read_core_regions),
    optionalFilesByModel,
    optionalRegionsByModel,
    mainFiles: [...gt.main_files],
    modifiedCoreFiles: [...gt.modified_core_files],
  };
}

/** One zod issue as `a.b[2].c: message` (the path style used in every schema problem). */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else {
      const name = String(key);
      // Keys that are not identifiers (file paths as map keys, model names with '/') get quoted.
      out += /^[A-Za-z_$][\w$]*$/.test(name) ? (out === '' ? name : `.${name}`) : `[${JSON.stringify(name)}]`;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fast paths. Validating 100k result rows (or a bench file with thousands of read steps per
// record) through zod costs seconds; these hand-written checks accept the common, well-formed
// shape and return exactly what zod would, and return `undefined` for anything else so that zod
// decides (and words the error). Unit tests check that both agree on every input the fast path
// accepts.

/**
 * An object with a declared shape (record, region, read step). zod's object schemas drop an own
 * `__proto__` member, so such objects are left to zod to keep both paths' output identical; maps
 * keyed by data (model names, metric names) accept the key, and zod's side keeps it too.
 */
function isShaped(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && !Object.hasOwn(v, '__proto__');
}

function isInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v);
}

function isRegion(v: unknown): boolean {
  return isShaped(v) && typeof v['path'] === 'string' && isInt(v['start']) && isInt(v['end']);
}

function isArrayOf(v: unknown, item: (x: unknown) => boolean): v is unknown[] {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!item(x)) return false;
  return true;
}

function isString(v: unknown): boolean {
  return typeof v === 'string';
}

function isMapOf(v: unknown, item: (x: unknown) => boolean): boolean {
  if (!isRecord(v)) return false;
  for (const key in v) if (!isArrayOf(v[key], item)) return false;
  return true;
}

function isReadStep(v: unknown): boolean {
  return isShaped(v) && typeof v['traj_path'] === 'string' && isInt(v['step_idx']) && isInt(v['start']) && isInt(v['end']);
}

function isOptionalText(v: unknown): boolean {
  return v === undefined || v === null || typeof v === 'string';
}

/**
 * {@link BenchRecordSchema} for well-formed records, without zod. Mutates `value` (a fresh
 * `JSON.parse` result owned by the caller) to fill in defaults; `undefined` means "ask zod".
 */
export function fastParseBenchRecord(value: unknown): BenchRecord | undefined {
  if (!isShaped(value)) return undefined;
  if (typeof value['instance_id'] !== 'string' || value['instance_id'] === '') return undefined;
  const gt = value['ground_truth'];
  if (!isShaped(gt) || !isArrayOf(gt['read_core_regions'], isRegion)) return undefined;
  for (const key of ['read_core_files', 'modified_core_files', 'main_files']) {
    const list = gt[key];
    if (list !== undefined && list !== null && !isArrayOf(list, isString)) return undefined;
  }
  for (const [key, item] of [
    ['read_optional_files_map', isString],
    ['read_optional_regions_map', isRegion],
  ] as const) {
    const map = gt[key];
    if (map !== undefined && map !== null && !isMapOf(map, item)) return undefined;
  }
  for (const key of ['repo_dir', 'repo', 'base_commit', 'problem_statement', 'patch', 'test_patch']) {
    if (!isOptionalText(value[key])) return undefined;
  }
  const steps = value['read_step_info'];
  if (steps !== undefined && steps !== null && !isMapOf(steps, isReadStep)) return undefined;
  const meta = value['meta'];
  if (meta !== undefined && meta !== null && !isRecord(meta)) return undefined;
  // Accepted: apply the same defaults as the schema.
  for (const key of ['read_core_files', 'modified_core_files', 'main_files']) gt[key] ??= [];
  for (const key of ['read_optional_files_map', 'read_optional_regions_map']) gt[key] ??= {};
  return value as BenchRecord;
}

/** {@link PredictionRowSchema} for well-formed rows, without zod; `undefined` means "ask zod". */
export function fastParsePredictionRow(value: unknown): PredictionRow | undefined {
  if (!isShaped(value)) return undefined;
  if (typeof value['instance_id'] !== 'string' || value['instance_id'] === '') return undefined;
  if (typeof value['explorer'] !== 'string' || !isArrayOf(value['regions'], isRegion)) return undefined;
  const metrics = value['metrics'];
  if (metrics !== undefined && metrics !== null) {
    if (!isRecord(metrics)) return undefined;
    for (const key in metrics) {
      const m = metrics[key];
      if (m !== null && (typeof m !== 'number' || !Number.isFinite(m))) return undefined;
    }
  }
  const n = value['num_regions'];
  if (n !== undefined && n !== null && !isInt(n)) return undefined;
  return value as PredictionRow;
}
