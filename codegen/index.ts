/**
 * toolsmith's generator as a library (`toolsmith/codegen`): the same stages the CLI runs.
 */
export {
  generate,
  emitAll,
  emitProject,
  emitSettings,
  resolveOptions,
  type GenerateOptions,
  type GenerateResult,
  type ResolvedOptions,
  type EmitAllOptions,
  type EmitProjectOptions,
  type EmitSettings,
  type ProjectEmission,
  type ProjectSink,
} from './generate.js';
export {
  generateIncrementally,
  unchangedRun,
  type IncrementalOptions,
  type IncrementalReport,
} from './incremental/index.js';
export { loadDefinitions, type LoadedFiles, type SourceFile } from './load.js';
export { normalize, GENERATOR_VERSION, type NormalizeResult } from './normalize.js';
export { writeOutput, diffOutput, hasDrift, recoverInterrupted, type OutputDiff, type WriteReport } from './write.js';
export {
  loadConfig,
  CONFIG_FILES,
  CONFIG_KEYS,
  CONFIG_SCHEMA,
  type LoadedConfig,
  type ToolsmithConfig,
} from './config/config.js';
export { defineConfig } from './config/define-config.js';
export { optionsFromConfig } from './config/options.js';
export { formatProblem, isWarning } from './problems.js';
export { watchAndRun, type Watcher } from './cli/watch.js';
export { main as runCli, EXIT } from './cli/main.js';
export type {
  ComposedStep,
  EmitContext,
  GeneratedFile,
  Problem,
  ProjectListing,
  ProjectModel,
  SharedSchemaModel,
  ToolExample,
  ToolModel,
  ToolNames,
  ToolSummary,
} from './model.js';
