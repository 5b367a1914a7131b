// Browser checks: Deep links and added runs. Same shape as checks.mjs (helpers in support.mjs).
//
// A real `vscode://` URI cannot be driven through code-server in a headless browser (the OS hands
// such URIs to a desktop VS Code; code-server has no route that feeds one to the extension's URI
// handler), so following a link is covered by the integration cases (`api.links.handleLink`, the
// handler's own code path). Here: what a person does and sees — "SWE-Explore: Copy Link" from the
// palette puts the link to the open instance, file and cursor line on the clipboard, and the status
// bar says so.
import { INSTANCE, openWorkbench, runCommand } from './support.mjs';

const AUTHORITY = 'swe-explore.swe-explore-inspector';

/** The parameters of a copied link as the URI handler will read them (VS Code decodes the query once first). */
function linkParams(link) {
  const query = link.slice(link.indexOf('?') + 1);
  return Object.fromEntries(new URLSearchParams(decodeURIComponent(query)));
}

export const linkChecks = [
  {
    name: 'Copy Link from the palette puts the link to the instance, file and cursor line on the clipboard',
    run: async (ctx) => {
      const { page } = ctx;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await openWorkbench(ctx);
      await runCommand(page, 'SWE-Explore: Open Instance', { title: 'Open Instance', choice: INSTANCE });
      await page.waitForSelector('.tab.active[aria-label*="stock.py"]', { timeout: 60_000 });
      // Open Instance puts the cursor on the first line of the main file's first core region (39).
      await page
        .locator('.statusbar-item', { hasText: /Ln 39,/ })
        .first()
        .waitFor({ timeout: 30_000 });
      await page.evaluate(() => navigator.clipboard.writeText('(nothing yet)'));
      await runCommand(page, 'SWE-Explore: Copy Link');
      const status = page.locator('.statusbar-item', { hasText: 'Copied link to' }).first();
      await status.waitFor({ timeout: 30_000 });
      const statusText = (await status.textContent()) ?? '';
      ctx.log(`status bar: ${statusText.trim()}`);
      if (!statusText.includes(`${INSTANCE} · agent · B=500 · inventory/stock.py:39`)) throw new Error(`status bar message does not describe the link: ${statusText}`);
      const link = await page.evaluate(() => navigator.clipboard.readText());
      ctx.log(`clipboard: ${link}`);
      if (!link.startsWith(`vscode://${AUTHORITY}/open?`)) throw new Error(`the clipboard holds no deep link: ${link}`);
      const params = linkParams(link);
      const want = { instance: INSTANCE, explorer: 'agent', budget: '500', path: 'inventory/stock.py', line: '39' };
      for (const [key, value] of Object.entries(want)) {
        if (params[key] !== value) throw new Error(`link parameter ${key} is ${JSON.stringify(params[key])}, expected ${JSON.stringify(value)} (link ${link})`);
      }
      if (Object.keys(params).length !== Object.keys(want).length) throw new Error(`unexpected parameters in ${link}`);
      await ctx.screenshot('deep-link');
    },
  },
];

export const checks = linkChecks;
