/**
 * The shared schemas' validators, compiled once into `validators/shared/index.js` and called by
 * every tool validator that uses them, instead of each tool module carrying its own copy of their
 * code (#17: on the bench corpus a third of each module's bytes and of its Ajv compile).
 *
 * A tool's bundled schema holds a copy of each shared schema it uses under `definitions[<TypeName>]`
 * (normalize). Its validator schema has each `$ref` to such a copy replaced by `SHARED_KEYWORD`,
 * whose code is Ajv's own call of a referenced validator (`callRef`: the same context, its errors
 * appended), on the function imported from the shared module. A copy is only replaced when its
 * validator schema is the shared one exactly (defaults left out alike), in draft-07, and in a tool
 * without `unevaluated*` keywords (Ajv would not see what the call evaluated): otherwise the tool
 * keeps its own inlined code. Errors inside a shared schema carry a `schemaPath` relative to it,
 * as Ajv gives them for a reference it does not inline.
 */
import { _, type Ajv, type KeywordCxt, Name, type ValidateFunction } from 'ajv';
import { callRef } from 'ajv/dist/vocabularies/core/ref.js';
import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { prepareValidatorSchema } from '../../src/schema/defaults.js';
import { schemaDialect } from '../../src/schema/dialect.js';
import { addValidatorSchema, allowUnknownFormats, createGeneratorAjv, standaloneCode } from '../ajv.js';
import type { SharedSchemaModel } from '../model.js';
import { isObject, mapSchema, walkSchema } from '../../src/schema/walk.js';
import { DEFINITION_CONTAINERS, keywordsWhere } from '../../src/schema/keywords.js';

/** The keyword a replaced `$ref` becomes in a tool's validator schema (never in a written schema). */
export const SHARED_KEYWORD = 'x-toolsmith-shared';

/** The id the shared root schema is compiled under. */
const SHARED_ID = 'toolsmith:shared-schemas';

/** Unevaluated keywords: a tool using them keeps its own copies (Ajv tracks what a reference evaluated only when it compiles it). */
const UNEVALUATED = ['unevaluatedProperties', 'unevaluatedItems'];

/** What the tool validators share: the root schema of every shared type, and each type's schema as JSON. */
export interface SharedValidators {
  /** `{ definitions: { <TypeName>: schema } }`, each as the validator is compiled from it. */
  readonly root: JSONSchema7;
  /** Type name → its validator schema as JSON: a tool's copy is replaced only when it is this. */
  readonly texts: ReadonlyMap<string, string>;
}

/** The export of a shared type's validator. */
const sharedExport = (typeName: string): string => `validate${typeName}`;

/** What `sharedValidators` made of each project's shared schemas, on this thread. */
const MADE = new WeakMap<readonly SharedSchemaModel[], SharedValidators | undefined>();

/**
 * The shared validators of a project (once per thread: the emitter and the project's files both ask),
 * or undefined when it has no shared schema or one that is not draft-07 (then every tool keeps its
 * own code). A shared schema Ajv does not compile is left out of the module (`emitSharedValidators`);
 * a tool calling it fails to compile, as it would with its own copy.
 */
export function sharedValidators(shared: readonly SharedSchemaModel[]): SharedValidators | undefined {
  if (!MADE.has(shared)) MADE.set(shared, makeSharedValidators(shared));
  return MADE.get(shared);
}

function makeSharedValidators(shared: readonly SharedSchemaModel[]): SharedValidators | undefined {
  if (shared.length === 0) return undefined;
  if (shared.some((entry) => (schemaDialect(entry.schema) ?? 'draft-07') !== 'draft-07')) return undefined;
  const definitions: Record<string, JSONSchema7> = {};
  for (const entry of shared) for (const { typeName, schema } of entry.types) definitions[typeName] = schema;
  const checker = createGeneratorAjv({ overrides: { validateSchema: false } });
  allowUnknownFormats(checker, definitions);
  const root = prepareValidatorSchema(checker, { definitions } as JSONSchema7).schema;
  const texts = new Map<string, string>();
  for (const [typeName, schema] of Object.entries(root.definitions ?? {})) texts.set(typeName, JSON.stringify(schema));
  return { root, texts };
}

/** The definitions a schema node refers to (`#/definitions/<key>`). */
function referencedDefinitions(node: unknown): Set<string> {
  const keys = new Set<string>();
  walkSchema(node as never, '', (each) => {
    const ref = (each as Record<string, unknown>).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/definitions/')) keys.add(ref.slice('#/definitions/'.length));
  });
  return keys;
}

/**
 * The draft-07 keywords whose value holds subschemas (definitions aside), and `$ref`: a shared schema
 * with none of them is a leaf.
 */
const SUBSCHEMA_KEYWORDS = [
  ...keywordsWhere(
    (info, keyword) =>
      info.subschemas !== undefined &&
      info.dialects.includes('draft-07') &&
      !(DEFINITION_CONTAINERS as readonly string[]).includes(keyword),
  ),
  '$ref',
];

/**
 * Whether a shared schema is called rather than compiled into the tool: one with subschemas. A leaf
 * (a pattern, an enum, a range) is a few lines that Ajv inlines at the reference; a call costs
 * more than it saves there (the context object, the errors appended).
 */
const worthCalling = (schema: JSONSchema7Definition): boolean =>
  isObject(schema) && SUBSCHEMA_KEYWORDS.some((keyword) => Object.hasOwn(schema, keyword));

/**
 * A tool's validator schema with each `$ref` to a shared copy it may call replaced by
 * `SHARED_KEYWORD`, and the copies left unused dropped; `schema` itself when nothing is called. A
 * copy is the shared type when it is the shared type's validator schema exactly and every copy it
 * refers to is too (it then means what the shared module's does); such a copy with subschemas is
 * called (`worthCalling`).
 */
export function withSharedCalls(schema: JSONSchema7, shared: SharedValidators): JSONSchema7 {
  const definitions = schema.definitions;
  if (!isObject(definitions)) return schema;
  const identical = new Set(
    Object.keys(definitions).filter(
      (key) => shared.texts.has(key) && JSON.stringify(definitions[key]) === shared.texts.get(key),
    ),
  );
  // A copy referring to one that is not the shared type means something else: left out until none does.
  for (let changed = true; changed;) {
    changed = false;
    for (const key of identical)
      if ([...referencedDefinitions(definitions[key])].some((target) => !identical.has(target))) {
        identical.delete(key);
        changed = true;
      }
  }
  const called = new Set([...identical].filter((key) => worthCalling(definitions[key]!)));
  if (called.size === 0) return schema;
  let blocked = false;
  walkSchema(schema as never, '', (node) => {
    if (Object.hasOwn(node, SHARED_KEYWORD) || UNEVALUATED.some((keyword) => Object.hasOwn(node, keyword)))
      blocked = true;
  });
  if (blocked) return schema;
  // Schema nodes only: `const`, `enum`, `default` and `examples` are data, copied as they are.
  const replace = (node: JSONSchema7Definition, pointer: string): JSONSchema7Definition =>
    mapSchema<JSONSchema7, JSONSchema7Definition>(node, pointer, (each, at) => {
      const ref = each.$ref;
      const target = typeof ref === 'string' && ref.startsWith('#/definitions/') ? ref.slice(14) : undefined;
      if (target === undefined || !called.has(target)) return undefined;
      const { $ref: _ref, ...siblings } = each;
      return { ...(replace(siblings, at) as JSONSchema7), [SHARED_KEYWORD]: target } as JSONSchema7;
    });
  const { definitions: _dropped, ...rest } = schema;
  const body = replace(rest, '') as JSONSchema7;
  // The tool's own definitions stay; a shared copy stays while the tool still refers to it.
  const kept = new Map<string, JSONSchema7Definition>();
  for (const [key, copy] of Object.entries(definitions))
    if (!identical.has(key)) kept.set(key, replace(copy, `/definitions/${key}`));
  const reached = new Set<string>();
  const reach = (node: JSONSchema7Definition) => {
    for (const key of referencedDefinitions(node))
      if (!reached.has(key) && Object.hasOwn(definitions, key)) {
        reached.add(key);
        reach(kept.get(key) ?? definitions[key]!);
      }
  };
  reach(body);
  for (const copy of kept.values()) reach(copy);
  for (const key of identical) if (!called.has(key) && reached.has(key)) kept.set(key, definitions[key]!);
  if (kept.size === 0) return body;
  // In the order the tool lists them (definition keys are user text: entries defined, never assigned).
  const ordered = Object.keys(definitions).flatMap((key) => (kept.has(key) ? [[key, kept.get(key)!] as const] : []));
  return { ...body, definitions: Object.fromEntries(ordered) };
}

/** This thread's Ajv holding the shared root, by root: the functions the examples run through at generate time. */
const COMPILED = new WeakMap<JSONSchema7, Ajv>();

/** The shared type's validator compiled on this thread: what the generated code calls, run when a tool's examples are checked. */
function compiledShared(shared: SharedValidators, typeName: string): ValidateFunction {
  let ajv = COMPILED.get(shared.root);
  if (ajv === undefined) {
    ajv = createGeneratorAjv({ overrides: { validateSchema: false } });
    addValidatorSchema(ajv, shared.root, SHARED_ID, { unknownFormats: true });
    COMPILED.set(shared.root, ajv);
  }
  return ajv.getSchema(`${SHARED_ID}#/definitions/${typeName}`)!;
}

/**
 * Declares `SHARED_KEYWORD` on a tool's Ajv: its code calls the shared type's validator, imported
 * from the shared module at `specifier` in the standalone code.
 */
export function addSharedKeyword(ajv: Ajv, shared: SharedValidators, specifier: string): void {
  ajv.addKeyword({
    keyword: SHARED_KEYWORD,
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const typeName = cxt.schema as string;
      const validate = cxt.gen.scopeValue('func', {
        key: typeName,
        ref: compiledShared(shared, typeName),
        code: _`require(${specifier}).${new Name(sharedExport(typeName))}`,
      });
      callRef(cxt, validate);
    },
  });
}

/** Whether Ajv compiles a shared type (on this thread, where the tools' examples run it too). */
function compiles(shared: SharedValidators, typeName: string): boolean {
  try {
    compiledShared(shared, typeName);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ajv's standalone code of `validators/shared/index.js`: the validator of every shared type a tool
 * may call (`worthCalling`) and Ajv compiles; undefined when there is none (no module). The module
 * is laid out by `emitSharedValidators` (validators.ts). A tool calling one Ajv rejects fails to
 * compile: its keyword compiles the shared validator it calls (`addSharedKeyword`).
 */
export function sharedModuleCode(shared: SharedValidators): string | undefined {
  const definitions = shared.root.definitions ?? {};
  const called = [...shared.texts.keys()].filter(
    (typeName) => worthCalling(definitions[typeName]!) && compiles(shared, typeName),
  );
  if (called.length === 0) return undefined;
  const ajv = createGeneratorAjv({ code: true, overrides: { validateSchema: false } });
  addValidatorSchema(ajv, shared.root, SHARED_ID, { unknownFormats: true });
  const exports: Record<string, string> = {};
  for (const typeName of called) exports[sharedExport(typeName)] = `${SHARED_ID}#/definitions/${typeName}`;
  return standaloneCode(ajv, exports);
}
