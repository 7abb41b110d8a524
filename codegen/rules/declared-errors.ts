import { TOOL_ERROR_CODES } from '../../src/errors.js';
import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { isObject, walkSchema } from '../../src/schema/walk.js';
import type { DefinitionSubject, Rule } from './rule.js';
import { checkDialect } from './schema-dialects.js';

/** The runtime's own codes: a declared error may not take one (a caller could not tell them apart). */
const RESERVED: ReadonlySet<string> = new Set(TOOL_ERROR_CODES);

/**
 * The definition's `errors` (their shape is the meta-schema's): no code the runtime answers with
 * itself (`TIMEOUT`, `OUTPUT_INVALID`, … every code of `TOOL_ERROR_CODES`); each `data` schema
 * valid in the tool's dialect and self-contained (its `$ref`s stay inside it: it is compiled alone).
 */
export const declaredErrors: Rule<DefinitionSubject> = {
  name: 'declared-errors',
  run({ source, definition, env, dialects }, diagnostics) {
    const errors = definition.errors;
    if (!isObject(errors)) return;
    if (definition.steps !== undefined)
      diagnostics.error(
        source,
        '/errors',
        "a composed tool declares no errors: it fails with its steps' failures (STEP_FAILED)",
        'declare the errors on the tools its steps call',
        { atKey: true },
      );
    const toolDialect = dialects.get('inputSchema') ?? 'draft-07';
    for (const code of Object.keys(errors)) {
      const at = `/errors/${escapePointerSegment(code)}`;
      if (RESERVED.has(code))
        diagnostics.error(
          source,
          at,
          `the error code ${code} is reserved: the runtime answers it itself`,
          'name the failure after what went wrong in the tool, e.g. "RATE_LIMITED" or "NOT_FOUND"',
          { atKey: true },
        );
      const data = isObject(errors[code]) ? errors[code].data : undefined;
      if (!isObject(data)) continue;
      const dialect = checkDialect(source, data, `${at}/data`, env.metaAjv, diagnostics);
      if (dialect !== undefined && dialect !== toolDialect)
        diagnostics.error(
          source,
          `${at}/data`,
          `the data schema is ${dialect} but the inputSchema is ${toolDialect}`,
          'give the data schema the same `$schema` as the inputSchema: one tool compiles to one validator module',
        );
      walkSchema(data, `${at}/data`, (schema, pointer) => {
        if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#'))
          diagnostics.error(
            source,
            `${pointer}/$ref`,
            `a data schema's $ref must stay inside it (${JSON.stringify(schema.$ref)} points outside)`,
            'copy what it refers to under the data schema\'s own "definitions" and refer to "#/definitions/<name>"',
          );
      });
    }
  },
};
