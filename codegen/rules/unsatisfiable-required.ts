import { isObject, walkSchema } from '../../src/schema/walk.js';
import { type SchemaRule, schemaRule } from './rule.js';

/**
 * A `required` name that its own schema forbids: `additionalProperties: false` with no `properties`
 * entry and no `patternProperties` pattern for it, or a `properties` entry that is `false`. No value
 * satisfies that schema, so at the input root no call can ever pass its check (and no output at the
 * output root). A warning at the `required` entry (an error under `--strict`): inside an `anyOf` it
 * is only a dead branch.
 */
export const unsatisfiableRequired: SchemaRule = schemaRule(
  'unsatisfiable-required',
  (source, schema, pointer, diagnostics) => {
    walkSchema(schema, pointer, (node, at) => {
      if (!Array.isArray(node.required)) return;
      const consequence =
        at === '/inputSchema'
          ? 'no arguments satisfy the input schema, so every call of the tool fails'
          : at === '/outputSchema'
            ? 'no output satisfies the output schema, so every call of the tool fails'
            : 'no value satisfies this schema';
      const properties = isObject(node.properties) ? node.properties : {};
      const patterns = patternsOf(node.patternProperties);
      node.required.forEach((name, index) => {
        if (typeof name !== 'string') return;
        const place = `${at}/required/${index}`;
        if (Object.hasOwn(properties, name)) {
          if (properties[name] === false)
            diagnostics.warning(
              source,
              place,
              `\`required\` names "${name}", whose schema in \`properties\` is \`false\` (it forbids the property): ${consequence}`,
              `remove "${name}" from \`required\`, or give it a schema that accepts a value`,
            );
          return;
        }
        if (node.additionalProperties !== false || patterns.some((pattern) => pattern?.test(name) ?? true)) return;
        diagnostics.warning(
          source,
          place,
          `\`required\` names "${name}", which \`additionalProperties: false\` forbids (no \`properties\` ` +
            `entry${patterns.length > 0 ? ' or `patternProperties` pattern' : ''} matches it): ${consequence}`,
          `add "${name}" to \`properties\` at ${at === '' ? 'the schema root' : at}, or remove it from \`required\``,
        );
      });
    });
  },
);

/** The `patternProperties` patterns as Ajv reads them (`u` flag); `undefined` for one that does not compile (reported elsewhere: never claimed to forbid). */
function patternsOf(patternProperties: unknown): (RegExp | undefined)[] {
  if (!isObject(patternProperties)) return [];
  return Object.keys(patternProperties).map((source) => {
    try {
      return new RegExp(source, 'u');
    } catch {
      return undefined;
    }
  });
}
