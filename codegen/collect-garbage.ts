import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | undefined;

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
}
