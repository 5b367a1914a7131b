/**
 * Deterministic synthetic repair runs for `swe-explore build` at benchmark scale.
 *
 *   node --import tsx scripts/gen-trajectories.ts --out DIR [--instances 848] [--runs 3]
 *        [--run-kb 235] [--seed 1]
 *
 * Writes, under DIR:
 *   trajs/<model-dir>/<instance_id>__0.json   one SWE-Explore unified run per instance and model
 *                                            (about --run-kb KB each: 848 × 3 × 235 KB ≈ 600 MB)
 *   repos/<instance_id>/pkg/...              six source files per instance (50–3,000 lines)
 *   line_counts.json                         {instance_id: {path: count}} of those files
 *   synthetic-trajectories.json              the options used; marks DIR as ours
 *
 * A run looks like a mini-swe-agent run converted to the unified format: a THOUGHT and one
 * ```bash fence per assistant message, an observation after it, mixing every idiom the builder
 * reads (`nl -ba F | sed -n 'a,bp'`, `grep -n pat F`, `cat F`, `sed -n`, `head`, `tail`, recursive
 * grep with `path:line:` hits, heredoc writes of reproduction scripts, `python`, `ls`); the first
 * model's runs use `str_replace_editor` / `bash` tool calls instead (OpenHands style). About a
 * third of the paths name files the repository does not have (agent scripts, directories), so the
 * existence filter works as hard as on real runs.
 *
 * Explorer runs (issue 19) for a synthetic workspace of ./gen-synthetic.ts:
 *
 *   node --import tsx scripts/gen-trajectories.ts --explorer-runs WORKSPACE [--run-kb 2048] [--seed 1]
 *
 * writes `results/<explorer>/trajs/<instance_id>.traj.json` for every row of every prediction file
 * of WORKSPACE (mini-swe-agent v1 runs of the same steps over the instance's snapshot files, about
 * --run-kb KB each; one in five explorers as Claude Code stream-json `.jsonl` with Read and Grep
 * calls), and `explorer-runs.json` (the options) in WORKSPACE.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

export interface TrajectoryGenOptions {
  readonly out: string;
  readonly instances?: number;
  readonly runs?: number;
  /** Approximate size of each run in KB. */
  readonly runKb?: number;
  readonly seed?: number;
}

export interface GeneratedTrajectories {
  readonly trajsDir: string;
  readonly reposDir: string;
  readonly lineCountsFile: string;
  readonly runs: number;
  readonly bytes: number;
}

const MARKER = 'synthetic-trajectories.json';
const MODELS = [
  ['claude-4-5', 'anthropic/claude-sonnet-4-5'],
  ['gemini-3-pro', 'google/gemini-3-pro-preview'],
  ['glm4-6', 'glm-4.6'],
  ['gpt-5', 'openai/gpt-5'],
] as const;
const MODULES = ['core', 'io', 'utils', 'api', 'models', 'config'];
const WORDS = ['value', 'result', 'index', 'handler', 'config', 'buffer', 'parser', 'record', 'schema', 'token'];

/** Weyl sequence through a murmur-style finaliser: deterministic, fast, not cryptographic. */
class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  float(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }
}

interface RepoFile {
  readonly path: string;
  readonly lines: number;
}

function sourceLine(n: number, rng: Rng): string {
  return `    ${rng.pick(WORDS)}_${n} = compute(${rng.pick(WORDS)}, ${n})  # line ${n}`;
}

/** The command of one step and the observation the agent got back. */
function step(rng: Rng, files: readonly RepoFile[], instance: number, index: number): { command: string; output: string } {
  const file = rng.pick(files);
  const missing = `scripts/check_${index}.py`;
  const target = rng.float() < 0.3 ? missing : file.path;
  const start = rng.int(1, Math.max(1, file.lines - 60));
  const end = start + rng.int(10, 60);
  const body = (from: number, to: number, numbered: boolean): string => {
    const out: string[] = [];
    for (let n = from; n <= Math.min(to, from + 80); n++) out.push(numbered ? `${String(n).padStart(6)}\t${sourceLine(n, rng)}` : sourceLine(n, rng));
    return out.join('\n');
  };
  const kind = rng.float();
  if (kind < 0.25) return { command: `nl -ba ${target} | sed -n '${start},${end}p'`, output: body(start, end, true) };
  if (kind < 0.5) {
    const hits: string[] = [];
    for (let k = 0; k < rng.int(1, 8); k++) hits.push(`${rng.int(1, file.lines)}:${sourceLine(k, rng)}`);
    return { command: `grep -n "${rng.pick(WORDS)}" ${target}`, output: hits.join('\n') };
  }
  if (kind < 0.6) return { command: `cat ${target}`, output: body(1, file.lines, false) };
  if (kind < 0.7) return { command: `sed -n '${start},${end}p' /testbed/${target}`, output: body(start, end, false) };
  if (kind < 0.75) return { command: `head -n ${end} ${target}`, output: body(1, end, false) };
  if (kind < 0.78) return { command: `tail -n 20 ${target}`, output: body(Math.max(1, file.lines - 19), file.lines, false) };
  if (kind < 0.83) {
    const hits: string[] = [];
    for (let k = 0; k < rng.int(1, 6); k++) hits.push(`${rng.pick(files).path}:${rng.int(1, 50)}:${sourceLine(k, rng)}`);
    return { command: `grep -rn "${rng.pick(WORDS)}" pkg/`, output: hits.join('\n') };
  }
  if (kind < 0.88) return { command: `cat <<'EOF' > reproduce_${instance}.py\nfrom pkg import ${rng.pick(MODULES)}\nprint(${rng.pick(WORDS)})\nEOF`, output: '' };
  if (kind < 0.95) return { command: `python reproduce_${instance}.py`, output: `Traceback (most recent call last):\n${body(1, 40, false)}` };
  return { command: `ls -la pkg/${rng.pick(MODULES)}`, output: files.map((f) => f.path).join('\n') };
}

function run(rng: Rng, instanceId: string, instance: number, files: readonly RepoFile[], model: string, toolCalls: boolean, targetBytes: number): string {
  const modified = files[0]!.path;
  const traj: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer shell to solve programming tasks.' },
    { role: 'user', content: `<pr_description>\n${'The parser drops the last record when the input ends without a newline. '.repeat(30)}\n</pr_description>` },
  ];
  let bytes = 600;
  for (let i = 0; bytes < targetBytes; i++) {
    const { command, output } = step(rng, files, instance, i);
    const thought = `THOUGHT: ${'I need to look at how the parser handles the end of the input before changing it. '.repeat(rng.int(1, 4))}`;
    const observation = `<returncode>0</returncode>\n<output>\n${output}\n</output>`;
    if (toolCalls) {
      const view = command.startsWith('cat ') && !command.includes('<<');
      const call = view
        ? {
            id: `call_${i}`,
            type: 'function',
            function: {
              name: 'str_replace_editor',
              arguments: JSON.stringify({ command: 'view', path: `/testbed/${command.slice(4)}`, ...(rng.float() < 0.5 ? { view_range: [rng.int(1, 40), rng.int(41, 120)] } : {}) }),
            },
          }
        : { id: `call_${i}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } };
      traj.push({ role: 'assistant', content: thought, tool_calls: [call] }, { role: 'tool', tool_call_id: `call_${i}`, content: observation });
    } else {
      traj.push({ role: 'assistant', content: `${thought}\n\n\`\`\`bash\n${command}\n\`\`\`` }, { role: 'user', content: observation });
    }
    bytes += thought.length + command.length + observation.length + 120;
  }
  const submission = `diff --git a/${modified} b/${modified}\nindex 1111111..2222222 100644\n--- a/${modified}\n+++ b/${modified}\n@@ -1,3 +1,3 @@\n-old\n+new\n`;
  return JSON.stringify({ info: { instance_id: instanceId, model, exit_status: 'Submitted', submission, config: { environment: { cwd: '/testbed' } } }, traj });
}

/** Writes the runs and repositories (see the header); an existing DIR written with the same options is reused. */
export function generateTrajectories(options: TrajectoryGenOptions): GeneratedTrajectories {
  const instances = options.instances ?? 848;
  const runs = Math.min(options.runs ?? 3, MODELS.length);
  const runKb = options.runKb ?? 235;
  const seed = options.seed ?? 1;
  const out = path.resolve(options.out);
  const trajsDir = path.join(out, 'trajs');
  const reposDir = path.join(out, 'repos');
  const lineCountsFile = path.join(out, 'line_counts.json');
  const marker = path.join(out, MARKER);
  const wanted = JSON.stringify({ instances, runs, runKb, seed, lineCounts: true });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) {
    return { trajsDir, reposDir, lineCountsFile, runs: instances * runs, bytes: Number(readFileSync(path.join(out, 'bytes.txt'), 'utf8')) };
  }
  if (existsSync(out)) {
    if (!existsSync(marker)) throw new Error(`${out} exists and was not written by this script; refusing to clear it`);
    rmSync(out, { recursive: true, force: true });
  }
  let bytes = 0;
  const lineCounts: Record<string, Record<string, number>> = {};
  for (let i = 0; i < instances; i++) {
    const rng = new Rng(seed * 1_000_003 + i);
    const instanceId = `synth__repo${i % 12}-${10000 + i}`;
    const files: RepoFile[] = MODULES.map((m, k) => ({ path: `pkg/${m}/mod${k}.py`, lines: Math.floor(Math.exp(Math.log(50) + rng.float() * (Math.log(3000) - Math.log(50)))) }));
    lineCounts[instanceId] = Object.fromEntries(files.map((f) => [f.path, f.lines]));
    for (const file of files) {
      const full = path.join(reposDir, instanceId, file.path);
      mkdirSync(path.dirname(full), { recursive: true });
      let text = '';
      for (let n = 1; n <= file.lines; n++) text += `line ${n}\n`;
      writeFileSync(full, text);
    }
    for (let m = 0; m < runs; m++) {
      const [dir, model] = MODELS[m]!;
      const text = run(rng, instanceId, i, files, model, m === 0, runKb * 1024);
      const full = path.join(trajsDir, dir, `${instanceId}__0.json`);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, text);
      bytes += text.length;
    }
  }
  writeFileSync(path.join(out, 'bytes.txt'), String(bytes));
  writeFileSync(lineCountsFile, `${JSON.stringify(lineCounts)}\n`);
  writeFileSync(marker, wanted);
  return { trajsDir, reposDir, lineCountsFile, runs: instances * runs, bytes };
}

export interface ExplorerRunGenOptions {
  /** A workspace written by ./gen-synthetic.ts (bench.jsonl, line_counts.json, results/<explorer>/top*.jsonl). */
  readonly workspace: string;
  /** Approximate size of each run in KB (default 2048). */
  readonly runKb?: number;
  readonly seed?: number;
}

export interface GeneratedExplorerRuns {
  /** Explorer name → its run folder. */
  readonly folders: ReadonlyMap<string, string>;
  readonly runs: number;
  readonly bytes: number;
}

const EXPLORER_MARKER = 'explorer-runs.json';

/** A Claude Code stream-json run of about `targetBytes`: Read calls with numbered results and Grep calls, over the instance's files. */
function claudeRun(rng: Rng, files: readonly RepoFile[], targetBytes: number): string {
  const cwd = '/home/explorer/checkout';
  const events: string[] = [JSON.stringify({ type: 'system', subtype: 'init', cwd, model: 'claude-sonnet-4-5', tools: ['Read', 'Grep', 'Glob'] })];
  let bytes = events[0]!.length;
  for (let i = 0; bytes < targetBytes; i++) {
    const file = rng.pick(files);
    const id = `toolu_${i}`;
    let use: unknown;
    let result: string;
    if (rng.float() < 0.7) {
      const start = rng.int(1, Math.max(1, file.lines - 60));
      const end = Math.min(file.lines, start + rng.int(20, 120));
      use = { type: 'tool_use', id, name: 'Read', input: { file_path: `${cwd}/${file.path}`, offset: start, limit: end - start + 1 } };
      const out: string[] = [];
      for (let n = start; n <= end; n++) out.push(`${String(n).padStart(6)}→${sourceLine(n, rng)}`);
      result = out.join('\n');
    } else {
      const word = rng.pick(WORDS);
      use = { type: 'tool_use', id, name: 'Grep', input: { pattern: word, path: cwd, output_mode: 'content', '-n': true } };
      const hits: string[] = [];
      for (let k = 0; k < rng.int(1, 12); k++) {
        const hit = rng.pick(files);
        hits.push(`${cwd}/${hit.path}:${rng.int(1, hit.lines)}:${sourceLine(k, rng)}`);
      }
      result = hits.join('\n');
    }
    const assistant = JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Let me look at how the parser handles the end of the input.' }, use] } });
    const user = JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] } });
    events.push(assistant, user);
    bytes += assistant.length + user.length + 2;
  }
  events.push(JSON.stringify({ type: 'result', subtype: 'success', result: 'RELEVANT_FILES:\n- pkg/a.py:1-10' }));
  return `${events.join('\n')}\n`;
}

/** Writes explorer runs for a synthetic workspace (see the header); an existing set written with the same options is reused. */
export function generateExplorerRuns(options: ExplorerRunGenOptions): GeneratedExplorerRuns {
  const workspace = path.resolve(options.workspace);
  const runKb = options.runKb ?? 2048;
  const seed = options.seed ?? 1;
  const counts = JSON.parse(readFileSync(path.join(workspace, 'line_counts.json'), 'utf8')) as Record<string, Record<string, number>>;
  const resultsDir = path.join(workspace, 'results');
  const explorers = readdirSync(resultsDir).sort();
  const folders = new Map(explorers.map((e) => [e, path.join(resultsDir, e, 'trajs')]));
  const marker = path.join(workspace, EXPLORER_MARKER);
  const wanted = JSON.stringify({ runKb, seed, explorers });
  if (existsSync(marker)) {
    const [previous, runs, bytes] = readFileSync(marker, 'utf8').split('\n');
    if (previous === wanted && [...folders.values()].every((f) => existsSync(f))) return { folders, runs: Number(runs), bytes: Number(bytes) };
  }
  let runs = 0;
  let bytes = 0;
  explorers.forEach((explorer, x) => {
    const folder = folders.get(explorer)!;
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const predictions = readdirSync(path.join(resultsDir, explorer)).filter((f) => f.endsWith('.jsonl'));
    for (const file of predictions) {
      for (const line of readFileSync(path.join(resultsDir, explorer, file), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const instanceId = (JSON.parse(line) as { instance_id: string }).instance_id;
        const files: RepoFile[] = Object.entries(counts[instanceId] ?? {})
          .filter(([, lines]) => lines > 0)
          .map(([p, lines]) => ({ path: p, lines }));
        if (files.length === 0) continue;
        const rng = new Rng(seed * 7_000_003 + x * 100_003 + runs);
        const claude = x % 5 === 4;
        const text = claude ? claudeRun(rng, files, runKb * 1024) : miniRun(rng, instanceId, files, runKb * 1024);
        writeFileSync(path.join(folder, claude ? `${instanceId}.jsonl` : `${instanceId}.traj.json`), text);
        runs++;
        bytes += text.length;
      }
    }
  });
  writeFileSync(marker, `${wanted}\n${runs}\n${bytes}`);
  return { folders, runs, bytes };
}

/** A mini-swe-agent v1 run of about `targetBytes` over the instance's files (the steps of {@link step}). */
function miniRun(rng: Rng, instanceId: string, files: readonly RepoFile[], targetBytes: number): string {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer shell to solve programming tasks.' },
    { role: 'user', content: `<pr_description>\n${'The parser drops the last record when the input ends without a newline. '.repeat(30)}\n</pr_description>` },
  ];
  let bytes = 600;
  for (let i = 0; bytes < targetBytes; i++) {
    const { command, output } = step(rng, files, 0, i);
    const thought = `THOUGHT: ${'I need to look at how the parser handles the end of the input. '.repeat(rng.int(1, 4))}`;
    const observation = `<returncode>0</returncode>\n<output>\n${output}\n</output>`;
    messages.push({ role: 'assistant', content: `${thought}\n\n\`\`\`bash\n${command}\n\`\`\`` }, { role: 'user', content: observation });
    bytes += thought.length + command.length + observation.length + 80;
  }
  return JSON.stringify({
    trajectory_format: 'mini-swe-agent-1',
    instance_id: instanceId,
    info: { mini_version: '1.15.0', config: { model: { model_name: 'explorer-model' }, environment: { cwd: '/testbed' } } },
    messages,
  });
}

if (require.main === module) {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, instances: { type: 'string' }, runs: { type: 'string' }, 'run-kb': { type: 'string' }, seed: { type: 'string' }, 'explorer-runs': { type: 'string' } },
  });
  if (values['explorer-runs'] !== undefined) {
    const started = Date.now();
    const made = generateExplorerRuns({
      workspace: values['explorer-runs'],
      ...(values['run-kb'] === undefined ? {} : { runKb: Number(values['run-kb']) }),
      ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
    });
    console.log(`${made.runs} explorer runs, ${(made.bytes / 1e6).toFixed(0)} MB, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.exit(0);
  }
  if (values.out === undefined) throw new Error('--out DIR or --explorer-runs WORKSPACE is required');
  const started = Date.now();
  const result = generateTrajectories({
    out: values.out,
    ...(values.instances === undefined ? {} : { instances: Number(values.instances) }),
    ...(values.runs === undefined ? {} : { runs: Number(values.runs) }),
    ...(values['run-kb'] === undefined ? {} : { runKb: Number(values['run-kb']) }),
    ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
  });
  console.log(`${result.runs} runs, ${(result.bytes / 1e6).toFixed(0)} MB, in ${((Date.now() - started) / 1000).toFixed(1)} s: ${result.trajsDir}`);
}
