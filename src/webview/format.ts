/** Number formatting shared by the Scores view's tables and chart. */

/** True for a real, finite number (the webview re-checks what the protocol guard let through). */
export function isNum(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Three decimals, or an em dash for anything that is not a finite number. */
export function fmt3(value: unknown): string {
  if (!isNum(value)) return '—';
  const text = value.toFixed(3);
  // toFixed keeps the sign of tiny negatives ("-0.000"), which reads as a real difference.
  return text === '-0.000' ? '0.000' : text;
}

/** Integers as they are; other numbers with up to three decimals. */
export function fmtCount(value: unknown): string {
  if (!isNum(value)) return '—';
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
}

export interface Delta {
  readonly text: string;
  readonly direction: 'up' | 'down' | 'same';
  readonly spoken: string;
}

/** "▲ +0.012", "▼ −0.034" or "= 0.000": direction by symbol and sign, never by colour alone. */
export function formatDelta(before: number, after: number): Delta {
  const delta = after - before;
  const magnitude = Math.abs(delta).toFixed(3);
  if (magnitude === '0.000') return { text: '= 0.000', direction: 'same', spoken: 'unchanged' };
  return delta > 0 ? { text: `▲ +${magnitude}`, direction: 'up', spoken: `up ${magnitude}` } : { text: `▼ −${magnitude}`, direction: 'down', spoken: `down ${magnitude}` };
}

/** Shortens a repository path for the narrow sidebar: the last two segments behind an ellipsis. */
export function shortPath(path: string): string {
  const parts = path.split('/');
  return parts.length <= 2 ? path : `…/${parts.slice(-2).join('/')}`;
}
