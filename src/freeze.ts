/**
 * Freezes `value` and everything reachable from it (plain objects and arrays), so a schema shared
 * by every call cannot be changed by one of them. Generated code freezes its schemas with it.
 * Returns the same value.
 */
export function deepFreeze<T>(value: T): T {
  freezeAt(value, new Set());
  return value;
}

function freezeAt(value: unknown, seen: Set<object>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor !== undefined && 'value' in descriptor) freezeAt(descriptor.value, seen);
  }
  Object.freeze(value);
}
