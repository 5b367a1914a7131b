// Browser checks: The Leaderboard webview. Same shape as checks.mjs (helpers in support.mjs).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openWorkbench, runCommand, near } from './support.mjs';

const EXPLORERS = ['agent', 'bm25', 'localizer'];

/** JSON lines a CLI subcommand prints for the demo with every explorer's file. */
function cliLines(repoRoot, subcommand, extra = []) {
  const preds = EXPLORERS.flatMap((e) => ['--preds', path.join(repoRoot, `demo/results/${e}/top5.jsonl`)]);
  const out = execFileSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), subcommand, '--bench', path.join(repoRoot, 'demo/bench.jsonl'), ...preds, ...extra, '--format', 'json'], {
    encoding: 'utf8',
  });
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

/** The frame (of the editor-area webview) that holds the leaderboard's root, once it is drawn. */
export async function leaderboardFrame(page, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const found = await frame
        .locator('#leaderboard-root[data-status="ready"][data-complete="true"]')
        .count()
        .catch(() => 0);
      if (found > 0) return frame;
    }
    if (Date.now() > deadline) throw new Error('no webview frame shows a complete #leaderboard-root');
    await page.waitForTimeout(250);
  }
}

export const leaderboardChecks = [
  {
    name: "Leaderboard shows the CLI's macros and miss anatomy; a segment lists the instances carrying it",
    run: async (ctx) => {
      const { page, repoRoot } = ctx;
      const macros = new Map(
        cliLines(repoRoot, 'score')
          .filter((l) => l.macro !== undefined)
          .map((l) => [l.explorer, l.macro]),
      );
      const totals = new Map(
        cliLines(repoRoot, 'misses')
          .filter((l) => l.totals !== undefined)
          .map((l) => [l.explorer, l.totals]),
      );
      if (macros.size !== 3 || totals.size !== 3) throw new Error(`CLI printed ${macros.size} macro lines and ${totals.size} misses totals`);
      await openWorkbench(ctx);
      await runCommand(page, 'SWE-Explore: Show Leaderboard');
      const frame = await leaderboardFrame(page);
      const root = frame.locator('#leaderboard-root');
      const caption = (await root.locator('.caption').textContent()).trim();
      ctx.log(`caption: ${caption}`);
      if (!/profile official · top-5 · miss anatomy at B=500 · ground truth as written/.test(caption)) throw new Error(`unexpected caption "${caption}"`);

      // The main table: nDCG@500 and precision of every explorer equal the CLI's macro lines.
      for (const explorer of EXPLORERS) {
        for (const metric of ['ndcg_at_500', 'precision', 'recall']) {
          const cell = frame.locator(`td[data-explorer="${explorer}"][data-metric="${metric}"]:not([data-repo])`).first();
          const value = Number(await cell.getAttribute('data-value', { timeout: 30_000 }));
          const expected = macros.get(explorer)[metric];
          if (!near(value, expected)) throw new Error(`${explorer} ${metric}: leaderboard ${value}, CLI ${expected}`);
          const text = (await cell.locator('.cell-value').textContent()).trim();
          if (text !== expected.toFixed(3)) throw new Error(`${explorer} ${metric} displayed as "${text}", expected ${expected.toFixed(3)}`);
        }
        ctx.log(`${explorer}: nDCG@500 ${macros.get(explorer).ndcg_at_500}`);
      }
      // The patch-reach column equals the CLI's misses totals (patch lines reached within B / patch lines).
      for (const explorer of EXPLORERS) {
        const want = totals.get(explorer);
        const shown = await frame.locator(`td[data-explorer="${explorer}"][data-patch-reach]`).first().getAttribute('data-patch-reach', { timeout: 30_000 });
        if (shown !== `${want.patch_hit}/${want.patch_lines}`) throw new Error(`${explorer} patch reach: leaderboard ${shown}, CLI ${want.patch_hit}/${want.patch_lines}`);
        ctx.log(`${explorer}: patch reach ${shown}`);
      }
      const headers = await frame.locator('table.leaderboard thead th[data-sort-key]').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-sort-key')));
      if (headers.slice(2, 6).join(',') !== 'precision,ndcg_at_500,hit_file_rate,context_efficiency') throw new Error(`column order ${headers.join(',')}`);

      // Sorting by nDCG@500: the header says so and the rows follow the CLI's order.
      await frame.locator('th[data-sort-key="ndcg_at_500"] button.sort').click();
      await frame.locator('th[data-sort-key="ndcg_at_500"][aria-sort="descending"]').waitFor({ timeout: 10_000 });
      const order = await frame.locator('tr.explorer-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-explorer')));
      const wanted = [...EXPLORERS].sort((a, b) => macros.get(b).ndcg_at_500 - macros.get(a).ndcg_at_500);
      if (order.join(',') !== wanted.join(',')) throw new Error(`sorted by nDCG@500: ${order.join(',')}, expected ${wanted.join(',')}`);

      // Per-repo rows behind the disclosure button.
      await frame.locator('tr.explorer-row[data-row-explorer="agent"] button.disclosure').click();
      // The rows travel on demand: the webview asks for them (a layout message) and redraws.
      await frame.locator('tr.repo-row[data-row-explorer="agent"]').nth(1).waitFor({ timeout: 10_000 });
      const repos = await frame.locator('tr.repo-row[data-row-explorer="agent"]').count();
      if (repos !== 2) throw new Error(`agent shows ${repos} per-repo rows, expected 2 (acme/inventory, acme/tinyhttp)`);

      // The repo × explorer matrix for HitFile equals `score --group-by repo`.
      const byRepo = cliLines(repoRoot, 'score', ['--group-by', 'repo']).filter((l) => l.repo !== undefined && l.macro !== undefined);
      await frame.locator('button.mode[data-mode="matrix"]').click();
      await frame.locator('select.matrix-metric').selectOption('hit_file_rate');
      await frame.locator('table.matrix td[data-metric="hit_file_rate"][data-repo]').first().waitFor({ timeout: 10_000 });
      for (const line of byRepo) {
        // A cell reads "missing" until its explorer's per-repo rows have arrived (they travel on demand).
        const cell = frame.locator(`table.matrix td[data-explorer="${line.explorer}"][data-repo="${line.repo}"][data-metric="hit_file_rate"]:not([data-missing])`);
        const value = Number(await cell.getAttribute('data-value', { timeout: 10_000 }));
        if (!near(value, line.macro.hit_file_rate)) throw new Error(`matrix ${line.explorer} × ${line.repo}: ${value}, CLI ${line.macro.hit_file_rate}`);
      }
      ctx.log(`matrix: ${byRepo.length} repo × explorer cells equal score --group-by repo`);
      await ctx.screenshot('leaderboard-matrix');
      await frame.locator('button.mode[data-mode="explorers"]').click();

      // Miss anatomy: one bar per explorer, six segments whose lines sum to the CLI's core lines.
      for (const explorer of EXPLORERS) {
        const segments = await frame
          .locator(`.anatomy-row[data-anatomy-explorer="${explorer}"] .anatomy-segment`)
          .evaluateAll((els) => els.map((e) => ({ category: e.getAttribute('data-category'), lines: Number(e.getAttribute('data-lines')), width: e.getBoundingClientRect().width })));
        const want = totals.get(explorer);
        if (segments.length !== 6) throw new Error(`${explorer}: ${segments.length} anatomy segments`);
        const sum = segments.reduce((a, s) => a + s.lines, 0);
        if (sum !== want.core_lines) throw new Error(`${explorer}: segments sum to ${sum}, CLI core lines ${want.core_lines}`);
        for (const s of segments) if (s.lines !== want[s.category]) throw new Error(`${explorer} ${s.category}: ${s.lines}, CLI ${want[s.category]}`);
        ctx.log(`${explorer} anatomy: ${segments.map((s) => `${s.category}=${s.lines} (${s.width.toFixed(0)}px)`).join(' ')}`);
      }
      const localizerWrong = frame.locator('.anatomy-row[data-anatomy-explorer="localizer"] .anatomy-segment[data-category="wrong_region"]');
      await localizerWrong.click();
      const list = frame.locator('.carriers[data-explorer="localizer"][data-category="wrong_region"] li');
      await list.first().waitFor({ timeout: 10_000 });
      const items = await list.evaluateAll((lis) => lis.map((li) => ({ id: li.getAttribute('data-instance'), lines: Number(li.getAttribute('data-lines')) })));
      ctx.log(`localizer wrong_region carriers: ${JSON.stringify(items)}`);
      const listed = items.reduce((a, i) => a + i.lines, 0);
      if (listed !== totals.get('localizer').wrong_region) throw new Error(`carriers hold ${listed} lines, CLI wrong_region ${totals.get('localizer').wrong_region} (3 instances, all listed)`);
      await list.first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await ctx.screenshot('leaderboard');

      // Clicking a metric value selects its explorer and reveals the Instances view (sorted by it).
      await frame.locator('td[data-explorer="bm25"][data-metric="ndcg_at_500"]:not([data-repo]) button.cell-value').click();
      await page.locator('.pane-header', { hasText: 'Instances' }).first().waitFor({ state: 'visible', timeout: 30_000 });
      await frame.locator('tr.explorer-row.selected[data-row-explorer="bm25"]').waitFor({ timeout: 10_000 });

      // Clicking a carrier opens the instance with that explorer.
      const first = items[0].id;
      await frame.locator(`.carriers li[data-instance="${first}"] button.instance-link`).click();
      await page.waitForSelector(`.tab[aria-label*=".py"]`, { timeout: 60_000 });
      ctx.log(`opened ${first}: ${await page.locator('.tab.active').first().getAttribute('aria-label')}`);
    },
  },
];

export const checks = leaderboardChecks;
