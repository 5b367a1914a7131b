/**
 * What is derived from one instance view and read by several painters (decorations, hover, trees,
 * commands): computed on first read and kept as long as the view object lives, so a repaint or a
 * hover never computes it again.
 */
import { compareLineSets, computeProvenance, type CompareReach, type Provenance } from '../../core';
import { repoPathOf } from '../../data';
import type { MissedSpan } from '../../shared/texts';
import type { InstanceView } from '../state/store';
import { missedSpansByPath } from './lineFacts';

const provenanceCache = new WeakMap<InstanceView, Provenance>();
const missedCache = new WeakMap<InstanceView, ReadonlyMap<string, readonly MissedSpan[]>>();
const compareCache = new WeakMap<InstanceView, CompareReach>();

/**
 * Provenance of the view's core lines (which trajectories read them), on the audited core regions,
 * so removed lines are neither consensus nor promoted.
 */
export function provenanceOf(view: InstanceView, lineCounts: ReadonlyMap<string, number> | undefined): Provenance {
  let provenance = provenanceCache.get(view);
  if (provenance === undefined) {
    const record = view.instance.record;
    const meta = record.meta;
    provenance = computeProvenance({
      readStepInfo: record.read_step_info ?? null,
      coreRegions: view.explanation.coreRegions.map((r) => r.region),
      lineCounts: lineCounts ?? new Map<string, number>(),
      numTrajectories: meta !== null && meta !== undefined && Object.hasOwn(meta, 'num_trajectories') ? meta['num_trajectories'] : undefined,
    });
    provenanceCache.set(view, provenance);
  }
  return provenance;
}

/** The view's missed core lines per file, split at category boundaries, each with what its sentence names. */
export function missedSpansOf(view: InstanceView): ReadonlyMap<string, readonly MissedSpan[]> {
  let spans = missedCache.get(view);
  if (spans === undefined) {
    spans = missedSpansByPath({ explanation: view.explanation, anatomy: view.anatomy, prepared: view.prepared, repoPath: repoPathOf(view.instance) });
    missedCache.set(view, spans);
  }
  return spans;
}

/**
 * The four compare sets of the view while comparing, undefined otherwise. The reach of each
 * explorer is its miss anatomy's `hit` lines, which the view has computed already.
 */
export function compareOf(view: InstanceView | undefined): CompareReach | undefined {
  const compared = view?.compared;
  if (view === undefined || compared === undefined) return undefined;
  let reach = compareCache.get(view);
  if (reach === undefined) {
    reach = compareLineSets(view.prepared.core, view.anatomy.spans.hit, compared.anatomy.spans.hit);
    compareCache.set(view, reach);
  }
  return reach;
}
