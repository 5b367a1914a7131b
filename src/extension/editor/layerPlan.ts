/**
 * What each editor layer shows on one file of the open instance: runs of lines, and labels on the
 * first line of a run. Pure (no `vscode`), so it is unit-tested; the painter (decorations.ts) only
 * turns a plan into ranges. Everything here is read from the model (the view and its slices) and
 * worded by src/shared/texts.ts; the plan only picks what the layer settings show and drops what
 * lies past the end of the document.
 */
import { EMPTY_SET, lineSetUnion, normalize, subtract, type CompareReach, type IntervalSet, type LineSet, type Provenance } from '../../core';
import { budgetStatusText, compareLabels, isConsensus, missedLabel, plainLabel, provenanceLabel, removalLabel, type MissedSpan } from '../../shared/texts';
import type { LayerSettings } from '../base/settings';
import type { InstanceView } from '../model/instanceView';

/** Every decoration layer, in paint order. Each has its own decoration type (decorationTypes.ts). */
export const LAYER_NAMES = [
  'core',
  'optional',
  'inBudget',
  'overBudget',
  'missed',
  'missedLabel',
  'patch',
  'patchLabel',
  'badge',
  'removed',
  'removedText',
  'removedLabel',
  'consensus',
  'consensusLabel',
  'promoted',
  'promotedLabel',
  'compareOnlyA',
  'compareOnlyALabel',
  'compareOnlyB',
  'compareOnlyBLabel',
  'compareBoth',
  'compareBothLabel',
  'compareNeither',
  'compareNeitherLabel',
] as const;

export type LayerName = (typeof LAYER_NAMES)[number];

/** Lines `start`–`end` (1-based), or with a label: an after-text on line `start`. */
export interface Mark {
  readonly start: number;
  readonly end: number;
  readonly label?: string;
}

export type LayerPlan = Readonly<Record<LayerName, readonly Mark[]>>;

/** What a file's plan is made from: the view, its slices, the audit's drift flags and the layer settings. */
export interface PlanInput {
  readonly view: InstanceView;
  readonly path: string;
  /** Lines of the document: runs starting past its end are not painted. */
  readonly lineCount: number;
  readonly layers: LayerSettings;
  readonly missedSpans: ReadonlyMap<string, readonly MissedSpan[]> | undefined;
  readonly provenance: Provenance | undefined;
  readonly compare: CompareReach | undefined;
  /** Ids of removals whose text no longer matches the snapshot. */
  readonly drifted: ReadonlySet<string>;
}

/** A plan that paints nothing: for editors outside the open instance's snapshot. */
export function emptyPlan(): LayerPlan {
  return Object.fromEntries(LAYER_NAMES.map((layer) => [layer, []])) as unknown as LayerPlan;
}

const COMPARE_LAYERS = { compareOnlyA: 'onlyA', compareOnlyB: 'onlyB', compareBoth: 'both', compareNeither: 'neither' } as const;

export function planLayers(input: PlanInput): LayerPlan {
  const { view, path, lineCount, layers } = input;
  const plan: Record<LayerName, readonly Mark[]> = { ...emptyPlan() };
  const visible = (start: number): boolean => start <= lineCount;
  const runs = (set: IntervalSet | undefined, on = true): Mark[] => (on && set !== undefined ? set.filter(([s]) => visible(s)).map(([start, end]) => ({ start, end })) : []);
  const labelled = (set: IntervalSet | undefined, label: string): Mark[] => runs(set).map(({ start }) => ({ start, end: start, label }));
  const { lines, budget } = view.explanation;
  // Compare mode replaces the single-explorer layers on core lines (core, predictions, badges,
  // missed, provenance): the four compare sets cover every core line, and tints on tints blur.
  const single = view.compared === undefined;
  const inBudget = lines.inBudget.get(path) ?? EMPTY_SET;
  plan.core = runs(lines.core.get(path), layers.core && single);
  plan.optional = runs(visibleOptional(view, layers).get(path), layers.optional);
  plan.inBudget = runs(inBudget, layers.predictions && single);
  plan.overBudget = runs(subtract(lines.predicted.get(path) ?? EMPTY_SET, inBudget), layers.predictions && single);
  plan.missed = runs(lines.missed.get(path), layers.missed && single);
  if (layers.missed && single) plan.missedLabel = (input.missedSpans?.get(path) ?? []).filter((s) => visible(s.start)).map((s) => ({ start: s.start, end: s.start, label: missedLabel(s, budget) }));
  const patch = view.patchLines.get(path);
  plan.patch = runs(patch, layers.patch);
  if (layers.patch) plan.patchLabel = labelled(patch, '± gold patch edits here');
  if (layers.predictions && single) plan.badge = badges(view, path, lineCount);
  Object.assign(plan, removals(input));
  Object.assign(plan, provenance(input, single ? layers : { ...layers, consensus: false, promoted: false }));
  const compare = input.compare;
  if (compare !== undefined && view.compared !== undefined) {
    const texts = compareLabels(view.explorer, view.compared.explorer);
    for (const [layer, set] of Object.entries(COMPARE_LAYERS) as [keyof typeof COMPARE_LAYERS, keyof typeof texts][]) {
      plan[layer] = runs(compare[set].get(path));
      plan[`${layer}Label`] = labelled(compare[set].get(path), texts[set]);
    }
  }
  return plan;
}

/** The optional lines of the models the settings show. */
function visibleOptional(view: InstanceView, layers: LayerSettings): LineSet {
  let out: LineSet = new Map();
  for (const [model, set] of view.explanation.lines.optionalByModel) if (!layers.hiddenOptionalModels.includes(model)) out = lineSetUnion(out, set);
  return out;
}

/** `#k ✓ in budget` badges on the first line of each prediction; entries sharing a line share a badge. */
function badges(view: InstanceView, path: string, lineCount: number): Mark[] {
  const byLine = new Map<number, string[]>();
  for (const p of view.explanation.predictions) {
    if (p.region.path !== path) continue;
    const line = p.resolution.kind === 'resolved' ? Math.max(1, Math.min(p.resolution.start, p.resolution.end)) : 1;
    if (line > lineCount) continue;
    const list = byLine.get(line) ?? [];
    list.push(`#${p.rank} ${budgetStatusText(p)}`);
    byLine.set(line, list);
  }
  return [...byLine].map(([line, texts]) => ({ start: line, end: line, label: `  ${texts.join('  ')}` }));
}

/** The audit's effective removals on this file: always shown, whatever the other layers. */
function removals({ view, path, lineCount, drifted }: PlanInput): Pick<LayerPlan, 'removed' | 'removedText' | 'removedLabel'> {
  const here = view.removals.filter((r) => r.path === path && r.start <= lineCount);
  const merged = normalize(here.map((r): [number, number] => [r.start, r.end])).map(([start, end]) => ({ start, end }));
  return { removed: merged, removedText: merged, removedLabel: here.map((r) => ({ start: r.start, end: r.start, label: plainLabel(removalLabel(r, drifted.has(r.id))) })) };
}

/** Consensus (read by every trajectory) and promoted (read by fewer) core lines, each run labelled. */
function provenance({ path, lineCount, provenance }: PlanInput, layers: LayerSettings): Pick<LayerPlan, 'consensus' | 'consensusLabel' | 'promoted' | 'promotedLabel'> {
  const none = { consensus: [], consensusLabel: [], promoted: [], promotedLabel: [] };
  const info = provenance?.paths.get(path);
  if (provenance === undefined || info === undefined || (!layers.consensus && !layers.promoted)) return none;
  const runs = (set: IntervalSet, on: boolean): Mark[] => (on ? set.filter(([s]) => s <= lineCount).map(([start, end]) => ({ start, end })) : []);
  const t = provenance.trajectoryCount;
  const consensusLabel: Mark[] = [];
  const promotedLabel: Mark[] = [];
  for (const run of info.runs) {
    if (run.start > lineCount) continue;
    const consensus = isConsensus(run.readBy.length, t);
    if (consensus ? !layers.consensus : !layers.promoted) continue;
    (consensus ? consensusLabel : promotedLabel).push({ start: run.start, end: run.start, label: provenanceLabel(run.readBy.length, t) });
  }
  return { consensus: runs(info.consensus, layers.consensus), consensusLabel, promoted: runs(info.promoted, layers.promoted), promotedLabel };
}
