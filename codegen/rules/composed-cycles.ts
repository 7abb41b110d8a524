import type { SourceFile } from '../load.js';
import type { Rule } from './rule.js';

/** A composed tool as the cycle check needs it: its name, its file and the tools its steps call. */
export interface ComposedNode {
  name: string;
  source: SourceFile;
  /** `steps[i].tool` in order; entries that are not strings are left to the definition check. */
  calls: readonly unknown[];
}

/**
 * Composed tools that reach themselves through their steps (`a → a`, `a → b → a`, `a → b → c → a`):
 * such a call would recurse until the run-time nesting limit ends it. Every step that starts a way
 * back to its own tool is a problem at that step's `tool`, naming the shortest such cycle.
 */
export const composedCycles: Rule<readonly ComposedNode[]> = {
  name: 'composed-cycles',
  run(nodes, diagnostics) {
    const byName = new Map<string, ComposedNode>();
    for (const node of nodes) if (!byName.has(node.name)) byName.set(node.name, node);
    const callsOf = (name: string): string[] =>
      (byName.get(name)?.calls ?? []).filter((call): call is string => typeof call === 'string' && byName.has(call));
    for (const node of byName.values()) {
      node.calls.forEach((call, index) => {
        if (typeof call !== 'string' || !byName.has(call)) return;
        const back = shortestPath(call, node.name, callsOf);
        if (back === undefined) return;
        const cycle = [node.name, ...back].join(' → ');
        diagnostics.error(
          node.source,
          `/steps/${index}/tool`,
          call === node.name
            ? `step ${index} calls the composed tool itself: ${cycle}`
            : `step ${index} calls "${call}", which leads back to "${node.name}": ${cycle}`,
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
