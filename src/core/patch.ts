import { lineSetFrom, type LineSet } from './intervals';
import { parseUnifiedDiff } from './unifiedDiff';

/**
 * Lines of the *base* snapshot that a unified diff edits, per base path: every removed (`-`) line,
 * and for each run of added lines its *anchor*, the base line the new text is inserted after (line 1
 * for an insertion at the very top), so that a pure insertion still counts as a line of the base
 * file. A replacement (`-` then `+`) adds no anchor of its own: its removed lines are already marked.
 * Hunk bodies are read by their header counts ({@link parseUnifiedDiff}), so a removed line that
 * starts with "-- " is a removed line, not a file header. A created file (`--- /dev/null`) has no
 * base lines; a renamed file's lines are on its old path.
 */
export function patchBaseLines(patch: string): LineSet {
  const marks: { path: string; start: number; end: number }[] = [];
  for (const file of parseUnifiedDiff(patch)) {
    const path = file.oldPath;
    if (path === null) continue;
    for (const hunk of file.hunks) {
      // A hunk "-N,0" inserts after line N: its next base line is N + 1.
      let baseLine = hunk.oldCount === 0 ? hunk.oldStart + 1 : hunk.oldStart;
      let previousWasInsertion = false;
      for (const { op } of hunk.lines) {
        if (op === '-') {
          marks.push({ path, start: baseLine, end: baseLine });
          baseLine++;
        } else if (op === '+') {
          const anchor = Math.max(1, baseLine - 1);
          if (!previousWasInsertion) marks.push({ path, start: anchor, end: anchor });
        } else {
          baseLine++;
        }
        previousWasInsertion = op === '+';
      }
    }
  }
  return lineSetFrom(marks);
}
