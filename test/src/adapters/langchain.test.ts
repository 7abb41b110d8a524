import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createAgent } from 'langchain';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { langChainTools, type LangChainTool } from '../../../src/adapters/langchain.js';
import type { CallEndEvent } from '../../../src/index.js';
import {
  createToolClient,
  createTools,
  type ToolInput,
  type ToolOutput,
  type ToolTypes,
} from '../../../generated/registry.js';
import { CONTENT_BLOCKS, caller, contentTool, makeTool, useOrchestrators } from '../helpers.js';

/** The last tool message the model was sent. */
function lastToolMessage(messages: BaseMessage[]): ToolMessage {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message)).at(-1)!;
}

/** A final answer that repeats the last tool message (its status and text), so a test sees what the model saw. */
const echoLastTool = (messages: BaseMessage[]) => {
  const message = lastToolMessage(messages);
  return new AIMessage(`${message.status}: ${String(message.content)}`);
};

describe('toolsmith-sdk/langchain: a createAgent loop with the fake chat model', () => {
  const makeOrchestrator = useOrchestrators();

  it('a valid call runs through the orchestrator and the result goes back to the model', async () => {
    const ends: CallEndEvent[] = [];
    const orchestrator = makeOrchestrator({ tools: createTools(), hooks: { onCallEnd: (event) => ends.push(event) } });
    const tools = langChainTools(createToolClient(orchestrator, caller), { tools: ['calculator'] });
    const model = fakeModel()
      .respondWithTools([{ name: 'calculator', args: { expression: '2*(3+4)' }, id: 'call-1' }])
      .respond(
        (messages) => new AIMessage(`The answer is ${JSON.parse(String(lastToolMessage(messages).content)).result}.`),
      );
    const agent = createAgent({ model, tools });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'What is 2*(3+4)?' }] });

    expect(result.messages.at(-1)!.content).toBe('The answer is 14.');
    expect(ends.map((event) => [event.toolName, event.toolCallId, event.isError])).toEqual([
      ['calculator', 'call-1', false],
    ]);
    // What bindTools sends (providers convert tools with convertToOpenAITool / toJsonSchema): the definition's own schema.
    expect(convertToOpenAITool(tools[0]).function).toEqual({
      name: 'calculator',
      description: orchestrator.getTool('calculator')!.description,
      parameters: orchestrator.getTool('calculator')!.inputSchema,
    });
  });

  it('a declared failure: an error tool message naming its code, what to do and its data', async () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = langChainTools(orchestrator, {
      tools: ['read_file'],
      context: { ...caller, personaCapabilities: ['capability:filesystem:read'] },
    });
    const model = fakeModel()
      .respondWithTools([{ name: 'read_file', args: { path: 'no-such-file.txt' }, id: 'call-1' }])
      .respond(echoLastTool);
    const result = await createAgent({ model, tools }).invoke({ messages: [{ role: 'user', content: 'read it' }] });
    const lines = String(result.messages.at(-1)!.content).split('\n');
    expect(lines[0]).toBe(
      `error: TOOL_FAILED: Tool 'read_file' failed: "no-such-file.txt" does not exist under the root folder`,
    );
    expect(lines[1]).toMatch(/^NOT_FOUND \(the same call will fail again\): Nothing exists at the path/);
    expect(lines[2]).toMatch(/^Data: \{"path":"no-such-file.txt"\}/);
  });

  it('invalid arguments: the model sees the validation errors and retries', async () => {
    const ends: CallEndEvent[] = [];
    const orchestrator = makeOrchestrator({ tools: createTools(), hooks: { onCallEnd: (event) => ends.push(event) } });
    const tools = langChainTools(orchestrator, { tools: ['calculator'], context: caller });
    const model = fakeModel()
      .respondWithTools([{ name: 'calculator', args: { expression: '', precision: 99 }, id: 'call-1' }])
      .respondWithTools([{ name: 'calculator', args: { expression: '6*7' }, id: 'call-2' }])
      .respond((messages) => new AIMessage(String(JSON.parse(String(lastToolMessage(messages).content)).result)));
    const agent = createAgent({ model, tools });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'six times seven' }] });

    const rejected = result.messages.find(
      (message) => ToolMessage.isInstance(message) && message.tool_call_id === 'call-1',
    ) as ToolMessage;
    expect(rejected.status).toBe('error');
    expect(rejected.content).toBe(
      [
        "INVALID_ARGUMENTS: The arguments for tool 'calculator' do not fit its input schema. Fix them and call again.",
        '{',
        '  "expression": "", // error: expected a string of at least 1 character',
        '  "precision": 99 // error: expected an integer <= 15',
        '}',
        ' Please fix your mistakes.',
      ].join('\n'),
    );
    expect(result.messages.at(-1)!.content).toBe('42');
    // Validated once, by the orchestrator (LangChain's own check has nothing to check): the first call failed there.
    expect(ends.map((event) => [event.toolCallId, event.code])).toEqual([
      ['call-1', 'INVALID_ARGUMENTS'],
      ['call-2', undefined],
    ]);
  });

  it("the schema is a Standard JSON Schema: the definition's schema for the model, the generated validator for values", () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const [calculator] = langChainTools(orchestrator, { tools: ['calculator'], context: caller });
    const standard = calculator!.schema['~standard'];
    expect(standard.jsonSchema.input()).toEqual(orchestrator.getTool('calculator')!.inputSchema);
    expect(standard.validate({ expression: '1+1' })).toEqual({ value: { expression: '1+1', precision: 10 } });
    expect(standard.validate({ expression: '', extra: 1 })).toEqual({
      issues: [
        { message: '/extra is not allowed', path: ['extra'] },
        { message: '/expression must NOT have fewer than 1 characters', path: ['expression'] },
      ],
    });
  });

  it('a missing capability: PERMISSION_DENIED names it; the runnable config decides per caller', async () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = langChainTools<ToolTypes, ['read_file']>(orchestrator, {
      tools: ['read_file'],
      context: (config) => ({
        ...caller,
        personaCapabilities: (config.configurable?.capabilities as string[] | undefined) ?? [],
      }),
    });
    const run = (capabilities: string[]) =>
      createAgent({
        model: fakeModel()
          .respondWithTools([{ name: 'read_file', args: { path: 'package.json', maxBytes: 20 }, id: 'call-1' }])
          .respond(echoLastTool),
        tools,
      }).invoke({ messages: [{ role: 'user', content: 'read it' }] }, { configurable: { capabilities } });

    const denied = await run([]);
    expect(denied.messages.at(-1)!.content).toMatch(/^error: PERMISSION_DENIED: .*capability:filesystem:read/);
    const allowed = await run(['capability:filesystem:read']);
    const answer = String(allowed.messages.at(-1)!.content);
    expect(answer.startsWith('success: ')).toBe(true);
    expect(JSON.parse(answer.slice('success: '.length))).toMatchObject({
      path: 'package.json',
      truncated: true,
      content: '{\n  "name": "toolsmi',
    });
  });

  it('approval rejected by the orchestrator gate: the model is told APPROVAL_REJECTED', async () => {
    const sent: string[] = [];
    const orchestrator = makeOrchestrator({
      tools: [sendTool(sent)],
      approvalGate: async () => ({ approved: false, reason: 'no messages today' }),
    });
    const tools = langChainTools(orchestrator, { context: caller });
    const model = fakeModel()
      .respondWithTools([{ name: 'send_message', args: { to: 'ada' }, id: 'call-1' }])
      .respond(echoLastTool);
    const result = await createAgent({ model, tools }).invoke({ messages: [{ role: 'user', content: 'tell ada' }] });
    expect(result.messages.at(-1)!.content).toBe(
      "error: APPROVAL_REJECTED: The call to tool 'send_message' was not approved: no messages today\n Please fix your mistakes.",
    );
    expect(sent).toEqual([]);
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
    const tools = langChainTools(orchestrator, { context: caller });
    const model = fakeModel()
      .respondWithTools([{ name: 'slow', args: {}, id: 'call-1' }])
      .respond(new AIMessage('unreachable'));
    const controller = new AbortController();
    const run = createAgent({ model, tools }).invoke(
      { messages: [{ role: 'user', content: 'go' }] },
      { signal: controller.signal },
    );
    await running;
    controller.abort(new Error('user pressed stop'));
    await expect(run).rejects.toThrow();
    expect(toolSignal?.aborted).toBe(true);
    expect(ends.map((event) => event.code)).toEqual(['ABORTED']);
    expect(model.callCount).toBe(1);
  });

  it('a tool with an output schema: direct invoke answers the typed output; a broken output is OUTPUT_INVALID for the model', async () => {
    const orchestrator = makeOrchestrator({
      tools: [
        ...createTools(),
        makeTool('bad_output', {
          outputSchema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
          execute: async () => ({ success: true, output: { n: 'one' } }),
        }),
      ],
    });
    const [calculator] = langChainTools(createToolClient(orchestrator, caller), { tools: ['calculator'] });
    expect(await calculator.invoke({ expression: '1+1' })).toEqual({ expression: '1+1', result: 2 });

    const tools = langChainTools(orchestrator, { tools: ['bad_output'], context: caller });
    const model = fakeModel()
      .respondWithTools([{ name: 'bad_output', args: {}, id: 'call-1' }])
      .respond(echoLastTool);
    const result = await createAgent({ model, tools }).invoke({ messages: [{ role: 'user', content: 'go' }] });
    expect(result.messages.at(-1)!.content).toBe(
      "error: OUTPUT_INVALID: Tool 'bad_output' produced output that fails its output schema: /n must be integer.\n- /n: must be integer\n Please fix your mistakes.",
    );
  });

  it('content blocks reach the model in the tool message as standard content blocks, the output as its artifact', async () => {
    const orchestrator = makeOrchestrator({ tools: [contentTool('report', { total: 3 }), contentTool('blocks_only')] });
    const tools = langChainTools(orchestrator, { context: caller });
    const model = fakeModel()
      .respondWithTools([{ name: 'report', args: {}, id: 'call-1' }])
      .respondWithTools([{ name: 'blocks_only', args: {}, id: 'call-2' }])
      .respond(new AIMessage('done'));
    const result = await createAgent({ model, tools }).invoke({ messages: [{ role: 'user', content: 'report' }] });
    const messages = result.messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
    const blocks = [
      { type: 'text', text: 'A chart of the week.' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
      { type: 'text', text: 'day,n\nmon,3' },
      {
        type: 'file',
        mimeType: 'application/octet-stream',
        data: 'AAECAw==',
        metadata: { filename: 'week.bin', uri: 'file:///reports/week.bin' },
      },
      { type: 'text', text: 'Resource link: week.pdf <https://example.com/reports/week.pdf> (application/pdf)' },
    ];
    expect(CONTENT_BLOCKS).toHaveLength(blocks.length);
    expect(
      messages.map((message) => [message.tool_call_id, message.status, message.content, message.artifact]),
    ).toEqual([
      ['call-1', 'success', [...blocks, { type: 'text', text: '{"total":3}' }], { total: 3 }],
      ['call-2', 'success', blocks, null],
    ]);
    // What the model was sent on its third turn: the same tool messages.
    expect(lastToolMessage(model.calls[2]!.messages as BaseMessage[]).content).toEqual(blocks);
    // Invoked directly (no tool call), the tool answers its output.
    expect(await tools[0]!.invoke({})).toEqual({ total: 3 });
  });

  it('types: each tool keeps its name, input and output types, in the order of the names', () => {
    const orchestrator = makeOrchestrator({ tools: createTools() });
    const tools = langChainTools(createToolClient(orchestrator, caller), { tools: ['calculator', 'read_file'] });
    expectTypeOf(tools).toEqualTypeOf<
      [LangChainTool<ToolTypes['calculator'], 'calculator'>, LangChainTool<ToolTypes['read_file'], 'read_file'>]
    >();
    expectTypeOf(tools[0].name).toEqualTypeOf<'calculator'>();
    expectTypeOf<Parameters<(typeof tools)[0]['func']>[0]>().toEqualTypeOf<ToolInput<'calculator'>>();
    expectTypeOf<Awaited<Extract<ReturnType<(typeof tools)[1]['func']>, Promise<unknown>>>>().toEqualTypeOf<
      ToolOutput<'read_file'>
    >();
    // @ts-expect-error not a registered tool name
    expect(() => langChainTools(createToolClient(orchestrator, caller), { tools: ['calculater'] })).toThrow(
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
