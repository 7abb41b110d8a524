// The type of toolsmith.config.*, generated from codegen/config-schema.ts by `npm run config-schema`. Do not edit.
export type ManifestTarget =
  | 'openai'
  | 'openai-strict'
  | 'openai-responses'
  | 'openai-responses-strict'
  | 'anthropic'
  | 'gemini'
  | 'gemini-legacy'
  | 'mcp';

/**
 * toolsmith.config.json (or the default export of toolsmith.config.ts / .mts / .js / .mjs). Command-line flags override it.
 */
export interface ToolsmithConfig {
  /**
   * The JSON schema of this file, for editor autocomplete: `./node_modules/toolsmith/toolsmith.config.schema.json`.
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
     * A tool a target cannot take: left out of that target with a warning and listed in the loss report (`omit`), or a problem that blocks the run (`error`).
     */
    unrepresentable?: 'omit' | 'error';
    /**
     * Tell in the descriptions what a target drops (e.g. a `pattern` OpenAI strict mode cannot carry).
     */
    describeLosses?: boolean;
  };
  /**
   * The module `call` and `serve` take the orchestrator from (relative to the project): its default export is a `ToolOrchestrator`, its options, or a function returning either. Flag: `--entry`.
   */
  entry?: string;
  /**
   * The capabilities of the persona `call` and `serve` act as. Flag: `--capability` (repeatable).
   */
  capabilities?: string[];
  /**
   * Format generated TypeScript with prettier; `false` is faster and keeps the emitters' own layout.
   */
  format?: boolean;
  /**
   * Warnings are errors (for CI). Flag: `--strict`.
   */
  strict?: boolean;
  /**
   * Threads emitting tools in a full generate or check, the main thread one of them (default: `TOOLSMITH_WORKERS`, else one per core); 1 emits in process only. Flag: `--workers`.
   */
  workers?: number;
}
