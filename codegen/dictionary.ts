/**
 * Maps keyed by user text (tool names, definition keys, property names) as plain-looking objects
 * without a prototype: `constructor`, `toString` and `__proto__` are valid names and must neither
 * read an inherited member nor set a prototype. Use `Map` where the value is not serialized.
 */

/** An empty object without a prototype, to key by user text. */
export function dictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The own value at `key`, never an inherited one (safe on objects from `JSON.parse` or `{}`). */
export function ownValue<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}
