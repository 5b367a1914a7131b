/**
 * Value helpers shared by every reader in `src/data`: one definition of "a JSON object" and one
 * wording for values in messages. No imports, so any module (zod-based or not) can use it
 * without creating an import cycle.
 */

/**
 * True for a JSON object (not `null`, not an array). An own `__proto__` key is an ordinary member
 * here: `JSON.parse` creates it as a data property, and data may legitimately use it as a map key
 * (a model called `__proto__`). Readers copy such maps into null-prototype objects.
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Short description of a JSON value for error messages: `string "3"`, `number 1.5`, `array`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value;
}

/** Sets `key` as an own enumerable property, even when `key` is `__proto__`. */
export function defineEntry<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
