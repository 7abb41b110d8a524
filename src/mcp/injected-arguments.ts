/*
 * The arguments MCP hosts add to every call for their own bookkeeping — Gemini CLI tells its model to
 * add `wait_for_previous: true` to a call that depends on the one before, and forwards it to the
 * server — and their removal before a call is validated: a tool that forbids other properties would
 * refuse every such call. Taken out for every client (the MCP spec asks servers not to behave by
 * `clientInfo`), and only where the tool declares no property of that name: nothing else loosens, and
 * a value a tool declared is never touched. The host table (src/hosts/host-table.ts) reads its rows'
 * `injects` from here, so the server needs nothing above this layer.
 */

/** An argument a host adds to the calls of every tool for its own bookkeeping. */
export interface InjectedArgument {
  /** The argument's name in the call's `arguments` (`wait_for_previous`). */
  name: string;
  /** The schema the host declares it with to its model. */
  schema: Readonly<Record<string, unknown>>;
  /** The host id it is for (a row of the host table). */
  host: string;
  /** Where the behaviour is read: the host's code at a version. */
  source: string;
  /** The host versions it is known to hold for. */
  versions: string;
}

/**
 * Every argument a known host injects, each naming its host: the list `createMcpServer` takes out
 * by default (`injectedArguments` in its options and in toolsmith.config.json change it).
 */
export const HOST_INJECTED_ARGUMENTS: readonly InjectedArgument[] = Object.freeze([
  {
    name: 'wait_for_previous',
    schema: { type: 'boolean' },
    host: 'gemini-cli',
    source:
      'npm @google/gemini-cli-core@0.61.0 (github.com/google-gemini/gemini-cli, packages/core/src/tools/tools.ts addWaitForPreviousParameter; scheduler/scheduler.ts _isParallelizable)',
    versions: '0.61.0 (the version the end-to-end tests run)',
  },
]);

/** True when `inputSchema`'s root declares a property `name` (under `properties`). */
function declares(inputSchema: unknown, name: string): boolean {
  if (typeof inputSchema !== 'object' || inputSchema === null) return false;
  const properties = (inputSchema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, name);
}

/**
 * `args` without the injected arguments `inputSchema` does not declare; `args` itself (not a copy)
 * when it carries none of them.
 */
export function withoutInjectedArguments(
  args: Record<string, unknown>,
  inputSchema: unknown,
  injected: readonly Pick<InjectedArgument, 'name'>[],
): Record<string, unknown> {
  let out = args;
  for (const { name } of injected) {
    if (!Object.hasOwn(out, name) || declares(inputSchema, name)) continue;
    if (out === args) out = { ...args };
    delete out[name];
  }
  return out;
}
