import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  evaluateQuery,
  explorerReference,
  METRIC_LABELS,
  OFFICIAL_METRIC_NAMES,
  queryHelp,
  parseQuery,
  queryProblem,
  queryReadsMetrics,
  unknownExplorerProblem,
  type InstanceQuery,
  type OfficialMetricName,
  type QueryColumn,
  type QueryContext,
  type QueryTerm,
} from '../../../src/core';
import { METRIC_INFO } from '../../../src/shared/metricInfo';
import { shortName } from '../../../src/cli/format';

function parsed(text: string): InstanceQuery {
  const result = parseQuery(text);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.query;
}

function terms(text: string): readonly QueryTerm[] {
  return parsed(text).terms;
}

function refused(text: string): { message: string; offset: number; token: string } {
  const result = parseQuery(text);
  assert.ok(!result.ok, `${JSON.stringify(text)} should be refused`);
  return result;
}

describe('parseQuery: accepted queries', () => {
  it('reads a metric of a named explorer', () => {
    assert.deepEqual(terms('recall@cosil < 0.2'), [{ kind: 'metric', left: { metric: 'recall', explorer: 'cosil', offset: 0 }, minus: undefined, op: '<', value: 0.2 }]);
  });

  it('a metric without @ is the current explorer; every operator', () => {
    const ops = { '<': '<', '<=': '<=', '>': '>', '>=': '>=', '=': '=', '==': '=', '!=': '!=' } as const;
    for (const [written, op] of Object.entries(ops)) {
      assert.deepEqual(terms(`hit_file_rate ${written} 1`), [{ kind: 'metric', left: { metric: 'hit_file_rate', explorer: undefined, offset: 0 }, minus: undefined, op, value: 1 }]);
      assert.deepEqual(terms(`hit_file_rate${written}1`), terms(`hit_file_rate ${written} 1`));
    }
  });

  it('reads the difference of two metric references', () => {
    assert.deepEqual(terms('ndcg_at_500@agent - ndcg_at_500@bm25 > 0.3'), [
      {
        kind: 'metric',
        left: { metric: 'ndcg_at_500', explorer: 'agent', offset: 0 },
        minus: { metric: 'ndcg_at_500', explorer: 'bm25', offset: 20 },
        op: '>',
        value: 0.3,
      },
    ]);
    // Without an explorer the minus needs no space.
    assert.deepEqual(terms('recall-precision>=-0.5')[0], {
      kind: 'metric',
      left: { metric: 'recall', explorer: undefined, offset: 0 },
      minus: { metric: 'precision', explorer: undefined, offset: 7 },
      op: '>=',
      value: -0.5,
    });
  });

  it('reads repo terms, flags and "and" (keywords in any case)', () => {
    assert.deepEqual(terms('repo = astropy/astropy AND audited and Unaudited and repo != "my repo"'), [
      { kind: 'repo', op: '=', repo: 'astropy/astropy' },
      { kind: 'audited', audited: true },
      { kind: 'audited', audited: false },
      { kind: 'repo', op: '!=', repo: 'my repo' },
    ]);
  });

  it('quoted explorer labels hold spaces, parentheses, quotes and backslashes', () => {
    const [term] = terms('recall@"agent (results/agent/top10.jsonl)" >= .5');
    assert.equal(term?.kind === 'metric' ? term.left.explorer : undefined, 'agent (results/agent/top10.jsonl)');
    const [escaped] = terms('recall@"a \\"b\\" \\\\ c" < 1');
    assert.equal(escaped?.kind === 'metric' ? escaped.left.explorer : undefined, 'a "b" \\ c');
  });

  it('bare explorer names keep hyphens, slashes and dots', () => {
    const [term] = terms('recall@claude-sonnet-4.5/top5 > 0');
    assert.equal(term?.kind === 'metric' ? term.left.explorer : undefined, 'claude-sonnet-4.5/top5');
  });

  it('accepts aliases and any case for metric names', () => {
    const cases: Array<[string, OfficialMetricName]> = [
      ['F1', 'f1_score'],
      ['ndcg500', 'ndcg_at_500'],
      ['recall100', 'recall_at_100'],
      ['hitF', 'hit_file_rate'],
      ['RECALL', 'recall'],
      ['fuh', 'first_useful_hit'],
    ];
    for (const [written, metric] of cases) {
      const [term] = terms(`${written} > 0`);
      assert.equal(term?.kind === 'metric' ? term.left.metric : undefined, metric, written);
    }
    for (const name of OFFICIAL_METRIC_NAMES) assert.equal(terms(`${name} <= 1`).length, 1, name);
  });

  it('an empty or blank query has no terms', () => {
    assert.deepEqual(terms(''), []);
    assert.deepEqual(terms('  \t\n'), []);
  });

  it('reads numbers with exponents and signs', () => {
    const [term] = terms('recall > 1e-3');
    assert.equal(term?.kind === 'metric' ? term.value : undefined, 0.001);
  });
});

describe('parseQuery: the labels the views show, and explorers in brackets', () => {
  const metricOf = (text: string): QueryColumn | undefined => {
    const [term] = terms(text);
    return term?.kind === 'metric' ? term.left.metric : undefined;
  };
  const explorerOf = (text: string): string | undefined => {
    const [term] = terms(text);
    return term?.kind === 'metric' ? term.left.explorer : undefined;
  };

  it("Recall@500 < 0.2 is the current explorer's Recall@500 (the issue's query), in any case", () => {
    assert.deepEqual(terms('Recall@500 < 0.2'), [{ kind: 'metric', left: { metric: 'recall_at_500', explorer: undefined, offset: 0 }, minus: undefined, op: '<', value: 0.2 }]);
    assert.equal(queryProblem('Recall@500 < 0.2', ['cosil']), undefined);
    for (const text of ['recall@500 < 0.2', 'RECALL@500<0.2', 'R@500 < 0.2', 'recall_at_500 < 0.2', 'recall500 < 0.2']) assert.equal(metricOf(text), 'recall_at_500', text);
    assert.equal(metricOf('nDCG@100 > 0'), 'ndcg_at_100');
  });

  it('every label of the Scores view (METRIC_INFO), the sidebar and the CLI table is a metric spelling', () => {
    for (const name of OFFICIAL_METRIC_NAMES) {
      assert.equal(metricOf(`${METRIC_INFO[name].label} >= 0`), name, METRIC_INFO[name].label);
      for (const label of METRIC_LABELS[name]) assert.equal(metricOf(`${label} >= 0`), name, label);
    }
    // The sidebar's short headings (src/webview/renderComparison.ts) and the CLI table's columns (src/cli/format.ts).
    const shown: Array<[string, OfficialMetricName]> = [
      ['Prec.', 'precision'],
      ['R@100', 'recall_at_100'],
      ['R@300', 'recall_at_300'],
      ['R@500', 'recall_at_500'],
      ['1st hit', 'first_useful_hit'],
      ['noiseF', 'noise_file_rate'],
      ['noiseR', 'noise_region_rate'],
      ['ctxEff', 'context_efficiency'],
      ['optCov', 'optional_coverage'],
      ['hitR', 'hit_region_rate'],
      ['wcc', 'weighted_core_coverage'],
    ];
    for (const [label, name] of shown) assert.equal(metricOf(`${label} >= 0`), name, label);
    for (const field of OFFICIAL_METRIC_NAMES) assert.equal(metricOf(`${shortName(field)} >= 0`), field, shortName(field));
  });

  it('multi-word labels take any whitespace between words, and any case', () => {
    assert.equal(metricOf('noise  FILE\trate < 0.5'), 'noise_file_rate');
    assert.equal(metricOf('weighted core coverage@agent > 0'), 'weighted_core_coverage');
    assert.equal(explorerOf('weighted core coverage@agent > 0'), 'agent');
    assert.equal(metricOf('First useful hit = 1'), 'first_useful_hit');
  });

  it('[explorer] holds any text but "]", trimmed; quoted inside brackets too', () => {
    assert.equal(explorerOf('Recall@500[cosil] < 0.2'), 'cosil');
    assert.equal(explorerOf('Recall@500 [ agent (results/agent/top10.jsonl) ] < 0.2'), 'agent (results/agent/top10.jsonl)');
    assert.equal(explorerOf('recall["a ] b"] < 1'), 'a ] b');
    assert.equal(explorerOf('recall["500"] < 1'), '500');
    assert.equal(explorerOf('recall@"500" < 1'), '500');
    assert.deepEqual(terms('Recall@500[agent] - Recall@500[bm25] > 0.3')[0], {
      kind: 'metric',
      left: { metric: 'recall_at_500', explorer: 'agent', offset: 0 },
      minus: { metric: 'recall_at_500', explorer: 'bm25', offset: 20 },
      op: '>',
      value: 0.3,
    });
    // Without spaces the brackets end the name, so the difference needs none.
    assert.equal(terms('recall[a-b]-recall[c] > 0').length, 1);
  });

  it('keeps metric@explorer where it is not a label: recall@cosil, Recall@500@cosil, recall @ cosil', () => {
    assert.deepEqual([metricOf('recall@cosil < 0.2'), explorerOf('recall@cosil < 0.2')], ['recall', 'cosil']);
    assert.deepEqual([metricOf('Recall@500@cosil < 0.2'), explorerOf('Recall@500@cosil < 0.2')], ['recall_at_500', 'cosil']);
    assert.deepEqual([metricOf('Recall@500 @ "cosil" < 0.2'), explorerOf('Recall@500 @ "cosil" < 0.2')], ['recall_at_500', 'cosil']);
    // A longer word is not cut at a label: recall@5000 is not Recall@500 + "0"; digits only after @ are refused.
    assert.equal(refused('recall@5000 < 1').offset, 0);
    assert.deepEqual([metricOf('recall@500x < 1'), explorerOf('recall@500x < 1')], ['recall', '500x']);
  });
});

describe('queryHelp: built from the loaded explorers and the metric labels', () => {
  it('names the loaded explorers (not demo ones) in the prompt and the text; examples parse', () => {
    const help = queryHelp(['cosil', 'agent (results/agent/top10.jsonl)']);
    assert.doesNotMatch(help.prompt, /bm25/);
    assert.match(help.prompt, /Recall@500 < 0\.2/);
    assert.match(help.prompt, /\[cosil\]/);
    assert.doesNotMatch(help.prompt, /\n/);
    assert.match(help.text, /cosil/);
    assert.match(help.text, /agent \(results\/agent\/top10\.jsonl\)/);
    for (const example of help.examples) assert.equal(queryProblem(example, ['cosil', 'agent (results/agent/top10.jsonl)']), undefined, example);
    for (const name of OFFICIAL_METRIC_NAMES) assert.ok(help.text.includes(METRIC_INFO[name].label), name);
  });

  it('without explorers it says none are loaded; with many it lists a few and counts the rest', () => {
    assert.match(queryHelp([]).text, /no explorers are loaded/);
    for (const example of queryHelp([]).examples) assert.equal(parseQuery(example).ok, true, example);
    const many = queryHelp(Array.from({ length: 30 }, (_, i) => `run${i}`));
    assert.match(many.text, /and 18 more/);
  });

  it('explorerReference brackets a name, and quotes one that holds "]", starts with a quote or has outer spaces', () => {
    assert.equal(explorerReference('cosil'), '[cosil]');
    assert.equal(explorerReference('agent (x)'), '[agent (x)]');
    assert.equal(explorerReference('a]b'), '["a]b"]');
    assert.equal(explorerReference(' x'), '[" x"]');
    // Quotes and backslashes inside are plain text in brackets; a leading quote needs the quoted form.
    assert.equal(explorerReference('say "hi" \\'), '[say "hi" \\]');
    assert.equal(explorerReference('"q" \\'), '["\\"q\\" \\\\"]');
    for (const name of ['cosil', 'a]b', ' x', 'say "hi" \\', '"q" \\', 'agent (x)', 'x\n']) assert.equal(explorerOfRef(name), name, JSON.stringify(name));
  });
});

function explorerOfRef(name: string): string | undefined {
  const [term] = terms(`recall${explorerReference(name)} < 1`);
  return term?.kind === 'metric' ? term.left.explorer : undefined;
}

describe('parseQuery: refused queries point at the offending token', () => {
  const cases: Array<[string, number, string, RegExp]> = [
    ['recal < 1', 0, 'recal', /^column 1: "recal" is not a metric/],
    ['recall <', 8, '', /^column 9: expected a number, got the end of the query$/],
    ['recall < 0.2x', 9, '0.2x', /^column 10: expected a number, got "0\.2x"$/],
    ['recall < 1e999', 9, '1e999', /expected a number/],
    ['recall 0.2', 7, '0.2', /^column 8: expected a comparison \(< <= > >= = !=\), got "0\.2"$/],
    ['recall@ < 1', 8, '<', /expected an explorer name after "@", got "<"$/],
    ['recall@', 7, '', /expected an explorer name after "@", got the end of the query$/],
    ['Recall@250 < 0.2', 0, 'Recall@250', /^column 1: no metric "Recall@250": the budgeted metrics exist for B = 100, 300, 500; an explorer named 250 is written \["250"\]$/],
    ['recall[cosil < 1', 6, '[cosil', /expected "\]" to close the explorer name/],
    ['recall[ ] < 1', 6, '[', /expected an explorer name inside "\[ \]"/],
    ['Noise file < 1', 0, 'Noise', /"Noise" is not a metric/],
    ['recall@"abc < 1', 7, '"abc', /unterminated quoted name/],
    ['recall < 1 or audited', 11, 'or', /expected "and" or the end of the query, got "or"$/],
    ['recall < 1 and', 14, '', /expected a term after "and", got the end of the query$/],
    ['repo < astropy', 5, '<', /repo compares with = or !=/],
    ['repo =', 6, '', /expected a repo name/],
    ['audited = 1', 8, '=', /expected "and" or the end of the query/],
    ['< 1', 0, '<', /expected a metric, "repo", "audited" or "unaudited"/],
    ['recall - < 1', 9, '<', /expected a metric after "-"/],
    ['recall@a-recall@b > 0', 15, '@b', /spaces around "-"/],
  ];
  for (const [text, offset, token, message] of cases) {
    it(JSON.stringify(text), () => {
      const problem = refused(text);
      assert.equal(problem.offset, offset);
      assert.equal(problem.token, token);
      assert.match(problem.message, message);
      assert.doesNotMatch(problem.message, /\n/);
    });
  }

  it('control characters and line separators in a token are escaped in the message', () => {
    const problem = refused('recall < \u001b[31m\u2028x');
    assert.doesNotMatch(problem.message, /[\u0000-\u001f\u2028\u2029]/);
  });

  it('never throws and always answers with a one-line message and an offset inside the text (property)', () => {
    const alphabet = fc.constantFrom(...'recall@"\\ <>=!-.0123456789eE and audited repo x_/()\t\n\u2028\u001b'.split(''));
    const queryLike = fc
      .array(fc.oneof(alphabet, fc.constantFrom('recall', 'ndcg_at_500', '@', ' and ', '"', '-', '<=', '!=', 'repo', 'audited', '0.3')), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), queryLike), (text) => {
        const result = parseQuery(text);
        if (!result.ok) {
          assert.ok(result.offset >= 0 && result.offset <= text.length);
          assert.ok(text.startsWith(result.token, result.offset));
          assert.doesNotMatch(result.message, /[\n\r\u2028\u2029]/);
          assert.ok(result.message.startsWith(`column ${result.offset + 1}: `));
        } else {
          assert.equal(result.query.text, text);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

/** Three instances, two explorers; i3 has no row of bm25 and i2 no line counts yet. */
function context(currentExplorer: string | undefined): QueryContext {
  const values: Record<string, Record<string, Partial<Record<OfficialMetricName, number>>>> = {
    i1: { agent: { recall: 0.9, ndcg_at_500: 0.8 }, bm25: { recall: 0.1, ndcg_at_500: 0.2 } },
    i3: { agent: { recall: 0.1, ndcg_at_500: 0.5 } },
    i4: { agent: { recall: 0.15, ndcg_at_500: 0.4 }, bm25: { recall: 0.15, ndcg_at_500: 0.4 } },
  };
  const repos: Record<string, string> = { i1: 'org/a', i2: 'org/a', i3: 'org/b', i4: 'org/b' };
  return {
    currentExplorer,
    metric: (id, explorer, name) => values[id]?.[explorer]?.[name],
    repo: (id) => repos[id],
    audited: (id) => id === 'i1' || id === 'i3',
  };
}

const IDS = ['i1', 'i2', 'i3', 'i4'];

function matching(text: string, ctx: QueryContext = context('agent')): string[] {
  const matches = evaluateQuery(parsed(text), ctx);
  return IDS.filter(matches);
}

describe('evaluateQuery', () => {
  it('compares a metric of a named explorer or the current one', () => {
    assert.deepEqual(matching('recall@bm25 < 0.2'), ['i1', 'i4']);
    assert.deepEqual(matching('recall < 0.2'), ['i3', 'i4']);
    assert.deepEqual(matching('recall < 0.2', context('bm25')), ['i1', 'i4']);
    assert.deepEqual(matching('recall >= 0'), ['i1', 'i3', 'i4']);
  });

  it('a missing metric (no row, no line counts, no current explorer) matches no comparison, != included', () => {
    assert.deepEqual(matching('recall@bm25 != 0.5'), ['i1', 'i4']);
    assert.deepEqual(matching('recall@nobody >= 0'), []);
    assert.deepEqual(matching('recall >= 0', context(undefined)), []);
    assert.deepEqual(matching('ndcg_at_500@agent - ndcg_at_500@bm25 > -1'), ['i1', 'i4']);
  });

  it('differences, repo, audited and conjunctions', () => {
    assert.deepEqual(matching('ndcg_at_500@agent - ndcg_at_500@bm25 > 0.3'), ['i1']);
    assert.deepEqual(matching('ndcg500@agent - ndcg500@bm25 = 0'), ['i4']);
    assert.deepEqual(matching('repo = org/b'), ['i3', 'i4']);
    assert.deepEqual(matching('repo != org/b'), ['i1', 'i2']);
    assert.deepEqual(matching('audited'), ['i1', 'i3']);
    assert.deepEqual(matching('unaudited'), ['i2', 'i4']);
    assert.deepEqual(matching('repo = org/b and audited'), ['i3']);
    assert.deepEqual(matching('repo = org/b and audited and recall > 0.5'), []);
    assert.deepEqual(matching(''), IDS);
  });

  it('a NaN metric counts as missing', () => {
    const ctx: QueryContext = { ...context('agent'), metric: () => Number.NaN };
    assert.deepEqual(matching('recall != 1', ctx), []);
  });
});

describe('explorer checks and helpers', () => {
  it('reports the first unknown explorer at its reference', () => {
    const query = parsed('recall@agent > 0 and precision@"agnet x" < 1');
    const problem = unknownExplorerProblem(query, ['agent', 'bm25']);
    assert.equal(problem?.offset, 21);
    assert.match(problem?.message ?? '', /^column 22: no explorer named "agnet x" \(loaded: "agent", "bm25"\)$/);
    assert.equal(unknownExplorerProblem(query, ['agent', 'bm25', 'agnet x']), undefined);
    assert.equal(unknownExplorerProblem(parsed('recall > 0'), []), undefined);
  });

  it('queryProblem combines parsing and the explorer check', () => {
    assert.equal(queryProblem('recall@bm25 < 0.2', ['bm25']), undefined);
    assert.match(queryProblem('recall@bm25 <', ['bm25'])?.message ?? '', /expected a number/);
    assert.match(queryProblem('recall@x < 1', [])?.message ?? '', /no explorers are loaded/);
    assert.equal(queryProblem('', []), undefined);
  });

  it('queryReadsMetrics says whether line counts matter', () => {
    assert.equal(queryReadsMetrics(parsed('repo = a/b and audited')), false);
    assert.equal(queryReadsMetrics(parsed('audited and f1 > 0')), true);
  });
});

describe('seen_missed: a per-row number the caller provides (issue 19)', () => {
  const seenMissed: Record<string, Record<string, number>> = { i1: { agent: 25 }, i2: { agent: 3 }, i3: { 'agent (results/agent/top10.jsonl)': 40 } };
  const ctx = (current: string | undefined = 'agent', withRows = true): QueryContext => ({
    ...context(current),
    ...(withRows ? { rowValue: (id: string, explorer: string, column: string) => (column === 'seen_missed' ? seenMissed[id]?.[explorer] : undefined) } : {}),
  });

  it('parses in its spellings, with @explorer, [explorer] and alone', () => {
    for (const text of ['seen_missed@agent > 20', 'seen_missed[agent] > 20', 'SEEN_MISSED > 20', 'seenMissed@agent > 20', 'seen missed [agent] > 20']) {
      const [term] = terms(text);
      assert.equal(term?.kind === 'metric' ? term.left.metric : undefined, 'seen_missed', text);
    }
    assert.equal(terms('seen_missed[agent (results/agent/top10.jsonl)] > 1')[0]?.kind, 'metric');
  });

  it('compares the caller’s value; an instance without a run (no value) matches nothing', () => {
    assert.deepEqual(matching('seen_missed@agent > 20', ctx()), ['i1']);
    assert.deepEqual(matching('seen_missed > 2', ctx()), ['i1', 'i2']);
    assert.deepEqual(matching('seen_missed[agent (results/agent/top10.jsonl)] >= 40', ctx()), ['i3']);
    assert.deepEqual(matching('seen_missed@agent != 25', ctx()), ['i2']);
    assert.deepEqual(matching('seen_missed@agent > 0', ctx('agent', false)), [], 'a context without rowValue: nothing matches');
  });

  it('mixes with metrics, differences and the other terms', () => {
    assert.deepEqual(matching('seen_missed@agent > 20 and recall@agent > 0.5', ctx()), ['i1']);
    assert.deepEqual(matching('seen_missed@agent - recall@agent > 20', ctx()), ['i1']);
    assert.deepEqual(matching('repo = org/a and seen_missed < 10', ctx()), ['i2']);
  });

  it('is named in the help and in the "not a metric" message', () => {
    assert.match(queryHelp(['agent']).text, /seen_missed\[EXPLORER\]/);
    assert.match(queryProblem('seen > 1', ['agent'])?.message ?? '', /or seen_missed\)/);
  });
});
