/**
 * The Trajectory view: a webview panel beside the code showing one repair run as a timeline. It
 * hosts dist/webview/trajectory.js and forwards only messages that name something the current
 * state shows (a read listed in it).
 */
import * as vscode from 'vscode';
import { parseFromTrajectoryWebview, type FromTrajectoryWebview, type TrajectoryCursorPatch, type TrajectoryStepTextPatch, type TrajectoryViewState } from '../../shared/trajectoryProtocol';
import { PANELS } from '../base/ids';
import type { Probe } from '../base/probe';
import { describeMessage } from '../base/webviewHtml';
import { PANEL_BESIDE_SHARE, WebviewPanelHost } from '../base/webviewHost';

export interface TrajectoryPanelHandlers {
  /** A read was clicked; `read` is the index of one of the state's reads. */
  onRevealRead(read: number): void;
  /** "show the whole run" was clicked. */
  onShowWholeRun(): void;
  /** "show all" on a message the state shows in part: its whole text, or undefined. */
  stepText(step: number): { text: string; truncated: boolean } | undefined;
  /** The panel was closed. */
  onClosed(): void;
}

/** Panel titles are plain text; control and bidi characters from data have no place there. */
function titleFor(title: string): string {
  const clean = title.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '');
  const short = clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
  return short === '' ? 'Trajectory' : `Trajectory · ${short}`;
}

export class TrajectoryPanel extends WebviewPanelHost<TrajectoryViewState, FromTrajectoryWebview> {
  constructor(
    extensionUri: vscode.Uri,
    probe: Probe,
    log: (line: string) => void,
    private readonly handlers: TrajectoryPanelHandlers,
  ) {
    super(
      {
        name: 'trajectory',
        title: 'Trajectory view',
        page: { script: 'trajectory.js', styles: ['common.css', 'trajectory.css'], title: 'Trajectory', rootId: 'trajectory-root' },
        parse: parseFromTrajectoryWebview,
        extensionUri,
        log,
        probe,
      },
      { viewType: PANELS.trajectory, title: 'Trajectory', column: vscode.ViewColumn.Beside, preserveFocus: true, besideShare: PANEL_BESIDE_SHARE },
    );
  }

  /** Creates the panel beside the active editor (or reveals it) and shows `state`. */
  show(state: TrajectoryViewState): void {
    this.showPanel();
    this.update(state);
  }

  /** Updates the panel if it is open; never opens it. */
  update(state: TrajectoryViewState): void {
    if (!this.isOpen) return;
    this.setTitle(titleFor(state.title));
    this.options.probe.report({ kind: 'paint', surface: 'trajectory' });
    this.post(state);
  }

  /** The cursor moved within the drawn messages: remember `state`, post only the move. */
  moveCursor(state: TrajectoryViewState, read: number): void {
    if (!this.isOpen) return;
    this.options.probe.report({ kind: 'paint', surface: 'trajectory' });
    const patch: TrajectoryCursorPatch = { type: 'cursor', read, cursorText: state.cursorText };
    this.postPatch(state, patch);
  }

  protected onMessage(message: FromTrajectoryWebview): void {
    switch (message.type) {
      case 'revealRead': {
        // Only reads the shown state lists: a compromised webview must not name others.
        const listed = this.latestState?.steps.some((s) => s.reads.some((r) => r.read === message.read));
        if (listed === true) this.handlers.onRevealRead(message.read);
        else this.warnOnce(`ignored revealRead for a read not listed: ${describeMessage(message)}`);
        return;
      }
      case 'showWholeRun':
        this.handlers.onShowWholeRun();
        return;
      case 'showStepText': {
        // Only messages the shown state lists in part.
        const listed = this.latestState?.steps.some((s) => s.index === message.step && s.truncated);
        const whole = listed === true ? this.handlers.stepText(message.step) : undefined;
        if (whole === undefined) this.warnOnce(`ignored showStepText for a message not listed: ${describeMessage(message)}`);
        else {
          const patch: TrajectoryStepTextPatch = { type: 'stepText', step: message.step, ...whole };
          this.postPatch(this.latestState!, patch);
        }
        return;
      }
      case 'rendered':
        this.options.probe.report({ kind: 'rendered', webview: 'trajectory', detail: { steps: message.steps, ms: message.ms } });
        return;
      case 'ready':
        return;
    }
  }

  protected override onDetached(): void {
    this.handlers.onClosed();
  }
}
