// `npm run screenshot`: a look at the extension without opening a browser yourself.
// Starts a throw-away code-server the way the e2e harness does, opens demo/ with this checkout as
// the extension under development, saves test-results/screenshot.png and stops everything.
//
// Options: --open <file>  file to open in an editor (relative to the workspace)
//          --out <png>    output path (default test-results/screenshot.png)
//          --wait <ms>    extra time after the workbench is ready, for activation (default 5000)
//          --workspace <dir> (or SWE_EXPLORE_WORKSPACE) folder to open (default demo/)
//          --theme <label> colour theme as the theme picker lists it ("Dark High Contrast", "Light
//                          High Contrast", "Dark Modern"…); chosen with Ctrl+K Ctrl+T, since the
//                          web workbench starts in Light+ whatever workbench.colorTheme says
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
    theme: { type: 'string' },
  },
});

/** Picks a colour theme with the theme picker (Ctrl+K Ctrl+T), typing its label. */
async function chooseTheme(page, label) {
  const input = page.locator('.quick-input-widget:not([style*="display: none"]) input').first();
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+T');
  await input.waitFor({ timeout: 30_000 });
  await page.keyboard.type(label);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 30_000 });
}

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
  if (opts.theme) await chooseTheme(page, opts.theme);
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
