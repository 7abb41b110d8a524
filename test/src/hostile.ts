import fc from 'fast-check';

/**
 * Values a tool (or a gate, a hook, a loader, a caller) can throw or answer that break code which
 * inspects them: every description the runtime makes of such a value must be total.
 */

/** A Proxy whose every trap throws (its handler is itself a Proxy answering a throwing trap for any name). */
function everyTrapThrows(thrown: () => unknown = () => new Error('trap')): object {
  const handler = new Proxy(
    {},
    {
      get: () => () => {
        throw thrown();
      },
    },
  );
  return new Proxy({}, handler);
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function errorWithThrowingMessage(): Error {
  const error = new Error('hidden');
  Object.defineProperty(error, 'message', {
    get() {
      throw new Error('message getter');
    },
  });
  return error;
}

function errorThatThrowsEverywhere(): Error {
  const error = new Error('hidden');
  for (const key of ['stack', 'message', 'name', 'toString', 'constructor']) {
    Object.defineProperty(error, key, {
      get() {
        throw everyTrapThrows();
      },
    });
  }
  return error;
}

/** `error instanceof X` throws: the prototype lookup (a Proxy's getPrototypeOf trap) throws. */
function instanceofThrows(): object {
  return new Proxy(new Error('looks like an error'), {
    getPrototypeOf() {
      throw new Error('getPrototypeOf');
    },
  });
}

/** A class whose static `Symbol.hasInstance` getter and `toString` throw (thrown as a value). */
function classWithThrowingHasInstance(): unknown {
  class Hostile {
    static get [Symbol.hasInstance](): never {
      throw new Error('hasInstance');
    }
    static toString(): never {
      throw new Error('toString');
    }
  }
  return Hostile;
}

function throwingToPrimitive(): object {
  return {
    [Symbol.toPrimitive]() {
      throw new Error('toPrimitive');
    },
    toString() {
      throw new Error('toString');
    },
    valueOf() {
      throw new Error('valueOf');
    },
  };
}

function toStringAnswersAnObject(): object {
  return { toString: () => ({}), valueOf: () => ({}) };
}

function getterBombThen(): object {
  return {
    get then(): never {
      throw everyTrapThrows();
    },
  };
}

function nonStringMessage(): Error {
  const error = new Error('x');
  Object.defineProperty(error, 'message', { value: throwingToPrimitive() });
  return error;
}

/** A trap that throws a value whose own traps throw. */
function trapThrowsHostile(): object {
  return everyTrapThrows(() => everyTrapThrows());
}

/** Every hostile value, by name (factories: a fresh value per use). */
export const HOSTILE_VALUES: ReadonlyArray<readonly [string, () => unknown]> = [
  ['proxy-every-trap-throws', () => everyTrapThrows()],
  ['proxy-trap-throws-hostile', trapThrowsHostile],
  ['revoked-proxy', revokedProxy],
  ['error-message-getter-throws', errorWithThrowingMessage],
  ['error-everything-throws', errorThatThrowsEverywhere],
  ['instanceof-throws', instanceofThrows],
  ['class-hasInstance-throws', classWithThrowingHasInstance],
  ['toPrimitive-throws', throwingToPrimitive],
  ['toString-answers-object', toStringAnswersAnObject],
  ['getter-bomb-then', getterBombThen],
  ['error-non-string-message', nonStringMessage],
  ['null-prototype', () => Object.create(null)],
  ['symbol', () => Symbol('hostile')],
  ['bigint', () => 10n ** 30n],
  ['undefined', () => undefined],
  ['null', () => null],
  ['huge-string', () => 'x'.repeat(1_000_000)],
];

const FACTORIES = new Map(HOSTILE_VALUES);

/** A fresh hostile value of the kind `name`. */
export function makeHostile(name: string): unknown {
  return FACTORIES.get(name)!();
}

/** The name of a hostile value kind (names, not values: a counterexample must print). */
const hostileName: fc.Arbitrary<string> = fc.constantFrom(...HOSTILE_VALUES.map(([name]) => name));

/**
 * A recipe for a hostile value, as plain data (so fast-check can print a counterexample): a named
 * value, or one wrapped so that inspecting the wrapper reaches the inner value — a trap that throws
 * it, a `message` getter that throws it, an `Error` whose `cause` it is, an object or array holding
 * it, a `then` getter that throws it.
 */
export type HostileRecipe =
  | { kind: 'value'; name: string }
  | {
      kind: 'trap-throws' | 'message-throws' | 'cause' | 'in-object' | 'in-array' | 'then-throws';
      inner: HostileRecipe;
    };

/** Builds the value a recipe describes (fresh each time). */
export function buildHostile(recipe: HostileRecipe): unknown {
  if (recipe.kind === 'value') return makeHostile(recipe.name);
  const inner = () => buildHostile(recipe.inner);
  switch (recipe.kind) {
    case 'trap-throws':
      return everyTrapThrows(inner);
    case 'message-throws': {
      const error = new Error('hidden');
      Object.defineProperty(error, 'message', {
        get() {
          throw inner();
        },
      });
      return error;
    }
    case 'cause':
      return new Error('with a cause', { cause: inner() });
    case 'in-object':
      return { error: inner(), message: inner() };
    case 'in-array':
      return [inner()];
    case 'then-throws':
      return {
        get then(): never {
          throw inner();
        },
      };
  }
}

/** Hostile values nested up to three wrappers deep, as recipes. */
export const hostileRecipe: fc.Arbitrary<HostileRecipe> = fc.letrec<{ recipe: HostileRecipe }>((tie) => ({
  recipe: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    hostileName.map((name): HostileRecipe => ({ kind: 'value', name })),
    fc
      .record({
        kind: fc.constantFrom(
          'trap-throws',
          'message-throws',
          'cause',
          'in-object',
          'in-array',
          'then-throws' as const,
        ),
        inner: tie('recipe'),
      })
      .map((wrapped) => wrapped as HostileRecipe),
  ),
})).recipe;
