/**
 * Explorer-run figures for `npm run bench` (j), issue 19:
 *   - `swe-explore misses --explorer-trajs` on 848 instances × 5 explorers, each row with its own
 *     ~2 MB run (./gen-synthetic.ts + ./gen-trajectories.ts --explorer-runs): wall time and peak RSS of
 *     the built CLI (targets < 30 s, < 600 MB), beside the same `misses` without runs and a node process
 *     that only reads and JSON-parses the run files (the floor);
 *   - one 2 MB run on the data path the extension uses: loaded with every read extracted, and with only
 *     the instance's core files' reads (what `misses` does), with the longest event-loop stall.
 * Also runnable alone: `node --import tsx scripts/bench-explorer-runs.ts` (after `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { prepareGroundTruth } from '../src/core';
import { explorerRunInstance, indexExplorerRuns, loadExplorerRun, loadWorkspace } from '../src/data';
import { generateExplorerRuns } from './gen-trajectories';
import { generateSyntheticWorkspace, type SyntheticWorkspace } from './gen-synthetic';

function measure(args: string[]): { wall: number; rssMb: number; status: number | null } {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', 'node', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = (result.stderr ?? '').trim().split('\n');
  return { wall, rssMb: Number(lines[lines.length - 1]) / 1024, status: result.status };
}

async function longestStall(work: () => Promise<void>): Promise<{ ms: number; stallMs: number }> {
  let longest = 0;
  let last = performance.now();
  const heartbeat = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  clearInterval(heartbeat);
  return { ms, stallMs: longest };
}

const WORKSPACE = { instances: 848, explorers: 5, maxLines: 20000, seed: 1 } as const;

/** The 848 × 5 workspace: reused when it was written with these options (writing it again would delete its 8.7 GB of runs). */
async function syntheticWorkspace(out: string): Promise<SyntheticWorkspace> {
  const marker = path.join(out, 'synthetic.json');
  if (existsSync(marker)) {
    const written = JSON.parse(readFileSync(marker, 'utf8')) as Record<string, unknown>;
    if (
      written['instances'] === WORKSPACE.instances &&
      written['explorers'] === WORKSPACE.explorers &&
      written['maxLines'] === WORKSPACE.maxLines &&
      written['seed'] === WORKSPACE.seed &&
      written['worstCase'] === false
    ) {
      const results = path.join(out, 'results');
      return {
        benchFile: path.join(out, 'bench.jsonl'),
        predictionFiles: readdirSync(results)
          .sort()
          .map((e) => path.join(results, e, 'top5.jsonl')),
        reposRoot: path.join(out, 'repos'),
        lineCountsFile: path.join(out, 'line_counts.json'),
      };
    }
  }
  return generateSyntheticWorkspace({ out, ...WORKSPACE });
}

export async function benchExplorerRuns(work: string, cli: string): Promise<void> {
  const started = Date.now();
  const out = path.join(work, 'explorer-runs-848x5');
  const ws = await syntheticWorkspace(out);
  const runs = generateExplorerRuns({ workspace: out, runKb: 2048 });
  console.log(`(j) explorer runs: 848 instances × 5 explorers, ${runs.runs} runs, ${(runs.bytes / 1e9).toFixed(1)} GB (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const base = ['misses', '--bench', ws.benchFile, ...ws.predictionFiles.flatMap((f) => ['--preds', f]), '--format', 'json'];
  const flags = [...runs.folders].flatMap(([explorer, folder]) => ['--explorer-trajs', `${explorer}=${folder}`]);
  const floorScript = path.join(work, 'explorer-runs-floor.js');
  writeFileSync(
    floorScript,
    `const fs=require('fs'),p=require('path');let n=0;for(const d of process.argv.slice(2))for(const f of fs.readdirSync(d)){const t=fs.readFileSync(p.join(d,f),'utf8');if(f.endsWith('.jsonl')){for(const l of t.split('\\n'))if(l)JSON.parse(l);}else JSON.parse(t);n++;}console.log(n);\n`,
  );
  // The floor first: it also brings the runs into the page cache, where a second `misses` over the
  // same runs finds them (read from disk, just written, the CLI took 36.7 s instead of 29–32 s).
  const floor = measure([floorScript, ...runs.folders.values()]);
  const withRuns = measure([cli, ...base, ...flags]);
  const without = measure([cli, ...base]);
  console.log(
    `    CLI misses --explorer-trajs ×5: ${withRuns.wall.toFixed(1)} s wall, peak RSS ${withRuns.rssMb.toFixed(0)} MB (targets < 30 s, < 600 MB; exit ${withRuns.status}); without runs ${without.wall.toFixed(1)} s, ${without.rssMb.toFixed(0)} MB; reading + JSON-parsing the runs alone ${floor.wall.toFixed(1)} s`,
  );

  // One 2 MB run through the data path: the extension opening an instance.
  const model = await loadWorkspace({ benchFile: ws.benchFile, predictionFiles: [ws.predictionFiles[0]!] });
  const explorer = [...runs.folders.keys()][0]!;
  const folder = runs.folders.get(explorer)!;
  const index = await indexExplorerRuns(folder, (id) => model.instances.has(id));
  const instanceId = readdirSync(folder)
    .map((f) => f.replace(/\.traj\.json$|\.jsonl$/, ''))
    .find((id) => model.instances.has(id))!;
  const entry = model.instances.get(instanceId)!;
  const groundTruth = prepareGroundTruth(entry.groundTruth, model.precomputedCounts.get(instanceId) ?? new Map(), 'official');
  const instance = explorerRunInstance(entry, groundTruth, entry.snapshotRoot);
  const run = index.runs.get(instanceId)!;
  const core = new Set(groundTruth.core.keys());
  for (const [label, options] of [
    ['every read', {}],
    ['core files only', { paths: core }],
  ] as const) {
    await loadExplorerRun(run, instance, options); // warm up
    const timed = await longestStall(async () => {
      await loadExplorerRun(run, instance, options);
    });
    console.log(`    one ${(run.size / 1e6).toFixed(1)} MB run (${label}): ${timed.ms.toFixed(0)} ms, longest event-loop stall ${timed.stallMs.toFixed(0)} ms`);
  }
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  void benchExplorerRuns(path.join(root, '.bench'), path.join(root, 'dist', 'cli.js'));
}
