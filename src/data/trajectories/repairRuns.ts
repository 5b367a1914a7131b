/**
 * The repair runs a record cites: every `traj_path` of its `read_step_info`. The extension reads them
 * (src/extension/model/slices/trajectoryRuns.ts) and indexes them for arrivals (repairRuns.ts there).
 */
import type { ReadStepInfo } from '../../core/provenance';

/** The `traj_path`s a record cites, in order of first appearance. */
export function citedRuns(readStepInfo: ReadStepInfo | null | undefined): string[] {
  const out = new Set<string>();
  if (readStepInfo === null || readStepInfo === undefined) return [];
  for (const path of Object.keys(readStepInfo)) for (const step of readStepInfo[path] ?? []) out.add(step.traj_path);
  return [...out];
}
