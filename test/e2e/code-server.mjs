// Starts a throw-away code-server (VS Code 1.100.3 in the browser) and Debian's Chromium for
// the end-to-end checks and `npm run screenshot`. Shared so both start VS Code the same way.
//
// Everything code-server writes goes into one temp dir: user data, extensions, its config and
// the XDG dirs it would otherwise fill in $HOME. It listens on 127.0.0.1 only, on a free port,
// and runs in its own process group so stopping it also ends the extension hosts it forked
// (they would otherwise linger for the 3 h reconnection grace time).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const codeServerBin = path.join(repoRoot, 'tools/vscode-runtime/node_modules/.bin/code-server');
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Settings that keep a fresh workbench quiet: no walkthrough editor, no update/gallery traffic. */
export const quietSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  // demo/ sits inside this git repo; without this a "git repository found in parent folders" toast
  // covers part of every screenshot.
  'git.openRepositoryInParentFolders': 'never',
  // Asked for, but the web workbench has so far always started in Light+ (every screenshot; Ctrl+K
  // Ctrl+T does switch themes): the browser checks read the theme kind from the page and match the
  // decorations by that kind's contributed colours, so they hold in either.
  'workbench.colorTheme': 'Default Dark Modern',
  // Sticky scroll pins enclosing class/def lines over the top of the editor, right where Open
  // Instance reveals the first core region: a check hovering a line there would hit the overlay.
  'editor.stickyScroll.enabled': false,
};

/** The code-server flags shared by the e2e harness, the screenshot script and `npm start`. */
export const commonFlags = ['--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'];

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder the workbench opens: `$SWE_EXPLORE_WORKSPACE` (or `override`), else `demo/` when it
 * exists — copied to `tmpDir`/`name` when `copy` is set, so that tests which change workspace
 * settings never write into the repository — else a temp folder holding one small file.
 */
export function resolveWorkspace(tmpDir, override = process.env.SWE_EXPLORE_WORKSPACE, { copy = false, name = 'demo' } = {}) {
  if (override) {
    const ws = path.resolve(override);
    if (!fs.existsSync(ws)) throw new Error(`workspace folder does not exist: ${ws}`);
    return { folder: ws, isTemp: false };
  }
  const demo = path.join(repoRoot, 'demo');
  if (fs.existsSync(demo) && copy) {
    const ws = path.join(tmpDir, name);
    fs.cpSync(demo, ws, { recursive: true });
    return { folder: ws, isTemp: true };
  }
  if (fs.existsSync(demo)) return { folder: demo, isTemp: false };
  const ws = path.join(tmpDir, 'workspace');
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, 'hello.py'), 'def hello():\n    return "hello"\n\n\nprint(hello())\n');
  return { folder: ws, isTemp: true };
}

/**
 * Starts code-server and waits for /healthz. Returns helpers plus `stop()`, which ends the whole
 * process group (SIGTERM, then SIGKILL after 5 s). A process 'exit' hook also kills the group,
 * so a crash of the calling script leaves nothing running. `install`: .vsix files installed into
 * its extensions folder first, as `code-server --install-extension` does for a user; a window
 * opened with an `extensionDevelopmentPath` still runs the development copy of the same extension.
 *
 * @param {{ tmpDir: string, env?: Record<string,string>, extensionsDir?: string, install?: string[], log?: (s: string) => void }} opts
 */
export async function startCodeServer({ tmpDir, env = {}, extensionsDir, install = [], log = () => {} }) {
  if (!fs.existsSync(codeServerBin)) {
    throw new Error(`code-server is not installed (${codeServerBin}); run: bash scripts/setup.sh`);
  }
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const userDataDir = path.join(tmpDir, 'user-data');
  const extDir = extensionsDir ?? path.join(tmpDir, 'extensions');
  const configFile = path.join(tmpDir, 'config.yaml');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extDir, { recursive: true });
  fs.mkdirSync(path.join(tmpDir, 'tmp'), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User/settings.json'), JSON.stringify(quietSettings, null, 2));
  // With an existing --config file code-server does not write a default one into $HOME.
  fs.writeFileSync(configFile, `bind-addr: ${host}\nauth: none\ncert: false\n`);
  const logFile = path.join(tmpDir, 'code-server.log');
  const xdg = { XDG_CONFIG_HOME: path.join(tmpDir, 'xdg-config'), XDG_DATA_HOME: path.join(tmpDir, 'xdg-data') };
  for (const vsix of install) {
    const started = Date.now();
    execFileSync(codeServerBin, ['--user-data-dir', userDataDir, '--extensions-dir', extDir, '--install-extension', vsix], {
      env: { ...process.env, ...xdg, EXTENSIONS_GALLERY: '{"serviceUrl":""}' },
      stdio: 'ignore',
    });
    log(`installed ${path.basename(vsix)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const logFd = fs.openSync(logFile, 'w');

  const args = ['--config', configFile, '--bind-addr', host, ...commonFlags, '--user-data-dir', userDataDir, '--extensions-dir', extDir, '--ignore-last-opened'];
  const child = spawn(codeServerBin, args, {
    cwd: repoRoot,
    detached: true, // own process group: stop() kills code-server and every extension host
    stdio: ['ignore', logFd, logFd],
    env: {
      ...process.env,
      EXTENSIONS_GALLERY: '{"serviceUrl":""}', // no open-vsx requests, no "unknown error" toasts
      ...xdg,
      // Extension hosts and the git extension create vscode-ipc-*/vscode-git-* sockets in the temp
      // dir and never remove them; keep them in ours, which is deleted afterwards.
      TMPDIR: path.join(tmpDir, 'tmp'),
      ...env,
    },
  });
  fs.closeSync(logFd);
  const pid = child.pid;
  let exited = false;
  let exitInfo = '';
  child.on('exit', (code, signal) => {
    exited = true;
    exitInfo = `code ${code}, signal ${signal}`;
  });
  const killHook = () => {
    if (groupAlive(pid)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  };
  process.on('exit', killHook);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    for (let i = 0; i < 50 && groupAlive(pid); i++) await sleep(100);
    if (groupAlive(pid)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      for (let i = 0; i < 20 && groupAlive(pid); i++) await sleep(100);
    }
    process.removeListener('exit', killHook);
  };

  const started = Date.now();
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`code-server exited during start (${exitInfo}); log:\n${readTail(logFile)}`);
    }
    try {
      const res = await fetch(`http://${host}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - started > 30_000) {
      await stop();
      throw new Error(`code-server did not answer /healthz within 30 s; log:\n${readTail(logFile)}`);
    }
    await sleep(100);
  }
  log(`code-server ready on http://${host}/ in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${pid})`);

  const remote = (p) => `vscode-remote://${host}${path.resolve(p).split(path.sep).map(encodeURIComponent).join('/')}`;
  /** Workbench URL for `folder` with a `payload` (list of [key, value] pairs), e.g. extensionDevelopmentPath. */
  const workbenchUrl = (folder, payloadEntries = []) => {
    let url = `http://${host}/?folder=${encodeURIComponent(path.resolve(folder))}`;
    if (payloadEntries.length) url += `&payload=${encodeURIComponent(JSON.stringify(payloadEntries))}`;
    return url;
  };
  return { host, port, pid, logFile, userDataDir, extensionsDir: extDir, remote, workbenchUrl, stop };
}

export function readTail(file, lines = 40) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Launches headless Chromium through playwright-core. Playwright's own signal handlers are off so
 * the calling script decides the order of shutdown; its exit hook still kills the browser.
 */
export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}; run: bash scripts/setup.sh`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Makes a fresh temp dir for one run. */
export function makeTmpDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
