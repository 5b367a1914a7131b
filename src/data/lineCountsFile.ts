import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Problem } from './problems';

/** `{instance_id: {path: line_count}}`, the format of a precomputed line-counts file. */
const LineCountsFileSchema = z.record(z.string(), z.record(z.string(), z.int().nonnegative()));

export interface LineCountsFile {
  readonly counts: Map<string, Map<string, number>>;
  readonly problems: Problem[];
}

/**
 * Reads a precomputed line-counts file (for users who have the bench but not the snapshots).
 * A file that cannot be read or does not match the schema yields no counts and one problem.
 */
export async function readLineCountsFile(file: string): Promise<LineCountsFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { counts: new Map(), problems: [{ file, line: 0, severity: 'error', code: 'io-error', message: `cannot read line counts: ${(error as Error).message}` }] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { counts: new Map(), problems: [{ file, line: 0, severity: 'error', code: 'invalid-json', message: `line counts are not valid JSON: ${(error as Error).message}` }] };
  }
  const result = LineCountsFileSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue === undefined ? '' : `${issue.path.map(String).join('.')}: `;
    return { counts: new Map(), problems: [{ file, line: 0, severity: 'error', code: 'schema', message: `line counts must be {instance_id: {path: count}}: ${where}${issue?.message ?? 'invalid'}` }] };
  }
  const counts = new Map<string, Map<string, number>>();
  for (const [instanceId, paths] of Object.entries(result.data)) counts.set(instanceId, new Map(Object.entries(paths)));
  return { counts, problems: [] };
}
