/**
 * Fitting a wide table into a terminal: the columns after the key columns (instance, explorer) are
 * split into panels that each fit the width with the key columns repeated, so no cell is ever cut
 * (a number is never truncated; an over-long key cell overflows its line rather than lose text).
 * Pure: the caller decides the width (the terminal's, `--width`, or 0 for one panel).
 */

/** Space between two columns. */
export const COLUMN_GAP = 2;

/** Width of the key columns plus `columns`, with the gaps between them. */
function panelWidth(widths: readonly number[], keyColumns: number, columns: readonly number[]): number {
  let total = 0;
  let count = 0;
  const add = (i: number): void => {
    total += (count === 0 ? 0 : COLUMN_GAP) + widths[i]!;
    count++;
  };
  for (let i = 0; i < keyColumns && i < widths.length; i++) add(i);
  for (const i of columns) add(i);
  return total;
}

/** The columns after the keys split into `count` panels of near-equal column counts, in order. */
function evenPanels(first: number, last: number, count: number): number[][] {
  const panels: number[][] = [];
  let next = first;
  for (let p = 0; p < count; p++) {
    const take = Math.ceil((last - next) / (count - p));
    const panel: number[] = [];
    for (let i = 0; i < take; i++) panel.push(next++);
    panels.push(panel);
  }
  return panels;
}

/**
 * Column indices (after the first `keyColumns`) per panel, in order. `width` 0, or a width the
 * whole table fits in, gives one panel. Otherwise the fewest panels that fit, with their columns
 * shared out evenly (17 metrics in 100 columns: 6 + 6 + 5, not 8 + 8 + 1); a panel whose one
 * column is still too wide holds just that column.
 */
export function columnPanels(widths: readonly number[], keyColumns: number, width: number): number[][] {
  const first = Math.min(keyColumns, widths.length);
  const all = evenPanels(first, widths.length, 1);
  if (width <= 0 || panelWidth(widths, keyColumns, all[0]!) <= width) return all;
  const fits = (panels: readonly number[][]): boolean => panels.every((panel) => panel.length === 1 || panelWidth(widths, keyColumns, panel) <= width);
  for (let count = 2; count < widths.length - first; count++) {
    const panels = evenPanels(first, widths.length, count);
    if (fits(panels)) return panels;
  }
  return evenPanels(first, widths.length, widths.length - first);
}

/** `text` broken at spaces into lines no wider than `width` (a longer word keeps its own line). */
export function wrapText(text: string, width: number): string[] {
  return wrapItems(text.split(' '), width, ' ', '');
}

/**
 * `items` joined by `separator` into lines no wider than `width` (an item longer than the width
 * gets a line of its own), each line starting with `indent` after the first.
 */
export function wrapItems(items: readonly string[], width: number, separator = ' · ', indent = '  '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const next = line === '' ? item : `${line}${separator}${item}`;
    if (line !== '' && next.length > width) {
      lines.push(line);
      line = `${indent}${item}`;
    } else {
      line = next;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
