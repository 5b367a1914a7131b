/**
 * The Scores view's recall-vs-budget curve of the open instance and explorer: Recall@B at 60 budgets
 * from 1 to twice the selected budget (at least 100, or the list's length up to 5,000).
 */
import { recallAtBudgets } from '../../../core';
import type { InstanceSlice } from '../slices';

const CURVE_POINTS = 60;

/** One point of the curve. */
export interface RecallPoint {
  readonly budget: number;
  readonly recall: number;
}

export const RECALL_CURVE: InstanceSlice<readonly RecallPoint[]> = {
  id: 'recallCurve',
  key: ({ selection: s, groundTruthKey }) => JSON.stringify([s.explorer, s.budget, s.topK, groundTruthKey]),
  compute: ({ view, selection }) => {
    if (view === undefined) return [];
    const lineOccurrences = view.explanation.predictions.reduce((sum, p) => sum + p.lines, 0);
    const curveMax = Math.max(100, selection.budget * 2, Math.min(lineOccurrences, 5000));
    const budgets: number[] = [];
    for (let i = 1; i <= CURVE_POINTS; i++) budgets.push(Math.max(1, Math.round((curveMax * i) / CURVE_POINTS)));
    // One call for the whole curve: the core walks the predicted lines once for all budgets.
    const recalls = recallAtBudgets(view.prepared, budgets);
    return budgets.map((budget, i) => ({ budget, recall: recalls[i]! }));
  },
};
