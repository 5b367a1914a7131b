// Browser checks: Deep links and added runs. Same shape as checks.mjs (helpers in support.mjs).
//
// What a person does and sees: "SWE-Explore: Copy Link" from the palette puts the link to the open
// instance, file and cursor line on the clipboard; following a link opens that instance and file
// at that line with the link's explorer and budget.
//
// Following a link in code-server: the browser cannot hand a `vscode://` URI to the page (the OS
// gives such URIs to a desktop VS Code), and code-server's `/callback` route only delivers answers
// to callback URIs the workbench itself created (`vscode-reqid` of a pending request). What does
// reach the extension's URI handler is the workbench's URL service, which "Developer: Open URL"
// (`workbench.action.url.openUrl`) feeds: it routes by the authority (`publisher.name`) whatever
// the scheme, so the copied `vscode://` link itself is pasted there, and VS Code first asks
// "Allow 'SWE-Explore Inspector' extension to open this URI?" as it does for any untrusted link.
import { INSTANCE, openWorkbench, runCommand, openDemoInstance } from './support.mjs';

const AUTHORITY = 'swe-explore.swe-explore-inspector';
/** A second demo instance, so that following a link visibly moves the inspector elsewhere. */
const OTHER_INSTANCE = 'acme__inventory-102';

/** The parameters of a copied link as the URI handler will read them (VS Code decodes the query once first). */
function linkParams(link) {
  const query = link.slice(link.indexOf('?') + 1);
  return Object.fromEntries(new URLSearchParams(decodeURIComponent(query)));
}

/** Polls `test` until it returns true; rejects after `ms`. */
async function until(test, ms) {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Follows `link` the way a person can in code-server: "Developer: Open URL", paste the link, and
 * allow the extension to open it in the dialog VS Code shows for a link from outside.
 */
async function followLink(ctx, link) {
  const { page } = ctx;
  await runCommand(page, 'Developer: Open URL');
  // The command's input box replaces the palette; text typed before it shows would go to the palette.
  await page.locator('.quick-input-widget .quick-input-message', { hasText: 'URL to open' }).waitFor({ timeout: 30_000 });
  await page.locator('.quick-input-widget input').fill(link);
  await page.keyboard.press('Enter');
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'extension to open this URI' });
  await dialog.waitFor({ timeout: 30_000 });
  ctx.log(`dialog: ${((await dialog.locator('.dialog-message-text').textContent()) ?? '').trim()}`);
  await dialog.locator('.monaco-button', { hasText: /^Open$/ }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
}

/**
 * Waits until the workbench shows what following a link should give: the status bar names the
 * instance, explorer and budget, the active editor is `file` of the instance's snapshot, and the
 * cursor is on `line` (status bar and the editor's highlighted line number). A refusal fails at once.
 */
async function expectFollowed(ctx, { instance, explorer, budget, file, line }) {
  const { page } = ctx;
  const refused = page.locator('.notification-toast', { hasText: 'link refused' }).first();
  const summary = `${instance} · ${explorer} · nDCG@${budget} `;
  const status = page.locator('.statusbar-item', { hasText: summary }).first();
  const shown = await Promise.race([status.waitFor({ timeout: 60_000 }).then(() => 'status'), refused.waitFor({ timeout: 60_000 }).then(() => 'refused')]);
  if (shown === 'refused') throw new Error(`the link was refused: ${await refused.textContent()}`);
  ctx.log(`status bar: ${((await status.textContent()) ?? '').trim()}`);
  const tab = page.locator(`.tab.active[aria-label*="${file}"]`).first();
  await tab.waitFor({ timeout: 30_000 });
  // Both demo instances have the same file names: the breadcrumbs (… › instance › inventory › file) tell them apart.
  const crumbs = page.locator('.editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item');
  const want = `${instance}/inventory/${file}`;
  let shownPath = '';
  await until(async () => {
    shownPath = (await crumbs.allTextContents()).map((p) => p.trim()).join('/');
    return shownPath.includes(want);
  }, 30_000).catch(() => {
    throw new Error(`the active editor is not ${want}: breadcrumbs ${shownPath}`);
  });
  ctx.log(`breadcrumbs: ${shownPath}`);
  await page
    .locator('.statusbar-item', { hasText: new RegExp(`Ln ${line},`) })
    .first()
    .waitFor({ timeout: 30_000 });
  const activeLine = page.locator('.editor-group-container.active .active-line-number').first();
  await activeLine.waitFor({ timeout: 30_000 });
  const number = ((await activeLine.textContent()) ?? '').trim();
  if (number !== String(line)) throw new Error(`the editor's highlighted line is ${number}, expected ${line}`);
}

/**
 * Opens the demo instance (Open Instance puts the cursor on the first line of the main file's first
 * core region, 39) and runs "SWE-Explore: Copy Link"; returns the status bar message and the clipboard.
 */
async function openInstanceAndCopyLink(ctx) {
  const { page } = ctx;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openWorkbench(ctx);
  await openDemoInstance(page);
  await page
    .locator('.statusbar-item', { hasText: /Ln 39,/ })
    .first()
    .waitFor({ timeout: 30_000 });
  await page.evaluate(() => navigator.clipboard.writeText('(nothing yet)'));
  await runCommand(page, 'SWE-Explore: Copy Link');
  const status = page.locator('.statusbar-item', { hasText: 'Copied link to' }).first();
  await status.waitFor({ timeout: 30_000 });
  const statusText = ((await status.textContent()) ?? '').trim();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  return { statusText, link };
}

export const linkChecks = [
  {
    name: 'Copy Link from the palette puts the link to the instance, file and cursor line on the clipboard',
    run: async (ctx) => {
      const { statusText, link } = await openInstanceAndCopyLink(ctx);
      ctx.log(`status bar: ${statusText}`);
      if (!statusText.includes(`${INSTANCE} · agent · B=500 · inventory/stock.py:39`)) throw new Error(`status bar message does not describe the link: ${statusText}`);
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
  {
    name: 'A deep link followed through Developer: Open URL opens its instance, file and line with its explorer and budget',
    run: async (ctx) => {
      const { link: copied } = await openInstanceAndCopyLink(ctx);
      ctx.log(`copied: ${copied}`);

      // A hand-written link elsewhere: another instance, explorer, budget, file and line.
      const elsewhere = `vscode://${AUTHORITY}/open?instance=${OTHER_INSTANCE}&explorer=bm25&budget=300&path=inventory/pricing.py&line=60`;
      await followLink(ctx, elsewhere);
      await expectFollowed(ctx, { instance: OTHER_INSTANCE, explorer: 'bm25', budget: 300, file: 'pricing.py', line: 60 });
      await ctx.screenshot('deep-link-opened');

      // The copied link (escaped twice, see formatDeepLink) leads back to where it was copied.
      await followLink(ctx, copied);
      await expectFollowed(ctx, { instance: INSTANCE, explorer: 'agent', budget: 500, file: 'stock.py', line: 39 });
      await ctx.screenshot('deep-link-followed-back');
    },
  },
];

export const checks = linkChecks;
