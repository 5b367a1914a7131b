// Browser checks run by run-e2e.mjs (phase B): what a person sees in the real workbench.
//
// Each entry is { name, run: async (ctx) => void, timeoutMs?, needsVsix? }; a check fails by throwing.
// `needsVsix`: the check opens a window without a development path, on the packaged extension
// run-e2e installs into the server.
// Every check gets a fresh page (1400×850). ctx: page, browser, host, remote(path),
// workbenchUrl(folder, payload), repoRoot, workspace, screenshot(name), log(text).
// Decorations are matched by computed style (the class names VS Code generates change), and
// expected numbers come from the CLI, which shares the metric core but not the extension's code.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compareChecks } from './checks-compare.mjs';
import { dayChecks } from './checks-day.mjs';
import { explorerRunChecks } from './checks-explorer-runs.mjs';
import { leaderboardChecks } from './checks-leaderboard.mjs';
import { linkChecks } from './checks-links.mjs';
import { scoresChecks } from './checks-scores.mjs';
import { trajectoryChecks } from './checks-trajectory.mjs';
import { whatIfChecks } from './checks-whatif.mjs';
import {
  INSTANCE,
  MAIN_FILE,
  themeColor,
  SAME_COLOR,
  themeKind,
  cliMetrics,
  openWorkbench,
  runCommand,
  decoratedLineTexts,
  afterTexts,
  hoverAtLine,
  scoresFrame,
  metricValue,
  near,
  goToLine,
  openDemoInstance,
} from './support.mjs';

const baseChecks = [
  {
    name: 'Open Instance decorates gold core lines, missed lines and rank badges in the editor',
    run: async (ctx) => {
      const { page, repoRoot } = ctx;
      await openWorkbench(ctx);
      await openDemoInstance(page);
      const fileLines = fs.readFileSync(path.join(repoRoot, MAIN_FILE), 'utf8').split('\n');
      const coreLine = fileLines[38]; // line 39: first line of core region 2 (stock.py 39–56)
      const kind = await themeKind(page);
      const coreBackground = themeColor(repoRoot, 'coreBackground', kind);
      const coreBorder = themeColor(repoRoot, 'coreBorder', kind);
      const missedBackground = themeColor(repoRoot, 'missedBackground', kind);
      ctx.log(`theme ${kind}: core ${coreBackground} / ${coreBorder}, missed ${missedBackground} (r, g, b, alpha)`);
      await page.waitForFunction(
        ([bg, same]) => [...document.querySelectorAll('.monaco-editor .view-overlays .cdr')].some((e) => eval(same)(getComputedStyle(e).backgroundColor, bg)),
        [coreBackground, SAME_COLOR],
        { timeout: 60_000 },
      );
      const core = await decoratedLineTexts(page, { backgroundColor: coreBackground, borderLeftColor: coreBorder, borderLeftStyle: 'solid' });
      ctx.log(`${core.length} rendered lines carry the core decoration`);
      if (!core.includes(coreLine)) throw new Error(`line 39 (${JSON.stringify(coreLine)}) is not decorated as core; decorated: ${JSON.stringify(core.slice(0, 5))}`);
      if (core.includes(fileLines[37]) && fileLines[37].trim() !== '') throw new Error('line 38 is decorated as core but lies outside every core region');
      const badges = await afterTexts(page);
      ctx.log(`after-texts: ${JSON.stringify(badges.slice(0, 6))}`);
      if (!badges.some((b) => /#5 ✓ in budget/.test(b))) throw new Error(`no "#5 ✓ in budget" badge at line 39 (agent's 5th region starts there): ${JSON.stringify(badges)}`);
      await ctx.screenshot('editor-core-and-badges');
      // Switch to the localizer, which misses most core lines: the missed layer must appear.
      await runCommand(page, 'SWE-Explore: Pick Explorer', { title: 'explorer to score', choice: 'localizer' });
      await page
        .waitForFunction(
          ([bg, same]) => [...document.querySelectorAll('.monaco-editor .view-overlays .cdr')].some((e) => eval(same)(getComputedStyle(e).backgroundColor, bg)),
          [missedBackground, SAME_COLOR],
          { timeout: 30_000 },
        )
        .catch(async (error) => {
          const seen = await page.evaluate(() => [...new Set([...document.querySelectorAll('.monaco-editor .view-overlays .cdr')].map((e) => getComputedStyle(e).backgroundColor))]);
          throw new Error(`${error.message}; overlay colours present: ${seen.join(' | ')}`);
        });
      const missed = await decoratedLineTexts(page, { backgroundColor: missedBackground });
      if (!missed.includes(coreLine)) throw new Error('line 39 is not marked as a missed core line for the localizer');
      const labels = await afterTexts(page);
      if (!labels.some((t) => t.includes('missed core'))) throw new Error(`no "missed core" label: ${JSON.stringify(labels)}`);
      ctx.log(`${missed.length} rendered lines marked missed for the localizer`);
      // The hover on line 39 explains its layers.
      const hover = await hoverAtLine(page, 39);
      const hoverText = await hover.textContent();
      if (!/Core\s2\/4,\slines\s39–56/.test(hoverText)) throw new Error(`hover text lacks the core region: ${hoverText}`);
      await page.waitForTimeout(500); // the hover fades in
      await ctx.screenshot('editor-missed-and-hover');
    },
  },
  {
    name: "Scores view shows the CLI's numbers for the instance and the budget control changes them",
    run: async (ctx) => {
      const { page, repoRoot } = ctx;
      const expected = cliMetrics(repoRoot, 'agent');
      await openWorkbench(ctx);
      await runCommand(page, 'SWE-Explore: Open Instance', { title: 'Open Instance', choice: INSTANCE });
      await page.locator('.activitybar a[aria-label^="SWE-Explore"]').first().click();
      const frame = scoresFrame(page);
      await frame.locator(`#scores-root[data-instance="${INSTANCE}"]`).waitFor({ timeout: 60_000 });
      const root = frame.locator('#scores-root');
      const attrs = await root.evaluate((e) => ({ ...e.dataset }));
      ctx.log(`scores root: ${JSON.stringify(attrs)}`);
      if (attrs.explorer !== 'agent' || attrs.budget !== '500' || attrs.profile !== 'official') throw new Error(`unexpected view state ${JSON.stringify(attrs)}`);
      for (const name of ['recall', 'precision', 'ndcg_at_500', 'recall_at_500', 'first_useful_hit']) {
        const shown = await metricValue(page, name);
        if (!near(shown, expected[name])) throw new Error(`${name}: view ${shown}, CLI ${expected[name]}`);
      }
      const recallText = (await frame.locator('[data-metric="recall"]').first().textContent()).trim();
      if (recallText !== expected.recall.toFixed(3)) throw new Error(`recall is displayed as "${recallText}", expected ${expected.recall.toFixed(3)}`);
      ctx.log(`recall ${recallText}, nDCG@500 ${expected.ndcg_at_500}`);
      await ctx.screenshot('scores-budget-500');
      await frame.locator('button.budget-button[data-budget="100"]').click();
      await frame.locator('#scores-root[data-budget="100"]').waitFor({ timeout: 30_000 });
      const ndcg100 = await metricValue(page, 'ndcg_at_budget');
      const recall100 = await metricValue(page, 'recall_at_budget');
      if (!near(ndcg100, expected.ndcg_at_100) || !near(recall100, expected.recall_at_100)) {
        throw new Error(`at B=100 the view shows nDCG ${ndcg100}, Recall ${recall100}; CLI says ${expected.ndcg_at_100}, ${expected.recall_at_100}`);
      }
      const status = await page.locator('.statusbar-item', { hasText: 'nDCG@100' }).first().textContent({ timeout: 30_000 });
      ctx.log(`status bar: ${status.trim()}`);
      await ctx.screenshot('scores-budget-100');
      // Collapse the two trees so the whole Scores view is visible for the screenshot a person would look at.
      for (const title of ['Instances', 'Regions']) {
        await page.locator('.pane-header', { hasText: title }).first().click();
      }
      await frame.locator('[data-metric="first_useful_hit"]').first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await ctx.screenshot('scores-full');
      await frame.locator('.quirk-list').first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await ctx.screenshot('scores-curve-predictions-quirks');
    },
  },
  {
    name: 'audit: removing selected lines through the palette rescores the Scores view (before → after) and appends to the audit log',
    run: async (ctx) => {
      const { page, repoRoot, workspace } = ctx;
      const auditRoot = path.join(workspace, '.swe-explore');
      fs.rmSync(auditRoot, { recursive: true, force: true });
      try {
        await openWorkbench(ctx);
        await openDemoInstance(page);
        // Select lines 40–45 of stock.py (inside core region 39–56): go to line 40, extend six lines down.
        await page.locator('.editor-instance .view-lines').first().click();
        await goToLine(page, 40);
        for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowDown');
        const NOTE = 'only the guard clause matters';
        await runCommand(page, 'SWE-Explore: Remove Span from Ground Truth', { title: 'reason for removing', choice: 'over-broad-read' });
        await page.locator('.quick-input-widget .quick-input-title', { hasText: 'note for this removal' }).waitFor({ timeout: 30_000 });
        await page.keyboard.type(NOTE);
        await page.keyboard.press('Enter');

        // The audit log on disk: one remove event, exactly as the schema writes it.
        const dir = path.join(auditRoot, 'audit');
        const deadline = Date.now() + 30_000;
        // The log is opened (created) before its line is appended: wait for a whole line, not only the file.
        const logText = () => {
          const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
          return files.length === 0 ? { files, text: '' } : { files, text: fs.readFileSync(path.join(dir, files[0]), 'utf8') };
        };
        while (!logText().text.endsWith('\n')) {
          if (Date.now() > deadline) throw new Error('no audit event appeared in .swe-explore/audit');
          await page.waitForTimeout(200);
        }
        const { files, text } = logText();
        ctx.log(`audit file ${files[0]}: ${text.trim()}`);
        const events = text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        if (events.length !== 1) throw new Error(`expected one event, found ${events.length}`);
        const [event] = events;
        const wanted = { v: 1, op: 'remove', instance_id: INSTANCE, layer: 'core', model: null, path: 'inventory/stock.py', start: 40, end: 45, reason: 'over-broad-read', note: NOTE };
        for (const [key, value] of Object.entries(wanted)) if (event[key] !== value) throw new Error(`event.${key} is ${JSON.stringify(event[key])}, expected ${JSON.stringify(value)}`);
        if (!/^[0-9a-f]{64}$/.test(event.text_sha)) throw new Error(`text_sha ${event.text_sha}`);
        if (Object.keys(event).join(',') !== 'v,op,id,instance_id,layer,model,path,start,end,reason,note,author,at,text_sha') throw new Error(`key order ${Object.keys(event)}`);

        // The Scores view: audited root hook, before (original) and current (audited) values.
        await page.locator('.activitybar a[aria-label^="SWE-Explore"]').first().click();
        const frame = scoresFrame(page);
        await frame.locator(`#scores-root[data-instance="${INSTANCE}"][data-audited="true"]`).waitFor({ timeout: 60_000 });
        const original = cliMetrics(repoRoot, 'agent');
        // Expected audited values from the CLI's audit-impact (shares the metric core, not the extension's code).
        const impact = execFileSync(
          process.execPath,
          [
            path.join(repoRoot, 'dist/cli.js'),
            'audit-impact',
            '--bench',
            path.join(workspace, 'bench.jsonl'),
            '--preds',
            path.join(workspace, 'results/agent/top5.jsonl'),
            '--audit',
            dir,
            '--format',
            'json',
          ],
          { encoding: 'utf8' },
        )
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
          .find((l) => l.kind === 'instance' && l.instance_id === INSTANCE);
        if (!impact) throw new Error('audit-impact printed no line for the instance');
        let changed = 0;
        for (const name of ['recall', 'precision', 'f1_score', 'ndcg_at_500', 'recall_at_500', 'weighted_core_coverage']) {
          const cell = frame.locator(`[data-metric="${name}"]`).first();
          const before = Number(await cell.getAttribute('data-value-before', { timeout: 30_000 }));
          const after = Number(await cell.getAttribute('data-value'));
          ctx.log(`${name}: ${before} → ${after} (CLI ${original[name]} → ${impact.after[name]})`);
          if (!near(before, original[name])) throw new Error(`${name}: data-value-before ${before}, CLI original ${original[name]}`);
          if (!near(after, impact.after[name])) throw new Error(`${name}: data-value ${after}, CLI audited ${impact.after[name]}`);
          if (!near(before, after)) changed++;
        }
        if (changed === 0) throw new Error('removing six core lines changed no metric');
        // The removed span has its own layer in the editor (colour, struck-through text and a ✂ label).
        const kind = await themeKind(page);
        const removedBackground = themeColor(repoRoot, 'removedBackground', kind);
        const removed = await decoratedLineTexts(page, { backgroundColor: removedBackground, borderLeftStyle: 'double' });
        const fileLines = fs.readFileSync(path.join(repoRoot, MAIN_FILE), 'utf8').split('\n');
        if (!removed.includes(fileLines[39])) throw new Error(`line 40 is not decorated as removed; removed: ${JSON.stringify(removed.slice(0, 3))}`);
        const labels = await afterTexts(page);
        if (!labels.some((t) => t.includes('removed from core'))) throw new Error(`no "removed from core" label: ${JSON.stringify(labels)}`);
        const status = await page.locator('.statusbar-item', { hasText: 'audited 1/3' }).first().textContent({ timeout: 30_000 });
        ctx.log(`status bar: ${status.trim()}`);
        await ctx.screenshot('audit-remove-span');
        for (const title of ['Instances', 'Regions', 'Removals']) await page.locator('.pane-header', { hasText: title }).first().click();
        await page.waitForTimeout(400);
        await ctx.screenshot('audit-scores-before-after');
      } finally {
        // Later checks expect the demo as shipped (the extension itself never deletes audit files).
        fs.rmSync(auditRoot, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'provenance layers and the Instance panel: consensus/promoted labels, "read by" hover, issue and patch beside the code',
    run: async (ctx) => {
      const { page } = ctx;
      await openWorkbench(ctx);
      await openDemoInstance(page);
      await page.waitForFunction(() => [...document.querySelectorAll('.editor-instance .view-line span')].some((s) => /consensus|promoted/.test(getComputedStyle(s, '::after').content)), null, {
        timeout: 60_000,
      });
      const labels = await afterTexts(page);
      ctx.log(`provenance labels: ${JSON.stringify(labels.filter((t) => /consensus|promoted/.test(t)))}`);
      const hover = await hoverAtLine(page, 47);
      const hoverText = await hover.textContent();
      ctx.log(`hover: ${hoverText.replace(/\s+/g, ' ').slice(0, 300)}`);
      if (!/read by \d of 3 trajectories/.test(hoverText)) throw new Error(`hover lacks "read by N of 3 trajectories": ${hoverText}`);
      await page.waitForTimeout(500); // the hover fades in
      await ctx.screenshot('provenance-layers-hover');
      await page.keyboard.press('Escape');
      await runCommand(page, 'SWE-Explore: Show Instance Panel');
      await page.waitForSelector('.tab[aria-label*="Instance ·"]', { timeout: 60_000 });
      await page.waitForTimeout(1500);
      await ctx.screenshot('instance-panel');
    },
  },
  {
    name: 'the packaged .vsix (what npm start installs) activates and decorates without a development path',
    // run-e2e installs the package into the server before it starts (as `npm start` does).
    needsVsix: true,
    run: async (ctx) => {
      const { repoRoot, page } = ctx;
      await openWorkbench(ctx, ctx.workbenchUrl(ctx.workspace));
      await runCommand(page, 'SWE-Explore: Open Instance', { title: 'Open Instance', choice: INSTANCE });
      const background = themeColor(repoRoot, 'coreBackground', await themeKind(page));
      await page.waitForFunction(
        ([bg, same]) => [...document.querySelectorAll('.monaco-editor .view-overlays .cdr')].some((e) => eval(same)(getComputedStyle(e).backgroundColor, bg)),
        [background, SAME_COLOR],
        { timeout: 60_000 },
      );
      const title = await page.title();
      if (title.includes('[Extension Development Host]')) throw new Error('the window runs a development extension, not the installed .vsix');
      await ctx.screenshot('packaged-vsix');
    },
  },
];

/** Every browser check, the feature modules' after the base ones. */
export const checks = [...baseChecks, ...scoresChecks, ...compareChecks, ...leaderboardChecks, ...linkChecks, ...dayChecks, ...trajectoryChecks, ...whatIfChecks, ...explorerRunChecks];
