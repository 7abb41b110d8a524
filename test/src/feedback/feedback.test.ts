import { describe, expect, it } from 'vitest';
import { feedbackJson, feedbackText, ToolOrchestrator, type ITool, type ToolCallResult } from '../../../src/index.js';

/*
 * The feedback a model gets for arguments that do not fit: each problem once, at its path, in plain
 * words, the arguments echoed with each problem marked. Every call here goes through a real
 * orchestrator (the arguments step describes the problems; feedbackText lays them out).
 */

const COLORS = [
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'indigo',
  'violet',
  'black',
  'white',
  'grey',
  'brown',
  'pink',
];
const INPUT = {
  type: 'object',
  additionalProperties: false,
  required: ['city'],
  dependencies: { ratio: ['step'] },
  properties: {
    city: { type: 'string', minLength: 2, maxLength: 20 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit', 'kelvin'] },
    version: { const: 'v2' },
    days: { type: 'integer', minimum: 1, maximum: 14 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    step: { type: 'number', multipleOf: 0.5 },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    email: { type: 'string', format: 'email' },
    date: { type: 'string', format: 'date' },
    id: { type: 'string', format: 'uuid' },
    site: { type: 'string', format: 'uri' },
    dryRun: { type: 'boolean' },
    note: { type: ['string', 'null'] },
    nickname: { type: 'string', not: { const: 'admin' } },
    legacy: false,
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
    matrix: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
    colors: { type: 'array', items: { type: 'string', enum: COLORS } },
    when: {
      anyOf: [
        { type: 'string', format: 'date-time' },
        { type: 'integer', minimum: 0 },
      ],
    },
    shape: { oneOf: [{ $ref: '#/definitions/Circle' }, { $ref: '#/definitions/Square' }] },
    pick: { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] },
    options: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { verbose: { type: 'boolean' }, depth: { type: 'integer' } },
    },
    labels: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'string' } },
    stops: { type: 'array', items: { $ref: '#/definitions/Stop' } },
  },
  definitions: {
    Circle: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'radius'],
      properties: { kind: { const: 'circle' }, radius: { type: 'number', minimum: 0 } },
    },
    Square: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'side'],
      properties: { kind: { const: 'square' }, side: { type: 'number', exclusiveMinimum: 0 } },
    },
    Stop: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'at'],
      properties: { name: { type: 'string' }, at: { type: 'string', format: 'time' } },
    },
  },
};

function forecastTool(overrides: Partial<ITool> = {}): ITool {
  return {
    id: 'forecast',
    name: 'forecast',
    displayName: 'Forecast',
    description: 'The weather ahead.',
    inputSchema: INPUT,
    execute: async (args) => ({ success: true, output: args }),
    ...overrides,
  };
}

function call(orchestrator: ToolOrchestrator, args: unknown, name = 'forecast'): Promise<ToolCallResult> {
  return orchestrator.processToolCall({
    toolCallRequest: { id: 'call-1', name, arguments: args as Record<string, unknown> },
    gmiId: 'gmi',
    personaId: 'persona',
    userContext: { userId: 'user' },
  });
}

const HEADER =
  "INVALID_ARGUMENTS: The arguments for tool 'forecast' do not fit its input schema. Fix them and call again.";

/** [what the call gets wrong, the arguments, the feedback's lines after the header] */
const CASES: Array<[string, Record<string, unknown>, string[]]> = [
  [
    'required, missing',
    {},
    [
      '{',
      '  // error at "city": required property missing; expected a string of at least 2 characters, at most 20 characters',
      '}',
    ],
  ],
  ['type: string', { city: ['Paris'] }, ['{', '  "city": [ // error: expected a string', '    "Paris"', '  ]', '}']],
  ['minLength', { city: 'P' }, ['{', '  "city": "P" // error: expected a string of at least 2 characters', '}']],
  [
    'maxLength',
    { city: 'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch' },
    [
      '{',
      '  "city": "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch" // error: expected a string of at most 20 characters',
      '}',
    ],
  ],
  [
    'enum, a near miss',
    { city: 'Paris', unit: 'kelvinn' },
    [
      '{',
      '  "city": "Paris",',
      '  "unit": "kelvinn" // error: expected one of "celsius", "fahrenheit", "kelvin"; did you mean "kelvin"?',
      '}',
    ],
  ],
  [
    'enum, nothing near',
    { city: 'Paris', unit: 'hot' },
    ['{', '  "city": "Paris",', '  "unit": "hot" // error: expected one of "celsius", "fahrenheit", "kelvin"', '}'],
  ],
  [
    'enum, a word too short to be near anything',
    { city: 'Paris', unit: 'k' },
    ['{', '  "city": "Paris",', '  "unit": "k" // error: expected one of "celsius", "fahrenheit", "kelvin"', '}'],
  ],
  [
    'enum, capped',
    { city: 'Paris', colors: ['red', 'purple'] },
    [
      '{',
      '  "city": "Paris",',
      '  "colors": [',
      '    "red",',
      '    "purple" // error: expected one of "red", "orange", "yellow", "green", "blue", "indigo", "violet", "black", "white", "grey", … and 2 more',
      '  ]',
      '}',
    ],
  ],
  [
    'const',
    { city: 'Paris', version: 'v1' },
    ['{', '  "city": "Paris",', '  "version": "v1" // error: expected exactly "v2"', '}'],
  ],
  [
    'minimum (integer)',
    { city: 'Paris', days: 0 },
    ['{', '  "city": "Paris",', '  "days": 0 // error: expected an integer >= 1', '}'],
  ],
  [
    'maximum (integer)',
    { city: 'Paris', days: 15 },
    ['{', '  "city": "Paris",', '  "days": 15 // error: expected an integer <= 14', '}'],
  ],
  [
    'type: integer',
    { city: 'Paris', days: 2.5 },
    ['{', '  "city": "Paris",', '  "days": 2.5 // error: expected an integer', '}'],
  ],
  [
    'exclusiveMinimum',
    { city: 'Paris', ratio: 0, step: 1 },
    ['{', '  "city": "Paris",', '  "ratio": 0, // error: expected a number > 0', '  "step": 1', '}'],
  ],
  [
    'exclusiveMaximum',
    { city: 'Paris', ratio: 1, step: 1 },
    ['{', '  "city": "Paris",', '  "ratio": 1, // error: expected a number < 1', '  "step": 1', '}'],
  ],
  [
    'multipleOf',
    { city: 'Paris', step: 0.3 },
    ['{', '  "city": "Paris",', '  "step": 0.3 // error: expected a multiple of 0.5', '}'],
  ],
  [
    'dependencies',
    { city: 'Paris', ratio: 0.5 },
    [
      '{',
      '  "city": "Paris",',
      '  "ratio": 0.5',
      '  // error at "step": required property missing (required when "ratio" is present); expected a number',
      '}',
    ],
  ],
  [
    'pattern',
    { city: 'Paris', code: 'abc' },
    ['{', '  "city": "Paris",', '  "code": "abc" // error: expected a string matching the pattern "^[A-Z]{3}$"', '}'],
  ],
  [
    'format: email',
    { city: 'Paris', email: 'nope' },
    [
      '{',
      '  "city": "Paris",',
      '  "email": "nope" // error: expected an email address such as "name@example.com"',
      '}',
    ],
  ],
  [
    'format: date',
    { city: 'Paris', date: '31/01/2024' },
    ['{', '  "city": "Paris",', '  "date": "31/01/2024" // error: expected a date such as "2024-01-31"', '}'],
  ],
  [
    'format: uuid',
    { city: 'Paris', id: '123' },
    [
      '{',
      '  "city": "Paris",',
      '  "id": "123" // error: expected a UUID such as "123e4567-e89b-12d3-a456-426614174000"',
      '}',
    ],
  ],
  [
    'format: uri',
    { city: 'Paris', site: 'example.com' },
    [
      '{',
      '  "city": "Paris",',
      '  "site": "example.com" // error: expected an absolute URI such as "https://example.com/page"',
      '}',
    ],
  ],
  [
    'type: boolean',
    { city: 'Paris', dryRun: 'maybe' },
    ['{', '  "city": "Paris",', '  "dryRun": "maybe" // error: expected true or false', '}'],
  ],
  [
    'type: a union with null',
    { city: 'Paris', note: { text: 'hi' } },
    ['{', '  "city": "Paris",', '  "note": { // error: expected a string or null', '    "text": "hi"', '  }', '}'],
  ],
  [
    'not',
    { city: 'Paris', nickname: 'admin' },
    ['{', '  "city": "Paris",', '  "nickname": "admin" // error: expected a value other than exactly "admin"', '}'],
  ],
  [
    'a false schema',
    { city: 'Paris', legacy: 1 },
    ['{', '  "city": "Paris",', '  "legacy": 1 // error: no value is allowed here', '}'],
  ],
  [
    'minItems',
    { city: 'Paris', tags: [] },
    ['{', '  "city": "Paris",', '  "tags": [] // error: expected an array of at least 1 item', '}'],
  ],
  [
    'maxItems',
    { city: 'Paris', tags: ['a', 'b', 'c', 'd'] },
    [
      '{',
      '  "city": "Paris",',
      '  "tags": [ // error: expected an array of at most 3 items',
      '    "a",',
      '    "b",',
      '    "c",',
      '    "d"',
      '  ]',
      '}',
    ],
  ],
  [
    'uniqueItems',
    { city: 'Paris', tags: ['a', 'b', 'a'] },
    [
      '{',
      '  "city": "Paris",',
      '  "tags": [ // error: expected unique items; items 2 and 0 are equal',
      '    "a",',
      '    "b",',
      '    "a"',
      '  ]',
      '}',
    ],
  ],
  [
    'items: type',
    { city: 'Paris', tags: [{}] },
    ['{', '  "city": "Paris",', '  "tags": [', '    {} // error: expected a string', '  ]', '}'],
  ],
  [
    'nested arrays: an item',
    {
      city: 'Paris',
      matrix: [
        [1, 2],
        [3, 'x'],
      ],
    },
    [
      '{',
      '  "city": "Paris",',
      '  "matrix": [',
      '    [',
      '      1,',
      '      2',
      '    ],',
      '    [',
      '      3,',
      '      "x" // error: expected an integer',
      '    ]',
      '  ]',
      '}',
    ],
  ],
  [
    'nested arrays: a row',
    { city: 'Paris', matrix: [[1], 2] },
    [
      '{',
      '  "city": "Paris",',
      '  "matrix": [',
      '    [',
      '      1',
      '    ],',
      '    2 // error: expected an array',
      '  ]',
      '}',
    ],
  ],
  [
    'anyOf',
    { city: 'Paris', when: 'yesterday' },
    [
      '{',
      '  "city": "Paris",',
      '  "when": "yesterday" // error: expected a date and time such as "2024-01-31T09:30:00Z"',
      '}',
    ],
  ],
  [
    'anyOf, a bound in a branch',
    { city: 'Paris', when: -1 },
    ['{', '  "city": "Paris",', '  "when": -1 // error: expected an integer >= 0', '}'],
  ],
  [
    'anyOf, no branch fits',
    { city: 'Paris', when: true },
    [
      '{',
      '  "city": "Paris",',
      '  "when": true // error: expected a date and time such as "2024-01-31T09:30:00Z"',
      '}',
    ],
  ],
  [
    'oneOf, no branch',
    { city: 'Paris', shape: { kind: 'triangle' } },
    [
      '{',
      '  "city": "Paris",',
      '  "shape": { // error: expected exactly one of: an object with "kind": "circle"; an object with "kind": "square"',
      '    "kind": "triangle"',
      '  }',
      '}',
    ],
  ],
  [
    'oneOf, a branch with a problem',
    { city: 'Paris', shape: { kind: 'circle', radius: -1 } },
    [
      '{',
      '  "city": "Paris",',
      '  "shape": {',
      '    "kind": "circle",',
      '    "radius": -1 // error: expected a number >= 0',
      '  }',
      '}',
    ],
  ],
  [
    'oneOf, two branches',
    { city: 'Paris', pick: 'ab' },
    [
      '{',
      '  "city": "Paris",',
      '  "pick": "ab" // error: matches alternatives 1 and 2 at once; expected exactly one of: a string; a string of at most 3 characters',
      '}',
    ],
  ],
  [
    'additionalProperties, a near name',
    { cty: 'Paris' },
    [
      '{',
      '  "cty": "Paris" // error: unknown property; did you mean "city"? (allowed: "city", "code", "colors", "date", "days", "dryRun", "email", "id", "labels", "legacy", … and 14 more)',
      '  // error at "city": required property missing; expected a string of at least 2 characters, at most 20 characters',
      '}',
    ],
  ],
  [
    'additionalProperties, nested, a near name',
    { city: 'Paris', options: { verbos: true } },
    [
      '{',
      '  "city": "Paris",',
      '  "options": {',
      '    "verbos": true // error: unknown property; did you mean "verbose"? (allowed: "depth", "verbose")',
      '  }',
      '}',
    ],
  ],
  [
    'additionalProperties, nothing near',
    { city: 'Paris', options: { zzz: 1 } },
    [
      '{',
      '  "city": "Paris",',
      '  "options": {',
      '    "zzz": 1 // error: unknown property (allowed: "depth", "verbose")',
      '  }',
      '}',
    ],
  ],
  [
    'minProperties',
    { city: 'Paris', options: {} },
    ['{', '  "city": "Paris",', '  "options": {} // error: expected an object with at least 1 property', '}'],
  ],
  [
    'nested type',
    { city: 'Paris', options: { depth: 'deep' } },
    ['{', '  "city": "Paris",', '  "options": {', '    "depth": "deep" // error: expected an integer', '  }', '}'],
  ],
  [
    'propertyNames',
    { city: 'Paris', labels: { Bad: 'x' } },
    [
      '{',
      '  "city": "Paris",',
      '  "labels": { // error: property name "Bad" is not allowed: expected a string matching the pattern "^[a-z]+$"',
      '    "Bad": "x"',
      '  }',
      '}',
    ],
  ],
  [
    'required in an array item',
    { city: 'Paris', stops: [{ name: 'A' }] },
    [
      '{',
      '  "city": "Paris",',
      '  "stops": [',
      '    {',
      '      "name": "A"',
      '      // error at "at": required property missing; expected a time such as "09:30:00Z"',
      '    }',
      '  ]',
      '}',
    ],
  ],
  [
    'format: time in an array item',
    { city: 'Paris', stops: [{ name: 'A', at: '9am' }] },
    [
      '{',
      '  "city": "Paris",',
      '  "stops": [',
      '    {',
      '      "name": "A",',
      '      "at": "9am" // error: expected a time such as "09:30:00Z"',
      '    }',
      '  ]',
      '}',
    ],
  ],
  [
    'several problems at once',
    { city: 'P', unit: 'kelvinn', days: 0, tags: [], extra: true },
    [
      '{',
      '  "city": "P", // error: expected a string of at least 2 characters',
      '  "unit": "kelvinn", // error: expected one of "celsius", "fahrenheit", "kelvin"; did you mean "kelvin"?',
      '  "days": 0, // error: expected an integer >= 1',
      '  "tags": [], // error: expected an array of at least 1 item',
      '  "extra": true // error: unknown property (allowed: "city", "code", "colors", "date", "days", "dryRun", "email", "id", "labels", "legacy", … and 14 more)',
      '}',
    ],
  ],
];

describe('feedback on arguments that do not fit', () => {
  const orchestrator = new ToolOrchestrator({ tools: [forecastTool()] });

  it.each(CASES)('%s', async (_what, args, lines) => {
    const result = await call(orchestrator, args);
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
    const text = feedbackText(result);
    expect(text).toBe([HEADER, ...lines].join('\n'));
    // No schema internals: no schema pointers, no Ajv phrasing.
    expect(text).not.toMatch(/#\/|schemaPath|must (NOT )?(be|have|match)|anyOf|oneOf/);
  });
});

describe('the feedback when the arguments are not small, or the room is short', () => {
  it('lists each problem on a line with what was received, when the arguments are too long to echo', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [forecastTool()] });
    const result = await call(orchestrator, {
      city: 'Paris',
      unit: 'kelvinn',
      labels: { note: 'x'.repeat(1200) },
      days: '0',
    });
    expect(result.errorDetails?.details?.arguments).toBeUndefined();
    expect(feedbackText(result)).toBe(
      [
        HEADER,
        '- /unit: expected one of "celsius", "fahrenheit", "kelvin"; did you mean "kelvin"? (received "kelvinn")',
        '- /days: expected an integer >= 1 (received "0")',
      ].join('\n'),
    );
  });

  it('keeps to the orchestrator’s maxFeedbackLength, counting the problems left out', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [forecastTool()], maxFeedbackLength: 300 });
    const result = await call(orchestrator, { city: 'P', unit: 'hot', days: 0, tags: [], code: 'abc', email: 'x' });
    const text = feedbackText(result, { maxLength: orchestrator.maxFeedbackLength });
    expect(text).toBe(
      [
        HEADER,
        '- /city: expected a string of at least 2 characters (received "P")',
        '- /unit: expected one of "celsius", "fahrenheit", "kelvin" (received "hot")',
        '- … and 4 more problems',
      ].join('\n'),
    );
    expect(text.length).toBeLessThanOrEqual(300);
  });

  it('bounds the text of any failure, however long the tool’s error and details', async () => {
    const failing = forecastTool({
      name: 'failing',
      inputSchema: { type: 'object' },
      execute: async () => ({ success: false, error: 'e'.repeat(5000), details: { log: 'l'.repeat(5000) } }),
    });
    const orchestrator = new ToolOrchestrator({ tools: [failing] });
    const result = await call(orchestrator, {}, 'failing');
    const text = feedbackText(result);
    expect(text.length).toBe(1500);
    expect(text.startsWith("TOOL_FAILED: Tool 'failing' failed: eeee")).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(JSON.parse(feedbackJson(result)).code).toBe('TOOL_FAILED');
    expect(feedbackJson(result).length).toBeLessThanOrEqual(1500);
  });

  it('refuses a maxFeedbackLength that is not a positive integer', () => {
    expect(() => new ToolOrchestrator({ maxFeedbackLength: 0 })).toThrow(
      'maxFeedbackLength must be a positive integer; got 0.',
    );
  });
});

describe('feedbackJson', () => {
  const orchestrator = new ToolOrchestrator({ tools: [forecastTool()] });

  it('gives the problems as JSON, those that do not fit counted in `omitted`', async () => {
    const result = await call(orchestrator, { city: 'P', unit: 'hot', days: 0 });
    expect(JSON.parse(feedbackJson(result))).toEqual({
      code: 'INVALID_ARGUMENTS',
      message: "The arguments for tool 'forecast' do not fit its input schema. Fix them and call again.",
      problems: [
        { path: '/city', message: 'expected a string of at least 2 characters', received: '"P"' },
        { path: '/unit', message: 'expected one of "celsius", "fahrenheit", "kelvin"', received: '"hot"' },
        { path: '/days', message: 'expected an integer >= 1', received: '0' },
      ],
    });
    const short = feedbackJson(result, { maxLength: 250 });
    expect(short.length).toBeLessThanOrEqual(250);
    expect(JSON.parse(short)).toMatchObject({ code: 'INVALID_ARGUMENTS', omitted: 2 });
    expect(JSON.parse(short).problems).toHaveLength(1);
  });

  it('gives another failure its code, message and details', () => {
    const result: ToolCallResult = {
      toolCallId: '1',
      toolName: 't',
      output: null,
      isError: true,
      errorDetails: { code: 'TIMEOUT', message: 'Too slow.', details: { timeoutMs: 5 } },
    };
    expect(feedbackJson(result)).toBe('{"code":"TIMEOUT","message":"Too slow.","details":{"timeoutMs":5}}');
  });
});

describe('feedbackText for other failures', () => {
  const failed = (
    code: 'TIMEOUT' | 'TOOL_FAILED' | 'INVALID_ARGUMENTS' | 'APPROVAL_REJECTED',
    message: string,
    details?: Record<string, unknown>,
  ): ToolCallResult => ({
    toolCallId: '1',
    toolName: 't',
    output: null,
    isError: true,
    errorDetails: details === undefined ? { code, message } : { code, message, details },
  });

  it.each([
    [failed('TIMEOUT', 'Too slow.'), 'TIMEOUT: Too slow.'],
    [failed('TIMEOUT', 'Too slow.', { timeoutMs: 5 }), 'TIMEOUT: Too slow.\nDetails: {"timeoutMs":5}'],
    [
      failed('INVALID_ARGUMENTS', 'Bad.', {
        errors: [
          { path: '', message: '(root) must be object' },
          { path: '/a', message: '/a must be string' },
        ],
      }),
      'INVALID_ARGUMENTS: Bad.\n- (root): must be object\n- /a: must be string',
    ],
    [failed('TOOL_FAILED', 'No.', { errors: 'not a list' }), 'TOOL_FAILED: No.\nDetails: {"errors":"not a list"}'],
    // A reason the message already ends with is not said twice; one it does not state is kept.
    [
      failed('APPROVAL_REJECTED', "The call to tool 'send' was not approved: no messages today", {
        reason: 'no messages today',
      }),
      "APPROVAL_REJECTED: The call to tool 'send' was not approved: no messages today",
    ],
    [
      failed('APPROVAL_REJECTED', "Tool 'send' has side effects and nothing approved the call.", {
        reason: 'no-approval-gate',
      }),
      'APPROVAL_REJECTED: Tool \'send\' has side effects and nothing approved the call.\nDetails: {"reason":"no-approval-gate"}',
    ],
    [
      failed('TOOL_FAILED', 'Failed: abc…', { reason: 'abcdef', free: 0 }),
      'TOOL_FAILED: Failed: abc…\nDetails: {"reason":"abcdef","free":0}',
    ],
  ])('formats %j', (result, expected) => {
    expect(feedbackText(result)).toBe(expected);
  });

  it('answers a failed result without details as TOOL_ERROR', () => {
    expect(feedbackText({ toolCallId: '1', toolName: 't', output: null, isError: true })).toBe(
      "TOOL_ERROR: Tool 't' failed without details.",
    );
  });

  it('falls back to the code and message for details that cannot be read', async () => {
    const { makeHostile } = await import('../hostile.js');
    expect(feedbackText(failed('TOOL_FAILED', 'No.', makeHostile('proxy-every-trap-throws') as never))).toBe(
      'TOOL_FAILED: No.\nDetails: (not readable)',
    );
    expect(feedbackText(failed('TOOL_FAILED', 'No.', { errors: [makeHostile('revoked-proxy')] }))).toBe(
      'TOOL_FAILED: No.\nDetails: (not readable)',
    );
    expect(feedbackText(failed('TOOL_FAILED', 'No.', { n: 1n }))).toBe(
      'TOOL_FAILED: No.\nDetails: (details not serializable)',
    );
  });
});

describe('the INVALID_ARGUMENTS failure itself', () => {
  it('keeps the validator’s issues for programs, the problems in words and the arguments as sent', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [forecastTool()] });
    const result = await call(orchestrator, JSON.stringify({ city: 'Paris', unit: 'hot', note: null }));
    expect(result.errorDetails).toEqual({
      code: 'INVALID_ARGUMENTS',
      message:
        'Invalid arguments for tool \'forecast\': /unit: expected one of "celsius", "fahrenheit", "kelvin". Fix them and call again.',
      details: {
        errors: [
          {
            path: '/unit',
            message: '/unit must be equal to one of the allowed values',
            keyword: 'enum',
            params: { allowedValues: ['celsius', 'fahrenheit', 'kelvin'] },
            schemaPath: '#/properties/unit/enum',
          },
        ],
        problems: [{ path: '/unit', message: 'expected one of "celsius", "fahrenheit", "kelvin"', received: '"hot"' }],
        arguments: { city: 'Paris', unit: 'hot', note: null },
      },
    });
  });

  it('echoes the arguments as sent: without the defaults filled in, optional nulls kept', async () => {
    const withDefault = forecastTool({
      inputSchema: {
        type: 'object',
        properties: {
          unit: { type: 'string', default: 'celsius' },
          days: { type: 'integer' },
          note: { type: 'string' },
        },
      },
    });
    const orchestrator = new ToolOrchestrator({ tools: [withDefault] });
    const result = await call(orchestrator, { days: 'soon', note: null });
    expect(result.errorDetails?.details?.arguments).toEqual({ days: 'soon', note: null });
    expect(feedbackText(result)).toBe(
      [HEADER, '{', '  "days": "soon", // error: expected an integer', '  "note": null', '}'].join('\n'),
    );
  });

  it('words the problems a tool’s own validateArgs reports', async () => {
    const strict = forecastTool({
      validateArgs: () => ({ isValid: false, errors: [{ path: '/city', message: 'is not a city we forecast' }] }),
    });
    const orchestrator = new ToolOrchestrator({ tools: [strict] });
    const result = await call(orchestrator, { city: 'Atlantis' });
    expect(feedbackText(result)).toBe(
      [HEADER, '{', '  "city": "Atlantis" // error: is not a city we forecast', '}'].join('\n'),
    );
  });
});

describe('coercions', () => {
  const orchestrator = new ToolOrchestrator({ tools: [forecastTool()] });

  it('are reported on the result when a value was converted to fit', async () => {
    const result = await call(orchestrator, { city: 'Paris', days: '3', dryRun: 'true' });
    expect(result.isError).toBe(false);
    expect(result.output).toEqual({ city: 'Paris', days: 3, dryRun: true });
    expect(result.coercions).toEqual([
      { path: '/days', from: '3', to: 3 },
      { path: '/dryRun', from: 'true', to: true },
    ]);
  });

  it('are absent when the arguments fit as sent, or did not fit at all', async () => {
    expect(await call(orchestrator, { city: 'Paris', days: 3 })).not.toHaveProperty('coercions');
    expect(await call(orchestrator, { city: 'Paris', days: '3', unit: 'hot' })).not.toHaveProperty('coercions');
  });
});

describe('the feedback is bounded work, whatever the arguments', () => {
  const orchestrator = new ToolOrchestrator({ tools: [forecastTool()] });

  it('describes at most 50 problems of hundreds and keeps the text within its length', async () => {
    const result = await call(orchestrator, { city: 'Paris', tags: Array.from({ length: 300 }, () => ({ x: 'y' })) });
    const details = result.errorDetails!.details!;
    expect(details.errors).toHaveLength(100); // the validator's own cap
    expect(details.problems).toHaveLength(50);
    expect(details.arguments).toBeUndefined();
    const text = feedbackText(result);
    expect(text.length).toBeLessThanOrEqual(1500);
    expect(text.split('\n').at(-1)).toMatch(/^- … and \d+ more problems$/);
  });

  it('suggests nothing for an unknown property of megabytes, and shows it truncated', async () => {
    const key = 'k'.repeat(1_000_000);
    const result = await call(orchestrator, { city: 'Paris', [key]: 'v'.repeat(100) });
    const text = feedbackText(result);
    expect(text.length).toBeLessThanOrEqual(1500);
    expect(text).toContain(': unknown property (allowed: "city", "code", "colors"');
    expect(text).not.toContain('did you mean');
  });
});
