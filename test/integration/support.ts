/** What every integration case file shares: the case shape, the timing sink and waiting helpers. */
import * as vscode from 'vscode';
import type { Probe, ProbeEvent } from '../../src/extension/base/probe';
import type { InspectorApi } from '../../src/extension/extension';

export interface Case {
  readonly name: string;
  readonly run: (api: InspectorApi) => Promise<void>;
}

/** The hover's text at a line of a snapshot file (what every hover provider gives), Markdown escapes undone. */
export async function hoverText(uri: vscode.Uri, line: number): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line - 1, 0));
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n')
    .replace(/\\(.)/g, '$1');
}

/** Figures printed as `[timing] name: ms` after the run. */
export const timings: Record<string, number> = {};

/** Figures in other units (counts, MB), printed as `[figure] name: value` after the run. */
export const figures: Record<string, string> = {};

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function until(condition: () => boolean, what: string, timeoutMs = 20000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Longest gap between 5 ms beats while `work` runs: how long the extension host was blocked. */
export async function longestStallDuring<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let longest = 0;
  let last = performance.now();
  const beat = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs: longest };
  } finally {
    clearInterval(beat);
  }
}

/**
 * Everything the extension reports through its probe (src/extension/base/probe.ts), kept for the
 * cases to read: the ranges each editor last received, paints per surface, webview states,
 * handshakes and timings. The extension keeps no counters of its own.
 */
export class Recorder {
  private readonly painted = new Map<string, Readonly<Record<string, readonly (readonly [number, number])[]>>>();
  private readonly leftOut = new Map<string, Readonly<Record<string, readonly (readonly [number, number])[]>>>();
  private readonly whatIf = new Map<string, Readonly<Record<string, readonly (readonly [number, number])[]>>>();
  /** The Trajectory view's read-step decoration, per editor URI. */
  private readonly readSteps = new Map<string, Readonly<Record<string, readonly (readonly [number, number])[]>>>();
  private readonly paints = new Map<string, number>();
  private readonly editorPaints = new Map<string, number>();
  private readonly firstPaintAt = new Map<string, number>();
  private readonly posts = new Map<string, { count: number; state: unknown; at: number }>();
  private readonly readies = new Map<string, { ms: number; at: number }>();
  private readonly renders = new Map<string, { count: number; detail: unknown }>();
  private readonly measured = new Map<string, number>();
  treeItems = 0;

  listen(probe: Probe): void {
    probe.listen((event) => this.record(event));
  }

  private record(event: ProbeEvent): void {
    const now = performance.now();
    switch (event.kind) {
      case 'paint':
        this.paints.set(event.surface, (this.paints.get(event.surface) ?? 0) + 1);
        return;
      case 'editorPainted': {
        (event.surface === 'decorations' ? this.painted : event.surface === 'whatIf' ? this.whatIf : event.surface === 'leaveOneOut' ? this.leftOut : this.readSteps).set(event.uri, event.layers);
        const key = `${event.surface} ${event.uri}`;
        this.editorPaints.set(key, (this.editorPaints.get(key) ?? 0) + 1);
        if (!this.firstPaintAt.has(key)) this.firstPaintAt.set(key, now);
        return;
      }
      case 'posted': {
        const before = this.posts.get(event.webview);
        this.posts.set(event.webview, { count: (before?.count ?? 0) + 1, state: event.state, at: now });
        return;
      }
      case 'ready':
        this.readies.set(event.webview, { ms: event.ms, at: now });
        return;
      case 'rendered': {
        const before = this.renders.get(event.webview);
        this.renders.set(event.webview, { count: (before?.count ?? 0) + 1, detail: event.detail });
        return;
      }
      case 'timing':
        this.measured.set(event.name, event.ms);
        return;
      case 'treeItem':
        this.treeItems++;
        return;
    }
  }

  /** The read-step decoration an editor (by URI) last received. */
  readStepApplied(uri: string): Readonly<Record<string, readonly (readonly [number, number])[]>> | undefined {
    return this.readSteps.get(uri);
  }

  /** The decoration layers an editor (by URI) last received, as 1-based line ranges per layer. */
  applied(uri: string): Readonly<Record<string, readonly (readonly [number, number])[]>> | undefined {
    return this.painted.get(uri);
  }

  /** What the leave-one-out layer last painted on an editor: `join` and `leave` ranges. */
  leaveOneOutApplied(uri: string): Readonly<Record<string, readonly (readonly [number, number])[]>> | undefined {
    return this.leftOut.get(uri);
  }

  /** What the what-if layers last painted on an editor: `leave` and `join` ranges. */
  whatIfApplied(uri: string): Readonly<Record<string, readonly (readonly [number, number])[]>> | undefined {
    return this.whatIf.get(uri);
  }

  /** Repaint passes of a surface so far. */
  paintsOf(surface: string): number {
    return this.paints.get(surface) ?? 0;
  }

  /** How often one editor received a painter's layers so far. */
  editorPaintsOf(uri: string, surface: 'decorations' | 'leaveOneOut' | 'whatIf' = 'decorations'): number {
    return this.editorPaints.get(`${surface} ${uri}`) ?? 0;
  }

  /** How often each editor (by URI) has received the decorations so far. */
  editorPaintCounts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [key, count] of this.editorPaints) if (key.startsWith('decorations ')) out.set(key.slice('decorations '.length), count);
    return out;
  }

  /** When (performance.now()) an editor first received the decorations, and forgets it, so the next paint is first again. */
  takeFirstPaint(uri: string): number | undefined {
    const at = this.firstPaintAt.get(`decorations ${uri}`);
    this.firstPaintAt.delete(`decorations ${uri}`);
    return at;
  }

  /** How many states a webview host posted, and the last one. */
  posted<T>(webview: string): { readonly count: number; readonly state: T | undefined; readonly at: number } {
    const posts = this.posts.get(webview);
    return { count: posts?.count ?? 0, state: posts?.state as T | undefined, at: posts?.at ?? 0 };
  }

  /** Milliseconds from a webview's host attaching it to its first `ready`, and when that was. */
  ready(webview: string): { readonly ms: number; readonly at: number } | undefined {
    return this.readies.get(webview);
  }

  /** How many states a webview said it drew, and what it said about the last one. */
  rendered<T>(webview: string): { readonly count: number; readonly detail: T | undefined } {
    const renders = this.renders.get(webview);
    return { count: renders?.count ?? 0, detail: renders?.detail as T | undefined };
  }

  /** The last duration reported under `name`. */
  timing(name: string): number | undefined {
    return this.measured.get(name);
  }
}

/** The one recorder of the run (installed by the runner right after activation). */
export const recorder = new Recorder();

/**
 * Runs Open Instance and records its figures under `label`: command → done, the share VS Code
 * spent opening the editor, and command → the opened editor's first decorated paint (VS Code makes
 * the editor visible, and the painter paints it, often before showTextDocument returns).
 */
export async function measureOpenInstance(instanceId: string, label: string): Promise<{ readonly totalMs: number; readonly editorMs: number }> {
  const started = performance.now();
  await vscode.commands.executeCommand('sweExplore.openInstance', instanceId);
  const totalMs = recorder.timing('open instance') ?? performance.now() - started;
  const editorMs = recorder.timing('open instance: VS Code opening the editor') ?? 0;
  const editor = vscode.window.activeTextEditor;
  const paintedAt = editor === undefined ? undefined : recorder.takeFirstPaint(editor.document.uri.toString());
  timings[`open instance → decorations ${label}`] = totalMs;
  timings[`  of which VS Code opening/showing the editor ${label}`] = editorMs;
  if (paintedAt !== undefined && paintedAt >= started) timings[`open instance → first decorated paint of the editor ${label}`] = paintedAt - started;
  return { totalMs, editorMs };
}
