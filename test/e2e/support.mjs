// Helpers shared by the browser check modules (checks.mjs and checks-*.mjs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const INSTANCE = 'acme__inventory-101';
export const MAIN_FILE = 'demo/repos/acme__inventory-101/inventory/stock.py';

/** A contributed colour's default for the theme kind, as [r, g, b, alpha]. */
export function themeColor(repoRoot, id, kind) {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const hex = manifest.contributes.colors.find((c) => c.id === `sweExplore.${id}`).defaults[kind];
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return [r, g, b, hex.length === 9 ? parseInt(hex.slice(7, 9), 16) / 255 : 1];
}

// Runs in the page: whether a computed CSS colour equals [r, g, b, a] (alpha within rounding).
export const SAME_COLOR = `(css, want) => {
  const m = /rgba?\\(([\\d.]+), ([\\d.]+), ([\\d.]+)(?:, ([\\d.]+))?\\)/.exec(css);
  return m !== null && +m[1] === want[0] && +m[2] === want[1] && +m[3] === want[2] && Math.abs((m[4] === undefined ? 1 : +m[4]) - want[3]) < 0.006;
}`;

/** 'dark' | 'light' | 'highContrast' | 'highContrastLight', from the workbench's theme class. */
export async function themeKind(page) {
  return page.evaluate(() => {
    const classes = document.querySelector('.monaco-workbench').classList;
    return classes.contains('hc-light') ? 'highContrastLight' : classes.contains('hc-black') ? 'highContrast' : classes.contains('vs-dark') ? 'dark' : 'light';
  });
}

/** Official metrics for the demo instance, computed by the CLI (`score --format json`). */
export function cliMetrics(repoRoot, explorer) {
  const out = execFileSync(
    process.execPath,
    [path.join(repoRoot, 'dist/cli.js'), 'score', '--bench', path.join(repoRoot, 'demo/bench.jsonl'), '--preds', path.join(repoRoot, `demo/results/${explorer}/top5.jsonl`), '--format', 'json'],
    { encoding: 'utf8' },
  );
  const row = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .find((r) => r.instance_id === INSTANCE);
  if (!row) throw new Error(`CLI printed no row for ${INSTANCE}`);
  return row.metrics;
}

export async function openWorkbench(ctx, url = ctx.workbenchUrl(ctx.workspace, [['extensionDevelopmentPath', ctx.remote(ctx.repoRoot)]])) {
  const { page } = ctx;
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 90_000 });
}

/**
 * Opens the command palette. A webview that has just taken focus (a Markdown preview opening to
 * the side, a view's select) forwards keys to the workbench only once its frame has loaded, so a
 * chord pressed early is lost: give focus back to the workbench and press F1 instead.
 */
async function openPalette(page) {
  const palette = '.quick-input-widget:not([style*="display: none"]) input';
  await page.keyboard.press('Control+Shift+P');
  const shown = await page.waitForSelector(palette, { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  if (shown) return;
  await page.evaluate(() => {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  await page.keyboard.press('F1');
  await page.waitForSelector(palette, { timeout: 30_000 });
}

/**
 * Runs a command from the palette; when it then shows a quick pick titled `pick.title`, types
 * `pick.choice` and accepts the row that matches it.
 */
export async function runCommand(page, title, pick) {
  // The extension's contributions must be registered before the palette can list its commands.
  await page.locator('.activitybar a[aria-label^="SWE-Explore"]').first().waitFor({ timeout: 90_000 });
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title.replace(/^.*?: /, '') }).first();
  // A palette opened while the workbench is still settling can miss freshly registered commands
  // (it then offers only "similar commands"); close it and ask again.
  for (let attempt = 1; ; attempt++) {
    await openPalette(page);
    await page.keyboard.type(title);
    const found = await row.waitFor({ timeout: 20_000 }).then(
      () => true,
      () => false,
    );
    if (found) break;
    if (attempt === 3) throw new Error(`the command palette does not list "${title}"`);
    await page.keyboard.press('Escape');
  }
  await page.keyboard.press('Enter');
  if (pick === undefined) return;
  // The command's own quick pick replaces the palette; typing before it shows would go to the editor.
  await page.locator('.quick-input-widget .quick-input-title', { hasText: pick.title }).waitFor({ timeout: 60_000 });
  await page.keyboard.type(pick.choice);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: pick.choice }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
}

/** Text of every rendered editor line carrying a whole-line decoration whose computed style has `wanted`. */
export async function decoratedLineTexts(page, wanted) {
  return page.evaluate(
    ([want, same]) => {
      const sameColor = eval(same);
      const editor = [...document.querySelectorAll('.editor-instance .monaco-editor')].find((e) => e.querySelector('.view-lines .view-line'));
      if (!editor) return [];
      const lineAtTop = new Map([...editor.querySelectorAll('.view-lines .view-line')].map((l) => [l.style.top, l.textContent.replace(/\u00a0/g, ' ')]));
      const matches = (style) => Object.entries(want).every(([key, value]) => (Array.isArray(value) ? sameColor(style[key], value) : style[key] === value));
      const texts = [];
      for (const overlay of editor.querySelectorAll('.view-overlays > div')) {
        if ([...overlay.querySelectorAll('.cdr')].some((d) => matches(getComputedStyle(d)))) {
          const text = lineAtTop.get(overlay.style.top);
          if (text !== undefined) texts.push(text);
        }
      }
      return texts;
    },
    [wanted, SAME_COLOR],
  );
}

/** ::after texts of decorations (rank badges, missed labels) on the rendered lines. */
export async function afterTexts(page) {
  return page.evaluate(() => [...document.querySelectorAll('.editor-instance .view-line span')].map((s) => getComputedStyle(s, '::after').content).filter((c) => c && c !== 'none' && c !== 'normal'));
}

/** Opens the demo's instance through the palette and waits for its main file, stock.py, to be the active tab. */
export async function openDemoInstance(page) {
  await runCommand(page, 'SWE-Explore: Open Instance', { title: 'Open Instance', choice: INSTANCE });
  await page.waitForSelector('.tab.active[aria-label*="stock.py"]', { timeout: 60_000 });
}

/**
 * Opens a quick input with its key (Go to Line, Quick Open) and waits for it; on a loaded machine a
 * key pressed while the workbench is busy can be lost, so it is pressed again (at most 3 times).
 */
export async function openQuickInput(page, key) {
  const input = page.locator('.quick-input-widget:not([style*="display: none"]) input').first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    const shown = await input.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    if (shown) return;
    if (attempt === 3) throw new Error(`${key} did not open its quick input`);
  }
}

/**
 * Opens a workspace file with Quick Open (Ctrl+P): types `query`, waits until the row the picker
 * has selected is `fileName` (while it searches, the list can still show the recently opened files,
 * and Enter would open one of those) and opens it; asked again when another tab ends up active.
 */
export async function quickOpenFile(page, query, fileName) {
  const tab = page.locator(`.tab.active[aria-label*="${fileName}"]`).first();
  for (let attempt = 1; ; attempt++) {
    await openQuickInput(page, 'Control+P');
    await page.keyboard.type(query);
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: fileName }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    const opened = await tab.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    if (opened) return;
    if (attempt === 3) throw new Error(`Quick Open did not open ${fileName}`);
  }
}

/**
 * Waits until the keyboard focus is back in a text editor: Go to Line updates the status bar before
 * its quick input hands the focus back, and a chord pressed in between misses keybindings that need
 * `editorTextFocus` (an Alt+letter chord then opens a menu of the menu bar instead).
 */
export async function waitForEditorFocus(page) {
  await page.waitForFunction(() => document.activeElement?.closest('.editor-instance .monaco-editor') != null, undefined, { timeout: 30_000 });
}

/** Puts the cursor on `line` of the active editor with Go to Line and waits for the status bar to say so. */
export async function goToLine(page, line) {
  await openQuickInput(page, 'Control+G');
  await page.keyboard.type(String(line));
  // Enter before the picker offers the line would be lost on a loaded machine.
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`line ${line}\\b`, 'i') })
    .first()
    .waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  await page
    .locator('.statusbar-item', { hasText: new RegExp(`Ln ${line},`) })
    .first()
    .waitFor({ timeout: 30_000 });
}

/**
 * Puts the cursor on `line` of the active editor (Go to Line) and shows the hover there (Show or
 * Focus Hover, Ctrl+K Ctrl+I). A mouse hover can land on a widget drawn over the line or scroll the
 * editor sideways while aiming; the keyboard cannot. Returns the SWE-Explore hover, once shown.
 */
export async function hoverAtLine(page, line) {
  await goToLine(page, line);
  // Show or Focus Hover is a chord: under load one of its keys can be lost, so it is asked for again.
  const hover = page.locator('.monaco-hover-content', { hasText: 'SWE-Explore' }).first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const shown = await hover.waitFor({ timeout: 15_000 }).then(
      () => true,
      () => false,
    );
    if (shown) return hover;
    if (attempt === 3) throw new Error(`no SWE-Explore hover at line ${line}`);
    await page.keyboard.press('Escape');
  }
}

export function scoresFrame(page) {
  return page.frameLocator('iframe.webview').first().frameLocator('#active-frame');
}

export async function metricValue(page, name) {
  const value = await scoresFrame(page).locator(`[data-metric="${name}"]`).first().getAttribute('data-value', { timeout: 30_000 });
  return Number(value);
}

export function near(a, b) {
  return Math.abs(a - b) <= 1e-12;
}
