// `npm test`: every check of the project, as fast as a 2-core machine allows, then a table of
// what took how long.
//
//   1. setup: the project's node_modules (scripts/setup.sh --node-only) — everything else needs
//      them — while the VS Code runtime that only the end-to-end tests need (Debian packages,
//      ripgrep cache, code-server: scripts/setup.sh --runtime-only) installs in the background;
//   2. side by side: the unit/property/conformance/CLI tests (two test files at a time) in one lane;
//      package (the .vsix the e2e tests install) and build, then typecheck, lint and format check
//      in the other;
//   3. the end-to-end tests in code-server, as soon as the runtime and the build are ready: their
//      browser checks (which mostly wait for the workbench) beside whatever is left of the unit
//      tests, their integration tests (which measure latency targets) once the unit tests are done.
//
// A failure stops what has not started yet; what runs is let finish (its output is still worth
// reading). The output of the steps is printed whole when each ends, so they never interleave,
// except the end-to-end tests', which is printed as it goes. Exit 1 when anything failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, openSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const logs = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-test-'));
const t0 = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Every step as it ended, for the table. */
const steps = [];
let failed = false;

/**
 * Runs one step (a command) with its output in a log file; prints the output when it ends.
 * Resolves to whether it passed. A step is skipped (not run) once a step in the foreground
 * failed; the background step's failure only holds back the end-to-end tests, which need it.
 */
function step(name, command, args, { background = false, live = false, onSpawn = undefined } = {}) {
  if (failed && !background) {
    steps.push({ name, status: 'skipped', start: Date.now() - t0, end: Date.now() - t0 });
    return Promise.resolve(false);
  }
  const start = Date.now();
  const logFile = path.join(logs, `${steps.length}-${name.replace(/\W+/g, '-')}.log`);
  const fd = live ? 'inherit' : openSync(logFile, 'w');
  if (!background) console.log(`=== ${name} …`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: [onSpawn === undefined ? 'ignore' : 'pipe', fd, fd], env: { ...process.env, FORCE_COLOR: '0' } });
    onSpawn?.(child);
    const finish = (code, error) => {
      const output = live ? '' : readFileSync(logFile, 'utf8');
      if (!live) closeSync(fd);
      const ok = code === 0;
      if (!ok && !background) failed = true;
      const end = Date.now();
      steps.push({ name, status: ok ? 'ok' : 'FAILED', start: start - t0, end: end - t0 });
      console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds(end - start)}${background ? ' (in the background)' : ''}`);
      if (output.trim() !== '') console.log(output.trimEnd());
      if (error !== undefined) console.log(`${name}: ${error.message}`);
      resolve(ok);
    };
    child.on('error', (error) => finish(-1, error));
    child.on('exit', (code, signal) => finish(code ?? (signal === null ? -1 : 128), undefined));
  });
}

/** Runs `steps` one after another; stops at the first failure. */
async function lane(...list) {
  for (const [name, command, args] of list) if (!(await step(name, command, args))) return false;
  return true;
}

const npmRun = (script) => ['npm', ['run', '--silent', script]];

const runtime = step('setup: VS Code runtime (code-server, Chromium)', 'bash', ['scripts/setup.sh', '--runtime-only'], { background: true });
const e2e = 'end-to-end tests (code-server + Chromium)';
let e2eRan = false;
if (await step('setup: node_modules', 'bash', ['scripts/setup.sh', '--node-only'])) {
  const unit = lane(['unit, property, conformance and CLI tests', ...npmRun('test:unit')]);
  // `package` builds dist/ for production (vscode:prepublish) to pack the .vsix; `build` then
  // writes the development bundles (with source maps) the e2e tests load with a development path.
  // They come first so that the end-to-end tests, the longest step, start as early as they can;
  // the static checks follow in the same lane.
  const built = lane(['package (.vsix)', ...npmRun('package')], ['build', ...npmRun('build')]);
  const checked = built.then((ok) => ok && lane(['typecheck', ...npmRun('typecheck')], ['lint', ...npmRun('lint')], ['format check', ...npmRun('format:check')]));
  const endToEnd = (async () => {
    if (!(await built) || !(await runtime) || failed) return;
    e2eRan = true;
    // run-e2e holds its integration tests until its stdin closes: when the unit tests are done.
    await step(e2e, 'node', ['test/e2e/run-e2e.mjs', '--vsix', 'dist/swe-explore-inspector.vsix', '--integration-after-stdin'], {
      live: true,
      onSpawn: (child) => {
        child.stdin.on('error', () => {}); // it may have ended (and closed its stdin) first
        void unit.finally(() => child.stdin.end());
      },
    });
  })();
  await Promise.all([unit, checked, endToEnd]);
}
await runtime;
if (!e2eRan) {
  failed = true;
  steps.push({ name: e2e, status: 'skipped', start: Date.now() - t0, end: Date.now() - t0 });
}
rmSync(logs, { recursive: true, force: true });

// The table: each step's span on the run's clock shows what ran side by side.
const total = Date.now() - t0;
const rows = steps.map((s) => [s.name, s.status, s.status === 'skipped' ? '' : seconds(s.end - s.start), s.status === 'skipped' ? '' : `${seconds(s.start)} – ${seconds(s.end)}`]);
rows.push(['total', failed ? 'FAILED' : 'ok', `${Math.floor(total / 60000)} min ${String(Math.round((total % 60000) / 1000)).padStart(2, '0')} s`, '']);
const header = ['step', 'result', 'took', 'from – to (since start)'];
const widths = header.map((h, i) => rows.reduce((width, row) => Math.max(width, row[i].length), h.length));
const line = (cells) =>
  cells
    .map((c, i) => c.padEnd(widths[i]))
    .join('  ')
    .trimEnd();
console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const row of rows) console.log(line(row));
process.exit(failed ? 1 : 0);
