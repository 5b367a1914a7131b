import * as vscode from 'vscode';
import { safeNotificationText as safe } from '../../shared/escape';
import { scoreStatusLabel, scoreStatusTooltip } from '../../shared/texts';
import { Disposable } from '../base/lifecycle';
import { ViewPainter } from '../base/viewPainter';
import { workspaceRelative } from '../base/workspacePaths';
import type { Probe } from '../base/probe';
import type { InspectorModel } from '../model/model';
import { auditedCount } from '../state/auditState';
import type { Store } from '../state/store';
import { COMMANDS, STATUS_ITEMS } from '../base/ids';

/** `instance · explorer · nDCG@B · Recall@B`, click to open another instance. */
export class ScoreStatusBar extends ViewPainter {
  private readonly item = this.register(vscode.window.createStatusBarItem(STATUS_ITEMS.score, vscode.StatusBarAlignment.Left, 50));

  constructor(
    private readonly model: InspectorModel,
    probe: Probe,
  ) {
    super(model, probe, 'statusBar');
    this.item.name = 'SWE-Explore score';
    this.item.command = COMMANDS.openInstance;
    this.paint();
  }

  protected paint(): void {
    const view = this.model.view;
    if (view === undefined) {
      this.item.hide();
      return;
    }
    const { budget } = view.explanation;
    // Status bar text renders $(icon) syntax: the id and explorer come from data, so go through safe().
    const explorer = view.explorer === undefined ? 'no explorer' : safe(view.explorer);
    // The names of the Scores view's cards (nDCG@B, Recall@B), never a bare "R" beside a card that means another recall.
    const { ndcg, recallAtBudget, metrics } = view.explanation;
    this.item.text = `$(telescope) ${safe(view.instance.instanceId)} · ${explorer} · ${scoreStatusLabel(budget, ndcg.ndcg, recallAtBudget)}`;
    const bench = this.model.store.data.benchFile;
    this.item.tooltip = scoreStatusTooltip(view.prepared.profile, budget, ndcg.ndcg, recallAtBudget, metrics.recall, bench === undefined ? undefined : workspaceRelative(bench));
    this.item.show();
  }
}

/** `audited 12/32`: instances with an accept or at least one effective removal; click for the next unaudited one. */
export class AuditStatusBar extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem(STATUS_ITEMS.audit, vscode.StatusBarAlignment.Left, 49));

  constructor(private readonly store: Store) {
    super();
    this.item.name = 'SWE-Explore audit progress';
    this.item.command = COMMANDS.nextUnauditedInstance;
    this.register(
      store.onDidChange((change) => {
        if (change.kind === 'audit' || change.kind === 'data') this.update();
      }),
    );
    this.update();
  }

  private update(): void {
    const { audited, total } = auditedCount(this.store.audit, this.store.data.instances.keys());
    if (total === 0) {
      this.item.hide();
      return;
    }
    this.item.text = `$(checklist) audited ${audited}/${total}`;
    this.item.tooltip = `SWE-Explore audit: ${audited} of ${total} instances have an accept or at least one removal. Click for the next unaudited instance.`;
    this.item.show();
  }
}
