/**
 * Export Corrected Bench and Show Audit Impact: the same loading, counting and scoring as
 * `swe-explore export` / `swe-explore audit-impact` (shared in src/data/audit/workspaceAudit.ts),
 * on the workspace the extension has loaded.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  computeAuditImpact,
  defaultExportFile,
  exportRootFor,
  exportTargetRefusal,
  LineCountCache,
  loadAudit,
  renderImpactMarkdown,
  writeBenchExport,
  writeCorrectedBench,
  type Problem,
} from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import { exportWrittenText } from '../../shared/texts';
import type { ReadOnlyDocuments } from '../base/readOnlyDocuments';
import { readExportFolder } from '../base/settings';
import { workspaceRelative } from '../base/workspacePaths';
import type { Store } from '../state/store';
import type { AuditController } from './auditController';
import { COMMANDS, WORKBENCH_COMMANDS } from '../base/ids';

interface Services {
  readonly store: Store;
  readonly audit: AuditController;
  readonly whenLoaded: () => Promise<void>;
  readonly documents: ReadOnlyDocuments;
}

/**
 * Where an export goes without a file chosen: `<bench>.audited.jsonl` in `sweExplore.audit.exportFolder`
 * (relative to the workspace folder), else in `<root>/.swe-explore/exports/`, where the bench glob
 * never looks (issue 16: the exported bench must never become the bench).
 */
export function defaultExportPath(root: string, benchFile: string, configuredFolder: string, workspaceFolder: string | undefined): string {
  const standard = defaultExportFile(root, benchFile);
  if (configuredFolder === '') return standard;
  const folder = path.isAbsolute(configuredFolder) ? configuredFolder : path.join(workspaceFolder ?? root, configuredFolder);
  return path.join(folder, path.basename(standard));
}

export function registerAuditReports(services: Services): vscode.Disposable[] {
  const { store, audit, whenLoaded, documents } = services;

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
    const root = exportRootFor(inputs.dir, inputs.benchFile);
    // Without a file named by the caller, the export goes to its folder with no dialog: the toast
    // names the file and opens it.
    const chosen = target instanceof vscode.Uri ? target : vscode.Uri.file(defaultExportPath(root, inputs.benchFile, readExportFolder(), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath));
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
        // Registered in the export registry, so the loader never takes it for the bench, wherever it is moved.
        written = await writeCorrectedBench(model, loaded, new LineCountCache(), problems, (content) => writeBenchExport(chosen.fsPath, content, { root, benchFile: inputs.benchFile }));
      } catch (error) {
        void vscode.window.showErrorMessage(`SWE-Explore: the corrected bench was not written: ${safe(error instanceof Error ? error.message : String(error))}`);
        return;
      }
      void vscode.window
        .showInformationMessage(`SWE-Explore: ${safe(exportWrittenText(written.records, loaded.removals.size, workspaceRelative(chosen.fsPath), problems.length))}`, 'Open')
        .then((action) => {
          if (action !== undefined) void vscode.window.showTextDocument(chosen, { preview: true });
        });
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
    // A read-only virtual document: closing it never asks to save (issue 16), and showing the
    // report again replaces its text in place.
    const document = await documents.show('Audit Impact.md', markdown);
    await vscode.commands.executeCommand(WORKBENCH_COMMANDS.markdownPreviewToSide, document.uri).then(undefined, () => undefined);
  };

  return [vscode.commands.registerCommand(COMMANDS.exportCorrectedBench, exportBench), vscode.commands.registerCommand(COMMANDS.showAuditImpact, showImpact)];
}
