import type { ProjectModel } from '../../../codegen/model.js';
import { type Definitions, projectOf, tool } from './project.js';

/**
 * The definitions the base, stub, registry and docs tables emit: one project (a composed tool needs
 * its step tools beside it), each tool one case of what users write.
 */
const CATALOG: Definitions = {
  'shared/geo-point.schema.json': {
    $schema: 'http://json-schema.org/draft-07/schema#',
    description: 'A point on Earth.',
    type: 'object',
    required: ['lat', 'lon'],
    additionalProperties: false,
    properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lon: { type: 'number' } },
  },
  /** Every metadata field: category, version, capabilities, timeout, annotations, output schema, a shared and a local definition. */
  'weather_lookup.tool.json': tool(
    'weather_lookup',
    {
      type: 'object',
      required: ['at'],
      additionalProperties: false,
      properties: {
        at: { $ref: 'shared/geo-point.schema.json' },
        units: { $ref: '#/definitions/Units' },
        days: { type: 'integer', minimum: 1, maximum: 7, default: 1, description: 'How many days ahead.' },
      },
      definitions: { Units: { enum: ['metric', 'imperial'], description: 'Unit system.' } },
    },
    {
      description: 'Looks up the weather forecast near a point.',
      category: 'web',
      version: '2.1.0',
      requiredCapabilities: ['capability:network'],
      timeoutMs: 5000,
      annotations: { openWorldHint: true },
      outputSchema: {
        type: 'object',
        required: ['forecasts'],
        additionalProperties: false,
        properties: {
          forecasts: {
            type: 'array',
            items: {
              type: 'object',
              required: ['day', 'celsius'],
              additionalProperties: false,
              properties: { day: { type: 'string', format: 'date' }, celsius: { type: 'number' } },
            },
          },
        },
      },
      examples: [
        {
          description: 'Tomorrow in Paris',
          input: { at: { lat: 48.85, lon: 2.35 } },
          output: { forecasts: [{ day: '2026-01-02', celsius: 7 }] },
        },
      ],
    },
  ),
  /** A side-effect tool without an output schema. */
  'send_email.tool.json': tool(
    'send_email',
    {
      type: 'object',
      required: ['to', 'body'],
      additionalProperties: false,
      properties: {
        to: { type: 'string', format: 'email' },
        body: { type: 'string', maxLength: 10000 },
        cc: { type: 'array', items: { type: 'string' }, default: [] },
      },
    },
    {
      description: 'Sends an email.',
      category: 'mail',
      hasSideEffects: true,
      requiredCapabilities: ['capability:mail:send'],
    },
  ),
  /** A composed tool: its base runs the steps. */
  'forecast_mail.tool.json': tool(
    'forecast_mail',
    {
      type: 'object',
      required: ['at', 'to'],
      additionalProperties: false,
      properties: { at: { $ref: 'shared/geo-point.schema.json' }, to: { type: 'string' } },
    },
    {
      description: 'Mails the forecast near a point.',
      category: 'mail',
      hasSideEffects: true,
      steps: [
        { tool: 'weather_lookup', arguments: { at: '$input.at' } },
        { tool: 'send_email', arguments: { to: '$input.to', body: '$steps.0.output.forecasts' }, timeoutMs: 2000 },
      ],
    },
  ),
  /** Text from the schema that must stay data: JSDoc, string literals, object keys. */
  'odd_text.tool.json': tool(
    'odd_text',
    JSON.parse(
      JSON.stringify({
        type: 'object',
        additionalProperties: false,
        properties: {
          constructor: { type: 'string', description: 'Closes */ a comment? `not` code | a pipe\nsecond line' },
          PROTO: { type: 'string', enum: ['"quoted"', "it's", 'back\\slash'] },
        },
      }).replace(/PROTO/g, '__proto__'),
    ),
    { description: 'Ends */ here, `ticks`, "quotes", back\\slash, ${x},\nline\u2028two\r@internal not a tag' },
  ),
  /** A tool named after an Object.prototype member, with an empty input object. */
  'constructor.tool.json': tool('constructor', { type: 'object', properties: {}, additionalProperties: false }),
};

/** The catalog's model, built by normalize. */
export const catalogProject = (): ProjectModel => projectOf(CATALOG);

/** Tools named after Object.prototype members. */
export const PROTOTYPE_NAMES: Definitions = {
  '__proto__.tool.json': tool('__proto__', { type: 'object' }),
  'toString.tool.json': tool('toString', { type: 'object' }),
};

/** 64 characters, the longest name a definition may have. */
const LONG_NAME = 'a_tool_name_as_long_as_a_definition_allows_so_imports_must_break';

/** A tool whose generated names are too long for one import line, beside a short one. */
export const LONG_NAMES: Definitions = {
  [`${LONG_NAME}.tool.json`]: tool(LONG_NAME, { type: 'object' }),
  'b.tool.json': tool('b', { type: 'object' }),
};
