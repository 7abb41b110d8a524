import type { JSONSchema7 } from 'json-schema';
import type { ToolModel } from '../../codegen/model.js';
import { makeTool } from './model-factory.js';

/**
 * The schema shapes the provider formats disagree on, one tool each: recursion, a free-form object, a
 * tuple, `dependencies`, a `$ref` with siblings and an output schema whose root is a `$ref`.
 */
export const FIXTURE_TOOLS: readonly ToolModel[] = [
  makeTool({
    name: 'recursive_tree',
    inputSchema: {
      type: 'object',
      required: ['tree'],
      properties: { tree: { $ref: '#/definitions/Node' } },
      definitions: {
        Node: {
          type: 'object',
          required: ['label'],
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/Node' } } },
        },
      },
    },
  }),
  makeTool({
    name: 'free_form',
    inputSchema: {
      type: 'object',
      properties: { labels: { type: 'object', additionalProperties: { type: 'string' }, description: 'Any labels.' } },
    },
  }),
  makeTool({
    name: 'tuple_point',
    inputSchema: {
      type: 'object',
      required: ['point'],
      properties: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false } },
    },
  }),
  makeTool({
    name: 'dependent',
    inputSchema: {
      type: 'object',
      properties: { card: { type: 'string' }, billing: { type: 'string' } },
      dependencies: { card: ['billing'] },
    },
  }),
  makeTool({
    name: 'ref_siblings',
    inputSchema: {
      type: 'object',
      properties: {
        start: { $ref: '#/definitions/Day', description: 'The first day.', default: '2025-01-01' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      },
      definitions: { Day: { type: 'string', format: 'date', maxLength: 10 } },
    },
  }),
  makeTool({
    name: 'ref_output',
    inputSchema: { type: 'object', properties: { key: { type: 'string', minLength: 1 } } },
    outputSchema: {
      $ref: '#/definitions/Entry',
      definitions: {
        Entry: {
          type: 'object',
          required: ['key'],
          properties: { key: { type: 'string' }, value: { type: 'string' } },
        },
      },
    } as JSONSchema7,
  }),
];
