import type { Rule } from './rule.js';
import type { Candidate } from './tool-names.js';

/**
 * Composed tools that reach themselves through their steps (`a → a`, `a → b → a`, `a → b → c → a`):
 * such a call would recurse until the run-time nesting limit ends it. Every step that starts a way
 * back to its own tool is a problem at that step's `tool`, naming the shortest such cycle.
 */
export const composedCycles: Rule<readonly Candidate[]> = {
  name: 'composed-cycles',
  run(candidates, diagnostics) {
    // `steps[i].tool` of each composed tool, in order; entries that are not strings are left to the definition check.
    const callsByName = new Map<string, readonly unknown[]>();
    for (const { definition } of candidates)
      if (Array.isArray(definition.steps))
        callsByName.set(
          definition.name,
          definition.steps.map((step: unknown) => (step as { tool?: unknown } | null)?.tool),
        );
    const isComposed = (call: unknown): call is string => typeof call === 'string' && callsByName.has(call);
    const callsOf = (name: string): string[] => callsByName.get(name)!.filter(isComposed);
    for (const { source, definition } of candidates) {
      callsByName.get(definition.name)?.forEach((call, index) => {
        if (!isComposed(call)) return;
        const back = shortestPath(call, definition.name, callsOf);
        if (back === undefined) return;
        const cycle = [definition.name, ...back].join(' → ');
        diagnostics.error(
          source,
          `/steps/${index}/tool`,
          call === definition.name
            ? `step ${index} calls the composed tool itself: ${cycle}`
            : `step ${index} calls "${call}", which leads back to "${definition.name}": ${cycle}`,
          'composed tools must not call each other in a cycle (a call would recurse until the nesting ' +
            'limit stops it): remove the step or call a tool that is not part of the cycle',
        );
      });
    }
  },
};

/** The shortest call path from `from` to `to` (both included), breadth first; undefined when there is none. */
function shortestPath(from: string, to: string, callsOf: (name: string) => string[]): string[] | undefined {
  const previous = new Map<string, string | undefined>([[from, undefined]]);
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head]!;
    if (current === to) {
      const path: string[] = [];
      for (let at: string | undefined = current; at !== undefined; at = previous.get(at)) path.unshift(at);
      return path;
    }
    for (const next of callsOf(current)) {
      if (previous.has(next)) continue;
      previous.set(next, current);
      queue.push(next);
    }
  }
  return undefined;
}
