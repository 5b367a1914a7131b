/**
 * The Instance panel: a webview panel beside the code with the issue text, gold patch files,
 * FAIL_TO_PASS tests and trajectories of one instance. It hosts dist/webview/instance.js and
 * forwards only messages that name something the current state shows (a patch file, a listed read
 * step).
 */
import * as vscode from 'vscode';
import { parseFromInstanceWebview, type FromInstanceWebview, type InstanceState } from '../../shared/instanceProtocol';
import { PANELS } from '../base/ids';
import type { Probe } from '../base/probe';
import { describeMessage } from '../base/webviewHtml';
import { PANEL_BESIDE_SHARE, WebviewPanelHost } from '../base/webviewHost';

export interface InstancePanelHandlers {
  /** "open diff" on a gold-patch file; `path` is one of the state's `patchFiles[*].path`. */
  onOpenDiff(path: string): void;
  /** A read step was clicked; `path`/`start`/`end` are one of the state's resolved steps. */
  onRevealStep(path: string, start: number, end: number): void;
  /** "Open run" on a trajectory row; `trajPath` is one of the state's rows. */
  onOpenTrajectory(trajPath: string): void;
}

/** Panel titles are plain text, but a control or bidi character from an instance id has no place there. */
function titleFor(instanceId: string): string {
  const clean = instanceId.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '');
  const short = clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
  return short === '' ? 'Instance' : `Instance · ${short}`;
}

export class InstancePanel extends WebviewPanelHost<InstanceState, FromInstanceWebview> {
  constructor(
    extensionUri: vscode.Uri,
    probe: Probe,
    log: (line: string) => void,
    private readonly handlers: InstancePanelHandlers,
  ) {
    super(
      {
        name: 'instance',
        title: 'Instance panel',
        page: { script: 'instance.js', styles: ['common.css', 'instance.css'], title: 'Instance', rootId: 'instance-root' },
        parse: parseFromInstanceWebview,
        extensionUri,
        log,
        probe,
      },
      { viewType: PANELS.instance, title: 'Instance', column: vscode.ViewColumn.Beside, preserveFocus: true, besideShare: PANEL_BESIDE_SHARE },
    );
  }

  /** Creates the panel beside the active editor (or reveals it) and shows `state`. */
  show(state: InstanceState): void {
    this.showPanel();
    this.update(state);
  }

  /** Updates the panel if it is open; never opens it (for changes while the panel is closed). */
  update(state: InstanceState): void {
    if (!this.isOpen) return;
    this.setTitle(titleFor(state.instanceId));
    this.options.probe.report({ kind: 'paint', surface: 'instancePanel' });
    this.post(state);
  }

  protected onMessage(message: FromInstanceWebview): void {
    const state = this.latestState;
    switch (message.type) {
      case 'openDiff':
        // Only files of the shown patch: a compromised webview must not name arbitrary paths.
        if (state?.patchFiles.some((f) => f.path === message.path) === true) this.handlers.onOpenDiff(message.path);
        else this.warnOnce(`ignored openDiff for a path not in the gold patch: ${describeMessage(message.path)}`);
        return;
      case 'revealStep': {
        const listed = state?.trajectories.some((t) => t.steps.some((s) => s.path === message.path && s.start === message.start && s.end === message.end));
        if (listed === true) this.handlers.onRevealStep(message.path, message.start, message.end);
        else this.warnOnce(`ignored revealStep for a step not listed: ${describeMessage(message)}`);
        return;
      }
      case 'openTrajectory':
        if (state?.trajectories.some((t) => t.trajPath === message.trajPath && t.run?.loaded === true) === true) this.handlers.onOpenTrajectory(message.trajPath);
        else this.warnOnce(`ignored openTrajectory for a run not listed: ${describeMessage(message.trajPath)}`);
        return;
      case 'ready':
        return;
    }
  }
}
