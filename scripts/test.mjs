// `npm test`: every check of the project, as fast as a 2-core machine allows, then a table of
// what took how long.
//
//   1. setup: the project's node_modules (scripts/setup.sh --node-only) — everything else needs
//      them — while the VS Code runtime that only the end-to-end tests need (Debian packages,
//      ripgrep cache, code-server: scripts/setup.sh --runtime-only) installs in the background;
//   2. side by side: the unit/property/conformance/CLI tests (two test files at a time) in one lane;
//      typecheck, lint, format check, then build + package (the .vsix the e2e tests install) in
//      the other;
//   3. the end-to-end tests in code-server, once the runtime is ready and everything else passed.
//
// A failure stops what has not started yet; what runs is let finish (its output is still worth
// reading). The output of a step that runs beside others is printed whole when it ends, so it never
// interleaves; the end-to-end tests, which run alone, print as they go. Exit 1 when anything failed.
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
function step(name, command, args, { background = false, live = false } = {}) {
  if (failed && !background) {
    steps.push({ name, status: 'skipped', start: Date.now() - t0, end: Date.now() - t0 });
    return Promise.resolve(false);
  }
  const start = Date.now();
  const logFile = path.join(logs, `${steps.length}-${name.replace(/\W+/g, '-')}.log`);
  const fd = live ? 'inherit' : openSync(logFile, 'w');
  if (!background) console.log(`=== ${name} …`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', fd, fd], env: { ...process.env, FORCE_COLOR: '0' } });
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
if (await step('setup: node_modules', 'bash', ['scripts/setup.sh', '--node-only'])) {
  await Promise.all([
    lane(['unit, property, conformance and CLI tests', ...npmRun('test:unit')]),
    // `package` builds dist/ for production (vscode:prepublish) to pack the .vsix; `build` then
    // writes the development bundles (with source maps) the e2e tests load with a development path.
    lane(['typecheck', ...npmRun('typecheck')], ['lint', ...npmRun('lint')], ['format check', ...npmRun('format:check')], ['package (.vsix)', ...npmRun('package')], ['build', ...npmRun('build')]),
  ]);
}
const e2e = 'end-to-end tests (code-server + Chromium)';
if ((await runtime) && !failed) await step(e2e, 'node', ['test/e2e/run-e2e.mjs', '--vsix', 'dist/swe-explore-inspector.vsix'], { live: true });
else {
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
