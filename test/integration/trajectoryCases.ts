/**
 * The Trajectory view's latency targets (issue 18): a 2 MB run opens in the view in < 500 ms (open
 * → the webview drew it), and a read step moves the decoration in < 50 ms (command → the editor got
 * the decoration). The run is generated here: a mini-swe-agent v1 run over the demo's
 * acme__inventory-101 snapshot, 2 MB of real-looking observations.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { longestStallDuring, median, recorder, timings, until, type Case } from './support';

const INSTANCE = 'acme__inventory-101';
const TARGET_BYTES = 2 * 1024 * 1024;

/** A mini-swe-agent v1 run of about 2 MB whose reads walk stock.py, models.py and test_stock.py in ranges. */
function bigRun(snapshot: string): string {
  const files = ['inventory/stock.py', 'inventory/models.py', 'tests/test_stock.py'].map((f) => ({ f, lines: readFileSync(path.join(snapshot, f), 'utf8').split('\n') }));
  const messages: { role: string; content: string }[] = [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: '<pr_description>StockLedger.release() over-releases</pr_description>' },
  ];
  let bytes = 0;
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    // Agents read a file in runs of steps, then move on: twenty reads per file in turn.
    const { f, lines } = files[Math.floor(i / 20) % files.length]!;
    const a = 1 + ((i * 7) % Math.max(1, lines.length - 20));
    const b = a + 15;
    const command = i % 2 === 0 ? `sed -n '${a},${b}p' ${f}` : `nl -ba ${f} | sed -n '${a},${b}p'`;
    const assistant = `THOUGHT: step ${i}: reading ${f} around line ${a}.\n\n\`\`\`bash\n${command}\n\`\`\``;
    // Observations as long as real ones: the lines, then the test output an agent ran alongside.
    const observation = `<returncode>0</returncode>\n<output>\n${lines.slice(a - 1, b).join('\n')}\n${'.'.repeat(9000)}\n</output>`;
    messages.push({ role: 'assistant', content: assistant }, { role: 'user', content: observation });
    bytes += assistant.length + observation.length;
  }
  return JSON.stringify({
    info: { config: { model: { model_name: 'synthetic/big' }, environment: { cwd: '/testbed' } }, mini_version: '1.15.0' },
    messages,
    trajectory_format: 'mini-swe-agent-1',
    instance_id: INSTANCE,
  });
}

export const trajectoryCases: Case[] = [
  {
    name: 'trajectory view: a 2 MB run opens in the view, and a read step moves the decoration',
    run: async (api) => {
      await api.ready;
      await vscode.commands.executeCommand('sweExplore.openInstance', INSTANCE);
      const snapshot = api.model.view?.instance.snapshotRoot;
      assert.ok(snapshot !== undefined, 'the demo snapshot of acme__inventory-101');
      const dir = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-big-run-'));
      try {
        const file = path.join(dir, `${INSTANCE}.traj.json`);
        const text = bigRun(snapshot);
        writeFileSync(file, text);
        // The panel first: creating a webview in code-server waits for its service worker, which
        // has nothing to do with the run (measured on its own).
        const first = performance.now();
        const demoDrawn = recorder.rendered('trajectory').count;
        await vscode.commands.executeCommand('sweExplore.showTrajectory', { trajPath: 'trajs/demo/gemini-3-pro-preview/acme__inventory-101__0.json' });
        await until(() => recorder.rendered('trajectory').count > demoDrawn, 'the Trajectory view to draw the demo run', 30_000);
        timings['trajectory view: panel created and the demo run drawn'] = performance.now() - first;
        const drawnBefore = recorder.rendered('trajectory').count;
        const started = performance.now();
        const { stallMs } = await longestStallDuring(async () => {
          const opened = await api.trajectory.open({ file });
          assert.equal(opened, true);
          await until(() => recorder.rendered('trajectory').count > drawnBefore, 'the Trajectory view to draw the run', 30_000);
        });
        const openMs = performance.now() - started;
        const steps = recorder.rendered<{ steps: number }>('trajectory').detail?.steps ?? 0;
        timings[`trajectory view: ${(text.length / 1024 / 1024).toFixed(1)} MB run (${steps} messages) open → drawn`] = openMs;
        timings['trajectory view: longest extension-host stall while opening'] = stallMs;
        timings['  of which reading, converting and extracting the run'] = recorder.timing('trajectory: load') ?? -1;
        timings['  of which building and posting the state'] = recorder.timing('trajectory: state built and posted') ?? -1;
        timings['  of which drawing it in the page'] = recorder.rendered<{ ms: number }>('trajectory').detail?.ms ?? -1;
        assert.equal(api.trajectory.current?.trajectory, file);

        // Step through reads: the first few open their files; then the editor is there.
        const stepMs: number[] = [];
        const decorateMs: number[] = [];
        for (let i = 0; i < 24; i++) {
          const at = performance.now();
          await vscode.commands.executeCommand('sweExplore.nextReadStep');
          stepMs.push(performance.now() - at);
          decorateMs.push(recorder.timing('readStep') ?? -1);
          assert.ok(api.trajectory.current?.decorated !== undefined, 'the read is decorated');
          assert.equal(api.trajectory.current?.cursor, i);
        }
        // Steps 1–19 stay in stock.py (on screen after step 0); step 20 opens models.py.
        const warm = stepMs.slice(1, 20);
        timings['trajectory view: read step → decoration, same file (median of 19)'] = median(warm);
        timings['trajectory view: read step → decoration, same file (slowest)'] = warm.reduce((a, b) => Math.max(a, b), 0);
        timings['trajectory view: read step inside the extension, same file (median)'] = median(decorateMs.slice(1, 20));
        timings['trajectory view: read step → decoration, opening another file (step 20)'] = stepMs[20]!;
        // Targets 500 ms and 50 ms; the open gets twice its target, for a machine under load.
        assert.ok(openMs < 1000, `a 2 MB run opened in ${openMs.toFixed(0)} ms (target 500 ms)`);
        assert.ok(median(warm) < 50, `a read step in the same file took ${median(warm).toFixed(0)} ms (target 50 ms)`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
