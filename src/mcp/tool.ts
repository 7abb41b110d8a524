import { JSON_SCHEMA_2020_12, toJsonSchema2020 } from '../schema/json-schema-2020.js';
import { resolveLocalRef } from '../schema/json-pointer.js';
import { isObject, setOwn } from '../schema/walk.js';
import type { ITool } from '../tool.js';
import type { ToolAnnotations } from '../tool-description.js';

/*
 * Builds the MCP `tools/list` entry of a tool. Shared by codegen (manifests/mcp.json) and the MCP server
 * at run time, so it imports nothing but runtime code that imports nothing.
 * - MCP 2025-11-25 makes JSON Schema 2020-12 the default dialect (SEP-1613), and hosts on the MCP TypeScript
 *   SDK v2 betas' default validator refuse any other declared `$schema` ("JSON Schema declares an unsupported
 *   dialect … supports JSON Schema 2020-12 only"). toolsmith's draft-07 schemas are translated
 *   (src/schema/json-schema-2020.ts) and stamped `"$schema": "https://json-schema.org/draft/2020-12/schema"`.
 * - `outputSchema` is "currently restricted to type: "object" at the root level" (`Tool.outputSchema` in
 *   @modelcontextprotocol/sdk spec.types.d.ts). A root that is a local `$ref` to an object schema (a shared
 *   type as output) is published with `type: "object"` beside the `$ref` — which changes nothing, since the
 *   target is an object schema; any other non-object root is listed without an output schema.
 * - Annotations are hints (`ToolAnnotations`, same file): `readOnlyHint` defaults to false,
 *   `destructiveHint` to true, `idempotentHint` to false, `openWorldHint` to true. A definition's own
 *   `annotations` win; without them a tool without side effects is `readOnlyHint: true,
 *   destructiveHint: false, idempotentHint: true` (reading twice is reading once), and a tool with them is
 *   `readOnlyHint: false, destructiveHint: true` (said outright), the other defaults left to MCP. `openWorldHint` is said only when the definition says it.
 */

/** The JSON Schema dialect stamped on every published MCP schema. */
export const MCP_SCHEMA_DIALECT = JSON_SCHEMA_2020_12;

/** MCP tool annotations: a definition's hints and the tool's title. */
export interface McpToolAnnotations extends ToolAnnotations {
  title?: string;
}

/**
 * What clients assume for a hint a tool leaves unsaid (`ToolAnnotations` in the MCP schema), in the
 * schema's order; the other value of each lets a host run the tool with less care.
 */
export const MCP_HINT_DEFAULTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

/** An MCP annotation hint's name. */
export type McpHint = keyof typeof MCP_HINT_DEFAULTS;

/** The names of the MCP annotation hints, in the schema's order. */
export const MCP_HINTS = Object.keys(MCP_HINT_DEFAULTS) as McpHint[];

/** A schema as MCP publishes it: 2020-12, stamped, with an object root. */
export interface McpObjectSchema {
  $schema: string;
  type: 'object';
  [keyword: string]: unknown;
}

/** One entry of an MCP `tools/list` result. */
export interface McpToolEntry {
  name: string;
  title: string;
  description: string;
  inputSchema: McpObjectSchema;
  outputSchema?: McpObjectSchema;
  annotations: McpToolAnnotations;
  /** MCP 2025-11-25 tasks: whether the tool may run as a task (listed only for a tool that may). */
  execution?: { taskSupport: 'optional' | 'required' };
}

/** What an MCP entry is built from: the fields an `ITool` and a codegen `ToolModel` both carry. */
export interface McpToolSource {
  name: string;
  displayName?: string;
  description: string;
  inputSchema: object;
  outputSchema?: object;
  hasSideEffects?: boolean;
  annotations?: ToolAnnotations;
  taskSupport?: 'optional' | 'required';
}

type Node = Record<string, unknown>;

/** True when the schema's root is `type: "object"`, directly or through a chain of local `$ref`s. */
function objectRoot(root: Node, node: unknown, seen: Set<string>): boolean {
  if (!isObject(node)) return false;
  if (node.type === 'object') return true;
  if (node.type !== undefined || typeof node.$ref !== 'string' || seen.has(node.$ref)) return false;
  seen.add(node.$ref);
  return objectRoot(root, resolveLocalRef(root, node.$ref), seen);
}

/**
 * True when MCP can publish `schema` as an output schema: its root is `type: "object"`, or a local `$ref`
 * to such a schema. The MCP server sends `structuredContent` exactly for these.
 */
export function isMcpObjectSchema(schema: unknown): boolean {
  return isObject(schema) && objectRoot(schema, schema, new Set());
}

/** The 2020-12 copy of `schema` (a 2020-12 source as it is) with `$schema` first and a `type: "object"` root. */
function publish(schema: object): McpObjectSchema {
  // A schema that declares 2020-12 already speaks MCP's dialect: published as written.
  const own = (schema as { $schema?: unknown }).$schema;
  const translated = (
    typeof own === 'string' && /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/.test(own)
      ? schema
      : toJsonSchema2020(schema)
  ) as Node;
  const out: Node = { $schema: MCP_SCHEMA_DIALECT };
  if (translated.type === undefined) out.type = 'object';
  for (const [key, value] of Object.entries(translated)) {
    if (key !== '$schema') setOwn(out, key, value);
  }
  return out as McpObjectSchema;
}

/** The annotations of a tool: the definition's own, completed from `hasSideEffects`. */
export function mcpAnnotations(tool: McpToolSource): McpToolAnnotations {
  const own = tool.annotations ?? {};
  const readOnly = own.readOnlyHint ?? tool.hasSideEffects !== true;
  const idempotent = own.idempotentHint ?? (readOnly ? true : undefined);
  return {
    title: tool.displayName ?? tool.name,
    readOnlyHint: readOnly,
    destructiveHint: own.destructiveHint ?? !readOnly,
    ...(idempotent === undefined ? {} : { idempotentHint: idempotent }),
    ...(own.openWorldHint === undefined ? {} : { openWorldHint: own.openWorldHint }),
  };
}

/** The MCP `tools/list` entry of a tool (from an `ITool` at run time or a `ToolModel` at generate time). */
export function toMcpTool(tool: McpToolSource): McpToolEntry {
  const { outputSchema, taskSupport } = tool;
  // The keys in the order of generated/manifests/mcp.json.
  return {
    name: tool.name,
    title: tool.displayName ?? tool.name,
    description: tool.description,
    inputSchema: publish(tool.inputSchema),
    ...(outputSchema !== undefined && isMcpObjectSchema(outputSchema) ? { outputSchema: publish(outputSchema) } : {}),
    annotations: mcpAnnotations(tool),
    ...(taskSupport === undefined ? {} : { execution: { taskSupport } }),
  };
}

/** The MCP `tools/list` entry of a registered tool. */
export function toMcpToolFromTool(tool: ITool): McpToolEntry {
  return toMcpTool(tool);
}
