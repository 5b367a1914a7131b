import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AgreementImpact } from '../../../src/core';
import { acceptEvent, appendAuditEvent, removeEvent } from '../../../src/data/audit/auditLog';
import { renderImpactCsv, renderImpactMarkdown } from '../../../src/data/audit/report';
import { computeAuditImpact, loadAudit } from '../../../src/data/audit/workspaceAudit';
import { LineCountCache } from '../../../src/data/workspace/lineCounts';
import type { Problem } from '../../../src/data/io/problems';
import { loadWorkspace } from '../../../src/data/workspace/workspace';
import { agreementEntries } from '../../../src/extension/instance/instanceState';

let dir: string;
let bench: string;
let preds: string;
let counts: string;

const at = new Date('2026-01-01T00:00:00Z');
const core = (instanceId: string, author: string, start: number, end: number, id: string): Parameters<typeof appendAuditEvent>[1] =>
  removeEvent({ instanceId, layer: 'core', model: null, path: 'pkg/a.py', start, end, reason: 'incidental-read', note: null, author, textSha: null }, at, id);

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'swe-audit-agreement-'));
  bench = path.join(dir, 'bench.jsonl');
  preds = path.join(dir, 'preds.jsonl');
  counts = path.join(dir, 'counts.json');
  const record = (id: string): string =>
    JSON.stringify({
      instance_id: id,
      repo_dir: `repos/${id}`,
      ground_truth: {
        read_core_files: ['pkg/a.py', 'pkg/b.py'],
        read_core_regions: [
          { path: 'pkg/a.py', start: 1, end: 10 },
          { path: 'pkg/b.py', start: 1, end: -1 },
        ],
        read_optional_files_map: {},
        read_optional_regions_map: {},
        modified_core_files: ['pkg/a.py'],
        main_files: ['pkg/a.py'],
      },
    });
  await writeFile(bench, `${record('x__y-1')}\n${record('x__y-2')}\n`);
  await writeFile(counts, JSON.stringify({ 'x__y-1': { 'pkg/a.py': 10, 'pkg/b.py': 10 }, 'x__y-2': { 'pkg/a.py': 10, 'pkg/b.py': 10 } }));
  const row = (id: string): string => JSON.stringify({ instance_id: id, explorer: 'e', regions: [{ path: 'pkg/a.py', start: 1, end: 10 }] });
  await writeFile(preds, `${row('x__y-1')}\n${row('x__y-2')}\n`);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function report(auditDir: string): Promise<ReturnType<typeof computeAuditImpact>> {
  const model = await loadWorkspace({ benchFile: bench, predictionFiles: [preds], lineCountsFile: counts });
  const audit = await loadAudit(model, auditDir);
  const problems: Problem[] = [];
  return computeAuditImpact(model, audit, { profile: 'official', k: 5, trials: 0, seed: 0 }, new LineCountCache(), problems);
}

describe('agreement between auditors (shared audit-impact path)', () => {
  it("two authors: hand-computed Cohen's κ over the 20 core lines, disputed spans, after the reason lines", async () => {
    const auditDir = path.join(dir, 'two', '.swe-explore', 'audit');
    // x__y-1: alice removes a.py 1–4, bob a.py 1–6 (and an optional span, which is not judged).
    await appendAuditEvent(auditDir, core('x__y-1', 'alice', 1, 4, 'r1'));
    await appendAuditEvent(auditDir, core('x__y-1', 'bob', 1, 6, 'r2'));
    await appendAuditEvent(
      auditDir,
      removeEvent({ instanceId: 'x__y-1', layer: 'optional', model: null, path: 'pkg/b.py', start: 1, end: 10, reason: 'other', note: null, author: 'bob', textSha: null }, at, 'r3'),
    );
    // x__y-2: only alice — no pair.
    await appendAuditEvent(auditDir, acceptEvent('x__y-2', 'alice', at, 'a1'));
    const lines = await report(auditDir);
    const agreements = lines.filter((l): l is AgreementImpact => l.kind === 'agreement');
    assert.equal(agreements.length, 1);
    const [a] = agreements;
    // n = 20 core lines; alice removed 4, bob 6, both 4 → agree on 20 − 4 − 6 + 2·4 = 18: p_o = 0.9;
    // p_e = 0.2·0.3 + 0.8·0.7 = 0.62; κ = (0.9 − 0.62) / (1 − 0.62) = 0.28 / 0.38.
    assert.deepEqual(a, { kind: 'agreement', instance_id: 'x__y-1', authors: ['alice', 'bob'], kappa: a!.kappa, disputed_lines: 2, disputed: [{ path: 'pkg/a.py', start: 5, end: 6 }] });
    assert.ok(Math.abs(a!.kappa! - 0.28 / 0.38) < 1e-12, String(a!.kappa));
    assert.deepEqual(Object.keys(a!), ['kind', 'instance_id', 'authors', 'kappa', 'disputed_lines', 'disputed']);
    const lastReason = lines.map((l) => l.kind).lastIndexOf('reason');
    assert.ok(lastReason >= 0 && lines.indexOf(a!) === lastReason + 1, 'agreement lines follow the reason lines');

    const md = renderImpactMarkdown(lines);
    assert.match(md, /## Agreement between auditors/);
    assert.ok(md.includes('| x\\_\\_y\\-1 | alice ↔ bob | 0.7368 | 2 | pkg\\/a\\.py 5–6 |'), md);
    const csv = renderImpactCsv(lines);
    assert.match(csv, /\nagreement,,x__y-1,cohen_kappa,,2,0\.73684210526315\d*,,alice vs bob; disputed: pkg\/a\.py 5–6\n/);

    assert.deepEqual(agreementEntries([{ ...a!, method: 'cohen', core_lines: 20 }]), [{ label: 'alice ↔ bob', detail: 'κ = 0.74 · 2 lines in dispute (a.py 5–6)' }]);
  });

  it('a single author: no agreement lines and no agreement section', async () => {
    const auditDir = path.join(dir, 'one', '.swe-explore', 'audit');
    await appendAuditEvent(auditDir, core('x__y-1', 'alice', 1, 4, 'r1'));
    await appendAuditEvent(auditDir, acceptEvent('x__y-2', 'alice', at, 'a1'));
    const lines = await report(auditDir);
    assert.equal(lines.filter((l) => l.kind === 'agreement').length, 0);
    assert.doesNotMatch(renderImpactMarkdown(lines), /Agreement between auditors/);
  });

  it('panel entries: undefined κ, no dispute, long dispute lists', () => {
    const base = { method: 'cohen', instance_id: 'i', authors: ['a', 'b'] as const, core_lines: 10 } as const;
    assert.deepEqual(agreementEntries([{ ...base, kappa: null, disputed_lines: 0, disputed: [] }]), [
      { label: 'a ↔ b', detail: 'κ undefined (both judge every core line alike) · no lines in dispute' },
    ]);
    const disputed = [1, 3, 5, 7].map((n) => ({ path: 'x/y.py', start: n, end: n }));
    assert.deepEqual(agreementEntries([{ ...base, kappa: -0.5, disputed_lines: 4, disputed }]), [{ label: 'a ↔ b', detail: 'κ = -0.50 · 4 lines in dispute (y.py 1, y.py 3, y.py 5, +1 more)' }]);
  });
});
