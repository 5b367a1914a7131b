/**
 * What-if figures for `npm run bench` (i):
 *   - `swe-explore whatif --rules as-seen` over 848 instances × 3 synthetic runs (~600 MB, the runs of
 *     ./gen-trajectories.ts, the bench `swe-explore build` writes from them) and 20 explorers' predictions
 *     (./gen-synthetic.ts `generatePredictionsForBench`): wall time and peak RSS of the built CLI
 *     (targets: < 30 s, < 800 MB);
 *   - the data path the extension uses (`WhatIfSession`, runs kept): the first computation over every
 *     instance, then switching to another rule set (variants from the loaded runs, the what-if scores
 *     with the as-written scores reused), switching back (cached), and one line's reason; the target for
 *     a switch after the first computation is < 200 ms.
 * Also runnable alone: `node --import tsx scripts/bench-whatif.ts` (after `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { parseWhatIfRules, type WhatIfRules } from '../src/core';
import { LineCountCache, loadWorkspace, WhatIfSession } from '../src/data';
import { generatePredictionsForBench } from './gen-synthetic';
import { generateTrajectories } from './gen-trajectories';

function measureCli(cli: string, args: string[], cwd: string): { wall: number; rssMb: number; status: number | null; stderr: string } {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', 'node', cli, ...args], { encoding: 'utf8', cwd, maxBuffer: 1 << 28 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = (result.stderr ?? '').trim().split('\n');
  return { wall, rssMb: Number(lines[lines.length - 1]) / 1024, status: result.status, stderr: lines.slice(0, -1).join('\n') };
}

function rules(text: string): WhatIfRules {
  const parsed = parseWhatIfRules(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rules;
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function benchWhatIf(work: string, cli: string): Promise<void> {
  const started = Date.now();
  const out = path.join(work, 'trajectories-848x3');
  const generated = generateTrajectories({ out, instances: 848, runs: 3 });
  // The bench the builder writes from the runs, with traj_paths relative to its folder (the default root).
  const bench = path.join(out, 'whatif-bench.jsonl');
  if (!existsSync(bench)) {
    const build = measureCli(cli, ['build', '--trajs', 'trajs', '--repos', 'repos', '-o', 'whatif-bench.jsonl'], out);
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  }
  const preds = generatePredictionsForBench({ benchFile: bench, lineCountsFile: generated.lineCountsFile, out: path.join(out, 'whatif-preds'), explorers: 20 });
  console.log(`(i) what-if over ${generated.runs} synthetic runs (${(generated.bytes / 1e6).toFixed(0)} MB) and ${preds.length} explorers (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const run = measureCli(cli, ['whatif', '--bench', 'whatif-bench.jsonl', '--rules', 'as-seen', ...preds.flatMap((p) => ['--preds', p]), '--format', 'json'], out);
  console.log(`    CLI whatif --rules as-seen: ${run.wall.toFixed(1)} s wall, peak RSS ${run.rssMb.toFixed(0)} MB (targets < 30 s, < 800 MB; exit ${run.status})`);

  const model = await loadWorkspace({
    benchFile: bench,
    predictionFiles: readdirSync(path.join(out, 'whatif-preds', 'results')).map((e) => path.join(out, 'whatif-preds', 'results', e, 'top5.jsonl')),
  });
  const cache = new LineCountCache();
  const session = new WhatIfSession(model, { locator: { roots: [out], templates: [], templateBase: out }, reports: [], reportsBase: out }, cache);
  const options = { profile: 'official', k: 5 } as const;
  const first = await timed(() => session.scoresOf(rules('as-seen'), options));
  const switched = await timed(() => session.scoresOf(rules('support:2'), options));
  const back = await timed(() => session.scoresOf(rules('as-seen'), options));
  const oneInstance = await timed(() => session.variantOf(model.instances.keys().next().value!, rules('as-seen,support:2')));
  const id = model.instances.keys().next().value!;
  const first3 = (await session.variantOf(id, rules('as-seen'))).variant.coreRegions[0]!;
  const reason = await timed(() => session.explainLine(id, rules('as-seen'), first3.path, first3.start));
  console.log(
    `    in process (runs kept): first computation ${(first.ms / 1000).toFixed(1)} s; switch to another rule set over every instance + rescore ${switched.ms.toFixed(0)} ms, ` +
      `back to a computed one ${back.ms.toFixed(0)} ms; one instance's new variant ${oneInstance.ms.toFixed(1)} ms; one line's reason ${reason.ms.toFixed(2)} ms; ` +
      `RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (target for a switch: < 200 ms)`,
  );
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  void benchWhatIf(path.join(root, '.bench'), path.join(root, 'dist', 'cli.js'));
}
