import type { SourceFile } from '../load.js';
import type { ToolModel } from '../model.js';
import {
  findIdentifierCollisions,
  type IdentifierClaim,
  sharedIdentifierClaims,
  toolIdentifierClaims,
} from '../naming.js';
import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import type { Rule, SharedEntry } from './rule.js';

/** The built project as the identifier check sees it. */
export interface IdentifiersSubject {
  tools: readonly ToolModel[];
  shared: Map<string, SharedEntry>;
  sources: readonly SourceFile[];
}

/**
 * Every generated identifier is unique in the project and none is a reserved name (naming.ts
 * decides; this reports): a clash is an error at the definition that claims the name second.
 */
export const identifiers: Rule<IdentifiersSubject> = {
  name: 'identifiers',
  run({ tools, shared, sources }, diagnostics) {
    const byFile = new Map(sources.map((source) => [source.file, source]));
    const claims: IdentifierClaim[] = [];
    // The shared files in path order (`shared` is keyed by each file's path).
    for (const relPath of [...shared.keys()].sort()) claims.push(...sharedIdentifierClaims(shared.get(relPath)!.model));
    for (const tool of tools) {
      const { claims: own, differing } = toolIdentifierClaims(tool);
      claims.push(...own);
      for (const key of differing) {
        diagnostics.error(
          byFile.get(tool.source.file)!,
          `/outputSchema/definitions/${escapePointerSegment(key)}`,
          `the definition "${key}" differs between inputSchema and outputSchema, but both would be the type \`${tool.definitionOrigins[key]!.typeName}\``,
          'rename the definition in one of them, or make both the same: two different types are never merged into one',
          { atKey: true },
        );
      }
    }
    for (const { claim, takenBy } of findIdentifierCollisions(claims)) {
      const other =
        typeof takenBy === 'string'
          ? takenBy
          : `${takenBy.what} (${takenBy.file}${takenBy.pointer === '' ? '' : ` ${takenBy.pointer}`})`;
      diagnostics.error(
        byFile.get(claim.file)!,
        claim.pointer,
        `${claim.what} would be named \`${claim.identifier}\`, which is already ${other}`,
        'rename the tool, the definition or the shared file: generated names are never suffixed with numbers, and two types are never merged into one',
        { atKey: claim.pointer.includes('/definitions/') },
      );
    }
  },
};
