/*
 * The host table: one row per MCP host, each saying what that host does to tool names, schemas and
 * calls — rejects, alters (how), ignores, injects, warns — with the source it is read from beside each
 * rule (the host's code where it is public, else the issue thread that reported it) and the versions
 * it holds for. Adding a host is one row built from the detectors of `host-rules.ts`.
 *
 * Rows read from code (Gemini CLI, VS Code Copilot, Codex, the Inspector) follow that code's own walk
 * and conditions; rows read from issue threads (Cursor, Claude Code, Claude Desktop, ChatGPT, Visual
 * Studio, Windsurf) say what the thread shows and no more.
 */
import { codeSpan } from '../text/markdown-text.js';
import { escapePointerSegment } from '../schema/json-pointer.js';
import { JSON_SCHEMA_2020_12 } from '../schema/json-schema-2020.js';
import { isObject } from '../schema/walk.js';
import { HOST_INJECTED_ARGUMENTS, type InjectedArgument } from '../mcp/injected-arguments.js';
import type { CheckContext, HostProfile, HostRule, RuleHit } from './host-profile.js';
import {
  arraysWithoutItems,
  booleanSubschemas,
  toolShapeViolations,
  INPUT_SCHEMA,
  inputAndOutput,
  inputNodes,
  JSON_TYPES,
  keywordsAtRoot,
  keywordsOnNodes,
  MAX_WALK_DEPTH,
  metaSchemaViolations,
  nameNotMatching,
  nonObjectRoot,
  OUTPUT_SCHEMA,
  shown,
  tupleItems,
  typeUnions,
  visitSchemaNodes,
  words,
} from './host-rules.js';

/* ---------------------------------------------------------------- Gemini CLI */

const GEMINI_CORE = 'npm @google/gemini-cli-core@0.61.0 (github.com/google-gemini/gemini-cli, packages/core/src';
const GEMINI_VERSIONS = '0.61.0 (the version the end-to-end tests run)';
/** Gemini's function-name limit is 64; Gemini CLI cuts at 63 "to be safe". */
const GEMINI_NAME_LIMIT = 63;

/** Gemini CLI's `generateValidName`: `mcp_` first, characters outside `[A-Za-z0-9_.:-]` → `_`, over 63 the middle replaced by `...`. */
function geminiName(name: string): string {
  let valid = (name.startsWith('mcp_') ? name : `mcp_${name}`).replace(/[^a-zA-Z0-9_\-.:]/g, '_');
  if (/^[^a-zA-Z_]/.test(valid)) valid = `_${valid}`;
  return valid.length > GEMINI_NAME_LIMIT ? `${valid.slice(0, 30)}...${valid.slice(-30)}` : valid;
}

/** `type: [X, "null"]` (exactly two, one a string type) — what Gemini CLI turns into `type: X, nullable: true`. */
function geminiNullable(type: unknown): type is [string, string] {
  if (!Array.isArray(type) || type.length !== 2) return false;
  const nullAt = type.indexOf('null');
  return nullAt !== -1 && typeof type[1 - nullAt] === 'string';
}

/** Calls `visit` for every JSON object anywhere in `value` (schemas and data alike), parents first: Gemini CLI's walk. */
function visitJsonObjects(
  value: unknown,
  pointer: string,
  visit: (object: Record<string, unknown>, pointer: string) => void,
  depth = 0,
): void {
  if (depth > MAX_WALK_DEPTH) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => visitJsonObjects(item, `${pointer}/${index}`, visit, depth + 1));
  } else if (isObject(value)) {
    visit(value, pointer);
    for (const key of Object.keys(value))
      visitJsonObjects(value[key], `${pointer}/${escapePointerSegment(key)}`, visit, depth + 1);
  }
}

const geminiCli: HostProfile = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  versions: GEMINI_VERSIONS,
  naming: {
    qualify: (tool, context) => geminiName(`${context.serverName}_${tool}`),
    prefix: (context) => geminiName(`${context.serverName}_`),
    keeps: 'last',
    does: 'names each tool `mcp_<server>_<tool>`, replaces characters outside `[A-Za-z0-9_.:-]` with `_` and, over 63 characters, keeps the first and last 30 around `...`; of two tools named alike, its registry keeps the last',
    fix: 'keep the name within 63 characters with the prefix (49 with the server named `toolsmith`), in `[A-Za-z0-9_.:-]`',
    source: `${GEMINI_CORE}/tools/mcp-tool.ts generateValidName; tools/tool-registry.ts registerTool, which overwrites)`,
    versions: GEMINI_VERSIONS,
  },
  injects: HOST_INJECTED_ARGUMENTS.filter((argument) => argument.host === 'gemini-cli'),
  rules: [
    {
      id: 'gemini-cli/tool-list',
      effect: 'rejects',
      scope: 'server',
      does: 'lists tools through the MCP TypeScript SDK 1.23.0 client, which refuses the whole `tools/list` when one input or output schema root is not `type: "object"`, has a `required` that is not a list of names, or a property whose schema is not an object (`true`)',
      source: `${GEMINI_CORE}/tools/mcp-client.ts discoverTools; @modelcontextprotocol/sdk 1.23.0 ToolSchema)`,
      versions: GEMINI_VERSIONS,
      fix: 'give every root `type: "object"` and every property an object schema (the portable profile writes `{}` for `true`)',
      find: toolShapeViolations("Gemini CLI's MCP client refuses the whole tool list", { objectProperties: true }),
    },
    {
      id: 'gemini-cli/nullable',
      effect: 'alters',
      does: 'rewrites `type: [X, "null"]` on every JSON object of the input schema (data values included) into `type: X, nullable: true`',
      source: `${GEMINI_CORE}/tools/mcp-client.ts discoverTools)`,
      versions: GEMINI_VERSIONS,
      fix: 'the portable profile says "or null" in the description instead',
      find: (tool) => {
        const hits: RuleHit[] = [];
        visitJsonObjects(tool.inputSchema, INPUT_SCHEMA, (object, pointer) => {
          if (geminiNullable(object.type))
            hits.push({
              pointer: `${pointer}/type`,
              detail: `Gemini CLI rewrites ${shown('type', object.type)} into \`nullable: true\``,
            });
        });
        return hits;
      },
    },
    {
      id: 'gemini-cli/output-schema',
      effect: 'ignores',
      does: 'never shows its model the `outputSchema` (its function declarations carry the input schema only)',
      source: `${GEMINI_CORE}/tools/tools.ts getSchema)`,
      versions: GEMINI_VERSIONS,
      find: (tool) =>
        tool.outputSchema === undefined
          ? []
          : [{ pointer: OUTPUT_SCHEMA, detail: 'Gemini CLI does not show the model the output schema' }],
    },
  ],
};

/* ---------------------------------------------------------------- Cursor */

const COMPOSITION = words('oneOf anyOf allOf');

const cursor: HostProfile = {
  id: 'cursor',
  name: 'Cursor',
  versions: 'as reported 2025-11 to 2026-09',
  rules: [
    {
      id: 'cursor/composition',
      effect: 'rejects',
      scope: 'session',
      does: 'fails every request of the session (a provider 400 shown as `resource_exhausted`) when any tool has `oneOf`, `anyOf` or `allOf` anywhere in its input schema',
      source: 'https://github.com/code-yeongyu/senpi/issues/952, https://github.com/can1357/oh-my-pi/issues/10432',
      versions: 'as reported 2026-08-18 and 2026-09-01',
      fix: 'serve the portable profile: it folds combinators into one schema and tells the alternatives in the description',
      find: keywordsOnNodes(COMPOSITION, (keyword) => `\`${keyword}\` makes every Cursor request of the session fail`),
    },
    {
      id: 'cursor/type-union',
      effect: 'rejects',
      does: 'refuses, before they reach the server, the calls that give a property whose `type` is an array ("must be of type null,string, got string")',
      source: 'https://github.com/cursor/cursor/issues/3778',
      versions: 'as reported 2025-11-13',
      fix: 'the portable profile states the types in the description and leaves `type` out',
      find: typeUnions(
        () => true,
        (types) => `Cursor refuses calls that give this value (${shown('type', types)})`,
      ),
    },
    {
      id: 'cursor/required-null',
      effect: 'rejects',
      scope: 'server',
      does: 'drops the whole tool list of a server when one input schema has `required: null`',
      source: 'https://github.com/MervinPraison/PraisonAI/issues/3111',
      versions: 'as reported 2026-07-16',
      find: inputNodes((node, pointer) =>
        node.required === null
          ? { pointer: `${pointer}/required`, detail: '`required: null` makes Cursor drop every tool of the server' }
          : undefined,
      ),
    },
  ],
};

/* ---------------------------------------------------------------- Claude Code, Claude Desktop */

const claudeCode: HostProfile = {
  id: 'claude-code',
  name: 'Claude Code',
  versions: '1.0.35 to 2.1.250',
  rules: [
    {
      id: 'claude-code/root-composition',
      effect: 'rejects',
      does: 'leaves out, silently, a tool whose input schema has `oneOf`, `anyOf`, `allOf` or `if` at the root',
      source: 'https://github.com/anthropics/claude-code/issues/95504',
      versions: 'as reported 2026-09 (earlier releases: `claude-code/root-composition-400`)',
      fix: 'serve the portable profile: its root is one object schema',
      find: keywordsAtRoot(
        new Set([...COMPOSITION, 'if']),
        (keyword) => `Claude Code leaves the tool out (\`${keyword}\` at the root)`,
      ),
    },
    {
      id: 'claude-code/root-composition-400',
      effect: 'rejects',
      scope: 'session',
      does: 'sends root `oneOf`/`anyOf`/`allOf` to the API, which answers every request of the session with a 400 ("input_schema does not support oneOf, allOf, or anyOf at the top level")',
      source:
        'https://github.com/anthropics/claude-code/issues/4886, https://github.com/anthropics/claude-code/issues/45106, https://github.com/perplexityai/modelcontextprotocol/issues/57',
      versions: '1.0.35 to 2.0.29 and as reported 2026-04-08',
      fix: 'serve the portable profile: its root is one object schema',
      find: keywordsAtRoot(
        COMPOSITION,
        (keyword) => `\`${keyword}\` at the root fails every request in these releases`,
      ),
    },
    {
      id: 'claude-code/non-object-root',
      effect: 'rejects',
      scope: 'server',
      does: 'drops every tool of an HTTP server, silently, when one tool’s input schema root is not `type: "object"`',
      source: 'https://github.com/anthropics/claude-code/issues/88049',
      versions: 'as reported 2026-08-19',
      find: nonObjectRoot('an input root that is not `type: "object"` makes Claude Code drop every tool of the server'),
    },
  ],
};

const claudeDesktop: HostProfile = {
  id: 'claude-desktop',
  name: 'Claude Desktop',
  versions: '1.30096 and later (2026-08-13 update)',
  rules: [
    {
      id: 'claude-desktop/output-dialect',
      effect: 'rejects',
      does: 'fails every call of a tool whose `outputSchema` declares a `$schema` other than 2020-12 ("The default validator supports JSON Schema 2020-12 only"), before the call reaches the server',
      source:
        'https://github.com/anthropics/claude-code/issues/86142, https://github.com/anthropics/claude-code/issues/90245, https://github.com/n8n-io/n8n/issues/36361',
      versions: '1.30096.1 and later; the Claude Code desktop app 2.1.250',
      fix: 'publish 2020-12 schemas (toolsmith does) or none with `$schema`',
      find: (tool) => {
        const declared = isObject(tool.outputSchema) ? tool.outputSchema.$schema : undefined;
        if (
          declared === undefined ||
          (typeof declared === 'string' && declared.replace(/#$/, '') === JSON_SCHEMA_2020_12)
        )
          return [];
        return [
          {
            pointer: `${OUTPUT_SCHEMA}/$schema`,
            detail: `every call fails in Claude Desktop (${shown('$schema', declared)})`,
          },
        ];
      },
    },
  ],
};

/* ---------------------------------------------------------------- Codex */

/** What Codex's `JsonSchema` type keeps (`codex-rs/tools/src/json_schema.rs`); `anyOf` is reported turned into a string in 0.111. */
const CODEX_KEPT = words('type description enum items properties required additionalProperties');
const CODEX_JSON_SCHEMA =
  'https://github.com/openai/codex/blob/1048c68e183b97cfec9f78d5c2b951b026350c07/codex-rs/tools/src/json_schema.rs';
/** Keywords Codex drops without changing what the model reads: tooling, and `$ref`s it inlines with their `$defs`. */
const CODEX_RESOLVED = words('$schema $id $comment $ref $defs definitions');

/** The keywords `sanitize_json_schema` descends through (`$ref`s are inlined from `$defs`); what lies under any other is dropped whole. */
const CODEX_WALK = words('properties items additionalProperties prefixItems anyOf $defs definitions');

/** Where Codex's conversion (`sanitize_json_schema`, then its closed `JsonSchema` type) changes the schema. */
const codexNarrowing = inputNodes((node, pointer) => {
  const hits: RuleHit[] = Object.keys(node)
    .filter((keyword) => !CODEX_KEPT.has(keyword) && !CODEX_RESOLVED.has(keyword))
    .map((keyword) => ({
      pointer: `${pointer}/${keyword}`,
      detail:
        keyword === 'const'
          ? 'Codex turns `const` into a one-value `enum`'
          : `Codex drops ${shown(keyword, node[keyword])}`,
    }));
  if (node.type === undefined && !Object.hasOwn(node, 'anyOf') && !Object.hasOwn(node, '$ref'))
    hits.push({
      pointer,
      detail: 'Codex gives a schema without `type` one of its own (`string` when nothing else says)',
    });
  return hits;
}, CODEX_WALK);

const codex: HostProfile = {
  id: 'codex',
  name: 'Codex',
  versions: 'codex-cli 0.20 to 0.111 (the current source passes input schemas through)',
  rules: [
    {
      id: 'codex/closed-subset',
      effect: 'alters',
      does: 'converts each input schema into its own closed subset — `type`, `description`, `enum`, `items`, `properties`, `required`, `additionalProperties` — dropping every other keyword, turning `const` into `enum`, inlining `$ref`s and giving a schema without `type` one (`string` by default)',
      source: `${CODEX_JSON_SCHEMA}, https://github.com/openai/codex/issues/13768`,
      versions:
        '0.20 to at least 0.111 (issue 13768); the current source (codex-rs/tools/src/mcp_tool.rs at 074b7692) passes the schema through',
      fix: 'the portable profile keeps to that subset and tells the rest in descriptions',
      find: codexNarrowing,
    },
    {
      id: 'codex/boolean-subschema',
      effect: 'alters',
      does: 'replaces a `true`/`false` subschema with `{ "type": "string" }`',
      source: CODEX_JSON_SCHEMA,
      versions: '0.20 to at least 0.111',
      find: booleanSubschemas((node, keyword) =>
        keyword === 'additionalProperties' ? undefined : `Codex replaces \`${node}\` with \`{"type":"string"}\``,
      ),
    },
    {
      id: 'codex/tuple-items',
      effect: 'rejects',
      does: 'fails to convert a tool whose `items` is an array of schemas (its `items` holds one schema) and leaves the tool out',
      source: CODEX_JSON_SCHEMA,
      versions: '0.20 to at least 0.111',
      find: tupleItems('Codex cannot convert array-valued `items` and leaves the tool out'),
    },
    {
      id: 'codex/schema-additional-properties',
      effect: 'rejects',
      does: 'fails to convert a tool whose `additionalProperties` is a schema ("invalid type: map, expected a boolean") and leaves the tool out',
      source: 'https://github.com/openai/codex/issues/4300, https://github.com/openai/codex/pull/4454',
      versions: '0.20 to 0.44 (fixed by pull request 4454, merged 2025-10-02)',
      fix: 'the portable profile allows other properties and tells their shape in the description',
      find: inputNodes((node, pointer) =>
        isObject(node.additionalProperties)
          ? {
              pointer: `${pointer}/additionalProperties`,
              detail: 'Codex before 0.45 leaves the tool out (schema-valued `additionalProperties`)',
            }
          : undefined,
      ),
    },
    {
      id: 'codex/root-properties',
      effect: 'alters',
      does: 'adds `properties: {}` to an input schema without `properties`',
      source:
        'https://github.com/openai/codex/blob/074b7692d8f9a5abaa9ae7de117960dc55ce6089/codex-rs/tools/src/mcp_tool.rs, https://github.com/openai/codex/pull/1150',
      versions: 'every release since pull request 1150 (2025-05-29)',
      find: (tool) =>
        isObject(tool.inputSchema) && !isObject(tool.inputSchema.properties)
          ? [{ pointer: `${INPUT_SCHEMA}/properties`, detail: 'Codex adds `properties: {}`' }]
          : [],
    },
  ],
};

/* ---------------------------------------------------------------- ChatGPT, Visual Studio, Windsurf */

const chatgpt: HostProfile = {
  id: 'chatgpt',
  name: 'ChatGPT (connectors)',
  versions: 'as reported 2026-07',
  rules: [
    {
      id: 'chatgpt/tuple-items',
      effect: 'rejects',
      scope: 'server',
      does: 'refuses to create the connector ("Invalid MCP tool schema") when any tool has draft-07 tuple `items` (an array of schemas)',
      source: 'https://github.com/oomkapwn/enquire-mcp/issues/354',
      versions: 'as reported 2026-07-18',
      fix: 'publish 2020-12 (`prefixItems`, as toolsmith does) or the portable profile',
      find: tupleItems('array-valued `items` makes ChatGPT refuse the whole connector'),
    },
  ],
};

const visualStudio: HostProfile = {
  id: 'visual-studio',
  name: 'Visual Studio (GitHub Copilot)',
  versions: 'Visual Studio 2026, as reported 2026-06',
  rules: [
    {
      id: 'visual-studio/name-pattern',
      effect: 'rejects',
      scope: 'session',
      does: 'sends tool names as they are; a name outside `^[a-zA-Z0-9_-]{1,128}$` (a dot, say) makes the API refuse every request',
      source: 'https://github.com/GlitterKill/sdl-mcp/issues/34',
      versions: 'Visual Studio 2026, as reported 2026-06-23',
      fix: 'name tools with letters, digits, `_` and `-` only, at most 128 characters',
      find: nameNotMatching(
        /^[a-zA-Z0-9_-]{1,128}$/,
        (name) => `${codeSpan(name)} makes every Visual Studio request fail (\`^[a-zA-Z0-9_-]{1,128}$\`)`,
      ),
    },
  ],
};

const windsurf: HostProfile = {
  id: 'windsurf',
  name: 'Windsurf',
  versions: 'as reported 2025-07 to 2026-03 (1.9566.11)',
  rules: [
    {
      id: 'windsurf/array-items',
      effect: 'rejects',
      scope: 'session',
      does: 'fails the request ("array schema missing items") when a tool has `type: "array"` without `items`',
      source: 'https://github.com/DaxianLee/cocos-mcp-server/issues/14',
      versions: '1.9566.11 (2026-03-17)',
      fix: 'give every array its `items`',
      find: arraysWithoutItems('an array without `items` makes Windsurf fail the request'),
    },
    {
      id: 'windsurf/meta-schema',
      effect: 'rejects',
      scope: 'server',
      does: 'validates each input schema against the 2020-12 meta-schema and fails to load the server’s tools when one does not pass ("failed to validate tool input schema")',
      source: 'https://github.com/SylphxAI/pdf-reader-mcp/issues/107',
      versions: 'as reported 2025-07-11',
      find: metaSchemaViolations('2020-12', (message) => `Windsurf refuses the schema here: ${message}`),
    },
  ],
};

/* ---------------------------------------------------------------- VS Code Copilot, by model family */

const VSCODE_NORMALIZER =
  'https://github.com/microsoft/vscode-copilot-chat/blob/31acd00a86424e2ee6e980e54919cf31fbf88030/src/extension/tools/common/toolSchemaNormalizer.ts';
const VSCODE_VERSIONS = 'Copilot Chat 0.29.0 (its first public source) to 0.42.0';
/** The keywords the normalizer's walker follows (`forEachSchemaNode`): never `$defs`, `prefixItems` or `propertyNames`. */
const VSCODE_WALK = words(
  'properties items dependencies patternProperties additionalProperties anyOf allOf oneOf not if then else contains',
);
/** What it deletes for `gpt-4*` families (`gpt4oUnsupportedSchemaKeywords`). */
const VSCODE_GPT4_DELETES = words(
  'minLength maxLength pattern default format minimum maximum multipleOf patternProperties unevaluatedProperties propertyNames minProperties maxProperties unevaluatedItems contains minContains maxContains minItems maxItems uniqueItems',
);
const VSCODE_ROOT_DELETES = words('oneOf anyOf allOf not if then else');
/** Longest description VS Code Copilot passes on whole to gpt-4 models. */
export const VSCODE_DESCRIPTION_LIMIT = 1024;

function vscodeRule(rule: Omit<HostRule, 'source' | 'versions'> & { versions?: string }): HostRule {
  return { source: VSCODE_NORMALIZER, versions: VSCODE_VERSIONS, ...rule };
}

/** The rules of every model family. */
const VSCODE_ALL_FAMILIES: readonly HostRule[] = [
  vscodeRule({
    id: 'vscode-copilot/meta-schema',
    effect: 'rejects',
    scope: 'session',
    does: 'checks each input schema against the draft-07 meta-schema and fails every request ("Failed to validate tool") when one does not pass',
    find: metaSchemaViolations(
      'draft-07',
      (message) => `VS Code Copilot fails every request: the schema here ${message}`,
    ),
  }),
  vscodeRule({
    id: 'vscode-copilot/array-items',
    effect: 'rejects',
    scope: 'session',
    does: 'fails every request ("tool parameters array type must have items") when a `type: "array"` schema has no `items` (or `items: false`)',
    fix: 'give every array its `items`',
    find: arraysWithoutItems('an array without `items` makes every VS Code Copilot request fail', {
      falsy: true,
      through: VSCODE_WALK,
    }),
  }),
  vscodeRule({
    id: 'vscode-copilot/root-composition',
    effect: 'alters',
    does: 'deletes `oneOf`, `anyOf`, `allOf`, `not`, `if`, `then`, `else` at the root of the input schema',
    find: keywordsAtRoot(
      VSCODE_ROOT_DELETES,
      (keyword, value) => `VS Code Copilot deletes ${shown(keyword, value)} at the root`,
    ),
  }),
  vscodeRule({
    id: 'vscode-copilot/root-shape',
    effect: 'alters',
    does: 'replaces an input schema whose root is not `type: "object"` with an empty object schema, and adds `properties: {}` where the root has none',
    find: (tool) => {
      const root = tool.inputSchema;
      if (!isObject(root) || root.type !== 'object')
        return [
          {
            pointer: INPUT_SCHEMA,
            detail: 'VS Code Copilot replaces the schema with `{"type":"object","properties":{}}`',
          },
        ];
      return root.properties
        ? []
        : [{ pointer: `${INPUT_SCHEMA}/properties`, detail: 'VS Code Copilot adds `properties: {}`' }];
    },
  }),
  vscodeRule({
    id: 'vscode-copilot/required-undeclared',
    effect: 'alters',
    does: 'removes from `required` the names an object schema does not declare in `properties`',
    find: inputNodes((node, pointer) => {
      if (node.type !== 'object' || !isObject(node.properties) || !Array.isArray(node.required)) return undefined;
      const properties = node.properties;
      return node.required
        .map((name, index) => ({ name, index }))
        .filter(({ name }) => typeof name !== 'string' || properties[name] === undefined)
        .map(({ name, index }) => ({
          pointer: `${pointer}/required/${index}`,
          detail: `VS Code Copilot removes ${codeSpan(String(name))} from \`required\` (not in \`properties\`)`,
        }));
    }, VSCODE_WALK),
  }),
  vscodeRule({
    id: 'vscode-copilot/empty-description',
    effect: 'alters',
    does: 'gives a tool without a description the description "No description provided"',
    find: (tool) =>
      tool.description
        ? []
        : [{ pointer: '/description', detail: 'VS Code Copilot describes the tool as "No description provided"' }],
  }),
  {
    id: 'vscode-copilot/name-characters',
    effect: 'alters',
    does: 'warns about and remaps (dots to underscores) a tool name outside `[a-z0-9_-]`',
    source: 'https://github.com/microsoft/vscode/issues/308463, https://github.com/github/copilot-cli/issues/2581',
    versions: 'Copilot Chat 0.42.3, VS Code 1.114',
    fix: 'name tools with letters, digits, `_` and `-` only',
    find: nameNotMatching(/^[a-zA-Z0-9_-]+$/, (name) => `VS Code Copilot remaps ${codeSpan(name)}`),
  },
];

const vscodeTupleItems = vscodeRule({
  id: 'vscode-copilot/tuple-items',
  effect: 'alters',
  does: 'rewrites array-valued `items` on a `type: "array"` schema into `items: { anyOf: [...] }` for the gpt-4, claude and o4 families',
  find: tupleItems('VS Code Copilot rewrites the tuple into `items: {"anyOf": [...]}`', {
    arrayTypeOnly: true,
    through: VSCODE_WALK,
  }),
});

/** VS Code Copilot for one family of models: the rules of every family, then the family's own. */
function vscodeFamily(id: string, models: string, rules: readonly HostRule[]): HostProfile {
  return {
    id,
    name: `VS Code Copilot (${models})`,
    versions: VSCODE_VERSIONS,
    rules: [...VSCODE_ALL_FAMILIES, ...rules],
  };
}

const vscodeCopilotGpt4 = vscodeFamily('vscode-copilot-gpt-4', 'gpt-4 family models', [
  vscodeTupleItems,
  vscodeRule({
    id: 'vscode-copilot-gpt-4/unsupported-keywords',
    effect: 'alters',
    does: 'deletes `minLength`, `maxLength`, `pattern`, `default`, `format`, `minimum`, `maximum`, `multipleOf`, the size and item keywords and the property-name keywords wherever its walk reaches (not inside `$defs`)',
    fix: 'the portable profile tells bounds and defaults in the description',
    find: keywordsOnNodes(
      VSCODE_GPT4_DELETES,
      (keyword, value) => `VS Code Copilot deletes ${shown(keyword, value)}`,
      VSCODE_WALK,
    ),
  }),
  vscodeRule({
    id: 'vscode-copilot-gpt-4/long-description',
    effect: 'alters',
    does: `cuts a schema description longer than ${VSCODE_DESCRIPTION_LIMIT} characters`,
    find: inputNodes(
      (node, pointer) =>
        typeof node.description === 'string' && node.description.length > VSCODE_DESCRIPTION_LIMIT
          ? {
              pointer: `${pointer}/description`,
              detail: `VS Code Copilot cuts the description to ${VSCODE_DESCRIPTION_LIMIT} characters`,
            }
          : undefined,
      VSCODE_WALK,
    ),
  }),
]);

const vscodeCopilotClaude = vscodeFamily('vscode-copilot-claude', 'claude and o4 family models', [vscodeTupleItems]);

const vscodeCopilotGemini = vscodeFamily('vscode-copilot-gemini', 'gemini family models', [
  vscodeRule({
    id: 'vscode-copilot-gemini/nullable',
    effect: 'alters',
    does: 'rewrites a `type` array holding `null` into `nullable: true` (one other type) or drops `null` from it (several)',
    versions: 'Copilot Chat 0.37.0 to 0.42.0',
    fix: 'the portable profile says "or null" in the description instead',
    find: typeUnions(
      (types) => types.includes('null'),
      (types) => `VS Code Copilot rewrites ${shown('type', types)} for gemini models`,
      VSCODE_WALK,
    ),
  }),
]);

const vscodeCopilot = vscodeFamily('vscode-copilot', 'other model families', []);

/* ---------------------------------------------------------------- The MCP Inspector */

const INSPECTOR_SOURCE =
  'npm @modelcontextprotocol/inspector@2.12.0, clients/cli/build/index.js (core/json/schemaLint.ts)';
const INSPECTOR_VERSIONS = '2.12.0 (the version the end-to-end tests run)';
/** Keywords after which a boolean is a value, not a schema standing where an object is expected. */
const INSPECTOR_BOOLEAN_VALUED = words('additionalProperties unevaluatedProperties additionalItems unevaluatedItems');
/** Keywords that constrain a value (its `CONSTRAINING_KEYWORDS`; `if` counts only beside `then` or `else`). */
const INSPECTOR_CONSTRAINING = words(
  'type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern format contentMediaType contentEncoding contentSchema maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required dependentRequired allOf anyOf oneOf not items prefixItems contains additionalItems unevaluatedItems properties patternProperties additionalProperties unevaluatedProperties propertyNames dependentSchemas dependencies $ref $dynamicRef $recursiveRef',
);

/** The Inspector's lint over one schema (input or output), as `--strict` prints it: one hit per finding, at the schema it is about. */
function inspectorLint(schema: unknown, at: string): RuleHit[] {
  const hits: RuleHit[] = [];
  let hasIds = false;
  visitSchemaNodes(schema, at, (node) => {
    if (typeof node !== 'boolean' && typeof node.$id === 'string' && node.$id !== '') hasIds = true;
  });
  visitSchemaNodes(schema, at, (node, pointer, keyword) => {
    if (typeof node === 'boolean') {
      if (!INSPECTOR_BOOLEAN_VALUED.has(keyword))
        hits.push({ pointer, detail: `\`${node}\` where a schema object is expected (an error under \`--strict\`)` });
      return;
    }
    const type = node.type;
    if (
      Array.isArray(type) &&
      type.length > 0 &&
      type.every((t) => JSON_TYPES.has(t as string)) &&
      new Set(type).size === type.length
    )
      hits.push({ pointer, detail: `the Inspector warns about the type union ${shown('type', type)}` });
    if (typeof node.$ref === 'string' && node.$ref !== '' && !node.$ref.startsWith('#') && !hasIds)
      hits.push({ pointer, detail: 'the Inspector warns: clients do not fetch remote schemas' });
    const constrains =
      Object.keys(node).some((key) => INSPECTOR_CONSTRAINING.has(key)) ||
      (Object.hasOwn(node, 'if') && (Object.hasOwn(node, 'then') || Object.hasOwn(node, 'else')));
    if (!constrains && keyword !== 'not')
      hits.push({ pointer, detail: 'the Inspector warns: the schema accepts any value (untyped)' });
  });
  return hits;
}

const mcpInspector: HostProfile = {
  id: 'mcp-inspector',
  name: 'MCP Inspector (CLI)',
  versions: INSPECTOR_VERSIONS,
  rules: [
    {
      id: 'mcp-inspector/tool-shape',
      effect: 'rejects',
      does: 'checks each listed tool against the MCP SDK 2.3.1 `Tool` shape and leaves out (listing the rest) a tool whose input root is not `type: "object"` or whose `required` is not a list of names',
      source: `${INSPECTOR_SOURCE.replace(' (core/json/schemaLint.ts)', '')} (salvageList; @modelcontextprotocol/client 2.3.1 ToolSchema)`,
      versions: INSPECTOR_VERSIONS,
      find: toolShapeViolations('the Inspector leaves the tool out of the list', { objectProperties: false }),
    },
    {
      id: 'mcp-inspector/schema-lint',
      effect: 'warns',
      does: 'lists and calls every tool; `tools/list --strict` warns about type unions, untyped schemas and remote `$ref`s, and errs (exit code) on a `true`/`false` where a schema object is expected',
      source: INSPECTOR_SOURCE,
      versions: INSPECTOR_VERSIONS,
      find: inputAndOutput(inspectorLint),
    },
  ],
};

/** Every host toolsmith knows, in the order reports list them. */
export const HOSTS: readonly HostProfile[] = Object.freeze([
  geminiCli,
  cursor,
  claudeCode,
  claudeDesktop,
  codex,
  chatgpt,
  vscodeCopilotGpt4,
  vscodeCopilotClaude,
  vscodeCopilotGemini,
  vscodeCopilot,
  visualStudio,
  windsurf,
  mcpInspector,
]);

/** The row of a host id, or undefined. */
export function hostById(id: string): HostProfile | undefined {
  return HOSTS.find((host) => host.id === id);
}

/**
 * The arguments the hosts add to calls for their own bookkeeping (Gemini CLI's `wait_for_previous`),
 * each naming its host: what a server may take out of a call's arguments before validating it, when
 * the tool declares no property of that name.
 */
export function injectedArguments(hosts: readonly HostProfile[] = HOSTS): InjectedArgument[] {
  return hosts.flatMap((host) => (host.injects ?? []).map((argument) => ({ ...argument, host: host.id })));
}

/** The name `host` shows its model for `tool` (the tool's own name for a host that does not rename). */
export function hostToolName(host: HostProfile, tool: string, context: CheckContext): string {
  return host.naming === undefined ? tool : host.naming.qualify(tool, context);
}
