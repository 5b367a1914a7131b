/** Scale: a synthetic 848-instance × 20-explorer workspace, figures printed as [timing] lines. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { generateSyntheticWorkspace } from '../../scripts/gen-synthetic';
import type { LeaderboardState } from '../../src/shared/leaderboardProtocol';
import { figures, longestStallDuring, median, recorder, timings, until, type Case } from './support';

const drawnExplorers = (): number => recorder.rendered<{ explorers: number }>('leaderboard').detail?.explorers ?? -1;

/** The scale: the benchmark's 848 instances, 20 runs, files up to 20k lines. */
const INSTANCES = 848;
const EXPLORERS = 20;

const megabytes = (bytes: number): number => bytes / 1024 / 1024;

export const scaleCases: Case[] = [
  {
    name: `scale: ${INSTANCES} instances × ${EXPLORERS} explorers open, count, average and stay responsive`,
    run: async (api) => {
      const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-scale-'));
      const config = vscode.workspace.getConfiguration('sweExplore');
      try {
        const generated = performance.now();
        const ws = await generateSyntheticWorkspace({ out: root, instances: INSTANCES, explorers: EXPLORERS, maxLines: 20000, seed: 1 });
        timings[`scale: generate ${INSTANCES} × ${EXPLORERS} (not product time)`] = performance.now() - generated;
        // The Instances view is shown, so the tree really asks for items while the benchmark opens.
        await vscode.commands.executeCommand('sweExplore.instances.focus');
        const itemsBefore = recorder.treeItems;
        const heapBefore = process.memoryUsage().heapUsed;
        const { result: openMs, stallMs: loadStall } = await longestStallDuring(async () => {
          const started = performance.now();
          await config.update('data.benchFile', ws.benchFile, vscode.ConfigurationTarget.Workspace);
          await until(() => api.store.data.benchFile === ws.benchFile && !api.store.loading, 'the scale workspace to load', 120000);
          return performance.now() - started;
        });
        assert.equal(api.store.instanceIds.length, INSTANCES);
        assert.equal(api.store.explorers.length, EXPLORERS);
        timings[`scale: workspace open (bench + ${EXPLORERS} prediction files parsed, views filled)`] = openMs;
        timings['scale:   longest extension-host stall while opening'] = loadStall;

        const { result: countedMs, stallMs: countStall } = await longestStallDuring(async () => {
          const started = performance.now();
          await api.loader.whenCounted();
          assert.ok(
            api.store.instanceIds.every((id) => api.store.hasLineCounts(id)),
            'every instance counted',
          );
          return performance.now() - started;
        });
        timings['scale: line counts of every instance + every row scored, in the background (after open)'] = countedMs;
        timings['scale:   longest stall while counting in the background'] = countStall;

        // The data checks (every region against the snapshot) reach the Problems panel, capped per file.
        const { result: checkedMs, stallMs: checkStall } = await longestStallDuring(async () => {
          const started = performance.now();
          await api.loader.whenChecked();
          return performance.now() - started;
        });
        timings['scale: data checks in the Problems panel (after counting)'] = checkedMs;
        timings['scale:   longest stall meanwhile'] = checkStall;
        const problems = api.loader.allProblems().length;
        const listed = vscode.languages.getDiagnostics().reduce((sum, [, list]) => sum + list.filter((d) => d.source === 'SWE-Explore').length, 0);
        figures['scale: data problems found / listed in the Problems panel (200 per file, then a "more" line)'] = `${problems} / ${listed}`;

        const { result: macroMs, stallMs: macroStall } = await longestStallDuring(async () => {
          const started = performance.now();
          const macros = api.model.macros;
          const ms = performance.now() - started;
          assert.equal(macros.size, EXPLORERS);
          for (const macro of macros.values()) assert.equal(macro.instances, macro.expected, `${macro.explorer}: every expected instance averaged`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          return ms;
        });
        timings[`scale: macro averages of ${EXPLORERS} explorers (${INSTANCES * EXPLORERS} rows scored in the background while counting)`] = macroMs;
        timings['scale:   longest stall around it'] = macroStall;

        // The ground-truth selector at scale, with an instance open: support:2 over the records'
        // recorded reads (the synthetic runs are not on disk), computed and its rows and averages
        // prepared in the background, then switched back and forth (each switch: the store event,
        // every painter, the Scores state).
        await vscode.commands.executeCommand('sweExplore.openInstance', api.store.instanceIds[0]);
        const { result: whatIfMs, stallMs: whatIfStall } = await longestStallDuring(async () => {
          const started = performance.now();
          const applied = await vscode.commands.executeCommand<boolean>('sweExplore.chooseGroundTruth', 'what-if:official,support:2');
          assert.equal(applied, true, 'the what-if is applied');
          return performance.now() - started;
        });
        timings['scale: what-if support:2 chosen the first time → applied (variants + rows under it, in the background)'] = whatIfMs;
        timings['scale:   of which the variants of every record'] = recorder.timing('whatIfCompute') ?? 0;
        timings['scale:   of which scoring every row under it in slices'] = recorder.timing('groundTruthRowsScored') ?? 0;
        timings['scale:   longest extension-host stall meanwhile (target < 50)'] = whatIfStall;
        timings['scale:   registering the source'] = recorder.timing('whatIfRegister') ?? 0;
        timings['scale:   selecting it (every painter)'] = recorder.timing('groundTruthSelect') ?? 0;
        timings['scale:   the last Scores state built'] = recorder.timing('scores: state') ?? 0;
        const provider = api.scoresView as unknown as { receive(raw: unknown): void };
        const switchTimes: number[] = [];
        // A switch to a prepared ground truth runs in one go (the host is busy for all of it).
        for (const choice of ['as-written', 'what-if:official,support:2', 'as-written', 'what-if:official,support:2', 'as-written', 'what-if:official,support:2']) {
          const before = recorder.posted('scores').count;
          const started = performance.now();
          provider.receive({ type: 'setGroundTruth', choice });
          await until(
            () => recorder.posted('scores').count > before && recorder.posted<{ groundTruthChoice: { selected: string } }>('scores').state?.groundTruthChoice.selected === choice,
            `the Scores view to show ${choice}`,
          );
          const ms = recorder.posted('scores').at - started;
          switchTimes.push(ms);
          figures[`scale:   switch to ${choice} #${switchTimes.length}`] =
            `${ms.toFixed(0)} ms (view ${api.model.view?.computeMs.toFixed(0)} ms, decorations ${recorder.timing('decorations: paint')?.toFixed(0)} ms, Scores state ${recorder.timing('scores: state')?.toFixed(0)} ms, select ${recorder.timing('groundTruthSelect')?.toFixed(0)} ms)`;
        }
        timings['scale: ground-truth selector switch after the first computation → Scores state posted (median of 6; target < 200)'] = median(switchTimes);
        timings['scale:   slowest switch'] = switchTimes.reduce((a, b) => Math.max(a, b), 0);
        // The median is asserted: one sample can absorb a scheduling hiccup of the loaded test machine.
        assert.ok(median(switchTimes) < 200, `switches took ${switchTimes.map((ms) => ms.toFixed(0)).join(', ')} ms`);
        await vscode.commands.executeCommand('sweExplore.chooseGroundTruth', 'audited');

        // The leaderboard as a person gets it: the command, the rows' miss anatomy scored in slices
        // (the scores are already cached by the background counting), the state built and drawn.
        const { result: panelMs, stallMs: panelStall } = await longestStallDuring(async () => {
          const started = performance.now();
          await vscode.commands.executeCommand('sweExplore.showLeaderboard');
          await until(() => recorder.posted<LeaderboardState>('leaderboard').state?.explorers.length === EXPLORERS && drawnExplorers() === EXPLORERS, 'the scale leaderboard to be drawn', 60000);
          return performance.now() - started;
        });
        timings['scale: Show Leaderboard → macros + per-repo + miss anatomy at B=500 drawn'] = panelMs;
        const warmMs = recorder.timing('leaderboard: rows scored in slices') ?? 0;
        const buildMs = recorder.timing('leaderboard: state built') ?? 0;
        timings["scale:   of which computing it in slices (rows' anatomy, then the two walks; target < 2000)"] = warmMs;
        timings['scale:   of which building the state from cached rows'] = buildMs;
        const ready = recorder.ready('leaderboard');
        if (ready !== undefined) {
          timings['scale:   panel created → webview said ready'] = ready.ms;
          timings['scale:   webview ready → state posted'] = Math.max(0, recorder.posted('leaderboard').at - ready.at);
        }
        timings['scale:   longest extension-host stall meanwhile (target < 100)'] = panelStall;
        // The target is the computation (the two walks and the anatomy of every row); the
        // webview's own start-up in the workbench is reported beside it.
        const computeMs = warmMs + buildMs;
        assert.ok(computeMs < 2000, `computing the leaderboard took ${computeMs.toFixed(0)} ms (target < 2 s)`);
        assert.ok(panelStall < 250, `the extension host was blocked for ${panelStall.toFixed(0)} ms while the leaderboard was prepared`);
        const board = api.model.leaderboard(500);
        assert.equal(board.scores.length, EXPLORERS);
        assert.equal(board.anatomy.length, EXPLORERS);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        // Once more, with the workbench settled: the panel is created again, the store's caches are warm.
        const again = performance.now();
        const drawnBefore = recorder.rendered('leaderboard').count;
        await vscode.commands.executeCommand('sweExplore.showLeaderboard');
        await until(() => recorder.rendered('leaderboard').count > drawnBefore && drawnExplorers() === EXPLORERS, 'the scale leaderboard to be drawn again', 60000);
        timings['scale: Show Leaderboard again (panel re-created, caches warm) → drawn'] = performance.now() - again;
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');

        const { result: openInstanceMs } = await longestStallDuring(async () => {
          const started = performance.now();
          await vscode.commands.executeCommand('sweExplore.openInstance', api.store.instanceIds[INSTANCES - 1]);
          return performance.now() - started;
        });
        timings['scale: Open Instance in the scale workspace'] = openInstanceMs;

        const treeItems = recorder.treeItems - itemsBefore;
        figures['scale: Instances tree items created (lazy: repos start collapsed above 200 instances)'] = String(treeItems);
        const heap = process.memoryUsage().heapUsed;
        figures['scale: extension-host heap used after open, counts, macros, leaderboard (target < 600 MB)'] = `${megabytes(heap).toFixed(0)} MB`;
        figures['scale:   heap growth over the demo workspace'] = `${megabytes(heap - heapBefore).toFixed(0)} MB`;
        assert.ok(megabytes(heap) < 600, `extension-host heap ${megabytes(heap).toFixed(0)} MB (target < 600)`);
      } finally {
        await config.update('data.benchFile', undefined, vscode.ConfigurationTarget.Workspace);
        await until(() => api.store.data.benchFile !== path.join(root, 'bench.jsonl') && !api.store.loading, 'the demo bench to load again', 60000);
        rmSync(root, { recursive: true, force: true });
      }
    },
  },
];
