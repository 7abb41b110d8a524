import { HOSTS } from '../../src/hosts/host-table.js';
import { DEFAULT_SERVER_NAME } from '../../src/hosts/host-profile.js';
import { MANIFEST_TARGETS } from '../../src/manifest-targets/table.js';

/**
 * The one declaration of toolsmith's configuration: every key of `toolsmith.config.json` (and of a
 * `toolsmith.config.ts` default export), as draft-07 JSON Schema. `npm run config-schema` derives from
 * it the shipped `toolsmith.config.schema.json` (editor autocomplete), the `ToolsmithConfig` type
 * (`generated/config-type.ts`, json-schema-to-typescript) and the Ajv standalone validator the CLI checks a
 * config with (`generated/config-validator.ts`); a test fails when those are stale. Adding a key is adding it here.
 */
export const CONFIG_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'toolsmith configuration',
  description:
    'toolsmith.config.json (or the default export of toolsmith.config.ts / .mts / .js / .mjs). Command-line flags override it.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: {
      type: 'string',
      description:
        'The JSON schema of this file, for editor autocomplete: `./node_modules/toolsmith-sdk/toolsmith.config.schema.json`.',
    },
    schemas: {
      type: 'string',
      minLength: 1,
      default: 'schemas',
      description:
        'The definitions folder (`*.tool.json`, `*.schema.json`), relative to the project. Flag: `--schemas`.',
    },
    out: {
      type: 'string',
      minLength: 1,
      default: 'generated',
      description: 'The generated output folder, relative to the project. Flag: `--out`.',
    },
    stubs: {
      type: 'string',
      minLength: 1,
      default: 'src/tools',
      description: 'The implementation stubs folder (written only when a stub is absent). Flag: `--stubs`.',
    },
    runtimeImport: {
      type: 'string',
      minLength: 1,
      default: 'toolsmith-sdk',
      description:
        'Where generated code imports the runtime from: a package name, or a path relative to the project (`./src/index.js`).',
    },
    regenerateCommand: {
      type: 'string',
      minLength: 1,
      default: 'npx --no toolsmith generate',
      description: 'The command the banners of generated files tell readers to run.',
    },
    templates: {
      type: 'string',
      minLength: 1,
      description:
        'A folder of handlebars templates overriding the default docs templates, file by file. Flag: `--templates`.',
    },
    manifests: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'The provider manifests generated under `<out>/manifests/`.',
      properties: {
        targets: {
          type: 'array',
          description: 'The manifest targets to emit (default: all but `gemini-legacy`).',
          items: { title: 'manifest target', type: 'string', enum: [...MANIFEST_TARGETS] },
        },
        unrepresentable: {
          type: 'string',
          enum: ['omit', 'error'],
          default: 'omit',
          description:
            'A tool a target cannot take: left out with a warning and listed in the loss report (`omit`), or a problem (`error`).',
        },
        describeLosses: {
          type: 'boolean',
          default: true,
          description:
            'Tell in the descriptions what a target drops (e.g. a `pattern` OpenAI strict mode cannot carry).',
        },
        deferLoading: {
          type: 'object',
          additionalProperties: false,
          description:
            'Deferred loading: tools not kept loaded get `defer_loading: true` (Anthropic, OpenAI Responses), the tool search tool listed last.',
          properties: {
            loaded: {
              type: 'array',
              items: { type: 'string', minLength: 1 },
              description: 'Tool names that stay loaded.',
            },
            loadedCategories: {
              type: 'array',
              items: { type: 'string', minLength: 1 },
              description: 'Categories whose tools stay loaded.',
            },
            anthropicSearch: {
              type: 'string',
              enum: ['bm25', 'regex'],
              default: 'bm25',
              description: "Anthropic's tool search tool: BM25 (natural-language queries) or regex.",
            },
            namespaces: {
              type: 'boolean',
              default: false,
              description:
                'Also write `manifests/openai-responses-namespaced.json`: one namespace of deferred functions per category (over 10 is a warning).',
            },
          },
        },
        inputExamples: {
          type: 'integer',
          minimum: 0,
          default: 5,
          description:
            "The most of a definition's `examples` an Anthropic entry carries as `input_examples`, the most different first; 0 leaves them out.",
        },
        examplesInDescriptions: {
          type: 'boolean',
          default: false,
          description:
            "Append a definition's examples to the description in targets without an examples field (all but Anthropic), at most `inputExamples`.",
        },
        describeErrors: {
          type: 'boolean',
          default: false,
          description:
            "Append a definition's declared `errors` (code, whether it is retryable, what it means) to the description in every target.",
        },
        hosts: {
          type: 'array',
          uniqueItems: true,
          description:
            'The MCP hosts the project targets (`docs/hosts.md`): a tool a listed host rejects, or that takes its server down, under the served profile is a warning. The host report (`manifests/loss-report.*`) lists every host either way.',
          items: { title: 'host', type: 'string', enum: HOSTS.map((host) => host.id) },
        },
        servedProfile: {
          type: 'string',
          enum: ['exact', 'portable'],
          default: 'exact',
          description:
            "What `toolsmith serve` lists: each tool's `exact` schema (`manifests/mcp.json`), or the `portable` one every host takes as it is (`manifests/mcp-portable.json`, written with this setting). Flag: `serve --profile`.",
        },
        serverName: {
          type: 'string',
          minLength: 1,
          default: DEFAULT_SERVER_NAME,
          description:
            "The server's name in the hosts' configurations: some put it in every tool name (Gemini CLI: `mcp_<server>_<tool>`, 63 characters in all).",
        },
        tokenReport: {
          type: 'boolean',
          default: true,
          description:
            "Count each tool's entry cost per target into `manifests/token-report.json`; `false` counts nothing (and allows no `tokenBudget`).",
        },
        tokenBudget: {
          type: 'object',
          additionalProperties: false,
          description:
            'Token budgets per target (as the token report counts): over budget is a warning naming the biggest tools, a problem with `strict`.',
          properties: Object.fromEntries(
            MANIFEST_TARGETS.map((target) => [
              target,
              {
                type: 'object',
                additionalProperties: false,
                description: `The budget of manifests/${target}.json.`,
                properties: {
                  total: {
                    type: 'integer',
                    minimum: 0,
                    description: 'The most tokens every tool entry of the manifest may cost together.',
                  },
                  perTool: {
                    type: 'integer',
                    minimum: 0,
                    description: "The most tokens any one tool's entry may cost.",
                  },
                },
              },
            ]),
          ),
        },
      },
    },
    entry: {
      type: 'string',
      minLength: 1,
      description:
        'The module `call` and `serve` take their orchestrator from: default export a `ToolOrchestrator`, its options, or a function. `--entry`.',
    },
    capabilities: {
      type: 'array',
      items: { type: 'string' },
      description: 'The capabilities of the persona `call` and `serve` act as. Flag: `--capability` (repeatable).',
    },
    injectedArguments: {
      type: 'array',
      description:
        "The arguments MCP hosts add to every call for their own bookkeeping, which `serve` takes out of a call before validating it when the tool declares no property of that name (`docs/hosts.md`). Default: those of the host table (Gemini CLI's `wait_for_previous`); `[]` takes nothing out.",
      items: {
        title: 'injected argument',
        type: 'object',
        additionalProperties: false,
        required: ['name', 'host'],
        properties: {
          name: { type: 'string', minLength: 1, description: 'The argument, as the host sends it in `arguments`.' },
          host: {
            type: 'string',
            minLength: 1,
            description: 'The host that sends it (a host id, or your own name for it).',
          },
        },
      },
    },
    toolFailureMeta: {
      type: 'boolean',
      default: false,
      description:
        '`serve`: a failed call\'s structured failure also in the draft SEP-3313 shape, `_meta["io.modelcontextprotocol/toolFailure"]`, beside toolsmith\'s own `_meta["dev.toolsmith/failure"]` (`docs/failures.md`). The proposal is a draft and may change. Flag: `serve --tool-failure-meta`.',
    },
    format: {
      type: 'boolean',
      default: true,
      description: "Format generated TypeScript with prettier; `false` is faster and keeps the emitters' own layout.",
    },
    strict: {
      type: 'boolean',
      default: false,
      description: 'Warnings are errors (for CI). Flag: `--strict`.',
    },
    workers: {
      type: 'integer',
      minimum: 1,
      description:
        'Threads emitting tools in a full generate or check (default: `TOOLSMITH_WORKERS`, else one per core); 1: in process. `--workers`.',
    },
  },
} as const;

/** Every key a config may have. */
export const CONFIG_KEYS = Object.keys(CONFIG_SCHEMA.properties) as (keyof typeof CONFIG_SCHEMA.properties)[];
