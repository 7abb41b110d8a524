import { toJsonSchema2020 } from '../schema/json-schema-2020.js';
import type { ManifestProject as ProjectModel, ManifestTool as ToolModel } from './build.js';
import {
  buildPerTool,
  checkObjectRoot,
  emptyBuild,
  type LossRecorder,
  prepareRoot,
  type SchemaObject,
  type TargetBuild,
  UnrepresentableError,
} from './build.js';
import { type AnthropicToolSearchTool, isDeferred, toolSearchEntry } from './defer-loading.js';
import { selectInputExamples } from './input-examples.js';

/*
 * Anthropic Messages API tool rules. Sources:
 * - Tool names: the API answers "tools.N.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"
 *   (https://github.com/anthropics/claude-code/issues/603, https://github.com/cyanheads/atlas-mcp-server/issues/14;
 *   https://docs.anthropic.com/en/docs/build-with-claude/tool-use/overview). Later answers show {1,128}
 *   (https://github.com/anthropics/claude-code/issues/96152); 64 is kept as the limit every model accepts.
 * - `input_schema` is JSON Schema draft 2020-12 (`Tool.input_schema` in
 *   node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts; the API answers "JSON schema is invalid.
 *   It must match JSON Schema draft 2020-12", https://github.com/acomagu/vscode-as-mcp-server/issues/6), so the
 *   draft-07 forms are translated: `definitions` → `$defs`, tuple `items` → `prefixItems`, `additionalItems`
 *   → `items`, `dependencies` → `dependentRequired` / `dependentSchemas`. These keep the meaning and are not
 *   loss entries.
 * - "input_schema does not support oneOf, allOf, or anyOf at the top level"
 *   (https://github.com/anthropics/claude-code/issues/5319): dropped with a loss entry.
 * Without `strict: true` the model is shown the whole schema, so nothing else is removed.
 * - `input_examples`: example inputs the API validates against `input_schema` (`Tool.input_examples` in
 *   @anthropic-ai/sdk 1.14.0; https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use):
 *   the definition's examples, which generate validated against the full schema (so against the looser
 *   `input_schema` too), the most different first (`selectInputExamples`).
 */

/** Anthropic tool names. */
export const ANTHROPIC_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** One entry of `manifests/anthropic.json` (assignable to the SDK's `Tool`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: 'object'; [keyword: string]: unknown };
  /** Example inputs, the most different first (`Tool.input_examples` in @anthropic-ai/sdk 1.14.0). */
  input_examples?: Record<string, unknown>[];
  /** Found by the tool search tool rather than sent loaded (`manifests.deferLoading`). */
  defer_loading?: true;
}

/** An entry of `manifests/anthropic.json` with deferred loading on: a tool, or the tool search tool (listed last). */
export type AnthropicManifestEntry = AnthropicTool | AnthropicToolSearchTool;

/** Translates one draft-07 schema to draft 2020-12 (same meaning): the one translation MCP also uses. */
export const toDraft2020: (schema: unknown) => unknown = toJsonSchema2020;

/** The Anthropic `input_schema` of one tool; throws `UnrepresentableError` when Anthropic cannot take it. */
export function toAnthropicInputSchema(tool: ToolModel, recorder: LossRecorder): AnthropicTool['input_schema'] {
  if (!ANTHROPIC_TOOL_NAME_PATTERN.test(tool.name)) {
    throw new UnrepresentableError(
      '/name',
      `Tool name '${tool.name}' cannot be sent to anthropic: Anthropic tool names must match ${ANTHROPIC_TOOL_NAME_PATTERN.source} ` +
        `(letters, digits, _ and -, at most 64).`,
    );
  }
  checkObjectRoot(tool, 'anthropic', tool.inputSchema);
  const root = recorder.describeInto(
    '/inputSchema',
    prepareRoot(tool.inputSchema as SchemaObject, recorder, ['oneOf', 'anyOf', 'allOf']),
  );
  return toDraft2020(root) as AnthropicTool['input_schema'];
}

/** `manifests/anthropic.json`: Messages API tools (and the tool search tool last, when a tool is deferred). */
export function buildAnthropicManifest(project: ProjectModel): TargetBuild<AnthropicTool[]> {
  const build = emptyBuild<AnthropicTool[]>([]);
  buildPerTool(project, 'anthropic', build, (tool, recorder) => {
    const entry: AnthropicTool = {
      name: tool.name,
      description: tool.description,
      input_schema: toAnthropicInputSchema(tool, recorder),
    };
    const examples = selectInputExamples(
      (tool.examples ?? []).map((example) => example.input),
      project.inputExamples ?? 0,
    );
    if (examples.length > 0) entry.input_examples = examples;
    if (isDeferred(tool, project.deferLoading)) entry.defer_loading = true;
    build.content.push(entry);
  });
  if (project.deferLoading !== undefined && build.content.some((entry) => entry.defer_loading === true))
    (build.content as AnthropicManifestEntry[]).push(
      toolSearchEntry('anthropic', project.deferLoading) as AnthropicToolSearchTool,
    );
  return build;
}
