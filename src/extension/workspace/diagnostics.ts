import * as vscode from 'vscode';
import type { Problem } from '../../data';

/**
 * Problems listed per file. A synthetic or hostile benchmark can carry tens of thousands of
 * warnings; pushing them all would stall the extension host and bury the Problems panel, so a file
 * lists its errors first, then warnings, up to this many, and one line says how many were left out.
 */
export const MAX_PROBLEMS_PER_FILE = 200;

/** Shows data problems (schema errors, impossible regions, missing files) in the Problems panel. */
export class DataDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('sweExplore');

  show(problems: readonly Problem[]): void {
    const byFile = new Map<string, Problem[]>();
    for (const problem of problems) {
      let list = byFile.get(problem.file);
      if (list === undefined) byFile.set(problem.file, (list = []));
      list.push(problem);
    }
    this.collection.clear();
    for (const [file, list] of byFile) {
      const shown = list.length <= MAX_PROBLEMS_PER_FILE ? list : [...list.filter((p) => p.severity === 'error'), ...list.filter((p) => p.severity !== 'error')].slice(0, MAX_PROBLEMS_PER_FILE);
      const diagnostics = shown.map(toDiagnostic);
      const hidden = list.length - shown.length;
      if (hidden > 0) {
        const more = new vscode.Diagnostic(
          new vscode.Range(0, 0, 0, 0),
          `${hidden} more problem${hidden === 1 ? '' : 's'} in this file ${hidden === 1 ? 'is' : 'are'} not listed here (the first ${MAX_PROBLEMS_PER_FILE} are); "swe-explore validate" prints every one`,
          vscode.DiagnosticSeverity.Information,
        );
        more.source = 'SWE-Explore';
        more.code = 'more-problems';
        diagnostics.push(more);
      }
      this.collection.set(vscode.Uri.file(file), diagnostics);
    }
  }

  dispose(): void {
    this.collection.dispose();
  }
}

function toDiagnostic(problem: Problem): vscode.Diagnostic {
  const line = Math.max(0, problem.line - 1);
  const column = Math.max(0, (problem.column ?? 1) - 1);
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(line, column, line, Number.MAX_SAFE_INTEGER),
    problem.message,
    problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  diagnostic.source = 'SWE-Explore';
  diagnostic.code = problem.code;
  return diagnostic;
}
