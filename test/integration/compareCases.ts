/** Compare mode: two explorers line by line in the editor and the Scores view; missed-line categories. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { compareReach, prepareInstance, type IntervalSet, type LineSet } from '../../src/core';
import type { InspectorApi } from '../../src/extension/extension';
import { MISSED_SPANS } from '../../src/extension/model/slices/missedSpans';
import { missedLabel } from '../../src/shared/texts';
import { recorder, until, type Case, hoverText } from './support';

const INSTANCE = 'acme__inventory-101';
const STOCK = 'inventory/stock.py';

function plain(set: IntervalSet | undefined): [number, number][] {
  return (set ?? []).map(([s, e]) => [s, e]);
}

/** The missed-core labels of a file as the editor paints them. */
function missedSpanLabels(api: InspectorApi, path: string): { start: number; end: number; category: string; text: string }[] {
  const budget = api.model.view!.explanation.budget;
  return (api.model.slice(MISSED_SPANS)?.get(path) ?? []).map((span) => ({ start: span.start, end: span.end, category: span.category, text: missedLabel(span, budget) }));
}

function activePath(): string {
  const editor = vscode.window.activeTextEditor;
  assert.ok(editor, 'an editor is open');
  return editor.document.uri.fsPath.split(path.sep).join('/');
}

export const compareCases: Case[] = [
  {
    name: 'compare: missed-core labels name the miss category of each run (localizer on the demo)',
    run: async (api) => {
      api.store.select({ explorer: 'localizer', budget: 500, profile: 'official', compareWith: undefined });
      await vscode.commands.executeCommand('sweExplore.openInstance', INSTANCE);
      const editor = vscode.window.activeTextEditor!;
      assert.ok(activePath().endsWith(`${INSTANCE}/${STOCK}`));
      const labels = missedSpanLabels(api, STOCK);
      // stock.py is predicted (#1 130–760, #2 58–70, #4 72–100), so both missed runs are wrong-region.
      assert.deepEqual(
        labels.map((l) => [l.start, l.end, l.category]),
        [
          [39, 56, 'wrong_region'],
          [103, 129, 'wrong_region'],
        ],
      );
      assert.equal(labels[0]!.text, '◌ missed core · file predicted, wrong lines: 18 lines — nearest prediction #2 starts 2 lines below');
      assert.equal(labels[1]!.text, '◌ missed core · file predicted, wrong lines: 27 lines — nearest prediction #1 starts 1 line below');
      for (const label of labels) assert.ok(label.text.includes('missed core'));
      const applied = recorder.applied(editor.document.uri.toString())!;
      assert.deepEqual(applied.missedLabel, [
        [39, 39],
        [103, 103],
      ]);
      // models.py is named by no prediction of the localizer.
      assert.deepEqual(
        missedSpanLabels(api, 'inventory/models.py').map((l) => l.text),
        ['◌ missed core · file not predicted: 85 lines'],
      );
      const hover = await hoverText(editor.document.uri, 40);
      // The run's label measures from the run (#2 starts 2 lines below line 56); the hover from line 40 itself.
      assert.ok(hover.includes('Missed core line · file predicted, wrong lines: 18 lines — nearest prediction #2 starts 18 lines below this line'), hover);
    },
  },
  {
    name: 'compare: agent vs bm25 paints the four sets compareReach computes, hides the single-explorer layers, and the hover names both ranks',
    run: async (api) => {
      api.store.select({ explorer: 'localizer', budget: 500, profile: 'official', compareWith: undefined });
      await vscode.commands.executeCommand('sweExplore.compareExplorers', 'agent', 'bm25');
      assert.equal(api.store.selection.explorer, 'agent');
      assert.equal(api.store.selection.compareWith, 'bm25');
      await vscode.commands.executeCommand('sweExplore.openInstance', INSTANCE);
      const view = api.model.view!;
      assert.ok(view.compared !== undefined, 'the store computed explorer B');
      const counts = api.store.getLineCounts(INSTANCE)!;
      const prepared = (explorer: string): ReturnType<typeof prepareInstance> => prepareInstance(view.instance.groundTruth, api.model.predictionsFor(INSTANCE, explorer), counts, 'official');
      const expected = compareReach(prepared('agent'), prepared('bm25'), 500);
      const editor = vscode.window.activeTextEditor!;
      const applied = recorder.applied(editor.document.uri.toString())!;
      const layers: [string, LineSet][] = [
        ['compareOnlyA', expected.onlyA],
        ['compareOnlyB', expected.onlyB],
        ['compareBoth', expected.both],
        ['compareNeither', expected.neither],
      ];
      for (const [layer, set] of layers) {
        assert.deepEqual(applied[layer as 'compareOnlyA'], plain(set.get(STOCK)), layer);
        assert.deepEqual(
          applied[`${layer}Label` as 'compareOnlyALabel'],
          plain(set.get(STOCK)).map(([s]) => [s, s]),
          `${layer}Label`,
        );
      }
      // On the demo, bm25 reads whole files: it reaches stock.py 122, which agent's list skips.
      assert.deepEqual(applied.compareBoth, [
        [39, 56],
        [103, 121],
        [123, 137],
      ]);
      assert.deepEqual(applied.compareOnlyB, [[122, 122]]);
      assert.deepEqual(applied.core, [], 'the core layer is hidden while comparing');
      assert.deepEqual(applied.badge, [], 'rank badges are hidden while comparing');
      assert.deepEqual(applied.missed, []);
      const hover = await hoverText(editor.document.uri, 122);
      assert.ok(hover.includes('Compare: only B reaches this line within B=500 — A (agent): no prediction covers it · B (bm25): #1 (in budget)'), hover);
      const both = await hoverText(editor.document.uri, 125);
      assert.ok(both.includes('Compare: both reach this line within B=500 — A (agent): #1 (in budget) · B (bm25): #1 (in budget)'), both);
    },
  },
  {
    name: 'compare: next/previous difference walk the onlyA/onlyB runs across files and wrap around',
    run: async (api) => {
      const view = api.model.view!;
      assert.ok(view.compared !== undefined);
      // Differences on the demo (path order): models.py 1–63, stock.py 122, test_stock.py 55–59.
      const editor = vscode.window.activeTextEditor!;
      editor.selection = new vscode.Selection(38, 0, 38, 0);
      const position = (): string => `${activePath().slice(activePath().indexOf(`${INSTANCE}/`) + INSTANCE.length + 1)}:${vscode.window.activeTextEditor!.selection.active.line + 1}`;
      await vscode.commands.executeCommand('sweExplore.nextDifference');
      await until(() => position() === `${STOCK}:122`, `cursor at ${STOCK}:122, not ${position()}`);
      await vscode.commands.executeCommand('sweExplore.nextDifference');
      await until(() => position() === 'tests/test_stock.py:55', `cursor at tests/test_stock.py:55, not ${position()}`);
      await vscode.commands.executeCommand('sweExplore.nextDifference');
      await until(() => position() === 'inventory/models.py:1', `wrap to inventory/models.py:1, not ${position()}`);
      await vscode.commands.executeCommand('sweExplore.previousDifference');
      await until(() => position() === 'tests/test_stock.py:55', `previous wraps to tests/test_stock.py:55, not ${position()}`);
      // The newly opened file is painted with the compare layers too.
      await until(() => (recorder.applied(vscode.window.activeTextEditor!.document.uri.toString())?.compareOnlyB ?? []).length > 0, 'compare layers on test_stock.py');
    },
  },
  {
    name: 'compare: Stop Comparing restores the single-explorer layers and clears the compare ones',
    run: async (api) => {
      await vscode.commands.executeCommand('sweExplore.stopComparing');
      assert.equal(api.store.selection.compareWith, undefined);
      assert.equal(api.model.view?.compared, undefined);
      await vscode.commands.executeCommand('sweExplore.openInstance', INSTANCE);
      const applied = recorder.applied(vscode.window.activeTextEditor!.document.uri.toString())!;
      for (const layer of ['compareOnlyA', 'compareOnlyB', 'compareBoth', 'compareNeither', 'compareBothLabel'] as const) assert.deepEqual(applied[layer], [], layer);
      assert.deepEqual(applied.core, [
        [39, 56],
        [103, 137],
      ]);
      api.store.select({ explorer: 'agent', budget: 500, profile: 'official' });
    },
  },
];
