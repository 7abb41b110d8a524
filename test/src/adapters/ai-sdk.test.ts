import { generateText, isStepCount, type ModelMessage, type ToolExecutionOptions, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { aiSdkTools, type ToolCallError, type AiSdkTool } from '../../../src/adapters/ai-sdk.js';
import type { CallEndEvent } from '../../../src/index.js';
import { createLazyTools } from '../../../generated/lazy-registry.js';
import {
  createToolClient,
  createTools,
  type ToolInput,
  type ToolOutput,
  type ToolTypes,
} from '../../../generated/registry.js';
import { CONTENT_BLOCKS, caller, contentTool, makeTool, useOrchestrators } from '../helpers.js';

/** What `generateText` takes as `toolsContext` for the tool set `T` (the SDK's own inference). */
type ToolsContextOf<T extends ToolSet> = Parameters<typeof generateText<T>>[0]['toolsContext'];

type Prompt = Parameters<MockLanguageModelV4['doGenerate']>[0]['prompt'];
type Step = { toolCall: { name: string; input: unknown } } | { text: string };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * The AI SDK's own mock model, scripted: each step is either a tool call or a final text, chosen
 * by a function of the prompt so far (which also lets a test answer with what the tool returned).
 */
function scriptedModel(steps: Array<(prompt: Prompt) => Step>) {
  const prompts: Prompt[] = [];
  let index = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const step = steps[index++]!(prompt);
      if ('text' in step)
        return {
          content: [{ type: 'text', text: step.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `call-${index}`,
            toolName: step.toolCall.name,
            input: JSON.stringify(step.toolCall.input),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

/** The tool results the model was sent in `prompt`, in order. */
function toolResults(
  prompt: Prompt,
): Array<{ toolName: string; output: { type: string; value?: unknown; reason?: string } }> {
  return prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  ) as never;
}

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

function lastResult(prompt: Prompt) {
  return toolResults(prompt).at(-1)!;
}

describe('toolsmith-sdk/ai-sdk: a generateText agent loop with the AI SDK mock model', () => {
  const makeOrchestrator = useOrchestrators();

  it('a valid call runs through the orchestrator and the result goes back to the model', async () => {
    const ends: CallEndEvent[] = [];
    const orchestrator = makeOrchestrator({ tools: createTools(), hooks: { onCallEnd: (event) => ends.push(event) } });
    const tools = aiSdkTools<ToolTypes>(orchestrator, { tools: ['calculator'], context: caller });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'calculator', input: { expression: '2*(3+4)' } } }),
      (prompt) => ({ text: `The answer is ${(lastResult(prompt).output.value as { result: number }).result}.` }),
    ]);
    const result = await generateText({ model, tools, prompt: 'What is 2*(3+4)?', stopWhen: isStepCount(5) });

    expect(result.text).toBe('The answer is 14.');
    expect(Object.keys(tools)).toEqual(['calculator']);
    // The conversation keeps the model's own arguments (the default precision is applied by the orchestrator, on its copy).
    expect(result.steps[0]!.toolCalls.map((call) => call.input)).toEqual([{ expression: '2*(3+4)' }]);
    expect(lastResult(prompts[1]!)).toMatchObject({
      toolName: 'calculator',
      output: { type: 'json', value: { expression: '2*(3+4)', result: 14 } },
    });
    expect(ends.map((event) => [event.toolName, event.toolCallId, event.isError])).toEqual([
      ['calculator', 'call-1', false],
    ]);
    // The model is offered the definition's own schema.
    const offered = model.doGenerateCalls[0]!.tools!.find((entry) => entry.name === 'calculator') as {
      inputSchema: unknown;
    };
    expect(offered.inputSchema).toMatchObject({ required: ['expression'], properties: { precision: { maximum: 15 } } });
  });

  it("invalid arguments reach the orchestrator: hooks see INVALID_ARGUMENTS, the model gets toolsmith's text and retries", async () => {
    const ends: CallEndEvent[] = [];
    const orchestrator = makeOrchestrator({ tools: createTools(), hooks: { onCallEnd: (event) => ends.push(event) } });
    const tools = aiSdkTools<ToolTypes>(orchestrator, { tools: ['calculator'], context: caller });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'calculator', input: { expression: ['6*7'], precision: 99 } } }),
      () => ({ toolCall: { name: 'calculator', input: { expression: '6*7' } } }),
      (prompt) => ({ text: String((lastResult(prompt).output.value as { result: number }).result) }),
    ]);
    const result = await generateText({ model, tools, prompt: 'six times seven', stopWhen: isStepCount(5) });

    // toolsmith's message exactly (as the MCP server and the other adapters give it), not the SDK's wrapper.
    expect(lastResult(prompts[1]!).output).toEqual({
      type: 'error-text',
      value: [
        "INVALID_ARGUMENTS: The arguments for tool 'calculator' do not fit its input schema. Fix them and call again.",
        '{',
        '  "expression": [ // error: expected a string',
        '    "6*7"',
        '  ],',
        '  "precision": 99 // error: expected an integer <= 15',
        '}',
      ].join('\n'),
    });
    expect(result.steps[0]!.content.find((part) => part.type === 'tool-error')).toMatchObject({
      toolName: 'calculator',
      input: { expression: ['6*7'], precision: 99 },
    });
    expect(result.text).toBe('42');
    // Both calls went through the orchestrator: its hooks saw the invalid one.
    expect(ends.map((event) => [event.toolCallId, event.isError, event.code])).toEqual([
      ['call-1', true, 'INVALID_ARGUMENTS'],
      ['call-2', false, undefined],
    ]);
  });

  it('a tool without a generated validator is validated by the orchestrator; the model still sees the errors', async () => {
    const orchestrator = makeOrchestrator({
      tools: [
        makeTool('echo', {
          inputSchema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
        }),
      ],
    });
    const tools = aiSdkTools(orchestrator, { context: caller });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'echo', input: { text: { not: 'a string' } } } }),
      () => ({ text: 'done' }),
    ]);
    await generateText({ model, tools, prompt: 'echo', stopWhen: isStepCount(3) });
    expect(lastResult(prompts[1]!).output).toEqual({
      type: 'error-text',
      value: [
        "INVALID_ARGUMENTS: The arguments for tool 'echo' do not fit its input schema. Fix them and call again.",
        '{',
        '  "text": { // error: expected a string',
        '    "not": "a string"',
        '  }',
        '}',
      ].join('\n'),
    });
  });

  it('a declared failure: the model gets its code, what to do and its data; the error carries the failure', async () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = aiSdkTools(orchestrator, {
      tools: ['read_file'],
      context: { ...caller, personaCapabilities: ['capability:filesystem:read'] },
    });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'read_file', input: { path: 'no-such-file.txt' } } }),
      () => ({ text: 'done' }),
    ]);
    const result = await generateText({ model, tools, prompt: 'read it', stopWhen: isStepCount(3) });
    const seen = lastResult(prompts[1]!).output;
    expect(seen.type).toBe('error-text');
    expect(String(seen.value).split('\n').slice(1)).toEqual([
      'NOT_FOUND (the same call will fail again): Nothing exists at the path under the root folder: list the folder with `list_directory` and call again with a path it shows.',
      'Data: {"path":"no-such-file.txt"}',
    ]);
    const error = result.steps[0]!.content.find((part) => part.type === 'tool-error')!.error as ToolCallError;
    expect(error.failure).toMatchObject({ code: 'NOT_FOUND', data: { path: 'no-such-file.txt' }, retryable: false });
  });

  it('a missing capability is a PERMISSION_DENIED tool error naming it; a caller with it gets the file', async () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    // The per-call context's type comes from the context function: toolsContext is typed by tool name.
    const tools = aiSdkTools(createToolClient(orchestrator, caller), {
      tools: ['read_file'],
      context: (execution: ToolExecutionOptions<{ capabilities: string[] } | undefined>) => ({
        ...caller,
        personaCapabilities: execution.context?.capabilities ?? [],
      }),
    });
    const script = () =>
      scriptedModel([
        () => ({ toolCall: { name: 'read_file', input: { path: 'package.json', maxBytes: 20 } } }),
        (prompt) => ({ text: JSON.stringify(lastResult(prompt).output) }),
      ]);

    const denied = script();
    await generateText({ model: denied.model, tools, prompt: 'read it', stopWhen: isStepCount(3) });
    const refusal = lastResult(denied.prompts[1]!).output;
    expect(refusal.type).toBe('error-text');
    expect(refusal.value).toContain('PERMISSION_DENIED');
    expect(refusal.value).toContain('capability:filesystem:read');

    const allowed = script();
    await generateText({
      model: allowed.model,
      tools,
      prompt: 'read it',
      stopWhen: isStepCount(3),
      toolsContext: { read_file: { capabilities: ['capability:filesystem:read'] } },
    });
    expect(lastResult(allowed.prompts[1]!).output).toMatchObject({
      type: 'json',
      value: { content: expect.stringContaining('"name"') },
    });
  });

  it("types: toolsContext is typed from the registry, by tool name, with the context function's type", () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = aiSdkTools(createToolClient(orchestrator, caller), {
      tools: ['read_file', 'calculator'],
      context: (execution: ToolExecutionOptions<{ capabilities: string[] }>) => ({
        ...caller,
        personaCapabilities: execution.context.capabilities,
      }),
    });
    expectTypeOf<ToolsContextOf<typeof tools>>().toEqualTypeOf<{
      read_file: { capabilities: string[] };
      calculator: { capabilities: string[] };
    }>();
    expectTypeOf(tools.read_file).toEqualTypeOf<AiSdkTool<ToolTypes['read_file'], { capabilities: string[] }>>();
    const { model } = scriptedModel([() => ({ text: 'none' })]);
    const settings = { model, tools, prompt: 'go' };
    // A context for every tool, of the declared shape, is required; nothing else is accepted.
    // @ts-expect-error toolsContext is required when the context type does not admit undefined
    void (() => generateText(settings));
    void (() =>
      generateText({
        ...settings,
        // @ts-expect-error capabilities must be strings
        toolsContext: { read_file: { capabilities: [1] }, calculator: { capabilities: [] } },
      }));
    void (() =>
      generateText({
        ...settings,
        toolsContext: { read_file: { capabilities: ['capability:filesystem:read'] }, calculator: { capabilities: [] } },
      }));
    // Without a typed context function, tools take no per-call context.
    const untyped = aiSdkTools(createToolClient(orchestrator, caller), { tools: ['calculator'] });
    expectTypeOf<ToolsContextOf<typeof untyped>>().toEqualTypeOf<undefined>();
  });

  it('approval rejected by the orchestrator gate: the model is told APPROVAL_REJECTED with the reason', async () => {
    const asked: string[] = [];
    const sent: string[] = [];
    const orchestrator = makeOrchestrator({
      tools: [sendTool(sent)],
      approvalGate: async ({ tool }) => {
        asked.push(tool.name);
        return { approved: false, reason: 'no messages today' };
      },
    });
    const tools = aiSdkTools(orchestrator, { context: caller });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'send_message', input: { to: 'ada' } } }),
      () => ({ text: 'could not send' }),
    ]);
    const result = await generateText({ model, tools, prompt: 'tell ada', stopWhen: isStepCount(3) });
    expect(asked).toEqual(['send_message']);
    expect(sent).toEqual([]);
    expect(lastResult(prompts[1]!).output).toEqual({
      type: 'error-text',
      value: "APPROVAL_REJECTED: The call to tool 'send_message' was not approved: no messages today",
    });
    expect(result.text).toBe('could not send');
  });

  it("approval 'framework': the SDK asks; a denial never reaches the orchestrator, an approval runs without its gate", async () => {
    const asked: string[] = [];
    const sent: string[] = [];
    const ends: CallEndEvent[] = [];
    const orchestrator = makeOrchestrator({
      tools: [sendTool(sent), ...createTools()],
      requireApproval: 'always',
      approvalGate: async ({ tool }) => {
        asked.push(tool.name);
        return false;
      },
      hooks: { onCallEnd: (event) => ends.push(event) },
    });
    const tools = aiSdkTools(orchestrator, {
      tools: ['send_message', 'calculator'],
      context: caller,
      approval: 'framework',
    });
    expect(tools.send_message!.needsApproval).toBe(true);
    expect(tools.calculator!.needsApproval).toBeUndefined();

    const { model, prompts } = scriptedModel([() => ({ toolCall: { name: 'send_message', input: { to: 'ada' } } })]);
    const first = await generateText({ model, tools, prompt: 'tell ada', stopWhen: isStepCount(3) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'send_message', input: { to: 'ada' } } });
    expect(ends).toEqual([]);

    const answer = (approved: boolean): ModelMessage[] => [
      { role: 'user', content: 'tell ada' },
      ...first.response.messages,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-approval-response',
            approvalId: request!.approvalId,
            approved,
            ...(approved ? {} : { reason: 'not now' }),
          },
        ],
      },
    ];
    const echo = () => scriptedModel([(prompt) => ({ text: JSON.stringify(lastResult(prompt).output) })]);
    const denied = await generateText({
      model: echo().model,
      tools,
      messages: answer(false),
      stopWhen: isStepCount(3),
    });
    expect(JSON.parse(denied.text)).toMatchObject({ type: 'execution-denied', reason: 'not now' });
    expect(ends).toEqual([]);

    const approved = await generateText({
      model: echo().model,
      tools,
      messages: answer(true),
      stopWhen: isStepCount(3),
    });
    expect(JSON.parse(approved.text)).toEqual({ type: 'json', value: { sent: true, to: 'ada' } });
    // requireApproval 'always' with a gate that says no: the framework's yes was the approval.
    expect(asked).toEqual([]);
    expect(sent).toEqual(['ada']);
    expect(ends.map((event) => [event.toolName, event.isError])).toEqual([['send_message', false]]);
    expect(prompts).toHaveLength(1);
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
    const tools = aiSdkTools(orchestrator, { context: caller });
    const { model } = scriptedModel([
      () => ({ toolCall: { name: 'slow', input: {} } }),
      () => ({ text: 'unreachable' }),
    ]);
    const controller = new AbortController();
    const generation = generateText({
      model,
      tools,
      prompt: 'go',
      stopWhen: isStepCount(3),
      abortSignal: controller.signal,
    });
    await running;
    controller.abort(new Error('user pressed stop'));
    await expect(generation).rejects.toThrow();
    expect(toolSignal?.aborted).toBe(true);
    expect(ends.map((event) => event.code)).toEqual(['ABORTED']);
  });

  it('a tool with an output schema: the SDK tool carries it, and an output that breaks it is OUTPUT_INVALID', async () => {
    const orchestrator = makeOrchestrator({
      tools: [
        ...createTools(),
        makeTool('bad_output', {
          outputSchema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
          execute: async () => ({ success: true, output: { n: 'one' } }),
        }),
      ],
    });
    const tools = aiSdkTools(orchestrator, { tools: ['calculator', 'bad_output'], context: caller });
    expect(
      (await tools.calculator.outputSchema) &&
        (tools.calculator as { outputSchema: { jsonSchema: unknown } }).outputSchema.jsonSchema,
    ).toMatchObject({ required: ['expression', 'result'] });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'bad_output', input: {} } }),
      () => ({ text: 'ok' }),
    ]);
    await generateText({ model, tools, prompt: 'go', stopWhen: isStepCount(3) });
    expect(lastResult(prompts[1]!).output.value).toContain(
      "OUTPUT_INVALID: Tool 'bad_output' produced output that fails its output schema: /n must be integer.",
    );
  });

  it('content blocks reach the model as content parts (toModelOutput), the output as the last text', async () => {
    const orchestrator = makeOrchestrator({
      tools: [contentTool('report', { total: 3 }), contentTool('blocks_only'), ...createTools()],
    });
    const tools = aiSdkTools(orchestrator, { tools: ['report', 'blocks_only', 'calculator'], context: caller });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'report', input: {} } }),
      () => ({ toolCall: { name: 'blocks_only', input: {} } }),
      () => ({ toolCall: { name: 'calculator', input: { expression: '1+1' } } }),
      () => ({ text: 'done' }),
    ]);
    const result = await generateText({ model, tools, prompt: 'report', stopWhen: isStepCount(5) });
    // The conversation keeps the output; the model is sent the blocks.
    expect(result.steps[0]!.toolResults.map((part) => part.output)).toEqual([{ total: 3 }]);
    const parts = [
      { type: 'text', text: 'A chart of the week.' },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } },
      { type: 'file', mediaType: 'audio/wav', data: { type: 'data', data: 'UklGRg==' } },
      { type: 'text', text: 'day,n\nmon,3' },
      {
        type: 'file',
        mediaType: 'application/octet-stream',
        data: { type: 'data', data: 'AAECAw==' },
        filename: 'week.bin',
      },
      { type: 'text', text: 'Resource link: week.pdf <https://example.com/reports/week.pdf> (application/pdf)' },
    ];
    expect(CONTENT_BLOCKS).toHaveLength(parts.length);
    const sent = toolResults(prompts[3]!).map((part) => part.output);
    expect(sent[0]).toEqual({ type: 'content', value: [...parts, { type: 'text', text: '{"total":3}' }] });
    expect(sent[1]).toEqual({ type: 'content', value: parts });
    // A result without blocks keeps the SDK's own form.
    expect(sent[2]).toEqual({ type: 'json', value: { expression: '1+1', result: 2 } });
  });

  it('lazily registered tools (createLazyTools) work the same: loaded on the first call, validated by the orchestrator', async () => {
    const orchestrator = makeOrchestrator({ tools: createLazyTools() });
    const tools = aiSdkTools<ToolTypes>(orchestrator, { tools: ['calculator'], context: caller });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'calculator', input: { expression: '' } } }),
      () => ({ toolCall: { name: 'calculator', input: { expression: '2^10' } } }),
      (prompt) => ({ text: JSON.stringify(lastResult(prompt).output) }),
    ]);
    const result = await generateText({ model, tools, prompt: '2^10', stopWhen: isStepCount(5) });
    expect(lastResult(prompts[1]!).output.value).toBe(
      [
        "INVALID_ARGUMENTS: The arguments for tool 'calculator' do not fit its input schema. Fix them and call again.",
        '{',
        '  "expression": "" // error: expected a string of at least 1 character',
        '}',
      ].join('\n'),
    );
    expect(JSON.parse(result.text)).toEqual({ type: 'json', value: { expression: '2^10', result: 1024 } });
  });

  it("the turn's budget and the orchestrator's timeout apply, and the model is told", async () => {
    const orchestrator = makeOrchestrator({
      tools: [...createTools(), makeTool('stuck', { execute: () => new Promise(() => {}) })],
      defaultTimeoutMs: 30,
    });
    const budget = { remaining: 2 };
    const tools = aiSdkTools(orchestrator, {
      tools: ['stuck', 'calculator'],
      context: { ...caller, callerTurn: { budget } },
    });
    const { model, prompts } = scriptedModel([
      () => ({ toolCall: { name: 'stuck', input: {} } }),
      () => ({ toolCall: { name: 'calculator', input: { expression: '1+1' } } }),
      () => ({ toolCall: { name: 'calculator', input: { expression: '2+2' } } }),
      () => ({ text: 'done' }),
    ]);
    await generateText({ model, tools, prompt: 'go', stopWhen: isStepCount(5) });
    const answers = toolResults(prompts[3]!).map((part) =>
      part.output.type === 'json' ? part.output.value : String(part.output.value).split(':')[0],
    );
    expect(answers).toEqual(['TIMEOUT', { expression: '1+1', result: 2 }, 'BUDGET_EXCEEDED']);
    expect(budget.remaining).toBe(0);
  });

  it('unknown tool names and a missing context are programmer errors', () => {
    const orchestrator = makeOrchestrator({ tools: createTools(), disabledTools: ['read_file'] });
    expect(() => aiSdkTools(orchestrator, { tools: ['calculater'], context: caller })).toThrow(
      "Tool 'calculater' is not registered (or is disabled). Registered: calculator,",
    );
    expect(() => aiSdkTools(orchestrator, { tools: ['read_file'], context: caller })).toThrow(
      /not registered \(or is disabled\)/,
    );
    expect(() => aiSdkTools(orchestrator)).toThrow(/needs a `context`/);
    expect(Object.keys(aiSdkTools(orchestrator, { context: caller }))).not.toContain('read_file');
  });

  it('a ToolClient gives its defaults as the context and its types to the tools', async () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = aiSdkTools(createToolClient(orchestrator, caller), { tools: ['calculator'] });
    const output = await tools.calculator.execute!(
      { expression: '1+1' },
      { toolCallId: 'direct', messages: [], context: undefined },
    );
    expect(output).toEqual({ expression: '1+1', result: 2 });
  });

  it('types: input and output of each tool survive the adapter', () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const typed = aiSdkTools(createToolClient(orchestrator, caller), { tools: ['calculator', 'read_file'] });
    expectTypeOf(typed).toEqualTypeOf<{
      calculator: AiSdkTool<ToolTypes['calculator']>;
      read_file: AiSdkTool<ToolTypes['read_file']>;
    }>();
    expectTypeOf<Parameters<NonNullable<typeof typed.calculator.execute>>[0]>().toEqualTypeOf<
      ToolInput<'calculator'>
    >();
    expectTypeOf<Awaited<ReturnType<NonNullable<typeof typed.read_file.execute>>>>().toMatchTypeOf<
      ToolOutput<'read_file'> | AsyncIterable<ToolOutput<'read_file'>>
    >();
    const all = aiSdkTools<ToolTypes>(orchestrator, { context: caller });
    expectTypeOf(all.memory_write).toEqualTypeOf<AiSdkTool<ToolTypes['memory_write']>>();
    // @ts-expect-error not a registered tool name
    expect(() => aiSdkTools(createToolClient(orchestrator, caller), { tools: ['calculater'] })).toThrow(
      /not registered/,
    );
  });
});
