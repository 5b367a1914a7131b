// Browser checks of the explorer's own runs (issue 19) on the demo: agent's runs in
// demo/results/agent/trajs/ are found beside its prediction file; stock.py 122 of acme__inventory-101
// is a core line agent misses at B = 500 and its run saw at step 4.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { leaderboardFrame } from './checks-leaderboard.mjs';
import { openScores } from './checks-scores.mjs';
import { INSTANCE, afterTexts, goToLine, hoverAtLine, openWorkbench, runCommand, openDemoInstance, waitForEditorFocus } from './support.mjs';

/** The line the demo's agent run saw but did not report, and the read that showed it first. */
const SEEN_LINE = 122;
const SEEN_LABEL = /◉ seen at step 4 \(`nl -ba inventory\/stock\.py \| sed -n '100,140p'`\), not reported/;

/** agent's run of the instance, as the Trajectory view's `data-trajectory` ends. */
const AGENT_RUN = 'results/agent/trajs/acme__inventory-101.traj.json';

/** The frame of the Trajectory view once its `data-trajectory` ends with `run`. */
async function explorerRunFrame(page, run, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const found = await frame.$(`#trajectory-root[data-trajectory$="${run}"]`).catch(() => null);
      if (found !== null) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no Trajectory view shows a run ending ${run}`);
    await page.waitForTimeout(200);
  }
}

/** `misses --explorer-trajs` lines of the agent at the demo's default budget (its rows and its totals line), from the CLI. */
export function cliSeen(repoRoot) {
  const demo = path.join(repoRoot, 'demo');
  const out = execFileSync(
    process.execPath,
    [
      path.join(repoRoot, 'dist', 'cli.js'),
      'misses',
      '--bench',
      path.join(demo, 'bench.jsonl'),
      '--preds',
      path.join(demo, 'results', 'agent', 'top5.jsonl'),
      '--repos',
      path.join(demo, 'repos'),
      '--budget',
      '500',
      '--explorer-trajs',
      `agent=${path.join(demo, 'results', 'agent', 'trajs')}`,
    ],
    { encoding: 'utf8' },
  );
  const lines = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const totals = lines.find((r) => r.explorer === 'agent' && r.totals !== undefined);
  if (!totals) throw new Error(`the CLI printed no totals line for agent: ${out.slice(0, 400)}`);
  return { rows: lines.filter((r) => r.instance_id !== undefined), totals: totals.totals };
}

/** Missed core lines a `misses` row or totals says the run viewed: its seen lines of every category but hit. */
function seenMissed(seen) {
  return Object.entries(seen)
    .filter(([category]) => category !== 'hit')
    .reduce((sum, [, n]) => sum + n, 0);
}

export const explorerRunChecks = [
  {
    name: 'explorer runs: a missed line the run viewed shows "seen at step N", Next Seen-but-Missed (Alt+V) jumps to it, the hover says so',
    run: async (ctx) => {
      const { page } = ctx;
      await openWorkbench(ctx);
      await openDemoInstance(page);
      // The cursor on line 100 of stock.py (Go to Line, so no click can land elsewhere): Alt+V goes to
      // the first missed span the run viewed after it, 122.
      await page.locator('.editor-instance .view-lines').first().click();
      await goToLine(page, 100);
      await waitForEditorFocus(page);
      await page.keyboard.press('Alt+V');
      await page
        .locator('.statusbar-item', { hasText: new RegExp(`Ln ${SEEN_LINE},`) })
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(async (error) => {
          const status = await page.locator('.statusbar-item').allTextContents();
          throw new Error(`${error.message}; Alt+V did not land on line ${SEEN_LINE}: status bar ${JSON.stringify(status.filter((s) => /Ln/.test(s)))}`);
        });
      await page.waitForFunction(
        (re) => [...document.querySelectorAll('.editor-instance .view-line span')].some((s) => new RegExp(re).test(getComputedStyle(s, '::after').content)),
        SEEN_LABEL.source,
        {
          timeout: 30_000,
        },
      );
      const labels = await afterTexts(page);
      ctx.log(`labels near line ${SEEN_LINE}: ${JSON.stringify(labels.filter((l) => /seen|viewed/.test(l)))}`);
      if (!labels.some((l) => /○ never viewed \(the run never opened this file\)|○ never viewed \(opened lines/.test(l)) && !labels.some((l) => SEEN_LABEL.test(l))) {
        throw new Error(`no viewed labels: ${JSON.stringify(labels)}`);
      }
      const gutter = await page.evaluate(() => [...document.querySelectorAll('.editor-instance .margin *')].filter((e) => /viewed-(dark|light)\.svg/.test(getComputedStyle(e).backgroundImage)).length);
      ctx.log(`${gutter} rendered lines carry the viewed glyph`);
      if (gutter === 0) throw new Error('no gutter glyph of the viewed layer on the rendered lines');
      await ctx.screenshot('explorer-run-seen-label');
      const hover = await hoverAtLine(page, SEEN_LINE);
      const text = (await hover.textContent()) ?? '';
      if (!/Explorer run \(agent\): seen at step 4/.test(text)) throw new Error(`the hover lacks "seen at step 4": ${text}`);
      if (!/How the repair runs got here:/.test(text)) throw new Error(`the hover lacks the repair runs' line: ${text}`);
      if (!/Show the explorer's run at the step that saw this line/.test(text)) throw new Error(`the hover lacks the link to the explorer's run: ${text}`);
      await page.waitForTimeout(500);
      await ctx.screenshot('explorer-run-hover');
      // Shift+Alt+V walks back: from 122 to the previous seen-but-missed span (wrapping round the files).
      await page.keyboard.press('Escape');
      await page.keyboard.press('Shift+Alt+V');
      await page.waitForTimeout(1000);
      const status = (await page.locator('.statusbar-item').allTextContents()).find((s) => /Ln \d+/.test(s));
      ctx.log(`after Shift+Alt+V: ${status}`);
      if (status === undefined || status.includes(`Ln ${SEEN_LINE},`)) throw new Error(`Shift+Alt+V did not move off line ${SEEN_LINE}: ${status}`);
    },
  },
  {
    name: "explorer runs: the Scores view hatches the seen share of each miss category, its legend counts 'seen, not reported' as the CLI does, and lists the missed spans with the run's and the repair runs' words",
    run: async (ctx) => {
      const { repoRoot } = ctx;
      const cli = cliSeen(repoRoot).rows.find((r) => r.instance_id === INSTANCE);
      const want = seenMissed(cli.seen);
      const frame = await openScores(ctx);
      const legend = frame.locator('[data-anatomy="main"] [data-legend="seen"]');
      await legend.waitFor({ timeout: 30_000 });
      const legendText = await legend.textContent();
      ctx.log(`legend row: ${legendText}; the CLI's seen-missed lines for ${INSTANCE}: ${want}`);
      const legendLines = Number(await legend.locator('.num').first().textContent());
      if (!legendText.includes('seen, not reported') || legendLines !== want) throw new Error(`the legend row says ${JSON.stringify(legendText)} (${legendLines} lines), the CLI ${want}`);
      const hatches = await frame
        .locator('[data-anatomy="main"] .anatomy-seen')
        .evaluateAll((nodes) => nodes.map((n) => [n.parentElement.getAttribute('data-category'), Number(n.getAttribute('data-seen')), Math.round(n.getBoundingClientRect().width)]));
      ctx.log(`hatched: ${JSON.stringify(hatches)}`);
      for (const [category, lines] of hatches) if (cli.seen[category] !== lines) throw new Error(`${category}: ${lines} lines hatched, the CLI says the run viewed ${cli.seen[category]}`);
      if (hatches.reduce((s, [, n]) => s + n, 0) !== want) throw new Error(`hatched lines ${JSON.stringify(hatches)} do not sum to ${want}`);
      const run = frame.locator('[data-run="main"]');
      const spans = await run.locator('[data-run-span]').allTextContents();
      ctx.log(`run: ${await run.locator('.run-summary').textContent()}; spans: ${JSON.stringify(spans)}`);
      if (!spans.some((t) => /stock\.py 122: seen at step 4/.test(t))) throw new Error(`no span "stock.py 122: seen at step 4": ${JSON.stringify(spans)}`);
      if (!spans.some((t) => /never viewed/.test(t))) throw new Error(`no never-viewed span: ${JSON.stringify(spans)}`);
      // How the repair runs got there: an arrival per cited run once they are read, or — without the
      // runs on disk — that they are not loaded; never left at "reading…".
      await frame
        .locator('.run-arrivals', { hasText: /repair runs not loaded|found it at step|read it at step|never read it|run not loaded/ })
        .first()
        .waitFor({ timeout: 30_000 });
      const arrivals = await frame.locator('.run-arrivals').allTextContents();
      ctx.log(`repair-run arrivals: ${JSON.stringify(arrivals)}`);
      await ctx.screenshot('explorer-run-scores');
    },
  },
  {
    name: "explorer runs: Show the Explorer's Run at This Line opens agent's own run in the Trajectory view at the step that saw the line, labelled as not a repair run",
    run: async (ctx) => {
      const { page } = ctx;
      await openWorkbench(ctx);
      await openDemoInstance(page);
      // The layer's label on 122 means agent's run is read: the command then answers at once.
      await page.locator('.editor-instance .view-lines').first().click();
      await goToLine(page, SEEN_LINE);
      await runCommand(page, "SWE-Explore: Show the Explorer's Run at This Line");
      // Wait for the view's state (the run file named, step 4 the focus), not for a fixed time.
      const frame = await explorerRunFrame(page, AGENT_RUN);
      await frame.waitForFunction(() => document.querySelector('.step.focus')?.getAttribute('data-step') === '4', null, { timeout: 30_000 });
      const facts = await frame.evaluate(() => ({
        trajectory: document.querySelector('#trajectory-root').getAttribute('data-trajectory'),
        verified: document.querySelector('#trajectory-root').getAttribute('data-verified'),
        focus: [...document.querySelectorAll('.step.focus')].map((el) => el.getAttribute('data-step')),
        current: [...document.querySelectorAll('.read.current')].map((el) => ({
          step: el.closest('[data-step]').getAttribute('data-step'),
          path: el.getAttribute('data-read-path'),
          start: el.getAttribute('data-read-start'),
          end: el.getAttribute('data-read-end'),
        })),
        badges: document.querySelector('.badges')?.textContent ?? '',
        title: document.querySelector('h1')?.textContent ?? '',
      }));
      ctx.log(`explorer run in the Trajectory view: ${JSON.stringify(facts)}`);
      if (facts.focus.join() !== '4') throw new Error(`the view is not at step 4: ${JSON.stringify(facts.focus)}`);
      if (facts.current.length !== 1 || facts.current[0].step !== '4' || facts.current[0].path !== 'inventory/stock.py')
        throw new Error(`the current read is not step 4 on stock.py: ${JSON.stringify(facts.current)}`);
      if (facts.verified !== 'false') throw new Error(`an explorer run claims data-verified=${facts.verified}`);
      if (!facts.badges.includes('explorer run (agent) — not a repair run; not verified against the bench')) throw new Error(`the view does not say it is the explorer's run: ${facts.badges}`);
      // The editor reveals what the agent saw at step 4 (sed -n '100,140p'), not the builder's whole-file credit.
      await page
        .locator('.statusbar-item', { hasText: /Ln 100,/ })
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(async (error) => {
          const status = await page.locator('.statusbar-item').allTextContents();
          throw new Error(`${error.message}; the editor is not on line 100: ${JSON.stringify(status.filter((t) => /Ln/.test(t)))}`);
        });
      await page.waitForFunction(() => [...document.querySelectorAll('.editor-instance .view-line span')].some((s) => getComputedStyle(s, '::after').content.includes('read at step 4')), null, {
        timeout: 30_000,
      });
      await ctx.screenshot('explorer-run-trajectory-view');
    },
  },
  {
    name: "explorer runs: the Leaderboard's 'viewed but not reported' column equals the CLI's misses --explorer-trajs totals",
    run: async (ctx) => {
      const { page, repoRoot } = ctx;
      const { totals } = cliSeen(repoRoot);
      const want = { runs: totals.runs, seenMissed: seenMissed(totals.seen), missed: totals.core_lines - totals.hit };
      await openWorkbench(ctx);
      await runCommand(page, 'SWE-Explore: Show Leaderboard');
      const frame = await leaderboardFrame(page);
      // Runs are read in the background after the rows are scored: wait until none is pending.
      const cells = frame.locator('[data-runs-explorer="agent"]');
      await frame.locator('[data-runs-explorer="agent"] [data-pending="0"]').waitFor({ timeout: 60_000 });
      const got = {
        runs: Number(await cells.locator('[data-runs]').getAttribute('data-runs')),
        seenMissed: Number(await cells.locator('[data-seen-missed]').getAttribute('data-seen-missed')),
        missed: Number(await cells.locator('[data-missed]').getAttribute('data-missed')),
      };
      const text = await cells.textContent();
      ctx.log(`leaderboard agent row: ${text}; ${JSON.stringify(got)}; CLI ${JSON.stringify(want)}`);
      if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`the leaderboard says ${JSON.stringify(got)}, the CLI ${JSON.stringify(want)}`);
      if (!text.includes(`(${want.seenMissed}/${want.missed})`)) throw new Error(`the cell does not read ${want.seenMissed}/${want.missed}: ${text}`);
      const others = await frame.locator('[data-runs-explorer]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-runs-explorer')));
      if (others.join() !== 'agent') throw new Error(`only agent has runs (and no explorer of the demo carries token_usage), yet rows for ${others.join(', ')}`);
      await frame.locator('.runs-section').scrollIntoViewIfNeeded();
      await ctx.screenshot('explorer-run-leaderboard');
    },
  },
];

export const checks = explorerRunChecks;
