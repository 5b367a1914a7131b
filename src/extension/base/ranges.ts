import * as vscode from 'vscode';

/**
 * The one place where 1-based inclusive data lines become a `vscode.Range` (0-based lines).
 * Lines past the document's end are clamped to its last line, so a past-EOF region still shows
 * where it starts; callers decide whether to show such regions at all.
 */
export function lineRange(start: number, end: number, document?: vscode.TextDocument): vscode.Range {
  const last = document === undefined ? Number.MAX_SAFE_INTEGER : Math.max(0, document.lineCount - 1);
  const first = Math.min(Math.max(0, start - 1), last);
  const final = Math.min(Math.max(first, end - 1), last);
  return new vscode.Range(first, 0, final, document === undefined ? 0 : document.lineAt(final).range.end.character);
}
