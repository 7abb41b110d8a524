import { copyJsonValue, type SchemaNode } from '../schema/walk.js';
import {
  buildPerTool,
  checkTool,
  type LossRecorder,
  type ManifestProject,
  type ManifestTool,
  type NameRule,
  prepareRoot,
  type TargetBuild,
} from './build.js';
import { deferEntries, type OpenAiToolSearchTool } from './defer-loading.js';

/**
 * OpenAI function names: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
 * length of 64." — `FunctionDefinition.name` in the openai SDK (node_modules/openai/resources/shared.d.ts),
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
 */
export const OPENAI_NAMES: NameRule = {
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  of: 'OpenAI function names',
  says: 'letters, digits, _ and -, at most 64',
};

/**
 * Root keywords OpenAI refuses for function parameters: "schema must have type 'object' and not have
 * 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level" (API error quoted in
 * https://github.com/cecli-dev/cecli/issues/281). They are dropped with a loss entry.
 */
export const OPENAI_FORBIDDEN_AT_ROOT: readonly string[] = ['oneOf', 'anyOf', 'allOf', 'enum', 'not'];

/** One entry of `manifests/openai.json` (assignable to the SDK's `ChatCompletionFunctionTool`). */
export interface OpenAiTool {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    strict?: boolean;
  };
}

/** The parameters of a non-strict function: the whole JSON Schema, only the root rules applied. */
function looseParameters(tool: ManifestTool, recorder: LossRecorder): SchemaNode {
  checkTool(tool, recorder.target, OPENAI_NAMES);
  const root = prepareRoot(copyJsonValue(tool.inputSchema as SchemaNode), recorder, OPENAI_FORBIDDEN_AT_ROOT);
  return recorder.describeInto('/inputSchema', root);
}

/** `manifests/openai.json`: Chat Completions function tools. */
export function buildOpenAiManifest(project: ManifestProject): TargetBuild<OpenAiTool[]> {
  return buildPerTool<OpenAiTool[]>(project, 'openai', [], (tool, recorder, content) => {
    const parameters = looseParameters(tool, recorder);
    content.push({ type: 'function', function: { name: tool.name, description: tool.description, parameters } });
  });
}

/** One entry of `manifests/openai-responses*.json` (assignable to the SDK's Responses `FunctionTool`). */
export interface OpenAiResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
  /** The tool's output schema: the API reads the tool's outputs, failures included, as JSON of it. */
  output_schema?: Record<string, unknown>;
  /** Found by `tool_search` rather than sent loaded (`manifests.deferLoading`). */
  defer_loading?: true;
}

/**
 * One Responses API entry. Its `output_schema` is the tool's output schema as it is ("A JSON schema
 * object describing the JSON value encoded in string outputs for this function", `FunctionTool` in
 * openai/resources/responses/responses.d.ts); absent for a tool without one.
 */
export function responsesEntry(tool: ManifestTool, parameters: SchemaNode, strict: boolean): OpenAiResponsesTool {
  const entry: OpenAiResponsesTool = {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters,
    strict,
  };
  if (tool.outputSchema !== undefined)
    entry.output_schema = copyJsonValue(tool.outputSchema as Record<string, unknown>);
  return entry;
}

/** An entry of `manifests/openai-responses*.json` with deferred loading on: a function, or `tool_search` (listed last). */
export type OpenAiResponsesManifestEntry = OpenAiResponsesTool | OpenAiToolSearchTool;

/**
 * `manifests/openai-responses.json`: Responses API function tools (`{ type: "function", name, description,
 * parameters, strict, output_schema }`, `FunctionTool` in openai/resources/responses/responses.d.ts) with
 * `strict: false`: the whole schema, as for Chat Completions.
 */
export function buildOpenAiResponsesManifest(project: ManifestProject): TargetBuild<OpenAiResponsesTool[]> {
  const build = buildPerTool<OpenAiResponsesTool[]>(project, 'openai-responses', [], (tool, recorder, content) => {
    content.push(responsesEntry(tool, looseParameters(tool, recorder), false));
  });
  return deferEntries(build, project, 'openai-responses');
}
