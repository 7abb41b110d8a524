import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | undefined;

/** This thread's heap after its last collection here (undefined: none yet). */
let heapAfterLast: number | undefined;

/**
 * Runs a full garbage collection of this thread's heap now. Why: a thread that built large
 * intermediates (normalize, the manifests) and then mostly waits allocates too little for V8 to
 * collect them, so their garbage would hold its heap at its high-water mark through the emission.
 * `gc` is not exposed without `--expose-gc`; a context made after the flag is set has it.
 */
export function collectGarbage(): void {
  if (collector === undefined) {
    v8.setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  collector();
  heapAfterLast = v8.getHeapStatistics().used_heap_size;
}

/**
 * Collects this thread's garbage once its heap has grown since its last collection (by either
 * function) by `budgetMb`, or by half of what was left then if that is more. Why: the main thread
 * emits tools beside the workers, and under a large `--max-old-space-size` V8 lets that garbage grow
 * the heap without bound (peak RSS, P7); a check costs microseconds, a collection tens of
 * milliseconds. The budget grows with the live heap so that the collections' cost stays linear in
 * the work (a fixed one made a 5,000-tool run collect a large heap every few dozen tools). Answers
 * whether it collected.
 */
export function collectWhenGrown(budgetMb = 64): boolean {
  // The first check collects what the thread built before (normalize), so the budget is counted
  // from the live heap rather than from a heap still holding that garbage.
  const grown =
    heapAfterLast === undefined ||
    v8.getHeapStatistics().used_heap_size - heapAfterLast >= Math.max(budgetMb * 1024 * 1024, heapAfterLast / 2);
  if (grown) collectGarbage();
  return grown;
}
