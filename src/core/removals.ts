import { lineSetFrom, normalize, rangeIntersection, rangeIntersectionSize, subtract, type Interval, type IntervalSet, type LineSet } from './intervals';
import { resolveRegion } from './resolve';
import type { GroundTruth, LineCounts, Region, Removal } from './types';

/**
 * Ground truth with audited spans taken out (metrics-spec §13). Removals change inputs, never
 * formulas:
 * - each core (or optional) region that loses at least one of its lines is resolved (whole-file
 *   `end = -1` and tail `start < 0` regions with `lineCounts`, i.e. the active profile's counts)
 *   and replaced in place by its remaining pieces in ascending order; a region split in two
 *   becomes two regions at the position of the original;
 * - a region no removal takes a line from — and a region that covers no line at all (inverted,
 *   unresolvable) — is kept exactly as written (the same object);
 * - a core file whose regions were all removed leaves `read_core_files` and `main_files`
 *   (main files are core files by definition); likewise an optional file leaves its model's list;
 * - files that had no region to begin with are left alone (real data has such files);
 * - an optional removal with `model = null` applies to every model's list (the audit log only
 *   writes a null model for core removals, so this is the explicit "all models" case).
 * Duplicate, overlapping and adjacent removals are merged first, so their order never matters.
 */
export function applyRemovals(groundTruth: GroundTruth, removals: readonly Removal[], lineCounts: LineCounts): GroundTruth {
  if (removals.length === 0) return groundTruth;
  const coreRemoved = removedByPath(removals, (r) => r.layer === 'core');
  const core = subtractFromRegions(groundTruth.coreRegions, coreRemoved, lineCounts);
  const emptiedCoreFiles = emptiedPaths(groundTruth.coreRegions, core);

  const optionalRegionsByModel: Record<string, readonly Region[]> = {};
  const optionalFilesByModel: Record<string, readonly string[]> = {};
  for (const model of Object.keys(groundTruth.optionalFilesByModel)) setOwn(optionalFilesByModel, model, groundTruth.optionalFilesByModel[model]!);
  for (const model of Object.keys(groundTruth.optionalRegionsByModel)) {
    const regions = groundTruth.optionalRegionsByModel[model]!;
    const removed = removedByPath(removals, (r) => r.layer === 'optional' && (r.model === null || r.model === model));
    const kept = subtractFromRegions(regions, removed, lineCounts);
    setOwn(optionalRegionsByModel, model, kept);
    const emptied = emptiedPaths(regions, kept);
    const files = groundTruth.optionalFilesByModel[model];
    if (emptied.size > 0 && files !== undefined)
      setOwn(
        optionalFilesByModel,
        model,
        files.filter((path) => !emptied.has(path)),
      );
  }

  return {
    ...groundTruth,
    coreRegions: core,
    coreFiles: emptiedCoreFiles.size === 0 ? groundTruth.coreFiles : groundTruth.coreFiles.filter((path) => !emptiedCoreFiles.has(path)),
    mainFiles: emptiedCoreFiles.size === 0 ? groundTruth.mainFiles : groundTruth.mainFiles.filter((path) => !emptiedCoreFiles.has(path)),
    optionalRegionsByModel,
    optionalFilesByModel,
  };
}

/** What one removal does to the ground truth it is applied to. */
export interface RemovalEffect {
  readonly removal: Removal;
  /**
   * Ground-truth lines of the removal's layer (and model; for an optional removal with a null
   * model, the union over models) that lie in the removal's span, before any removal is applied.
   * 0 means the removal is outside every region: it changes nothing.
   */
  readonly lines: number;
}

/**
 * Per removal, how many lines of its layer it covers ({@link RemovalEffect}), in input order.
 * Regions are resolved as {@link applyRemovals} resolves them; inverted and unresolvable regions
 * cover no line, so a removal over them alone has no effect.
 */
export function removalEffects(groundTruth: GroundTruth, removals: readonly Removal[], lineCounts: LineCounts): RemovalEffect[] {
  let core: LineSet | undefined;
  const optionalByModel = new Map<string, LineSet>();
  let optionalAll: LineSet | undefined;
  const models = Object.keys(groundTruth.optionalRegionsByModel);
  const optionalLines = (model: string | null): LineSet => {
    if (model === null) {
      if (optionalAll === undefined) {
        const all: Region[] = [];
        for (const m of models) for (const region of groundTruth.optionalRegionsByModel[m]!) all.push(region);
        optionalAll = resolvedLines(all, lineCounts);
      }
      return optionalAll;
    }
    let lines = optionalByModel.get(model);
    if (lines === undefined) {
      lines = Object.hasOwn(groundTruth.optionalRegionsByModel, model) ? resolvedLines(groundTruth.optionalRegionsByModel[model]!, lineCounts) : new Map();
      optionalByModel.set(model, lines);
    }
    return lines;
  };
  return removals.map((removal) => {
    const layerLines = removal.layer === 'core' ? (core ??= resolvedLines(groundTruth.coreRegions, lineCounts)) : optionalLines(removal.model);
    const set = layerLines.get(removal.path);
    return { removal, lines: set === undefined ? 0 : rangeIntersectionSize(set, removal.start, removal.end) };
  });
}

/** Removals that are outside every region of their layer (and model): they change nothing. */
export function noEffectRemovals(groundTruth: GroundTruth, removals: readonly Removal[], lineCounts: LineCounts): Removal[] {
  const out: Removal[] = [];
  for (const effect of removalEffects(groundTruth, removals, lineCounts)) if (effect.lines === 0) out.push(effect.removal);
  return out;
}

/** The lines a list of regions covers, resolved with the given counts (inverted/unresolvable: none). */
export function resolvedLines(regions: readonly Region[], lineCounts: LineCounts): LineSet {
  const ranges: { path: string; start: number; end: number }[] = [];
  for (const region of regions) {
    const resolution = resolveRegion(region, lineCounts.get(region.path));
    if (resolution.kind === 'resolved' && resolution.start <= resolution.end) ranges.push({ path: region.path, start: resolution.start, end: resolution.end });
  }
  return lineSetFrom(ranges);
}

function removedByPath(removals: readonly Removal[], applies: (removal: Removal) => boolean): Map<string, IntervalSet> {
  const byPath = new Map<string, Interval[]>();
  for (const removal of removals) {
    if (!applies(removal)) continue;
    let list = byPath.get(removal.path);
    if (list === undefined) byPath.set(removal.path, (list = []));
    list.push([removal.start, removal.end]);
  }
  const out = new Map<string, IntervalSet>();
  // normalize drops inverted removals and merges duplicate, overlapping and adjacent ones.
  for (const [path, list] of byPath) out.set(path, normalize(list));
  return out;
}

function subtractFromRegions(regions: readonly Region[], removed: ReadonlyMap<string, IntervalSet>, lineCounts: LineCounts): Region[] {
  if (removed.size === 0) return regions.slice();
  const out: Region[] = [];
  for (const region of regions) {
    const cut = removed.get(region.path);
    if (cut === undefined) {
      out.push(region);
      continue;
    }
    const resolution = resolveRegion(region, lineCounts.get(region.path));
    // The overlap test is on lines the region really covers: inverted and unresolvable regions
    // cover none, so no removal can touch them.
    if (resolution.kind !== 'resolved' || resolution.start > resolution.end || rangeIntersectionSize(cut, resolution.start, resolution.end) === 0) {
      out.push(region);
      continue;
    }
    // Only the removed pieces inside the region (binary search), so many regions × many removals stays cheap.
    const inside = rangeIntersection(cut, resolution.start, resolution.end);
    for (const [s, e] of subtract([[resolution.start, resolution.end]], inside)) out.push({ path: region.path, start: s, end: e });
  }
  return out;
}

/**
 * Model names come from data: a plain assignment of the key "__proto__" would replace the
 * object's prototype instead of adding an entry, so entries are defined as own properties.
 */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Paths that had at least one region before and none after. */
function emptiedPaths(before: readonly Region[], after: readonly Region[]): Set<string> {
  const remaining = new Set<string>();
  for (const region of after) remaining.add(region.path);
  const out = new Set<string>();
  for (const region of before) if (!remaining.has(region.path)) out.add(region.path);
  return out;
}
