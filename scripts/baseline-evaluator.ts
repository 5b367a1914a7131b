/**
 * The baseline `npm run bench` compares the CLI against: a line-set evaluator built like the
 * official one (every region expanded into `path:line` strings, every metric computed on sets), in
 * TypeScript. It reads the same files as `swe-explore score --line-counts` and prints one JSON line
 * per row. It reuses the naive evaluator the property tests check the core against.
 *   node .bench/baseline.js BENCH COUNTS PREDS...
 */
import { readFileSync } from 'node:fs';
import type { GroundTruth, Region } from '../src/core';
import { naiveEvaluate } from '../test/unit/support/core-naive';

interface RawRegion {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

function jsonLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const [benchFile, countsFile, ...predictionFiles] = process.argv.slice(2);
const groundTruths = new Map<string, GroundTruth>();
for (const record of jsonLines(benchFile!)) {
  const gt = record['ground_truth'] as Record<string, unknown>;
  groundTruths.set(record['instance_id'] as string, {
    coreFiles: (gt['read_core_files'] as string[] | undefined) ?? [],
    coreRegions: gt['read_core_regions'] as RawRegion[],
    optionalFilesByModel: (gt['read_optional_files_map'] as Record<string, string[]> | undefined) ?? {},
    optionalRegionsByModel: (gt['read_optional_regions_map'] as Record<string, RawRegion[]> | undefined) ?? {},
    mainFiles: (gt['main_files'] as string[] | undefined) ?? [],
    modifiedCoreFiles: (gt['modified_core_files'] as string[] | undefined) ?? [],
  });
}
const counts = JSON.parse(readFileSync(countsFile!, 'utf8')) as Record<string, Record<string, number>>;
const out: string[] = [];
for (const file of predictionFiles) {
  for (const row of jsonLines(file)) {
    const id = row['instance_id'] as string;
    const groundTruth = groundTruths.get(id);
    if (groundTruth === undefined || groundTruth.coreRegions.length === 0) continue;
    const predictions = (row['regions'] as Region[]).slice(0, 5);
    const result = naiveEvaluate(groundTruth, predictions, new Map(Object.entries(counts[id] ?? {})), 'official');
    out.push(JSON.stringify({ instance_id: id, explorer: row['explorer'], metrics: result.metrics }));
  }
}
process.stdout.write(out.join('\n') + '\n');
