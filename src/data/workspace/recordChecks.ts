/**
 * Checks of one record for `validate.ts`: where a problem sits in the record (its JSON path, and
 * so its column), and the shape, path and line-count checks of its regions.
 *
 * Loops over regions pause now and then (see {@link forEachPausing}): one prediction row may hold
 * 100,000 regions, and validation also runs inside the extension host.
 */
import { resolveRegion } from '../../core/resolve';
import type { Region } from '../../core/types';
import { JsonLocator } from '../io/jsonLocator';
import type { JsonlItem } from '../formats/jsonl';
import { LINE_COUNT_FAILURE_CODES, lineCountFailureSeverity, lineCountFailureText, type LineCountFailure } from './lineCounts';
import { RESOLVE_FAILURE_TEXT, lexicalFailure } from '../io/paths';
import type { Problem, ProblemCode, Severity } from '../io/problems';
import type { BenchRecord, PredictionRow } from '../formats/schemas';

/** A yield point (see `createYielder`): returns a promise to await when it is time to yield. */
export type Pause = () => Promise<void> | undefined;

/** How many items a loop handles between two looks at the clock. */
const ITEMS_PER_PAUSE_CHECK = 256;

/** `items.forEach(fn)`, giving `pause` a chance every {@link ITEMS_PER_PAUSE_CHECK} items. */
export async function forEachPausing<T>(items: readonly T[], pause: Pause, fn: (item: T, index: number) => void): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    fn(items[i]!, i);
    if (i % ITEMS_PER_PAUSE_CHECK === ITEMS_PER_PAUSE_CHECK - 1) {
      const waiting = pause();
      if (waiting !== undefined) await waiting;
    }
  }
}

/** A region to check, with where it sits in its record. */
export interface RegionRef {
  readonly region: Region;
  readonly jsonPath: readonly PropertyKey[];
  /** How the message names it: `core region #2`, `prediction #3`, … */
  readonly label: string;
}

/** A record being checked: where it is, what it references. */
export interface RecordRef {
  readonly file: string;
  readonly item: JsonlItem<unknown>;
  readonly instanceId: string;
  readonly regions: readonly RegionRef[];
  /** Paths referenced outside regions (core files), with their JSON location. */
  readonly otherPaths: ReadonlyArray<{ readonly path: string; readonly jsonPath: readonly PropertyKey[] }>;
}

function describeRegion(r: Region): string {
  return `(${JSON.stringify(r.path)}, ${r.start}, ${r.end})`;
}

export function benchRef(file: string, item: JsonlItem<BenchRecord>): RecordRef {
  const gt = item.value.ground_truth;
  const regions: RegionRef[] = gt.read_core_regions.map((r, i) => ({
    region: r,
    jsonPath: ['ground_truth', 'read_core_regions', i],
    label: `core region #${i + 1}`,
  }));
  for (const [model, list] of Object.entries(gt.read_optional_regions_map)) {
    list.forEach((r, i) => regions.push({ region: r, jsonPath: ['ground_truth', 'read_optional_regions_map', model, i], label: `optional region #${i + 1} of ${model}` }));
  }
  const otherPaths = gt.read_core_files.map((p, i) => ({ path: p, jsonPath: ['ground_truth', 'read_core_files', i] }));
  return { file, item, instanceId: item.value.instance_id, regions, otherPaths };
}

export function predictionRef(file: string, item: JsonlItem<PredictionRow>): RecordRef {
  return {
    file,
    item,
    instanceId: item.value.instance_id,
    regions: item.value.regions.map((r, i) => ({ region: r, jsonPath: ['regions', i], label: `prediction #${i + 1}` })),
    otherPaths: [],
  };
}

/** Collects problems of one record with consistent location and instance id. */
export class Reporter {
  readonly problems: Problem[] = [];
  /** Built on the first problem: one index of the line serves all of them (see JsonLocator). */
  private locator: JsonLocator | undefined;

  constructor(private readonly ref: RecordRef) {}

  add(severity: Severity, code: ProblemCode, message: string, jsonPath: readonly PropertyKey[] = []): void {
    this.locator ??= new JsonLocator(this.ref.item.raw);
    const offset = this.locator.locate(jsonPath);
    this.problems.push({
      file: this.ref.file,
      line: this.ref.item.line,
      ...(offset !== undefined ? { column: offset + 1 } : {}),
      severity,
      code,
      message,
      instanceId: this.ref.instanceId,
    });
  }
}

/** What is known about an instance's snapshot after looking at it. */
export interface SnapshotState {
  readonly counts: ReadonlyMap<string, number>;
  readonly failures: ReadonlyMap<string, LineCountFailure>;
  /** False when no snapshot was consulted (root disabled or folder missing). */
  readonly available: boolean;
}

/** Shape checks plus, where a line count is known, EOF and resolution checks of one region. */
export function checkRegion(rep: Reporter, ref: RegionRef, snapshot: SnapshotState): void {
  const { region, jsonPath, label } = ref;
  const { start, end } = region;
  const needsCount = end === -1 || start < 0;
  if (!needsCount && end < 1) {
    rep.add('warning', 'unresolvable-region', `${label} ${describeRegion(region)}: end ${end} is not a line (only -1 means "to the end of the file"); the evaluator resolves it to no lines`, jsonPath);
    return;
  }
  const lines = snapshot.counts.get(region.path);
  if (!needsCount) {
    if (start > end) {
      rep.add('warning', 'inverted-region', `${label} ${describeRegion(region)} has start > end and covers no line`, jsonPath);
    } else if (lines !== undefined && end > lines) {
      rep.add(
        'warning',
        'region-past-eof',
        `${label} ${describeRegion(region)} ends past the last line (${lines}) of the file; the evaluator does not clip it, so ${end - Math.max(lines, Math.max(1, start) - 1)} line(s) beyond EOF count`,
        jsonPath,
      );
    }
    return;
  }
  if (lines === undefined) return; // no count: either no snapshot, or the missing file is reported already
  const resolution = resolveRegion(region, lines);
  if (resolution.kind === 'unresolvable') {
    rep.add('warning', 'unresolvable-region', `${label} ${describeRegion(region)} needs the line count, but the file is empty; it resolves to no lines`, jsonPath);
  } else if (resolution.start > resolution.end) {
    rep.add('warning', 'inverted-region', `${label} ${describeRegion(region)} resolves to (${resolution.start}, ${resolution.end}) on a ${lines}-line file and covers no line`, jsonPath);
  }
}

/** Lexical path checks of a record; returns the paths that are safe to look up. */
export async function checkPaths(rep: Reporter, ref: RecordRef, pause: Pause): Promise<Set<string>> {
  const safe = new Set<string>();
  const reported = new Set<string>();
  const visit = (p: string, jsonPath: readonly PropertyKey[]): void => {
    const failure = lexicalFailure(p);
    if (failure === undefined) {
      safe.add(p);
      return;
    }
    if (reported.has(p)) return;
    reported.add(p);
    rep.add(lineCountFailureSeverity(failure), LINE_COUNT_FAILURE_CODES[failure], `path ${JSON.stringify(p)} ${RESOLVE_FAILURE_TEXT[failure]}; it is never read from the snapshot`, jsonPath);
  };
  await forEachPausing(ref.regions, pause, (r) => visit(r.region.path, [...r.jsonPath, 'path']));
  await forEachPausing(ref.otherPaths, pause, (o) => visit(o.path, o.jsonPath));
  return safe;
}

/** Reports each snapshot failure of a path the record references, once per record. */
export async function reportSnapshotFailures(rep: Reporter, ref: RecordRef, snapshot: SnapshotState, pause: Pause): Promise<void> {
  const seen = new Set<string>();
  const visit = (p: string, jsonPath: readonly PropertyKey[]): void => {
    const failure = snapshot.failures.get(p);
    if (failure === undefined || seen.has(p)) return;
    seen.add(p);
    rep.add(lineCountFailureSeverity(failure), LINE_COUNT_FAILURE_CODES[failure], `file ${JSON.stringify(p)} ${lineCountFailureText(failure)}`, jsonPath);
  };
  await forEachPausing(ref.regions, pause, (r) => visit(r.region.path, [...r.jsonPath, 'path']));
  await forEachPausing(ref.otherPaths, pause, (o) => visit(o.path, o.jsonPath));
}

export function checkBenchOnly(rep: Reporter, record: BenchRecord): void {
  const gt = record.ground_truth;
  const corePaths = new Set(gt.read_core_regions.map((r) => r.path));
  gt.read_core_files.forEach((p, i) => {
    if (!corePaths.has(p)) {
      rep.add('warning', 'core-file-without-region', `core file ${JSON.stringify(p)} has no core region`, ['ground_truth', 'read_core_files', i]);
    }
  });
}

export async function checkPredictionOnly(rep: Reporter, row: PredictionRow, known: boolean, pause: Pause): Promise<void> {
  if (!known) {
    rep.add('warning', 'unknown-instance', `prediction for instance ${JSON.stringify(row.instance_id)}, which the bench file does not contain`, ['instance_id']);
  }
  if (row.num_regions !== undefined && row.num_regions !== null && row.num_regions !== row.regions.length) {
    rep.add('warning', 'num-regions-mismatch', `num_regions is ${row.num_regions} but the row lists ${row.regions.length} region(s)`, ['num_regions']);
  }
  const first = new Map<string, number>();
  await forEachPausing(row.regions, pause, (r, i) => {
    const key = JSON.stringify([r.path, r.start, r.end]);
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, i);
      return;
    }
    rep.add('warning', 'duplicate-prediction', `prediction #${i + 1} ${describeRegion(r)} repeats prediction #${earlier + 1}; it adds no line but still takes a rank and budget`, ['regions', i]);
  });
}
