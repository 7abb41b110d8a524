import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolOrchestrator, type ITool } from '../../src/index.js';
import {
  checkedElicit,
  elicitationSchemaProblem,
  MAX_FORM_CHOICES,
  type ElicitAnswer,
} from '../../src/caller/elicitation.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { startHttpServer, type McpHttpServer } from '../../src/mcp/http.js';
import { makeTool } from './helpers.js';

/*
 * Asking the user over MCP: a tool's `context.elicit` and the approval of a side-effect tool, for the
 * official v2 client on 2026-07-28 (input_required, the call run again with the answer) and on the
 * 2025 handshake (elicitation/create, answered in a POST of its own over stateless HTTP), and the v1
 * client; a client that cannot ask gets what it got before.
 */

const FORM = {
  type: 'object',
  properties: { city: { type: 'string' }, nights: { type: 'integer', minimum: 1, default: 1 } },
  required: ['city'],
};

let runs = 0;
let effects = 0;
const book = makeTool('book_trip', {
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async execute(_args, context) {
    runs++;
    if (context.elicit === undefined) return { success: false, error: 'cannot ask' };
    const answer = await context.elicit({ message: 'Where to?', requestedSchema: FORM });
    if (answer.action !== 'accept') return { success: true, output: { booked: false, action: answer.action } };
    effects++;
    return { success: true, output: { booked: true, ...answer.content } };
  },
});

let samples = 0;
const summarize = makeTool('summarize', {
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  async execute(args, context) {
    samples++;
    if (context.sample === undefined) return { success: false, error: 'cannot sample' };
    const answer = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${String(args.text)}` } }],
      maxTokens: 50,
    });
    return { success: true, output: { summary: (answer.content as { text?: string }).text, model: answer.model } };
  },
});

let sent = 0;
const sendEmail: ITool = {
  ...makeTool('send_email', {
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' } },
      required: ['to'],
      additionalProperties: false,
    },
    async execute(args) {
      sent++;
      return { success: true, output: { sent: args.to } };
    },
  }),
  hasSideEffects: true,
  description: 'Sends an email.',
};

let server: McpHttpServer;
beforeAll(async () => {
  server = await startHttpServer(new ToolOrchestrator({ tools: [book, sendEmail, summarize] }), {
    port: 0,
    handleSignals: false,
  });
});
afterAll(async () => {
  await server.close();
});

type Mode = { pin: '2026-07-28' } | 'legacy';
const MODES: Mode[] = [{ pin: '2026-07-28' }, 'legacy'];

/** A v2 client whose user answers each question with `answer(message)`. */
async function clientAnswering(mode: Mode, answer: (message: string) => ElicitAnswer): Promise<Client> {
  const client = new Client(
    { name: 'asker', version: '1' },
    { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => answer(request.params.message) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return client;
}

function output(result: unknown): Record<string, unknown> {
  const answer = result as { isError?: boolean; content: { text: string }[] };
  expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
  return JSON.parse(answer.content.at(-1)!.text) as Record<string, unknown>;
}

describe('a tool asks the user (context.elicit) over serve --http', () => {
  for (const mode of MODES) {
    it(`v2 client ${JSON.stringify(mode)}: the answer reaches the tool, defaults filled, its effect done once`, async () => {
      const client = await clientAnswering(mode, () => ({ action: 'accept', content: { city: 'Oslo' } }));
      try {
        runs = 0;
        effects = 0;
        const result = await client.callTool({ name: 'book_trip', arguments: {} });
        expect(output(result)).toEqual({ booked: true, city: 'Oslo', nights: 1 });
        expect(effects).toBe(1);
        // 2026-07-28: input_required, then the call again from the start with the answer; 2025: one run.
        expect(runs).toBe(typeof mode === 'object' ? 2 : 1);
      } finally {
        await client.close();
      }
    });

    it(`v2 client ${JSON.stringify(mode)}: an answer that does not fit the form never reaches the tool`, async () => {
      const client = await clientAnswering(mode, () => ({ action: 'accept', content: { nights: 0 } }));
      try {
        effects = 0;
        const result = (await client.callTool({ name: 'book_trip', arguments: {} })) as {
          isError?: boolean;
          content: { text: string }[];
        };
        expect(result.isError).toBe(true);
        expect(result.content[0]!.text).toMatch(/the answer does not fit the form/);
        expect(effects).toBe(0);
      } finally {
        await client.close();
      }
    });
  }

  it('a v2 client that declares no elicitation: the tool gets no elicit (2026-07-28)', async () => {
    const client = new Client({ name: 'mute', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const result = (await client.callTool({ name: 'book_trip', arguments: {} })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(result.content[0]!.text).toMatch(/cannot ask/);
      expect(result.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('the v1 client (1.32.2) answers elicitation/create over stateless HTTP', async () => {
    const client = new ClientV1({ name: 'asker-v1', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { city: 'Rome', nights: 3 },
    }));
    await client.connect(new TransportV1(new URL(server.url)));
    try {
      expect(output(await client.callTool({ name: 'book_trip', arguments: {} }))).toEqual({
        booked: true,
        city: 'Rome',
        nights: 3,
      });
    } finally {
      await client.close();
    }
  });

  it('an answer POSTed for a question this server never asked is refused 404', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'toolsmith-00000000-0000-0000-0000-000000000000',
        result: { action: 'accept' },
      }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'No call on this server',
    );
  });
});

describe('a side-effect tool no gate decides: the user is asked', () => {
  for (const mode of MODES) {
    it(`v2 client ${JSON.stringify(mode)}: approved → runs once; declined → APPROVAL_REJECTED, nothing sent`, async () => {
      const questions: string[] = [];
      let approve = true;
      const client = await clientAnswering(mode, (message) => {
        questions.push(message);
        return { action: 'accept', content: { approve } };
      });
      try {
        sent = 0;
        expect(output(await client.callTool({ name: 'send_email', arguments: { to: 'ann@example.com' } }))).toEqual({
          sent: 'ann@example.com',
        });
        expect(sent).toBe(1);
        expect(questions[0]).toContain("Allow the tool 'send_email' to run? It has side effects (Sends an email.)");
        expect(questions[0]).toContain('{"to":"ann@example.com"}');
        approve = false;
        const refused = (await client.callTool({ name: 'send_email', arguments: { to: 'bob@example.com' } })) as {
          isError?: boolean;
          content: { text: string }[];
        };
        expect(refused.isError).toBe(true);
        expect(refused.content[0]!.text).toMatch(/^APPROVAL_REJECTED: .*The user did not approve the call/);
        expect(sent).toBe(1);
      } finally {
        await client.close();
      }
    });
  }

  it('a client that cannot ask still gets APPROVAL_REJECTED (2026-07-28 without the capability; v1 without a handler)', async () => {
    sent = 0;
    const modern = new Client({ name: 'mute', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const v1 = new ClientV1({ name: 'mute-v1', version: '1' });
    await v1.connect(new TransportV1(new URL(server.url)));
    try {
      for (const client of [modern, v1]) {
        const refused = (await client.callTool({ name: 'send_email', arguments: { to: 'x@example.com' } })) as {
          isError?: boolean;
          content: { text: string }[];
        };
        expect(refused.isError).toBe(true);
        expect(refused.content[0]!.text).toMatch(/^APPROVAL_REJECTED/);
      }
      expect(sent).toBe(0);
    } finally {
      await modern.close();
      await v1.close();
    }
  });

  it('over a stateful connection (stdio-like) the client capabilities decide: no capability, no question', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [sendEmail] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = createMcpServer(orchestrator);
    await mcp.connect(serverSide as never);
    // No elicitation capability (a question would be answered -32601 and named so in the refusal).
    const client = new ClientV1({ name: 'mem', version: '1' });
    await client.connect(clientSide);
    try {
      sent = 0;
      const refused = (await client.callTool({ name: 'send_email', arguments: { to: 'x@example.com' } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect([refused.isError, sent]).toEqual([true, 0]);
      expect(refused.content[0]!.text).toMatch(/nothing approved the call/);
    } finally {
      await client.close();
      await orchestrator.shutdown();
    }
  });
});

describe('a tool asks for a model call (context.sample) over serve --http', () => {
  for (const mode of MODES) {
    it(`v2 client ${JSON.stringify(mode)} with sampling: the client's model answers, the tool sees it`, async () => {
      const client = new Client(
        { name: 'sampler', version: '1' },
        { versionNegotiation: { mode }, capabilities: { sampling: {} } },
      );
      const prompts: string[] = [];
      client.setRequestHandler('sampling/createMessage', async (request) => {
        prompts.push(JSON.stringify(request.params.messages));
        return {
          role: 'assistant',
          content: { type: 'text', text: 'Short.' },
          model: 'test-model',
          stopReason: 'endTurn',
        } as never;
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        samples = 0;
        expect(output(await client.callTool({ name: 'summarize', arguments: { text: 'a long text' } }))).toEqual({
          summary: 'Short.',
          model: 'test-model',
        });
        expect(prompts[0]).toContain('Summarize: a long text');
        // 2026-07-28: input_required, then the call again with the model's answer.
        expect(samples).toBe(typeof mode === 'object' ? 2 : 1);
      } finally {
        await client.close();
      }
    });
  }

  it('a 2026-07-28 client without sampling: the tool gets no sample', async () => {
    const client = new Client({ name: 'mute', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const result = (await client.callTool({ name: 'summarize', arguments: { text: 'x' } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/^TOOL_FAILED: .*cannot sample/);
    } finally {
      await client.close();
    }
  });
});

describe('elicitation forms and answers', () => {
  it('accepts the flat forms MCP allows and names what is wrong with others', () => {
    expect(elicitationSchemaProblem(FORM)).toBeUndefined();
    expect(
      elicitationSchemaProblem({
        type: 'object',
        properties: { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, ok: { type: 'boolean' } },
      }),
    ).toBeUndefined();
    expect(elicitationSchemaProblem({ type: 'array' })).toMatch(/type "object"/);
    expect(elicitationSchemaProblem({ type: 'object', properties: { address: { type: 'object' } } })).toMatch(
      /properties\.address: .*MCP forms are flat/,
    );
    expect(
      elicitationSchemaProblem({ type: 'object', properties: { when: { type: 'string', format: 'time' } } }),
    ).toMatch(/properties\.when\.format: "time" is not one MCP forms allow/);
    expect(elicitationSchemaProblem({ type: 'object', properties: {}, required: ['x'] })).toMatch(/names 'x'/);
  });

  it('refuses, naming the keyword, what MCP forms cannot carry, reading nothing under it', () => {
    const city = { type: 'string' };
    const nested = (depth: number) => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let level = 0; level < depth; level++) schema = { not: schema };
      return schema;
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ $ref: '#/$defs/form', $defs: {} }, "requestedSchema.$ref: MCP forms do not carry '$ref'"],
      [{ type: 'object', properties: { city }, allOf: [{}] }, "requestedSchema.allOf: MCP forms do not carry 'allOf'"],
      [{ type: 'object', properties: { city }, if: {}, then: {} }, "requestedSchema.if: MCP forms do not carry 'if'"],
      [
        { type: 'object', properties: { city }, additionalProperties: { type: 'string' } },
        'requestedSchema.additionalProperties: MCP forms carry only false here',
      ],
      [
        { type: 'object', properties: { city: { type: 'string', $ref: '#/x' } } },
        "requestedSchema.properties.city.$ref: MCP forms do not carry '$ref' on a string field",
      ],
      [
        { type: 'object', properties: { city: { type: 'string', pattern: '(' } } },
        "requestedSchema.properties.city.pattern: MCP forms do not carry 'pattern'",
      ],
      [
        { type: 'object', properties: { city: { type: 'string', not: nested(10_000) } } },
        "requestedSchema.properties.city.not: MCP forms do not carry 'not'",
      ],
      [
        { type: 'object', properties: { n: { type: 'integer', minimum: '1' } } },
        'requestedSchema.properties.n.minimum must be a number.',
      ],
      [
        { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', pattern: 'a' } } } },
        'requestedSchema.properties.tags.items: an array field is a multi-select',
      ],
      [
        { type: 'object', properties: { pick: { type: 'string', oneOf: [{ const: 'a', title: 'A', x: 1 }] } } },
        'requestedSchema.properties.pick.oneOf must be choices { const: string, title: string }',
      ],
      [
        {
          type: 'object',
          properties: Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`f${index}`, { type: 'boolean' }])),
        },
        'requestedSchema.properties has 51 fields, more than a form may have (50).',
      ],
    ];
    for (const [form, message] of cases) expect(elicitationSchemaProblem(form), message).toContain(message);
    // Choices are counted over the whole form, before any is read: 200,000 values are refused at once.
    const enumOf = (count: number) => ({
      type: 'string',
      enum: Array.from({ length: count }, (_, index) => `c${index}`),
    });
    expect(elicitationSchemaProblem({ type: 'object', properties: { a: enumOf(MAX_FORM_CHOICES) } })).toBeUndefined();
    for (const form of [
      { type: 'object', properties: { a: enumOf(600), b: enumOf(401) } },
      { type: 'object', properties: { a: { type: 'string', enum: new Array(200_000) } } },
    ])
      expect(elicitationSchemaProblem(form)).toMatch(
        /\.enum must be an array of at most 1000 strings in all the form's fields/,
      );
    // Annotations pass anywhere, and so does additionalProperties: false.
    expect(
      elicitationSchemaProblem({
        type: 'object',
        title: 'Trip',
        additionalProperties: false,
        properties: { city: { type: 'string', title: 'City', 'x-ui': 'wide', examples: ['Oslo'] } },
      }),
    ).toBeUndefined();
  });

  it("takes from an accepted answer only the form's fields, within a size, never a prototype", async () => {
    const answering = (content: unknown) =>
      checkedElicit(async () => ({ action: 'accept', content: content as ElicitAnswer['content'] }));
    const ask = (content: unknown) => answering(content)({ message: 'x', requestedSchema: FORM });
    for (const [content, message] of [
      [{ city: 'Oslo', admin: true }, "elicit: the answer has 'admin', which is not a field of the form."],
      [JSON.parse('{"city":"Oslo","__proto__":{"admin":true}}'), "elicit: the answer has '__proto__'"],
      [{ city: 'Oslo', constructor: 'x' }, "elicit: the answer has 'constructor'"],
      [
        { city: 'x'.repeat(900_000) },
        'elicit: the answer takes 900011 characters as JSON, more than an answer may (65536).',
      ],
      [['Oslo'], "elicit: the answer content is not an object of the form's fields."],
    ] as const)
      await expect(ask(content), message).rejects.toMatchObject({
        code: 'ELICITATION_ANSWER_INVALID',
        message: expect.stringContaining(message),
      });
    // A prototype set by a parser (not an own key) never reaches the tool: the content is copied as JSON.
    const polluted = Object.create({ admin: true }) as Record<string, unknown>;
    polluted.city = 'Oslo';
    const answer = await ask(polluted);
    expect(answer).toEqual({ action: 'accept', content: { city: 'Oslo', nights: 1 } });
    expect(Object.getPrototypeOf(answer.content)).toBe(Object.prototype);
    expect((answer.content as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuses a bad form before asking, checks the answer, passes decline and cancel through', async () => {
    let asked = 0;
    const elicit = checkedElicit(async () => {
      asked++;
      return { action: 'accept', content: { city: 'Oslo', nights: '2' as never } };
    });
    await expect(
      elicit({ message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } }),
    ).rejects.toMatchObject({
      code: 'ELICITATION_FORM_INVALID',
    });
    expect(asked).toBe(0);
    // A string where an integer is asked for is coerced as the runtime coerces arguments.
    expect(await elicit({ message: 'x', requestedSchema: FORM })).toEqual({
      action: 'accept',
      content: { city: 'Oslo', nights: 2 },
    });
    const declined = checkedElicit(async () => ({ action: 'decline', content: { junk: true } as never }));
    expect(await declined({ message: 'x', requestedSchema: FORM })).toEqual({ action: 'decline' });
    const broken = checkedElicit(async () => ({ action: 'maybe' }) as never);
    await expect(broken({ message: 'x', requestedSchema: FORM })).rejects.toMatchObject({
      code: 'ELICITATION_ANSWER_INVALID',
    });
  });

  it('checks each field of an accepted answer against its form, coercing as arguments are', async () => {
    const form = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 5 },
        mail: { type: 'string', format: 'email' },
        day: { type: 'string', format: 'date' },
        size: { type: 'string', enum: ['s', 'm'] },
        pick: { type: 'string', oneOf: [{ const: 'a', title: 'A' }] },
        count: { type: 'integer', minimum: 1, maximum: 3 },
        ok: { type: 'boolean', default: true },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, maxItems: 1 },
      },
      required: ['name'],
    };
    const answer = (content: Record<string, unknown>) =>
      checkedElicit(async () => ({ action: 'accept', content: content as ElicitAnswer['content'] }))({
        message: 'x',
        requestedSchema: form,
      });
    expect(
      await answer({ name: 'Ann', mail: 'a@b.io', day: '2026-01-31', size: 'm', pick: 'a', count: '2', tags: ['y'] }),
    ).toEqual({
      action: 'accept',
      content: {
        name: 'Ann',
        mail: 'a@b.io',
        day: '2026-01-31',
        size: 'm',
        pick: 'a',
        count: 2,
        ok: true,
        tags: ['y'],
      },
    });
    await expect(
      answer({
        name: 'A',
        mail: 'nope',
        day: '2026-02-31',
        size: 'xl',
        pick: 'b',
        count: 4,
        ok: 'maybe',
        tags: ['x', 'z'],
      }),
    ).rejects.toMatchObject({
      code: 'ELICITATION_ANSWER_INVALID',
      message:
        "elicit: the answer does not fit the form: 'name' must have at least 2 characters; 'mail' must be an email; " +
        "'day' must be a date; 'size' is \"xl\", which is not one of the choices; 'pick' is \"b\", which is not one of the choices.",
    });
    await expect(answer({ count: 4, ok: 'maybe', tags: ['x', 'z'] })).rejects.toMatchObject({
      message:
        "elicit: the answer does not fit the form: 'name' is required; 'count' must be at most 3; 'ok' must be a boolean; " +
        '\'tags\' has "z", which is not one of the choices.',
    });
    await expect(answer({ name: 'Bo', tags: ['x', 'y'] })).rejects.toMatchObject({
      message: "elicit: the answer does not fit the form: 'tags' must have at most 1 choices.",
    });
  });

  it('refuses a default that does not fit its field before asking', async () => {
    let asked = 0;
    const elicit = checkedElicit(async () => {
      asked++;
      return { action: 'accept', content: {} };
    });
    await expect(
      elicit({
        message: 'x',
        requestedSchema: { type: 'object', properties: { n: { type: 'integer', default: 'x' } } },
      }),
    ).rejects.toMatchObject({
      code: 'ELICITATION_FORM_INVALID',
      message: 'elicit: requestedSchema.properties.n.default must be an integer.',
    });
    expect(asked).toBe(0);
  });
});
