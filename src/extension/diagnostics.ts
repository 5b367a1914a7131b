import * as vscode from 'vscode';
import type { Problem } from '../data';

/** Shows data problems (schema errors, impossible regions, missing files) in the Problems panel. */
export class DataDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('sweExplore');

  show(problems: readonly Problem[]): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const problem of problems) {
      const line = Math.max(0, problem.line - 1);
      const column = Math.max(0, (problem.column ?? 1) - 1);
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(line, column, line, Number.MAX_SAFE_INTEGER),
        problem.message,
        problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      diagnostic.source = 'SWE-Explore';
      diagnostic.code = problem.code;
      const list = byFile.get(problem.file) ?? [];
      list.push(diagnostic);
      byFile.set(problem.file, list);
    }
    this.collection.clear();
    for (const [file, diagnostics] of byFile) this.collection.set(vscode.Uri.file(file), diagnostics);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
