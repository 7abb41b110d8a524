import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { mapSchema as mapAny, walkSchema as walkAny } from '../src/schema/walk.js';

/** Calls `visit` for a schema and every subschema below it, with its JSON pointer. */
export function walkSchema(
  schema: JSONSchema7Definition,
  pointer: string,
  visit: (schema: JSONSchema7, pointer: string) => void,
): void {
  walkAny<JSONSchema7>(schema, pointer, visit);
}

/**
 * A copy of a schema in which `transform` may replace any subschema (called top-down; return
 * `undefined` to copy the node and recurse into its subschemas). Data keywords are copied verbatim.
 */
export function mapSchema(
  schema: JSONSchema7Definition,
  pointer: string,
  transform: (schema: JSONSchema7, pointer: string) => JSONSchema7Definition | undefined,
): JSONSchema7Definition {
  return mapAny<JSONSchema7, JSONSchema7Definition>(schema, pointer, transform);
}
