/** The audit in the extension host: a removal rescores, paints and exports; a restore undoes it. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyRemovals, officialMetrics, prepareInstance } from '../../src/core';
import { buildScoresState } from '../../src/extension/scores/scoresState';
import { auditedCount, auditStatusOf } from '../../src/extension/state/auditState';
import { recorder, timings, type Case } from './support';

export const auditCases: Case[] = [
  {
    name: 'audit: a core removal rescores on the audited ground truth, paints the removed layer, and a restore undoes it',
    run: async (api) => {
      await vscode.commands.executeCommand('sweExplore.openInstance', 'acme__inventory-101');
      api.store.select({ explorer: 'agent', budget: 500, profile: 'official' });
      const before = api.model.view!.explanation.metrics;
      const dir = api.audit.dir!;
      try {
        api.audit.lastReason = 'incidental-read';
        // Core region 2 of 4 (stock.py 39–56), as its CodeLens names it; no prompt with the last reason.
        const index = api.model.view!.explanation.coreRegions.findIndex((r) => r.region.path === 'inventory/stock.py' && r.region.start === 39);
        // "A removal to updated decorations and Scores": from the removal reaching the store to the
        // editor layers repainted and the Scores state rebuilt and posted. The store notifies its
        // listeners synchronously, so timing the store update call spans both; the counters prove
        // both happened inside it.
        const setAudit = api.store.setAudit.bind(api.store);
        let removalToViewsMs = -1;
        let paintsDuring = 0;
        let scoresDuring = 0;
        api.store.setAudit = (state) => {
          const paints = recorder.paintsOf('decorations');
          const scores = recorder.paintsOf('scores');
          const started = performance.now();
          setAudit(state);
          if (removalToViewsMs < 0 && state.removalsByInstance.size > 0) {
            removalToViewsMs = performance.now() - started;
            paintsDuring = recorder.paintsOf('decorations') - paints;
            scoresDuring = recorder.paintsOf('scores') - scores;
          }
        };
        try {
          await vscode.commands.executeCommand('sweExplore.removeSpanWithLastReason', { kind: 'core', index });
        } finally {
          api.store.setAudit = setAudit;
        }
        assert.ok(paintsDuring >= 1 && scoresDuring >= 1, `the removal repainted (${paintsDuring}) and rebuilt Scores (${scoresDuring})`);
        timings['a removal → updated decorations and Scores (demo)'] = removalToViewsMs;
        assert.ok(removalToViewsMs >= 0 && removalToViewsMs < 1000, `a removal took ${removalToViewsMs} ms to reach the views (target < 100 ms)`);
        const view = api.model.view!;
        assert.equal(view.removals.length, 1);
        assert.deepEqual(view.original?.metrics, before, 'the original metrics are kept for before/after');
        const counts = api.store.getLineCounts('acme__inventory-101')!;
        const audited = applyRemovals(view.instance.groundTruth, [{ layer: 'core', model: null, path: 'inventory/stock.py', start: 39, end: 56 }], counts);
        assert.deepEqual(view.explanation.metrics, officialMetrics(prepareInstance(audited, view.predictions, counts, 'official')));
        const state = buildScoresState(api.model);
        assert.ok(state.audit !== null && state.metrics.every((m) => m.audited !== null));
        assert.equal(state.metrics.find((m) => m.name === 'recall')!.value, before.recall);
        const editor = vscode.window.activeTextEditor!;
        const applied = recorder.applied(editor.document.uri.toString())!;
        assert.deepEqual(applied.removed, [[39, 56]]);
        assert.deepEqual(applied.core, [[103, 137]], 'removed lines no longer count as core');
        const lines = readFileSync(path.join(dir, readdirSync(dir)[0]!), 'utf8')
          .trim()
          .split('\n');
        const event = JSON.parse(lines[0]!) as Record<string, unknown>;
        assert.equal(event['op'], 'remove');
        assert.equal(event['reason'], 'incidental-read');
        assert.match(String(event['text_sha']), /^[0-9a-f]{64}$/);
        assert.equal(auditedCount(api.store.audit, api.store.instanceIds).audited, 1);
        // Export writes the corrected bench to the file named, never the bench itself.
        const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'swe-explore-export-')), 'bench.audited.jsonl');
        await vscode.commands.executeCommand('sweExplore.exportCorrectedBench', vscode.Uri.file(out));
        const exported = readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { instance_id: string; ground_truth: { read_core_regions: unknown[] } });
        assert.deepEqual(
          exported.find((r) => r.instance_id === 'acme__inventory-101')!.ground_truth.read_core_regions.filter((r) => (r as { path: string }).path === 'inventory/stock.py'),
          [{ path: 'inventory/stock.py', start: 103, end: 137 }],
        );
        await vscode.commands.executeCommand('sweExplore.acceptInstance', 'acme__tinyhttp-7');
        assert.equal(auditStatusOf(api.store.audit, 'acme__tinyhttp-7'), 'accepted');
        assert.equal(auditedCount(api.store.audit, api.store.instanceIds).audited, 2);
        await vscode.commands.executeCommand('sweExplore.restoreSpan', view.removals[0]!.id);
        assert.equal(api.model.view!.removals.length, 0);
        assert.deepEqual(api.model.view!.explanation.metrics, before);
        assert.equal(api.model.view!.original, undefined);
      } finally {
        // The test cleans up after itself; the extension never deletes or rewrites an audit file.
        rmSync(path.dirname(dir), { recursive: true, force: true });
        await api.audit.refresh();
      }
    },
  },
];
