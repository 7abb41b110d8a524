/**
 * The hand-written tools of the micro-benchmarks: a trivial tool for P1 (so the orchestrator's own
 * overhead dominates) and a realistic `create_order` input for P5, with its zod 4 equivalent written
 * by hand and the payloads they are measured on.
 */
import { z } from 'zod';
import type { Json } from './corpus.js';

/** P1: adds two numbers; input and output validated. */
export const ADD_NUMBERS_TOOL: Json = {
  name: 'add_numbers',
  description: 'Adds two numbers.',
  category: 'bench',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['a', 'b'],
    additionalProperties: false,
    properties: { a: { type: 'number' }, b: { type: 'number' } },
  },
  outputSchema: {
    type: 'object',
    required: ['sum'],
    additionalProperties: false,
    properties: { sum: { type: 'number' } },
  },
};

const SKU_PATTERN = '^[A-Z]{3}-[0-9]{4}$';
const TAG_PATTERN = '^[a-z0-9][a-z0-9-]{0,31}$';
const POSTAL_PATTERN = '^[A-Z0-9 -]{3,10}$';

/** P5: a realistic input (nested objects, an array of objects, formats, enums, defaults, patterns). */
export const CREATE_ORDER_TOOL: Json = {
  name: 'create_order',
  description: 'Places an order for a customer.',
  category: 'bench',
  version: '1.0.0',
  hasSideEffects: true,
  inputSchema: {
    type: 'object',
    required: ['customer', 'items', 'shippingAddress'],
    additionalProperties: false,
    properties: {
      customer: {
        type: 'object',
        required: ['id', 'email'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid' },
          email: { type: 'string', format: 'email' },
          name: { type: 'string', minLength: 1, maxLength: 120 },
        },
      },
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: {
          type: 'object',
          required: ['sku', 'quantity', 'unitPrice'],
          additionalProperties: false,
          properties: {
            sku: { type: 'string', pattern: SKU_PATTERN },
            quantity: { type: 'integer', minimum: 1, maximum: 1000 },
            unitPrice: { type: 'number', minimum: 0 },
            giftWrap: { type: 'boolean', default: false },
          },
        },
      },
      shippingAddress: {
        type: 'object',
        required: ['street', 'city', 'country'],
        additionalProperties: false,
        properties: {
          street: { type: 'string', minLength: 1, maxLength: 200 },
          city: { type: 'string', minLength: 1, maxLength: 100 },
          postalCode: { type: 'string', pattern: POSTAL_PATTERN },
          country: { type: 'string', enum: ['US', 'GB', 'DE', 'FR', 'JP', 'BR'] },
        },
      },
      priority: { type: 'string', enum: ['low', 'normal', 'high'], default: 'normal' },
      requestedDelivery: { type: 'string', format: 'date' },
      notes: { type: 'string', maxLength: 1000 },
      tags: {
        type: 'array',
        items: { type: 'string', pattern: TAG_PATTERN },
        uniqueItems: true,
        maxItems: 10,
        default: [],
      },
    },
  },
};

/** The same input schema as {@link CREATE_ORDER_TOOL}, written by hand in zod 4. */
export const createOrderZod = z.strictObject({
  customer: z.strictObject({
    id: z.uuid(),
    email: z.email(),
    name: z.string().min(1).max(120).optional(),
  }),
  items: z
    .array(
      z.strictObject({
        sku: z.string().regex(new RegExp(SKU_PATTERN)),
        quantity: z.int().min(1).max(1000),
        unitPrice: z.number().min(0),
        giftWrap: z.boolean().default(false),
      }),
    )
    .min(1)
    .max(100),
  shippingAddress: z.strictObject({
    street: z.string().min(1).max(200),
    city: z.string().min(1).max(100),
    postalCode: z.string().regex(new RegExp(POSTAL_PATTERN)).optional(),
    country: z.enum(['US', 'GB', 'DE', 'FR', 'JP', 'BR']),
  }),
  priority: z.enum(['low', 'normal', 'high']).default('normal'),
  requestedDelivery: z.iso.date().optional(),
  notes: z.string().max(1000).optional(),
  tags: z
    .array(z.string().regex(new RegExp(TAG_PATTERN)))
    .max(10)
    .refine((tags) => new Set(tags).size === tags.length, 'tags must be unique')
    .default([]),
});

/** A valid `create_order` input (three items; defaults left for the validators to fill). */
export function validOrder(): Record<string, unknown> {
  return {
    customer: { id: '2f1b7e0a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', email: 'buyer@example.com', name: 'Ada Buyer' },
    items: [
      { sku: 'ABC-1234', quantity: 2, unitPrice: 9.99 },
      { sku: 'XYZ-0001', quantity: 1, unitPrice: 120, giftWrap: true },
      { sku: 'QRS-4242', quantity: 10, unitPrice: 0.5 },
    ],
    shippingAddress: { street: '1 Main Street', city: 'Springfield', postalCode: 'AB1 2CD', country: 'GB' },
    requestedDelivery: '2026-12-24',
    notes: 'Leave at the door.',
    tags: ['gift', 'express'],
  };
}

/** An invalid `create_order` input: three errors (bad email, quantity 0, unknown country). */
export function invalidOrder(): Record<string, unknown> {
  const order = validOrder();
  (order.customer as Record<string, unknown>).email = 'not-an-email';
  (order.items as Record<string, unknown>[])[0]!.quantity = 0;
  (order.shippingAddress as Record<string, unknown>).country = 'XX';
  return order;
}

/**
 * P8c: `count` self-contained tools, the same on both sides: the create_order input schema, each with
 * a property of its own so no two schemas are equal.
 */
export function manyTools(count: number): { name: string; description: string; inputSchema: Json }[] {
  type Schema = { properties: Record<string, Json> } & Record<string, Json>;
  const input = (CREATE_ORDER_TOOL as unknown as { inputSchema: Schema }).inputSchema;
  return Array.from({ length: count }, (_, index) => ({
    name: `create_order_${String(index).padStart(4, '0')}`,
    description: `Creates order ${index} (bench tool).`,
    inputSchema: {
      ...input,
      properties: { ...input.properties, [`note_${index}`]: { type: 'string', maxLength: 200 } },
    },
  }));
}
