/**
 * The ground-truth commands: Choose Ground Truth (a quick pick of as written, audited, the rule
 * sets chosen before, and composing a new rule set), Show What-If Report (the `swe-explore whatif`
 * report as Markdown, rendered as the audit impact is) and the what-if layers' toggle.
 */
import * as vscode from 'vscode';
import { parseWhatIfRules, whatIfRulesText, type WhatIfRules } from '../../core';
import { renderWhatIfMarkdown, whatIfLines } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import { whatIfLabel } from '../../shared/texts';
import { COMMANDS, SETTINGS, WORKBENCH_COMMANDS } from '../base/ids';
import { toggleSetting } from '../base/settings';
import type { InspectorModel } from '../model/model';
import type { WhatIfController } from './whatIfController';

interface Services {
  readonly model: InspectorModel;
  readonly controller: WhatIfController;
  readonly whenLoaded: () => Promise<void>;
}

type ChoiceItem = vscode.QuickPickItem & { readonly choice: string };
type RuleItem = vscode.QuickPickItem & { readonly rule: string };

/** The rule picker: several rules at once, composed into one list (`as-seen,resolved-only,support:2`). */
async function composeRules(controller: WhatIfController): Promise<WhatIfRules | undefined> {
  const items: RuleItem[] = [
    { label: 'as-seen', description: 'each read credits the lines the agent saw, not the builder\u2019s credit', rule: 'as-seen' },
    { label: 'resolved-only', description: 'drop runs a SWE-bench report marks not resolved (sweExplore.data.resolutionReports)', rule: 'resolved-only' },
  ];
  for (let k = 2; k <= Math.max(2, controller.maxRuns()); k++) items.push({ label: `support:${k}`, description: `a line is core when at least ${k} kept runs read it`, rule: `support:${k}` });
  for (const model of controller.runModels()) items.push({ label: safe(`drop-model:${model}`), description: 'leave this model\u2019s runs out', rule: `drop-model:${model}` });
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: 'SWE-Explore: what-if rules (none picked: the builder\u2019s own rules, official)',
    placeHolder: 'Pick the rules to compose',
  });
  if (picked === undefined) return undefined;
  const parsed = parseWhatIfRules(picked.length === 0 ? 'official' : picked.map((p) => p.rule).join(','));
  if (!parsed.ok) {
    void vscode.window.showErrorMessage(`SWE-Explore: ${safe(parsed.message)}`);
    return undefined;
  }
  return parsed.rules;
}

export function registerWhatIfCommands({ model, controller, whenLoaded }: Services): vscode.Disposable[] {
  /**
   * With an argument (the Scores view, tests): a choice id (`as-written`, `audited`,
   * `what-if:<rules>`); resolves once the numbers use it. Without: a quick pick.
   */
  const choose = async (argument?: unknown): Promise<boolean> => {
    await whenLoaded();
    if (typeof argument === 'string') return controller.apply(argument);
    const { options, selected } = controller.choices();
    const items: ChoiceItem[] = options.map((o) => ({ label: safe(o.label), description: o.id === selected ? 'in use' : undefined, choice: o.id }));
    const compose = '';
    items.push({ label: 'what-if: compose rules\u2026', description: 'as-seen, resolved-only, support:k, drop-model:M', choice: compose });
    const picked = await vscode.window.showQuickPick(items, { title: 'SWE-Explore: which ground truth the numbers use' });
    if (picked === undefined) return false;
    if (picked.choice !== compose) return controller.apply(picked.choice);
    const rules = await composeRules(controller);
    return rules === undefined ? false : controller.applyRules(rules);
  };

  const report = async (): Promise<void> => {
    await whenLoaded();
    let computed = controller.active;
    if (computed === undefined) {
      const chosen = await choose();
      computed = controller.active;
      if (!chosen || computed === undefined) return;
    }
    const session = controller.sessionOf();
    if (session === undefined) return;
    const { rules, text } = computed;
    const { profile, topK } = model.store.selection;
    const markdown = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `SWE-Explore: scoring as written and under ${safe(whatIfLabel(text))}` }, async () => {
      const hasPredictions = session.model.explorers.size > 0;
      const scores = hasPredictions ? await session.scoresOf(rules, { profile, k: topK }) : undefined;
      const lines = whatIfLines(computed.variants, scores);
      // The rules name models from the data (drop-model:M): they appear only in the report's escaped title, never in this comment.
      const header = `<!-- ${profile} profile, top-${topK}; the report swe-explore whatif --format md prints for these rules -->\n`;
      return header + renderWhatIfMarkdown(lines, whatIfRulesText(rules));
    });
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
    await vscode.window.showTextDocument(document, { preview: true });
    await vscode.commands.executeCommand(WORKBENCH_COMMANDS.markdownPreviewToSide, document.uri).then(undefined, () => undefined);
  };

  return [
    vscode.commands.registerCommand(COMMANDS.chooseGroundTruth, choose),
    vscode.commands.registerCommand(COMMANDS.showWhatIfReport, report),
    vscode.commands.registerCommand(COMMANDS.toggleWhatIfLayers, () => toggleSetting(SETTINGS.whatIfLayer)),
  ];
}
