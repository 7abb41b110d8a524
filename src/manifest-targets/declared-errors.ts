import { appendDescription } from '../schema/keyword-sentences.js';
import { compareStrings, type ManifestTool } from './build.js';

/**
 * The tools with their declared errors told at the end of their description (`manifests.describeErrors`):
 * `Fails with: RATE_LIMITED (retryable): Too many lookups. NOT_FOUND: …`. A tool without errors is given
 * as it is. What a provider cannot carry otherwise: no target has a field for failures.
 */
export function describeErrors<T extends ManifestTool>(tools: readonly T[]): T[] {
  return tools.map((tool) => {
    const declared = tool.errors ?? [];
    const errors = Array.isArray(declared)
      ? declared
      : Object.keys(declared)
          .sort(compareStrings)
          .map((code) => ({
            code,
            ...(declared as Record<string, { description: string; retryable?: boolean }>)[code]!,
          }));
    if (errors.length === 0) return tool;
    const sentences = errors.map(
      (error) => `${error.code}${error.retryable === true ? ' (retryable)' : ''}: ${sentence(error.description)}`,
    );
    return { ...tool, description: appendDescription(tool.description, ['Fails with:', ...sentences]) };
  });
}

/** `text` ending as a sentence does (a full stop added when it has no closing mark). */
function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
