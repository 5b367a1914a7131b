import { normalize, subtract, type Interval, type IntervalSet } from './intervals';
import { resolveRegion } from './resolve';
import type { GroundTruth, LineCounts, Region, Removal } from './types';

/**
 * Ground truth with audited spans taken out. Removals change inputs, never formulas:
 * - each core (or optional) region loses the removed lines; a region split in two becomes two
 *   regions, in line order, at the position of the original;
 * - a region that needs a line count (`end = -1`, negative start) is first resolved with
 *   `lineCounts` — only when a removal touches it, so untouched regions stay exactly as read;
 * - a core file whose regions were all removed leaves `read_core_files` and `main_files`
 *   (main files are core files by definition); likewise an optional file leaves its model's list;
 * - files that had no region to begin with are left alone (real data has such files).
 */
export function applyRemovals(groundTruth: GroundTruth, removals: readonly Removal[], lineCounts: LineCounts): GroundTruth {
  if (removals.length === 0) return groundTruth;
  const coreRemoved = removedByPath(removals.filter((r) => r.layer === 'core'));
  const core = subtractFromRegions(groundTruth.coreRegions, coreRemoved, lineCounts);
  const emptiedCoreFiles = emptiedPaths(groundTruth.coreRegions, core);

  const optionalRegionsByModel: Record<string, readonly Region[]> = {};
  const optionalFilesByModel: Record<string, readonly string[]> = { ...groundTruth.optionalFilesByModel };
  for (const [model, regions] of Object.entries(groundTruth.optionalRegionsByModel)) {
    const removed = removedByPath(removals.filter((r) => r.layer === 'optional' && (r.model === null || r.model === model)));
    const kept = subtractFromRegions(regions, removed, lineCounts);
    optionalRegionsByModel[model] = kept;
    const emptied = emptiedPaths(regions, kept);
    const files = groundTruth.optionalFilesByModel[model];
    if (emptied.size > 0 && files !== undefined) optionalFilesByModel[model] = files.filter((path) => !emptied.has(path));
  }

  return {
    ...groundTruth,
    coreRegions: core,
    coreFiles: groundTruth.coreFiles.filter((path) => !emptiedCoreFiles.has(path)),
    mainFiles: groundTruth.mainFiles.filter((path) => !emptiedCoreFiles.has(path)),
    optionalRegionsByModel,
    optionalFilesByModel,
  };
}

function removedByPath(removals: readonly Removal[]): Map<string, IntervalSet> {
  const byPath = new Map<string, Interval[]>();
  for (const { path, start, end } of removals) {
    let list = byPath.get(path);
    if (list === undefined) byPath.set(path, (list = []));
    list.push([start, end]);
  }
  return new Map([...byPath].map(([path, list]) => [path, normalize(list)]));
}

function subtractFromRegions(regions: readonly Region[], removed: Map<string, IntervalSet>, lineCounts: LineCounts): Region[] {
  if (removed.size === 0) return [...regions];
  return regions.flatMap((region) => {
    const cut = removed.get(region.path);
    if (cut === undefined) return [region];
    const resolution = resolveRegion(region, lineCounts.get(region.path));
    if (resolution.kind !== 'resolved' || resolution.start > resolution.end) return [region];
    const { start, end } = resolution;
    if (!cut.some(([s, e]) => s <= end && start <= e)) return [region];
    return subtract([[start, end]], cut).map(([s, e]) => ({ path: region.path, start: s, end: e }));
  });
}

/** Paths that had at least one region before and none after. */
function emptiedPaths(before: readonly Region[], after: readonly Region[]): Set<string> {
  const remaining = new Set(after.map((r) => r.path));
  return new Set(before.map((r) => r.path).filter((path) => !remaining.has(path)));
}
