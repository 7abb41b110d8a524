import { toJsonSchema2020 } from '../schema/json-schema-2020.js';
import type { SchemaNode } from '../schema/walk.js';
import {
  buildPerTool,
  checkTool,
  type ManifestProject,
  type NameRule,
  prepareRoot,
  type TargetBuild,
} from './build.js';
import { type AnthropicToolSearchTool, deferEntries } from './defer-loading.js';
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
const ANTHROPIC_NAMES: NameRule = {
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  of: 'Anthropic tool names',
  says: 'letters, digits, _ and -, at most 64',
};

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

/** `manifests/anthropic.json`: Messages API tools (and the tool search tool last, when a tool is deferred). */
export function buildAnthropicManifest(project: ManifestProject): TargetBuild<AnthropicTool[]> {
  const build = buildPerTool<AnthropicTool[]>(project, 'anthropic', [], (tool, recorder, content) => {
    checkTool(tool, 'anthropic', ANTHROPIC_NAMES);
    const root = prepareRoot(tool.inputSchema as SchemaNode, recorder, ['oneOf', 'anyOf', 'allOf']);
    const inputSchema = toJsonSchema2020(recorder.describeInto('/inputSchema', root)) as AnthropicTool['input_schema'];
    const entry: AnthropicTool = { name: tool.name, description: tool.description, input_schema: inputSchema };
    const examples = selectInputExamples(tool.examples, project.inputExamples ?? 0);
    if (examples.length > 0) entry.input_examples = examples;
    content.push(entry);
  });
  return deferEntries(build, project, 'anthropic');
}
