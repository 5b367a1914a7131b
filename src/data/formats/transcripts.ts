/**
 * Transcript folders: a folder of agent answers, one per instance, read as one explorer (the
 * folder's name). Each answer is parsed with the `RELEVANT_FILES:` grammar (metrics-spec §10)
 * against the instance's snapshot when there is one, through the same reader as a plain-text
 * prediction file, so its problems (`answer-empty`, `answer-entry-skipped`) are the same.
 *
 * Layout: `<folder>/<instance_id>.txt` (also `.md`, `.log`), or `<folder>/<instance_id>/<any>.txt`
 * one level down, where the first such file in sorted order is the answer. A name that is not a
 * bench instance id is reported (`unknown-instance`) and skipped; a second answer for an instance
 * (`X.txt` and `X.md`, or `X.txt` and `X/`) is reported (`duplicate-row`) and skipped. Bad input
 * never stops the load: it becomes a located problem. A symbolic link is followed only when its
 * target lies inside the folder; one pointing out of it is reported (`symlink-escape`) and never
 * opened.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { mapWithConcurrency } from '../io/concurrency';
import type { JsonlItem } from './jsonLines';
import { readPredictionFile } from './predictionFile';
import { isWithin } from '../io/paths';
import { ioProblem, type Problem } from '../io/problems';
import type { PredictionRow } from './schemas';

/** File extensions read as transcripts (case-insensitive). */
export const TRANSCRIPT_EXTENSIONS: readonly string[] = ['.txt', '.md', '.log'];

/** Transcripts read at once. */
const READS_IN_PARALLEL = 8;

/** One transcript folder as read: one explorer, one row per accepted transcript. */
export interface TranscriptRun {
  readonly folder: string;
  /** The folder's name. */
  readonly explorer: string;
  /** Each accepted transcript file with its single row (located in that file). */
  readonly files: ReadonlyArray<{ readonly file: string; readonly rows: JsonlItem<PredictionRow>[] }>;
  readonly problems: readonly Problem[];
}

/** What a transcript needs to know of an instance: where its snapshot is, if anywhere. */
export interface TranscriptInstance {
  readonly snapshotRoot: string | undefined;
}

function isTranscriptName(name: string): boolean {
  return TRANSCRIPT_EXTENSIONS.includes(path.extname(name).toLowerCase());
}

function stem(name: string): string {
  const ext = path.extname(name);
  return ext === '' ? name : name.slice(0, -ext.length);
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * What a directory entry really is, links resolved: a link is followed only to a file or folder
 * inside the transcript folder's real path (`real` is then the path to open); a link out of it is
 * reported and never opened, so its content cannot reach a warning.
 */
async function entryKind(full: string, entry: Dirent, realFolder: string, problems: Problem[]): Promise<{ readonly kind: 'file' | 'folder' | 'other'; readonly real: string } | undefined> {
  if (!entry.isSymbolicLink()) return { kind: entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : 'other', real: full };
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    return undefined; // a dangling link names nothing to read
  }
  if (!isWithin(realFolder, real)) {
    problems.push({ file: full, line: 0, severity: 'warning', code: 'symlink-escape', message: 'is a symbolic link to a path outside the transcript folder; it is not read' });
    return undefined;
  }
  const info = await stat(real).catch(() => undefined);
  return info === undefined ? undefined : { kind: info.isDirectory() ? 'folder' : info.isFile() ? 'file' : 'other', real };
}

/**
 * The folder's transcripts as (instance id, file) pairs, in sorted order, before checking the ids.
 * `file` is the path to open: for a link, its target (checked to lie inside the folder).
 */
async function listTranscripts(folder: string, problems: Problem[]): Promise<{ readonly id: string; readonly file: string; readonly nested: boolean }[]> {
  let entries: Dirent[];
  let realFolder: string;
  try {
    realFolder = await realpath(folder);
    entries = (await readdir(folder, { withFileTypes: true })).sort(byName);
  } catch (error) {
    problems.push(ioProblem(folder, error));
    return [];
  }
  const found: { id: string; file: string; nested: boolean }[] = [];
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (!entry.isDirectory() && !entry.isSymbolicLink() && !isTranscriptName(entry.name)) continue;
    const what = await entryKind(full, entry, realFolder, problems);
    if (what === undefined) continue;
    if (what.kind === 'folder') {
      let inner: Dirent[];
      try {
        inner = (await readdir(what.real, { withFileTypes: true })).sort(byName);
      } catch (error) {
        problems.push(ioProblem(full, error));
        continue;
      }
      // Subfolders of the subfolder are not looked into: one level down only.
      for (const candidate of inner) {
        if (candidate.isDirectory() || !isTranscriptName(candidate.name)) continue;
        const file = await entryKind(path.join(full, candidate.name), candidate, realFolder, problems);
        if (file === undefined || file.kind === 'folder') continue;
        found.push({ id: entry.name, file: file.real, nested: true });
        break;
      }
    } else if (isTranscriptName(entry.name)) {
      found.push({ id: stem(entry.name), file: what.real, nested: false });
    }
  }
  // A top-level `X.txt` wins over a subfolder `X/` whatever the names sort to (the sort is stable).
  return found.sort((a, b) => Number(a.nested) - Number(b.nested));
}

/**
 * Reads one transcript folder. `instances` are the bench's instances (an answer for any other id
 * is skipped with an `unknown-instance` warning); an instance's snapshot, when it has one, is the
 * repo root the answer's paths must exist in.
 */
export async function readTranscriptFolder(folder: string, instances: ReadonlyMap<string, TranscriptInstance>, signal?: AbortSignal): Promise<TranscriptRun> {
  const explorer = path.basename(folder) || folder;
  const problems: Problem[] = [];
  const listed = await listTranscripts(folder, problems);
  const accepted: { id: string; file: string; snapshotRoot: string | undefined }[] = [];
  const firstFile = new Map<string, string>();
  for (const { id, file } of listed) {
    const instance = instances.get(id);
    if (instance === undefined) {
      problems.push({
        file,
        line: 0,
        severity: 'warning',
        code: 'unknown-instance',
        message: `transcript for instance ${JSON.stringify(id)} (from its file name), which the bench file does not contain; it is ignored`,
      });
      continue;
    }
    const earlier = firstFile.get(id);
    if (earlier !== undefined) {
      problems.push({
        file,
        line: 0,
        severity: 'warning',
        code: 'duplicate-row',
        message: `second transcript for instance ${JSON.stringify(id)} (first: ${path.relative(folder, earlier)}); this one is ignored`,
        instanceId: id,
      });
      continue;
    }
    firstFile.set(id, file);
    accepted.push({ id, file, snapshotRoot: instance.snapshotRoot });
  }
  const reads = await mapWithConcurrency(accepted, READS_IN_PARALLEL, async ({ id, file, snapshotRoot }) => {
    signal?.throwIfAborted();
    // Always an answer: a transcript's first line is often a `[timestamp]` or a `{…}` log record.
    const read = await readPredictionFile(file, { instanceId: id, explorer, format: 'answer', ...(snapshotRoot === undefined ? {} : { repoRoot: snapshotRoot }) });
    return { file, rows: read.items, problems: read.problems };
  });
  const files: { file: string; rows: JsonlItem<PredictionRow>[] }[] = [];
  for (const read of reads) {
    for (const problem of read.problems) problems.push(problem);
    if (read.rows.length > 0) files.push({ file: read.file, rows: read.rows });
  }
  return { folder, explorer, files, problems };
}
