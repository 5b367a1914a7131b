/**
 * How long loading a large bench blocks the event loop, measured on the code path the extension
 * host runs (the shared workspace model, then the cooperative data checks), with a 5 ms heartbeat.
 * Used by `npm run bench`; also runnable alone: `node --import tsx scripts/load-stall.ts [MB]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkWorkspace, LineCountCache, loadWorkspace } from '../src/data';

/** Writes a bench of about `megabytes` MB whose records have the real records' size (~32 KB). */
export function writeLargeBench(folder: string, megabytes: number): string {
  mkdirSync(folder, { recursive: true });
  const tests = JSON.stringify(Array.from({ length: 520 }, (_, t) => `tests/test_module.py::TestCase${t % 23}::test_behaviour_${t}`));
  const file = path.join(folder, 'bench.jsonl');
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < megabytes * 1e6; i++) {
    const line = JSON.stringify({
      instance_id: `big__load-${String(i).padStart(5, '0')}`,
      repo_dir: `repos/big__load-${i}`,
      problem_statement: 'x'.repeat(2000),
      PASS_TO_PASS: tests,
      ground_truth: {
        read_core_files: ['a.py'],
        read_core_regions: [
          { path: 'a.py', start: 1, end: 40 },
          { path: 'a.py', start: 60, end: -1 },
        ],
      },
    });
    lines.push(line);
    bytes += line.length + 1;
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

export async function measureLoadStall(benchFile: string): Promise<{ loadMs: number; checkedMs: number; longestStallMs: number; records: number; peakRssMb: number }> {
  let longest = 0;
  let last = performance.now();
  let peakRss = process.memoryUsage().rss;
  const heartbeat = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const model = await loadWorkspace({ benchFile, predictionFiles: [] });
  const loadMs = performance.now() - started;
  await checkWorkspace(model, new LineCountCache());
  const checkedMs = performance.now() - started;
  clearInterval(heartbeat);
  return { loadMs, checkedMs, longestStallMs: longest, records: model.instances.size, peakRssMb: peakRss / 1e6 };
}

if (require.main === module) {
  const megabytes = Number(process.argv[2] ?? '256');
  const file = writeLargeBench(path.resolve(__dirname, '..', '.bench', `load-${megabytes}mb`), megabytes);
  void measureLoadStall(file).then((r) =>
    console.log(
      `${megabytes} MB bench, ${r.records} records: loaded in ${r.loadMs.toFixed(0)} ms, checked by ${r.checkedMs.toFixed(0)} ms, longest event-loop stall ${r.longestStallMs.toFixed(1)} ms, peak RSS ${r.peakRssMb.toFixed(0)} MB`,
    ),
  );
}
