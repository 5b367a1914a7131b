import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  agreementImpactLines,
  auditImpact,
  authorAgreement,
  cohenKappa,
  kendallTauB,
  lineSetFrom,
  lineSetSize,
  MAX_PAIRWISE_AUTHORS,
  mulberry32,
  nullModelImpact,
  OFFICIAL_METRIC_NAMES,
  randomCoreRemovals,
  type ExplorerImpact,
  type ImpactRow,
  type InstanceImpact,
  type LineSet,
  type NullImpact,
  type RankingImpact,
  type Removal,
} from '../../../src/core/index';
import { renderImpactCsv, renderImpactMarkdown } from '../../../src/data/audit/report';
import { cpuNow } from '../support/cpu-time';

function metrics(values: Partial<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of OFFICIAL_METRIC_NAMES) out[name] = values[name] ?? 0;
  out['ndcg_at_42'] = 0.5; // extra budget fields are ignored
  return out;
}
const row = (instanceId: string, explorer: string, recall: number, precision = recall): ImpactRow => ({ instanceId, explorer, metrics: metrics({ recall, precision }) });

describe('auditImpact', () => {
  const before = [row('i1', 'A', 0.2), row('i2', 'A', 0.4), row('i1', 'B', 0.6), row('i2', 'B', 0.2), row('i1', 'C', 0.1), row('i2', 'C', 0.1)];
  // i2's core became empty: it has no "after" row
  const after = [row('i1', 'A', 0.9), row('i1', 'B', 0.5), row('i1', 'C', 0.2)];
  const lines = auditImpact({
    before,
    after,
    auditedInstances: ['i2', 'i1', 'i1'],
    removals: [
      { reason: 'over-broad-read', lines: 10 },
      { reason: 'duplicate', lines: 0 },
      { reason: 'over-broad-read', lines: 5 },
    ],
  });

  it('explorer lines: macro averages over each side; dropped instances leave "after"', () => {
    const explorers = lines.filter((l): l is ExplorerImpact => l.kind === 'explorer');
    assert.deepEqual(
      explorers.map((e) => [e.explorer, e.instances_before, e.instances_after]),
      [
        ['A', 2, 1],
        ['B', 2, 1],
        ['C', 2, 1],
      ],
    );
    const a = explorers[0]!;
    assert.ok(Math.abs(a.before.recall - 0.3) < 1e-12);
    assert.equal(a.after.recall, 0.9);
    assert.deepEqual(Object.keys(a.before), [...OFFICIAL_METRIC_NAMES]);
  });

  it('instance lines for every audited instance and explorer; null when not scored', () => {
    const instances = lines.filter((l): l is InstanceImpact => l.kind === 'instance');
    assert.deepEqual(
      instances.map((i) => [i.instance_id, i.explorer, i.after === null]),
      [
        ['i1', 'A', false],
        ['i1', 'B', false],
        ['i1', 'C', false],
        ['i2', 'A', true],
        ['i2', 'B', true],
        ['i2', 'C', true],
      ],
    );
  });

  it('ranking lines: best first, τ-b over paired macro values', () => {
    const recall = lines.find((l): l is RankingImpact => l.kind === 'ranking' && l.metric === 'recall')!;
    assert.deepEqual(recall.before, ['B', 'A', 'C']); // 0.4, 0.3, 0.1
    assert.deepEqual(recall.after, ['A', 'B', 'C']); // 0.9, 0.5, 0.2
    assert.equal(recall.kendall_tau_b, 1 / 3);
    assert.deepEqual(
      lines.filter((l) => l.kind === 'ranking').map((l) => (l as RankingImpact).metric),
      ['precision', 'recall', 'ndcg_at_500', 'hit_file_rate', 'context_efficiency'],
    );
  });

  it('reason lines', () => {
    assert.deepEqual(
      lines.filter((l) => l.kind === 'reason'),
      [
        { kind: 'reason', reason: 'duplicate', removals: 1, lines: 0 },
        { kind: 'reason', reason: 'over-broad-read', removals: 2, lines: 15 },
      ],
    );
  });

  it('kendallTauB is null with fewer than two explorers', () => {
    assert.equal(kendallTauB([1], [2]), null);
    assert.equal(kendallTauB([], []), null);
    assert.equal(kendallTauB([1, 2], [2, 1]), -1);
    const single = auditImpact({ before: [row('i', 'A', 1)], after: [row('i', 'A', 0)], auditedInstances: ['i'], removals: [] });
    assert.ok(single.filter((l) => l.kind === 'ranking').every((l) => (l as RankingImpact).kendall_tau_b === null));
  });
});

describe('null model', () => {
  const coreLinesArb: fc.Arbitrary<LineSet> = fc
    .array(fc.record({ path: fc.constantFrom('a.py', 'b.py', 'c.py'), start: fc.integer({ min: 1, max: 60 }), len: fc.integer({ min: 0, max: 30 }) }), { minLength: 1, maxLength: 6 })
    .map((rs) => lineSetFrom(rs.map((r) => ({ path: r.path, start: r.start, end: r.start + r.len }))));

  it('randomCoreRemovals removes as many core lines as the audit, in non-overlapping core spans, deterministically', () => {
    fc.assert(
      fc.property(coreLinesArb, coreLinesArb, fc.integer(), (coreLines, removedCoreLines, seed) => {
        const instance = { instanceId: 'i', coreLines, removedCoreLines };
        const removals = randomCoreRemovals(instance, mulberry32(seed));
        assert.deepEqual(randomCoreRemovals(instance, mulberry32(seed)), removals);
        let wanted = 0;
        for (const [p, set] of coreLines) {
          const removed = removedCoreLines.get(p) ?? [];
          for (const [s, e] of set) for (let n = s; n <= e; n++) if (removed.some(([a, b]) => a <= n && n <= b)) wanted++;
        }
        const seen = new Set<string>();
        for (const r of removals) {
          assert.equal(r.layer, 'core');
          assert.ok(r.start <= r.end);
          for (let n = r.start; n <= r.end; n++) {
            const key = `${r.path}:${n}`;
            assert.ok(!seen.has(key), 'overlap');
            seen.add(key);
            assert.ok(
              (coreLines.get(r.path) ?? []).some(([a, b]) => a <= n && n <= b),
              'outside core',
            );
          }
        }
        assert.equal(seen.size, wanted);
      }),
      { numRuns: 300 },
    );
  });

  it('nullModelImpact: percentiles of τ over seeded random audits, plus the real audit τ', async () => {
    const coreLines = lineSetFrom([{ path: 'a.py', start: 1, end: 100 }]);
    const instances = [{ instanceId: 'i1', coreLines, removedCoreLines: lineSetFrom([{ path: 'a.py', start: 1, end: 30 }]) }];
    const before = [row('i1', 'A', 0.9), row('i1', 'B', 0.5), row('i1', 'C', 0.1)];
    const after = [row('i1', 'A', 0.1), row('i1', 'B', 0.5), row('i1', 'C', 0.9)];
    // A fake scorer: explorer A likes early lines, C late lines — the random span decides the order.
    const calls: ReadonlyMap<string, readonly Removal[]>[] = [];
    const scoreAfter = (removals: ReadonlyMap<string, readonly Removal[]>): ImpactRow[] => {
      calls.push(removals);
      const start = removals.get('i1')![0]!.start;
      return [row('i1', 'A', 1 - start / 100), row('i1', 'B', 0.5), row('i1', 'C', start / 100)];
    };
    const result = await nullModelImpact({ trials: 50, seed: 7, instances, before, after, scoreAfter });
    assert.equal(calls.length, 50);
    for (const r of calls) assert.equal(lineSetSize(lineSetFrom(r.get('i1')!)), 30);
    const recall = result.find((r: NullImpact) => r.metric === 'recall')!;
    assert.equal(recall.audit_tau, -1);
    assert.ok(recall.tau_p05! <= recall.tau_median! && recall.tau_median! <= recall.tau_p95!);
    assert.deepEqual(await nullModelImpact({ trials: 50, seed: 7, instances, before, after, scoreAfter }), result, 'same seed, same report');
  });
});

describe('authorAgreement', () => {
  it("Cohen's κ over core lines per author pair, with the disputed spans", () => {
    const coreLines = lineSetFrom([
      { path: 'a.py', start: 1, end: 10 },
      { path: 'b.py', start: 1, end: 10 },
    ]);
    const removedByAuthor = new Map<string, LineSet>([
      [
        'bob',
        lineSetFrom([
          { path: 'a.py', start: 1, end: 6 },
          { path: 'z.py', start: 1, end: 99 },
        ]),
      ],
      ['alice', lineSetFrom([{ path: 'a.py', start: 1, end: 4 }])],
      ['carol', new Map()],
    ]);
    const [ab, ac, bc] = authorAgreement([{ instanceId: 'i', coreLines, removedByAuthor }]);
    assert.deepEqual(ab!.authors, ['alice', 'bob']);
    assert.equal(ab!.core_lines, 20);
    // 20 lines: alice removes 4, bob 6, both 4 → agree on 18; pe = .2·.3 + .8·.7 = .62; κ = (.9 − .62)/(.38)
    assert.ok(Math.abs(ab!.kappa! - (0.9 - 0.62) / 0.38) < 1e-12);
    assert.deepEqual(ab!.disputed, [{ path: 'a.py', start: 5, end: 6 }]);
    assert.equal(ab!.disputed_lines, 2);
    assert.deepEqual(ac!.authors, ['alice', 'carol']);
    assert.equal(ac!.kappa, 0); // carol removes nothing: pe = .8 = po
    assert.deepEqual(bc!.authors, ['bob', 'carol']);
  });

  it('many auditors on one instance: one Fleiss κ (equal to the per-line formula), not a line per pair', () => {
    const random = mulberry32(15);
    const coreLines = lineSetFrom([
      { path: 'a.py', start: 1, end: 40 },
      { path: 'b.py', start: 5, end: 24 },
    ]);
    const removedByAuthor = new Map<string, LineSet>();
    for (let a = 0; a < MAX_PAIRWISE_AUTHORS + 7; a++) {
      const start = 1 + Math.floor(random() * 40);
      removedByAuthor.set(`author-${a}`, a % 5 === 0 ? new Map() : lineSetFrom([{ path: a % 2 === 0 ? 'a.py' : 'b.py', start, end: start + Math.floor(random() * 12) }]));
    }
    const result = authorAgreement([{ instanceId: 'i', coreLines, removedByAuthor }]);
    assert.equal(result.length, 1);
    const fleiss = result[0]!;
    assert.equal(fleiss.method, 'fleiss');
    // By the textbook formula, line by line.
    const m = removedByAuthor.size;
    let sumP = 0;
    let removed = 0;
    let disputedLines = 0;
    let lines = 0;
    for (const [path, set] of coreLines) {
      for (const [s, e] of set) {
        for (let line = s; line <= e; line++) {
          let k = 0;
          for (const byAuthor of removedByAuthor.values()) if ((byAuthor.get(path) ?? []).some(([a, b]) => a <= line && line <= b)) k++;
          sumP += (k * (k - 1) + (m - k) * (m - k - 1)) / (m * (m - 1));
          removed += k;
          if (k > 0 && k < m) disputedLines++;
          lines++;
        }
      }
    }
    const p = removed / (lines * m);
    const pe = p * p + (1 - p) * (1 - p);
    assert.ok(Math.abs(fleiss.kappa! - (sumP / lines - pe) / (1 - pe)) < 1e-12, String(fleiss.kappa));
    assert.equal(fleiss.disputed_lines, disputedLines);
    assert.equal(fleiss.core_lines, 60);
    assert.deepEqual(
      agreementImpactLines(result).map((l) => Object.keys(l)),
      [['kind', 'instance_id', 'authors', 'kappa', 'disputed_lines', 'disputed']],
    );
  });

  it('2,000 auditors who each accepted or removed a line: one line, well under 2 s', () => {
    const coreLines = lineSetFrom([{ path: 'a.py', start: 1, end: 100 }]);
    const removedByAuthor = new Map<string, LineSet>();
    for (let a = 0; a < 2_000; a++) removedByAuthor.set(`author-${a}`, a % 2 === 0 ? new Map() : lineSetFrom([{ path: 'a.py', start: (a % 100) + 1, end: (a % 100) + 1 }]));
    const started = cpuNow();
    const result = authorAgreement([{ instanceId: 'i', coreLines, removedByAuthor }]);
    const ms = cpuNow() - started;
    assert.equal(result.length, 1);
    assert.ok(ms < 500, `${ms.toFixed(0)} ms`);
  });

  it(`up to ${MAX_PAIRWISE_AUTHORS} auditors: Cohen's κ for every pair`, () => {
    const coreLines = lineSetFrom([{ path: 'a.py', start: 1, end: 10 }]);
    const removedByAuthor = new Map<string, LineSet>(Array.from({ length: MAX_PAIRWISE_AUTHORS }, (_, a) => [`a${a}`, lineSetFrom([{ path: 'a.py', start: 1, end: 1 + (a % 3) }])]));
    const result = authorAgreement([{ instanceId: 'i', coreLines, removedByAuthor }]);
    assert.equal(result.length, (MAX_PAIRWISE_AUTHORS * (MAX_PAIRWISE_AUTHORS - 1)) / 2);
    assert.ok(result.every((r) => r.method === 'cohen'));
  });

  it('cohenKappa: perfect agreement 1, undefined when both label everything alike', () => {
    assert.equal(cohenKappa(10, 3, 3, 3), 1);
    assert.equal(cohenKappa(10, 0, 0, 0), null);
    assert.equal(cohenKappa(0, 0, 0, 0), null);
    assert.equal(cohenKappa(10, 5, 5, 0), -1);
  });
});

describe('renderings', () => {
  it('render the whole report', () => {
    const lines = auditImpact({
      before: [row('i1', '=evil', 0.5), row('i1', 'B|x', 0.2)],
      after: [row('i1', '=evil', 0.1), row('i1', 'B|x', 0.2)],
      auditedInstances: ['i1'],
      removals: [{ reason: '@reason', lines: 3 }],
    });
    const csv = renderImpactCsv(lines);
    const rows = csv.trimEnd().split('\n');
    assert.equal(rows[0], 'kind,explorer,instance_id,metric,reason,before,after,delta,detail');
    assert.ok(rows.some((r) => r.startsWith("explorer,'=evil,,recall,,0.5,0.1,")));
    assert.ok(rows.some((r) => r.startsWith("reason,,,,'@reason,1,3,")));
    assert.ok(!/(^|,)[=+@]/.test(csv.replace(/,-?\d/g, ',0')));
    const md = renderImpactMarkdown(lines);
    assert.ok(md.includes('B\\|x'));
    assert.ok(md.includes('\\=evil'));
    assert.ok(md.includes('## Explorer rankings'));
  });
});
