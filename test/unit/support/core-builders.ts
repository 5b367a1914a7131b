/** Small builders for metric-core unit tests. */
import { officialMetrics, prepareInstance, type GroundTruth, type LineCounts, type OfficialMetrics, type PreparedInstance, type Profile, type Region } from '../../../src/core/index';

export function reg(path: string, start: number, end: number): Region {
  return { path, start, end };
}

export interface GtInit {
  coreRegions?: readonly Region[];
  /** Defaults to the distinct core-region paths (as in real records). */
  coreFiles?: readonly string[];
  optionalRegionsByModel?: Record<string, readonly Region[]>;
  optionalFilesByModel?: Record<string, readonly string[]>;
  mainFiles?: readonly string[];
  modifiedCoreFiles?: readonly string[];
}

export function gt(init: GtInit = {}): GroundTruth {
  const coreRegions = init.coreRegions ?? [];
  return {
    coreRegions,
    coreFiles: init.coreFiles ?? [...new Set(coreRegions.map((r) => r.path))].sort(),
    optionalRegionsByModel: init.optionalRegionsByModel ?? {},
    optionalFilesByModel: init.optionalFilesByModel ?? {},
    mainFiles: init.mainFiles ?? [],
    modifiedCoreFiles: init.modifiedCoreFiles ?? init.mainFiles ?? [],
  };
}

export function counts(entries: Record<string, number> = {}): LineCounts {
  return new Map(Object.entries(entries));
}

export function prep(groundTruth: GroundTruth, predictions: readonly Region[], lineCounts: LineCounts = new Map(), profile: Profile = 'official'): PreparedInstance {
  return prepareInstance(groundTruth, predictions, lineCounts, profile);
}

export function score(groundTruth: GroundTruth, predictions: readonly Region[], lineCounts: LineCounts = new Map(), profile: Profile = 'official'): OfficialMetrics {
  return officialMetrics(prep(groundTruth, predictions, lineCounts, profile));
}
