/*
 * The manifest target table: one line per provider format toolsmith emits. Adding a target is one new
 * builder file beside this one (its rules, with their sources, and what it drops, recorded through
 * `LossRecorder`) plus one row in `TARGET_ROWS` (`ManifestTarget` is its keys). The
 * generator (codegen/emit/manifests: files, typed modules, loss report, docs), the config check and
 * the runtime builders (`toolsmith-sdk/manifests`) all read the targets from here.
 */
import { toDraft07 } from '../schema/json-schema-draft-07.js';
import { buildAnthropicManifest } from './anthropic.js';
import type { ManifestProject, TargetBuild } from './build.js';
import { buildGeminiManifest } from './gemini.js';
import { buildGeminiLegacyManifest } from './gemini-legacy.js';
import { describeErrors } from './declared-errors.js';
import { DEFAULT_INPUT_EXAMPLES, describeExamples } from './input-examples.js';
import { buildMcpManifest } from './mcp.js';
import { buildMcpPortableManifest } from './mcp-portable.js';
import { buildOpenAiManifest, buildOpenAiResponsesManifest } from './openai.js';
import { buildOpenAiResponsesStrictManifest, buildOpenAiStrictManifest } from './openai-strict.js';

/** One target: where its file goes, how it is built, and how the generator presents it. */
export interface ManifestTargetEntry {
  /** The JSON file, relative to the output folder: `manifests/<target>.json` (its typed module ends `.ts`). */
  readonly file: string;
  /** The key of the tool list in the file's object; absent when the file is the list itself. */
  readonly key?: string;
  /** Builds the target from the tools, recording what it drops or rewrites (the target's loss rules). */
  readonly build: (project: ManifestProject) => TargetBuild<unknown>;
  /** The builder takes a 2020-12 tool schema as it is (MCP's dialect); without it, the draft-07 form (`toDraft07`). */
  readonly takes2020?: boolean;
  /** Emitted only when `manifests.targets` names it (not among the defaults). */
  readonly optIn?: boolean;
  /** The typed module beside the JSON: the constant, its type, and the runtime type it imports. */
  readonly typed: { readonly name: string; readonly type: string; readonly element: string };
  /** The target's name on the docs pages. */
  readonly label: string;
  /**
   * How its entries' tokens are counted (`tokens.ts`): absent, exactly with o200k_base (the OpenAI
   * models' encoding); a number, estimated at that many characters of entry JSON per token, for a
   * provider that publishes no tokenizer (calibrated on the bench corpus, `buildCorpus(1000)`: its
   * total characters over its total o200k tokens, rounded to two places).
   */
  readonly charsPerToken?: number;
  /** Its entries carry examples in a field of their own (`input_examples`); else `examplesInDescriptions` tells them in the description. */
  readonly examplesField?: boolean;
}

/** The targets, in file order: one row per target (its name is the row's key, which names its file). */
const TARGET_ROWS = {
  openai: {
    build: buildOpenAiManifest,
    typed: { name: 'openaiTools', type: 'OpenAiTool[]', element: 'OpenAiTool' },
    label: 'OpenAI (function calling)',
  },
  'openai-strict': {
    build: buildOpenAiStrictManifest,
    typed: { name: 'openaiStrictTools', type: 'OpenAiTool[]', element: 'OpenAiTool' },
    label: 'OpenAI (strict structured outputs)',
  },
  'openai-responses': {
    build: buildOpenAiResponsesManifest,
    typed: { name: 'openaiResponsesTools', type: 'OpenAiResponsesTool[]', element: 'OpenAiResponsesTool' },
    label: 'OpenAI Responses (function tools)',
  },
  'openai-responses-strict': {
    build: buildOpenAiResponsesStrictManifest,
    typed: { name: 'openaiResponsesStrictTools', type: 'OpenAiResponsesTool[]', element: 'OpenAiResponsesTool' },
    label: 'OpenAI Responses (strict)',
  },
  anthropic: {
    build: buildAnthropicManifest,
    typed: { name: 'anthropicTools', type: 'AnthropicTool[]', element: 'AnthropicTool' },
    label: 'Anthropic',
    charsPerToken: 4.09,
    examplesField: true,
  },
  gemini: {
    key: 'functionDeclarations',
    build: buildGeminiManifest,
    typed: { name: 'geminiTool', type: 'GeminiToolManifest', element: 'GeminiToolManifest' },
    label: 'Gemini (JSON Schema)',
    charsPerToken: 4.17,
  },
  'gemini-legacy': {
    key: 'functionDeclarations',
    build: buildGeminiLegacyManifest,
    optIn: true,
    typed: { name: 'geminiLegacyTool', type: 'GeminiLegacyToolManifest', element: 'GeminiLegacyToolManifest' },
    label: 'Gemini (legacy OpenAPI subset)',
    charsPerToken: 4.23,
  },
  // MCP carries a 2020-12 source as it is (its spec's default dialect); draft-07 is translated by `toMcpTool`.
  mcp: {
    key: 'tools',
    build: buildMcpManifest,
    takes2020: true,
    typed: { name: 'mcpToolList', type: 'McpToolsManifest', element: 'McpToolsManifest' },
    label: 'MCP',
  },
  // The portable profile (`serve --profile portable`): emitted when `manifests.servedProfile` is `portable` or `targets` names it.
  'mcp-portable': {
    key: 'tools',
    build: buildMcpPortableManifest,
    takes2020: true,
    optIn: true,
    typed: { name: 'mcpPortableToolList', type: 'McpToolsManifest', element: 'McpToolsManifest' },
    label: 'MCP (portable profile)',
  },
} satisfies Record<string, Omit<ManifestTargetEntry, 'file'>>;

/** Every manifest target toolsmith emits (the table's keys); `manifests.targets` in toolsmith.config.json picks among them. */
export type ManifestTarget = keyof typeof TARGET_ROWS;

/** The targets, in file order, each with its file. */
export const MANIFEST_TARGET_TABLE: Readonly<Record<ManifestTarget, ManifestTargetEntry>> = Object.freeze(
  Object.fromEntries(
    Object.entries(TARGET_ROWS).map(([target, row]) => [target, { ...row, file: `manifests/${target}.json` }]),
  ) as Record<ManifestTarget, ManifestTargetEntry>,
);

/** All targets, in file order. */
export const MANIFEST_TARGETS: readonly ManifestTarget[] = Object.freeze(
  Object.keys(MANIFEST_TARGET_TABLE) as ManifestTarget[],
);

/** The targets emitted when the config names none: all but the opt-in ones (`gemini-legacy`, the OpenAPI subset). */
export const DEFAULT_MANIFEST_TARGETS: readonly ManifestTarget[] = Object.freeze(
  MANIFEST_TARGETS.filter((target) => !MANIFEST_TARGET_TABLE[target].optIn),
);

/** Builds one target: its builder, given the draft-07 form of every 2020-12 tool schema when it reads draft-07. */
export function buildManifestTarget(target: ManifestTarget, given: ManifestProject): TargetBuild<unknown> {
  const { build, takes2020, examplesField } = MANIFEST_TARGET_TABLE[target];
  // Declared errors, and examples where the target has no field for them, told in the description.
  let project = given.describeErrors === true ? { ...given, tools: describeErrors(given.tools) } : given;
  if (project.examplesInDescriptions === true && !examplesField)
    project = { ...project, tools: describeExamples(project.tools, project.inputExamples ?? DEFAULT_INPUT_EXAMPLES) };
  if (takes2020) return build(project);
  const tools = project.tools.map((tool) => ({
    ...tool,
    inputSchema: toDraft07(tool.inputSchema),
    ...(tool.outputSchema ? { outputSchema: toDraft07(tool.outputSchema) } : {}),
  }));
  return build({ ...project, tools });
}
