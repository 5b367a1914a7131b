/**
 * A small what-if workspace written by us into a temporary folder: three unified runs of one
 * instance (each idiom the rules treat differently), their repository, the bench the builder's
 * rules give for them (plus a promoted region and extra fields spelled the way other tools spell
 * them), a second record whose runs are nowhere, prediction rows of two explorers, and a
 * SWE-bench report folder.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface WhatIfFixture {
  readonly dir: string;
  readonly bench: string;
  readonly preds: string;
  readonly reports: string;
  /** Lines of the bench file (no trailing newline). */
  readonly benchLines: readonly string[];
}

const fence = (command: string): string => `THOUGHT\n\n\`\`\`bash\n${command}\n\`\`\``;

function run(model: string, steps: readonly (string | [string, string])[]): string {
  const traj: unknown[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'task' },
  ];
  for (const step of steps) {
    const [command, output] = typeof step === 'string' ? [step, 'ok'] : step;
    traj.push({ role: 'assistant', content: fence(command) }, { role: 'user', content: output });
  }
  return JSON.stringify({ info: { instance_id: 'o__r-1', model, submission: 'diff --git a/pkg/a.py b/pkg/a.py\n', config: { environment: { cwd: '/testbed' } } }, traj });
}

function lines(n: number): string {
  return Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
}

const TRAJ = (folder: string, id: string): string => `trajs/${folder}/${id}__0.json`;

/** The step entries the builder writes for the three runs (checked against extraction by the tests). */
const READ_STEP_INFO = {
  'pkg/a.py': [
    { traj_path: TRAJ('m1', 'o__r-1'), step_idx: 2, start: 1, end: -1 },
    { traj_path: TRAJ('m2', 'o__r-1'), step_idx: 2, start: 1, end: -1 },
    { traj_path: TRAJ('m3', 'o__r-1'), step_idx: 2, start: 1, end: -1 },
  ],
  'pkg/b.py': [
    { traj_path: TRAJ('m1', 'o__r-1'), step_idx: 4, start: 1, end: -1 },
    { traj_path: TRAJ('m2', 'o__r-1'), step_idx: 4, start: 20, end: 45 },
    { traj_path: TRAJ('m3', 'o__r-1'), step_idx: 4, start: 1, end: -1 },
  ],
  'pkg/c.py': [
    { traj_path: TRAJ('m2', 'o__r-1'), step_idx: 6, start: 1, end: -1 },
    { traj_path: TRAJ('m3', 'o__r-1'), step_idx: 6, start: 1, end: -1 },
  ],
};

/** Writes the fixture; `root` defaults to a new temporary folder. */
export function writeWhatIfFixture(root: string = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-whatif-'))): WhatIfFixture {
  const write = (relative: string, content: string): string => {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  };
  write('repos/o__r-1/pkg/a.py', lines(100));
  write('repos/o__r-1/pkg/b.py', lines(50));
  write('repos/o__r-1/pkg/c.py', lines(20));
  write('repos/o__r-1/pkg/d.py', lines(10));
  write('repos/o__r-2/x.py', lines(30));
  write(TRAJ('m1', 'o__r-1'), run('org/model-one', ["nl -ba pkg/a.py | sed -n '10,30p'", 'cat pkg/b.py', 'cat -n pkg/c.py']));
  write(TRAJ('m2', 'o__r-1'), run('model-two', [['grep -n foo pkg/a.py', '15:foo\n16-bar\n40:foo'], "sed -n '20,45p' pkg/b.py", 'cat pkg/c.py']));
  write(TRAJ('m3', 'o__r-1'), run('model-three', ['cat pkg/a.py', "cat <<'EOF' > pkg/b.py\nx = 1\nEOF", 'cat pkg/c.py']));
  // The builder's layout (", " and ": "), a promoted region (d.py 1–5), core regions out of order,
  // unicode escapes and a number spelled 1.50 elsewhere: all of it must survive byte-for-byte.
  const gt1 =
    '{"read_core_files": ["pkg/a.py", "pkg/b.py", "pkg/d.py"], "read_core_regions": [{"path": "pkg/d.py", "start": 1, "end": 5}, {"path": "pkg/a.py", "start": 1, "end": 100}, {"path": "pkg/b.py", "start": 20, "end": 45}], ' +
    '"read_optional_files_map": {"org/model-one": ["pkg/b.py"], "model-two": ["pkg/c.py"], "model-three": ["pkg/b.py", "pkg/c.py"]}, ' +
    '"read_optional_regions_map": {"org/model-one": [{"path": "pkg/b.py", "start": 1, "end": 19}, {"path": "pkg/b.py", "start": 46, "end": 50}], "model-two": [{"path": "pkg/c.py", "start": 1, "end": 20}], "model-three": [{"path": "pkg/b.py", "start": 1, "end": 19}, {"path": "pkg/b.py", "start": 46, "end": 50}, {"path": "pkg/c.py", "start": 1, "end": 20}]}, ' +
    '"modified_core_files": ["pkg/a.py", "pkg/c.py"], "main_files": ["pkg/a.py"]}';
  const record1 = `{"instance_id": "o__r-1", "repo_path": "/testbed", "repo_dir": "repos/o__r-1", "ground_truth": ${gt1}, "read_step_info": ${JSON.stringify(READ_STEP_INFO).replace(/,"/g, ', "').replace(/":/g, '": ')}, "meta": {"num_trajectories": 3, "num_read_core": 3, "num_read_core_regions": 3, "num_modified_core": 2, "num_main": 1}, "problem_statement": "caf\\u00e9 \\ud83d\\ude00", "weight": 1.50}`;
  const record2 =
    '{"instance_id":"o__r-2","repo_dir":"repos/o__r-2","ground_truth":{"read_core_files":["x.py"],"read_core_regions":[{"path":"x.py","start":3,"end":9}],"read_optional_files_map":{},"read_optional_regions_map":{},"modified_core_files":[],"main_files":[]},' +
    '"read_step_info":{"x.py":[{"traj_path":"trajs/m1/o__r-2__0.json","step_idx":2,"start":3,"end":9},{"traj_path":"trajs/m2/o__r-2__0.json","step_idx":2,"start":1,"end":-1}]},"meta":{"num_trajectories":2,"num_read_core":1,"num_read_core_regions":1,"num_modified_core":0,"num_main":0},"note":"\\u00e9"}';
  const bench = write('bench.jsonl', `${record1}\n${record2}\n`);
  const rows = [
    {
      instance_id: 'o__r-1',
      explorer: 'wide',
      regions: [
        { path: 'pkg/a.py', start: 1, end: -1 },
        { path: 'pkg/b.py', start: 1, end: 50 },
      ],
    },
    { instance_id: 'o__r-2', explorer: 'wide', regions: [{ path: 'x.py', start: 1, end: 30 }] },
    {
      instance_id: 'o__r-1',
      explorer: 'narrow',
      regions: [
        { path: 'pkg/a.py', start: 10, end: 30 },
        { path: 'pkg/c.py', start: 1, end: 20 },
      ],
    },
    { instance_id: 'o__r-2', explorer: 'narrow', regions: [{ path: 'x.py', start: 3, end: 9 }] },
    { instance_id: 'o__r-1', explorer: '=HYPERLINK("x")', regions: [{ path: 'pkg/d.py', start: 1, end: 5 }] },
  ];
  const preds = write('preds.jsonl', rows.map((r) => `${JSON.stringify({ ...r, num_regions: r.regions.length })}\n`).join(''));
  const reports = path.join(root, 'reports');
  write('reports/o__r-1.report.json', JSON.stringify({ resolved: false }));
  return { dir: root, bench, preds, reports, benchLines: [record1, record2] };
}
