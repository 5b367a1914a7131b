/**
 * What each editor layer shows on one file of the open instance: runs of lines, and labels on the
 * first line of a run. Pure (no `vscode`), so it is unit-tested; the painter (decorations.ts) only
 * turns a plan into ranges. Everything here is read from the model (the view and its slices) and
 * worded by src/shared/texts.ts; the plan only picks what the layer settings show and drops what
 * lies past the end of the document.
 */
import { EMPTY_SET, intersect, lineSetUnion, lineViewing, normalize, subtract, type CompareReach, type IntervalSet, type LineSet, type Provenance, type ViewedLines } from '../../core';
import { budgetStatusText, compareLabels, missedLabel, patchLineLabel, plainLabel, provenanceLabel, rangedReadsLabel, removalLabel, viewingLabel, type MissedSpan } from '../../shared/texts';
import { rangedReadLines, rangedReadRuns, type ResolvedReadStep } from '../model/slices/readSteps';
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
  'rangedReads',
  'rangedReadsMany',
  'rangedReadsLabel',
  'compareOnlyA',
  'compareOnlyALabel',
  'compareOnlyB',
  'compareOnlyBLabel',
  'compareBoth',
  'compareBothLabel',
  'compareNeither',
  'compareNeitherLabel',
  'viewed',
  'viewedLabel',
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
  /** What explorer A's own run viewed, once it is read (undefined: no run, or not read yet). */
  readonly viewed: ViewedLines | undefined;
  /** The instance's read steps per path (whole-file and ranged). */
  readonly readSteps: ReadonlyMap<string, readonly ResolvedReadStep[]> | undefined;
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
  if (layers.patch) plan.patchLabel = patchLabels(view, path, visible);
  if (layers.predictions && single) plan.badge = badges(view, path, lineCount);
  Object.assign(plan, removals(input));
  Object.assign(plan, provenance(input, single ? layers : { ...layers, consensus: false, promoted: false }));
  if (layers.viewed && single && input.viewed !== undefined) Object.assign(plan, viewedLayers(input.viewed, lines.missed.get(path), path, lineCount));
  if (layers.rangedReads && single) Object.assign(plan, rangedReads(input));
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

/**
 * The explorer's run on this file: a glyph on every line it viewed, and on each missed core span a
 * label that says whether the run saw it (a span split where the run's view starts or stops).
 */
function viewedLayers(viewed: ViewedLines, missed: IntervalSet | undefined, path: string, lineCount: number): Pick<LayerPlan, 'viewed' | 'viewedLabel'> {
  const shown = viewed.files.get(path)?.lines ?? EMPTY_SET;
  const marks = shown.filter(([s]) => s <= lineCount).map(([start, end]) => ({ start, end: Math.min(end, lineCount) }));
  const labels: Mark[] = [];
  if (missed !== undefined) {
    const seen = intersect(missed, shown);
    const pieces = [...seen, ...subtract(missed, shown)].sort((a, b) => a[0] - b[0]);
    for (const [start] of pieces) if (start <= lineCount) labels.push({ start, end: start, label: plainLabel(viewingLabel(lineViewing(viewed, path, start))) });
  }
  return { viewed: marks, viewedLabel: labels };
}

/**
 * A label on the first line of each run of patch lines of `path`, saying whether the shown list
 * reaches it within B (outside compare mode): a run is split where reached and missed lines meet,
 * so a missed patch line never hides under a reached one's label.
 */
function patchLabels(view: InstanceView, path: string, visible: (start: number) => boolean): Mark[] {
  const patch = view.patchLines.get(path) ?? EMPTY_SET;
  const { budget } = view.explanation;
  const reach = view.compared === undefined ? view.patchReach : null;
  const reached = reach === null ? patch : intersect(patch, reach.reached.get(path) ?? EMPTY_SET);
  const missed = subtract(patch, reached);
  const marks = [...reached.map(([start]) => ({ start, end: start, label: patchLineLabel(true, budget) })), ...missed.map(([start]) => ({ start, end: start, label: patchLineLabel(false, budget) }))];
  return marks.filter((m) => visible(m.start)).sort((a, b) => a.start - b.start);
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

/**
 * The ranged-read heat: lines one ranged read covers, lines two or more cover, and a "◎ n ranged
 * reads" label on each run read two or more times (whole-file reads count nowhere here).
 */
function rangedReads({ path, lineCount, readSteps }: PlanInput): Pick<LayerPlan, 'rangedReads' | 'rangedReadsMany' | 'rangedReadsLabel'> {
  const runs = rangedReadRuns(readSteps?.get(path) ?? []).filter((run) => run.start <= lineCount);
  const marks = (set: IntervalSet): Mark[] => set.map(([start, end]) => ({ start, end }));
  return {
    rangedReads: marks(rangedReadLines(runs, 1, 1)),
    rangedReadsMany: marks(rangedReadLines(runs, 2)),
    rangedReadsLabel: runs.filter((run) => run.reads >= 2).map((run) => ({ start: run.start, end: run.start, label: rangedReadsLabel(run.reads) })),
  };
}

/** Consensus (R_int: read by every trajectory, as the builder intersects) and promoted (the rest of the core) lines, each run labelled. */
function provenance({ path, lineCount, provenance }: PlanInput, layers: LayerSettings): Pick<LayerPlan, 'consensus' | 'consensusLabel' | 'promoted' | 'promotedLabel'> {
  const none = { consensus: [], consensusLabel: [], promoted: [], promotedLabel: [] };
  const info = provenance?.paths.get(path);
  if (provenance === undefined || info === undefined || (!layers.consensus && !layers.promoted)) return none;
  const runs = (set: IntervalSet, on: boolean): Mark[] => (on ? set.filter(([s]) => s <= lineCount).map(([start, end]) => ({ start, end })) : []);
  const t = provenance.trajectoryCount;
  const consensusLabel: Mark[] = [];
  const promotedLabel: Mark[] = [];
  // One label per run of equal readers, split where R_int (consensus) ends: a line every trajectory
  // read only through a tail is promoted although all of them read it. Runs and sets are sorted: one
  // walk over both (each overlap of a run and a span is visited once).
  const walk = (set: IntervalSet, consensus: boolean, into: Mark[]): void => {
    let k = 0;
    for (const run of info.runs) {
      if (run.start > lineCount) break;
      while (k < set.length && set[k]![1] < run.start) k++;
      for (let j = k; j < set.length && set[j]![0] <= run.end; j++) {
        const start = Math.max(run.start, set[j]![0]);
        if (start <= lineCount) into.push({ start, end: start, label: provenanceLabel(run.readBy.length, t, consensus) });
      }
    }
  };
  if (layers.consensus) walk(info.consensus, true, consensusLabel);
  if (layers.promoted) walk(info.promoted, false, promotedLabel);
  return { consensus: runs(info.consensus, layers.consensus), consensusLabel, promoted: runs(info.promoted, layers.promoted), promotedLabel };
}
