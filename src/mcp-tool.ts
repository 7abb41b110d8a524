import type { ITool } from './tool.js';

/*
 * Builds the MCP `tools/list` entry of a tool. Shared by codegen (manifests/mcp.json) and the MCP server
 * at run time, so it imports nothing but runtime types.
 * - The MCP 2025-11-25 spec reads a schema without `$schema` as JSON Schema 2020-12; toolsmith schemas are
 *   draft-07, so every published schema is stamped (https://modelcontextprotocol.io/specification/2025-11-25/server/tools).
 * - `outputSchema` is "currently restricted to type: "object" at the root level" (`Tool.outputSchema` in
 *   @modelcontextprotocol/sdk dist/esm/spec.types.d.ts); a tool whose output root is not an object is listed
 *   without one.
 * - Annotations are hints (`ToolAnnotations`, same file): `readOnlyHint` defaults to false,
 *   `destructiveHint` to true, `idempotentHint` to false, `openWorldHint` to true. A definition says only
 *   whether a tool has side effects, so a tool without them is `readOnlyHint: true, destructiveHint: false`;
 *   a tool with them keeps the defaults (may be destructive, not idempotent), and `openWorldHint` is left
 *   to its default because nothing in the definition tells it.
 */

/** The JSON Schema dialect stamped on every published schema. */
export const MCP_SCHEMA_DIALECT = 'http://json-schema.org/draft-07/schema#';

/** MCP tool annotations (all hints). */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A schema as MCP publishes it: stamped, with an object root. */
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
}

/** What an MCP entry is built from: the fields an `ITool` and a codegen `ToolModel` both carry. */
export interface McpToolSource {
  name: string;
  displayName?: string;
  description: string;
  inputSchema: object;
  outputSchema?: object;
  hasSideEffects?: boolean;
}

/** True when MCP can publish `schema` as an output schema (its root is `type: "object"`). */
export function isMcpObjectSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) && (schema as { type?: unknown }).type === 'object';
}

/**
 * A copy of `schema` with `$schema` (first) set to draft-07 and, for inputs, a `type: "object"` root.
 * A schema that declares 2020-12 keeps its own `$schema` (MCP reads 2020-12 natively).
 */
function stamp(schema: object): McpObjectSchema {
  const own = (schema as { $schema?: unknown }).$schema;
  const out: Record<string, unknown> = { $schema: typeof own === 'string' && /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/.test(own) ? own : MCP_SCHEMA_DIALECT };
  for (const key of Object.keys(schema)) {
    if (key === '$schema') continue;
    Object.defineProperty(out, key, { value: (schema as Record<string, unknown>)[key], enumerable: true, writable: true, configurable: true });
  }
  if (out.type === undefined) out.type = 'object';
  return out as McpObjectSchema;
}

/** The MCP `tools/list` entry of a tool (from an `ITool` at run time or a `ToolModel` at generate time). */
export function toMcpTool(tool: McpToolSource): McpToolEntry {
  const title = tool.displayName ?? tool.name;
  const readOnly = tool.hasSideEffects !== true;
  const annotations: McpToolAnnotations = readOnly
    ? { title, readOnlyHint: true, destructiveHint: false }
    : { title, readOnlyHint: false };
  const entry: McpToolEntry = {
    name: tool.name,
    title,
    description: tool.description,
    inputSchema: stamp(tool.inputSchema),
    annotations,
  };
  if (tool.outputSchema !== undefined && isMcpObjectSchema(tool.outputSchema)) {
    // Keep the key order of the manifest: outputSchema before annotations.
    return { name: entry.name, title, description: entry.description, inputSchema: entry.inputSchema, outputSchema: stamp(tool.outputSchema), annotations };
  }
  return entry;
}

/** The MCP `tools/list` entry of a registered tool. */
export function toMcpToolFromTool(tool: ITool): McpToolEntry {
  return toMcpTool(tool);
}
