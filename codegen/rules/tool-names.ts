import definitionMetaSchema from '../../tool-definition.schema.json' with { type: 'json' };
import type { SourceFile } from '../load.js';
import type { ToolModel } from '../model.js';
import { TOOL_NAME_PATTERN, toolNames } from '../naming.js';
import type { Rule } from './rule.js';

/** What a definition's `typeName` must match (the pattern of tool-definition.schema.json). */
const TYPE_NAME_PATTERN = new RegExp(definitionMetaSchema.properties.typeName.pattern);

/** A definition on its way to becoming a tool: its file, its content and, when reused, the cached model. */
export interface Candidate {
  source: SourceFile;
  definition: Record<string, any>;
  cached?: ToolModel;
}

/** A definition whose `name` (and `typeName`, if given) can name a tool; `definition-shape` reported any other. */
export function hasUsableName(definition: Record<string, any>): boolean {
  if (typeof definition.name !== 'string' || !TOOL_NAME_PATTERN.test(definition.name)) return false;
  return (
    !Object.hasOwn(definition, 'typeName') ||
    (typeof definition.typeName === 'string' && TYPE_NAME_PATTERN.test(definition.typeName))
  );
}

/**
 * A tool name is used once: a later definition with a taken name (`taken` holds the names of the
 * definitions before it, in file order) is an error and becomes no tool; a free name is taken.
 */
export const uniqueToolNames: Rule<Candidate & { taken: Map<string, SourceFile> }> = {
  name: 'unique-tool-names',
  run({ source, definition, taken }, diagnostics) {
    const previous = taken.get(definition.name);
    if (previous === undefined) taken.set(definition.name, source);
    else
      diagnostics.error(
        source,
        '/name',
        `the tool name "${definition.name}" is already used by ${previous.file}`,
        'tool names must be unique: rename one of them',
      );
  },
};

/**
 * Two tool names that map to the same file name or type name (`web-search` and `web_search`): an
 * error at the later one, which is taken out of `candidates` (generated names are never suffixed).
 */
export const nameCollisions: Rule<Candidate[]> = {
  name: 'name-collisions',
  run(candidates, diagnostics) {
    const byKebab = new Map<string, { file: string; toolName: string }>();
    const byPascal = new Map<string, { file: string; toolName: string }>();
    for (const candidate of [...candidates]) {
      const names = toolNames(candidate.definition.name, candidate.definition.typeName);
      for (const [map, key, what] of [
        [byKebab, names.kebab, `file name "${names.kebab}"`],
        [byPascal, names.pascal, `type name "${names.pascal}"`],
      ] as const) {
        const other = map.get(key);
        if (other && other.toolName !== candidate.definition.name) {
          diagnostics.error(
            candidate.source,
            Object.hasOwn(candidate.definition, 'typeName') ? '/typeName' : '/name',
            `the tool names "${other.toolName}" (${other.file}) and "${candidate.definition.name}" map to the same ${what}`,
            // The suggestion differs in its words, not only in case: file names come from it too.
            `rename one of them, or give one a \`"typeName"\` of its own (e.g. "${names.pascal}Alt"): ` +
              `generated names are never suffixed with numbers`,
          );
          candidates.splice(candidates.indexOf(candidate), 1);
          break;
        }
        map.set(key, { file: candidate.source.file, toolName: candidate.definition.name });
      }
    }
  },
};
