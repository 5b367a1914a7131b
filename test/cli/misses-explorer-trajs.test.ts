/**
 * `swe-explore misses --explorer-trajs EXPLORER=DIR`, run as a user runs it: on a synthetic
 * workspace written here, where every run views lines known by construction (mini-swe-agent fences,
 * `str_replace_editor` views, Claude Code Read calls, grep output, heredoc writes) and every core
 * line's category is known by construction, each row's `seen` counts are exact; the rows of
 * explorers without the flag, and `misses` without it, are byte-identical to main's output; the
 * usage errors exit 2.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { MISS_CATEGORIES, type MissCategory } from '../../src/core';
import { buildCliBundle, runCli, type CliRun } from './cliBundle';

const ROOT = path.resolve(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'demo');

before(buildCliBundle);

/** The CLI as it ships (its worker bundle beside it), from the repository root. */
function cli(...args: string[]): CliRun {
  return runCli(args);
}

type Json = Record<string, unknown>;
const lines = (text: string): Json[] =>
  text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Json);

/** Seeded generator (same construction every run). */
function rng(seed: number): { int(lo: number, hi: number): number; pick<T>(items: readonly T[]): T; chance(p: number): boolean } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
  return {
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

/** Lines per path, as plain sets: the naive model the CLI's interval arithmetic is checked against. */
type Lines = Map<string, Set<number>>;
function add(into: Lines, file: string, from: number, to: number): void {
  let set = into.get(file);
  if (set === undefined) into.set(file, (set = new Set()));
  for (let n = from; n <= to; n++) set.add(n);
}
const has = (set: Lines, file: string, line: number): boolean => set.get(file)?.has(line) ?? false;

interface Expected {
  readonly coreLines: number;
  readonly counts: Record<MissCategory, number>;
  /** Undefined: no run for the instance. */
  readonly seen: Record<MissCategory, number> | undefined;
  readonly trajectory: string | undefined;
}

/**
 * A workspace of `n` instances, explorers `viewer` (given runs) and `other` (not). Each instance:
 * four files; core spans on three of them; `viewer` predicts an exact span (hit), a `./`-spelled span
 * (path_mismatch), an inverted span (inverted) and names one more file (wrong_region); the fourth
 * core file is never predicted (file_not_predicted). All predictions fit in B = 500, so nothing is
 * beyond_budget. The run views random spans in random idioms; a few instances have no run.
 */
function writeWorkspace(n: number): { root: string; bench: string; preds: string[]; trajs: string; expected: Map<string, Expected> } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'swe-misses-trajs-'));
  const trajs = path.join(root, 'results', 'viewer', 'trajs');
  mkdirSync(trajs, { recursive: true });
  mkdirSync(path.join(root, 'results', 'other'), { recursive: true });
  const records: string[] = [];
  const viewerRows: string[] = [];
  const otherRows: string[] = [];
  const expected = new Map<string, Expected>();
  for (let i = 0; i < n; i++) {
    const r = rng(1000 + i);
    const id = `synth__views-${i + 1}`;
    const counts = [r.int(80, 300), r.int(80, 300), r.int(80, 300), r.int(80, 300)];
    const files = counts.map((_, k) => `pkg/m${k}.py`);
    for (const [k, file] of files.entries()) {
      mkdirSync(path.join(root, 'repos', id, 'pkg'), { recursive: true });
      writeFileSync(path.join(root, 'repos', id, file), Array.from({ length: counts[k]! }, (_, j) => `line ${j + 1}`).join('\n') + '\n');
    }
    // Core: one span on each of the four files.
    const core: Lines = new Map();
    const coreRegions = files.map((file, k) => {
      const start = r.int(1, counts[k]! - 40);
      const end = start + r.int(5, 35);
      add(core, file, start, end);
      return { path: file, start, end };
    });
    // viewer's predictions: m0 exact (part of the core span and around), ./m1 mismatched, m2 inverted, m3 named elsewhere.
    const c = coreRegions;
    const exact = { path: files[0]!, start: c[0]!.start + r.int(0, 3), end: c[0]!.end + r.int(0, 10) };
    const mismatch = { path: `./${files[1]!}`, start: c[1]!.start + r.int(0, 5), end: c[1]!.end };
    const inverted = { path: files[2]!, start: c[2]!.end - r.int(0, 1), end: c[2]!.start + r.int(0, 1) };
    const elsewhere = { path: files[3]!, start: c[3]!.end + 10, end: c[3]!.end + 20 };
    const predictions = r.chance(0.3) ? [exact, mismatch, inverted] : [exact, mismatch, inverted, elsewhere];
    const named = new Set(predictions.map((p) => p.path));
    const category = (file: string, line: number): MissCategory => {
      if (file === exact.path && line >= exact.start && line <= exact.end) return 'hit';
      if (`./${file}` === mismatch.path && line >= mismatch.start && line <= mismatch.end) return 'path_mismatch';
      if (file === inverted.path && line >= inverted.end && line <= inverted.start) return 'inverted';
      return named.has(file) ? 'wrong_region' : 'file_not_predicted';
    };

    // The run: what it views, by construction, in one of three formats.
    const viewed: Lines = new Map();
    const format = i % 4 === 3 ? 'none' : (['mini', 'editor', 'claude'] as const)[i % 3]!;
    const steps: { command: string; output: string; view?: { path: string; range: [number, number] | undefined } }[] = [];
    for (let s = 0; s < r.int(2, 7); s++) {
      const k = r.int(0, 3);
      const file = files[k]!;
      const count = counts[k]!;
      const a = r.int(1, count - 10);
      const b = Math.min(count, a + r.int(0, 60));
      const kind = r.int(0, 6);
      if (format === 'claude' || format === 'editor') {
        const whole = kind === 0;
        steps.push({ command: '', output: '', view: { path: file, range: whole ? undefined : [a, b] } });
        if (whole) add(viewed, file, 1, count);
        else add(viewed, file, a, b);
        continue;
      }
      if (kind === 0) {
        steps.push({ command: `sed -n '${a},${b}p' ${file}`, output: '...' });
        add(viewed, file, a, b);
      } else if (kind === 1) {
        steps.push({ command: `nl -ba /testbed/${file} | sed -n '${a},${b}p'`, output: '...' });
        add(viewed, file, a, b);
      } else if (kind === 2) {
        steps.push({ command: `head -n ${b} ${file}`, output: '...' });
        add(viewed, file, 1, b);
      } else if (kind === 3) {
        steps.push({ command: `tail -n +${a} ${file}`, output: '...' });
        add(viewed, file, a, count);
      } else if (kind === 4) {
        steps.push({ command: `grep -n "x" ${file}`, output: `${a}:x\n${b}-y` });
        add(viewed, file, a, a);
        add(viewed, file, b, b);
      } else if (kind === 5) {
        steps.push({ command: `cat <<'EOF' > ${file}\nrewritten\nEOF`, output: '' });
      } else {
        steps.push({ command: `cat ${file}`, output: '...' });
        add(viewed, file, 1, count);
      }
    }
    let trajectory: string | undefined;
    if (format === 'mini') {
      const messages: unknown[] = [{ role: 'system', content: 'explore' }];
      for (const step of steps) messages.push({ role: 'assistant', content: `THOUGHT: look\n\n\`\`\`bash\n${step.command}\n\`\`\`` }, { role: 'user', content: step.output });
      trajectory = `${id}.traj.json`;
      writeFileSync(path.join(trajs, trajectory), JSON.stringify({ trajectory_format: 'mini-swe-agent-1', info: { config: { environment: { cwd: '/testbed' } } }, messages }));
    } else if (format === 'editor') {
      const traj: unknown[] = [{ role: 'user', content: 'explore' }];
      steps.forEach((step, j) => {
        const args = step.view!.range === undefined ? { command: 'view', path: `/testbed/${step.view!.path}` } : { command: 'view', path: `/testbed/${step.view!.path}`, view_range: step.view!.range };
        traj.push(
          { role: 'assistant', content: '', tool_calls: [{ id: `c${j}`, type: 'function', function: { name: 'str_replace_editor', arguments: JSON.stringify(args) } }] },
          { role: 'tool', content: '...' },
        );
      });
      trajectory = `${id}/run.json`;
      mkdirSync(path.join(trajs, id));
      writeFileSync(path.join(trajs, trajectory), JSON.stringify({ info: { instance_id: id, model: 'viewer-model' }, traj }));
    } else if (format === 'claude') {
      const cwd = `/home/u/${id}`;
      const events: unknown[] = [{ type: 'system', subtype: 'init', cwd, model: 'viewer-model' }];
      steps.forEach((step, j) => {
        const range = step.view!.range;
        const input = range === undefined ? { file_path: `${cwd}/${step.view!.path}` } : { file_path: `${cwd}/${step.view!.path}`, offset: range[0], limit: range[1] - range[0] + 1 };
        const [from, to] = range ?? [1, counts[files.indexOf(step.view!.path)]!];
        const shown = Array.from({ length: to - from + 1 }, (_, q) => `${String(from + q).padStart(6)}→line ${from + q}`).join('\n');
        events.push(
          { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `t${j}`, name: 'Read', input }] } },
          { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${j}`, content: shown }] } },
        );
      });
      trajectory = `${id}.jsonl`;
      writeFileSync(path.join(trajs, trajectory), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    }

    const countsByCategory = Object.fromEntries(MISS_CATEGORIES.map((cat) => [cat, 0])) as Record<MissCategory, number>;
    const seen = Object.fromEntries(MISS_CATEGORIES.map((cat) => [cat, 0])) as Record<MissCategory, number>;
    let coreLines = 0;
    for (const [file, set] of core) {
      for (const line of set) {
        coreLines++;
        const cat = category(file, line);
        countsByCategory[cat]++;
        if (has(viewed, file, line)) seen[cat]++;
      }
    }
    expected.set(id, { coreLines, counts: countsByCategory, seen: trajectory === undefined ? undefined : seen, trajectory: trajectory === undefined ? undefined : `${trajs}/${trajectory}` });
    records.push(JSON.stringify({ instance_id: id, repo_path: '/testbed', ground_truth: { read_core_files: files, read_core_regions: coreRegions } }));
    viewerRows.push(JSON.stringify({ instance_id: id, explorer: 'viewer', regions: predictions }));
    otherRows.push(JSON.stringify({ instance_id: id, explorer: 'other', regions: [exact] }));
  }
  const bench = path.join(root, 'bench.jsonl');
  writeFileSync(bench, records.join('\n') + '\n');
  const preds = [path.join(root, 'results', 'viewer', 'top5.jsonl'), path.join(root, 'results', 'other', 'top5.jsonl')];
  writeFileSync(preds[0]!, viewerRows.join('\n') + '\n');
  writeFileSync(preds[1]!, otherRows.join('\n') + '\n');
  return { root, bench, preds, trajs, expected };
}

describe('misses --explorer-trajs on runs whose viewed lines are known by construction', () => {
  const ws = writeWorkspace(40);
  const inputs = ['--bench', ws.bench, '--preds', ws.preds[0]!, '--preds', ws.preds[1]!, '--budget', '500'];
  let withRuns: CliRun;
  let without: CliRun;
  before(() => {
    withRuns = cli('misses', ...inputs, '--explorer-trajs', `viewer=${ws.trajs}`);
    without = cli('misses', ...inputs);
  });

  it('every category and every seen count is exact; seen ≤ the category', () => {
    assert.equal(withRuns.status, 0, withRuns.stderr);
    assert.equal(withRuns.stderr, '');
    const rows = lines(withRuns.stdout).filter((l) => l['explorer'] === 'viewer' && 'instance_id' in l);
    assert.equal(rows.length, 40);
    let withRun = 0;
    for (const row of rows) {
      const want = ws.expected.get(row['instance_id'] as string)!;
      assert.equal(row['core_lines'], want.coreLines);
      for (const cat of MISS_CATEGORIES) assert.equal(row[cat], want.counts[cat], `${String(row['instance_id'])} ${cat}`);
      if (want.seen === undefined) {
        assert.equal(row['seen'], null);
        assert.equal(row['trajectory'], null);
        assert.equal('viewed_core_lines' in row, false, 'no viewed_core_lines without a run');
        continue;
      }
      withRun++;
      const seen = row['seen'] as Record<MissCategory, number>;
      assert.deepEqual(seen, want.seen, String(row['instance_id']));
      for (const cat of MISS_CATEGORIES) assert.ok(seen[cat] <= (row[cat] as number), cat);
      let sum = 0;
      for (const cat of MISS_CATEGORIES) sum += seen[cat];
      assert.equal(row['viewed_core_lines'], sum);
      assert.equal(row['trajectory'], want.trajectory);
    }
    assert.equal(withRun, 30, 'three of four instances have a run');
    const total = lines(withRuns.stdout).find((l) => l['explorer'] === 'viewer' && 'totals' in l)!['totals'] as Record<string, unknown>;
    assert.equal(total['runs'], 30);
    let viewedSum = 0;
    for (const row of rows) viewedSum += (row['viewed_core_lines'] as number | undefined) ?? 0;
    assert.equal(total['viewed_core_lines'], viewedSum);
    for (const cat of MISS_CATEGORIES) {
      let s = 0;
      for (const row of rows) s += (row['seen'] as Record<string, number> | null)?.[cat] ?? 0;
      assert.equal((total['seen'] as Record<string, number>)[cat], s, cat);
    }
    // The construction exercised every category, seen and unseen.
    for (const cat of ['hit', 'path_mismatch', 'inverted', 'wrong_region', 'file_not_predicted'] as const) {
      assert.ok(
        rows.some((r) => ((r['seen'] as Record<string, number> | null)?.[cat] ?? 0) > 0),
        `${cat} seen somewhere`,
      );
      assert.ok(
        rows.some((r) => r['seen'] !== null && (r['seen'] as Record<string, number>)[cat]! < (r[cat] as number)),
        `${cat} unseen somewhere`,
      );
    }
  });

  it('the key order is the contract’s: the row, then seen, viewed_core_lines, trajectory; totals gain seen, viewed_core_lines, runs', () => {
    const all = lines(withRuns.stdout);
    const rowKeys = ['instance_id', 'explorer', 'budget', 'core_lines', ...MISS_CATEGORIES, 'patch_lines', 'patch_hit'];
    const viewer = all.filter((l) => l['explorer'] === 'viewer' && 'instance_id' in l);
    for (const row of viewer) assert.deepEqual(Object.keys(row), row['seen'] === null ? [...rowKeys, 'seen', 'trajectory'] : [...rowKeys, 'seen', 'viewed_core_lines', 'trajectory']);
    const totals = all.find((l) => l['explorer'] === 'viewer' && 'totals' in l)!;
    assert.deepEqual(Object.keys(totals), ['explorer', 'budget', 'instances', 'totals']);
    assert.deepEqual(Object.keys(totals['totals'] as Json), ['core_lines', ...MISS_CATEGORIES, 'patch_lines', 'patch_hit', 'seen', 'viewed_core_lines', 'runs']);
  });

  it('rows without the flag are byte-identical; the viewer rows start with today’s text', () => {
    assert.equal(without.status, 0, without.stderr);
    const before = without.stdout.split('\n');
    const after = withRuns.stdout.split('\n');
    assert.equal(after.length, before.length);
    before.forEach((line, i) => {
      if (line.includes('"explorer":"viewer"')) {
        assert.ok(after[i]!.startsWith(line.slice(0, -1 - (line.endsWith('}}') ? 1 : 0))), `line ${i + 1} keeps its prefix`);
      } else assert.equal(after[i], line, `line ${i + 1}`);
    });
  });

  it('csv and table grow the run columns', () => {
    const csv = cli('misses', ...inputs, '--explorer-trajs', `viewer=${ws.trajs}`, '--format', 'csv');
    assert.equal(csv.status, 0, csv.stderr);
    const [header, ...body] = csv.stdout.trim().split('\n');
    assert.deepEqual(header!.split(',').slice(12), [...MISS_CATEGORIES.map((c) => `seen_${c}`), 'viewed_core_lines', 'runs', 'trajectory']);
    const other = body.find((l) => l.includes(',other,'))!;
    assert.ok(other.endsWith(',,,,,,,,,'), 'other explorer: empty run cells');
    assert.ok(body.some((l) => l.startsWith('TOTAL,viewer,') && l.endsWith(',30,')));
    const table = cli('misses', ...inputs, '--explorer-trajs', `viewer=${ws.trajs}`, '--format', 'table');
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /sHit +sBeyond +sPathMis +sInverted +sWrongReg +sNoFile +viewed +runs/);
    assert.match(table.stdout, /core lines of that category the explorer's own run viewed/);
    const csvWithout = cli('misses', ...inputs, '--format', 'csv');
    assert.doesNotMatch(csvWithout.stdout, /seen_hit/);
  });
});

describe('misses on the demo: main’s output unchanged, the demo agent’s runs', () => {
  const demo = ['--bench', path.join(DEMO, 'bench.jsonl'), ...['agent', 'bm25', 'localizer'].flatMap((e) => ['--preds', path.join(DEMO, 'results', e, 'top5.jsonl')])];
  const golden = readFileSync(path.join(ROOT, 'test', 'fixtures', 'explorer-runs', 'demo-misses.before.jsonl'), 'utf8');

  it('without --explorer-trajs: exactly what main printed before the flag existed', () => {
    const out = cli('misses', ...demo);
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stdout, golden);
  });

  it('with the agent’s runs: the other explorers’ lines are byte-identical, the agent’s gain the run fields', () => {
    const out = cli('misses', ...demo, '--explorer-trajs', 'agent=demo/results/agent/trajs');
    assert.equal(out.status, 0, out.stderr);
    const before = golden.trim().split('\n');
    const after = out.stdout.trim().split('\n');
    before.forEach((line, i) => {
      if (JSON.parse(line).explorer !== 'agent') assert.equal(after[i], line);
    });
    const agentRows = lines(out.stdout).filter((l) => l['explorer'] === 'agent' && 'instance_id' in l);
    assert.deepEqual(
      agentRows.map((r) => [r['trajectory'], r['viewed_core_lines']]),
      [
        ['demo/results/agent/trajs/acme__inventory-101.traj.json', 79],
        ['demo/results/agent/trajs/acme__inventory-102.jsonl', 42],
        ['demo/results/agent/trajs/acme__tinyhttp-7/run.traj.json', 51],
      ],
    );
  });

  it('usage errors exit 2 with one line: unknown label (naming the labels), twice, not a folder, no =', () => {
    const unknown = cli('misses', ...demo, '--explorer-trajs', 'agnet=demo/results/agent/trajs');
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stdout, '');
    assert.equal(unknown.stderr, 'swe-explore: --explorer-trajs: no explorer labelled "agnet" (explorers: "agent", "bm25", "localizer")\n');
    const twice = cli('misses', ...demo, '--explorer-trajs', 'agent=a', '--explorer-trajs', 'agent=b');
    assert.equal(twice.status, 2);
    assert.match(twice.stderr, /names explorer "agent" twice/);
    const missing = cli('misses', ...demo, '--explorer-trajs', 'agent=demo/nowhere');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /agent=demo\/nowhere: not a folder/);
    const bad = cli('misses', ...demo, '--explorer-trajs', 'agent');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--explorer-trajs takes KEY=DIR/);
  });
});
