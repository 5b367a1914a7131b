/**
 * The shared real records as the trajectory tests read them, and replays: a unified trajectory per
 * recorded run that reads, at each recorded step, exactly the record's entries (`str_replace_editor
 * view` with `view_range`), so a run that is not public can still be loaded and extracted.
 */
export interface Step {
  traj_path: string;
  step_idx: number;
  start: number;
  end: number;
}

export interface RealRecord {
  instance_id: string;
  ground_truth: {
    read_core_regions: { path: string; start: number; end: number }[];
    read_optional_files_map: Record<string, string[]>;
    read_optional_regions_map: Record<string, { path: string; start: number; end: number }[]>;
    modified_core_files: string[];
    main_files: string[];
  };
  read_step_info: Record<string, Step[]>;
  meta: Record<string, number>;
}

/** The traj_path of one model folder in a record. */
export function trajPathOf(record: RealRecord, folder: string): string {
  for (const steps of Object.values(record.read_step_info)) for (const s of steps) if (s.traj_path.split('/')[2] === folder) return s.traj_path;
  throw new Error(`${record.instance_id} has no ${folder} run`);
}

/** A unified trajectory that reads, at each recorded step, exactly the record's entries (str_replace_editor view with view_range). */
export function replay(record: RealRecord, trajPath: string, model: string, keyOrder: readonly string[]): unknown {
  const entries: { path: string; step: Step; key: number; order: number }[] = [];
  for (const [p, steps] of Object.entries(record.read_step_info)) {
    steps.filter((s) => s.traj_path === trajPath).forEach((step, order) => entries.push({ path: p, step, key: keyOrder.indexOf(p), order }));
  }
  entries.sort((a, b) => a.step.step_idx - b.step.step_idx || a.key - b.key || a.order - b.order);
  const last = entries.reduce((m, e) => Math.max(m, e.step.step_idx), 1);
  const traj: unknown[] = [{ role: 'system', content: 'replay' }];
  for (let i = 1; i <= last + 1; i++) {
    const here = entries.filter((e) => e.step.step_idx === i);
    if (here.length === 0) traj.push({ role: 'user', content: `observation ${i}` });
    else {
      traj.push({
        role: 'assistant',
        content: 'viewing',
        tool_calls: here.map((e, n) => ({
          id: `call_${i}_${n}`,
          type: 'function',
          function: { name: 'str_replace_editor', arguments: JSON.stringify({ command: 'view', path: `/testbed/${e.path}`, view_range: [e.step.start, e.step.end] }) },
        })),
      });
    }
  }
  const submission = record.ground_truth.modified_core_files.map((p) => `diff --git a/${p} b/${p}\n--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-x\n+y\n`).join('');
  return { info: { instance_id: record.instance_id, model, submission, config: { environment: { cwd: '/testbed' } } }, traj };
}
