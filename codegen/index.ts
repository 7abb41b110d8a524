/**
 * toolsmith's generator as a library (`toolsmith-sdk/codegen`): the run the CLI's `generate` and `check`
 * make (`generate`, with `check: true` for a check), and its stages for a caller that wants one.
 */
export { generate, type GenerateReport, type RunOptions } from './generate.js';
export { resolveOptions, optionsFromConfig, type GenerateOptions, type ResolvedOptions } from './config/options.js';
export { loadDefinitions, type LoadedFiles, type SourceFile } from './load.js';
export { normalize, type NormalizeResult } from './normalize.js';
export { GENERATOR_VERSION } from './model.js';
export { hasDrift, recoverInterrupted, type OutputDiff } from './write.js';
export { loadConfig, CONFIG_FILES, type LoadedConfig } from './config/config.js';
export { CONFIG_KEYS, CONFIG_SCHEMA } from './config/config-schema.js';
export { type ToolsmithConfig } from './config/generated/config-type.js';
export { defineConfig } from './config/define-config.js';
export { formatProblem, isWarning } from './problems.js';
export { watchAndRun, type Watcher } from './cli/watch.js';
export { main as runCli } from './cli/main.js';
export { EXIT } from './cli/io.js';
export type { ComposedStep } from '../src/composed.js';
export type {
  EmitContext,
  GeneratedFile,
  Problem,
  ProjectModel,
  SharedSchemaModel,
  ToolExample,
  ToolModel,
  ToolNames,
} from './model.js';
