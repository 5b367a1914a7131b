/**
 * One paint per user action: commands only change the selection, the model's one change event
 * repaints each surface once, and an editor that becomes visible is painted once, on its own.
 * Counted through the probe (src/extension/base/probe.ts), printed as `[figure]` lines.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { figures, recorder, type Case } from './support';

const SURFACES = ['decorations', 'leaveOneOut', 'scores', 'statusBar', 'codeLens', 'regionsTree', 'instancesTree', 'removalsTree'] as const;

interface Paints {
  /** Repaint passes per surface. */
  readonly passes: Record<(typeof SURFACES)[number], number>;
  /** Times each editor (by URI) received the decorations. */
  readonly editors: Map<string, number>;
}

/** Runs `action`, lets VS Code settle (editors open asynchronously), and counts what was painted meanwhile. */
async function paintsDuring(action: () => Thenable<unknown>): Promise<Paints> {
  const uris = (): string[] => vscode.window.visibleTextEditors.map((e) => e.document.uri.toString());
  const before = Object.fromEntries(SURFACES.map((s) => [s, recorder.paintsOf(s)])) as Paints['passes'];
  const seen = new Set(uris());
  // Every editor the recorder has seen, so an editor that only becomes visible now counts from its real start.
  const editorsBefore = recorder.editorPaintCounts();
  await action();
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const uri of uris()) seen.add(uri);
  const passes = Object.fromEntries(SURFACES.map((s) => [s, recorder.paintsOf(s) - before[s]])) as Paints['passes'];
  const editors = new Map([...seen].map((uri) => [uri, recorder.editorPaintsOf(uri) - (editorsBefore.get(uri) ?? 0)]));
  return { passes, editors };
}

function describe(paints: Paints): string {
  const passes = SURFACES.map((s) => `${s} ${paints.passes[s]}`).join(', ');
  return `${passes}; editors painted ${[...paints.editors.values()].join('+') || '0'} time(s)`;
}

/** Every surface that shows the open instance repainted exactly once, and no editor twice. */
function assertOnePaint(paints: Paints, what: string): void {
  for (const surface of ['decorations', 'leaveOneOut', 'scores', 'statusBar', 'codeLens', 'regionsTree'] as const) {
    assert.equal(paints.passes[surface], 1, `${what}: ${surface} repainted ${paints.passes[surface]} times (${describe(paints)})`);
  }
  for (const [uri, count] of paints.editors) assert.ok(count <= 1, `${what}: ${uri} painted ${count} times`);
}

export const paintCases: Case[] = [
  {
    name: 'one paint per user action: Open Instance, a budget change, compare start and stop',
    run: async (api) => {
      await api.loader.whenCounted();
      api.store.select({ explorer: 'agent', budget: 500, profile: 'official', compareWith: undefined });
      await vscode.commands.executeCommand('sweExplore.openInstance', 'acme__tinyhttp-7');

      // Open Instance: decorations paint twice at most — the selection's pass (the editor still showing the
      // previous instance loses its layers) and the opened editor once it is visible — each editor once.
      const open = await paintsDuring(() => vscode.commands.executeCommand('sweExplore.openInstance', 'acme__inventory-101'));
      figures['paints: Open Instance'] = describe(open);
      const opened = vscode.window.activeTextEditor!.document.uri.toString();
      assert.equal(open.editors.get(opened), 1, `the opened editor was painted ${open.editors.get(opened) ?? 0} times (${describe(open)})`);
      for (const [uri, count] of open.editors) assert.ok(count <= 1, `${uri} painted ${count} times`);
      for (const surface of ['scores', 'statusBar', 'codeLens', 'regionsTree'] as const) assert.equal(open.passes[surface], 1, `Open Instance: ${surface} repainted ${open.passes[surface]} times`);
      assert.ok(open.passes.decorations <= 2, describe(open));

      const budget = await paintsDuring(() => vscode.commands.executeCommand('sweExplore.setBudget', 300));
      figures['paints: budget change'] = describe(budget);
      assertOnePaint(budget, 'budget change');
      assert.equal(budget.editors.get(opened), 1);

      const start = await paintsDuring(() => vscode.commands.executeCommand('sweExplore.compareExplorers', 'agent', 'bm25'));
      figures['paints: compare start'] = describe(start);
      assertOnePaint(start, 'compare start');

      const stop = await paintsDuring(() => vscode.commands.executeCommand('sweExplore.stopComparing'));
      figures['paints: compare stop'] = describe(stop);
      assertOnePaint(stop, 'compare stop');
      api.store.select({ budget: 500 });
    },
  },
];
