import { isObject } from '../../src/schema/walk.js';
import type { DefinitionSubject, Rule } from './rule.js';

/** The input schema's root is `"type": "object"`: providers pass a tool's arguments as one object. */
export const inputRootObject: Rule<DefinitionSubject> = {
  name: 'input-root-object',
  run({ source, definition }, diagnostics) {
    if (!isObject(definition.inputSchema) || definition.inputSchema.type === 'object') return;
    diagnostics.error(
      source,
      '/inputSchema',
      `the input schema's root must be \`"type": "object"\` (it is ${JSON.stringify(definition.inputSchema.type ?? 'unset')})`,
      'LLM providers pass tool arguments as one object: wrap the values in `properties`',
    );
  },
};
