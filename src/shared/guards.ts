/**
 * Small type guards every layer shares: the message validators (src/shared/*Protocol.ts), the data
 * readers, the extension's command arguments. Every message crossing the webview boundary is
 * checked with these, so they accept exactly what they say and nothing more. No imports, so any
 * module (the lazily loaded zod schemas included) can use them without an import cycle.
 */

/**
 * A plain object (not null, not an array) whose fields can be read one by one: "a JSON object". An
 * own `__proto__` key is an ordinary member here: `JSON.parse` creates it as a data property, and
 * data may legitimately use it as a map key (a model called `__proto__`); readers copy such maps
 * into null-prototype objects.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An array whose every item passes `check`. */
export function everyItem<T>(value: unknown, check: (item: unknown) => item is T): value is T[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!check(item)) return false;
  return true;
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** A non-empty string of at most `maxLength` characters (names, ids, paths). */
export function isBoundedText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength;
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** An integer JavaScript represents exactly (no 1e300, no 2.5). */
export function isInteger(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

/** A count: a safe integer ≥ 0. */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
