/**
 * The extension's side of the audit log: where it lives, who writes, reading it into the store
 * (with drift checks) and appending events. The log is only ever appended to through
 * `appendAuditEvent`; another window's appends reach the store through a file watcher.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AUDIT_FOLDER, appendAuditEvent, checkAuditAgainstBench, defaultAuthor, readAuditFolder, sanitizeAuthor, REMOVAL_REASONS, type AuditWireEvent, type Problem } from '../../data';
import { Debounced } from '../base/debounce';
import { SETTING_GROUPS, SETTINGS, SETTINGS_SECTION } from '../base/ids';
import { Disposable } from '../base/lifecycle';
import { toAuditState } from '../state/auditState';
import type { Store } from '../state/store';

const REFRESH_DEBOUNCE_MS = 100;

/** `sweExplore.audit.author`: empty means `git config user.name`, else the OS user. */
function configuredAuthor(): string {
  const value = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<unknown>(SETTINGS.auditAuthor);
  return typeof value === 'string' ? value.trim() : '';
}

/** `sweExplore.audit.reasons`, falling back to the built-in list when the setting is unusable. */
export function readReasons(): string[] {
  const value = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<unknown>(SETTINGS.auditReasons);
  const reasons = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
  return reasons.length > 0 ? [...new Set(reasons)] : [...REMOVAL_REASONS];
}

export class AuditController extends Disposable {
  private generation = 0;
  private readonly refreshSoon = this.register(new Debounced(REFRESH_DEBOUNCE_MS, () => void this.refresh()));
  private authorCache: string | undefined;
  private problemsValue: readonly Problem[] = [];
  private readonly problemsChanged = this.register(new vscode.EventEmitter<readonly Problem[]>());
  /** Fires with the audit folder's problems (bad lines, conflicts, drift) after each read. */
  readonly onDidChangeProblems = this.problemsChanged.event;
  /** The reason of the last removal made in this window (for "remove with last reason"). */
  lastReason: string | undefined;
  private latest: Promise<void> = Promise.resolve();

  constructor(private readonly store: Store) {
    super();
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder !== undefined) {
      const watcher = this.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.swe-explore/audit/*.jsonl')));
      const schedule = (): void => this.scheduleRefresh();
      this.register(watcher.onDidChange(schedule));
      this.register(watcher.onDidCreate(schedule));
      this.register(watcher.onDidDelete(schedule));
    }
    // Drift checks and unknown instances depend on the loaded bench.
    this.register(
      store.onDidChange((change) => {
        if (change.kind === 'data' && !store.loading) this.scheduleRefresh();
      }),
    );
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING_GROUPS.auditAuthor)) this.authorCache = undefined;
      }),
    );
  }

  /** `<workspace folder>/.swe-explore/audit`, or undefined without a folder. */
  get dir(): string | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder === undefined ? undefined : path.join(folder.uri.fsPath, AUDIT_FOLDER);
  }

  get problems(): readonly Problem[] {
    return this.problemsValue;
  }

  /** The author name events are written under (sanitised as the file name is). */
  async author(): Promise<string> {
    const configured = configuredAuthor();
    if (configured !== '') return sanitizeAuthor(configured);
    this.authorCache ??= await defaultAuthor(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
    return this.authorCache;
  }

  /** Appends one event to this author's file, then reads the folder again so every view updates. */
  async append(event: AuditWireEvent): Promise<string> {
    const dir = this.dir;
    if (dir === undefined) throw new Error('open a folder first: the audit log lives in the workspace folder');
    const file = await appendAuditEvent(dir, event);
    void this.refresh();
    await this.settled();
    return file;
  }

  /**
   * Resolves once the newest refresh has reached the store. A watcher-triggered refresh that starts
   * meanwhile supersedes ours (ours then hands nothing over), so wait for that one too: a command
   * that appended an event must see it in the store when it returns.
   */
  private async settled(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.latest;
      await current;
    } while (current !== this.latest);
  }

  /** Resolves when the latest read of the audit folder has reached the store. */
  whenRefreshed(): Promise<void> {
    return this.latest;
  }

  scheduleRefresh(): void {
    this.refreshSoon.schedule();
  }

  /** Reads every author's file, checks drift against the snapshots and hands the result to the store. */
  refresh(): Promise<void> {
    this.latest = this.refreshOnce(++this.generation);
    return this.latest;
  }

  private async refreshOnce(generation: number): Promise<void> {
    const dir = this.dir;
    if (dir === undefined) return;
    const folder = await readAuditFolder(dir);
    // The same check as `swe-explore export|audit-impact`: unknown instances and streamed drift.
    const checked = await checkAuditAgainstBench(this.store.data, folder);
    const problems: Problem[] = [...folder.problems, ...checked.problems];
    const drifted = checked.drifted;
    if (generation !== this.generation || this.isDisposed) return;
    this.store.setAudit(toAuditState(folder, drifted));
    this.problemsValue = problems;
    this.problemsChanged.fire(problems);
  }
}
