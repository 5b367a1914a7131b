// Browser checks: the Scores view's miss-anatomy bar and compare mode (A vs B). Same shape as checks.mjs (helpers in support.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { INSTANCE, cliMetrics, openWorkbench, runCommand, scoresFrame, near } from './support.mjs';

const CATEGORIES = ['hit', 'beyond_budget', 'path_mismatch', 'inverted', 'wrong_region', 'file_not_predicted'];

/** Opens the demo instance and the SWE-Explore sidebar with the Scores view as the only open pane. */
export async function openScores(ctx) {
  const { page } = ctx;
  await openWorkbench(ctx);
  await runCommand(page, 'SWE-Explore: Open Instance', { title: 'Open Instance', choice: INSTANCE });
  await page.locator('.activitybar a[aria-label^="SWE-Explore"]').first().click();
  const frame = scoresFrame(page);
  await frame.locator(`#scores-root[data-instance="${INSTANCE}"][data-status="ready"]`).waitFor({ timeout: 60_000 });
  // Collapse the other views of the container so the Scores view has the sidebar's height.
  for (const title of ['Instances', 'Regions', 'Removals']) {
    const header = page.locator('.pane-header[aria-expanded="true"]', { hasText: title }).first();
    if ((await header.count()) > 0) await header.click();
  }
  return frame;
}

/** The segments of one anatomy bar: category, lines and rendered width. */
async function segments(frame, scope) {
  return frame
    .locator(`[data-anatomy="${scope}"] .anatomy-bar [data-category]`)
    .evaluateAll((nodes) => nodes.map((n) => ({ category: n.getAttribute('data-category'), lines: Number(n.getAttribute('data-lines')), width: n.getBoundingClientRect().width })));
}

async function checkBar(frame, scope, log) {
  const bar = frame.locator(`[data-anatomy="${scope}"]`).first();
  await bar.waitFor({ timeout: 30_000 });
  const core = Number(await bar.getAttribute('data-core-lines'));
  const segs = await segments(frame, scope);
  const sum = segs.reduce((s, x) => s + x.lines, 0);
  log(`${scope} bar: core ${core}, segments ${JSON.stringify(segs.map((s) => [s.category, s.lines, Math.round(s.width)]))}`);
  if (!(core > 0)) throw new Error(`${scope} bar: no core size (${core})`);
  if (sum !== core) throw new Error(`${scope} bar: segments sum to ${sum}, core has ${core} lines`);
  const order = segs.map((s) => CATEGORIES.indexOf(s.category));
  if (order.some((i, k) => i < 0 || (k > 0 && i <= order[k - 1]))) throw new Error(`${scope} bar: categories out of order ${JSON.stringify(segs)}`);
  // Widths follow lines / core (2 px floor for tiny segments, 1 px rounding).
  const total = segs.reduce((s, x) => s + x.width, 0);
  for (const s of segs) {
    const want = (total * s.lines) / core;
    if (Math.abs(s.width - want) > 3 && !(s.width <= 3 && want < 3)) throw new Error(`${scope} bar: ${s.category} is ${s.width}px wide, expected about ${want}px`);
  }
  // The categories' rows ("seen, not reported" follows them when the explorer has runs).
  const legend = await frame.locator(`[data-anatomy="${scope}"] [data-legend]:not([data-legend="seen"])`).allTextContents();
  if (legend.length !== CATEGORIES.length) throw new Error(`${scope} legend has ${legend.length} rows: ${JSON.stringify(legend)}`);
  return { core, segs, legend };
}

export const scoresChecks = [
  {
    name: 'Scores view: the miss-anatomy bar sums to the core, its hit share is Recall@B, and compare mode shows A | B | Δ until Stop comparing',
    timeoutMs: 240_000,
    run: async (ctx) => {
      const { page, repoRoot } = ctx;
      const frame = await openScores(ctx);
      const { core, segs, legend } = await checkBar(frame, 'main', ctx.log);
      const hit = segs.find((s) => s.category === 'hit')?.lines ?? 0;
      const recall = Number(await frame.locator('.summary [data-metric="recall_at_budget"]').first().getAttribute('data-value'));
      if (!near(hit / core, recall)) throw new Error(`hit ${hit} / core ${core} = ${hit / core}, Recall@B shows ${recall}`);
      const budget = await frame.locator('#scores-root').getAttribute('data-budget');
      if (!legend[0].includes(`= Recall@${budget}`)) throw new Error(`the hit legend lacks "= Recall@${budget}": ${legend[0]}`);
      ctx.log(`legend: ${JSON.stringify(legend)}`);
      await frame.locator('[data-anatomy="main"]').first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await ctx.screenshot('scores-anatomy');

      // Compare agent (A) with bm25 (B) through the palette.
      await compareWith(page, 'bm25');
      await frame.locator('#scores-root[data-compare-with="bm25"]').waitFor({ timeout: 30_000 });
      const a = cliMetrics(repoRoot, 'agent');
      const b = cliMetrics(repoRoot, 'bm25');
      const cell = async (which, metric) => frame.locator(`[data-compare="${which}"][data-metric="${metric}"]`).first().getAttribute('data-value');
      for (const metric of Object.keys(a)) {
        const [va, vb, vd] = [Number(await cell('a', metric)), Number(await cell('b', metric)), Number(await cell('delta', metric))];
        if (!near(va, a[metric]) || !near(vb, b[metric])) throw new Error(`${metric}: view A ${va} B ${vb}, CLI agent ${a[metric]} bm25 ${b[metric]}`);
        if (!near(vd, b[metric] - a[metric])) throw new Error(`${metric}: Δ ${vd}, expected ${b[metric] - a[metric]}`);
      }
      const deltas = await frame.locator('[data-compare="delta"]').allTextContents();
      if (!deltas.some((t) => /^[▲▼] [+−]\d/.test(t.trim()))) throw new Error(`no signed ▲/▼ delta: ${JSON.stringify(deltas)}`);
      await checkBar(frame, 'a', ctx.log);
      await checkBar(frame, 'b', ctx.log);
      await frame.locator('section.compare').first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await ctx.screenshot('scores-compare');
      await frame.locator('[data-anatomy="b"]').first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await ctx.screenshot('scores-compare-anatomy');

      await frame.locator('button.stop-comparing').click();
      await frame.locator('#scores-root:not([data-compare-with])').waitFor({ timeout: 30_000 });
      if ((await frame.locator('section.compare').count()) !== 0) throw new Error('the compare section is still shown after Stop comparing');
    },
  },
];

/** Compares agent (A) with `b` through the palette's two quick picks. */
async function compareWith(page, b) {
  await runCommand(page, 'SWE-Explore: Compare Two Explorers Line by Line', { title: 'compare explorer A', choice: 'agent' });
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'with explorer B' }).waitFor({ timeout: 30_000 });
  await page.keyboard.type(b);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: b }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
}

scoresChecks.push({
  name: 'Scores view: an explorer without a row for the instance reads "missing (no row)", never 0, in the explorer list and as compare side B',
  timeoutMs: 240_000,
  run: async (ctx) => {
    const { page, workspace } = ctx;
    const file = path.join(workspace, 'results', 'bm25', 'top5.jsonl');
    const original = fs.readFileSync(file, 'utf8');
    try {
      const frame = await openScores(ctx);
      // Drop bm25's row for the open instance; the file watcher reloads the store.
      fs.writeFileSync(
        file,
        original
          .split('\n')
          .filter((line) => !line.includes(`"${INSTANCE}"`))
          .join('\n'),
      );
      const listed = frame.locator('section.comparison tbody[data-explorer="bm25"] [data-compare-missing]');
      await listed.waitFor({ timeout: 60_000 });
      const listedText = (await listed.textContent()).trim();
      if (listedText !== 'missing (no row)') throw new Error(`bm25 is listed as "${listedText}"`);
      await compareWith(page, 'bm25');
      await frame.locator('#scores-root[data-compare-with="bm25"]').waitFor({ timeout: 30_000 });
      const cells = await frame
        .locator('[data-compare="b"]')
        .evaluateAll((nodes) => nodes.map((n) => ({ text: n.textContent.trim(), value: n.getAttribute('data-value'), missing: n.getAttribute('data-missing') })));
      if (cells.length < 17 || cells.some((c) => c.text !== 'missing' || c.value !== '' || c.missing !== 'true')) throw new Error(`B cells are not all missing: ${JSON.stringify(cells)}`);
      const deltas = await frame.locator('[data-compare="delta"]').allTextContents();
      if (deltas.some((t) => t.trim() !== '—')) throw new Error(`a Δ is shown against a missing side: ${JSON.stringify(deltas)}`);
      const side = (await frame.locator('[data-compare-side="b"]').textContent()) ?? '';
      if (!side.includes('missing (no row)')) throw new Error(`side B does not say missing: ${side}`);
      if ((await frame.locator('[data-anatomy="b"][data-missing="true"]').count()) !== 1) throw new Error('side B shows an anatomy bar without a row');
      ctx.log(`side B: ${side.trim()}`);
      await frame.locator('section.compare').first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await ctx.screenshot('scores-compare-missing');
      await frame.locator('button.stop-comparing').click();
      await frame.locator('#scores-root:not([data-compare-with])').waitFor({ timeout: 30_000 });
    } finally {
      fs.writeFileSync(file, original);
    }
  },
});

export const checks = scoresChecks;
