// Browser checks: the ground-truth selector's what-if (issue 20). The demo's records cite runs
// that are not on disk, so this check writes the small what-if workspace of the unit tests (three
// real runs of one instance: an `nl -ba | sed -n` read and a `grep -n` the builder credits as whole
// files, a heredoc write it counts as a read) and opens it. Same shape as checks.mjs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterTexts, decoratedLineTexts, hoverAtLine, openWorkbench, runCommand, scoresFrame, themeColor, themeKind, quickOpenFile } from './support.mjs';

const INSTANCE = 'o__r-1';
const RULES = 'as-seen';

/** Writes the what-if fixture (test/unit/support/whatif-fixture.ts) into `dir`, with settings that load it. */
function writeWorkspace(repoRoot, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  const fixture = pathToFileURL(path.join(repoRoot, 'test/unit/support/whatif-fixture.ts')).href;
  execFileSync(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(fixture)}).then((m) => (m.writeWhatIfFixture ?? m.default.writeWhatIfFixture)(${JSON.stringify(dir)}))`], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  const settings = { 'sweExplore.data.benchFile': 'bench.jsonl', 'sweExplore.data.predictionGlobs': ['preds.jsonl'], 'sweExplore.data.reposRoot': 'repos' };
  fs.writeFileSync(path.join(dir, '.vscode/settings.json'), JSON.stringify(settings, null, 2));
}

/** `swe-explore whatif` on the same files: every explorer's `after` macro averages. */
function cliAfter(repoRoot, dir) {
  const out = execFileSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), 'whatif', '--bench', 'bench.jsonl', '--rules', RULES, '--preds', 'preds.jsonl', '--repos', 'repos'], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const lines = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return {
    explorers: new Map(lines.filter((l) => l.kind === 'explorer').map((l) => [l.explorer, l.after])),
    taus: new Map(lines.filter((l) => l.kind === 'ranking').map((l) => [l.metric, l.kendall_tau_b])),
    instance: lines.find((l) => l.kind === 'instance' && l.instance_id === INSTANCE),
  };
}

/** The frame (of the editor-area webview) that holds the leaderboard's root, once it is drawn. */
async function leaderboardFrame(page, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const found = await frame
        .locator('#leaderboard-root[data-status="ready"][data-complete="true"] table[data-rankings]')
        .count()
        .catch(() => 0);
      if (found > 0) return frame;
    }
    if (Date.now() > deadline) throw new Error('no webview frame shows the leaderboard with its ranks');
    await page.waitForTimeout(250);
  }
}

export const whatIfChecks = [
  {
    name: 'What-if: choosing as-seen in the Scores view gives the CLI after values, paints "would leave the core" and says why in the hover; leaderboard ranks with the CLI tau-b',
    timeoutMs: 300_000,
    run: async (ctx) => {
      const { page, repoRoot } = ctx;
      const dir = path.join(ctx.tmpDir, 'whatif-workspace');
      writeWorkspace(repoRoot, dir);
      const cli = cliAfter(repoRoot, dir);
      ctx.log(`CLI: ${INSTANCE} core ${cli.instance.core_lines_before} → ${cli.instance.core_lines_after} (${cli.instance.left} leave, ${cli.instance.joined} join)`);
      await openWorkbench(ctx, ctx.workbenchUrl(dir, [['extensionDevelopmentPath', ctx.remote(repoRoot)]]));
      await runCommand(page, 'SWE-Explore: Open Instance', { title: 'Open Instance', choice: INSTANCE });
      await page.locator('.activitybar a[aria-label^="SWE-Explore"]').first().click();
      const frame = scoresFrame(page);
      await frame.locator(`#scores-root[data-instance="${INSTANCE}"][data-status="ready"]`).waitFor({ timeout: 60_000 });
      for (const title of ['Instances', 'Regions', 'Removals']) {
        const header = page.locator('.pane-header[aria-expanded="true"]', { hasText: title }).first();
        if ((await header.count()) > 0) await header.click();
      }

      // The selector: "compose rules…" opens the quick picks; as-seen is picked there.
      const select = frame.locator('#ground-truth-select');
      await select.selectOption({ label: 'what-if: compose rules…' });
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'which ground truth' }).waitFor({ timeout: 30_000 });
      await page.keyboard.type('compose');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'compose rules' }).first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'what-if rules' }).waitFor({ timeout: 30_000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'as-seen' }).first().click();
      await page.keyboard.press('Enter');
      const choice = `what-if:${RULES}`;
      await frame.locator(`#scores-root[data-ground-truth-choice="${choice}"]`).waitFor({ timeout: 60_000 });
      const caption = await frame.locator('[data-ground-truth]').first().textContent();
      if (caption !== `Ground truth: what-if: ${RULES}`) throw new Error(`caption: ${caption}`);
      const note = frame.locator('.what-if-note').first();
      await note.waitFor({ timeout: 30_000 });
      const left = Number(await note.getAttribute('data-what-if-left'));
      if (left !== cli.instance.left) throw new Error(`the note says ${left} lines leave, the CLI ${cli.instance.left}`);
      ctx.log(`note: ${await note.textContent()}`);

      // Every explorer's macro averages in the Scores view equal the CLI's `after`.
      let compared = 0;
      for (const [explorer, after] of cli.explorers) {
        const cells = frame.locator(`table[data-scope="macros"] tbody[data-explorer="${explorer.replace(/["\\]/g, '\\$&')}"] [data-compare-metric]`);
        await cells.first().waitFor({ timeout: 30_000 });
        for (const cell of await cells.all()) {
          const metric = await cell.getAttribute('data-compare-metric');
          const value = Number(await cell.getAttribute('data-compare-value'));
          if (Math.abs(value - after[metric]) > 1e-9) throw new Error(`${explorer} ${metric}: the view shows ${value}, the CLI's after is ${after[metric]}`);
          compared++;
        }
      }
      if (compared === 0) throw new Error('no macro value compared');
      ctx.log(`${compared} macro values equal the CLI's after`);
      // The metric table shows as written → what-if.
      const afterHeader = await frame.locator('.metric-table thead th').nth(2).textContent();
      if (afterHeader !== 'What-if') throw new Error(`the metric table's after column is "${afterHeader}"`);
      await page.waitForTimeout(300);
      await ctx.screenshot('whatif-scores');

      // The "would leave the core" layer on pkg/a.py (whole-file credit nobody saw), its label and hover.
      await quickOpenFile(page, 'pkg/a.py', 'a.py');
      await page.locator('.editor-instance .view-line').first().waitFor({ timeout: 30_000 });
      const kind = await themeKind(page);
      const leaveColour = themeColor(repoRoot, 'whatIfLeaveBackground', kind);
      let leaving = [];
      for (let i = 0; i < 40 && leaving.length === 0; i++) {
        leaving = await decoratedLineTexts(page, { backgroundColor: leaveColour });
        if (leaving.length === 0) await page.waitForTimeout(250);
      }
      if (leaving.length === 0) throw new Error('no line carries the "would leave the core" colour');
      const labels = await afterTexts(page);
      if (!labels.some((t) => t.includes('▼ would leave the core under what-if: as-seen'))) throw new Error(`no ▼ label: ${JSON.stringify(labels.slice(0, 8))}`);
      ctx.log(`${leaving.length} visible lines would leave the core; first: ${JSON.stringify(leaving[0])}`);
      await ctx.screenshot('whatif-leave-layer');
      const hover = await hoverAtLine(page, 5);
      const text = (await hover.textContent()) ?? '';
      if (!/Would leave the core under what-if: as-seen: credited by m1's `nl -ba \| sed -n '10,30p'` at step 2 as the whole file/.test(text)) throw new Error(`hover: ${text}`);
      ctx.log(`hover: ${text.slice(text.indexOf('▼'), text.indexOf('▼') + 200)}`);
      await ctx.screenshot('whatif-hover');
      await page.keyboard.press('Escape');

      // Back to the bench as written through the selector: the caption and the layer follow.
      await select.selectOption('as-written');
      await frame.locator('#scores-root[data-ground-truth-choice="as-written"]').waitFor({ timeout: 30_000 });
      for (let i = 0; i < 40 && leaving.length > 0; i++) {
        leaving = await decoratedLineTexts(page, { backgroundColor: leaveColour });
        if (leaving.length > 0) await page.waitForTimeout(250);
      }
      if (leaving.length > 0) throw new Error('the "would leave" layer stays after choosing the bench as written');

      // The report: the same Markdown as swe-explore whatif --format md.
      await select.selectOption(choice);
      await frame.locator(`#scores-root[data-ground-truth-choice="${choice}"]`).waitFor({ timeout: 30_000 });
      await runCommand(page, 'SWE-Explore: Show What-If Report', undefined);
      await page.locator('.monaco-editor .view-line', { hasText: '# What-if ground truth' }).first().waitFor({ timeout: 60_000 });
      await page.waitForTimeout(500);
      await ctx.screenshot('whatif-report');

      // The leaderboard: ranks as written → under the what-if, with the CLI's τ-b.
      await runCommand(page, 'SWE-Explore: Show Leaderboard');
      const board = await leaderboardFrame(page);
      const boardCaption = (await board.locator('#leaderboard-root .caption').textContent()).trim();
      if (!boardCaption.includes(`ground truth what-if: ${RULES}`)) throw new Error(`leaderboard caption: ${boardCaption}`);
      for (const [metric, tau] of cli.taus) {
        const cell = board.locator(`table[data-rankings] tr[data-metric="${metric}"] [data-tau-b]`).first();
        const shown = await cell.getAttribute('data-tau-b', { timeout: 30_000 });
        if (tau === null ? shown !== '' : Math.abs(Number(shown) - tau) > 1e-12) throw new Error(`${metric}: τ-b ${shown}, the CLI ${tau}`);
      }
      await board.locator('table[data-rankings]').scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await ctx.screenshot('whatif-leaderboard');
    },
  },
];

export const checks = whatIfChecks;
