import {
  Agent,
  Runner,
  Usage,
  setTracingDisabled,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type RunContext,
  type ToolCallOutputContent,
} from '@openai/agents';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { openAiAgentsTools, strictParameters, type OpenAiAgentsTool } from '../../../src/adapters/openai-agents.js';
import type { CallEndEvent } from '../../../src/index.js';
import { createToolClient, createTools, type ToolInput, type ToolTypes } from '../../../generated/registry.js';
import strictManifest from '../../../generated/manifests/openai-strict.json' with { type: 'json' };
import { CONTENT_BLOCKS, caller, contentTool, makeTool, useOrchestrators } from '../helpers.js';

type Step = { toolCall: { name: string; input: unknown } } | { text: string };

/**
 * A scripted implementation of the SDK's public `Model` interface: each step is a tool call or a
 * final message, chosen from the request so far (so a test can answer with what the tool returned).
 */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  #index = 0;

  constructor(readonly steps: Array<(request: ModelRequest) => Step>) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const step = this.steps[this.#index++]!(request);
    if ('text' in step) {
      return {
        usage: new Usage(),
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: step.text }],
          },
        ],
      };
    }
    return {
      usage: new Usage(),
      output: [
        {
          type: 'function_call',
          callId: `call-${this.#index}`,
          name: step.toolCall.name,
          arguments: JSON.stringify(step.toolCall.input),
          status: 'completed',
        },
      ],
    };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not scripted');
  }
}

/** The text of the last tool result the model was sent. */
function lastToolOutput(request: ModelRequest): string {
  const items = (Array.isArray(request.input) ? request.input : []).filter(
    (item) => item.type === 'function_call_result',
  );
  const output = (items.at(-1) as { output: string | { type: string; text: string } } | undefined)?.output;
  return typeof output === 'string' ? output : (output?.text ?? '');
}

const runner = () => new Runner({ tracingDisabled: true });

describe('toolsmith-sdk/openai-agents: a Runner loop with a scripted Model', () => {
  const makeOrchestrator = useOrchestrators();
  beforeAll(() => setTracingDisabled(true));

  it('a valid call runs through the orchestrator, strict, and the result goes back to the model', async () => {
    const ends: CallEndEvent[] = [];
    const orchestrator = makeOrchestrator({ tools: createTools(), hooks: { onCallEnd: (event) => ends.push(event) } });
    const tools = openAiAgentsTools(createToolClient(orchestrator, caller), { tools: ['calculator'] });
    // Strict mode sends every property; an omitted optional comes as null and the orchestrator drops it (the default applies).
    const model = new ScriptedModel([
      () => ({ toolCall: { name: 'calculator', input: { expression: '2/3', precision: null } } }),
      (request) => ({ text: `= ${JSON.parse(lastToolOutput(request)).result}` }),
    ]);
    const result = await runner().run(
      new Agent({ name: 'math', instructions: 'Compute.', model, tools }),
      'What is 2/3?',
    );

    expect(result.finalOutput).toBe('= 0.6666666667');
    expect(ends.map((event) => [event.toolName, event.toolCallId, event.isError])).toEqual([
      ['calculator', 'call-1', false],
    ]);
    const offered = model.requests[0]!.tools.find((entry) => entry.name === 'calculator') as {
      strict: boolean;
      parameters: unknown;
    };
    expect(offered.strict).toBe(true);
    // The same schema the generator publishes in openai-strict.json.
    expect(offered.parameters).toEqual(
      strictManifest.find((entry) => entry.function.name === 'calculator')!.function.parameters,
    );
  });

  it('a tool strict mode cannot take is offered non-strict with its own schema', async () => {
    const free = makeTool('free_form', {
      inputSchema: { type: 'object', properties: { anything: {} }, additionalProperties: true },
    });
    expect(strictParameters(free)).toBeUndefined();
    const orchestrator = makeOrchestrator({ tools: [free] });
    const [tool] = openAiAgentsTools(orchestrator, { context: caller });
    expect(tool).toMatchObject({ strict: false, parameters: free.inputSchema });
    const model = new ScriptedModel([
      () => ({ toolCall: { name: 'free_form', input: { anything: [1, 'two'] } } }),
      (request) => ({ text: lastToolOutput(request) }),
    ]);
    const result = await runner().run(new Agent({ name: 'free', model, tools: [tool!] }), 'go');
    expect(JSON.parse(result.finalOutput!)).toEqual({ echoed: { anything: [1, 'two'] } });
  });

  it('invalid arguments: the model sees the validation errors (JSON pointers) and retries', async () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = openAiAgentsTools(orchestrator, { tools: ['calculator'], context: caller });
    const model = new ScriptedModel([
      () => ({ toolCall: { name: 'calculator', input: { expression: '', precision: 99 } } }),
      () => ({ toolCall: { name: 'calculator', input: { expression: '6*7', precision: null } } }),
      (request) => ({ text: String(JSON.parse(lastToolOutput(request)).result) }),
    ]);
    const result = await runner().run(new Agent({ name: 'math', model, tools }), 'six times seven');
    // calculator has an output schema, so the Responses API reads its outputs as JSON: the feedback is JSON.
    expect(JSON.parse(lastToolOutput(model.requests[1]!))).toEqual({
      code: 'INVALID_ARGUMENTS',
      message: "The arguments for tool 'calculator' do not fit its input schema. Fix them and call again.",
      problems: [
        { path: '/expression', message: 'expected a string of at least 1 character', received: '""' },
        { path: '/precision', message: 'expected an integer <= 15', received: '99' },
      ],
    });
    expect(result.finalOutput).toBe('42');
  });

  it('a missing capability: PERMISSION_DENIED names it; the run context decides per caller', async () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = openAiAgentsTools<ToolTypes, ['read_file'], { capabilities: string[] }>(orchestrator, {
      tools: ['read_file'],
      context: (run) => ({ ...caller, personaCapabilities: run.context.capabilities }),
    });
    const script = () =>
      new ScriptedModel([
        () => ({ toolCall: { name: 'read_file', input: { path: 'package.json', maxBytes: 20, encoding: null } } }),
        (request) => ({ text: lastToolOutput(request) }),
      ]);
    const agent = (model: Model) => new Agent<{ capabilities: string[] }>({ name: 'files', model, tools });

    const denied = await runner().run(agent(script()), 'read it', { context: { capabilities: [] } });
    expect(denied.finalOutput).toContain('PERMISSION_DENIED');
    expect(denied.finalOutput).toContain('capability:filesystem:read');

    const allowed = await runner().run(agent(script()), 'read it', {
      context: { capabilities: ['capability:filesystem:read'] },
    });
    expect(JSON.parse(allowed.finalOutput!)).toMatchObject({ content: expect.stringContaining('"name"') });
  });

  it('approval rejected by the orchestrator gate: the model is told APPROVAL_REJECTED', async () => {
    const sent: string[] = [];
    const orchestrator = makeOrchestrator({
      tools: [sendTool(sent)],
      approvalGate: async () => ({ approved: false, reason: 'no messages today' }),
    });
    const tools = openAiAgentsTools(orchestrator, { context: caller });
    const model = new ScriptedModel([
      () => ({ toolCall: { name: 'send_message', input: { to: 'ada' } } }),
      (request) => ({ text: lastToolOutput(request) }),
    ]);
    const result = await runner().run(new Agent({ name: 'mail', model, tools }), 'tell ada');
    expect(result.finalOutput).toBe(
      "APPROVAL_REJECTED: The call to tool 'send_message' was not approved: no messages today",
    );
    expect(sent).toEqual([]);
  });

  it("approval 'framework': the run stops with an interruption; reject never reaches the orchestrator, approve runs it without its gate", async () => {
    const sent: string[] = [];
    const ends: CallEndEvent[] = [];
    const asked: string[] = [];
    const orchestrator = makeOrchestrator({
      tools: [sendTool(sent)],
      requireApproval: 'always',
      approvalGate: async ({ tool }) => {
        asked.push(tool.name);
        return false;
      },
      hooks: { onCallEnd: (event) => ends.push(event) },
    });
    const tools = openAiAgentsTools(orchestrator, { context: caller, approval: 'framework' });
    const step = (): Array<(request: ModelRequest) => Step> => [
      () => ({ toolCall: { name: 'send_message', input: { to: 'ada' } } }),
      (request) => ({ text: lastToolOutput(request) }),
    ];

    const rejecting = new Agent({ name: 'mail', model: new ScriptedModel(step()), tools });
    const first = await runner().run(rejecting, 'tell ada');
    expect(first.interruptions.map((item) => item.name)).toEqual(['send_message']);
    expect(ends).toEqual([]);
    first.state.reject(first.interruptions[0]!);
    const rejected = await runner().run(rejecting, first.state);
    // The SDK's own rejection text reaches the model; the orchestrator never saw the call.
    expect(rejected.finalOutput).toBe('Tool execution was not approved.');
    expect(ends).toEqual([]);

    const approving = new Agent({ name: 'mail', model: new ScriptedModel(step()), tools });
    const second = await runner().run(approving, 'tell ada');
    second.state.approve(second.interruptions[0]!);
    const approved = await runner().run(approving, second.state);
    expect(JSON.parse(approved.finalOutput!)).toEqual({ sent: true, to: 'ada' });
    expect(asked).toEqual([]);
    expect(sent).toEqual(['ada']);
    expect(ends.map((event) => [event.toolName, event.isError])).toEqual([['send_message', false]]);
  });

  it('an abort mid-call stops the tool (its signal fires) and the call ends ABORTED', async () => {
    let toolSignal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const ends: CallEndEvent[] = [];
    const orchestrator = makeOrchestrator({
      tools: [
        makeTool('slow', {
          execute: (_args, context) =>
            new Promise((resolve) => {
              toolSignal = context.signal;
              started();
              context.signal!.addEventListener('abort', () => resolve({ success: true, output: 'too late' }));
            }),
        }),
      ],
      hooks: { onCallEnd: (event) => ends.push(event) },
    });
    const tools = openAiAgentsTools(orchestrator, { context: caller });
    const model = new ScriptedModel([
      () => ({ toolCall: { name: 'slow', input: {} } }),
      () => ({ text: 'unreachable' }),
    ]);
    const controller = new AbortController();
    const run = runner().run(new Agent({ name: 'slow', model, tools }), 'go', { signal: controller.signal });
    await running;
    controller.abort(new Error('user pressed stop'));
    await expect(run).rejects.toThrow('user pressed stop');
    expect(toolSignal?.aborted).toBe(true);
    expect(ends.map((event) => event.code)).toEqual(['ABORTED']);
    expect(model.requests).toHaveLength(1);
  });

  it('a tool with an output schema: the output is checked (OUTPUT_INVALID reaches the model) and typed', async () => {
    const orchestrator = makeOrchestrator({
      tools: [
        makeTool('bad_output', {
          inputSchema: { type: 'object', properties: {}, additionalProperties: false },
          outputSchema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
          execute: async () => ({ success: true, output: { n: 'one' } }),
        }),
      ],
    });
    const tools = openAiAgentsTools(orchestrator, { context: caller });
    const model = new ScriptedModel([
      () => ({ toolCall: { name: 'bad_output', input: {} } }),
      (request) => ({ text: lastToolOutput(request) }),
    ]);
    const result = await runner().run(new Agent({ name: 'out', model, tools }), 'go');
    expect(JSON.parse(result.finalOutput!)).toMatchObject({
      code: 'OUTPUT_INVALID',
      message: "Tool 'bad_output' produced output that fails its output schema: /n must be integer.",
      details: { errors: [{ path: '/n', keyword: 'type' }] },
    });
    // The output schema goes to the model as the tool's outputSchema (the Responses API's output_schema).
    expect(model.requests[0]!.tools[0]).toMatchObject({
      outputSchema: { type: 'object', required: ['n'] },
    });
  });

  it('a declared failure reaches the model as JSON with its code, data and what to do', async () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = openAiAgentsTools(orchestrator, {
      tools: ['read_file'],
      context: { ...caller, personaCapabilities: ['capability:filesystem:read'] },
    });
    const model = new ScriptedModel([
      () => ({ toolCall: { name: 'read_file', input: { path: 'no-such-file.txt', maxBytes: null, encoding: null } } }),
      (request) => ({ text: lastToolOutput(request) }),
    ]);
    const result = await runner().run(new Agent({ name: 'files', model, tools }), 'read it');
    expect(JSON.parse(result.finalOutput!)).toEqual({
      code: 'TOOL_FAILED',
      message: `Tool 'read_file' failed: "no-such-file.txt" does not exist under the root folder`,
      failure: {
        code: 'NOT_FOUND',
        description: expect.stringContaining('list_directory'),
        data: { path: 'no-such-file.txt' },
        retryable: false,
      },
    });
  });

  it('content blocks reach the model as structured tool output (text, image, file), the output as the last text', async () => {
    const orchestrator = makeOrchestrator({ tools: [contentTool('report', { total: 3 }), contentTool('blocks_only')] });
    const tools = openAiAgentsTools(orchestrator, { context: caller });
    const model = new ScriptedModel([
      () => ({ toolCall: { name: 'report', input: {} } }),
      () => ({ toolCall: { name: 'blocks_only', input: {} } }),
      () => ({ text: 'done' }),
    ]);
    await runner().run(new Agent({ name: 'reports', model, tools }), 'report');
    const results = (model.requests[2]!.input as Array<{ type: string; output?: unknown }>)
      .filter((item) => item.type === 'function_call_result')
      .map((item) => item.output);
    const items = [
      { type: 'input_text', text: 'A chart of the week.' },
      { type: 'input_image', image: 'data:image/png;base64,iVBORw0KGgo=' },
      {
        type: 'input_text',
        text: '[audio (audio/wav) left out: OpenAI Agents tool outputs carry text, images and files]',
      },
      { type: 'input_text', text: 'day,n\nmon,3' },
      { type: 'input_file', file: 'data:application/octet-stream;base64,AAECAw==', filename: 'week.bin' },
      { type: 'input_text', text: 'Resource link: week.pdf <https://example.com/reports/week.pdf> (application/pdf)' },
    ];
    expect(CONTENT_BLOCKS).toHaveLength(items.length);
    expect(results).toEqual([[...items, { type: 'input_text', text: '{"total":3}' }], items]);
  });

  it('types: each tool keeps its output type, in the order of the names', () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = openAiAgentsTools(createToolClient(orchestrator, caller), { tools: ['calculator', 'read_file'] });
    expectTypeOf(tools).toEqualTypeOf<
      [OpenAiAgentsTool<ToolTypes['calculator']>, OpenAiAgentsTool<ToolTypes['read_file']>]
    >();
    expectTypeOf<Awaited<ReturnType<(typeof tools)[0]['invoke']>>>().toEqualTypeOf<
      string | ToolTypes['calculator']['output'] | ToolCallOutputContent[]
    >();
    // The parameters carry the tool's input type: what the SDK's approval policy gets (not `any`).
    expectTypeOf<Parameters<(typeof tools)[0]['needsApproval']>[1]>().toEqualTypeOf<ToolInput<'calculator'>>();
    expectTypeOf<Parameters<(typeof tools)[1]['needsApproval']>[1]>().toEqualTypeOf<ToolInput<'read_file'>>();
    expectTypeOf<Parameters<(typeof tools)[1]['invoke']>[0]>().toEqualTypeOf<RunContext<unknown>>();
    // The run context's type is inferred from the context function (as in the README).
    const perCaller = openAiAgentsTools(orchestrator, {
      context: (run: RunContext<{ capabilities: string[] }>) => ({
        ...caller,
        personaCapabilities: run.context.capabilities,
      }),
    });
    expectTypeOf(perCaller[0]!).toEqualTypeOf<
      OpenAiAgentsTool<{ input: Record<string, unknown>; output: unknown }, { capabilities: string[] }>
    >();
    // @ts-expect-error not a registered tool name
    expect(() => openAiAgentsTools(createToolClient(orchestrator, caller), { tools: ['calculater'] })).toThrow(
      /not registered/,
    );
  });
});

/** A tool with side effects, defined here so no test writes outside its process. */
function sendTool(sent: string[]) {
  return makeTool('send_message', {
    hasSideEffects: true,
    inputSchema: {
      type: 'object',
      required: ['to'],
      additionalProperties: false,
      properties: { to: { type: 'string' } },
    },
    async execute(args) {
      sent.push(args.to);
      return { success: true, output: { sent: true, to: args.to } };
    },
  });
}
