import { problemAt, type SourceFile } from '../load.js';
import type { Problem, ToolModel } from '../model.js';
import { formatPointer, parsePointer } from '../pointer.js';

/** Where a shared type lives: the shared file and the pointer of its schema there (`''` for the file's root). */
export interface SharedHome {
  source: SourceFile;
  pointer: string;
}

/**
 * Moves a problem found in a tool's bundled schema to the shared file it came from. Bundling copies a
 * shared schema under `definitions/<TypeName>` of every tool that uses it (only `$ref`s rewritten, the
 * root's `definitions`, `$schema` and `$id` left out), so a pointer below that copy maps one to one
 * onto the shared file: a `default` that breaks its schema there is reported at the shared file's
 * line and column, once, not at each tool that happens to use it.
 */
export function relocateToShared(
  problem: Problem,
  rootPointer: string,
  origins: Readonly<Record<string, ToolModel['definitionOrigins'][string]>>,
  homes: ReadonlyMap<string, SharedHome>,
): Problem {
  const prefix = `${rootPointer}/definitions/`;
  if (!problem.pointer.startsWith(prefix)) return problem;
  const [key, ...rest] = parsePointer(problem.pointer.slice(rootPointer.length + '/definitions'.length));
  if (key === undefined || !Object.prototype.hasOwnProperty.call(origins, key)) return problem;
  const origin = origins[key]!;
  if (origin.kind !== 'shared') return problem;
  const home = homes.get(origin.typeName);
  if (home === undefined) return problem;
  const relocated = problemAt(home.source, `${home.pointer}${formatPointer(rest)}`, problem.message, problem.hint);
  return relocated;
}
