import { DIALECT_URIS, schemaDialect } from '../../src/schema/dialect.js';
import type { SchemaDialect } from '../../src/schema/keywords.js';
import type { Diagnostics } from '../problems.js';
import type { SourceFile } from '../load.js';
import { reportMetaErrors } from './definition-shape.js';
import { isObject } from '../../src/schema/walk.js';
import type { DefinitionSubject, Rule, RuleEnvironment } from './rule.js';
import { truncateText } from '../../src/errors.js';

/**
 * Each schema field's dialect (its `$schema`: draft-07 when absent, or 2020-12), recorded on the
 * subject for the rules after it, and the schema checked against that dialect's meta-schema. An
 * unsupported `$schema` is an error at it; an output schema of another dialect than the input
 * schema is an error too (one tool compiles to one validator module).
 */
export const schemaDialects: Rule<DefinitionSubject> = {
  name: 'schema-dialects',
  run(subject, diagnostics) {
    const { source, definition } = subject;
    for (const key of ['inputSchema', 'outputSchema'] as const) {
      if (!isObject(definition[key])) continue;
      const dialect = checkDialect(source, definition[key], `/${key}`, subject.env.metaAjv, diagnostics);
      if (dialect === undefined) continue;
      const first = [...subject.dialects.values()][0];
      if (first !== undefined && first !== dialect) {
        diagnostics.error(
          source,
          `/${key}`,
          `the outputSchema is ${dialect} but the inputSchema is ${first}`,
          'give both schemas the same `$schema`: one tool compiles to one validator module',
        );
      }
      subject.dialects.set(key, dialect);
    }
  },
};

/**
 * The dialect of one schema and its check against that dialect's meta-schema (errors reported
 * under `pointer`); undefined, with an error at `$schema`, for a `$schema` toolsmith does not support.
 */
export function checkDialect(
  source: SourceFile,
  schema: Record<string, unknown>,
  pointer: string,
  metaAjv: RuleEnvironment['metaAjv'],
  diagnostics: Diagnostics,
): SchemaDialect | undefined {
  const dialect = schemaDialect(schema);
  if (dialect === undefined) {
    diagnostics.error(
      source,
      `${pointer}/$schema`,
      `unsupported $schema ${truncateText(JSON.stringify(schema.$schema), 80)}`,
      `toolsmith reads draft-07 (no \`$schema\`, or "${DIALECT_URIS['draft-07']}") and 2020-12 ("${DIALECT_URIS['2020-12']}")`,
    );
    return undefined;
  }
  // Without its `$schema`: the dialect is decided, so its own meta-schema checks it, whatever spelling of the URI it used.
  const { $schema: _, ...body } = schema;
  const ajv = metaAjv[dialect];
  if (!ajv.validateSchema(body)) {
    const errors = (ajv.errors ?? []).map((error) => ({ ...error, instancePath: `${pointer}${error.instancePath}` }));
    reportMetaErrors(source, errors, diagnostics, dialect);
  }
  return dialect;
}
