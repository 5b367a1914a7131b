// `npm run screenshot`: a look at the extension without opening a browser yourself.
// Starts a throw-away code-server the way the e2e harness does, opens demo/ with this checkout as
// the extension under development, saves test-results/screenshot.png and stops everything.
//
// Options: --open <file>  file to open in an editor (relative to the workspace)
//          --out <png>    output path (default test-results/screenshot.png)
//          --wait <ms>    extra time after the workbench is ready, for activation (default 5000)
//          --workspace <dir> (or SWE_EXPLORE_WORKSPACE) folder to open (default demo/)
// Needs a build (`npm run build`); the npm script runs setup and build first.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, makeTmpDir, repoRoot, resolveWorkspace, startCodeServer } from '../test/e2e/code-server.mjs';

const { values: opts } = parseArgs({
  options: {
    open: { type: 'string' },
    out: { type: 'string', default: path.join(repoRoot, 'test-results/screenshot.png') },
    wait: { type: 'string', default: '5000' },
    workspace: { type: 'string' },
  },
});

const tmpDir = makeTmpDir('swe-explore-shot-');
let server;
let browser;
let exitCode = 0;
const cleanup = async () => {
  await browser?.close().catch(() => {});
  await server?.stop();
  fs.rmSync(tmpDir, { recursive: true, force: true });
};
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    cleanup().finally(() => process.exit(130));
  });
}

try {
  const { folder: ws } = resolveWorkspace(tmpDir, opts.workspace ?? process.env.SWE_EXPLORE_WORKSPACE);
  server = await startCodeServer({ tmpDir, log: (s) => console.log(s) });
  browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  const payload = [['extensionDevelopmentPath', server.remote(repoRoot)]];
  if (opts.open) payload.push(['openFile', server.remote(path.resolve(ws, opts.open))]);
  await page.goto(server.workbenchUrl(ws, payload));
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 90_000 }).catch(() => {});
  if (opts.open) await page.waitForSelector('.monaco-editor .view-lines', { timeout: 60_000 }).catch(() => {});
  await page.waitForTimeout(Number(opts.wait));
  fs.mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
  await page.screenshot({ path: opts.out });
  console.log(`saved ${path.relative(process.cwd(), path.resolve(opts.out)) || opts.out}`);
} catch (err) {
  console.error(`screenshot failed: ${err?.stack ?? err}`);
  exitCode = 1;
}
await cleanup();
process.exit(exitCode);
