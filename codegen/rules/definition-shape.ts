import type { ErrorObject } from 'ajv';
import definitionMetaSchema from '../../tool-definition.schema.json' with { type: 'json' };
import type { SchemaDialect } from '../../src/schema/keywords.js';
import type { Diagnostics } from '../problems.js';
import { nearestName } from '../../src/text/nearest-name.js';
import type { SourceFile } from '../load.js';
import { escapePointerSegment, parsePointer, valueAt } from '../../src/schema/json-pointer.js';
import { isObject } from '../../src/schema/walk.js';
import type { DefinitionSubject, Rule } from './rule.js';
import { truncateText } from '../../src/errors.js';

/** The fields a definition may have, for "did you mean" hints. */
const DEFINITION_FIELDS = Object.keys(definitionMetaSchema.properties);

/**
 * The definition meta-schema as normalize checks it: the two schema fields only as objects, since
 * each is then checked against its own dialect's meta-schema (draft-07 or 2020-12, by its `$schema`).
 */
export const DEFINITION_CHECK: object = (() => {
  const { definitions: _schema, ...check } = structuredClone(definitionMetaSchema);
  const objectOrBoolean = { type: ['object', 'boolean'] };
  // Boolean schemas are reported by rules/boolean-schemas.ts, with their own message.
  Object.assign(check.properties, { inputSchema: objectOrBoolean, outputSchema: objectOrBoolean });
  // An error's data schema is checked by rules/declared-errors.ts, against the tool's dialect.
  Object.assign(check.properties.errors.additionalProperties.properties, { data: objectOrBoolean });
  return check;
})();

/** Where each dialect's keywords are specified, for hints. */
const DIALECT_DOCS: Readonly<Record<SchemaDialect, string>> = {
  'draft-07': 'https://json-schema.org/draft-07/json-schema-validation',
  '2020-12': 'https://json-schema.org/draft/2020-12/json-schema-validation',
};

const TYPE_NAMES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** A definition against tool-definition.schema.json: unknown and missing fields, bad names, bad values. */
export const definitionShape: Rule<DefinitionSubject> = {
  name: 'definition-shape',
  run({ source, definition, env }, diagnostics) {
    if (!env.checkDefinition(definition)) reportMetaErrors(source, env.checkDefinition.errors ?? [], diagnostics);
  },
};

/** One problem as a meta-schema error becomes: pointer, message, hint, and whether it points at the key. */
interface Report {
  pointer: string;
  message: string;
  hint?: string | undefined;
  atKey?: boolean;
}

/**
 * Ajv's meta-schema errors as problems of `source`, the most specific ones only (`anyOf`/`oneOf`
 * summaries dropped), each once. Errors under a schema field, or anywhere in a shared schema file,
 * are reported as `dialect` errors.
 */
export function reportMetaErrors(
  source: SourceFile,
  errors: readonly ErrorObject[],
  diagnostics: Diagnostics,
  dialect: SchemaDialect = 'draft-07',
): void {
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'propertyNames') continue;
    const report = describeError(source, error, dialect);
    const key = `${report.pointer}\0${report.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.error(source, report.pointer, report.message, report.hint, { atKey: report.atKey ?? false });
  }
}

function describeError(source: SourceFile, error: ErrorObject, dialect: SchemaDialect): Report {
  if (error.keyword === 'additionalProperties') return unknownField(error);
  if (error.keyword === 'required')
    return {
      pointer: error.instancePath,
      message: `missing required field "${String(error.params.missingProperty)}"`,
      hint: error.instancePath === '' ? `a definition needs name, description and inputSchema` : undefined,
    };
  if (error.keyword === 'pattern' && (error.instancePath === '/name' || error.instancePath === '/typeName'))
    return badName(source, error);
  if (error.keyword === 'pattern' && error.propertyName !== undefined && error.instancePath === '/errors')
    return {
      pointer: `/errors/${escapePointerSegment(error.propertyName)}`,
      message: `the error code ${JSON.stringify(truncateText(error.propertyName, 80))} does not match ${error.params.pattern}`,
      hint: 'error codes are upper-case words joined by `_`, e.g. "RATE_LIMITED"',
      atKey: true,
    };
  const inSchema =
    source.kind === 'shared' || /^\/(inputSchema|outputSchema|errors\/[^/]+\/data)/.test(error.instancePath);
  if (inSchema && /\/type(\/\d+)?$/.test(error.instancePath) && (error.keyword === 'enum' || error.keyword === 'type'))
    return badType(source, error);
  const at = error.instancePath || (inSchema ? 'the schema' : 'the definition');
  return {
    pointer: error.instancePath,
    message: `${inSchema ? `not a valid ${dialect} schema: ` : ''}${at} ${error.message}`,
    hint: inSchema ? `see ${DIALECT_DOCS[dialect]}` : undefined,
  };
}

function unknownField(error: ErrorObject): Report {
  const field = String(error.params.additionalProperty);
  if (error.instancePath !== '')
    return {
      pointer: `${error.instancePath}/${escapePointerSegment(field)}`,
      message: `unknown field "${field}"`,
      atKey: true,
    };
  const suggestion = nearestName(field, DEFINITION_FIELDS);
  return {
    pointer: `/${escapePointerSegment(field)}`,
    message: `unknown field "${field}" in a tool definition`,
    hint: suggestion ? `did you mean \`${suggestion}\`?` : `the fields are: ${DEFINITION_FIELDS.join(', ')}`,
    atKey: true,
  };
}

function badName(source: SourceFile, error: ErrorObject): Report {
  const value = source.value as Record<string, unknown> | null;
  if (error.instancePath === '/name')
    return {
      pointer: '/name',
      message: `the tool name ${JSON.stringify(truncateText(String(value && value.name), 80))} does not match ${error.params.pattern}`,
      hint: 'use letters, digits, `_` and `-`, starting with a letter or `_`, at most 64 characters',
    };
  return {
    pointer: '/typeName',
    message: `the typeName ${JSON.stringify(truncateText(String(value?.typeName), 80))} is not a PascalCase identifier`,
    hint: 'use letters and digits, starting with an upper-case letter, e.g. "CalculateBmiImperial"',
  };
}

function badType(source: SourceFile, error: ErrorObject): Report {
  const value = valueAt(source.value, parsePointer(error.instancePath));
  const suggestion = typeof value === 'string' ? nearestName(value, TYPE_NAMES) : undefined;
  return {
    pointer: error.instancePath,
    message: `${JSON.stringify(value)} is not a JSON Schema type`,
    hint: suggestion
      ? `did you mean "${suggestion}"?`
      : `the types are: ${TYPE_NAMES.join(', ')} (or an array of them)`,
  };
}

/** A definition file is one JSON object (anything else is reported and read no further). */
export const definitionObject: Rule<SourceFile> = {
  name: 'definition-object',
  run(source, diagnostics) {
    if (!isObject(source.value))
      diagnostics.error(
        source,
        '',
        'a tool definition must be a JSON object',
        'see tool-definition.schema.json for the fields',
      );
  },
};
