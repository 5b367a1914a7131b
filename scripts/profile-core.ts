/**
 * Micro-benchmark of the pure metric core on the synthetic workspace (`npm run bench` generates it):
 * ground truth is prepared once per instance, then every row is scored with
 * `officialMetrics(preparePredictions(...))`, as `swe-explore score` does, over several rounds.
 *
 *   node --import tsx scripts/profile-core.ts [--dir .bench/synthetic-848x20] [--rounds 10]
 *        [--dump out.json]     write every row's metrics (both profiles, extra budgets, explanations)
 *        [--compare out.json]  check them bit for bit against an earlier dump
 *
 * Files are parsed here with JSON.parse so the figures do not depend on the data layer.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { explainInstance, ndcgAt, officialMetrics, prepareGroundTruth, preparePredictions, recallAt, type GroundTruth, type PreparedGroundTruth, type Profile, type Region } from '../src/core';

interface RawRegion {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

interface RawRecord {
  readonly instance_id: string;
  readonly ground_truth: {
    readonly read_core_files: string[];
    readonly read_core_regions: RawRegion[];
    readonly read_optional_files_map: Record<string, string[]>;
    readonly read_optional_regions_map: Record<string, RawRegion[]>;
    readonly modified_core_files: string[];
    readonly main_files: string[];
  };
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

function regionsOf(raw: readonly RawRegion[]): Region[] {
  return raw.map((r) => ({ path: r.path, start: r.start, end: r.end }));
}

function groundTruthOf(record: RawRecord): GroundTruth {
  const gt = record.ground_truth;
  const optionalRegionsByModel: Record<string, readonly Region[]> = {};
  for (const [model, regions] of Object.entries(gt.read_optional_regions_map)) optionalRegionsByModel[model] = regionsOf(regions);
  return {
    coreFiles: gt.read_core_files,
    coreRegions: regionsOf(gt.read_core_regions),
    optionalFilesByModel: gt.read_optional_files_map,
    optionalRegionsByModel,
    mainFiles: gt.main_files,
    modifiedCoreFiles: gt.modified_core_files,
  };
}

function jsonLines<T>(file: string): T[] {
  const out: T[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim() !== '') out.push(JSON.parse(line) as T);
  return out;
}

interface Row {
  readonly instanceId: string;
  readonly explorer: string;
  readonly regions: readonly Region[];
}

function load(dir: string): { groundTruths: Map<string, GroundTruth>; counts: Map<string, Map<string, number>>; rows: Row[] } {
  const groundTruths = new Map<string, GroundTruth>();
  for (const record of jsonLines<RawRecord>(path.join(dir, 'bench.jsonl'))) groundTruths.set(record.instance_id, groundTruthOf(record));
  const rawCounts = JSON.parse(readFileSync(path.join(dir, 'line_counts.json'), 'utf8')) as Record<string, Record<string, number>>;
  const counts = new Map<string, Map<string, number>>();
  for (const [id, files] of Object.entries(rawCounts)) counts.set(id, new Map(Object.entries(files)));
  const rows: Row[] = [];
  const resultsDir = path.join(dir, 'results');
  for (const explorer of readdirSync(resultsDir).sort()) {
    for (const row of jsonLines<{ instance_id: string; regions: RawRegion[] }>(path.join(resultsDir, explorer, 'top5.jsonl'))) {
      if (!groundTruths.has(row.instance_id)) continue;
      rows.push({ instanceId: row.instance_id, explorer, regions: regionsOf(row.regions).slice(0, 5) });
    }
  }
  return { groundTruths, counts, rows };
}

function prepareAll(data: ReturnType<typeof load>, profile: Profile): Map<string, PreparedGroundTruth> {
  const out = new Map<string, PreparedGroundTruth>();
  for (const [id, gt] of data.groundTruths) out.set(id, prepareGroundTruth(gt, data.counts.get(id) ?? new Map(), profile));
  return out;
}

/** Every number the core produces for the workspace, for a bit-for-bit comparison. */
function dump(data: ReturnType<typeof load>): unknown[] {
  const out: unknown[] = [];
  for (const profile of ['official', 'snapshot'] as const) {
    const prepared = prepareAll(data, profile);
    for (const row of data.rows) {
      const instance = preparePredictions(prepared.get(row.instanceId)!, row.regions);
      const extra: number[] = [];
      for (const b of [1, 2.5, 50, 250, 1000, 5000]) extra.push(ndcgAt(instance, b), recallAt(instance, b));
      const explanation = explainInstance(instance, 200);
      const lines = Object.entries(explanation.lines).map(([name, set]) => [name, [...(set as ReadonlyMap<string, unknown>)]]);
      out.push([
        profile,
        row.instanceId,
        row.explorer,
        officialMetrics(instance),
        extra,
        explanation.predictions,
        explanation.coreRegions,
        explanation.quirks,
        explanation.recallAtBudget,
        explanation.ndcg,
        lines,
      ]);
    }
  }
  return out;
}

function main(): void {
  const dir = path.resolve(option('--dir') ?? path.join(__dirname, '..', '.bench', 'synthetic-848x20'));
  const rounds = Number(option('--rounds') ?? '10');
  const data = load(dir);

  const dumpFile = option('--dump');
  const compareFile = option('--compare');
  if (dumpFile !== undefined || compareFile !== undefined) {
    // JSON.stringify prints the shortest string that round-trips, so equal text means equal bits.
    const text = JSON.stringify(dump(data));
    if (dumpFile !== undefined) writeFileSync(dumpFile, text);
    if (compareFile !== undefined) {
      const same = readFileSync(compareFile, 'utf8') === text;
      console.log(same ? `identical to ${compareFile}` : `DIFFERS from ${compareFile}`);
      if (!same) process.exitCode = 1;
    }
    return;
  }

  const prepareStarted = process.hrtime.bigint();
  const prepared = prepareAll(data, 'official');
  const prepareMs = Number(process.hrtime.bigint() - prepareStarted) / 1e6;
  const jobs = data.rows.map((row) => ({ groundTruth: prepared.get(row.instanceId)!, regions: row.regions }));
  console.log(`${data.groundTruths.size} instances, ${jobs.length} rows; ground truth prepared in ${prepareMs.toFixed(1)} ms`);

  const samples: number[] = [];
  const cpuSamples: number[] = [];
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (const job of jobs) sink += officialMetrics(preparePredictions(job.groundTruth, job.regions)).first_useful_hit;
    const used = process.cpuUsage(cpu);
    cpuSamples.push((used.user + used.system) / 1000);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  if (rounds < 1) return;
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`score ${jobs.length} rows, wall per round: ${samples.map((s) => s.toFixed(1)).join(' ')} ms`);
  console.log(
    `wall min ${[...samples].sort((a, b) => a - b)[0]!.toFixed(1)} ms, median ${median(samples).toFixed(1)} ms; process CPU median ${median(cpuSamples).toFixed(1)} ms (checksum ${sink.toFixed(6)})`,
  );
}

main();
