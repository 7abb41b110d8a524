/** True when `value` has a callable `then` (reading `then` may throw: callers catch). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

const promiseThen = Promise.prototype.then;

/** Does nothing: the handler of what is dropped on purpose. */
export function noop(): void {}

/**
 * Continues with `onValue` or `onError` once `pending` settles, whatever it is. A native promise is
 * subscribed to with the intrinsic `then` (its own `then`, if any, is not trusted); anything else
 * is adopted by `Promise.resolve`, so a thenable whose `then` throws becomes a rejection. A promise
 * whose `constructor` or species lookup throws gets its constructor pinned and is subscribed to
 * anyway, so its rejection is still handled: nothing escapes, nothing is left unhandled.
 */
export function follow<T>(
  pending: T | PromiseLike<T>,
  onValue: (value: T) => void,
  onError: (error: unknown) => void,
): void {
  try {
    if (pending instanceof Promise) promiseThen.call(pending, onValue as (value: unknown) => void, onError);
    else Promise.resolve(pending).then(onValue, onError);
  } catch (error) {
    try {
      Object.defineProperty(pending, 'constructor', { value: Promise, configurable: true, writable: true });
      promiseThen.call(pending, onValue as (value: unknown) => void, onError);
    } catch {
      onError(error); // not a promise, or one that cannot be changed: nothing to subscribe to
    }
  }
}

/** Calls a hook that must never change the outcome of a call: what it throws or rejects with is dropped. */
export function callHook<T>(hook: (event: T) => unknown, event: T): void {
  try {
    const returned = hook(event);
    if (isThenable(returned)) follow(returned, noop, noop);
  } catch {
    // A hook must never change the outcome of a call.
  }
}

/** `work`'s value, or `'deadline'` when `ms` pass first (the timer is cleared either way). */
export function raceDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'deadline'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(resolve, ms, 'deadline');
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
