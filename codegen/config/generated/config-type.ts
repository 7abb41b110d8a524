// The type of toolsmith.config.*, generated from codegen/config/config-schema.ts by `npm run config-schema`. Do not edit.
export type ManifestTarget =
  | 'openai'
  | 'openai-strict'
  | 'openai-responses'
  | 'openai-responses-strict'
  | 'anthropic'
  | 'gemini'
  | 'gemini-legacy'
  | 'mcp'
  | 'mcp-portable';
export type Host =
  | 'gemini-cli'
  | 'cursor'
  | 'claude-code'
  | 'claude-desktop'
  | 'codex'
  | 'chatgpt'
  | 'vscode-copilot-gpt-4'
  | 'vscode-copilot-claude'
  | 'vscode-copilot-gemini'
  | 'vscode-copilot'
  | 'visual-studio'
  | 'windsurf'
  | 'mcp-inspector';

/**
 * toolsmith.config.json (or the default export of toolsmith.config.ts / .mts / .js / .mjs). Command-line flags override it.
 */
export interface ToolsmithConfig {
  /**
   * The JSON schema of this file, for editor autocomplete: `./node_modules/toolsmith-sdk/toolsmith.config.schema.json`.
   */
  $schema?: string;
  /**
   * The definitions folder (`*.tool.json`, `*.schema.json`), relative to the project. Flag: `--schemas`.
   */
  schemas?: string;
  /**
   * The generated output folder, relative to the project. Flag: `--out`.
   */
  out?: string;
  /**
   * The implementation stubs folder (written only when a stub is absent). Flag: `--stubs`.
   */
  stubs?: string;
  /**
   * Where generated code imports the runtime from: a package name, or a path relative to the project (`./src/index.js`).
   */
  runtimeImport?: string;
  /**
   * The command the banners of generated files tell readers to run.
   */
  regenerateCommand?: string;
  /**
   * A folder of handlebars templates overriding the default docs templates, file by file. Flag: `--templates`.
   */
  templates?: string;
  /**
   * The provider manifests generated under `<out>/manifests/`.
   */
  manifests?: {
    /**
     * The manifest targets to emit (default: all but `gemini-legacy`).
     */
    targets?: ManifestTarget[];
    /**
     * A tool a target cannot take: left out with a warning and listed in the loss report (`omit`), or a problem (`error`).
     */
    unrepresentable?: 'omit' | 'error';
    /**
     * Tell in the descriptions what a target drops (e.g. a `pattern` OpenAI strict mode cannot carry).
     */
    describeLosses?: boolean;
    /**
     * Deferred loading: tools not kept loaded get `defer_loading: true` (Anthropic, OpenAI Responses), the tool search tool listed last.
     */
    deferLoading?: {
      /**
       * Tool names that stay loaded.
       */
      loaded?: string[];
      /**
       * Categories whose tools stay loaded.
       */
      loadedCategories?: string[];
      /**
       * Anthropic's tool search tool: BM25 (natural-language queries) or regex.
       */
      anthropicSearch?: 'bm25' | 'regex';
      /**
       * Also write `manifests/openai-responses-namespaced.json`: one namespace of deferred functions per category (over 10 is a warning).
       */
      namespaces?: boolean;
    };
    /**
     * The most of a definition's `examples` an Anthropic entry carries as `input_examples`, the most different first; 0 leaves them out.
     */
    inputExamples?: number;
    /**
     * Append a definition's examples to the description in targets without an examples field (all but Anthropic), at most `inputExamples`.
     */
    examplesInDescriptions?: boolean;
    /**
     * Append a definition's declared `errors` (code, whether it is retryable, what it means) to the description in every target.
     */
    describeErrors?: boolean;
    /**
     * The MCP hosts the project targets (`docs/hosts.md`): a tool a listed host rejects, or that takes its server down, under the served profile is a warning. The host report (`manifests/loss-report.*`) lists every host either way.
     */
    hosts?: Host[];
    /**
     * What `toolsmith serve` lists: each tool's `exact` schema (`manifests/mcp.json`), or the `portable` one every host takes as it is (`manifests/mcp-portable.json`, written with this setting). Flag: `serve --profile`.
     */
    servedProfile?: 'exact' | 'portable';
    /**
     * The server's name in the hosts' configurations: some put it in every tool name (Gemini CLI: `mcp_<server>_<tool>`, 63 characters in all).
     */
    serverName?: string;
    /**
     * Count each tool's entry cost per target into `manifests/token-report.json`; `false` counts nothing (and allows no `tokenBudget`).
     */
    tokenReport?: boolean;
    /**
     * Token budgets per target (as the token report counts): over budget is a warning naming the biggest tools, a problem with `strict`.
     */
    tokenBudget?: {
      /**
       * The budget of manifests/openai.json.
       */
      openai?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
      /**
       * The budget of manifests/openai-strict.json.
       */
      'openai-strict'?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
      /**
       * The budget of manifests/openai-responses.json.
       */
      'openai-responses'?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
      /**
       * The budget of manifests/openai-responses-strict.json.
       */
      'openai-responses-strict'?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
      /**
       * The budget of manifests/anthropic.json.
       */
      anthropic?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
      /**
       * The budget of manifests/gemini.json.
       */
      gemini?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
      /**
       * The budget of manifests/gemini-legacy.json.
       */
      'gemini-legacy'?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
      /**
       * The budget of manifests/mcp.json.
       */
      mcp?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
      /**
       * The budget of manifests/mcp-portable.json.
       */
      'mcp-portable'?: {
        /**
         * The most tokens every tool entry of the manifest may cost together.
         */
        total?: number;
        /**
         * The most tokens any one tool's entry may cost.
         */
        perTool?: number;
      };
    };
  };
  /**
   * The module `call` and `serve` take their orchestrator from: default export a `ToolOrchestrator`, its options, or a function. `--entry`.
   */
  entry?: string;
  /**
   * The capabilities of the persona `call` and `serve` act as. Flag: `--capability` (repeatable).
   */
  capabilities?: string[];
  /**
   * The arguments MCP hosts add to every call for their own bookkeeping, which `serve` takes out of a call before validating it when the tool declares no property of that name (`docs/hosts.md`). Default: those of the host table (Gemini CLI's `wait_for_previous`); `[]` takes nothing out.
   */
  injectedArguments?: InjectedArgument[];
  /**
   * `serve`: a failed call's structured failure also in the draft SEP-3313 shape, `_meta["io.modelcontextprotocol/toolFailure"]`, beside toolsmith's own `_meta["dev.toolsmith/failure"]` (`docs/failures.md`). The proposal is a draft and may change. Flag: `serve --tool-failure-meta`.
   */
  toolFailureMeta?: boolean;
  /**
   * Format generated TypeScript with prettier; `false` is faster and keeps the emitters' own layout.
   */
  format?: boolean;
  /**
   * Warnings are errors (for CI). Flag: `--strict`.
   */
  strict?: boolean;
  /**
   * Threads emitting tools in a full generate or check (default: `TOOLSMITH_WORKERS`, else one per core); 1: in process. `--workers`.
   */
  workers?: number;
}
export interface InjectedArgument {
  /**
   * The argument, as the host sends it in `arguments`.
   */
  name: string;
  /**
   * The host that sends it (a host id, or your own name for it).
   */
  host: string;
}
