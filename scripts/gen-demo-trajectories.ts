/**
 * Writes the demo workspace's repair runs (written by us, synthetic): the nine runs demo/bench.jsonl
 * cites in `read_step_info` (`trajs/demo/<model>/<instance_id>__0.json`, found under the bench file's
 * folder, the default `sweExplore.data.trajectoryRoots`), in three formats:
 *
 * - Claude Code session JSONL: claude-sonnet-4-5 on acme__inventory-101 (Read with offset/limit);
 * - mini-swe-agent v1 `.traj.json`: claude-sonnet-4-5 on acme__inventory-102 (```bash fences);
 * - SWE-Explore unified `{info, traj}` with `str_replace_editor` / `bash` tool calls: the other seven.
 *
 *   node --import tsx scripts/gen-demo-trajectories.ts [--check]
 *
 * Each run takes, at the very step numbers the record cites, an action the builder's rules read as
 * that entry (`nl -ba F | sed -n 'a,bp'` and `grep -n` for whole-file credits, `sed -n`, `tail -n`,
 * editor views with a `view_range` for ranges); observations are computed from the snapshot files.
 * Where the record cites a read the builder would drop (a `reproduce_` script, `/tmp/…`, a file the
 * snapshot lacks, any `tinyhttp/…` path — it contains `http`), the run still takes the action, so
 * that run shows as not verified: the demo has both kinds. Only demo/trajs/ is written; the bench
 * is not touched. `--check` compares instead of writing (exit 1 when a file differs).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const DEMO = path.join(__dirname, '..', 'demo');
const BASE = '/testbed';

type Act =
  | { readonly kind: 'bash'; readonly command: string; readonly output?: string }
  | { readonly kind: 'view'; readonly path: string; readonly range?: readonly [number, number] }
  | { readonly kind: 'edit'; readonly path: string; readonly old: string; readonly new: string }
  | { readonly kind: 'say' };

interface Step {
  readonly idx: number;
  readonly thought: string;
  readonly act: Act;
}

type Format = 'unified' | 'mini-swe-agent-1' | 'claude-code';

interface RunSpec {
  readonly instanceId: string;
  readonly folder: string;
  readonly model: string;
  readonly format: Format;
  readonly steps: readonly Step[];
  /** Non-read actions that fill the gaps between cited steps, taken in turn. */
  readonly fillers: readonly Act[];
}

function fileLines(instanceId: string, file: string): string[] | undefined {
  const full = path.join(DEMO, 'repos', instanceId, file.startsWith(`${BASE}/`) ? file.slice(BASE.length + 1) : file);
  if (!existsSync(full)) return undefined;
  const text = readFileSync(full, 'utf8');
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

function numbered(lines: readonly string[], from: number, to: number, arrow = false): string {
  const out: string[] = [];
  for (let n = from; n <= Math.min(to, lines.length); n++) out.push(arrow ? `${String(n).padStart(6)}→${lines[n - 1]}` : `${String(n).padStart(6)}\t${lines[n - 1]}`);
  return out.join('\n');
}

/** The output of the few commands the runs read with, computed from the snapshot. */
function bashOutput(instanceId: string, command: string): string {
  let m = /^nl -ba (\S+) \| sed -n '(\d+),(\d+)p'$/.exec(command);
  if (m !== null) {
    const lines = fileLines(instanceId, m[1]!);
    return lines === undefined ? `nl: ${m[1]}: No such file or directory` : numbered(lines, Number(m[2]), Number(m[3]));
  }
  m = /^sed -n '(\d+),(\d+)p' (\S+)$/.exec(command);
  if (m !== null) return (fileLines(instanceId, m[3]!) ?? []).slice(Number(m[1]) - 1, Number(m[2])).join('\n');
  m = /^tail -n (\d+) (\S+)$/.exec(command);
  if (m !== null) return (fileLines(instanceId, m[2]!) ?? []).slice(-Number(m[1])).join('\n');
  m = /^cat (\S+)$/.exec(command);
  if (m !== null) return fileLines(instanceId, m[1]!)?.join('\n') ?? `cat: ${m[1]}: No such file or directory`;
  m = /^grep -n '([^']+)' (\S+)$/.exec(command);
  if (m !== null) {
    // grep's basic regular expressions spell alternation `\|`.
    const re = new RegExp(m[1]!.replace(/\\\|/g, '|'));
    return (fileLines(instanceId, m[2]!) ?? []).flatMap((line, i) => (re.test(line) ? [`${i + 1}:${line}`] : [])).join('\n');
  }
  return '';
}

function outputOf(instanceId: string, act: Act, arrow = false): string {
  switch (act.kind) {
    case 'bash':
      return act.output ?? bashOutput(instanceId, act.command);
    case 'view': {
      const lines = fileLines(instanceId, act.path);
      if (lines === undefined) return `The path ${act.path} does not exist.`;
      const [a, b] = act.range ?? [1, lines.length];
      const to = b === -1 ? lines.length : b;
      return arrow ? numbered(lines, a, to, true) : `Here's the result of running \`cat -n\` on ${act.path}:\n${numbered(lines, a, to)}`;
    }
    case 'edit':
      return `The file ${act.path} has been edited.`;
    case 'say':
      return '';
  }
}

function toolCall(id: string, act: Act): Record<string, unknown> | undefined {
  const call = (name: string, args: Record<string, unknown>): Record<string, unknown> => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  switch (act.kind) {
    case 'bash':
      return call('bash', { command: act.command });
    case 'view':
      return call('str_replace_editor', { command: 'view', path: act.path, ...(act.range === undefined ? {} : { view_range: act.range }) });
    case 'edit':
      return call('str_replace_editor', { command: 'str_replace', path: act.path, old_str: act.old, new_str: act.new });
    case 'say':
      return undefined;
  }
}

/** Assistant steps at the cited indices, fillers (each followed by its observation) in between. */
function timeline(spec: RunSpec, first: number): { idx: number; step: Step; observed: boolean }[] {
  const byIdx = new Map(spec.steps.map((s) => [s.idx, s]));
  const last = spec.steps.reduce((max, s) => Math.max(max, s.idx), 0);
  const out: { idx: number; step: Step; observed: boolean }[] = [];
  let filler = 0;
  let idx = first;
  while (idx <= last) {
    const cited = byIdx.get(idx);
    // A filler right before a cited step has no room for an observation: it only thinks aloud.
    const room = !byIdx.has(idx + 1);
    const step =
      cited ??
      (room
        ? { idx, thought: 'Let me check where things stand.', act: spec.fillers[filler++ % spec.fillers.length]! }
        : { idx, thought: 'Next, the part the issue points at.', act: { kind: 'say' } as const });
    // An observation follows unless the next index is itself a cited step.
    const observed = step.act.kind !== 'say' && !byIdx.has(idx + 1);
    out.push({ idx, step, observed });
    idx += observed ? 2 : 1;
  }
  return out;
}

const SYSTEM = 'You are a helpful assistant that can interact with a computer to solve tasks.';

function issueOf(instanceId: string): string {
  for (const line of readFileSync(path.join(DEMO, 'bench.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as { instance_id: string; problem_statement: string };
    if (record.instance_id === instanceId) return record.problem_statement;
  }
  throw new Error(`no record ${instanceId}`);
}

function unified(spec: RunSpec): string {
  const traj: Record<string, unknown>[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `<uploaded_files>\n${BASE}\n</uploaded_files>\nFix this issue:\n\n${issueOf(spec.instanceId)}` },
  ];
  for (const { idx, step, observed } of timeline(spec, 2)) {
    const id = `call_${idx}`;
    const call = toolCall(id, step.act);
    traj.push({ role: 'assistant', content: step.thought, ...(call === undefined ? {} : { tool_calls: [call] }) });
    if (observed) traj.push({ role: 'tool', tool_call_id: id, name: call === undefined ? '' : (call['function'] as { name: string }).name, content: outputOf(spec.instanceId, step.act) });
  }
  traj.push({ role: 'assistant', content: 'The fix is in place and the tests pass.' });
  const info = { instance_id: spec.instanceId, model: spec.model, repo: spec.instanceId.split('__')[0], exit_status: 'submitted', config: { environment: { cwd: BASE } } };
  return `${JSON.stringify({ info, traj }, null, 1)}\n`;
}

function miniSweAgent(spec: RunSpec): string {
  const messages: Record<string, unknown>[] = [
    { role: 'system', content: `${SYSTEM}\nYour response must contain exactly ONE bash code block with ONE command (or commands connected with && or ||).` },
    { role: 'user', content: `<pr_description>\n${issueOf(spec.instanceId)}\n</pr_description>\nRecommended: view files with \`nl -ba FILE | sed -n '10,40p'\`.` },
  ];
  for (const { step } of timeline(spec, 2)) {
    if (step.act.kind !== 'bash') throw new Error('mini-swe-agent runs take bash actions only');
    messages.push({ role: 'assistant', content: `THOUGHT: ${step.thought}\n\n\`\`\`bash\n${step.act.command}\n\`\`\`` });
    messages.push({ role: 'user', content: `<returncode>0</returncode>\n<output>\n${outputOf(spec.instanceId, step.act)}\n</output>` });
  }
  messages.push({ role: 'assistant', content: 'THOUGHT: Done; submitting.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached\n```' });
  const info = {
    exit_status: 'Submitted',
    submission: '',
    model_stats: { instance_cost: 0.21, api_calls: messages.length / 2 },
    config: { agent: { step_limit: 250 }, model: { model_name: spec.model }, environment: { cwd: BASE } },
    mini_version: '1.15.0',
  };
  return `${JSON.stringify({ info, messages, trajectory_format: 'mini-swe-agent-1', instance_id: spec.instanceId }, null, 1)}\n`;
}

function claudeCode(spec: RunSpec): string {
  const session = `demo-${spec.instanceId}`;
  const events: Record<string, unknown>[] = [
    { type: 'system', subtype: 'init', cwd: BASE, session_id: session, model: spec.model, tools: ['Read', 'Grep', 'Glob', 'Bash', 'Edit'] },
    { type: 'user', session_id: session, message: { role: 'user', content: `Fix this issue in ${BASE}:\n\n${issueOf(spec.instanceId)}` } },
  ];
  const assistant = (block: Record<string, unknown>): void => {
    events.push({ type: 'assistant', session_id: session, message: { role: 'assistant', model: spec.model, content: [block] } });
  };
  for (const { idx, step } of timeline(spec, 1)) {
    const id = `toolu_${idx}`;
    const act = step.act;
    if (act.kind === 'say') {
      assistant({ type: 'text', text: step.thought });
      continue;
    }
    if (act.kind === 'view') {
      const lines = fileLines(spec.instanceId, act.path);
      const input = act.range === undefined ? { file_path: act.path } : { file_path: act.path, offset: act.range[0], limit: act.range[1] - act.range[0] + 1 };
      assistant({ type: 'tool_use', id, name: 'Read', input });
      const [a, b] = act.range ?? [1, lines?.length ?? 0];
      const result = lines === undefined ? { content: `<tool_use_error>File does not exist.</tool_use_error>`, is_error: true } : { content: outputOf(spec.instanceId, act, true) };
      events.push({
        type: 'user',
        session_id: session,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, ...result }] },
        ...(lines === undefined ? {} : { toolUseResult: { type: 'text', file: { filePath: act.path, startLine: a, numLines: b - a + 1, totalLines: lines.length } } }),
      });
      continue;
    }
    const tool = act.kind === 'bash' ? { name: 'Bash', input: { command: act.command } } : { name: 'Edit', input: { file_path: act.path, old_string: act.old, new_string: act.new } };
    assistant({ type: 'tool_use', id, ...tool });
    events.push({ type: 'user', session_id: session, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: outputOf(spec.instanceId, act) }] } });
  }
  assistant({ type: 'text', text: 'Fixed: the change is in place and the tests pass.' });
  events.push({ type: 'result', subtype: 'success', session_id: session, num_turns: events.length });
  return `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
}

const say = (idx: number, thought: string): Step => ({ idx, thought, act: { kind: 'say' } });
const bash = (idx: number, thought: string, command: string, output?: string): Step => ({ idx, thought, act: { kind: 'bash', command, ...(output === undefined ? {} : { output }) } });
const view = (idx: number, thought: string, file: string, range?: readonly [number, number]): Step => ({
  idx,
  thought,
  act: { kind: 'view', path: `${BASE}/${file}`, ...(range === undefined ? {} : { range }) },
});
const PYTEST: Act = { kind: 'bash', command: 'python -m pytest -q', output: '....F...\n1 failed, 7 passed in 0.12s' };
const LS: Act = {
  kind: 'bash',
  command: 'ls inventory tests',
  output: 'inventory:\n__init__.py cli.py errors.py models.py pricing.py stock.py storage.py\n\ntests:\nconftest.py test_pricing.py test_stock.py',
};
const LS_HTTP: Act = {
  kind: 'bash',
  command: 'ls tinyhttp tests',
  output: 'tinyhttp:\n__init__.py app.py cookies.py exceptions.py headers.py request.py response.py routing.py utils.py\n\ntests:\nconftest.py test_app.py test_request.py',
};
const FIX_101: Act = { kind: 'edit', path: `${BASE}/inventory/stock.py`, old: 'level.reserved -= res.quantity', new: 'level.reserved -= res.remaining' };
const FIX_102: Act = { kind: 'edit', path: `${BASE}/inventory/pricing.py`, old: 'if quantity > tier.min_quantity:', new: 'if quantity >= tier.min_quantity:' };

const RUNS: readonly RunSpec[] = [
  {
    instanceId: 'acme__inventory-101',
    folder: 'claude-sonnet-4-5',
    model: 'anthropic/claude-sonnet-4-5',
    format: 'claude-code',
    fillers: [{ kind: 'bash', command: 'python -m pytest -q tests/test_stock.py', output: '..F..\n1 failed, 4 passed in 0.08s' }, FIX_101],
    steps: [
      say(1, 'I will start with the ledger, where release() lives.'),
      say(2, 'Reading the whole module first.'),
      view(3, 'StockLedger is in inventory/stock.py.', 'inventory/stock.py'),
      view(5, 'Reservation and StockLevel come from models.py.', 'inventory/models.py'),
      view(8, 'The partial-shipment tests should show the expected numbers.', 'tests/test_stock.py', [40, 59]),
      view(11, 'Let me look at the reproduction script I wrote.', 'reproduce_release.py'),
      view(14, 'Does storage persist `remaining`?', 'inventory/storage.py', [66, 101]),
      view(19, 'Checking the release() body once more before editing.', 'inventory/stock.py', [120, 140]),
    ],
  },
  {
    instanceId: 'acme__inventory-101',
    folder: 'gemini-3-pro-preview',
    model: 'google/gemini-3-pro-preview',
    format: 'unified',
    fillers: [PYTEST, FIX_101],
    steps: [
      bash(2, 'available() first: how are reserved units subtracted?', "sed -n '39,56p' inventory/stock.py"),
      bash(4, 'Now ship() and release().', "sed -n '103,137p' inventory/stock.py"),
      bash(5, 'Which fields does Reservation have? Only the quantity fields matter.', "grep -n 'quantity\\|remaining\\|shipped' inventory/models.py"),
      bash(7, 'What does UnknownReservation look like?', "nl -ba inventory/errors.py | sed -n '1,20p'"),
      bash(9, 'The existing partial-shipment test.', "sed -n '40,59p' tests/test_stock.py"),
      bash(10, 'And the end of the test module.', 'tail -n 14 tests/test_stock.py'),
    ],
  },
  {
    instanceId: 'acme__inventory-101',
    folder: 'glm-4.6',
    model: 'glm-4.6',
    format: 'unified',
    fillers: [LS, PYTEST, FIX_101],
    steps: [
      bash(4, 'How is release exposed on the command line?', "grep -n 'release' inventory/cli.py"),
      view(6, 'available() in the ledger.', 'inventory/stock.py', [39, 56]),
      view(7, 'From ship() to the end of the module.', 'inventory/stock.py', [103, -1]),
      bash(9, 'The Reservation model.', "nl -ba inventory/models.py | sed -n '55,85p'"),
      view(13, 'Tests around partial shipments.', 'tests/test_stock.py', [30, 59]),
      bash(16, 'Is `remaining` a property or a field?', "grep -n 'remaining' inventory/models.py"),
      bash(18, 'My scratch check of the ledger arithmetic.', 'cat /tmp/check_ledger.py', 'reserved = 10\nshipped = 4\nprint(reserved - shipped)'),
    ],
  },
  {
    instanceId: 'acme__inventory-102',
    folder: 'claude-sonnet-4-5',
    model: 'anthropic/claude-sonnet-4-5',
    format: 'mini-swe-agent-1',
    fillers: [{ kind: 'bash', command: 'python -m pytest -q tests/test_pricing.py', output: '.F.\n1 failed, 2 passed in 0.05s' }, LS],
    steps: [
      bash(2, 'The pricing module, whole.', 'cat inventory/pricing.py'),
      bash(4, 'The tier tests.', "sed -n '10,17p' tests/test_pricing.py"),
      bash(6, 'The fixture that builds the price list.', "sed -n '30,38p' tests/conftest.py"),
      bash(12, 'tier_for() is the comparison; let me see it with the lines around.', "sed -n '79,90p' inventory/pricing.py"),
    ],
  },
  {
    instanceId: 'acme__inventory-102',
    folder: 'gemini-3-pro-preview',
    model: 'google/gemini-3-pro-preview',
    format: 'unified',
    fillers: [PYTEST, FIX_102],
    steps: [
      view(3, 'PriceTier and the price list.', 'inventory/pricing.py', [25, 35]),
      view(5, 'unit_price() and tier_for().', 'inventory/pricing.py', [79, 107]),
      view(6, 'Sku is in models.py.', 'inventory/models.py', [1, 30]),
      view(8, 'The tier tests.', 'tests/test_pricing.py', [1, 17]),
      view(9, 'The fixture.', 'tests/conftest.py', [30, 38]),
      bash(15, 'Run my reproduction script.', 'cat repro_tier.py', 'cat: repro_tier.py: No such file or directory'),
    ],
  },
  {
    instanceId: 'acme__inventory-102',
    folder: 'glm-4.6',
    model: 'glm-4.6',
    format: 'unified',
    fillers: [LS, PYTEST, FIX_102],
    steps: [
      bash(3, 'The price list from the tiers on.', "sed -n '20,107p' inventory/pricing.py"),
      bash(5, 'The end of the module.', 'tail -n 12 inventory/pricing.py'),
      bash(7, 'All fixtures.', 'cat tests/conftest.py'),
      bash(8, 'The tier tests.', "sed -n '10,17p' tests/test_pricing.py"),
    ],
  },
  {
    instanceId: 'acme__tinyhttp-7',
    folder: 'claude-sonnet-4-5',
    model: 'anthropic/claude-sonnet-4-5',
    format: 'unified',
    fillers: [LS_HTTP, { kind: 'bash', command: 'python -m pytest -q tests/test_request.py', output: '..FF.\n2 failed, 3 passed in 0.06s' }],
    steps: [
      view(2, 'Request parsing: the query string first.', 'tinyhttp/request.py', [1, 48]),
      view(3, 'And the form body.', 'tinyhttp/request.py', [87, 101]),
      bash(5, 'The decoding helpers.', 'cat tinyhttp/utils.py'),
      view(7, 'The request tests.', 'tests/test_request.py', [1, 30]),
      view(13, 'Is there a built copy that shadows the sources?', 'build/lib/tinyhttp/utils.py', [41, 57]),
    ],
  },
  {
    instanceId: 'acme__tinyhttp-7',
    folder: 'gemini-3-pro-preview',
    model: 'google/gemini-3-pro-preview',
    format: 'unified',
    fillers: [LS_HTTP],
    steps: [
      bash(4, 'Where does the query string get decoded?', "grep -n 'unquote\\|parse_qs' tinyhttp/request.py"),
      bash(6, 'The helpers used there.', "sed -n '41,57p' tinyhttp/utils.py"),
      bash(8, 'Header parsing, in case the form charset matters.', "nl -ba tinyhttp/headers.py | sed -n '1,40p'"),
      bash(11, 'The tests.', "sed -n '1,30p' tests/test_request.py"),
      bash(17, 'Is there a forms module?', 'cat tinyhttp/forms.py'),
    ],
  },
  {
    instanceId: 'acme__tinyhttp-7',
    folder: 'glm-4.6',
    model: 'glm-4.6',
    format: 'unified',
    fillers: [LS_HTTP],
    steps: [
      view(3, 'Imports of the request module.', 'tinyhttp/request.py', [1, 14]),
      view(4, 'The args property.', 'tinyhttp/request.py', [44, 50]),
      view(5, 'The form property to the end.', 'tinyhttp/request.py', [85, -1]),
      view(6, 'The helpers.', 'tinyhttp/utils.py', [41, 57]),
      view(9, 'The tests.', 'tests/test_request.py', [1, 30]),
      bash(10, 'The fixtures.', 'cat tests/conftest.py'),
    ],
  },
];

const WRITERS: Readonly<Record<Format, (spec: RunSpec) => string>> = { unified, 'mini-swe-agent-1': miniSweAgent, 'claude-code': claudeCode };

function main(): void {
  const check = process.argv.includes('--check');
  let differs = 0;
  for (const spec of RUNS) {
    const file = path.join(DEMO, 'trajs', 'demo', spec.folder, `${spec.instanceId}__0.json`);
    const text = WRITERS[spec.format](spec);
    if (check) {
      if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
        differs++;
        console.error(`differs: ${path.relative(DEMO, file)}`);
      }
      continue;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`${path.relative(DEMO, file)} (${spec.format}, ${text.length} bytes)`);
  }
  if (differs > 0) process.exit(1);
}

main();
