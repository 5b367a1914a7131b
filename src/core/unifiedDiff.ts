/**
 * A small unified-diff reader for the gold patch (`record.patch`): the files it touches with their
 * +/− counts, and the patched text of one file so the editor can diff base ↔ patched without
 * writing to the snapshot.
 *
 * Hunk bodies are read by the line counts in their `@@ -a,b +c,d @@` header, not by prefixes alone:
 * a removed line that itself starts with "-- " looks like a `--- ` file header and must not end the
 * hunk.
 */

export type DiffLineOp = ' ' | '-' | '+';

export interface DiffLine {
  readonly op: DiffLineOp;
  /** The line without its prefix and without a trailing carriage return. */
  readonly text: string;
  /** A "\ No newline at end of file" marker followed this line. */
  readonly noNewline: boolean;
}

export interface DiffHunk {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  readonly lines: readonly DiffLine[];
}

export type FileDiffStatus = 'modified' | 'added' | 'deleted' | 'renamed';

export interface FileDiff {
  /** Path before the change (`a/` dropped); null for a created file. */
  readonly oldPath: string | null;
  /** Path after the change (`b/` dropped); null for a deleted file. */
  readonly newPath: string | null;
  /** The path to show: the new path, or the old one for a deleted file. */
  readonly path: string;
  readonly status: FileDiffStatus;
  readonly added: number;
  readonly removed: number;
  readonly hunks: readonly DiffHunk[];
  /** A hunk ended early (its body disagrees with its header); the hunk was kept as far as it was read. */
  readonly malformed: boolean;
}

interface MutableHunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: { op: DiffLineOp; text: string; noNewline: boolean }[];
}

interface MutableFile {
  oldPath: string | null;
  newPath: string | null;
  gitOld: string | null;
  gitNew: string | null;
  renamed: boolean;
  added: number;
  removed: number;
  hunks: MutableHunk[];
  malformed: boolean;
}

function headerPath(rest: string): string | null {
  // "--- a/path\t2020-01-01 ..." — a tab separates an optional timestamp.
  const target = rest.split('\t')[0]!.replace(/\r$/, '');
  if (target === '/dev/null') return null;
  return target.startsWith('a/') || target.startsWith('b/') ? target.slice(2) : target;
}

/** The two halves of `diff --git a/X b/X`; only trusted when they are equal (paths may contain " b/"). */
function gitHeaderPaths(rest: string): [string, string] | null {
  const text = rest.replace(/\r$/, '');
  if (!text.startsWith('a/')) return null;
  const body = text.slice(2);
  // For an unrenamed file the line is "a/P b/P": its length is 2|P| + 3.
  if ((body.length - 3) % 2 !== 0) return null;
  const half = (body.length - 3) / 2;
  const first = body.slice(0, half);
  const second = body.slice(half);
  return second === ` b/${first}` ? [first, first] : null;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses a unified diff (git or plain) into its files. Never throws; unknown lines are skipped. */
export function parseUnifiedDiff(patch: string): FileDiff[] {
  const files: MutableFile[] = [];
  let current: MutableFile | null = null;
  let hunk: MutableHunk | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  const newFile = (): MutableFile => {
    const file: MutableFile = { oldPath: null, newPath: null, gitOld: null, gitNew: null, renamed: false, added: 0, removed: 0, hunks: [], malformed: false };
    files.push(file);
    return file;
  };
  const lines = patch.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (hunk !== null && (oldLeft > 0 || newLeft > 0)) {
      const op = line === '' ? ' ' : line[0];
      if (op === ' ' || op === '-' || op === '+') {
        hunk.lines.push({ op, text: line.slice(1), noNewline: false });
        if (op !== '+') oldLeft--;
        if (op !== '-') newLeft--;
        if (op === '-') current!.removed++;
        if (op === '+') current!.added++;
        continue;
      }
      if (line.startsWith('\\')) {
        const last = hunk.lines[hunk.lines.length - 1];
        if (last !== undefined) last.noNewline = true;
        continue;
      }
      // The body ended before its header said it would.
      current!.malformed = true;
      hunk = null;
    } else if (hunk !== null && line.startsWith('\\')) {
      const last = hunk.lines[hunk.lines.length - 1];
      if (last !== undefined) last.noNewline = true;
      continue;
    }
    if (line.startsWith('diff --git ')) {
      current = newFile();
      hunk = null;
      const paths = gitHeaderPaths(line.slice('diff --git '.length));
      if (paths !== null) [current.gitOld, current.gitNew] = paths;
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      // A plain diff has no "diff --git" line: each "---/+++" pair starts a file.
      if (current === null || current.hunks.length > 0 || current.oldPath !== null || current.newPath !== null) current = newFile();
      current.oldPath = headerPath(line.slice(4));
      current.newPath = headerPath(lines[i + 1]!.slice(4));
      current.gitOld = current.oldPath ?? '';
      current.gitNew = current.newPath ?? '';
      i++;
      hunk = null;
      continue;
    }
    if (current !== null && line.startsWith('rename from ')) {
      current.gitOld = line.slice('rename from '.length);
      current.renamed = true;
      continue;
    }
    if (current !== null && line.startsWith('rename to ')) {
      current.gitNew = line.slice('rename to '.length);
      current.renamed = true;
      continue;
    }
    if (current !== null && line.startsWith('new file mode')) {
      current.gitOld = '';
      continue;
    }
    if (current !== null && line.startsWith('deleted file mode')) {
      current.gitNew = '';
      continue;
    }
    const header = HUNK_HEADER.exec(line);
    if (header !== null && current !== null) {
      hunk = {
        oldStart: Number(header[1]),
        oldCount: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newCount: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      };
      oldLeft = hunk.oldCount;
      newLeft = hunk.newCount;
      current.hunks.push(hunk);
    }
  }
  if (hunk !== null && (oldLeft > 0 || newLeft > 0)) current!.malformed = true;

  const out: FileDiff[] = [];
  for (const file of files) {
    // "---/+++" headers win; git's own header lines fill in files without hunks (renames, mode changes).
    const oldPath = file.oldPath ?? (file.gitOld === '' ? null : file.gitOld);
    const newPath = file.newPath ?? (file.gitNew === '' ? null : file.gitNew);
    const path = newPath ?? oldPath;
    if (path === null) continue;
    const status: FileDiffStatus = oldPath === null ? 'added' : newPath === null ? 'deleted' : file.renamed || oldPath !== newPath ? 'renamed' : 'modified';
    out.push({ oldPath, newPath, path, status, added: file.added, removed: file.removed, hunks: file.hunks, malformed: file.malformed });
  }
  return out;
}

interface TextLine {
  readonly text: string;
  /** '\n', '\r\n' or '' (last line without a newline). */
  eol: string;
}

function splitLines(text: string): TextLine[] {
  const out: TextLine[] = [];
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    if (nl < 0) {
      out.push({ text: text.slice(from), eol: '' });
      break;
    }
    const crlf = nl > from && text.charCodeAt(nl - 1) === 13;
    out.push({ text: text.slice(from, crlf ? nl - 1 : nl), eol: crlf ? '\r\n' : '\n' });
    from = nl + 1;
  }
  return out;
}

/**
 * Applies the hunks of the file `path` (matched against the old path, or the new path of a created
 * file) to `baseText`. Returns undefined when the patch does not touch `path`, or when any context
 * or removed line disagrees with the base text (the snapshot is not the patch's base).
 * Kept lines keep their own line endings; added lines take the base file's first line ending.
 */
export function patchedText(baseText: string, patch: string, path: string): string | undefined {
  const files = parseUnifiedDiff(patch);
  const file = files.find((f) => f.oldPath === path) ?? files.find((f) => f.oldPath === null && f.newPath === path);
  if (file === undefined || file.malformed) return undefined;
  const base = splitLines(baseText);
  const defaultEol = base.find((l) => l.eol !== '')?.eol ?? '\n';
  const out: TextLine[] = [];
  let cursor = 0;
  for (const hunk of file.hunks) {
    // "-N,0" inserts after line N; otherwise the hunk starts at line N.
    const startIndex = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
    if (startIndex < cursor || startIndex > base.length) return undefined;
    for (; cursor < startIndex; cursor++) out.push({ ...base[cursor]! });
    for (const line of hunk.lines) {
      if (line.op === '+') {
        out.push({ text: line.text, eol: line.noNewline ? '' : defaultEol });
        continue;
      }
      const baseLine = base[cursor];
      if (baseLine === undefined || baseLine.text !== line.text) return undefined;
      cursor++;
      if (line.op === ' ') out.push({ text: baseLine.text, eol: line.noNewline ? '' : baseLine.eol });
    }
  }
  for (; cursor < base.length; cursor++) out.push({ ...base[cursor]! });
  let text = '';
  for (let i = 0; i < out.length; i++) {
    const line = out[i]!;
    // A line that lost its "last line" status (text was appended after it) needs a line ending.
    const eol = line.eol === '' && i < out.length - 1 ? defaultEol : line.eol;
    text += line.text + eol;
  }
  return text;
}
