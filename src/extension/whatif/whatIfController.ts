/**
 * The ground-truth selector's engine: *as written*, *audited* (the audit's removals on the bench as
 * written), or *what-if: <rules>* (issue 20). A what-if is computed once per rule set in the
 * background by the data layer's `WhatIfSession` (the runs each record cites, found through the
 * trajectory settings, re-extracted under the rules; the same numbers as `swe-explore whatif`),
 * then registered with the model as a ground-truth source: from then on switching between ground
 * truths is a selection change the model's caches answer. The rule sets chosen are remembered per
 * workspace (workspaceState), and the one in use is computed again after a reload.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseWhatIfRules, whatIfRulesKey, whatIfRulesText, trajPathModelFolder, recordedRuns, type WhatIfRules } from '../../core';
import { LineCountCache, WhatIfSession, type InstanceWhatIf } from '../../data';
import { safeNotificationText as safe } from '../../shared/escape';
import { whatIfLabel } from '../../shared/texts';
import { Emitter } from '../base/emitter';
import { SETTINGS, SETTINGS_SECTION, STATE_KEYS } from '../base/ids';
import { Disposable } from '../base/lifecycle';
import type { Probe } from '../base/probe';
import { readTrajectorySettings } from '../base/settings';
import type { InspectorModel } from '../model/model';
import { AS_WRITTEN, type Selection } from '../state/store';

/** The selector's fixed choices; a what-if's id is {@link whatIfId} of its rules. */
export const AS_WRITTEN_CHOICE = AS_WRITTEN;
export const AUDITED_CHOICE = 'audited';
const WHAT_IF_PREFIX = 'what-if:';

/** The ground-truth source id of a rule set (also the selector's choice id). */
export function whatIfId(rules: WhatIfRules): string {
  return `${WHAT_IF_PREFIX}${whatIfRulesKey(rules)}`;
}

/** What the Scores view offers and shows. */
export interface GroundTruthChoices {
  readonly options: readonly { readonly id: string; readonly label: string }[];
  /** The choice in effect. */
  readonly selected: string;
  /** The what-if being computed ("what-if: as-seen (12 of 848 instances)"), or null. */
  readonly pending: string | null;
}

/** A computed what-if: its rules and every instance's variant. */
export interface ComputedWhatIf {
  readonly id: string;
  readonly rules: WhatIfRules;
  readonly text: string;
  readonly variants: ReadonlyMap<string, InstanceWhatIf>;
}

/** What the controller remembers per workspace. */
interface Remembered {
  /** Rule lists chosen, most recent first. */
  readonly recent: readonly string[];
  /** The rule list in use, or null for the bench as written / audited. */
  readonly active: string | null;
}

const MAX_RECENT = 5;

function isRemembered(value: unknown): value is Remembered {
  if (typeof value !== 'object' || value === null) return false;
  const { recent, active } = value as Record<string, unknown>;
  return Array.isArray(recent) && recent.every((r) => typeof r === 'string') && (active === null || typeof active === 'string');
}

export class WhatIfController extends Disposable {
  private readonly changed = this.register(new Emitter<void>());
  /** The choices or the pending computation changed (the model's own events cover the numbers). */
  readonly onDidChange = this.changed.event;
  private session: WhatIfSession | undefined;
  private readonly computed = new Map<string, ComputedWhatIf>();
  private readonly sources = new Map<string, vscode.Disposable>();
  private pending: { readonly id: string; readonly text: string; done: number; total: number; readonly promise: Promise<ComputedWhatIf | undefined> } | undefined;
  private remembered: Remembered;

  constructor(
    private readonly model: InspectorModel,
    private readonly state: vscode.Memento,
    private readonly probe: Probe,
    private readonly log: (line: string) => void,
  ) {
    super();
    const saved = state.get<unknown>(STATE_KEYS.groundTruth);
    this.remembered = isRemembered(saved) ? saved : { recent: [], active: null };
    this.register(
      model.store.onDidChange((change) => {
        // A reload (or a new bench) makes every variant stale; the one in use is computed again.
        if (change.kind === 'data' && !model.store.loading) this.reset();
      }),
    );
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if ([SETTINGS.trajectoryRoots, SETTINGS.trajectoryTemplates, SETTINGS.resolutionReports].some((key) => event.affectsConfiguration(`${SETTINGS_SECTION}.${key}`))) this.reset();
      }),
    );
    this.register({ dispose: () => this.dropSources() });
  }

  /** The what-if in effect (its source registered and selected), or undefined. */
  get active(): ComputedWhatIf | undefined {
    return this.computed.get(this.model.store.selection.groundTruth);
  }

  /** The session the variants come from (the hover asks it why a line moved). */
  get currentSession(): WhatIfSession | undefined {
    return this.session;
  }

  choices(): GroundTruthChoices {
    const { selection, audit } = this.model.store;
    const options: { id: string; label: string }[] = [{ id: AS_WRITTEN_CHOICE, label: 'as written' }];
    if (audit.removalsByInstance.size > 0) options.push({ id: AUDITED_CHOICE, label: 'audited' });
    const withAudit = audit.removalsByInstance.size > 0 ? ' + audit' : '';
    for (const text of this.remembered.recent) {
      const parsed = parseWhatIfRules(text);
      if (parsed.ok) options.push({ id: whatIfId(parsed.rules), label: `${whatIfLabel(whatIfRulesText(parsed.rules))}${withAudit}` });
    }
    const selected = this.computed.has(selection.groundTruth) ? selection.groundTruth : selection.audited && audit.removalsByInstance.size > 0 ? AUDITED_CHOICE : AS_WRITTEN_CHOICE;
    const pending = this.pending === undefined ? null : `${whatIfLabel(this.pending.text)} (${this.pending.done} of ${this.pending.total} instances)`;
    return { options, selected, pending };
  }

  /**
   * Applies a choice: `as-written`, `audited`, or `what-if:<rules>` (computed first if needed; the
   * audit stays on top). Resolves once the numbers use it (false when it could not be applied).
   */
  async apply(choice: string): Promise<boolean> {
    if (choice === AS_WRITTEN_CHOICE || choice === AUDITED_CHOICE) {
      this.remember(null);
      // Without any removal the two are the same numbers: the store's default (audited) is kept, so
      // its caches serve the switch. The caption says "audited" as soon as a removal applies.
      const removals = this.model.store.audit.removalsByInstance.size > 0;
      return this.select({ groundTruth: AS_WRITTEN, audited: choice === AUDITED_CHOICE || !removals });
    }
    if (!choice.startsWith(WHAT_IF_PREFIX)) return false;
    const parsed = parseWhatIfRules(choice.slice(WHAT_IF_PREFIX.length).replace(/ --drop-promoted$/, ''), choice.endsWith(' --drop-promoted'));
    if (!parsed.ok) {
      void vscode.window.showErrorMessage(`SWE-Explore: ${safe(parsed.message)}`);
      return false;
    }
    return this.applyRules(parsed.rules);
  }

  /** Computes (once) and selects a what-if. */
  async applyRules(rules: WhatIfRules): Promise<boolean> {
    const text = whatIfRulesText(rules);
    this.remember(text);
    const choice = this.choiceCount;
    const computed = this.computed.get(whatIfId(rules)) ?? (await this.compute(rules));
    if (computed === undefined || choice !== this.choiceCount) return false;
    return this.select({ groundTruth: computed.id, audited: true });
  }

  /**
   * Selects a ground truth once every row is scored under it: in slices with event-loop turns
   * between (the first time; later only cache lookups), so that the selection event's repaints sum
   * cached rows instead of blocking the host. A later choice wins over this one.
   */
  private async select(target: Pick<Selection, 'groundTruth' | 'audited'>): Promise<boolean> {
    const choice = this.choiceCount;
    const { store } = this.model;
    const stale = (): boolean => choice !== this.choiceCount;
    const under = { ...target, profile: store.selection.profile };
    if (!this.model.isPreparedUnder(under)) {
      const scored = performance.now();
      await this.model.warmRowsUnder(under, store.instanceIds, stale);
      this.probe.report({ kind: 'timing', name: 'groundTruthRowsScored', ms: performance.now() - scored });
      if (stale()) return false;
    }
    const started = performance.now();
    store.select(target);
    this.probe.report({ kind: 'timing', name: 'groundTruthSelect', ms: performance.now() - started });
    return true;
  }

  /** After the first load: the what-if in use in this workspace last time is computed and selected again. */
  async restore(): Promise<void> {
    const active = this.remembered.active;
    if (active === null) return;
    const parsed = parseWhatIfRules(active);
    if (parsed.ok) await this.applyRules(parsed.rules);
  }

  /** Model folders of the runs the records cite (for the rule picker's `drop-model:` items). */
  runModels(): string[] {
    const models = new Set<string>();
    for (const entry of this.model.store.data.instances.values()) {
      for (const trajPath of recordedRuns(entry.record.read_step_info).keys()) {
        const folder = trajPathModelFolder(trajPath);
        if (folder !== undefined) models.add(folder);
      }
    }
    return [...models].sort();
  }

  /** The largest number of runs a record cites (the picker offers `support:2` … up to it). */
  maxRuns(): number {
    let max = 0;
    for (const entry of this.model.store.data.instances.values()) max = Math.max(max, recordedRuns(entry.record.read_step_info).size);
    return max;
  }

  /** The session of the loaded workspace (made on first use: the settings are read then). */
  sessionOf(): WhatIfSession | undefined {
    const data = this.model.store.data;
    if (data.benchFile === undefined) return undefined;
    if (this.session === undefined) {
      const base = path.dirname(data.benchFile);
      const settings = readTrajectorySettings();
      const roots = settings.roots.length === 0 ? [base] : settings.roots.map((r) => path.resolve(base, r));
      this.session = new WhatIfSession(
        data,
        {
          locator: { roots, templates: [...settings.templates].map(([key, template]) => ({ key, template })), templateBase: base },
          reports: [...settings.reports].map(([key, p]) => ({ key, path: p })),
          reportsBase: base,
          keepCommands: true,
        },
        new LineCountCache(),
      );
    }
    return this.session;
  }

  private compute(rules: WhatIfRules): Promise<ComputedWhatIf | undefined> {
    const id = whatIfId(rules);
    if (this.pending?.id === id) return this.pending.promise;
    const session = this.sessionOf();
    if (session === undefined) {
      void vscode.window.showInformationMessage('SWE-Explore: no bench file is loaded.');
      return Promise.resolve(undefined);
    }
    const text = whatIfRulesText(rules);
    const total = session.model.instances.size;
    const promise = vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `SWE-Explore: computing ${safe(whatIfLabel(text))}`, cancellable: true },
      async (progress, token): Promise<ComputedWhatIf | undefined> => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        const started = performance.now();
        let reported = 0;
        try {
          const variants = await session.variants(rules, {
            signal: abort.signal,
            onProgress: (done) => {
              if (this.pending?.id === id) this.pending.done = done;
              // The notification and the Scores view move in steps of 5%, not per instance.
              const step = Math.floor((done * 20) / Math.max(1, total));
              if (step > reported) {
                progress.report({ increment: (step - reported) * 5, message: `${done} of ${total} instances` });
                reported = step;
                this.changed.fire();
              }
            },
          });
          if (session !== this.session) return undefined;
          const computed: ComputedWhatIf = { id, rules, text, variants };
          this.computed.set(id, computed);
          this.sources.get(id)?.dispose();
          const registered = performance.now();
          this.sources.set(id, this.model.groundTruths.register({ id, label: whatIfLabel(text), groundTruthOf: (entry) => variants.get(entry.instanceId)?.groundTruth ?? entry.groundTruth }));
          this.probe.report({ kind: 'timing', name: 'whatIfRegister', ms: performance.now() - registered });
          this.probe.report({ kind: 'timing', name: 'whatIfCompute', ms: performance.now() - started });
          return computed;
        } catch (error) {
          if (!abort.signal.aborted) {
            this.log(`what-if ${text} failed: ${error instanceof Error ? error.message : String(error)}`);
            void vscode.window.showErrorMessage(`SWE-Explore: the what-if ${safe(text)} could not be computed: ${safe(error instanceof Error ? error.message : String(error))}`);
          }
          return undefined;
        } finally {
          cancel.dispose();
          if (this.pending?.id === id) this.pending = undefined;
          this.changed.fire();
        }
      },
    );
    this.pending = { id, text, done: 0, total, promise: Promise.resolve(promise) };
    this.changed.fire();
    return this.pending.promise;
  }

  /** Counts choices, so that a choice still being computed or scored yields to a later one. */
  private choiceCount = 0;

  private remember(active: string | null): void {
    this.choiceCount++;
    const recent = active === null ? this.remembered.recent : [active, ...this.remembered.recent.filter((r) => r !== active)].slice(0, MAX_RECENT);
    this.remembered = { recent, active };
    void this.state.update(STATE_KEYS.groundTruth, this.remembered);
    this.changed.fire();
  }

  private dropSources(): void {
    for (const source of this.sources.values()) source.dispose();
    this.sources.clear();
    this.computed.clear();
  }

  /** Forgets every variant and the session; the what-if in use is computed again. */
  private reset(): void {
    this.session = undefined;
    this.pending = undefined;
    this.dropSources();
    this.changed.fire();
    if (this.remembered.active !== null && this.model.store.data.benchFile !== undefined) void this.restore();
  }
}
