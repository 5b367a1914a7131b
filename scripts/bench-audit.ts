/**
 * Audit figures for `npm run bench` (also runnable alone: `node --import tsx scripts/bench-audit.ts`):
 *   (e) `audit-impact` over the synthetic 848 × 20 workspace with 2,000 random core removals by two
 *       authors, written as audit-log JSONL: the shared `computeAuditImpact` path in process (load,
 *       audit read, before/after scoring, agreement), and the built CLI when dist/cli.js exists;
 *   (f) provenance of one 20k-line file read by thousands of steps, and leave-one-out per trajectory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { mulberry32, resolveRegion } from '../src/core';
import { computeProvenance, type ReadStepLike } from '../src/core/provenance';
import { removeEvent } from '../src/data/audit/auditLog';
import { computeAuditImpact, loadAudit } from '../src/data/audit/workspaceAudit';
import { readBenchFile } from '../src/data/formats/jsonl';
import { LineCountCache } from '../src/data/workspace/lineCounts';
import { readLineCountsFile } from '../src/data/formats/lineCountsFile';
import type { Problem } from '../src/data/io/problems';
import { toGroundTruth } from '../src/data/formats/records';
import { loadWorkspace } from '../src/data/workspace/workspace';
import { generateSyntheticWorkspace } from './gen-synthetic';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const REMOVALS = 2_000;
const AUTHORS = ['alice', 'bob'] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** 2,000 random core removals (1–40 lines inside a resolved core region), alternating between two authors. */
async function writeRandomAudit(benchFile: string, lineCountsFile: string, auditDir: string): Promise<void> {
  const bench = await readBenchFile(benchFile);
  const counts = (await readLineCountsFile(lineCountsFile)).counts;
  const random = mulberry32(848);
  const at = new Date('2026-01-01T00:00:00Z');
  const byAuthor = new Map<string, string[]>(AUTHORS.map((a) => [a, []]));
  let written = 0;
  for (let attempt = 0; written < REMOVALS && attempt < REMOVALS * 20; attempt++) {
    const record = bench.items[Math.floor(random() * bench.items.length)]!.value;
    const core = toGroundTruth(record).coreRegions;
    if (core.length === 0) continue;
    const region = core[Math.floor(random() * core.length)]!;
    const r = resolveRegion(region, counts.get(record.instance_id)?.get(region.path));
    if (r.kind !== 'resolved' || r.start > r.end) continue;
    const length = 1 + Math.floor(random() * Math.min(40, r.end - r.start + 1));
    const start = r.start + Math.floor(random() * (r.end - r.start + 2 - length));
    const author = AUTHORS[written % AUTHORS.length]!;
    const event = removeEvent(
      { instanceId: record.instance_id, layer: 'core', model: null, path: region.path, start, end: start + length - 1, reason: 'incidental-read', note: null, author, textSha: null },
      at,
      `bench-${written}`,
    );
    byAuthor.get(author)!.push(JSON.stringify(event));
    written++;
  }
  rmSync(auditDir, { recursive: true, force: true });
  mkdirSync(auditDir, { recursive: true });
  for (const [author, lines] of byAuthor) writeFileSync(path.join(auditDir, `${author}.jsonl`), `${lines.join('\n')}\n`);
}

export async function benchAuditImpact(work: string): Promise<void> {
  const ws = await generateSyntheticWorkspace({ out: path.join(work, 'synthetic-848x20'), instances: 848, explorers: 20, maxLines: 20000, seed: 1 });
  const auditDir = path.join(work, 'audit-848x20', '.swe-explore', 'audit');
  await writeRandomAudit(ws.benchFile, ws.lineCountsFile, auditDir);
  const runs: { total: number; load: number; impact: number; lines: number; agreements: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const model = await loadWorkspace({ benchFile: ws.benchFile, predictionFiles: ws.predictionFiles, lineCountsFile: ws.lineCountsFile });
    const audit = await loadAudit(model, auditDir);
    const t1 = performance.now();
    const problems: Problem[] = [];
    const report = await computeAuditImpact(model, audit, { profile: 'official', k: 5, trials: 0, seed: 0 }, new LineCountCache(), problems);
    const t2 = performance.now();
    runs.push({ total: t2 - t0, load: t1 - t0, impact: t2 - t1, lines: report.length, agreements: report.filter((l) => l.kind === 'agreement').length });
  }
  const last = runs[runs.length - 1]!;
  console.log(`(e) audit-impact, synthetic 848 × 20 with ${REMOVALS} random core removals by ${AUTHORS.length} authors (target < 5 s)`);
  console.log(
    `    shared computeAuditImpact path, in process: ${(median(runs.map((r) => r.total)) / 1000).toFixed(2)} s (median of 3; load + audit read ${(median(runs.map((r) => r.load)) / 1000).toFixed(2)} s, before/after scoring + agreement ${(median(runs.map((r) => r.impact)) / 1000).toFixed(2)} s); ${last.lines} report lines, ${last.agreements} agreement`,
  );
  if (existsSync(CLI)) {
    const args = [CLI, 'audit-impact', '--bench', ws.benchFile, ...ws.predictionFiles.flatMap((f) => ['--preds', f]), '--audit', auditDir, '--line-counts', ws.lineCountsFile];
    const walls: number[] = [];
    let status: number | null = null;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      status = spawnSync('node', args, { encoding: 'utf8', maxBuffer: 1 << 28 }).status;
      walls.push(performance.now() - started);
    }
    console.log(`    CLI node dist/cli.js audit-impact: ${(median(walls) / 1000).toFixed(2)} s wall (median of 3, exit ${status})`);
  }
}

/** One 20k-line file, 6 trajectories, 5,000 read steps, 40 core regions (target < 50 ms). */
export function benchProvenance(): void {
  const lines = 20_000;
  const trajectories = Array.from({ length: 6 }, (_, i) => `trajs/bench/model-${i}/x__y-1__0.json`);
  const random = mulberry32(20_000);
  const steps: ReadStepLike[] = [];
  for (let i = 0; i < 5_000; i++) {
    const start = 1 + Math.floor(random() * lines);
    const end = Math.min(lines, start + Math.floor(random() * 400));
    steps.push({ traj_path: trajectories[i % trajectories.length]!, step_idx: i, start, end });
  }
  const coreRegions = Array.from({ length: 40 }, (_, i) => ({ path: 'big.py', start: i * 500 + 1, end: i * 500 + 120 }));
  const input = { readStepInfo: { 'big.py': steps }, coreRegions, lineCounts: new Map([['big.py', lines]]) };
  const samples: number[] = [];
  const looSamples: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    const provenance = computeProvenance(input);
    const t1 = performance.now();
    for (const t of provenance.trajectories) provenance.leaveOneOut(t);
    looSamples.push(performance.now() - t1);
    samples.push(t1 - t0);
  }
  console.log(`(f) provenance of a 20k-line file, ${steps.length} read steps by ${trajectories.length} trajectories, ${coreRegions.length} core regions (target < 50 ms)`);
  console.log(
    `    computeProvenance median ${median(samples).toFixed(2)} ms, max ${samples.reduce((a, b) => Math.max(a, b), 0).toFixed(2)} ms (15 runs, incl. the cold first); leave-one-out for all ${trajectories.length} trajectories median ${median(looSamples).toFixed(2)} ms`,
  );
}

if (require.main === module) {
  const work = path.join(ROOT, '.bench');
  mkdirSync(work, { recursive: true });
  benchProvenance();
  benchAuditImpact(work).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
