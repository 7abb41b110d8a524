/**
 * Types that tell the truth at run time, with tsc as the oracle (`expectTypeOf`, `@ts-expect-error`):
 * - `<Pascal>Args`: inside `execute`, a property the validator fills with its default is present; the
 *   caller's `<Pascal>Input` keeps it optional; a default the runtime does not fill (on a `$ref`
 *   target) is not claimed — checked against what a real call hands `execute`;
 * - `ToolExecutionResult` is discriminated: `{ success: true }` without `output` does not compile for
 *   a tool with an output schema; a typed client's result narrows `output` after `isError`;
 * - `requiredCapabilities` is `readonly`;
 * - `if`/`then`/`else` and `not` get sound types, not `{ [k: string]: unknown }`.
 * Every `@ts-expect-error` fails the check when its line compiles, so each claim can fail.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { loadDefinitions } from '../../codegen/load.js';
import type { ToolModel } from '../../codegen/model.js';
import { normalize } from '../../codegen/normalize.js';
import { ToolOrchestrator } from '../../src/index.js';
import { createTempProject, typeCheck, type TempProject } from '../helpers/temp-project.js';

const DEFAULTS_TOOL = {
  name: 'defaults',
  description: 'Defaults at the root, nested, on a $ref target.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['req'],
    properties: {
      req: { type: 'string', default: 'r' },
      top: { type: 'integer', default: 3 },
      nullableDefault: { type: ['string', 'null'], default: null },
      nested: {
        type: 'object',
        additionalProperties: false,
        properties: {
          inner: { type: 'boolean', default: true },
          deep: {
            type: 'object',
            additionalProperties: false,
            default: {},
            properties: { x: { type: 'number', default: 1 } },
          },
        },
      },
      nestedDefaulted: {
        type: 'object',
        additionalProperties: false,
        default: {},
        properties: { a: { type: 'string', default: 'a' } },
      },
      viaRef: { $ref: '#/definitions/withDefault' },
      plain: { type: 'string' },
    },
    definitions: { withDefault: { type: 'integer', default: 5 } },
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['value'],
    properties: { value: { type: 'number' } },
  },
};

const CONDITIONAL_TOOL = {
  name: 'conditional',
  description: 'if/then/else and not.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind'],
    properties: {
      kind: { enum: ['a', 'b'] },
      a: { type: 'string' },
      b: { type: 'number' },
      notNull: { not: { type: 'null' } },
      bounded: { minimum: 5 },
      typedIf: { type: 'number', if: { minimum: 10 }, then: { multipleOf: 2 }, else: { multipleOf: 3 } },
      onlyThen: { type: 'string', if: { minLength: 3 }, then: { pattern: '^a' } },
    },
    if: { properties: { kind: { const: 'a' } } },
    then: { required: ['a'] },
    else: { required: ['b'] },
  },
};

const NO_OUTPUT_TOOL = {
  name: 'no_output',
  description: 'No output schema.',
  inputSchema: { type: 'object', properties: {} },
};

const FAILING_TOOL = {
  name: 'failing',
  description: 'Declares its failures.',
  inputSchema: { type: 'object', additionalProperties: false, properties: { n: { type: 'integer', default: 1 } } },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['n'],
    properties: { n: { type: 'integer' } },
  },
  errors: {
    RATE_LIMITED: {
      description: 'Wait and call again.',
      retryable: true,
      data: {
        type: 'object',
        additionalProperties: false,
        required: ['retryAfterMs'],
        properties: { retryAfterMs: { type: 'integer' } },
      },
    },
    GONE: { description: 'It is gone.' },
  },
};

const CHECK = `import type { ITool as AgentOSTool } from '@framers/agentos/core/tools';
import { expectTypeOf } from 'vitest';
import type { ToolCallErrorDetails, ToolClient, ToolExecutionContext, ToolExecutionResult } from 'RUNTIME';
import { DefaultsToolBase } from '../generated/tools/defaults.base.js';
import type { ToolTypes } from '../generated/registry.js';
import type { ConditionalInput } from '../generated/types/conditional.js';
import type { DefaultsArgs, DefaultsInput, DefaultsOutput, DefaultsWithDefault } from '../generated/types/defaults.js';
import type { NoOutputOutput } from '../generated/types/no-output.js';
import { FailingToolBase } from '../generated/tools/failing.base.js';
import type { FailingArgs, FailingFailure, FailingOutput, FailingRateLimitedData } from '../generated/types/failing.js';
import { toolFailure } from 'RUNTIME';

// Declared failures: a declared code with its data compiles; another code, or wrong data, does not.
class Failing extends FailingToolBase {
  async execute(args: FailingArgs): Promise<ToolExecutionResult<FailingOutput, FailingFailure>> {
    if (args.n > 2) return toolFailure('RATE_LIMITED', 'Rate limited', { retryAfterMs: 500 });
    if (args.n > 1) return { success: false, error: 'Gone', code: 'GONE' };
    if (args.n < 0) return { success: false, error: 'no code' };
    return { success: true, output: { n: args.n } };
  }
}
// @ts-expect-error a code the definition does not declare
export const undeclared: FailingFailure = { success: false, error: 'x', code: 'NOPE' };
// @ts-expect-error RATE_LIMITED's data is { retryAfterMs: number }
export const wrongData: FailingFailure = toolFailure('RATE_LIMITED', 'x', { retryAfterMs: 'soon' });
// AgentOS: a tool that declares failures still drops into its executor.
export const failingAgentos: Omit<AgentOSTool, 'requiredCapabilities'> = new Failing();
export async function failingClient(tools: ToolClient<ToolTypes>): Promise<number> {
  const result = await tools.call('failing', {});
  if (result.isError && result.errorDetails.failure?.code === 'RATE_LIMITED') {
    expectTypeOf(result.errorDetails.failure.data).toEqualTypeOf<FailingRateLimitedData>();
    return result.errorDetails.failure.data.retryAfterMs;
  }
  return 0;
}

// Args: what the validator fills is present; the caller's input keeps it optional.
expectTypeOf<DefaultsArgs['top']>().toEqualTypeOf<number>();
expectTypeOf<DefaultsInput['top']>().toEqualTypeOf<number | undefined>();
expectTypeOf<DefaultsArgs['req']>().toEqualTypeOf<string>();
expectTypeOf<DefaultsArgs['nullableDefault']>().toEqualTypeOf<string | null>();
expectTypeOf<NonNullable<DefaultsArgs['nested']>['inner']>().toEqualTypeOf<boolean>();
expectTypeOf<NonNullable<DefaultsArgs['nested']>['deep']['x']>().toEqualTypeOf<number>();
expectTypeOf<DefaultsArgs['nestedDefaulted']['a']>().toEqualTypeOf<string>();
expectTypeOf<DefaultsInput['nestedDefaulted']>().toEqualTypeOf<{ a?: string } | undefined>();
// Not filled by Ajv (a default on a $ref target), so not claimed.
expectTypeOf<DefaultsArgs['viaRef']>().toEqualTypeOf<DefaultsWithDefault | undefined>();
expectTypeOf<DefaultsArgs['plain']>().toEqualTypeOf<string | undefined>();
export const callerInput: DefaultsInput = { req: 'x' };
// @ts-expect-error the caller must give what the schema requires
export const missingRequired: DefaultsInput = {};

class Defaults extends DefaultsToolBase {
  async execute(args: DefaultsArgs, _context: ToolExecutionContext): Promise<ToolExecutionResult<DefaultsOutput>> {
    if (args.top > 100) {
      // @ts-expect-error a tool with an output schema must answer its output on success
      return { success: true };
    }
    if (args.top < 0) return { success: false, error: 'negative' };
    return { success: true, output: { value: args.top + (args.nested?.inner ? 1 : 0) } };
  }
}

// The base's execute takes the args type: a signature with the input type where a default is required does not match.
class Wrong extends DefaultsToolBase {
  // @ts-expect-error \`top\` is a number inside execute, not number | undefined
  async execute(args: { req: string; top: string }): Promise<ToolExecutionResult<DefaultsOutput>> {
    return { success: true, output: { value: Number(args.top) } };
  }
}
void Wrong;

export function results(result: ToolExecutionResult<DefaultsOutput>): number {
  // @ts-expect-error output is not known to be there before success is checked
  const early: DefaultsOutput = result.output;
  void early;
  if (!result.success) return -1;
  expectTypeOf(result.output).toEqualTypeOf<DefaultsOutput>();
  return result.output.value;
}
// A tool without an output schema may answer without output.
export const bare: ToolExecutionResult<NoOutputOutput> = { success: true };
expectTypeOf<NoOutputOutput>().toEqualTypeOf<unknown>();

export async function client(tools: ToolClient<ToolTypes>): Promise<number> {
  const result = await tools.call('defaults', { req: 'x' });
  // @ts-expect-error output is null on an error, so not DefaultsOutput before isError is checked
  const early: DefaultsOutput = result.output;
  void early;
  if (result.isError) {
    expectTypeOf(result.errorDetails).toEqualTypeOf<ToolCallErrorDetails>();
    expectTypeOf(result.output).toEqualTypeOf<null>();
    return -1;
  }
  expectTypeOf(result.output).toEqualTypeOf<DefaultsOutput>();
  // @ts-expect-error arguments are typed by tool name
  await tools.call('defaults', { req: 1 });
  return result.output.value;
}

// Frozen arrays are readonly.
const tool = new Defaults();
expectTypeOf(tool.requiredCapabilities).toEqualTypeOf<readonly string[]>();
// @ts-expect-error requiredCapabilities is frozen
tool.requiredCapabilities.push('x');
// AgentOS: every member is assignable except requiredCapabilities, which AgentOS declares mutable.
export const agentos: Omit<AgentOSTool, 'requiredCapabilities'> = tool;
// @ts-expect-error AgentOS's requiredCapabilities is a mutable string[]
export const agentosWhole: AgentOSTool = tool;

// if/then/else: the base intersected with Then | Else; not: the base, unnarrowed.
export const thenBranch: ConditionalInput = { kind: 'a', a: 'x' };
export const elseBranch: ConditionalInput = { kind: 'b', b: 1 };
export const both: ConditionalInput = { kind: 'b', a: 'x', b: 2 };
// @ts-expect-error every valid value has \`a\` (then) or \`b\` (else)
export const neither: ConditionalInput = { kind: 'a' };
// @ts-expect-error \`a\` is a string in the base
export const wrongType: ConditionalInput = { kind: 'a', a: 1 };
export const notNull: ConditionalInput[] = [{ kind: 'b', b: 1, notNull: 'x' }, { kind: 'b', b: 1, notNull: 5 }, { kind: 'b', b: 1, notNull: [true] }];
expectTypeOf<ConditionalInput['notNull']>().toEqualTypeOf<unknown>();
// \`minimum\` alone constrains numbers only: a string validates.
export const bounded: ConditionalInput = { kind: 'b', b: 1, bounded: 'not a number' };
expectTypeOf<ConditionalInput['typedIf']>().toEqualTypeOf<number | undefined>();
expectTypeOf<ConditionalInput['onlyThen']>().toEqualTypeOf<string | undefined>();
// @ts-expect-error typedIf is a number
export const typedIf: ConditionalInput = { kind: 'b', b: 1, typedIf: 'x' };
`;

describe('generated types tell the truth at run time', () => {
  let project: TempProject;
  let tools: Map<string, ToolModel>;

  beforeAll(async () => {
    project = createTempProject();
    for (const definition of [DEFAULTS_TOOL, CONDITIONAL_TOOL, NO_OUTPUT_TOOL, FAILING_TOOL])
      project.write(`schemas/${definition.name}.tool.json`, definition);
    // openai-strict needs a `type` on every value (`notNull`, `bounded` have none): off.
    project.write('toolsmith.config.json', {
      runtimeImport: project.runtimeImport,
      manifests: { targets: ['mcp', 'anthropic', 'openai'] },
    });
    let stderr = '';
    const code = await main(['generate'], {
      cwd: project.root,
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    // The one warning: the default on a definition, which Ajv never fills in (and XArgs does not claim).
    expect(stderr).toMatch(
      /^toolsmith: 1 warning .*\nschemas\/defaults\.tool\.json:\d+:\d+ \/inputSchema\/definitions\/withDefault\/default: warning: the default 5 is never filled in: it is on a definition\n/,
    );
    expect(code).toBe(0);
    const model = normalize(loadDefinitions(path.join(project.root, 'schemas'), project.root));
    expect(model.problems).toEqual([]);
    tools = new Map(model.project.tools.map((tool) => [tool.name, tool]));
  }, 60_000);

  afterAll(() => project?.dispose());

  it('type-checks every claim (expectTypeOf) and rejects every @ts-expect-error line', async () => {
    project.write('check/truth.ts', CHECK.replaceAll("'RUNTIME'", `'${path.posix.join('..', project.runtimeImport)}'`));
    const result = await typeCheck(project, ['generated', 'src', 'check']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('the args type is what a real call hands execute: claimed defaults present, the $ref target’s default absent', async () => {
    const model = tools.get('defaults')!;
    const seen: Record<string, unknown>[] = [];
    const orchestrator = new ToolOrchestrator({
      tools: [
        {
          id: 'defaults',
          name: 'defaults',
          displayName: 'Defaults',
          description: model.description,
          inputSchema: model.inputSchema,
          async execute(args: Record<string, unknown>) {
            seen.push(args);
            return { success: true, output: { value: 1 } };
          },
        },
      ],
    });
    try {
      const call = (id: string, args: Record<string, unknown>) =>
        orchestrator.processToolCall({
          gmiId: 'g',
          personaId: 'p',
          userContext: { userId: 'u' },
          toolCallRequest: { id, name: 'defaults', arguments: args },
        });
      expect((await call('1', { req: 'x' })).isError).toBe(false);
      expect((await call('2', { req: 'x', nested: {} })).isError).toBe(false);
    } finally {
      await orchestrator.shutdown();
    }
    expect(seen[0]).toEqual({ req: 'x', top: 3, nullableDefault: null, nestedDefaulted: { a: 'a' } });
    expect(seen[1]).toEqual({
      req: 'x',
      top: 3,
      nullableDefault: null,
      nestedDefaulted: { a: 'a' },
      nested: { inner: true, deep: { x: 1 } },
    });
    // The type leaves `viaRef` optional because Ajv does not fill a default on a $ref target.
    expect(seen.every((args) => !Object.hasOwn(args, 'viaRef'))).toBe(true);
    const types = project.read('generated/types/defaults.ts');
    expect(types).toContain(
      "export type DefaultsArgs = DefaultsInput &\n  Required<Pick<DefaultsInput, 'nestedDefaulted' | 'nullableDefault' | 'top'>> & {",
    );
  });
});
