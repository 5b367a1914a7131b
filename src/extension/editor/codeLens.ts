import * as vscode from 'vscode';
import { coreRegionTitle } from '../../shared/texts';
import { lineRange } from '../base/ranges';
import { readLayerSettings } from '../base/settings';
import { snapshotPathOf } from '../base/snapshot';
import { ViewPainter } from '../base/viewPainter';
import type { Probe } from '../base/probe';
import type { InspectorModel } from '../model/model';
import { COMMANDS, SETTING_GROUPS } from '../base/ids';

/** `Core 2/4 · 31 lines · 24/31 covered within B=500 by #1, #3` above each core region. */
export class CoreRegionCodeLensProvider extends ViewPainter implements vscode.CodeLensProvider {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly model: InspectorModel,
    probe: Probe,
  ) {
    super(model, probe, 'codeLens');
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING_GROUPS.codeLens)) this.changed.fire();
      }),
    );
  }

  protected paint(): void {
    this.changed.fire();
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
        new vscode.CodeLens(lineRange(r.start, r.start, document), {
          title: 'Steps that read it',
          command: COMMANDS.showReadStepsOfLine,
          arguments: [{ target: { kind: 'core', index: region.index } }],
          tooltip: 'Show the steps of the repair runs that read this core region',
        }),
      ];
    });
  }
}
