/**
 * Export Corrected Bench and Show Audit Impact: the same loading, counting and scoring as
 * `swe-explore export` / `swe-explore audit-impact` (shared in src/data/audit/workspaceAudit.ts),
 * on the workspace the extension has loaded.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { computeAuditImpact, exportTargetRefusal, LineCountCache, loadAudit, renderImpactMarkdown, writeCorrectedBench, writeFileAtomically, type Problem } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import type { Store } from '../state/store';
import type { AuditController } from './auditController';
import { COMMANDS, WORKBENCH_COMMANDS } from '../base/ids';

interface Services {
  readonly store: Store;
  readonly audit: AuditController;
  readonly whenLoaded: () => Promise<void>;
}

/** `<bench>.audited.jsonl` beside the bench. */
export function defaultExportPath(benchFile: string): string {
  const base = path.basename(benchFile).replace(/\.jsonl$/i, '');
  return path.join(path.dirname(benchFile), `${base}.audited.jsonl`);
}

export function registerAuditReports(services: Services): vscode.Disposable[] {
  const { store, audit, whenLoaded } = services;

  const prerequisites = async (): Promise<{ benchFile: string; dir: string } | undefined> => {
    await whenLoaded();
    const benchFile = store.data.benchFile;
    const dir = audit.dir;
    if (benchFile === undefined || dir === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: no bench file is loaded.');
      return undefined;
    }
    return { benchFile, dir };
  };

  const exportBench = async (target?: unknown): Promise<void> => {
    const inputs = await prerequisites();
    if (inputs === undefined) return;
    const chosen =
      target instanceof vscode.Uri
        ? target
        : await vscode.window.showSaveDialog({
            defaultUri: vscode.Uri.file(defaultExportPath(inputs.benchFile)),
            filters: { 'JSON Lines': ['jsonl'] },
            title: 'SWE-Explore: save the corrected bench',
          });
    if (chosen === undefined) return;
    const refusal = await exportTargetRefusal(chosen.fsPath, inputs.benchFile, inputs.dir);
    if (refusal !== undefined) {
      void vscode.window.showErrorMessage(`SWE-Explore: that file ${safe(refusal)}. Pick another file.`);
      return;
    }
    const model = store.data;
    // A rejected bench line has no record to write: exporting would silently drop it.
    const rejected = model.problems.filter((p) => p.file === inputs.benchFile && p.severity === 'error').length;
    if (rejected > 0) {
      void vscode.window.showErrorMessage(`SWE-Explore: ${safe(String(rejected))} bench line(s) could not be read (see the Problems panel); nothing exported.`);
      return;
    }
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'SWE-Explore: exporting the corrected bench' }, async () => {
      const loaded = await loadAudit(model, inputs.dir);
      const problems: Problem[] = [...loaded.problems];
      let written;
      try {
        written = await writeCorrectedBench(model, loaded, new LineCountCache(), problems, (content) => writeFileAtomically(chosen.fsPath, content));
      } catch (error) {
        void vscode.window.showErrorMessage(`SWE-Explore: the corrected bench was not written: ${safe(error instanceof Error ? error.message : String(error))}`);
        return;
      }
      const warnings = problems.length === 0 ? '' : ` ${problems.length} audit problem(s); see the Problems panel.`;
      void vscode.window.showInformationMessage(`SWE-Explore: wrote ${written.records} record(s), ${loaded.removals.size} with removals, to ${safe(path.basename(chosen.fsPath))}.${warnings}`);
    });
  };

  const showImpact = async (): Promise<void> => {
    const inputs = await prerequisites();
    if (inputs === undefined) return;
    const model = store.data;
    const markdown = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'SWE-Explore: scoring before and after the audit' }, async () => {
      const loaded = await loadAudit(model, inputs.dir);
      const problems: Problem[] = [...loaded.problems];
      const { profile, topK } = store.selection;
      const report = await computeAuditImpact(model, loaded, { profile, k: topK, trials: 0, seed: 0 }, new LineCountCache(), problems);
      const header = `<!-- ${profile} profile, top-${topK}; ${loaded.audited.size} audited instance(s); ${problems.length} audit problem(s) -->\n`;
      return header + renderImpactMarkdown(report);
    });
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
    await vscode.window.showTextDocument(document, { preview: true });
    await vscode.commands.executeCommand(WORKBENCH_COMMANDS.markdownPreviewToSide, document.uri).then(undefined, () => undefined);
  };

  return [vscode.commands.registerCommand(COMMANDS.exportCorrectedBench, exportBench), vscode.commands.registerCommand(COMMANDS.showAuditImpact, showImpact)];
}
