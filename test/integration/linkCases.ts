/** Deep links (URI handler, Copy Link) and added prediction runs. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatDeepLink, LINK_AUTHORITY, parseDeepLink } from '../../src/core/deepLink';
import { until, type Case } from './support';

const INSTANCE = 'acme__inventory-101';
const OTHER = 'acme__tinyhttp-7';

function activePath(): string | undefined {
  return vscode.window.activeTextEditor?.document.uri.fsPath.split(path.sep).join('/');
}

async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await until(() => vscode.window.activeTextEditor === undefined, 'all editors closed');
}

export const linkCases: Case[] = [
  {
    name: 'links: a deep link opens the instance, selects explorer and budget and puts the cursor on the line',
    run: async (api) => {
      api.store.select({ explorer: 'agent', budget: 500, compareWith: undefined });
      const link = formatDeepLink({ instance: OTHER, explorer: 'bm25', budget: 300, path: 'tinyhttp/request.py', line: 12 });
      const outcome = await api.links.handleLink(vscode.Uri.parse(link));
      assert.deepEqual(outcome, { ok: true, warnings: [] });
      assert.equal(api.store.selection.instanceId, OTHER);
      assert.equal(api.store.selection.explorer, 'bm25');
      assert.equal(api.store.selection.budget, 300);
      assert.ok(activePath()?.endsWith(`${OTHER}/tinyhttp/request.py`), `active editor: ${activePath()}`);
      assert.equal(vscode.window.activeTextEditor!.selection.active.line, 11, 'cursor on line 12 (0-based 11)');

      // A line past the end lands on the last line; compare mode comes from `compare`.
      const far = await api.links.handleLink(vscode.Uri.parse(formatDeepLink({ instance: INSTANCE, explorer: 'agent', compare: 'localizer', path: 'inventory/models.py', line: 999_999 })));
      assert.equal(far.ok, true);
      const editor = vscode.window.activeTextEditor!;
      assert.ok(activePath()?.endsWith(`${INSTANCE}/inventory/models.py`));
      assert.equal(editor.selection.active.line, editor.document.lineCount - 1);
      assert.equal(api.store.selection.compareWith, 'localizer');
      api.store.select({ compareWith: undefined });

      // VS Code decodes a URI's query once: an `&` or `=` inside a value must survive that.
      const tricky = parseDeepLink(vscode.Uri.parse(formatDeepLink({ instance: 'a&explorer=b c+d', explorer: 'x#y%z' })).query);
      assert.deepEqual(tricky.ok ? tricky.target : tricky, { instance: 'a&explorer=b c+d', explorer: 'x#y%z' });

      // Unknown parameters: the link works and the warning names them.
      const odd = await api.links.handleLink(vscode.Uri.parse(`vscode://${LINK_AUTHORITY}/open?instance=${INSTANCE}&explorer=agent&colour=red&budget=500`));
      assert.equal(odd.ok, true);
      assert.ok(odd.ok && odd.warnings.length === 1 && odd.warnings[0]!.includes('"colour" (parameter 3)'), JSON.stringify(odd));
      assert.equal(api.store.selection.instanceId, INSTANCE);
    },
  },
  {
    name: 'links: escaping paths, unknown instances and repeated parameters are refused and nothing opens',
    run: async (api) => {
      await closeEditors();
      api.store.select({ instanceId: undefined, explorer: 'agent', budget: 500 });
      const base = `vscode://${LINK_AUTHORITY}/open?instance=${INSTANCE}&explorer=bm25&budget=100`;
      const refusals: Array<[string, RegExp]> = [
        [`${base}&path=../../etc/passwd`, /'\.\.' segment/],
        [`${base}&path=%2e%2e/%2e%2e/etc/passwd`, /'\.\.' segment/],
        [`${base}&path=inventory/../../x`, /'\.\.' segment/],
        [`${base}&path=/etc/passwd`, /absolute/],
        [`${base}&path=C:%5Cx`, /backslash/],
        [`${base}&path=a%2500b`, /control character/],
        [`${base}&path=inventory/nope.py&line=3`, /does not exist in the snapshot/],
        [`${base}&explorer=agent`, /repeats the parameter 'explorer'/],
        [`vscode://${LINK_AUTHORITY}/open?instance=nobody__x-1&explorer=ghost`, /no instance "nobody__x-1" and no explorer "ghost"/],
        [`vscode://${LINK_AUTHORITY}/run?instance=${INSTANCE}`, /is not \/open/],
      ];
      for (const [link, why] of refusals) {
        const outcome = await api.links.handleLink(vscode.Uri.parse(link));
        assert.equal(outcome.ok, false, link);
        assert.match(outcome.ok ? '' : outcome.message, why, link);
      }
      assert.equal(vscode.window.activeTextEditor, undefined, 'no editor was opened');
      assert.equal(api.store.selection.instanceId, undefined, 'no instance was opened');
      assert.equal(api.store.selection.explorer, 'agent', 'the selection did not move');
      assert.equal(api.store.selection.budget, 500);
    },
  },
  {
    name: 'links: Copy Link from the editor, an Instances item, a Regions item and the leaderboard; the copied link leads back',
    run: async (api) => {
      api.store.select({ explorer: 'agent', budget: 300, compareWith: undefined });
      await vscode.commands.executeCommand('sweExplore.openInstance', INSTANCE);
      const editor = vscode.window.activeTextEditor!;
      const position = new vscode.Position(44, 3);
      editor.selection = new vscode.Selection(position, position);
      const fromEditor = await vscode.commands.executeCommand<string>('sweExplore.copyLink');
      assert.equal(await vscode.env.clipboard.readText(), fromEditor);
      const parsed = parseDeepLink(vscode.Uri.parse(fromEditor).query);
      assert.ok(parsed.ok);
      assert.deepEqual(parsed.target, { instance: INSTANCE, explorer: 'agent', budget: 300, path: 'inventory/stock.py', line: 45 });
      // The editor context menu passes the document's URI.
      assert.equal(await vscode.commands.executeCommand<string>('sweExplore.copyLink', editor.document.uri), fromEditor);

      const fromInstance = await vscode.commands.executeCommand<string>('sweExplore.copyLink', { kind: 'instance', instanceId: OTHER });
      assert.equal(fromInstance, formatDeepLink({ instance: OTHER, explorer: 'agent', budget: 300 }));
      const fromCore = await vscode.commands.executeCommand<string>('sweExplore.copyLink', { kind: 'leaf', target: { kind: 'core', index: 1 } });
      assert.equal(fromCore, formatDeepLink({ instance: INSTANCE, explorer: 'agent', budget: 300, path: 'inventory/stock.py', line: 39 }));
      const prediction = api.model.view!.explanation.predictions[0]!;
      const fromPrediction = await vscode.commands.executeCommand<string>('sweExplore.copyLink', { kind: 'leaf', target: { kind: 'prediction', rank: 1 } });
      const predictionTarget = parseDeepLink(vscode.Uri.parse(fromPrediction).query);
      assert.ok(predictionTarget.ok && predictionTarget.target.path === prediction.region.path);
      const fromLeaderboard = await vscode.commands.executeCommand<string>('sweExplore.copyLink', { view: 'leaderboard', explorer: 'bm25', metric: 'ndcg_at_500' });
      assert.equal(fromLeaderboard, formatDeepLink({ view: 'leaderboard', explorer: 'bm25', metric: 'ndcg_at_500' }));
      assert.equal(await vscode.env.clipboard.readText(), fromLeaderboard);

      // Following the editor's link from elsewhere lands on the same line.
      await closeEditors();
      api.store.select({ explorer: 'bm25', budget: 500 });
      const back = await api.links.handleLink(vscode.Uri.parse(fromEditor));
      assert.equal(back.ok, true);
      assert.ok(activePath()?.endsWith(`${INSTANCE}/inventory/stock.py`));
      assert.equal(vscode.window.activeTextEditor!.selection.active.line, 44);
      assert.equal(api.store.selection.explorer, 'agent');
      assert.equal(api.store.selection.budget, 300);
      api.store.select({ budget: 500 });
    },
  },
  {
    name: 'addPredictions: a transcript folder becomes an explorer with the parsed regions; re-adding is a no-op',
    run: async (api) => {
      const root = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-transcripts-'));
      const folder = path.join(root, 'transcript-agent');
      mkdirSync(folder);
      writeFileSync(path.join(folder, `${INSTANCE}.txt`), 'Looked at the stock code.\n\nRELEVANT_FILES:\n- inventory/stock.py:39-56\n- inventory/models.py\n- inventory/not_there.py:1-3\n');
      writeFileSync(path.join(folder, `${OTHER}.md`), 'No idea, sorry.\n');
      writeFileSync(path.join(folder, 'nobody__x-1.txt'), 'RELEVANT_FILES:\n- a.py:1\n');
      const added = await vscode.commands.executeCommand<string[]>('sweExplore.addPredictions', [vscode.Uri.file(folder)]);
      try {
        assert.deepEqual(added, ['transcript-agent']);
        assert.ok(api.store.explorers.includes('transcript-agent'));
        const run = api.store.data.explorers.get('transcript-agent')!;
        assert.deepEqual(run.rows.get(INSTANCE)!.regions, [
          { path: 'inventory/stock.py', start: 39, end: 56 },
          { path: 'inventory/models.py', start: 1, end: -1 },
        ]);
        assert.deepEqual(run.rows.get(OTHER)!.regions, []);
        assert.equal(run.rows.has('nobody__x-1'), false);
        const problems = api.loader.allProblems();
        const at = (code: string, file: string): boolean => problems.some((p) => p.code === code && p.file === path.join(folder, file));
        assert.ok(at('unknown-instance', 'nobody__x-1.txt'), 'unknown instance reported at its file');
        assert.ok(at('answer-empty', `${OTHER}.md`), 'no RELEVANT_FILES block reported at its file');
        assert.ok(at('answer-entry-skipped', `${INSTANCE}.txt`), 'the path missing from the snapshot reported at its file');
        // It is an explorer like any other: selectable, scored.
        api.store.select({ explorer: 'transcript-agent' });
        await vscode.commands.executeCommand('sweExplore.openInstance', INSTANCE);
        assert.deepEqual(
          api.model.view!.predictions.map((r) => r.path),
          ['inventory/stock.py', 'inventory/models.py'],
        );
        assert.ok(api.model.scoreOf(INSTANCE, 'transcript-agent') !== undefined);
        // Adding the same folder again changes nothing.
        const before = api.store.data;
        assert.deepEqual(await vscode.commands.executeCommand<string[]>('sweExplore.addPredictions', [vscode.Uri.file(folder)]), []);
        assert.equal(api.store.data, before, 'no reload');
        // A reload keeps the added run.
        await api.loader.load();
        assert.ok(api.store.explorers.includes('transcript-agent'));
      } finally {
        await api.links.forgetAddedRuns();
        api.store.select({ explorer: 'agent', budget: 500 });
      }
      assert.equal(api.store.explorers.includes('transcript-agent'), false);
    },
  },
];
