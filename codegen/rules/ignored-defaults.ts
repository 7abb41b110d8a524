import { findIgnoredDefaults } from '../../src/schema/dialect.js';
import { type SchemaRule, schemaRule } from './rule.js';
import { truncateText } from '../../src/errors.js';

/**
 * Defaults Ajv never fills in (`findIgnoredDefaults`: at the root, inside anyOf, on a definition),
 * each a warning at its pointer. The `default-values` rule leaves them alone: they cannot be filled
 * in and then rejected.
 */
export const ignoredDefaults: SchemaRule = schemaRule('ignored-defaults', (source, schema, pointer, diagnostics) => {
  for (const { pointer: at, value, reason } of findIgnoredDefaults(schema)) {
    const [message, hint] = explain(reason);
    diagnostics.warning(
      source,
      `${pointer}${at}/default`,
      `the default ${truncateText(JSON.stringify(value), 80)} is never filled in: ${message}`,
      hint,
    );
  }
});

type IgnoredReason = ReturnType<typeof findIgnoredDefaults>[number]['reason'];

function explain(reason: IgnoredReason): [string, string] {
  if (reason.kind === 'composite')
    return [
      `it is inside \`${reason.keyword}\``,
      `Ajv fills in defaults only outside anyOf, oneOf, not and if: put the default on the property that holds the \`${reason.keyword}\`, or remove it`,
    ];
  if (reason.kind === 'root')
    return [
      'it is at the schema root',
      'defaults are filled in for properties: give each property its own `default`, or remove this one',
    ];
  if (reason.kind === 'definition')
    return [
      'it is on a definition',
      "put the default beside the `$ref` that uses the definition (a property's own `default` is filled in)",
    ];
  return [
    `only a property's (or tuple item's) default is filled in, and this one is under \`${reason.keyword}\``,
    'put the default on the property that holds this schema, or remove it',
  ];
}
