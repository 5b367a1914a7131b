/**
 * Which file is the bench, and which files only look like one: the corrected benches this tool
 * exports match the bench glob (`**\/bench*.jsonl`) too, and a loader that picked one would score
 * the audited ground truth as if it were the original (issue 16: "the exported bench becomes the
 * bench"). Two rules keep them apart:
 *
 * 1. Exports go to `<root>/.swe-explore/exports/` by default, and nothing under a `.swe-explore`
 *    folder is ever a bench candidate.
 * 2. Every export is registered in `<root>/.swe-explore/exports/exports.jsonl` with its size and
 *    SHA-256 (one appended line each), so a file the user moved or renamed out of that folder is
 *    still recognised by its content. A registered export whose content equals the bench it came
 *    from (no removal took effect) is only recognised at the path it was written to, so the
 *    original bench is never mistaken for it. An export the user edited is a new file: a candidate.
 *
 * No marker is written into the export itself: its records stay byte-for-byte what the official
 * evaluator and other tools read. Whatever is left is returned in full; more than one candidate is
 * the caller's to ask about (the extension's quick pick), never silently decided here.
 */
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { mkdir, open, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomically, type FileContent } from '../audit/exportBench';
import { checkFolderChain, errnoCode } from '../io/paths';

/** The folder this tool writes its own files into (audit log, exports), relative to a root. */
export const TOOL_FOLDER = '.swe-explore';

/** Where exports go by default, relative to a root. */
export const EXPORTS_FOLDER = path.join(TOOL_FOLDER, 'exports');

/** The export registry inside {@link EXPORTS_FOLDER}. */
export const EXPORT_REGISTRY = 'exports.jsonl';

/** One registered export: where it was written and what its content was. */
export interface ExportRecord {
  /** The file as written, relative to the root (forward slashes). */
  readonly file: string;
  readonly bytes: number;
  /** Hex SHA-256 of the file's bytes. */
  readonly sha256: string;
  /** The bench it was exported from, relative to the root, and that bench's SHA-256 at the time. */
  readonly bench: string;
  readonly benchSha256: string;
  /** ISO time of the export. */
  readonly at: string;
}

/**
 * The folder holding `.swe-explore` for an export: the one the audit folder sits in when it is the
 * usual `<root>/.swe-explore/audit`, else the bench file's folder.
 */
export function exportRootFor(auditDir: string, benchFile: string): string {
  const resolved = path.resolve(auditDir);
  const parent = path.dirname(resolved);
  return path.basename(parent) === TOOL_FOLDER ? path.dirname(parent) : path.dirname(path.resolve(benchFile));
}

/** `<root>/.swe-explore/exports/<bench name>.audited.jsonl`. */
export function defaultExportFile(root: string, benchFile: string): string {
  const base = path.basename(benchFile).replace(/\.jsonl$/i, '');
  return path.join(root, EXPORTS_FOLDER, `${base}.audited.jsonl`);
}

/** The workspace folder holding `file` (the innermost), or undefined. */
function rootHolding(file: string, roots: readonly string[]): string | undefined {
  const resolved = path.resolve(file);
  let best: string | undefined;
  for (const root of roots) {
    const folder = path.resolve(root);
    if (resolved.startsWith(folder + path.sep) && (best === undefined || folder.length > best.length)) best = folder;
  }
  return best;
}

/**
 * Whether a path lies inside a `.swe-explore` folder, where no bench is looked for. Only the
 * segments below the workspace folder holding it count, so a workspace that itself lives under
 * some `.swe-explore` folder still has benches.
 */
export function isInToolFolder(file: string, roots: readonly string[] = []): boolean {
  const resolved = path.resolve(file);
  const root = rootHolding(resolved, roots);
  const below = root === undefined ? resolved : path.relative(root, resolved);
  return below.split(path.sep).slice(0, -1).includes(TOOL_FOLDER);
}

/** A path relative to `root` with forward slashes (how the registry stores it). */
function relativeTo(root: string, file: string): string {
  return path.relative(root, path.resolve(file)).split(path.sep).join('/');
}

/**
 * Writes an export (atomically, creating its folder) and registers it under `root` (see
 * {@link exportRootFor}); returns the record appended. The bench is hashed (streamed) for the
 * "unchanged export" rule.
 */
export async function writeBenchExport(target: string, content: FileContent, options: { readonly root: string; readonly benchFile: string }): Promise<ExportRecord> {
  // Like the audit log: nothing below the root on the way to the exports folder may be a link, so a
  // workspace cannot redirect the export or its registry out of itself.
  const chain = await checkFolderChain(options.root, path.join(options.root, EXPORTS_FOLDER), true);
  if (!chain.ok) throw new Error(`refusing to write the export: ${chain.message}`);
  await mkdir(path.dirname(path.resolve(target)), { recursive: true });
  // Size and hash of what is written, taken as it streams by.
  const hash = createHash('sha256');
  let bytes = 0;
  await writeFileAtomically(
    target,
    typeof content === 'string'
      ? content
      : (write) =>
          content(async (piece) => {
            const buffer = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
            hash.update(buffer);
            bytes += buffer.length;
            await write(buffer);
          }),
  );
  if (typeof content === 'string') {
    hash.update(content, 'utf8');
    bytes = Buffer.byteLength(content, 'utf8');
  }
  const record: ExportRecord = {
    file: relativeTo(options.root, target),
    bytes,
    sha256: hash.digest('hex'),
    bench: relativeTo(options.root, options.benchFile),
    benchSha256: await fileSha256(options.benchFile),
    at: new Date().toISOString(),
  };
  const registry = path.join(options.root, EXPORTS_FOLDER, EXPORT_REGISTRY);
  await mkdir(path.dirname(registry), { recursive: true });
  // One write on an O_APPEND handle: concurrent exports' lines never interleave. After a torn
  // last line the record starts on a line of its own, so it is never glued to the fragment.
  const handle = await open(registry, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0), 0o644).catch((error: unknown) => {
    throw errnoCode(error) === 'ELOOP' ? new Error(`refusing to write the export registry: ${registry} is a symbolic link`) : error;
  });
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`refusing to write the export registry: ${registry} is not a regular file`);
    const { size } = await handle.stat();
    const last = Buffer.alloc(1);
    if (size > 0) await handle.read(last, 0, 1, size - 1);
    const prefix = size > 0 && last[0] !== 0x0a ? '\n' : '';
    await handle.write(`${prefix}${JSON.stringify(record)}\n`);
  } finally {
    await handle.close();
  }
  return record;
}

function isExportRecord(value: unknown): value is ExportRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const hex = (v: unknown): boolean => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
  return typeof r['file'] === 'string' && typeof r['bench'] === 'string' && Number.isSafeInteger(r['bytes']) && hex(r['sha256']) && hex(r['benchSha256']);
}

/** A registered export, with its file resolved against the root it was registered under. */
interface KnownExport extends ExportRecord {
  readonly absolute: string;
}

/** The registry under `root`: well-formed lines only (a torn or foreign line is skipped), none when absent. */
export async function readExportRegistry(root: string): Promise<ExportRecord[]> {
  let text: string;
  try {
    text = await readFile(path.join(root, EXPORTS_FOLDER, EXPORT_REGISTRY), 'utf8');
  } catch {
    return [];
  }
  const out: ExportRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isExportRecord(value)) out.push(value);
    } catch {
      // Not ours to repair: the registry only ever narrows the candidates.
    }
  }
  return out;
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function realOrResolved(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}

/** Why a file the bench glob matched is not a bench. */
export type NotABench = 'tool-folder' | 'export';

export interface BenchCandidates {
  /** The files that may be the bench, shallowest first, then by path; more than one: ask. */
  readonly candidates: readonly string[];
  /** The others, in the same order, with the reason. */
  readonly excluded: readonly { readonly file: string; readonly reason: NotABench }[];
}

/** Shallowest first (fewest path segments), then by path in code-unit order: the loader's order. */
export function orderBenchFiles(files: readonly string[]): string[] {
  const depth = (file: string): number => path.resolve(file).split(path.sep).length;
  return [...files].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The folders whose registry may know `file`: its own and each parent, up to the workspace folder holding it. */
function registryRoots(file: string, roots: readonly string[]): string[] {
  const resolved = path.resolve(file);
  const stop = rootHolding(resolved, roots);
  const out: string[] = [];
  for (let dir = path.dirname(resolved); ; dir = path.dirname(dir)) {
    out.push(dir);
    if (stop === undefined || dir === stop || path.dirname(dir) === dir) break;
  }
  return out;
}

/**
 * Splits the files the bench glob found into bench candidates and files this tool wrote (see the
 * module comment). `roots` are the workspace folders: their registries are read, and those of the
 * folders between a found file and its root. Reads only the small registries, `stat`s each found
 * file, and hashes a found file only when its size equals a registered export's.
 */
export async function benchCandidates(found: readonly string[], roots: readonly string[]): Promise<BenchCandidates> {
  const ordered = orderBenchFiles(found);
  const registries = new Map<string, KnownExport[]>();
  const known = async (root: string): Promise<KnownExport[]> => {
    let list = registries.get(root);
    if (list === undefined) {
      list = (await readExportRegistry(root)).map((record) => ({ ...record, absolute: path.resolve(root, record.file) }));
      registries.set(root, list);
    }
    return list;
  };
  const candidates: string[] = [];
  const excluded: { file: string; reason: NotABench }[] = [];
  for (const file of ordered) {
    if (isInToolFolder(file, roots)) {
      excluded.push({ file, reason: 'tool-folder' });
      continue;
    }
    const exports: KnownExport[] = [];
    for (const root of new Set([...roots.map((r) => path.resolve(r)), ...registryRoots(file, roots)])) for (const record of await known(root)) exports.push(record);
    if (await isRegisteredExport(file, exports)) excluded.push({ file, reason: 'export' });
    else candidates.push(file);
  }
  return { candidates, excluded };
}

async function isRegisteredExport(file: string, exports: readonly KnownExport[]): Promise<boolean> {
  if (exports.length === 0) return false;
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) return false;
    size = info.size;
  } catch {
    return false;
  }
  const sameSize = exports.filter((record) => record.bytes === size);
  if (sameSize.length === 0) return false;
  const sha = await fileSha256(file);
  const real = await realOrResolved(file);
  for (const record of sameSize) {
    if (record.sha256 !== sha) continue;
    // Changed content identifies the export wherever it went; unchanged content only at its own path.
    if (record.sha256 !== record.benchSha256) return true;
    if (real === (await realOrResolved(record.absolute))) return true;
  }
  return false;
}
