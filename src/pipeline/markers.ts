/*
 * The symbols by which the call pipeline and the tools it runs recognize each other. Registry-wide
 * symbols (`Symbol.for`), so copies of the package agree on them; kept apart from both the
 * orchestrator and `composed.ts` so that neither imports the other.
 */

/**
 * A tool that wants the orchestrator it is registered with (a composed tool runs its steps
 * through it) implements a method under this symbol; `ToolOrchestrator.registerTool` calls it
 * with the orchestrator. A registry-wide symbol, so copies of the package agree on it.
 */
export const ATTACH_ORCHESTRATOR: unique symbol = Symbol.for('toolsmith.attachOrchestrator') as never;

/**
 * Where a composed tool's step calls carry the composed tools running above them (outermost
 * first), on the call's details and on the context the called tool gets: the orchestrator ends a
 * call nested deeper than its `maxCompositionDepth` with `COMPOSITION_TOO_DEEP`, so a composed
 * tool that reaches itself through its steps stops with a clear answer instead of a stack overflow.
 */
export const CALL_CHAIN: unique symbol = Symbol.for('toolsmith.callChain') as never;

/**
 * Marks a tool whose failed results speak for its steps (`ComposedTool` sets it to `true`): the
 * pipeline answers `details.step` as `STEP_FAILED` and a step's `COMPOSITION_TOO_DEEP` as it is.
 * A marker rather than `instanceof`, so the pipeline needs no import of the composed tool.
 */
export const COMPOSED_TOOL: unique symbol = Symbol.for('toolsmith.composedTool') as never;

/** True for a tool carrying the `COMPOSED_TOOL` marker. */
export function isComposedTool(tool: unknown): boolean {
  return (tool as { [COMPOSED_TOOL]?: unknown } | null)?.[COMPOSED_TOOL] === true;
}
