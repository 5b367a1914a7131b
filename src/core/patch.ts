import { normalize, type Interval, type LineSet } from './intervals';

/**
 * Lines of the *base* snapshot that a unified diff edits, per path: every removed (`-`) line,
 * and for pure insertions the base line the new text is inserted after (or line 1 at the top),
 * so that a hunk is always visible on the base file. Paths come from `--- a/…` / `+++ b/…`
 * headers with the `a/` / `b/` prefixes dropped; a created file (`--- /dev/null`) has no base lines.
 */
export function patchBaseLines(patch: string): LineSet {
  const byPath = new Map<string, Interval[]>();
  let path: string | null = null;
  let baseLine = 0;
  let inHunk = false;
  let previousWasInsertion = false;
  const mark = (line: number): void => {
    if (path === null) return;
    let list = byPath.get(path);
    if (list === undefined) byPath.set(path, (list = []));
    list.push([line, line]);
  };
  for (const line of patch.split(/\r?\n/)) {
    if (line.startsWith('diff --git ')) {
      inHunk = false;
      path = null;
      continue;
    }
    if (!inHunk || line.startsWith('--- ') || line.startsWith('+++ ')) {
      if (line.startsWith('--- ')) {
        const target = line.slice(4).split('\t')[0]!.trim();
        path = target === '/dev/null' ? null : stripPrefix(target);
        inHunk = false;
        continue;
      }
      if (line.startsWith('+++ ')) continue;
    }
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
    if (header !== null) {
      inHunk = true;
      baseLine = Number(header[1]);
      // A hunk "-N,0" inserts after line N; its first base line is N + 1.
      if (header[2] === '0') baseLine += 1;
      previousWasInsertion = false;
      continue;
    }
    if (!inHunk) continue;
    if (line.startsWith('-')) {
      mark(baseLine);
      baseLine++;
      previousWasInsertion = false;
    } else if (line.startsWith('+')) {
      if (!previousWasInsertion) mark(Math.max(1, baseLine - 1));
      previousWasInsertion = true;
    } else if (line.startsWith(' ') || line === '') {
      baseLine++;
      previousWasInsertion = false;
    }
  }
  return new Map([...byPath].map(([p, list]) => [p, normalize(list)]));
}

function stripPrefix(path: string): string {
  return path.startsWith('a/') || path.startsWith('b/') ? path.slice(2) : path;
}
