/**
 * P2/P6, toolsmith side: imports the generated lazy registry (compiled to JavaScript), registers every
 * tool in a ToolOrchestrator and makes one call that validates its input (and output) with the
 * generated standalone validators. Reports the time since process start and the peak RSS.
 *
 * argv: <registry.js> <runtime index.js> <tool name> <arguments JSON> <the tool's required capabilities, JSON>
 */
import { pathToFileURL } from 'node:url';
import { peakRssMb, report } from './report.mjs';

const [registryPath, runtimePath, toolName, argumentsJson, capabilitiesJson] = process.argv.slice(2);
const started = performance.now();
const registry = await import(pathToFileURL(registryPath).href);
const runtime = await import(pathToFileURL(runtimePath).href);
const imported = performance.now();
// The lazy registry: tools register from their catalog entries and load on their first call.
const tools = registry.createLazyTools();
const orchestrator = new runtime.ToolOrchestrator({ tools });
const registered = performance.now();
const result = await orchestrator.processToolCall({
  toolCallRequest: { id: 'bench-1', name: toolName, arguments: JSON.parse(argumentsJson) },
  gmiId: 'bench',
  personaId: 'bench',
  // The caller has what the tool needs (read from the corpus, so the harness reads no tool's metadata).
  personaCapabilities: JSON.parse(capabilitiesJson),
  userContext: { userId: 'bench' },
});
const firstCallMs = performance.now();
report({
  firstCallMs,
  bootMs: started,
  importMs: imported - started,
  registerMs: registered - imported,
  callMs: firstCallMs - registered,
  tools: tools.length,
  isError: result.isError,
  errorDetails: result.errorDetails ?? null,
  ...peakRssMb(),
});
