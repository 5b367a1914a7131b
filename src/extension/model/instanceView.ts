/**
 * The open instance, scored and explained for the selection: what every painter reads. Built by
 * the model once per change (pure; no `vscode`).
 */
import {
  explainInstance,
  missAnatomy,
  patchAnatomy,
  patchReach,
  preparePredictions,
  type InstanceExplanation,
  type LineSet,
  type MissAnatomy,
  type OfficialMetrics,
  type PatchAnatomy,
  type PatchReach,
  type PreparedGroundTruth,
  type PreparedInstance,
  type Region,
} from '../../core';
import { repoPathOf, type InstanceEntry, type RemoveEvent } from '../../data';
import type { Selection } from '../state/store';

/** One explorer's list on the open instance, scored and explained. */
export interface ExplorerOnInstance {
  readonly explorer: string | undefined;
  /** False when the explorer has no row for the instance: its scores are missing, not zero. */
  readonly hasRow: boolean;
  /** The scored list: the explorer's row sliced to top-k (empty without an explorer or a row). */
  readonly predictions: readonly Region[];
  readonly prepared: PreparedInstance;
  readonly explanation: InstanceExplanation;
  /** Why each core line was or was not reached within the budget. */
  readonly anatomy: MissAnatomy;
  /**
   * Whether the list reaches the lines the gold patch edits within B, and by which ranks; null when
   * the record has no patch (issue 16: "did it reach the lines the fix changes?").
   */
  readonly patchReach: PatchReach | null;
  /** The patch lines inside each anatomy category (the anatomy's patch markers); null without a patch. */
  readonly patchAnatomy: PatchAnatomy | null;
}

/** The current instance, scored and explained for the current explorer, budget, profile and ground truth. */
export interface InstanceView extends ExplorerOnInstance {
  readonly instance: InstanceEntry;
  /** Explorer B of compare mode on the same instance, budget and profile; undefined when not comparing. */
  readonly compared: ExplorerOnInstance | undefined;
  /** Base lines the gold patch edits. */
  readonly patchLines: LineSet;
  /** False while the snapshot's line counts are still being read. */
  readonly lineCountsReady: boolean;
  /** Milliseconds this view took to compute. */
  readonly computeMs: number;
  /** The instance's effective removals (every author's), in audit-log order; empty when unaudited or the audit is not applied. */
  readonly removals: readonly RemoveEvent[];
  /**
   * Scores on the ground truth as written; undefined when the numbers already use it (no removal
   * applies and no other source is chosen).
   */
  readonly original: OriginalScores | undefined;
  /** Which ground truth the numbers use, for captions: "as written", "audited", "what-if: …". */
  readonly groundTruthLabel: string;
}

/** The open instance's numbers on the ground truth as written, for the before → after display. */
export interface OriginalScores {
  readonly metrics: OfficialMetrics;
  readonly ndcgAtBudget: number;
  readonly recallAtBudget: number;
}

/** What a view is built from. */
export interface ViewInputs {
  readonly instance: InstanceEntry;
  readonly selection: Selection;
  readonly groundTruth: PreparedGroundTruth;
  /** The bench as written, when the effective ground truth differs from it. */
  readonly asWritten: PreparedGroundTruth | undefined;
  readonly groundTruthLabel: string;
  readonly lineCountsReady: boolean;
  readonly removals: readonly RemoveEvent[];
  readonly patchLines: LineSet;
  /** An explorer's list on the instance (top-k), and whether it has a row there. */
  readonly listOf: (explorer: string | undefined) => { readonly predictions: readonly Region[]; readonly hasRow: boolean };
  /** Whether compare mode's explorer B is loaded. */
  readonly hasExplorer: (explorer: string) => boolean;
}

export function buildInstanceView(inputs: ViewInputs): InstanceView {
  const started = performance.now();
  const { instance, selection, groundTruth } = inputs;
  const { budget } = selection;
  const repoPath = repoPathOf(instance);
  const hasPatch = (instance.record.patch ?? '').trim() !== '';
  const onInstance = (explorer: string | undefined): ExplorerOnInstance => {
    const { predictions, hasRow } = inputs.listOf(explorer);
    const prepared = preparePredictions(groundTruth, predictions);
    const anatomy = missAnatomy(prepared, budget, { repoPath });
    return {
      explorer,
      hasRow,
      predictions,
      prepared,
      explanation: explainInstance(prepared, budget),
      anatomy,
      patchReach: hasPatch ? patchReach(prepared, budget, inputs.patchLines) : null,
      patchAnatomy: hasPatch ? patchAnatomy(anatomy, inputs.patchLines) : null,
    };
  };
  const main = onInstance(selection.explorer);
  const { compareWith } = selection;
  const compared = compareWith !== undefined && inputs.hasExplorer(compareWith) ? onInstance(compareWith) : undefined;
  let original: OriginalScores | undefined;
  if (inputs.asWritten !== undefined) {
    const before = explainInstance(preparePredictions(inputs.asWritten, main.predictions), budget);
    original = { metrics: before.metrics, ndcgAtBudget: before.ndcg.ndcg, recallAtBudget: before.recallAtBudget };
  }
  return {
    ...main,
    instance,
    compared,
    patchLines: inputs.patchLines,
    lineCountsReady: inputs.lineCountsReady,
    removals: inputs.removals,
    original,
    groundTruthLabel: inputs.groundTruthLabel,
    computeMs: performance.now() - started,
  };
}
