import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The 2020-12 meta-schema URIs the validator takes (http and https, trailing `#` stripped). */
const DRAFT_2020_12_URIS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'http://json-schema.org/draft/2020-12/schema',
]);

/**
 * The default JSON Schema validator of the MCP TypeScript SDK v2 betas (`AjvJsonSchemaValidator` in
 * @modelcontextprotocol/client 2.0.0-beta.5, dist/ajvProvider-*.mjs), rebuilt for the installed 1.x
 * client: one Ajv 2020 instance (`strict: false`, `validateFormats: true`, `validateSchema: false`,
 * `allErrors: true`, ajv-formats), and any declared `$schema` other than 2020-12 refused with the same
 * message. Hosts on that client (Claude Desktop among them) refuse a draft-07 `outputSchema` this way.
 */
export class Mcp2020OnlyValidator implements jsonSchemaValidator {
  readonly ajv = new Ajv2020({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  /** Every schema it was asked for, in order (so a test can tell which schemas the client checked). */
  readonly seen: JsonSchemaType[] = [];

  constructor() {
    addFormats(this.ajv);
  }

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.seen.push(schema);
    const declared = (schema as { $schema?: unknown }).$schema;
    if (typeof declared === 'string' && !DRAFT_2020_12_URIS.has(declared.replace(/#$/, ''))) {
      throw new Error(
        `JSON Schema declares an unsupported dialect ("$schema": "${declared.slice(0, 200)}"). The default validator supports JSON Schema 2020-12 only; pass a pre-configured Ajv instance to AjvJsonSchemaValidator(ajv) to validate other dialects.`,
      );
    }
    const validate = this.ajv.compile(schema as object);
    return (input: unknown) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: this.ajv.errorsText(validate.errors) };
  }
}
