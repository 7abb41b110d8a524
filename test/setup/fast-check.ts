/**
 * One seed for every fast-check property in the suite, so that `npm test` (and CI) draws the same
 * samples every time and a failure can be replayed. `FC_SEED=<n>` replays the seed a failure
 * printed; `FC_SEED=random` explores new samples (`npm run fuzz` runs the properties that way).
 */
import fc from 'fast-check';

const FIXED_SEED = 20261130;
const requested = process.env.FC_SEED;
const seed =
  requested === 'random' ? Math.floor(Math.random() * 0x7fffffff) : requested ? Number(requested) : FIXED_SEED;
if (!Number.isInteger(seed))
  throw new Error(`FC_SEED must be an integer or "random", got ${JSON.stringify(requested)}`);

fc.configureGlobal({ seed });
if (requested === 'random') {
  const runs = process.env.FC_RUNS ? ` FC_RUNS=${process.env.FC_RUNS}` : '';
  console.info(`fast-check seed: ${seed} (replay: FC_SEED=${seed}${runs} npx vitest run <the failing test file>)`);
}
