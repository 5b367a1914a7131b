/**
 * A what-if as the extension shows it, without `vscode`: the data session's variants registered as
 * a ground-truth source of the model (as the what-if controller does), then the Scores state (as
 * written → what-if, the caption, the instance note), the leaderboard's ranks with τ-b against the
 * data layer's (`swe-explore whatif`) numbers, the protocols' guards and the sentences.
 */
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { OFFICIAL_METRIC_NAMES, parseWhatIfRules, type WhatIfRules } from '../../../src/core';
import { groundTruthPaths, instanceLineCounts, LineCountCache, loadWorkspace, WhatIfSession } from '../../../src/data';
import { buildLeaderboardState } from '../../../src/extension/leaderboard/leaderboardState';
import { buildScoresState } from '../../../src/extension/scores/scoresState';
import { leaderboardCaption, parseToLeaderboardWebview } from '../../../src/shared/leaderboardProtocol';
import { parseFromScoresWebview, parseToScoresWebview } from '../../../src/shared/scoresProtocol';
import { escapeMarkdownText } from '../../../src/shared/escape';
import { whatIfCoreSummary, whatIfLabel, whatIfLayerLabel, whatIfLineSentence, whatIfRunsSummary } from '../../../src/shared/texts';
import { newModel } from '../support/store-builders';
import { writeWhatIfFixture } from '../support/whatif-fixture';

const fixture = writeWhatIfFixture();
after(() => rmSync(fixture.dir, { recursive: true, force: true }));

function rules(text: string): WhatIfRules {
  const parsed = parseWhatIfRules(text);
  assert.ok(parsed.ok);
  return parsed.rules;
}

/** The fixture loaded into a model with every line count, and the as-seen what-if registered as the controller registers it. */
async function loaded(): Promise<{ model: ReturnType<typeof newModel>; session: WhatIfSession; id: string }> {
  const data = await loadWorkspace({ benchFile: fixture.bench, predictionFiles: [fixture.preds] });
  const model = newModel({ budget: 500, profile: 'official', topK: 5 });
  model.store.setData(data);
  const cache = new LineCountCache();
  const counts = new Map<string, ReadonlyMap<string, number>>();
  for (const entry of data.instances.values()) {
    const paths = groundTruthPaths(entry.groundTruth);
    for (const row of data.explorers.values()) for (const region of row.rows.get(entry.instanceId)?.regions ?? []) paths.add(region.path);
    counts.set(entry.instanceId, (await instanceLineCounts(data, entry, paths, cache)).counts);
  }
  model.store.setLineCounts(counts, true);
  const session = new WhatIfSession(data, { locator: { roots: [fixture.dir], templates: [], templateBase: fixture.dir }, reports: [], reportsBase: fixture.dir, keepCommands: true });
  const variants = await session.variants(rules('as-seen'));
  const id = 'what-if:as-seen';
  model.groundTruths.register({ id, label: whatIfLabel('as-seen'), groundTruthOf: (entry) => variants.get(entry.instanceId)?.groundTruth ?? entry.groundTruth });
  return { model, session, id };
}

describe('a what-if in the extension', () => {
  it('the Scores state shows as written → what-if, says which ground truth, and passes its guard', async () => {
    const { model, session, id } = await loaded();
    model.store.select({ instanceId: 'o__r-1', explorer: 'narrow', groundTruth: id });
    const variant = (await session.variantOf('o__r-1', rules('as-seen'))).variant;
    const state = buildScoresState(model, {
      choice: {
        options: [
          { id: 'as-written', label: 'as written' },
          { id, label: 'what-if: as-seen' },
        ],
        selected: id,
        pending: null,
      },
      whatIf: { text: 'as-seen', instance: (instanceId) => (instanceId === 'o__r-1' ? { variant } : undefined) as never },
    });
    assert.equal(state.status, 'ready', state.message);
    assert.equal(state.groundTruth, 'what-if: as-seen');
    assert.equal(state.afterLabel, 'What-if');
    assert.deepEqual(state.whatIf, {
      label: 'what-if: as-seen',
      core: 'core lines 131 → 27 (20 join, 124 leave)',
      runs: '3 runs re-extracted, 0 runs as recorded (not found: the rules cannot apply), 0 runs dropped',
      joined: 20,
      left: 124,
    });
    assert.ok(state.metrics.every((m) => m.audited !== null));
    assert.ok(state.metrics.some((m) => m.audited !== m.value));
    assert.ok(parseToScoresWebview(JSON.parse(JSON.stringify({ type: 'state', state }))));
    assert.equal(parseToScoresWebview({ type: 'state', state: { ...state, groundTruthChoice: { options: 'x', selected: id, pending: null } } }), null);
    assert.equal(parseToScoresWebview({ type: 'state', state: { ...state, whatIf: { label: 1 } } }), null);
  });

  it('macro averages and the leaderboard ranks with τ-b equal the data layer (swe-explore whatif)', async () => {
    const { model, session, id } = await loaded();
    model.store.select({ groundTruth: id });
    const scores = await session.scoresOf(rules('as-seen'), { profile: 'official', k: 5 });
    for (const line of scores.explorers) {
      const macro = model.macros.get(line.explorer)!;
      const before = model.macrosAsWritten.get(line.explorer)!;
      for (const name of OFFICIAL_METRIC_NAMES) {
        assert.ok(Math.abs(macro.macro[name]! - line.after[name]) < 1e-12, `${line.explorer} ${name} after`);
        assert.ok(Math.abs(before.macro[name]! - line.before[name]) < 1e-12, `${line.explorer} ${name} before`);
      }
    }
    const board = buildLeaderboardState(model);
    assert.equal(board.groundTruth, 'what-if: as-seen');
    assert.match(leaderboardCaption(board), /ground truth what-if: as-seen/);
    for (const ranking of scores.rankings) {
      const shown = board.rankings.find((r) => r.metric === ranking.metric)!;
      assert.equal(shown.tauB, ranking.kendall_tau_b, ranking.metric);
      assert.deepEqual(new Set(shown.after), new Set(ranking.after));
    }
    assert.ok(parseToLeaderboardWebview(JSON.parse(JSON.stringify({ type: 'state', state: board }))));
    assert.equal(parseToLeaderboardWebview({ type: 'state', state: { ...board, rankings: [{ metric: 'nope', before: [], after: [], tauB: 1 }] } }), null);
    // Back to the bench as written: no ranks to compare.
    model.store.select({ groundTruth: 'as-written' });
    assert.deepEqual(buildLeaderboardState(model).rankings, []);
  });

  it('the Scores view asks for a ground truth only with a well-formed choice', () => {
    assert.deepEqual(parseFromScoresWebview({ type: 'setGroundTruth', choice: 'what-if:as-seen' }), { type: 'setGroundTruth', choice: 'what-if:as-seen' });
    assert.deepEqual(parseFromScoresWebview({ type: 'composeWhatIf' }), { type: 'composeWhatIf' });
    for (const bad of [{ type: 'setGroundTruth' }, { type: 'setGroundTruth', choice: '' }, { type: 'setGroundTruth', choice: 7 }, { type: 'setGroundTruth', choice: 'x'.repeat(5000) }]) {
      assert.equal(parseFromScoresWebview(bad), null, JSON.stringify(bad).slice(0, 80));
    }
  });

  it('words the layers, the hover and the note', () => {
    assert.equal(whatIfLabel('as-seen,support:2'), 'what-if: as-seen,support:2');
    assert.equal(whatIfLayerLabel('leave', 'as-seen'), '▼ would leave the core under what-if: as-seen');
    assert.equal(whatIfLayerLabel('join', 'official,support:2'), '▲ would join the core under what-if: official,support:2');
    assert.equal(
      whatIfLineSentence('left', 'as-seen', "credited by gemini-3-pro's `nl -ba | sed -n '120,180p'` at step 9 as the whole file; no run saw it"),
      "▼ Would leave the core under what-if: as-seen: credited by gemini-3-pro's `nl -ba | sed -n '120,180p'` at step 9 as the whole file; no run saw it",
    );
    assert.match(whatIfLineSentence('joined', 'official,support:2', 'read by 2 of 3 kept runs; the core needs 2'), /^▲ Would join the core under/);
    // A command from a trajectory is hostile: the hover escapes the whole sentence, so no link, HTML or icon survives.
    const hostile = escapeMarkdownText(whatIfLineSentence('left', 'as-seen', "credited by m1's `cat [a](command:x) <img src=x> $(alert)` at step 2 as the whole file; no run saw it"));
    for (const raw of [/[^\\]\]\(command/, /[^\\]<img/, /[^\\]\$\(alert/, /[^\\]`cat/]) assert.doesNotMatch(hostile, raw);
    assert.equal(whatIfCoreSummary(28482, 23768, 0, 4714), 'core lines 28,482 → 23,768 (0 join, 4,714 leave)');
    assert.equal(whatIfRunsSummary(1, 2, 0), '1 run re-extracted, 2 runs as recorded (not found: the rules cannot apply), 0 runs dropped');
  });
});
