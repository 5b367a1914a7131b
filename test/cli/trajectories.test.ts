/**
 * `swe-explore reads | build | provenance` run as a user runs them, on runs, repositories and a
 * bench written here: the JSON contracts (keys and their order), tables with hostile paths, the
 * builder's record layout, and usage errors.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCliBundle, runCli, type CliRun } from './cliBundle';
import assert from 'node:assert/strict';
import { parseKeyValue, parseReportSources, parseTrajectoryTemplates, UsageError } from '../../src/cli/args';

const work = mkdtempSync(path.join(os.tmpdir(), 'swe-explore-cli-trajs-'));
after(() => rmSync(work, { recursive: true, force: true }));

before(buildCliBundle);

function cli(cwd: string, ...args: string[]): CliRun {
  return runCli(args, cwd);
}

function write(relative: string, content: string): string {
  const file = path.join(work, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const fence = (command: string): string => `\`\`\`bash\n${command}\n\`\`\``;

function run(instanceId: string, model: string, commands: string[], submission = ''): string {
  const traj: unknown[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'task' },
  ];
  for (const command of commands) traj.push({ role: 'assistant', content: fence(command) }, { role: 'user', content: 'ok' });
  return JSON.stringify({ info: { instance_id: instanceId, model, submission, config: { environment: { cwd: '/testbed' } } }, traj });
}

// Two instances, two models; i2 has no repository.
write('repos/o__r-1/pkg/a.py', Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
write('repos/o__r-1/pkg/b.py', 'x\ny\n');
write('trajs/alpha/o__r-1__0.json', run('o__r-1', 'alpha', ["sed -n '5,20p' /testbed/pkg/a.py", 'cat pkg/b.py', 'tail -n 3 pkg/a.py'], 'diff --git a/pkg/a.py b/pkg/a.py\n'));
write('trajs/beta/o__r-1__0.json', run('o__r-1', 'beta', ["nl -ba pkg/a.py | sed -n '10,12p'", 'cat reproduce_it.py'], 'diff --git a/pkg/a.py b/pkg/a.py\n'));
write('trajs/beta/o__r-2__0.json', run('o__r-2', 'beta', ['cat x.py']));
write('trajs/notes/readme.json', JSON.stringify({ hello: 'world' }));

describe('reads', () => {
  it('one JSON line per kept read, keys in the contract order', () => {
    const out = cli(work, 'reads', 'trajs/alpha/o__r-1__0.json', '--repo', 'repos/o__r-1');
    assert.equal(out.status, 0, out.stderr);
    assert.equal(
      out.stdout,
      [
        '{"path":"pkg/a.py","start":5,"end":20,"step_idx":2,"idiom":"sed_range","seen":[[5,20]]}',
        '{"path":"pkg/b.py","start":1,"end":-1,"step_idx":4,"idiom":"cat","seen":[[1,-1]]}',
        '{"path":"pkg/a.py","start":-3,"end":-1,"step_idx":6,"idiom":"tail","seen":[[-3,-1]]}',
        '',
      ].join('\n'),
    );
  });
  it('the table escapes hostile paths (terminal controls never reach the terminal raw)', () => {
    const hostile = write('trajs-hostile/h.json', run('o__r-9', 'm\u001b[31m', ['cat src/evil\u001b\u0007\u009b.py']));
    const out = cli(work, 'reads', hostile, '--format', 'table');
    assert.equal(out.status, 0, out.stderr);
    assert.doesNotMatch(out.stdout, /[\u001b\u0007\u009b]/);
    assert.match(out.stdout, /src\/evil\\x1b\\x07\\x9b\.py/);
    const json = cli(work, 'reads', hostile);
    assert.doesNotMatch(json.stdout, /[\u001b\u0007\u009b]/);
    assert.equal((JSON.parse(json.stdout.trim()) as { path: string }).path, 'src/evil\u001b\u0007\u009b.py');
  });
  it('an unreadable file: exit 1 with one problem; usage errors: exit 2', () => {
    const bad = cli(work, 'reads', 'trajs/notes/readme.json');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /unknown|not a trajectory format/);
    assert.equal(cli(work, 'reads').status, 2);
    assert.equal(cli(work, 'reads', 'a.json', 'b.json').status, 2);
    assert.equal(cli(work, 'reads', 'a.json', '--format', 'csv').status, 2);
    assert.equal(cli(work, 'reads', 'trajs/alpha/o__r-1__0.json', '--repo', 'no-such').status, 2);
    const help = cli(work, 'reads', '--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /swe-explore reads TRAJ/);
  });
});

describe('build', () => {
  it('one record per instance with a repository, written as the builder writes it', () => {
    const out = cli(work, 'build', '--trajs', 'trajs', '--repos', 'repos', '-o', 'bench.jsonl');
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stderr, /o__r-2: repository repos\/o__r-2 .*instance skipped/);
    assert.match(out.stderr, /readme\.json: warning: not a trajectory format/);
    assert.match(out.stderr, /wrote 1 record\(s\) from 3 run\(s\)/);
    const text = readFileSync(path.join(work, 'bench.jsonl'), 'utf8');
    const record = JSON.parse(text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(record), ['instance_id', 'repo_path', 'repo_dir', 'ground_truth', 'read_step_info', 'meta']);
    assert.deepEqual(record, {
      instance_id: 'o__r-1',
      repo_path: '/testbed',
      repo_dir: 'repos/o__r-1',
      ground_truth: {
        read_core_files: ['pkg/a.py'],
        read_core_regions: [{ path: 'pkg/a.py', start: 5, end: 20 }],
        read_optional_files_map: { alpha: ['pkg/a.py', 'pkg/b.py'], beta: ['pkg/a.py'] },
        read_optional_regions_map: {
          alpha: [
            { path: 'pkg/a.py', start: -3, end: 30 },
            { path: 'pkg/b.py', start: 1, end: 2 },
          ],
          beta: [
            { path: 'pkg/a.py', start: 1, end: 4 },
            { path: 'pkg/a.py', start: 21, end: 30 },
          ],
        },
        modified_core_files: ['pkg/a.py'],
        main_files: ['pkg/a.py'],
      },
      read_step_info: {
        'pkg/a.py': [
          { traj_path: 'trajs/alpha/o__r-1__0.json', step_idx: 2, start: 5, end: 20 },
          { traj_path: 'trajs/alpha/o__r-1__0.json', step_idx: 6, start: -3, end: -1 },
          { traj_path: 'trajs/beta/o__r-1__0.json', step_idx: 2, start: 1, end: -1 },
        ],
        'pkg/b.py': [{ traj_path: 'trajs/alpha/o__r-1__0.json', step_idx: 4, start: 1, end: -1 }],
      },
      meta: { num_trajectories: 2, num_read_core: 1, num_read_core_regions: 1, num_modified_core: 1, num_main: 1 },
    });
    assert.ok(text.startsWith('{"instance_id": "o__r-1", "repo_path": "/testbed", "repo_dir": "repos/o__r-1", '));
  });
  it('--min-trajectories leaves out instances with fewer runs; ./ and doubled slashes are not written', () => {
    const out = cli(work, 'build', '--trajs', './trajs//', '--repos', 'repos', '--min-trajectories', '3', '-o', 'none.jsonl');
    assert.equal(out.status, 0, out.stderr);
    assert.equal(readFileSync(path.join(work, 'none.jsonl'), 'utf8'), '');
    assert.equal(cli(work, 'build', '--trajs', './trajs//', '--repos', 'repos', '-o', 'again.jsonl').status, 0);
    assert.match(readFileSync(path.join(work, 'again.jsonl'), 'utf8'), /"traj_path": "trajs\/alpha\/o__r-1__0.json"/);
  });
  it('usage errors: exit 2', () => {
    assert.equal(cli(work, 'build', '--trajs', 'trajs').status, 2);
    assert.equal(cli(work, 'build', '-o', 'x.jsonl').status, 2);
    assert.equal(cli(work, 'build', '--trajs', 'a', '--trajs', 'b', '-o', 'x.jsonl').status, 2);
    assert.equal(cli(work, 'build', '--trajs', 'trajs', '--min-trajectories', '0', '-o', 'x.jsonl').status, 2);
    const noRepos = cli(work, 'build', '--trajs', 'trajs', '--repos', 'no-such', '-o', 'x.jsonl');
    assert.equal(noRepos.status, 2);
    assert.match(noRepos.stderr, /--repos no-such is not a folder/);
    assert.equal(cli(work, 'build', '--trajs', 'no-such', '--repos', 'repos', '-o', 'x.jsonl').status, 2);
  });
});

describe('provenance', () => {
  it('R_int from read_step_info against the core, per instance and as a table', () => {
    const built = JSON.parse(readFileSync(path.join(work, 'bench.jsonl'), 'utf8')) as { ground_truth: { read_core_regions: unknown[] } };
    // Promote two lines, as the benchmark's unpublished step did.
    built.ground_truth.read_core_regions.push({ path: 'pkg/a.py', start: 25, end: 26 });
    write('prov/bench.jsonl', `${JSON.stringify(built)}\n`);
    write('prov/repos/o__r-1/pkg/a.py', readFileSync(path.join(work, 'repos', 'o__r-1', 'pkg', 'a.py'), 'utf8'));
    const out = cli(work, 'provenance', '--bench', 'prov/bench.jsonl');
    assert.equal(out.status, 0, out.stderr);
    assert.equal(
      out.stdout,
      '{"instance_id":"o__r-1","core_lines":18,"r_int_lines":16,"promoted_lines":2,"dropped_lines":0,"promoted_regions":[{"path":"pkg/a.py","start":25,"end":26,"models":["beta"]}]}\n',
    );
    const table = cli(work, 'provenance', '--bench', 'prov/bench.jsonl', '--format', 'table');
    assert.match(table.stdout, /o__r-1\s+18\s+16\s+2\s+0\s+1/);
    assert.match(table.stdout, /2 promoted line\(s\) in 1 of 1 record\(s\); 0 dropped line\(s\) in 0/);
    assert.equal(cli(work, 'provenance').status, 2);
    assert.equal(cli(work, 'provenance', '--help').status, 0);
  });
});

describe('argument parsers', () => {
  it('KEY=VALUE, templates and report sources', () => {
    assert.deepEqual(parseKeyValue('gem=a=b', '--x', 'V'), { key: 'gem', value: 'a=b' });
    assert.throws(() => parseKeyValue('=a', '--x', 'V'), UsageError);
    assert.throws(() => parseKeyValue('a=', '--x', 'V'), UsageError);
    assert.deepEqual(parseTrajectoryTemplates(['gemini-3-pro=trajs/{instance_id}/{instance_id}.traj.json']), [{ key: 'gemini-3-pro', template: 'trajs/{instance_id}/{instance_id}.traj.json' }]);
    assert.throws(() => parseTrajectoryTemplates(['g=trajs/{id}.json']), /unknown placeholder \{id\}/);
    assert.deepEqual(parseReportSources(['g=reports/']), [{ key: 'g', path: 'reports/' }]);
    assert.deepEqual(parseTrajectoryTemplates(undefined), []);
  });
});
