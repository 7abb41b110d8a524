/**
 * Freezes `value` and everything reachable from it (plain objects and arrays), so a schema shared
 * by every call cannot be changed by one of them. Generated code freezes its schemas with it.
 * Returns the same value.
 */
export function deepFreeze<T>(value: T): T {
  freezeAt(value, new Set());
  if (value !== null && typeof value === 'object') FROZEN_WHOLE.add(value);
  return value;
}

/**
 * Values frozen whole by `deepFreeze` or `freezeParsed`: everything reachable from them is frozen
 * and stays so, so a later `deepFreeze` over a value that holds one stops there.
 */
const FROZEN_WHOLE = new WeakSet<object>();

/**
 * `deepFreeze` for a value straight from `JSON.parse` (plain objects and arrays only: no getters,
 * symbols or cycles), several times faster: the generator freezes its cached models with it.
 */
export function freezeParsed<T>(value: T): T {
  freezeTree(value);
  if (value !== null && typeof value === 'object') FROZEN_WHOLE.add(value);
  return value;
}

function freezeTree(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) for (const item of value) freezeTree(item);
  else for (const key of Object.keys(value)) freezeTree((value as Record<string, unknown>)[key]);
  Object.freeze(value);
}

function freezeAt(value: unknown, seen: Set<object>): void {
  if (value === null || typeof value !== 'object' || seen.has(value) || FROZEN_WHOLE.has(value)) return;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor !== undefined && 'value' in descriptor) freezeAt(descriptor.value, seen);
  }
  Object.freeze(value);
}
