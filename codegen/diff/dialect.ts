import type { JSONSchema7 } from 'json-schema';
import { schemaDialect } from '../../src/schema/dialect.js';
import { translatePointerTokens } from '../../src/schema/json-schema-2020.js';
import { fromJsonSchema2020 } from '../../src/schema/json-schema-draft-07.js';

/** True when a schema declares JSON Schema 2020-12 (as an MCP snapshot's schemas do). */
export function is2020(schema: unknown): boolean {
  return schemaDialect(schema) === '2020-12';
}

/**
 * The draft-07 reading of a 2020-12 schema, so the comparison's rules (written for draft-07, the
 * definitions' dialect) see one shape: `fromJsonSchema2020` with `$defs` read as `definitions`.
 */
export function asDraft07(schema: unknown): JSONSchema7 {
  return fromJsonSchema2020(schema, { definitions: true }) as JSONSchema7;
}

/** The pointer in a 2020-12 text of a draft-07 pointer (positions in a snapshot). */
export function pointerIn2020(pointer: string): string {
  if (pointer === '') return pointer;
  return `/${translatePointerTokens(pointer.split('/').slice(1)).join('/')}`;
}
