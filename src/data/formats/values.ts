/**
 * Value helpers shared by every reader in `src/data`: one wording for values in messages. No
 * imports, so any module (zod-based or not) can use it without creating an import cycle. ("A JSON
 * object" is `isRecord` of src/shared/guards.ts, which every layer shares.)
 */

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
