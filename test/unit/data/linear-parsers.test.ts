/**
 * Every parser of agent answers and of the Instance panel's Markdown stays linear on inputs built
 * to make it quadratic (issue 15, finding 4), and an answer without a block is parsed in memory
 * proportional to its size, not ~140 bytes per byte. Complexity is checked by ratios of CPU time
 * (best of many runs; doubling the input must not much more than double the time), never absolute
 * times.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnswerText } from '../../../src/data/formats/answerFormat';
import { parseMarkdown } from '../../../src/webview/instance/markdown';
import { cpuNow } from '../support/cpu-time';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * Time per doubling: (t(4n) / t(n))^(1/2) — about 2 when linear, 4 when quadratic. Times are CPU
 * time (the other test files run beside this one on two cores: on the wall clock, a parse that
 * waited for a core looks slow; under load, wall-clock ratios of a linear parser reached 3.2 where
 * CPU-time ratios stayed at 1.9–2.2). Each is the fastest of many runs, the two sizes interleaved;
 * up to five such rounds are tried, because load only ever inflates a ratio while a quadratic parser
 * stays near 4 however often it is measured.
 */
function perDoubling(build: (n: number) => string, parse: (text: string) => unknown, n: number): number {
  const small = build(n);
  const large = build(4 * n);
  parse(small);
  const timed = (text: string): number => {
    const t0 = cpuNow();
    parse(text);
    return cpuNow() - t0;
  };
  let best = Infinity;
  for (let attempt = 0; attempt < 5 && best >= 2.3; attempt++) {
    let t1 = Infinity;
    let t4 = Infinity;
    for (let run = 0; run < 7; run++) {
      t1 = Math.min(t1, timed(small));
      t4 = Math.min(t4, timed(large));
    }
    best = Math.min(best, Math.sqrt(t4 / Math.max(t1, 0.5)));
  }
  return best;
}

/** Linear parsers measure ~2 per doubling; the quadratic ones this guards against measured ~4. */
const LINEAR_LIMIT = 3;

/** Backtick runs of every length 1, 2, 3, … (each searched for its own closer). */
function backtickRuns(n: number): string {
  let out = '';
  for (let k = 1; out.length < n; k++) out += `${'`'.repeat(k)}a`;
  return out;
}

const ANSWER_CASES: readonly (readonly [string, (n: number) => string, number])[] = [
  ['a block entry ending in "\\t." × n (the note-stripping loop)', (n) => `RELEVANT_FILES:\n- a.py${'\t.'.repeat(n)}\n`, 20_000],
  ['a block entry with " #" × n', (n) => `RELEVANT_FILES:\n- a.py${' #'.repeat(n)}\n`, 50_000],
  ['a block entry with " (" × n and a closing ")"', (n) => `RELEVANT_FILES:\n- a.py${' ('.repeat(n)})\n`, 50_000],
  ['a block entry opening with "\' " × n', (n) => `RELEVANT_FILES:\n- ${"' ".repeat(n)}a.py:3\n`, 50_000],
  ['a block entry ending in ". \\n" × n inside one entry', (n) => `RELEVANT_FILES:\n- a.py #x${'.\u3000'.repeat(n)}\n`, 50_000],
  ['prose with a run of n spaces', (n) => `see a.py${' '.repeat(n)}x and b.py:3\n`, 100_000],
  ['prose with a run of n spaces before a colon', (n) => `see a.py${' '.repeat(n)}:x and b.py:3\n`, 100_000],
  ['prose with n tabs before ": 3"', (n) => `see a.py${'\t'.repeat(n)}: 3\n`, 100_000],
  ['prose with unmatched backticks', (n) => '`a '.repeat(n), 50_000],
  ['prose with unmatched double quotes after backticks', (n) => '"`a '.repeat(n), 200_000],
  ['prose with apostrophes after spaces', (n) => " 'a".repeat(n), 200_000],
  ['prose of location-like tokens', (n) => 'pkg/a.py:1-2 '.repeat(n), 5_000],
  ['many headers without a block', (n) => 'RELEVANT_FILES: x\n'.repeat(n), 20_000],
  ['many headers followed by blank lines', (n) => 'RELEVANT_FILES:\n\n\n'.repeat(n), 20_000],
];

describe('answer parsing is linear', () => {
  for (const [name, build, n] of ANSWER_CASES) {
    it(name, () => {
      const ratio = perDoubling(build, (text) => parseAnswerText(text), n);
      assert.ok(ratio < LINEAR_LIMIT, `each doubling multiplied the time by ${ratio.toFixed(2)}`);
    });
  }
});

const MARKDOWN_CASES: readonly (readonly [string, (n: number) => string, number])[] = [
  ['a paragraph line with a run of n spaces inside (trailing-space trimming)', (n) => `a${' '.repeat(n)}b\nc\n`, 20_000],
  ['a heading with a run of n spaces inside', (n) => `# a${' '.repeat(n)}b\n`, 20_000],
  ['a heading with a run of n spaces before a closing #', (n) => `# a${' '.repeat(n)}b#\n`, 20_000],
  ['a heading with n closing-looking " #" pieces', (n) => `# a${' #'.repeat(n)}x\n`, 20_000],
  ['backtick runs of every length', backtickRuns, 50_000],
  ['paragraph lines with trailing spaces', (n) => 'a     \n'.repeat(n), 20_000],
];

describe('Instance panel Markdown is linear', () => {
  for (const [name, build, n] of MARKDOWN_CASES) {
    it(name, () => {
      const ratio = perDoubling(build, parseMarkdown, n);
      assert.ok(ratio < LINEAR_LIMIT, `each doubling multiplied the time by ${ratio.toFixed(2)}`);
    });
  }
});

describe('an answer without a block is parsed in bounded memory', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'swe-answer-memory-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('24 MB of prose with a few locations: peak RSS well under 10 bytes per byte', async () => {
    const sentence = 'The helper reads the configuration and returns early when nothing changed; see the tests. ';
    const parts: string[] = [];
    let size = 0;
    for (let k = 0; size < 24 * 1024 * 1024; k++) {
      const piece = k % 50 === 0 ? `Look at pkg/mod${k % 97}.py:${(k % 300) + 1}-${(k % 300) + 20} first.\n` : sentence;
      parts.push(piece);
      size += piece.length;
    }
    const file = path.join(dir, 'x__y-1.txt');
    await writeFile(file, parts.join(''));
    const script = `const { readPredictionFile } = require('./src/data/formats/predictionFile');
readPredictionFile(${JSON.stringify(file)}, { format: 'answer' }).then((read) => {
  process.stdout.write(JSON.stringify({ regions: read.items[0].value.regions.length, rss: process.resourceUsage().maxRSS }));
});`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    const out = JSON.parse(run.stdout) as { regions: number; rss: number };
    assert.ok(out.regions > 1000, `${out.regions} regions`);
    // The text itself is 24 MB (its bytes, then its string); before, the sweep held ~140 bytes per byte.
    assert.ok(out.rss < 300 * 1024, `peak RSS ${Math.round(out.rss / 1024)} MB`);
  });
});
