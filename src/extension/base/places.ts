/**
 * Positional navigation over places of the open instance (missed spans, core regions, compare
 * differences): which place comes next after the cursor. Pure, so it is unit-tested; opening the
 * place is navigation.ts's.
 */

/** A place in the snapshot: region path and 1-based inclusive line range. */
export interface Place {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

/** Arguments of `sweExplore.revealRegion`: a region of the open instance by index or rank, or a place named directly. */
export type RevealTarget =
  | { readonly kind: 'core'; readonly index: number }
  | { readonly kind: 'optional'; readonly index: number }
  | { readonly kind: 'prediction'; readonly rank: number }
  | { readonly kind: 'place'; readonly path: string; readonly start: number; readonly end: number };

/** Where the cursor is: a snapshot path and 1-based line, or no snapshot file at all. */
export interface Cursor {
  readonly path: string | undefined;
  readonly line: number;
}

export interface NextPlaceOptions<T extends Place> {
  /**
   * How files follow each other: `listed`, in the order they first appear among the places (core
   * order; a cursor in a file without places then goes to the first or last place); `path`, by
   * path in code-unit order (compare differences, which any snapshot file can be placed among).
   */
  readonly files: 'listed' | 'path';
  /**
   * The line the cursor really lands on: a span past the end of its file opens at the last line,
   * and comparing there keeps "next" from returning to the same span. Default: the start.
   */
  readonly landing?: (place: T) => number;
}

/**
 * The place after (`direction` 1) or before (−1) the cursor, across the instance's files, lines
 * ascending within a file, wrapping around at either end; undefined only when there is no place. A
 * cursor outside the snapshot goes to the first (last) place.
 */
export function nextPlace<T extends Place>(places: readonly T[], cursor: Cursor | undefined, direction: 1 | -1, options: NextPlaceOptions<T>): T | undefined {
  if (places.length === 0) return undefined;
  const landing = options.landing ?? ((place: T): number => place.start);
  const listed = new Map<string, number>();
  for (const place of places) if (!listed.has(place.path)) listed.set(place.path, listed.size);
  const fileOrder = (a: string, b: string): number => (options.files === 'listed' ? listed.get(a)! - listed.get(b)! : a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...places].sort((a, b) => fileOrder(a.path, b.path) || landing(a) - landing(b));
  const path = cursor?.path;
  if (cursor === undefined || path === undefined || (options.files === 'listed' && !listed.has(path))) return direction === 1 ? sorted[0] : sorted[sorted.length - 1];
  const fromCursor = (place: T): number => fileOrder(place.path, path) || landing(place) - cursor.line;
  if (direction === 1) return sorted.find((place) => fromCursor(place) > 0) ?? sorted[0];
  for (let i = sorted.length - 1; i >= 0; i--) if (fromCursor(sorted[i]!) < 0) return sorted[i];
  return sorted[sorted.length - 1];
}
