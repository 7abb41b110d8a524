import type { ContentKind } from './caller/content.js';
import type { JSONSchemaObject } from './schema/validation.js';

/*
 * What a tool is, as its definition describes it: the data half of `ITool` (./tool.ts), without the
 * behaviour. A type of its own so that what reads a tool but never runs it — an approval gate
 * (./context.ts), a lazy tool's metadata (./lazy.ts) — needs nothing of the tool contract.
 */

/** MCP tool annotation hints a definition may state (`annotations` in the definition format). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool's description: its names, schemas and hints, the fields of `ITool` that are data. */
export interface ToolDescription {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly inputSchema: JSONSchemaObject;
  readonly outputSchema?: JSONSchemaObject;
  /** Frozen in generated tools, so `readonly` (AgentOS declares a mutable `string[]`: see README). */
  readonly requiredCapabilities?: readonly string[];
  readonly category?: string;
  readonly version?: string;
  readonly hasSideEffects?: boolean;
  /** toolsmith: the MCP annotation hints the definition states (the rest follow from `hasSideEffects`). */
  readonly annotations?: ToolAnnotations;
  /** toolsmith: the content kinds the tool's results may carry; a block of another kind is `OUTPUT_INVALID`. Unset: any kind. */
  readonly contentTypes?: readonly ContentKind[];
  /**
   * toolsmith: the tool may run as an MCP task (a long call the client polls): `optional` when the
   * client may ask for one, `required` when it must. Unset: never a task.
   */
  readonly taskSupport?: 'optional' | 'required';
  /** toolsmith: per-tool timeout in milliseconds (a call's own `timeoutMs` wins). */
  readonly timeoutMs?: number;
}
