// Browser checks of the Trajectory view (issue 18): a repair run beside the code, its reads through
// the view's stable hooks, stepping through the reads in the editor, "Show the steps that read this
// line". The demo's runs are ours (demo/trajs/, written by scripts/gen-demo-trajectories.ts); the
// real check opens the shared gemini-3-pro runs and skips with a message when ../shared is absent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INSTANCE, openWorkbench, runCommand, afterTexts, hoverAtLine, goToLine, openDemoInstance } from './support.mjs';

const GEMINI_101 = 'trajs/demo/gemini-3-pro-preview/acme__inventory-101__0.json';

/** The frame of the Trajectory view once it shows `trajectory` (a webview's inner frame holds the root). */
async function trajectoryFrame(page, trajectory, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const found = await frame.$(`#trajectory-root[data-trajectory="${trajectory}"]`).catch(() => null);
      if (found !== null) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no Trajectory view shows ${trajectory}`);
    await page.waitForTimeout(200);
  }
}

/** Every read the view lists, through the hooks: step, path, start, end, idiom. */
function listedReads(frame) {
  return frame.evaluate(() =>
    [...document.querySelectorAll('[data-read-path]')].map((el) => ({
      step: Number(el.closest('[data-step]').getAttribute('data-step')),
      path: el.getAttribute('data-read-path'),
      start: Number(el.getAttribute('data-read-start')),
      end: Number(el.getAttribute('data-read-end')),
      idiom: el.getAttribute('data-idiom'),
      current: el.classList.contains('current'),
    })),
  );
}

/** The record's `read_step_info` entries of one run, in step order. */
function recordedReads(benchFile, instanceId, trajPath) {
  for (const line of fs.readFileSync(benchFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line);
    if (record.instance_id !== instanceId) continue;
    const out = [];
    for (const [p, steps] of Object.entries(record.read_step_info ?? {})) for (const s of steps) if (s.traj_path === trajPath) out.push({ step: s.step_idx, path: p, start: s.start, end: s.end });
    return out.sort((a, b) => a.step - b.step || (a.path < b.path ? -1 : 1));
  }
  throw new Error(`no record ${instanceId}`);
}

const key = (r) => `${r.step}|${r.path}|${r.start}|${r.end}`;

function sameReads(listed, recorded, what) {
  const a = listed.map(key).sort();
  const b = recorded.map(key).sort();
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${what}: the view lists ${JSON.stringify(a)}, the record has ${JSON.stringify(b)}`);
}

/** The Instance panel's run rows once `count` are loaded: trajectory, verified, resolution, text. */
async function waitForRunFacts(page, count, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const rows = await frame
        .evaluate(() =>
          [...document.querySelectorAll('details.trajectory .run-facts[data-run-verified]')].map((el) => ({
            trajectory: el.closest('details.trajectory').getAttribute('data-trajectory'),
            verified: el.getAttribute('data-run-verified'),
            resolution: el.getAttribute('data-run-resolution'),
            text: el.textContent,
          })),
        )
        .catch(() => []);
      if (rows.length >= count) return rows;
    }
    if (Date.now() > deadline) throw new Error(`the Instance panel shows no ${count} loaded run rows`);
    await page.waitForTimeout(250);
  }
}

/** Runs Next Read Step and waits for the decoration's label to name `step`. */
async function nextReadStep(page, step) {
  await runCommand(page, 'SWE-Explore: Next Read Step of the Trajectory');
  await page.waitForFunction((want) => [...document.querySelectorAll('.editor-instance .view-line span')].some((s) => getComputedStyle(s, '::after').content.includes(`read at step ${want}`)), step, {
    timeout: 30_000,
  });
}

export const trajectoryChecks = [
  {
    name: 'trajectory view: the demo run lists exactly its reads, Next Read Step moves the decoration, "Show the steps that read this line" lands on a step that reads it',
    run: async (ctx) => {
      const { page } = ctx;
      await openWorkbench(ctx);
      await openDemoInstance(page);
      await runCommand(page, 'SWE-Explore: Show Trajectory (Repair Run)', { title: 'Show a repair run', choice: 'google/gemini-3-pro-preview' });
      const frame = await trajectoryFrame(page, GEMINI_101);
      const verified = await frame.getAttribute('#trajectory-root', 'data-verified');
      if (verified !== 'true') throw new Error(`the gemini run of ${INSTANCE} is not verified (data-verified=${verified})`);
      const listed = await listedReads(frame);
      sameReads(listed, recordedReads(path.join(ctx.workspace, 'bench.jsonl'), INSTANCE, GEMINI_101), 'demo gemini run');
      ctx.log(`reads listed: ${listed.map((r) => `${r.step}:${r.path}:${r.start},${r.end}:${r.idiom}`).join(' ')}`);
      const flagged = await frame.locator('.seen-note').allTextContents();
      if (!flagged.some((t) => /read as the whole file by the builder; the agent saw lines? /.test(t))) throw new Error(`no whole-file credit flagged: ${JSON.stringify(flagged)}`);
      await ctx.screenshot('trajectory-view');

      // Stepping: the first read (step 2, stock.py 39–56), then the next (step 4, stock.py 103–137).
      await nextReadStep(page, 2);
      await nextReadStep(page, 4);
      const current = (await listedReads(frame)).filter((r) => r.current);
      if (current.length !== 1 || current[0].step !== 4) throw new Error(`the view's current read is not step 4: ${JSON.stringify(current)}`);
      const labels = (await afterTexts(page)).filter((t) => t.includes('read at step'));
      ctx.log(`decoration labels: ${JSON.stringify(labels)}`);
      await ctx.screenshot('trajectory-read-step');

      // "Show the steps that read this line" on a core line of stock.py (47, in 39–56).
      await page.locator('.tab[aria-label*="stock.py"]').first().click();
      await goToLine(page, 47);
      await runCommand(page, 'SWE-Explore: Show the Steps That Read This Line', { title: 'Steps that read inventory/stock.py line 47', choice: 'gemini-3-pro-preview · step 2' });
      // Step 4 (103–137) was current before: wait for the view to move to a read that covers line 47.
      await frame.waitForFunction(
        () =>
          [...document.querySelectorAll('.read.current[data-read-path="inventory/stock.py"]')].some((el) => {
            const start = Number(el.getAttribute('data-read-start'));
            const end = Number(el.getAttribute('data-read-end'));
            return start <= 47 && (end === -1 || 47 <= end);
          }),
        undefined,
        { timeout: 30_000 },
      );
      const landed = (await listedReads(frame)).filter((r) => r.current);
      if (landed.length !== 1 || landed[0].step !== 2 || !(landed[0].start <= 47 && (landed[0].end === -1 || 47 <= landed[0].end)))
        throw new Error(`landed on ${JSON.stringify(landed)}, not a read of line 47`);
      const shown = await frame.evaluate(() => [...document.querySelectorAll('[data-step]')].map((el) => Number(el.getAttribute('data-step'))));
      ctx.log(`steps shown around step 2: ${JSON.stringify(shown)}`);
      if (shown.some((s) => s < 0 || s > 6)) throw new Error(`the window around step 2 shows ${JSON.stringify(shown)}, not ±4 messages`);
      await ctx.screenshot('trajectory-steps-of-line');

      // A read clicked in the view reveals it; models.py is a whole-file core every run credited whole.
      await frame.locator('.read[data-read-path="inventory/models.py"]').first().click();
      await page.waitForSelector('.tab.active[aria-label*="models.py"]', { timeout: 30_000 });
      const hover = await hoverAtLine(page, 10);
      const hoverText = (await hover.textContent()).replace(/\s+/g, ' ');
      ctx.log(`models.py hover: ${hoverText.slice(0, 400)}`);
      if (!/every trajectory credited the whole file; narrowest real view: 80, 85 by glm-4\.6/i.test(hoverText)) throw new Error(`the hover lacks the whole-file note: ${hoverText}`);
      if (!/Show the steps that read this line/.test(hoverText)) throw new Error('the hover lacks "Show the steps that read this line"');
      await page.waitForTimeout(500);
      await ctx.screenshot('trajectory-whole-file-hover');
      await page.keyboard.press('Escape');

      // The Instance panel's trajectory rows carry each run's facts: verified and resolved.
      await runCommand(page, 'SWE-Explore: Show Instance Panel');
      const facts = await waitForRunFacts(page, 3);
      ctx.log(`instance panel run rows: ${JSON.stringify(facts)}`);
      const rowVerified = Object.fromEntries(facts.map((f) => [f.trajectory, f.verified]));
      if (rowVerified[GEMINI_101] !== 'true' || rowVerified['trajs/demo/claude-sonnet-4-5/acme__inventory-101__0.json'] !== 'false') throw new Error(`run rows: ${JSON.stringify(facts)}`);
      await ctx.screenshot('trajectory-instance-panel-rows');
    },
  },
  {
    name: 'trajectory view on the real data: a gemini-3-pro run of the shared workspace, verified, its reads exactly the record’s; stepping and the steps that read a line',
    run: async (ctx) => {
      // As test/unit/support/shared-data.ts finds it: SWE_EXPLORE_SHARED, beside the checkout, or beside a worktree's parent.
      const shared =
        [process.env.SWE_EXPLORE_SHARED, path.resolve(ctx.repoRoot, '..', 'shared'), path.resolve(ctx.repoRoot, '..', '..', 'shared')].find(
          (p) => p !== undefined && fs.existsSync(path.join(p, 'real-workspace')),
        ) ?? path.resolve(ctx.repoRoot, '..', 'shared');
      const real = path.join(shared, 'real-workspace');
      const runs = path.join(shared, 'real-trajs', 'mini-swe-agent-v1');
      if (!fs.existsSync(path.join(real, 'bench.jsonl')) || !fs.existsSync(runs)) {
        ctx.log(`SKIPPED: ${real} or ${runs} is absent (the shared real data is not on this machine)`);
        return;
      }
      // A workspace of our own that points at the shared data (never written to).
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'swe-explore-real-trajs-'));
      fs.mkdirSync(path.join(folder, '.vscode'));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        JSON.stringify({
          'sweExplore.data.benchFile': path.join(real, 'bench.jsonl'),
          'sweExplore.data.reposRoot': real,
          'sweExplore.data.predictionGlobs': [path.join(real, 'results', '**', '*.jsonl')],
          'sweExplore.data.trajectoryTemplates': { 'gemini-3-pro': path.join(runs, '{instance_id}.traj.json') },
          'sweExplore.data.resolutionReports': { 'gemini-3-pro': path.join(runs, 'reports') },
        }),
      );
      fs.writeFileSync(path.join(folder, 'README.md'), 'Points the inspector at ../shared/real-workspace.\n');
      const instance = 'astropy__astropy-12907';
      const trajPath = `unify_trajs/swebench-verified/gemini-3-pro/${instance}__0.json`;
      const { page } = ctx;
      await openWorkbench(ctx, ctx.workbenchUrl(folder, [['extensionDevelopmentPath', ctx.remote(ctx.repoRoot)]]));
      await runCommand(page, 'SWE-Explore: Open Instance', { title: 'Open Instance', choice: instance });
      await page.waitForSelector('.tab.active', { timeout: 60_000 });
      await runCommand(page, 'SWE-Explore: Show Trajectory (Repair Run)', { title: 'Show a repair run', choice: 'gemini-3-pro' });
      const frame = await trajectoryFrame(page, trajPath);
      const verified = await frame.getAttribute('#trajectory-root', 'data-verified');
      if (verified !== 'true') throw new Error(`the real gemini run of ${instance} is not verified`);
      const listed = await listedReads(frame);
      sameReads(listed, recordedReads(path.join(real, 'bench.jsonl'), instance, trajPath), 'real gemini run');
      ctx.log(`real run: ${listed.length} reads listed, verified; resolution: ${await frame.locator('.badge[class*="resolution-"]').first().textContent()}`);
      await nextReadStep(page, listed[0].step);
      await ctx.screenshot('trajectory-view-real');

      // "Show the steps that read this line" at the cursor (the first line of that read).
      const line = listed[0].start < 1 ? 1 : listed[0].start;
      await runCommand(page, 'SWE-Explore: Show the Steps That Read This Line');
      const pick = page.locator('.quick-input-widget .quick-input-title', { hasText: 'Steps that read' });
      if (
        await pick.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      )
        await page.keyboard.press('Enter');
      await frame.waitForSelector('.window', { timeout: 30_000 });
      const landed = (await listedReads(frame)).filter((r) => r.current);
      ctx.log(`real run: the steps that read ${listed[0].path} line ${line}: landed on ${JSON.stringify(landed)}`);
      if (landed.length !== 1 || landed[0].path !== listed[0].path || landed[0].start > line || (landed[0].end !== -1 && landed[0].end < line))
        throw new Error(`landed on ${JSON.stringify(landed)}, not a read of line ${line}`);
      await ctx.screenshot('trajectory-steps-of-line-real');
    },
  },
];
