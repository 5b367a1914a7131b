import * as vscode from 'vscode';
import { coreRegionTitle } from '../../shared/texts';
import { lineRange } from '../base/ranges';
import { readLayerSettings } from '../base/settings';
import { snapshotPathOf } from '../base/snapshot';
import { Disposable } from '../base/lifecycle';
import type { Probe } from '../base/probe';
import type { InspectorModel } from '../model/model';
import { COMMANDS, SETTING_GROUPS } from '../base/ids';

/** `Core 2/4 · 31 lines · 24/31 covered within B=500 by #1, #3` above each core region. */
export class CoreRegionCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly model: InspectorModel,
    private readonly probe: Probe,
  ) {
    super();
    this.register(
      model.onDidChange((change) => {
        if (!change.view) return;
        this.changed.fire();
        probe.report({ kind: 'paint', surface: 'codeLens' });
      }),
    );
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING_GROUPS.codeLens)) this.changed.fire();
      }),
    );
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!readLayerSettings().codeLens) return [];
    const view = this.model.view;
    const path = snapshotPathOf(view, document.uri);
    if (view === undefined || path === undefined) return [];
    const { coreRegions, budget } = view.explanation;
    return coreRegions.flatMap((region) => {
      const r = region.resolution;
      if (region.region.path !== path || r.kind !== 'resolved' || r.start > document.lineCount) return [];
      const title = coreRegionTitle(region, coreRegions.length, budget);
      return [
        new vscode.CodeLens(lineRange(r.start, r.start, document), {
          title,
          command: COMMANDS.revealRegion,
          arguments: [{ kind: 'core', index: region.index }],
          tooltip: 'Reveal this core region',
        }),
        new vscode.CodeLens(lineRange(r.start, r.start, document), {
          title: 'Remove…',
          command: COMMANDS.removeSpan,
          arguments: [{ kind: 'core', index: region.index }],
          tooltip: 'Remove this core region from the ground truth (recorded in the audit log)',
        }),
      ];
    });
  }
}
