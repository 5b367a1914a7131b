/**
 * Hostile-data figures (issue 15): parsers that must stay linear, memory that must stay bounded.
 * Run alone: `node --import tsx scripts/bench-hostile.ts [case …]` (default: every case). Each
 * measurement runs in its own child process, so its peak RSS is its own; times are the best of
 * three runs at each size, and "×/doubling" is (t(4n) / t(n))^(1/2) — about 2 when linear, 4 when
 * quadratic.
 *
 *   answer-notes    `- a.py` + "\t." × n in a RELEVANT_FILES block (the note-stripping loop)
 *   answer-spaces   prose with a run of n spaces (the prose sweep)
 *   answer-memory   a plain-text answer of N MB without a block, read as a transcript: peak RSS
 *   md-trailing     an issue text line "a" + n spaces + "b" (trailing-space trimming)
 *   md-heading      "# a" + n spaces + "b" (heading pattern)
 *   md-codespan     backtick runs of every length 1…k (code-span matching)
 *   kappa           2,000 authors who each accepted the same instance: agreement lines and time
 *   drift           the audit drift check over six 400 MB snapshot files: peak RSS
 *   deeplink        a link with 100,000 unknown parameters: length of the warning
 */
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, openSync, rmSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const SELF = __filename;

type Result = { readonly ms: number; readonly rssMB: number; readonly note?: string };

function child(name: string, n: number): Result {
  const run = spawnSync(process.execPath, ['--max-old-space-size=4096', '--import', 'tsx', SELF, '--child', name, String(n)], { encoding: 'utf8', timeout: 600_000 });
  if (run.status !== 0) return { ms: NaN, rssMB: NaN, note: `failed (${run.signal ?? run.status}): ${run.stderr.trim().split('\n').slice(-1)[0] ?? ''}` };
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as Result;
}

function best(fn: () => void, runs = 3): number {
  let fastest = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    fastest = Math.min(fastest, performance.now() - t0);
  }
  return fastest;
}

async function bestAsync(fn: () => Promise<unknown>, runs = 3): Promise<number> {
  let fastest = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    await fn();
    fastest = Math.min(fastest, performance.now() - t0);
  }
  return fastest;
}

const rssMB = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

function codeSpanRuns(n: number): string {
  let out = '';
  for (let k = 1; out.length < n; k++) out += `${'`'.repeat(k)}a`;
  return out;
}

function proseAnswer(bytes: number): string {
  const sentence = 'The helper reads the configuration and returns early when nothing changed; see the tests for details. ';
  const parts: string[] = [];
  let size = 0;
  let k = 0;
  while (size < bytes) {
    const piece = k % 40 === 0 ? `Look at pkg/mod${k % 97}.py:${(k % 300) + 1}-${(k % 300) + 20} first. ` : sentence;
    parts.push(piece);
    size += piece.length;
    k++;
  }
  return parts.join('');
}

/** The measurement itself, in the child process. */
async function measure(name: string, n: number): Promise<Result> {
  switch (name) {
    case 'answer-notes': {
      const { parseAnswerText } = await import('../src/data/formats/answerFormat');
      const text = `RELEVANT_FILES:\n- a.py${'\t.'.repeat(n)}\n`;
      return { ms: best(() => parseAnswerText(text)), rssMB: rssMB() };
    }
    case 'answer-spaces': {
      const { parseAnswerText } = await import('../src/data/formats/answerFormat');
      const text = `see a.py${' '.repeat(n)}x and b.py:3\n`;
      return { ms: best(() => parseAnswerText(text)), rssMB: rssMB() };
    }
    case 'answer-memory': {
      const { readPredictionFile } = await import('../src/data/formats/predictionFile');
      const dir = path.join(tmpdir(), 'bench-hostile-answer');
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `x__y-1.txt`);
      writeFileSync(file, proseAnswer(n * 1024 * 1024));
      const before = rssMB();
      const t0 = performance.now();
      const read = await readPredictionFile(file, { format: 'answer' });
      const ms = performance.now() - t0;
      rmSync(dir, { recursive: true, force: true });
      return { ms, rssMB: rssMB(), note: `${read.items[0]?.value.regions.length ?? 0} regions; RSS before reading ${before} MB` };
    }
    case 'md-trailing': {
      const { parseMarkdown } = await import('../src/webview/instance/markdown');
      const text = `a${' '.repeat(n)}b\nc\n`;
      return { ms: best(() => parseMarkdown(text)), rssMB: rssMB() };
    }
    case 'md-heading': {
      const { parseMarkdown } = await import('../src/webview/instance/markdown');
      const text = `# a${' '.repeat(n)}b\n`;
      return { ms: best(() => parseMarkdown(text)), rssMB: rssMB() };
    }
    case 'md-codespan': {
      const { parseMarkdown } = await import('../src/webview/instance/markdown');
      const text = codeSpanRuns(n);
      return { ms: best(() => parseMarkdown(text)), rssMB: rssMB() };
    }
    case 'kappa': {
      const { instanceAgreement } = await import('../src/data/audit/workspaceAudit');
      const { agreementImpactLines } = await import('../src/core');
      const groundTruth = {
        coreRegions: [{ path: 'a.py', start: 1, end: 100 }],
        coreFiles: ['a.py'],
        optionalRegionsByModel: {},
        optionalFilesByModel: {},
        modifiedFiles: ['a.py'],
        mainFiles: ['a.py'],
      };
      const byAuthor = new Map<string, Map<string, [number, number][]>>();
      for (let a = 0; a < n; a++) byAuthor.set(`author-${a}`, a % 2 === 0 ? new Map() : new Map([['a.py', [[a % 100 || 1, a % 100 || 1]]]]));
      let lines = 0;
      const ms = best(() => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bench passes shapes both versions accept
        lines = agreementImpactLines(instanceAgreement('x__y-1', groundTruth as any, new Map(), byAuthor as any, 'official')).length;
      }, 1);
      return { ms, rssMB: rssMB(), note: `${lines} agreement line(s)` };
    }
    case 'drift': {
      const { loadAudit } = await import('../src/data/audit/workspaceAudit');
      const { loadWorkspace } = await import('../src/data/workspace/workspace');
      const { removeEvent } = await import('../src/data/audit/auditLog');
      const dir = path.join(tmpdir(), 'bench-hostile-drift');
      rmSync(dir, { recursive: true, force: true });
      const snapshot = path.join(dir, 'repos', 'x__y-1');
      mkdirSync(snapshot, { recursive: true });
      const line = `${'x'.repeat(99)}\n`;
      const lines = Math.floor((n * 1024 * 1024) / line.length);
      const fd = openSync(path.join(snapshot, 'f0.py'), 'w');
      const block = line.repeat(10_000);
      for (let i = 0; i < lines; i += 10_000) writeSync(fd, block);
      closeSync(fd);
      const files = ['f0.py', 'f1.py', 'f2.py', 'f3.py', 'f4.py', 'f5.py'];
      for (const f of files.slice(1)) linkSync(path.join(snapshot, 'f0.py'), path.join(snapshot, f));
      const regions = files.map((f) => ({ path: f, start: 1, end: -1 }));
      writeFileSync(path.join(dir, 'bench.jsonl'), `${JSON.stringify({ instance_id: 'x__y-1', ground_truth: { read_core_files: files, read_core_regions: regions } })}\n`);
      const auditDir = path.join(dir, '.swe-explore', 'audit');
      mkdirSync(auditDir, { recursive: true });
      const sha = 'a'.repeat(64);
      const events = files.map((f, i) =>
        JSON.stringify(
          removeEvent(
            { instanceId: 'x__y-1', layer: 'core', model: null, path: f, start: lines - 10, end: lines - 5, reason: 'other', note: null, author: 'alice', textSha: sha },
            new Date(),
            `r${i}`,
          ),
        ),
      );
      writeFileSync(path.join(auditDir, 'alice.jsonl'), `${events.join('\n')}\n`);
      const model = await loadWorkspace({ benchFile: path.join(dir, 'bench.jsonl'), predictionFiles: [] });
      const before = rssMB();
      const t0 = performance.now();
      const audit = await loadAudit(model, auditDir);
      const ms = performance.now() - t0;
      rmSync(dir, { recursive: true, force: true });
      return { ms, rssMB: rssMB(), note: `${audit.problems.filter((p) => p.code === 'audit-drifted').length} drifted of 6; RSS before ${before} MB` };
    }
    case 'deeplink': {
      const { parseDeepLink } = await import('../src/core/deepLink');
      const query = Array.from({ length: n }, (_, i) => `p${i}=1`).join('&');
      let length = 0;
      const ms = await bestAsync(async () => {
        const parsed = parseDeepLink(`instance=x&${query}`);
        length = parsed.ok ? parsed.warnings.join('\n').length : 0;
      }, 1);
      return { ms, rssMB: rssMB(), note: `warning of ${length} characters` };
    }
    default:
      throw new Error(`unknown case ${name}`);
  }
}

const SIZES: Record<string, readonly number[]> = {
  'answer-notes': [5_000, 10_000, 20_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000],
  'answer-spaces': [10_000, 20_000, 40_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000],
  'answer-memory': [10, 100],
  'md-trailing': [8_000, 16_000, 32_000, 1_000_000, 2_000_000, 4_000_000],
  'md-heading': [8_000, 16_000, 32_000, 1_000_000, 2_000_000, 4_000_000],
  'md-codespan': [25_000, 50_000, 100_000, 1_000_000, 2_000_000, 4_000_000],
  kappa: [2_000],
  drift: [400],
  deeplink: [100_000],
};

/** Stop growing a case once one run takes longer than this (a quadratic case would take hours). */
const GIVE_UP_MS = 20_000;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    const result = await measure(args[1]!, Number(args[2]));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const cases = args.length > 0 ? args : Object.keys(SIZES);
  for (const name of cases) {
    const sizes = SIZES[name];
    if (sizes === undefined) throw new Error(`unknown case ${name} (known: ${Object.keys(SIZES).join(', ')})`);
    const times: number[] = [];
    let exponent = 1;
    for (const n of sizes) {
      const previousN = sizes[times.length - 1];
      if (previousN !== undefined && n > 2 * previousN) {
        // Extrapolate with the growth seen so far: a quadratic case would run for hours at the large sizes.
        const predicted = times[times.length - 1]! * (n / previousN) ** exponent;
        if (predicted > 120_000) {
          process.stdout.write(`${name.padEnd(14)} n=${String(n).padStart(9)}  skipped: about ${(predicted / 1000).toFixed(0)} s predicted at ×${(2 ** exponent).toFixed(2)}/doubling\n`);
          break;
        }
      }
      const r = child(name, n);
      times.push(r.ms);
      const previous = times.length >= 2 ? times[times.length - 2]! : NaN;
      const doubled = sizes[times.length - 2] !== undefined && n === 2 * sizes[times.length - 2]!;
      if (doubled && previous > 0) exponent = Math.max(1, Math.log2(r.ms / previous));
      const doubling = doubled ? ` ×${(r.ms / previous).toFixed(2)}/doubling` : '';
      process.stdout.write(
        `${name.padEnd(14)} n=${String(n).padStart(9)}  ${r.ms.toFixed(1).padStart(9)} ms  ${String(r.rssMB).padStart(5)} MB peak RSS${doubling}${r.note === undefined ? '' : `  (${r.note})`}\n`,
      );
      if (!(r.ms < GIVE_UP_MS)) break;
    }
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
