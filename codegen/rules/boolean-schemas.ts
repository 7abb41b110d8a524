import type { DefinitionSubject, Rule } from './rule.js';

/**
 * `inputSchema` and `outputSchema` given as a boolean schema. Draft-07 allows `true` (anything) and
 * `false` (nothing) there, but a tool's arguments must be an object (providers send one) and an
 * output schema that accepts nothing makes every call fail, one that accepts anything checks
 * nothing. Each is a problem at the field, never a tool silently left out of the registry.
 */
export const booleanSchemas: Rule<DefinitionSubject> = {
  name: 'boolean-schemas',
  run({ source, definition }, diagnostics) {
    const input = definition.inputSchema;
    if (typeof input === 'boolean')
      diagnostics.error(
        source,
        '/inputSchema',
        `the input schema is \`${input}\`, a boolean schema; a tool's input schema must be an object schema with \`"type": "object"\``,
        input
          ? 'for a tool that takes any arguments write `{ "type": "object" }`'
          : 'a schema that accepts no arguments makes the tool uncallable: describe the arguments ' +
              '(`{ "type": "object", "properties": {} , "additionalProperties": false }` takes none)',
      );
    const output = definition.outputSchema;
    if (typeof output === 'boolean')
      diagnostics.error(
        source,
        '/outputSchema',
        output
          ? 'the output schema is `true`: it accepts any output, so it checks nothing'
          : 'the output schema is `false`: it accepts no output, so every call of the tool would fail',
        output
          ? 'remove `outputSchema` (the output is then not checked and typed `unknown`), or describe the output'
          : 'describe the output the tool returns, or remove `outputSchema`',
      );
  },
};
