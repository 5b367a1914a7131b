import * as vscode from 'vscode';
import { SETTING_GROUPS } from '../base/ids';
import { Disposable } from '../base/lifecycle';
import { EMPTY_SET, lineSetUnion, normalize, subtract, type IntervalSet, type LineSet } from '../../core';
import { budgetStatusText, compareLabels, isConsensus, missedLabel, plainLabel, provenanceLabel, removalLabel, type MissedSpan } from '../../shared/texts';
import { lineRange } from '../base/ranges';
import { readLayerSettings, type LayerSettings } from '../base/settings';
import { compareOf, missedSpansOf, provenanceOf } from '../model/viewCaches';
import { snapshotPathOf } from '../base/snapshot';
import { changesView, type InstanceView, type Store } from '../state/store';

const color = (id: string): vscode.ThemeColor => new vscode.ThemeColor(`sweExplore.${id}`);

/** The decoration layers of compare mode (each also has a `…Label` layer). */
type CompareLayer = 'compareOnlyA' | 'compareOnlyB' | 'compareBoth' | 'compareNeither';

/**
 * One decoration type per layer, created once. Every layer carries a non-colour signal too:
 * core = solid left border, optional = dashed left border, predictions = right border (solid in
 * budget, dotted past it) plus a rank badge, missed = a text label, patch = dashed underline + label,
 * removed (audit) = double left border, struck-through text and a ✂ label.
 */
function createDecorationTypes(): Record<
  | 'core'
  | 'optional'
  | 'inBudget'
  | 'overBudget'
  | 'missed'
  | 'missedLabel'
  | 'patch'
  | 'patchLabel'
  | 'badge'
  | 'removed'
  | 'removedText'
  | 'removedLabel'
  | 'consensus'
  | 'consensusLabel'
  | 'promoted'
  | 'promotedLabel'
  | CompareLayer
  | `${CompareLayer}Label`,
  vscode.TextEditorDecorationType
> {
  const create = vscode.window.createTextEditorDecorationType;
  return {
    core: create({
      isWholeLine: true,
      backgroundColor: color('coreBackground'),
      borderColor: color('coreBorder'),
      borderStyle: 'solid',
      borderWidth: '0 0 0 3px',
      overviewRulerColor: color('coreBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
    optional: create({
      isWholeLine: true,
      backgroundColor: color('optionalBackground'),
      borderColor: color('optionalBorder'),
      borderStyle: 'dashed',
      borderWidth: '0 0 0 3px',
    }),
    inBudget: create({
      isWholeLine: true,
      backgroundColor: color('predictionInBudgetBackground'),
      borderColor: color('predictionInBudgetBorder'),
      borderStyle: 'solid',
      borderWidth: '0 4px 0 0',
      overviewRulerColor: color('predictionInBudgetBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Center,
    }),
    overBudget: create({
      isWholeLine: true,
      borderColor: color('predictionOverBudgetBorder'),
      borderStyle: 'dotted',
      borderWidth: '0 4px 0 0',
      overviewRulerColor: color('predictionOverBudgetBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Center,
    }),
    missed: create({
      isWholeLine: true,
      backgroundColor: color('missedBackground'),
      overviewRulerColor: color('missedBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
    }),
    missedLabel: create({
      after: { color: color('missedBorder'), margin: '0 0 0 2em', fontStyle: 'italic' },
    }),
    patch: create({
      isWholeLine: true,
      borderColor: color('patchBorder'),
      borderStyle: 'dashed',
      borderWidth: '0 0 1px 0',
    }),
    patchLabel: create({
      after: { color: color('patchBorder'), margin: '0 0 0 2em' },
    }),
    badge: create({
      after: { color: color('rankBadgeForeground'), margin: '0 0 0 2em', fontWeight: 'bold' },
    }),
    removed: create({
      isWholeLine: true,
      backgroundColor: color('removedBackground'),
      borderColor: color('removedBorder'),
      borderStyle: 'double',
      borderWidth: '0 0 0 4px',
      overviewRulerColor: color('removedBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
    removedText: create({
      textDecoration: 'line-through',
      opacity: '0.75',
    }),
    removedLabel: create({
      after: { color: color('removedBorder'), margin: '0 0 0 2em', fontStyle: 'italic' },
    }),
    // Provenance of core lines: a tint, an overview-ruler mark and a ● / ◐ label on each run.
    consensus: create({
      isWholeLine: true,
      backgroundColor: color('consensusBackground'),
      overviewRulerColor: color('consensusForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Full,
    }),
    consensusLabel: create({
      after: { color: color('consensusForeground'), margin: '0 0 0 2em' },
    }),
    promoted: create({
      isWholeLine: true,
      backgroundColor: color('promotedBackground'),
      overviewRulerColor: color('promotedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Full,
    }),
    promotedLabel: create({
      after: { color: color('promotedForeground'), margin: '0 0 0 2em' },
    }),
    // Compare mode: a tint per set, an overview-ruler mark (A left, B right, both centre, neither
    // across) and a glyph label (◧ ◨ ■ □) on each run, so the sets differ without colour too.
    compareOnlyA: compareType('OnlyA', vscode.OverviewRulerLane.Left),
    compareOnlyALabel: compareLabelType('OnlyA'),
    compareOnlyB: compareType('OnlyB', vscode.OverviewRulerLane.Right),
    compareOnlyBLabel: compareLabelType('OnlyB'),
    compareBoth: compareType('Both', vscode.OverviewRulerLane.Center),
    compareBothLabel: compareLabelType('Both'),
    compareNeither: compareType('Neither', vscode.OverviewRulerLane.Full),
    compareNeitherLabel: compareLabelType('Neither'),
  };
}

function compareType(kind: string, lane: vscode.OverviewRulerLane): vscode.TextEditorDecorationType {
  return vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: color(`compare${kind}Background`),
    overviewRulerColor: color(`compare${kind}Foreground`),
    overviewRulerLane: lane,
  });
}

function compareLabelType(kind: string): vscode.TextEditorDecorationType {
  return vscode.window.createTextEditorDecorationType({
    after: { color: color(`compare${kind}Foreground`), margin: '0 0 0 2em', fontWeight: 'bold' },
  });
}

type DecorationTypes = ReturnType<typeof createDecorationTypes>;
export type LayerName = keyof DecorationTypes;

/** Paints the current instance's layers on every visible editor of its snapshot. */
export class DecorationController extends Disposable {
  private readonly types: DecorationTypes = createDecorationTypes();
  private layers: LayerSettings = readLayerSettings();
  /** Milliseconds the last full repaint took. */
  lastPaintMs = 0;
  /** Full repaints so far (tests check that unrelated changes cause none). */
  paintCount = 0;
  /**
   * What each visible editor last received, per layer, as 1-based line ranges. The VS Code API
   * cannot read decorations back, so this is how integration tests check the painted ranges.
   */
  readonly applied = new Map<string, Partial<Record<LayerName, [number, number][]>>>();
  /** When each document last received the instance's layers (performance.now()), for latency figures. */
  readonly paintedAt = new Map<string, number>();

  constructor(private readonly store: Store) {
    super();
    for (const type of Object.values(this.types)) this.register(type);
    // Background line counts of other instances change nothing on screen.
    this.register(
      store.onDidChange((change) => {
        if (changesView(change)) this.paintAll();
      }),
    );
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.paintAll()));
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING_GROUPS.layers)) {
          this.layers = readLayerSettings();
          this.paintAll();
        }
      }),
    );
  }

  paintAll(): void {
    const started = performance.now();
    this.paintCount++;
    const view = this.store.view;
    this.applied.clear();
    for (const editor of vscode.window.visibleTextEditors) this.paint(editor, view);
    this.lastPaintMs = performance.now() - started;
  }

  private paint(editor: vscode.TextEditor, view: InstanceView | undefined): void {
    const path = snapshotPathOf(view, editor.document.uri);
    const layers = this.layers;
    const ranges = (set: IntervalSet | undefined, on: boolean): vscode.Range[] =>
      on && set !== undefined ? set.filter(([s]) => s <= editor.document.lineCount).map(([s, e]) => lineRange(s, e, editor.document)) : [];
    const painted: Partial<Record<LayerName, [number, number][]>> = {};
    this.applied.set(editor.document.uri.toString(), painted);
    const set = (layer: LayerName, decorations: readonly (vscode.Range | vscode.DecorationOptions)[]): void => {
      editor.setDecorations(this.types[layer], decorations as vscode.DecorationOptions[]);
      painted[layer] = decorations.map((d) => {
        const range = d instanceof vscode.Range ? d : d.range;
        return [range.start.line + 1, range.end.line + 1];
      });
    };
    if (view === undefined || path === undefined) {
      for (const layer of Object.keys(this.types) as LayerName[]) set(layer, []);
      return;
    }
    const { lines } = view.explanation;
    this.paintedAt.set(editor.document.uri.toString(), performance.now());
    const optional = this.visibleOptional(view, layers);
    const predicted = lines.predicted.get(path) ?? EMPTY_SET;
    const inBudget = lines.inBudget.get(path) ?? EMPTY_SET;
    const missed = lines.missed.get(path);
    const patch = view.patchLines.get(path);
    // Compare mode replaces the single-explorer layers on core lines (core, predictions, badges,
    // missed, provenance): the four compare sets cover every core line, and tints on tints blur.
    const single = view.compared === undefined;

    set('core', ranges(lines.core.get(path), layers.core && single));
    set('optional', ranges(optional.get(path), layers.optional));
    set('inBudget', ranges(inBudget, layers.predictions && single));
    set('overBudget', ranges(subtract(predicted, inBudget), layers.predictions && single));
    set('missed', ranges(missed, layers.missed && single));
    set('missedLabel', layers.missed && single ? missedLabels(editor, missedSpansOf(view).get(path) ?? [], view.explanation.budget) : []);
    set('patch', ranges(patch, layers.patch));
    set('patchLabel', layers.patch ? labels(editor, patch, () => '± gold patch edits here') : []);
    set('badge', layers.predictions && single ? this.badges(editor, view, path) : []);
    this.paintRemovals(editor, view, path, set);
    this.paintProvenance(editor, view, path, single ? layers : { ...layers, consensus: false, promoted: false }, set);
    this.paintCompare(editor, view, path, set);
  }

  /** The four compare sets on this file, each run labelled; empty layers when not comparing. */
  private paintCompare(editor: vscode.TextEditor, view: InstanceView, path: string, set: (layer: LayerName, decorations: readonly (vscode.Range | vscode.DecorationOptions)[]) => void): void {
    const compare = compareOf(view);
    const texts = view.compared === undefined ? undefined : compareLabels(view.explorer, view.compared.explorer);
    for (const layer of ['compareOnlyA', 'compareOnlyB', 'compareBoth', 'compareNeither'] as const) {
      const lines = compare?.[compareKey[layer]].get(path);
      set(
        layer,
        (lines ?? []).filter(([s]) => s <= editor.document.lineCount).map(([s, e]) => lineRange(s, e, editor.document)),
      );
      set(`${layer}Label`, texts === undefined ? [] : labels(editor, lines, () => texts[compareKey[layer]]));
    }
  }

  /** Consensus (read by every trajectory) and promoted (read by fewer) core lines, each run labelled. */
  private paintProvenance(
    editor: vscode.TextEditor,
    view: InstanceView,
    path: string,
    layers: LayerSettings,
    set: (layer: LayerName, decorations: readonly (vscode.Range | vscode.DecorationOptions)[]) => void,
  ): void {
    if (!layers.consensus && !layers.promoted) {
      for (const layer of ['consensus', 'consensusLabel', 'promoted', 'promotedLabel'] as const) set(layer, []);
      return;
    }
    const provenance = provenanceOf(view, this.store.getLineCounts(view.instance.instanceId));
    const info = provenance.paths.get(path);
    const visible = (s: number): boolean => s <= editor.document.lineCount;
    const toRanges = (intervals: IntervalSet | undefined): vscode.Range[] => (intervals ?? []).filter(([s]) => visible(s)).map(([s, e]) => lineRange(s, e, editor.document));
    set('consensus', layers.consensus ? toRanges(info?.consensus) : []);
    set('promoted', layers.promoted ? toRanges(info?.promoted) : []);
    const t = provenance.trajectoryCount;
    const consensusLabels: vscode.DecorationOptions[] = [];
    const promotedLabels: vscode.DecorationOptions[] = [];
    for (const run of info?.runs ?? []) {
      if (!visible(run.start)) continue;
      const consensus = isConsensus(run.readBy.length, t);
      if (consensus ? !layers.consensus : !layers.promoted) continue;
      (consensus ? consensusLabels : promotedLabels).push({
        range: lineRange(run.start, run.start, editor.document),
        renderOptions: { after: { contentText: provenanceLabel(run.readBy.length, t) } },
      });
    }
    set('consensusLabel', consensusLabels);
    set('promotedLabel', promotedLabels);
  }

  /** The audit's effective removals on this file: always shown, whatever the other layers. */
  private paintRemovals(editor: vscode.TextEditor, view: InstanceView, path: string, set: (layer: LayerName, decorations: readonly (vscode.Range | vscode.DecorationOptions)[]) => void): void {
    const here = view.removals.filter((r) => r.path === path && r.start <= editor.document.lineCount);
    const spans: [number, number][] = [];
    for (const r of here) spans.push([r.start, r.end]);
    const merged = normalize(spans);
    const ranges = merged.map(([s, e]) => lineRange(s, e, editor.document));
    set('removed', ranges);
    set('removedText', ranges);
    const drifted = this.store.audit.drifted;
    set(
      'removedLabel',
      here.map((r) => ({
        range: lineRange(r.start, r.start, editor.document),
        renderOptions: {
          after: {
            contentText: plainLabel(removalLabel(r, drifted.has(r.id))),
          },
        },
      })),
    );
  }

  private visibleOptional(view: InstanceView, layers: LayerSettings): LineSet {
    let out: LineSet = new Map();
    for (const [model, set] of view.explanation.lines.optionalByModel) {
      if (!layers.hiddenOptionalModels.includes(model)) out = lineSetUnion(out, set);
    }
    return out;
  }

  /** `#k ✓ in B` badges on the first line of each prediction; entries sharing a line share a badge. */
  private badges(editor: vscode.TextEditor, view: InstanceView, path: string): vscode.DecorationOptions[] {
    const byLine = new Map<number, string[]>();
    for (const p of view.explanation.predictions) {
      if (p.region.path !== path) continue;
      const line = p.resolution.kind === 'resolved' ? Math.max(1, Math.min(p.resolution.start, p.resolution.end)) : 1;
      if (line > editor.document.lineCount) continue;
      const text = `#${p.rank} ${budgetStatusText(p)}`;
      const list = byLine.get(line) ?? [];
      list.push(text);
      byLine.set(line, list);
    }
    return [...byLine].map(([line, texts]) => ({
      range: lineRange(line, line, editor.document),
      renderOptions: { after: { contentText: `  ${texts.join('  ')}` } },
    }));
  }
}

const compareKey = { compareOnlyA: 'onlyA', compareOnlyB: 'onlyB', compareBoth: 'both', compareNeither: 'neither' } as const;

/** The missed-core label on the first line of each missed run inside the document. */
function missedLabels(editor: vscode.TextEditor, spans: readonly MissedSpan[], budget: number): vscode.DecorationOptions[] {
  return spans
    .filter((s) => s.start <= editor.document.lineCount)
    .map((s) => ({ range: lineRange(s.start, s.start, editor.document), renderOptions: { after: { contentText: missedLabel(s, budget) } } }));
}

/** A label (after-text) on the first line of each span. */
function labels(editor: vscode.TextEditor, set: IntervalSet | undefined, text: (start: number, end: number) => string): vscode.DecorationOptions[] {
  if (set === undefined) return [];
  const out: vscode.DecorationOptions[] = [];
  for (const [s, e] of set) {
    if (s > editor.document.lineCount) continue;
    out.push({ range: lineRange(s, s, editor.document), renderOptions: { after: { contentText: text(s, e) } } });
  }
  return out;
}
