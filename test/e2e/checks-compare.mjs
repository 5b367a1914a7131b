// Browser checks: Compare mode in the editor and the Scores view. Same shape as checks.mjs (helpers in support.mjs).
import { themeColor, SAME_COLOR, themeKind, openWorkbench, runCommand, decoratedLineTexts, afterTexts, goToLine, openDemoInstance } from './support.mjs';

/** The four compare sets: colour id stem, label prefix, and where the demo shows them at B=300. */
const SETS = [
  { id: 'OnlyA', label: 'A only ◧ agent' },
  { id: 'OnlyB', label: 'B only ◨ bm25' },
  { id: 'Both', label: 'both ■' },
  { id: 'Neither', label: 'neither □ missed by both' },
];

export const compareChecks = [
  {
    name: 'compare mode: agent vs bm25 through the palette paints only-A / only-B / both / neither with their glyph labels',
    timeoutMs: 240_000,
    run: async (ctx) => {
      const { page, repoRoot } = ctx;
      await openWorkbench(ctx);
      await openDemoInstance(page);
      // At B=300 the demo instance has all four sets: models.py holds only-B 1–43, neither 44–63 and
      // only-A 64–85; stock.py is "both" at 39–56 (where Open Instance puts the cursor).
      await runCommand(page, 'SWE-Explore: Set Line Budget', { title: 'line budget', choice: '300' });
      await runCommand(page, 'SWE-Explore: Compare Two Explorers Line by Line', { title: 'compare explorer A', choice: 'agent' });
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'with explorer B' }).waitFor({ timeout: 30_000 });
      await page.keyboard.type('bm25');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'bm25' }).first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Enter');

      const kind = await themeKind(page);
      const colours = Object.fromEntries(SETS.map((s) => [s.id, themeColor(repoRoot, `compare${s.id}Background`, kind)]));
      const coreBackground = themeColor(repoRoot, 'coreBackground', kind);
      const seen = new Map();
      const labelsSeen = new Set();
      const collect = async (where) => {
        for (const set of SETS) {
          const lines = await decoratedLineTexts(page, { backgroundColor: colours[set.id] });
          if (lines.length > 0) seen.set(set.id, (seen.get(set.id) ?? 0) + lines.length);
        }
        for (const text of await afterTexts(page)) for (const set of SETS) if (text.includes(set.label)) labelsSeen.add(set.id);
        ctx.log(`${where}: lines per set ${JSON.stringify(Object.fromEntries(seen))}, labels ${JSON.stringify([...labelsSeen])}`);
      };
      const waitForColour = (id) =>
        page.waitForFunction(
          ([bg, same]) => [...document.querySelectorAll('.monaco-editor .view-overlays .cdr')].some((e) => eval(same)(getComputedStyle(e).backgroundColor, bg)),
          [colours[id], SAME_COLOR],
          { timeout: 30_000 },
        );
      await waitForColour('Both');
      await collect('stock.py at the first core region');
      // The single-explorer core tint is hidden while comparing.
      const core = await decoratedLineTexts(page, { backgroundColor: coreBackground });
      if (core.length > 0) throw new Error(`the core layer is still painted in compare mode on ${core.length} lines`);

      // Previous difference from stock.py 39 wraps back to models.py's only-A run (64–85).
      await runCommand(page, 'SWE-Explore: Previous Difference Between Compared Explorers');
      await page.waitForSelector('.tab.active[aria-label*="models.py"]', { timeout: 30_000 });
      await waitForColour('OnlyA');
      await collect('models.py at the only-A run');
      // Once more: models.py's only-B run (1–43), whose label sits on line 1.
      await runCommand(page, 'SWE-Explore: Previous Difference Between Compared Explorers');
      await waitForColour('OnlyB');
      await page.waitForFunction(() => [...document.querySelectorAll('.editor-instance .view-line span')].some((s) => getComputedStyle(s, '::after').content.includes('B only')), null, {
        timeout: 30_000,
      });
      await collect('models.py at the only-B run');
      // Line 50 centred shows the end of only-B, all of neither and the start of only-A.
      await goToLine(page, 50);
      await waitForColour('OnlyB');
      await waitForColour('Neither');
      await collect('models.py around line 50');
      for (const set of SETS) {
        if (!seen.has(set.id)) throw new Error(`no line painted with the ${set.id} compare colour ${JSON.stringify(colours[set.id])}`);
        if (!labelsSeen.has(set.id)) throw new Error(`no "${set.label}" label seen; after-texts: ${JSON.stringify(await afterTexts(page))}`);
      }
      // The hover of a "neither" line (models.py 47) says so and names what each explorer has there.
      const neitherLine = page.locator('.editor-instance .view-line', { hasText: 'are still physically on hand' }).first();
      const hover = page.locator('.monaco-hover-content', { hasText: 'SWE-Explore' }).first();
      await page.mouse.move(700, 500);
      await neitherLine.hover({ position: { x: 120, y: 5 } });
      const shown = await hover.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (!shown) {
        // The mouse hover can miss in a headless page; the keyboard hover at the cursor (line 50, also neither) cannot.
        ctx.log('mouse hover did not show; using Show Hover at the cursor');
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
        await hover.waitFor({ timeout: 20_000 });
      }
      const hoverText = (await hover.textContent()) ?? '';
      ctx.log(`hover: ${hoverText.slice(hoverText.indexOf('Compare:'), hoverText.indexOf('Compare:') + 140)}`);
      if (!/Compare: neither reaches this line within B=300 — A \(agent\): no prediction covers it · B \(bm25\): #4 \(past budget\)/.test(hoverText)) {
        throw new Error(`hover lacks the compare sentence: ${hoverText}`);
      }
      // Let the hover finish fading in, so the screenshot is readable.
      await page.waitForTimeout(800);
      await ctx.screenshot('compare-editor');

      // The keybinding, not only the command: Alt+B (Next Difference) from line 47, inside the
      // neither run 44–63, jumps to the start of the only-A run below it.
      await page.keyboard.press('Escape');
      await page.locator('.editor-instance .view-line', { hasText: 'are still physically on hand' }).first().click();
      await page.keyboard.press('Alt+B');
      await page
        .locator('.statusbar-item', { hasText: /Ln 64,/ })
        .first()
        .waitFor({ timeout: 30_000 });
      ctx.log('Alt+B moved the cursor to models.py line 64 (the only-A run)');
    },
  },
];

export const checks = compareChecks;
