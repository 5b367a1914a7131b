// End-to-end tests in a real VS Code: code-server 4.100.3 (VS Code 1.100.3) driven by
// playwright-core with Debian's Chromium. `npm run test:e2e`; needs `npm run build` first.
//
// Phase A runs the integration test module dist/test/runner.js (the @vscode/test-electron
// convention: a module exporting `run()`) inside the real Node extension host. code-server has no
// --extensionDevelopmentPath flag, but its workbench takes the same two settings from the `payload`
// query parameter and reports the result through `window.codeAutomationExit(code)`.
//
// Phase B runs the browser checks exported by ./checks.mjs: what a person sees.
//
// Both phases share one code-server, into which the packaged .vsix is installed before it starts
// (the check of the packaged extension opens a window without a development path; every other
// window runs the development copy). Phase A runs alone, since it measures latency targets (first,
// or last with --integration-after-stdin); phase B runs its checks in lanes side by side, each on
// its own copy of the workspace and in its own Chromium (the clipboard is per browser, and several
// checks copy deep links); a lane takes the next check of one shared queue when it is free, so a
// long check never holds back the checks dealt after it. A check mostly waits for the workbench
// (with two lanes, the e2e process and its children used 0.6 of one core on average), so three lanes share two cores well.
//
// Options:  --workspace <dir>  (or SWE_EXPLORE_WORKSPACE)  folder to open; default a copy of demo/
//                              (everything then runs one after the other: they would share it)
//           --lanes <n>        browser-check lanes side by side (default 3)
//           --vsix <file>      the packaged extension to install (npm test packs it just before);
//                              default: `npm run package` now, then `npm run build` again
//           --grep <text>      run only the browser checks whose name contains <text>
//           --runner <file>    integration test module to run instead of dist/test/runner.js
//           --checks <file>    browser checks module to run instead of ./checks.mjs
//           --skip-integration / --only-integration
//           --serial           every check in one lane (--lanes 1)
//           --integration-after-stdin  phase B first, then phase A once stdin is closed, on its own
//                              copy of the workspace (npm test closes it when its unit tests are
//                              done, so that phase A, which measures latency targets, runs alone)
//           --keep-tmp         keep the temp dir (code-server's log and user data)
// Env:      E2E_INTEGRATION_TIMEOUT_MS, E2E_CHECK_TIMEOUT_MS (default 180000 each)
//           The extension host gets SWE_EXPLORE_TEST_WORKSPACE and SWE_EXPLORE_TEST_RESULTS.
// Output: one `ok`/`FAIL` line per check and the closing line `N passed, N failed`; exit 1 on failure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { launchBrowser, makeTmpDir, readTail, repoRoot, resolveWorkspace, startCodeServer } from './code-server.mjs';

const { values: opts } = parseArgs({
  options: {
    workspace: { type: 'string' },
    grep: { type: 'string' },
    runner: { type: 'string' },
    checks: { type: 'string' },
    vsix: { type: 'string' },
    lanes: { type: 'string', default: '3' },
    'skip-integration': { type: 'boolean', default: false },
    'only-integration': { type: 'boolean', default: false },
    serial: { type: 'boolean', default: false },
    'integration-after-stdin': { type: 'boolean', default: false },
    'keep-tmp': { type: 'boolean', default: false },
  },
});

/** Words of the first-run walkthrough offer (src/extension/extension.ts), hidden in screenshots. */
const WALKTHROUGH_OFFER = 'new here? The walkthrough';
const INTEGRATION_TIMEOUT_MS = Number(process.env.E2E_INTEGRATION_TIMEOUT_MS) || 180_000;
const CHECK_TIMEOUT_MS = Number(process.env.E2E_CHECK_TIMEOUT_MS) || 180_000;
const resultsDir = path.join(repoRoot, 'test-results');
const runnerPath = path.resolve(opts.runner ?? path.join(repoRoot, 'dist/test/runner.js'));
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const note = (s) => console.log(`  · ${s}`);

let passed = 0;
let failed = 0;
function report(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`${what} timed out after ${ms / 1000} s`);
      err.stack = err.message; // where the timer fired says nothing useful
      reject(err);
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * While extension tests run, the workbench logs the extension host's console output through its
 * log service, as "%c INFO color: #33f <text>" (ERR/WARN for console.error/warn) — the same shape
 * as the workbench's own log lines. So: take every log-service line, drop the workbench's own
 * chatter (known patterns), and forward the rest as the runner's output.
 */
const LOG_LINE = /^%c\s*(INFO|WARN|ERR|DEBUG|TRACE)\s+color:\s*#[0-9a-f]+;?\s?(.*)$/is;
const WORKBENCH_CHATTER = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
  /^Started local extension host/,
  /^Extension host \(.*\) is (started|unresponsive|responsive)/,
  /^\[(File Watcher|perf|Settings Sync|Extensions?)\b/,
  /^Loading development extension at/,
  /^No search provider registered for scheme/,
];
function classifyConsole(msg) {
  const m = LOG_LINE.exec(msg.text());
  if (m && !WORKBENCH_CHATTER.some((re) => re.test(m[2]))) {
    return { runner: true, level: m[1].toUpperCase(), text: m[2] };
  }
  return {
    runner: false,
    text: `[${msg.type()}] ${msg
      .text()
      .replace(/%c|color: #[0-9a-f]+;?/gi, '')
      .trim()}`,
  };
}

// ---- teardown, also on signals and crashes -----------------------------------------------
const tmpDir = makeTmpDir('swe-explore-e2e-');
let server;
/** The browsers of phase B and (when the phases run side by side) phase A. */
const browsers = [];
let tearingDown;
async function teardown() {
  tearingDown ??= (async () => {
    await Promise.all(browsers.map((b) => withTimeout(b.close(), 10_000, 'browser.close').catch(() => {})));
    if (server) {
      await server.stop();
      fs.mkdirSync(resultsDir, { recursive: true });
      try {
        fs.copyFileSync(server.logFile, path.join(resultsDir, 'code-server.log'));
      } catch {
        /* no log */
      }
    }
    if (!opts['keep-tmp']) fs.rmSync(tmpDir, { recursive: true, force: true });
    else note(`temp dir kept: ${tmpDir}`);
  })();
  return tearingDown;
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.log(`\n${sig}: stopping code-server and the browser`);
    teardown().finally(() => process.exit(130));
  });
}
process.on('unhandledRejection', (err) => {
  console.error('unhandled rejection:', err);
  teardown().finally(() => process.exit(1));
});

// ---- Phase A: integration tests in the extension host ------------------------------------
async function runIntegration(browser, ws) {
  const shown = runnerPath.startsWith(repoRoot + path.sep) ? path.relative(repoRoot, runnerPath) : runnerPath;
  const name = `integration tests (${shown} in the VS Code extension host)`;
  if (!fs.existsSync(runnerPath)) {
    report(name, false, `${path.relative(repoRoot, runnerPath)} is missing; run npm run build first`);
    return;
  }
  const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  const noise = [];
  let finished = false;
  try {
    // Must be exposed before the workbench loads: it calls this when run() settles.
    let resolveExit;
    const exited = new Promise((resolve) => {
      resolveExit = resolve;
    });
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
    page.on('console', (msg) => {
      if (finished) return; // page shutdown chatter
      const c = classifyConsole(msg);
      if (c.runner) {
        const tag = c.level === 'INFO' ? '' : `${c.level} `;
        for (const line of c.text.split('\n')) console.log(`  [runner] ${tag}${line}`);
      } else {
        noise.push(c.text.slice(0, 600));
      }
    });
    page.on('pageerror', (err) => noise.push(`[pageerror] ${err.message}`));
    await page.goto(
      server.workbenchUrl(ws, [
        ['extensionDevelopmentPath', server.remote(repoRoot)],
        ['extensionTestsPath', server.remote(runnerPath)],
      ]),
    );
    const code = await withTimeout(exited, INTEGRATION_TIMEOUT_MS, 'waiting for codeAutomationExit');
    await new Promise((r) => setTimeout(r, 300)); // let the last console lines arrive
    finished = true;
    report(name, code === 0, `exit code ${code}, ${elapsed()}`);
  } catch (err) {
    finished = true;
    const relevant = noise.filter((l) => !WORKBENCH_CHATTER.some((re) => re.test(l.replace(/^\[\w+\]\s*(INFO|WARN|ERR)?\s*/, ''))));
    for (const line of relevant.slice(-30)) console.log(`  [console] ${line}`);
    await page.screenshot({ path: path.join(resultsDir, 'integration-failure.png') }).catch(() => {});
    report(name, false, err.message);
  } finally {
    await page.close().catch(() => {});
  }
}

// ---- Phase B: browser checks --------------------------------------------------------------
async function selectedChecks() {
  if (opts['only-integration']) return [];
  const checksUrl = opts.checks ? pathToFileURL(path.resolve(opts.checks)).href : './checks.mjs';
  const { checks } = await import(checksUrl);
  return checks.filter((c) => !opts.grep || c.name.includes(opts.grep));
}

/** Runs checks taken one by one from `queue` (shared with the other lanes) until it is empty. */
async function runChecks(browser, ws, queue) {
  for (let check = queue.shift(); check !== undefined; check = queue.shift()) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    const ctx = {
      page,
      browser,
      host: server.host,
      remote: server.remote,
      workbenchUrl: server.workbenchUrl,
      repoRoot,
      workspace: ws,
      tmpDir,
      log: (s) => console.log(`  [${check.name}] ${s}`),
      screenshot: async (name) => {
        const file = path.join(resultsDir, `${name}.png`);
        // Every check's window is a first run, so the walkthrough offer sits in the corner of each
        // screenshot, over what it shows: hidden for the picture only (not closed: no focus moves).
        await page.evaluate((text) => {
          for (const toast of document.querySelectorAll('.notification-toast')) {
            if (toast.textContent?.includes(text)) (toast.closest('.notification-toast-container') ?? toast).style.visibility = 'hidden';
          }
        }, WALKTHROUGH_OFFER);
        await page.screenshot({ path: file });
        await page.evaluate(() => {
          for (const container of document.querySelectorAll('.notification-toast-container, .notification-toast')) if (container.style.visibility === 'hidden') container.style.visibility = '';
        });
        return file;
      },
    };
    try {
      await withTimeout(check.run(ctx), check.timeoutMs ?? CHECK_TIMEOUT_MS, check.name);
      report(check.name, true, elapsed());
    } catch (err) {
      const shot = path.join(resultsDir, `failure-${check.name.replace(/[^\w.-]+/g, '_')}.png`);
      await page.screenshot({ path: shot }).catch(() => {});
      report(check.name, false, `${err?.stack ?? err}\n       screenshot: ${path.relative(repoRoot, shot)}`);
    } finally {
      await page.close().catch(() => {});
    }
  }
}

/** Resolves once this process's stdin has ended (at once if it already has). */
function stdinClosed() {
  return new Promise((resolve) => {
    if (process.stdin.readableEnded || process.stdin.destroyed) resolve();
    process.stdin.on('end', resolve);
    process.stdin.on('close', resolve);
    process.stdin.resume();
  });
}

// ---- main ---------------------------------------------------------------------------------
try {
  fs.mkdirSync(resultsDir, { recursive: true });
  for (const f of fs.readdirSync(resultsDir)) {
    if (/^(failure-.*|integration-failure)\.png$/.test(f)) fs.rmSync(path.join(resultsDir, f)); // stale from a previous run
  }
  const override = opts.workspace ?? process.env.SWE_EXPLORE_WORKSPACE;
  const { folder: ws, isTemp } = resolveWorkspace(tmpDir, override, { copy: true });
  note(`workspace: ${isTemp ? ws : path.relative(repoRoot, ws) || '.'}`);
  const checks = await selectedChecks();
  // Lanes only on copies of their own (several checks change workspace settings and files):
  // never on a workspace given by name.
  const parallel = !opts.serial && override === undefined;
  const laneCount = checks.length === 0 ? 0 : parallel ? Math.max(1, Math.min(Number(opts.lanes) || 1, checks.length)) : 1;
  const queue = [...checks];
  const lanes = Array.from({ length: laneCount }, (_, lane) => ({
    workspace: lane === 0 ? ws : resolveWorkspace(tmpDir, undefined, { copy: true, name: `demo-lane-${lane + 1}` }).folder,
  }));
  // After the checks, phase A gets a copy the checks never touched (they change settings and files).
  const integrationLast = opts['integration-after-stdin'] && !opts['skip-integration'];
  const wsIntegration = integrationLast && laneCount > 0 && parallel ? resolveWorkspace(tmpDir, undefined, { copy: true, name: 'demo-integration' }).folder : ws;
  let vsix = opts.vsix === undefined ? undefined : path.resolve(opts.vsix);
  if (vsix === undefined && checks.some((c) => c.needsVsix)) {
    // Packing rebuilds dist/ for production (vscode:prepublish); the development build comes back after.
    execFileSync('npm', ['run', '--silent', 'package'], { cwd: repoRoot, stdio: 'ignore' });
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'ignore' });
    vsix = path.join(repoRoot, 'dist', 'swe-explore-inspector.vsix');
    note(`packaged ${path.relative(repoRoot, vsix)}, ${elapsed()}`);
  }
  server = await startCodeServer({
    tmpDir,
    log: note,
    install: vsix === undefined ? [] : [vsix],
    // The extension host inherits code-server's environment, so the test runner can find these.
    env: { SWE_EXPLORE_TEST_WORKSPACE: wsIntegration, SWE_EXPLORE_TEST_RESULTS: resultsDir },
  });
  const launched = await Promise.all(Array.from({ length: Math.max(1, laneCount) }, () => launchBrowser()));
  for (const launchedBrowser of launched) browsers.push(launchedBrowser);
  note(`chromium ${launched[0].version()} launched${launched.length > 1 ? ` ${launched.length} times (lanes of checks)` : ''}, ${elapsed()}`);
  const runLanes = () => Promise.all(lanes.map((lane, i) => runChecks(launched[i], lane.workspace, queue)));
  if (integrationLast) {
    await runLanes();
    await stdinClosed();
    note(`stdin closed: phase A starts, ${elapsed()}`);
    await runIntegration(launched[0], wsIntegration);
  } else {
    if (!opts['skip-integration']) await runIntegration(launched[0], ws);
    await runLanes();
  }
} catch (err) {
  report('e2e harness', false, err?.stack ?? String(err));
  if (server) console.log(readTail(server.logFile));
}
await teardown();
console.log(`  · finished in ${elapsed()}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
