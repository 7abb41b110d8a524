/**
 * toolsmith's public API: the tool contract, the runtime that runs tool calls, and helpers used
 * by generated code.
 */

// The tool contract (field names as in the AgentOS tool layer).
export type {
  DeclaredFailure,
  DeclaredToolError,
  ITool,
  ToolExecutionResult,
  ToolExecutionSuccess,
  ToolExecutionSuccessWithoutOutput,
  ToolExecutionFailure,
  ToolFailure,
  ToolValidators,
} from './tool.js';
export { toolFailure } from './tool.js';
export type { ToolAnnotations, ToolDescription } from './tool-description.js';
export type { JSONSchemaObject, ValidateFunction, ValidationIssue } from './schema/validation.js';
export type {
  ApprovalGate,
  ApprovalRequest,
  CallerTurn,
  ToolExecutionContext,
  TurnBudget,
  UserContext,
} from './context.js';

// Errors.
export { TOOL_ERROR_CODES, ToolsmithError, isToolsmithError, type ToolErrorCode } from './errors.js';
// Feedback: what a model gets for a failed call (the MCP server, the framework adapters and `toolsmith call` send it).
export { DEFAULT_MAX_FEEDBACK_LENGTH, feedbackJson, feedbackText, type FeedbackOptions } from './feedback/render.js';
export type { ArgumentProblem } from './feedback/problems.js';
export type { ValueCoercion } from './schema/validator-runtime.js';
export {
  CONTENT_KINDS,
  DEFAULT_MAX_CONTENT_BYTES,
  findContentProblem,
  type AudioContent,
  type ContentBlock,
  type ContentKind,
  type EmbeddedResource,
  type ImageContent,
  type ResourceLink,
  type TextContent,
} from './caller/content.js';
export {
  LOG_LEVELS,
  reportingFunctions,
  withReportHook,
  type CallReportEvent,
  type CallReporter,
  type LogLevel,
  type ProgressUpdate,
  type ReportLimits,
} from './caller/call-reporting.js';
export {
  checkedElicit,
  elicitationSchemaProblem,
  ElicitationError,
  MAX_ANSWER_LENGTH,
  MAX_FORM_CHOICES,
  MAX_FORM_FIELDS,
  type Elicit,
  type ElicitAnswer,
  type ElicitRequest,
  type Sample,
  type SampleRequest,
  type SampleResult,
} from './caller/elicitation.js';

// Validation (the same Ajv options as the generator).
export { AJV_OPTIONS } from './schema/ajv-options.js';
export {
  SchemaValidator,
  compileSchema,
  toValidationIssues,
  type SchemaValidatorSource,
  type ValidationOutcome,
} from './schema/validation.js';
export { copyJsonValue } from './schema/walk.js';

// Runtime.
export { ToolRegistry } from './registry.js';
export { ToolExecutor } from './executor.js';
export {
  ToolOrchestrator,
  type CallEndEvent,
  type CallStartEvent,
  type OrchestratorHooks,
  type ShutdownReport,
  type ToolDefinitionForLLM,
  type ToolOrchestratorOptions,
  type ToolShutdownError,
} from './orchestrator.js';
export type { RegisterOptions, RegisteredTool } from './pipeline/registered-tool.js';
export type {
  ApprovalPolicy,
  RetryPolicy,
  ToolCallDetails,
  ToolCallErrorDetails,
  ToolCallRequest,
  ToolCallResult,
  ToolExecutionRequestDetails,
} from './pipeline/types.js';
export { ATTACH_ORCHESTRATOR } from './pipeline/markers.js';
export {
  ComposedTool,
  defineComposedTool,
  parseReference,
  resolveTemplate,
  type ComposedStep,
  type ComposedToolDefinition,
  type ParsedReference,
  type ReferenceScope,
  type ToolCaller,
} from './composed.js';

// Helpers for generated code.
export { deepFreeze } from './schema/freeze.js';
export { validatorRuntime } from './schema/validator-runtime.js';

// The MCP adapter lives at `toolsmith-sdk/mcp` (src/mcp/index.ts), not here: the MCP SDK loads Ajv's
// compiler and a dozen modules that a process running generated tools does not need.
export { MCP_SCHEMA_DIALECT, toMcpToolFromTool, type McpToolAnnotations, type McpToolEntry } from './mcp/tool.js';
// The entry types of the provider manifests (generated/manifests/*.ts; the builders are `toolsmith-sdk/manifests`).
export type {
  AnthropicManifestEntry,
  AnthropicTool,
  DeferLoading,
  GeminiFunctionDeclaration,
  GeminiLegacyFunctionDeclaration,
  GeminiLegacyToolManifest,
  GeminiToolManifest,
  McpToolsManifest,
  OpenAiResponsesManifestEntry,
  OpenAiResponsesTool,
  OpenAiTool,
} from './manifest-targets/index.js';

// Lazily loaded tools (the generated `createLazyTools()`).
export {
  LOAD_TOOL,
  defineLazyTool,
  defineLazyTools,
  isLazyTool,
  type LazyTool,
  type LazyToolMetadata,
  type LazyToolSchemas,
  type LazyToolSet,
  type LazyToolSource,
} from './lazy.js';

// Typed calls by tool name (used by the generated registry).
export {
  ToolClient,
  type ToolCallDefaults,
  type TypedDeclaredFailure,
  type TypedToolCallFailure,
  type TypedToolCallResult,
  type TypedToolCallSuccess,
} from './client.js';
