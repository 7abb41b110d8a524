import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PipelineCall, endCall, failCall, type CallHost } from '../../src/pipeline/call.js';
import { UNROLLED_STEPS, createDriver } from '../../src/pipeline/driver.js';
import { createReferenceDriver } from '../../src/pipeline/driver-reference.js';
import type { CallStep } from '../../src/pipeline/step.js';

/*
 * The call driver (`createDriver`, each position's call site of its own so V8 inlines the steps) and
 * the plain loop it is written from (`createReferenceDriver`) behave the same for any list of steps:
 * the same steps run, resume and reject in the same order, the call ends the same way, and a step
 * that throws or a pipeline without an answer ends it the same way.
 */

type Behaviour =
  'pass' | 'end' | 'fail' | 'throw' | 'async-pass' | 'async-end' | 'async-reject' | 'async-reject-handled';

interface Trial {
  behaviours: Behaviour[];
  /** Positions the call skips (its plan). */
  skip: number;
}

async function run(
  driver: (steps: readonly CallStep[]) => (call: PipelineCall, from: number) => void,
  trial: Trial,
): Promise<{ log: string[]; outcome: string }> {
  const log: string[] = [];
  let settle!: (call: PipelineCall) => void;
  const settled = new Promise<PipelineCall>((resolve) => (settle = resolve));
  const call = new PipelineCall({ settle } as unknown as CallHost);
  call.skip = trial.skip;
  const steps: CallStep[] = trial.behaviours.map((behaviour, index) => ({
    name: 'request',
    codes: [],
    run(current) {
      log.push(`run ${index}`);
      switch (behaviour) {
        case 'end':
          return endCall(current);
        case 'fail':
          return failCall(current, 'REFUSED', `step ${index}`);
        case 'throw':
          throw new Error(`step ${index} threw`);
        case 'async-pass':
        case 'async-end':
          return Promise.resolve(index);
        case 'async-reject':
        case 'async-reject-handled':
          return Promise.reject(new Error(`step ${index} rejected`));
        default:
          return undefined;
      }
    },
    resume(current, value) {
      log.push(`resume ${index} ${String(value)}`);
      if (behaviour === 'async-end') endCall(current);
    },
    reject:
      behaviour === 'async-reject-handled'
        ? (current, error) => {
            log.push(`reject ${index}`);
            failCall(current, 'REFUSED', (error as Error).message);
          }
        : undefined,
  }));
  driver(steps)(call, 0);
  const ended = await settled;
  return { log, outcome: `${ended.failure?.code ?? 'ok'} ${ended.failure?.message ?? ''}` };
}

const behaviour = fc.constantFrom<Behaviour>(
  'pass',
  'pass',
  'pass',
  'async-pass',
  'end',
  'fail',
  'throw',
  'async-end',
  'async-reject',
  'async-reject-handled',
);

describe('the call driver and its reference loop', () => {
  it('run the same steps in the same order and end the call the same way, for any steps and plan', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(behaviour, { minLength: 1, maxLength: UNROLLED_STEPS + 6 }),
        fc.integer({ min: 0, max: 2 ** 22 - 1 }),
        async (behaviours, skip) => {
          const trial = { behaviours, skip };
          expect(await run(createDriver, trial)).toEqual(await run(createReferenceDriver, trial));
        },
      ),
      { numRuns: 300, seed: 25 },
    );
  });

  it('agree on a long pipeline past the unrolled positions that ends at its last step', async () => {
    const behaviours: Behaviour[] = Array.from({ length: UNROLLED_STEPS + 4 }, (_, index) =>
      index === UNROLLED_STEPS + 3 ? 'end' : index % 5 === 2 ? 'async-pass' : 'pass',
    );
    const trial = { behaviours, skip: 0 };
    const unrolled = await run(createDriver, trial);
    expect(unrolled).toEqual(await run(createReferenceDriver, trial));
    expect(unrolled.outcome).toBe('ok ');
    expect(unrolled.log.filter((line) => line.startsWith('run'))).toHaveLength(UNROLLED_STEPS + 4);
  });
});
