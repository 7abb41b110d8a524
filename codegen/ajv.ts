import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { AJV_OPTIONS, EXTENSION_KEYWORD } from '../src/schema/ajv-options.js';
import { classifyFormat, formatsIn, lenientStrictLogger } from '../src/schema/dialect.js';
import type { SchemaDialect } from '../src/schema/keywords.js';
import { walkSchema } from '../src/schema/walk.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * An Ajv configured exactly like the runtime, emitting ESM standalone code when `code` is set: Ajv's
 * draft-07 class, or its 2020-12 class for a `dialect: "2020-12"` schema. Strict mode logs rather than
 * throws, through a logger that throws for every complaint but what the dialect says is ignored
 * (`lenientStrictLogger`). `overrides` is for tests only (the JSON-Schema-Test-Suite needs no
 * coercion, no defaults, no strict mode).
 */
export function createGeneratorAjv(
  options: { code?: boolean; overrides?: Options; dialect?: SchemaDialect } = {},
): Ajv {
  const settings: Options = {
    ...AJV_OPTIONS,
    strictSchema: 'log',
    logger: lenientStrictLogger(options.dialect ?? 'draft-07'),
    ...options.overrides,
    ...(options.code ? { code: { source: true, esm: true, lines: true, optimize: true } } : {}),
  };
  const ajv = options.dialect === '2020-12' ? (new Ajv2020(settings) as unknown as Ajv) : new Ajv(settings);
  addFormats(ajv);
  return ajv;
}

/**
 * Declares every format a schema uses that is neither known nor a near-typo of a known one as
 * always valid (draft-07 and 2020-12 ignore unknown formats), so Ajv compiles it.
 */
export function allowUnknownFormats(ajv: Ajv, schema: unknown): void {
  for (const format of formatsIn(schema)) {
    if (classifyFormat(format).kind === 'ignored' && ajv.formats[format] === undefined) ajv.addFormat(format, true);
  }
}

/**
 * Adds one schema under `id` the way every generated validator is built: its `x-` keywords
 * declared, and with `unknownFormats` its formats that are no near-typo of a known one declared as
 * always valid (the dialect ignores them; normalize has warned about them).
 */
export function addValidatorSchema(
  ajv: Ajv,
  schema: object | boolean,
  id: string,
  options: { unknownFormats?: boolean } = {},
): void {
  // Every `x-` keyword is declared as an annotation, so strict mode accepts it.
  walkSchema(schema, '', (node) => {
    for (const keyword of Object.keys(node))
      if (EXTENSION_KEYWORD.test(keyword) && !ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  });
  if (options.unknownFormats) allowUnknownFormats(ajv, schema);
  ajv.addSchema(schema, id);
}

/** A schema Ajv rejected: what the problem at the schema field says. */
export interface SchemaRejection {
  /** `/inputSchema`, `/outputSchema` or a declared error's `/errors/<CODE>/data`. */
  pointer: string;
  message: string;
  hint: string;
}

/**
 * Adds and compiles one of a tool's schemas (`addValidatorSchema`, unknown formats allowed) under
 * `id` (`input`, `output`, or a declared error's `errors/<CODE>/data`); the rejection when Ajv throws on it. Why here: normalize (for the examples) and the
 * validator emitter compile the same way and must word a rejected schema the same.
 */
export function compileToolSchema(
  ajv: Ajv,
  schema: object,
  id: string,
): { validate: ValidateFunction } | { rejection: SchemaRejection } {
  try {
    addValidatorSchema(ajv, schema, id, { unknownFormats: true });
    return { validate: ajv.getSchema(id)! };
  } catch (error) {
    return {
      rejection: {
        pointer: id === 'input' ? '/inputSchema' : id === 'output' ? '/outputSchema' : `/${id}`,
        message: `the schema does not compile: ${(error as Error).message}`,
        hint: 'fix the schema; the runtime would reject it too',
      },
    };
  }
}

type StandaloneCode = typeof standaloneModule.default;

/**
 * Ajv's standalone code generator (a CommonJS module whose default export TypeScript sees as the
 * module). Its text is a concatenation tree of thousands of pieces; the emitter splits it into lines
 * at once (`indentCode`), so it is not flattened here.
 */
export const standaloneCode: StandaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ??
  standaloneModule) as StandaloneCode;
