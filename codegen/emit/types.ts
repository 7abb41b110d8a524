import { compile, type Options } from 'json-schema-to-typescript';
import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import type { EmitContext, GeneratedFile, SharedSchemaModel, ToolModel } from '../model.js';
import { compareStrings } from '../../src/manifest-targets/build.js';
import { ownValue } from '../dictionary.js';
import { relativeImport, runtimeSpecifier } from '../naming.js';
import { failureTypes } from './failures.js';
import { definitionKey } from '../../src/schema/json-pointer.js';
import { isObject, mapSubschemas, setOwn } from '../../src/schema/walk.js';
import { schemaDialect } from '../../src/schema/dialect.js';
import { banner } from './banner.js';
import { importLine, jsDoc, quoted, typeKey } from './literal.js';

/** json-schema-to-typescript, configured to avoid its known traps (test/codegen/jstt-traps.slow.test.ts). */
const COMPILE_OPTIONS: Partial<Options> = {
  bannerComment: '',
  format: false,
  // An object schema without `additionalProperties` accepts extra keys, so its type must too
  // (`[k: string]: unknown`); `additionalProperties: false` still gives a closed interface.
  additionalProperties: true,
  unknownAny: true,
  declareExternallyReferenced: true,
  ignoreMinAndMaxItems: true,
  maxItems: -1,
  strictIndexSignatures: false,
  enableConstEnums: false,
  unreachableDefinitions: false,
};

/**
 * Property names json-schema-to-typescript trips over: it loses `__proto__` keys and calls
 * `schema.hasOwnProperty(…)` on maps keyed by user text, so a property named `hasOwnProperty` (or any
 * other `Object.prototype` member) crashes it. They pass through it under stand-in names.
 */
const PROTOTYPE_KEYS: readonly string[] = Object.getOwnPropertyNames(Object.prototype).sort(compareStrings);

/** The stand-in of each prototype key, and the pattern that finds them in the compiled text. */
interface StandIns {
  names: ReadonlyMap<string, string>;
  pattern: RegExp;
}

/**
 * Stand-ins under a prefix that no text of `schemas` contains (`__toolsmith_key_<n>__` unless a
 * property or description already holds that), so restoring them never rewrites the user's text.
 */
function standInsFor(schemas: readonly unknown[]): StandIns {
  const text = JSON.stringify(schemas);
  let prefix = '__toolsmith_key_';
  while (text.includes(prefix)) prefix = `${prefix}x_`;
  return {
    names: new Map(PROTOTYPE_KEYS.map((key, index) => [key, `${prefix}${index}__`])),
    pattern: new RegExp(`${prefix}(\\d+)__`, 'g'),
  };
}

/** Where each type name is declared: the module stem under `types/`. */
export type TypeHomes = ReadonlyMap<string, string>;

/** The types of one tool, `types/<tool>.ts`: `<Pascal>Input`, `<Pascal>Output` and the tool's own definitions. */
export async function emitToolTypes(tool: ToolModel, homes: TypeHomes, ctx: EmitContext): Promise<GeneratedFile> {
  const path = `types/${tool.names.kebab}.ts`;
  const used = new Set<string>();
  const declarations: string[] = [];
  const localTypeName = (key: string) => ownValue(tool.definitionOrigins, key)?.typeName;
  const emitted = new Set<string>();
  const tuples2020 = schemaDialect(tool.inputSchema) === '2020-12';
  const standIns = standInsFor([tool.inputSchema, tool.outputSchema, tool.errors]);
  /** The declaration of `schema` as `typeName`, its refs named as seen from the root type `root`. */
  const typed = (schema: JSONSchema7, root: string, typeName: string, typeNameOf = localTypeName) =>
    compileType(prepare(schema, root, typeNameOf, used, tuples2020, standIns), typeName, standIns);
  const emitRoot = async (schema: JSONSchema7, typeName: string, after?: string) => {
    declarations.push(await typed(stripDefinitions(schema), typeName, typeName));
    if (after !== undefined) declarations.push(after);
    // Both containers: a key in both is refused by normalize (ref-bundling).
    const definitions = { ...schema.definitions, ...(schema as { $defs?: JSONSchema7['definitions'] }).$defs };
    for (const [key, definition] of Object.entries(definitions)) {
      const origin = ownValue(tool.definitionOrigins, key);
      if (origin?.kind !== 'local' || emitted.has(origin.typeName)) continue;
      emitted.add(origin.typeName);
      declarations.push(await typed(definition as JSONSchema7, typeName, origin.typeName));
    }
  };
  await emitRoot(tool.inputSchema, tool.names.inputType, argsDeclaration(tool));
  if (tool.outputSchema) await emitRoot(tool.outputSchema, tool.names.outputType);
  else
    declarations.push(
      `/** \`${tool.name}\` declares no outputSchema, so its output is not checked. */\nexport type ${tool.names.outputType} = unknown;\n`,
    );
  // A data schema is compiled alone: its `$ref`s (inside it) are typed `unknown`.
  const compileData = (schema: JSONSchema7, typeName: string) =>
    typed(stripDefinitions(schema), typeName, typeName, () => undefined);
  const failures = await failureTypes(tool, compileData);
  const runtime =
    failures.length > 0 ? `${importLine(['ToolFailure'], runtimeSpecifier(path, ctx.runtimeImport), true)}\n` : '';
  const content = [
    banner(tool.source.file, ctx),
    runtime,
    importsFor(path, used, homes, emitted),
    ...declarations,
    ...failures,
  ]
    .filter((part) => part !== '')
    .join('\n');
  return { path, content, kind: 'generated' };
}

/** The types of one shared schema file, `types/<module>.ts`: one declaration per schema and definition, imported by every tool that uses it — never copied. */
export async function emitSharedTypes(
  shared: SharedSchemaModel,
  homes: TypeHomes,
  ctx: EmitContext,
): Promise<GeneratedFile> {
  const path = `types/${shared.module}.ts`;
  const used = new Set<string>();
  const own = new Set(shared.types.map((type) => type.typeName));
  const declarations: string[] = [];
  const standIns = standInsFor(shared.types.map((type) => type.schema));
  const tuples2020 = schemaDialect(shared.schema) === '2020-12';
  for (const { typeName, schema } of shared.types) {
    const prepared = prepare(schema, typeName, (key) => key, used, tuples2020, standIns);
    declarations.push(await compileType(prepared, typeName, standIns));
  }
  const content = [banner(shared.source, ctx), importsFor(path, used, homes, own), ...declarations]
    .filter((part) => part !== '')
    .join('\n');
  return { path, content, kind: 'generated' };
}

/** The defaults the input validator fills in, as a tree: keys given their default, and object properties whose own properties get one. */
interface FilledDefaults {
  keys: string[];
  nested: Map<string, FilledDefaults>;
}

/**
 * What Ajv's `useDefaults` really fills in, conservatively: a property whose own schema carries a
 * `default` (not already required), at the root and inside a property whose schema is a plain
 * `"type": "object"` with `properties` (filled when that object is present or itself defaulted).
 * Not claimed: defaults inside `anyOf`/`oneOf` branches (Ajv ignores them), on the target of a
 * `$ref` (ignored too), under `items`, `allOf` or `additionalProperties` (filled, but left optional
 * here), and a `null` default on a schema that does not allow null (a "no default" idiom, not filled).
 */
function filledDefaults(schema: JSONSchema7): FilledDefaults {
  const filled: FilledDefaults = { keys: [], nested: new Map() };
  if (!isObject(schema.properties)) return filled;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const key of Object.keys(schema.properties).sort(compareStrings)) {
    const property = schema.properties[key];
    if (key === '__proto__' || !isObject(property)) continue;
    if (
      Object.hasOwn(property, 'default') &&
      !required.has(key) &&
      !(property.default === null && !allowsNull(property))
    )
      filled.keys.push(key);
    if (property.type === 'object' && !Object.hasOwn(property, '$ref')) {
      const inner = filledDefaults(property as JSONSchema7);
      if (inner.keys.length > 0 || inner.nested.size > 0) filled.nested.set(key, inner);
    }
  }
  return filled;
}

function allowsNull(schema: Record<string, unknown>): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if (Object.hasOwn(schema, 'const') && schema.const === null) return true;
  const branches = [schema.anyOf, schema.oneOf].flatMap((list) => (Array.isArray(list) ? list : []));
  return branches.some((branch) => isObject(branch) && allowsNull(branch));
}

/** `base` with the filled-in keys required, recursively: `X & Required<Pick<X, 'a'>> & { o?: … }`. */
function withDefaults(base: string, filled: FilledDefaults): string {
  const parts = [base];
  if (filled.keys.length > 0)
    parts.push(`Required<Pick<${base}, ${filled.keys.map((key) => quoted(key)).join(' | ')}>>`);
  if (filled.nested.size > 0) {
    const members = [...filled.nested].map(
      ([key, inner]) =>
        `${typeKey(key)}${filled.keys.includes(key) ? '' : '?'}: ${withDefaults(`NonNullable<${base}[${quoted(key)}]>`, inner)}`,
    );
    parts.push(`{ ${members.join('; ')} }`);
  }
  return parts.join(' & ');
}

/** `<Pascal>Args`: the input as `execute` gets it, validated, with the defaults the validator fills in present. */
function argsDeclaration(tool: ToolModel): string {
  const { inputType, argsType } = tool.names;
  const doc = jsDoc(
    `The arguments \`execute\` of \`${tool.name}\` gets: a validated \`${inputType}\` in which ` +
      `every property the input validator fills with its default is present.`,
  );
  return `${doc}\nexport type ${argsType} = ${withDefaults(inputType, filledDefaults(tool.inputSchema))};\n`;
}

function importsFor(fromPath: string, used: Set<string>, homes: TypeHomes, local: Set<string>): string {
  const byModule = new Map<string, string[]>();
  for (const typeName of used) {
    const home = homes.get(typeName);
    if (home === undefined || local.has(typeName) || `types/${home}.ts` === fromPath) continue;
    byModule.set(home, [...(byModule.get(home) ?? []), typeName]);
  }
  let imports = '';
  for (const home of [...byModule.keys()].sort(compareStrings)) {
    const names = byModule.get(home)!.sort(compareStrings);
    imports += `${importLine(names, relativeImport(fromPath, `types/${home}.js`), true)}\n`;
  }
  return imports;
}

function stripDefinitions(schema: JSONSchema7): JSONSchema7 {
  const { definitions: _definitions, $defs: _defs, ...rest } = schema as JSONSchema7 & { $defs?: unknown };
  return rest;
}

/** Keywords dropped before json-schema-to-typescript sees a schema: each would let it name types itself or inject code. */
const DROPPED_KEYWORDS: ReadonlySet<string> = new Set([
  'title',
  '$id',
  'id',
  '$schema',
  'tsType',
  'tsEnumNames',
  'extends',
  'not',
  'if',
  'then',
  'else',
]);

/** A schema with none of these is typed by json-schema-to-typescript as an object (`{ [k: string]: unknown }`), which is not sound. */
const SHAPE_KEYWORDS = [
  'type',
  'tsType',
  '$ref',
  'enum',
  'const',
  'allOf',
  'anyOf',
  'oneOf',
  'items',
  'properties',
  'patternProperties',
];

/**
 * Rewrites a bundled schema for json-schema-to-typescript so that its types are sound and every
 * name comes from naming.ts:
 * - every `$ref` becomes a `tsType` naming our type (never `Foo1`; shared types are imported);
 * - `title`, `$id`, `id` (they would rename types) and its own `tsType`/`tsEnumNames`/`extends` are dropped;
 * - `not` is dropped: the type is the rest of the schema (a value that validates fits it; nothing is narrowed);
 * - `if`/`then`/`else` with both branches becomes the base intersected with `Then | Else` (a valid value
 *   meets `then` or `else`), each branch taking the base's `type` when it has none and its `required`
 *   names as present properties; with a branch missing, the type is the base (the missing branch allows anything);
 * - a schema that says nothing about its shape (`{}`, `{ "minimum": 1 }`, `{ "required": [...] }`, only a
 *   description) is `unknown`, where json-schema-to-typescript would claim an object or, for an
 *   accept-anything member of a named `anyOf`, declare nothing at all;
 * - a boolean subschema is `unknown` (`true`) or `never` (`false`), but where json-schema-to-typescript
 *   reads the boolean itself (`additionalProperties: false` closes an interface);
 * - `__proto__` keys get a stand-in.
 */
function prepare(
  schema: JSONSchema7Definition,
  rootTypeName: string,
  typeNameOf: (key: string) => string | undefined,
  used: Set<string>,
  tuples2020: boolean,
  standIns: StandIns,
): JSONSchema7 {
  // A boolean schema: `true` accepts anything (`unknown`), `false` nothing (`never`).
  if (typeof schema === 'boolean') return { tsType: schema ? 'unknown' : 'never' } as JSONSchema7;
  const record = schema as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(record).filter(([key]) => !DROPPED_KEYWORDS.has(key)));
  if (typeof record.description === 'string') out.description = commentText(record.description);
  if (
    tuples2020 &&
    record.unevaluatedProperties === false &&
    !Object.hasOwn(record, 'additionalProperties') &&
    !['allOf', 'anyOf', 'oneOf', 'if', 'dependentSchemas', '$ref'].some((keyword) => Object.hasOwn(record, keyword))
  ) {
    // Without composition, 2020-12's `unevaluatedProperties: false` closes the object as `additionalProperties: false` does.
    setOwn(out, 'additionalProperties', false);
  }
  if (tuples2020 && Array.isArray(record.prefixItems)) {
    // 2020-12 tuples in the draft-07 form json-schema-to-typescript reads: `prefixItems` → `items`, `items` → `additionalItems`.
    delete out.prefixItems;
    setOwn(out, 'items', record.prefixItems);
    if (Object.hasOwn(record, 'items')) setOwn(out, 'additionalItems', record.items);
    else delete out.additionalItems;
  }
  if (typeof record.$ref === 'string') {
    const ref = record.$ref;
    delete out.$ref;
    // The fragment is percent-decoded once (`#/definitions/50%25` names `50%`), then split on `~0`/`~1`.
    const key = definitionKey(ref);
    const typeName = ref === '#' ? rootTypeName : key === undefined ? undefined : typeNameOf(key);
    // The type is the ref's: no shape keyword beside it may add to it or make json-schema-to-typescript declare one.
    for (const keyword of [...SHAPE_KEYWORDS, 'required', 'additionalProperties']) delete out[keyword];
    if (typeName !== undefined) used.add(typeName);
    return { ...out, tsType: typeName ?? 'unknown' } as JSONSchema7;
  }
  if (Object.hasOwn(record, 'then') && Object.hasOwn(record, 'else')) {
    const branch = (value: unknown): unknown => {
      if (!isObject(value)) return value;
      const copy: Record<string, unknown> = { ...value };
      if (!Object.hasOwn(copy, 'type') && Object.hasOwn(record, 'type')) copy.type = record.type;
      const objectTyped = copy.type === 'object' || (Array.isArray(copy.type) && copy.type.includes('object'));
      if (objectTyped && Array.isArray(copy.required)) {
        const properties: Record<string, unknown> = isObject(copy.properties) ? { ...copy.properties } : {};
        for (const name of copy.required)
          if (typeof name === 'string' && !Object.hasOwn(properties, name)) setOwn(properties, name, {});
        copy.properties = properties;
      }
      return copy;
    };
    out.allOf = [
      ...(Array.isArray(record.allOf) ? record.allOf : []),
      { anyOf: [branch(record.then), branch(record.else)] },
    ];
  }
  const standIn = (key: unknown) => (typeof key === 'string' ? (standIns.names.get(key) ?? key) : key);
  if (isObject(out.properties) && Object.keys(out.properties).some((key) => standIns.names.has(key))) {
    const renamed = Object.entries(out.properties).map(([key, value]) => [standIn(key), value]);
    setOwn(out, 'properties', Object.fromEntries(renamed));
  }
  if (Array.isArray(out.required)) setOwn(out, 'required', out.required.map(standIn));
  // A boolean in a list or map of subschemas (`anyOf`, `properties`) becomes its type here; a single
  // one (`additionalProperties: false`) is not handed over, and json-schema-to-typescript reads it.
  const prepared = mapSubschemas(out, '', (child) =>
    prepare(child as JSONSchema7Definition, rootTypeName, typeNameOf, used, tuples2020, standIns),
  );
  if (!SHAPE_KEYWORDS.some((keyword) => Object.hasOwn(prepared, keyword))) prepared.tsType = 'unknown';
  return prepared as JSONSchema7;
}

/**
 * A description as json-schema-to-typescript may print it in a JSDoc block: one kind of line break
 * (it splits on `\n` only) and no line starting with `@`, which would read as a tag (`@deprecated`,
 * `@param`); it escapes `*\/` itself.
 */
function commentText(text: string): string {
  return text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/(^|\n)([^\S\n]*)@/g, '$1$2\\@');
}

/**
 * json-schema-to-typescript never derives a name: it compiles under a placeholder no naming.ts name
 * can be (`$` is never part of one), and the one declaration it must produce is renamed to ours.
 */
const PLACEHOLDER = '$ToolsmithType';

async function compileType(schema: JSONSchema7, typeName: string, standIns: StandIns): Promise<string> {
  const source = await compile(schema as never, PLACEHOLDER, COMPILE_OPTIONS);
  const declared = [...source.matchAll(/^export (?:interface|type|enum|const enum|declare const) ([^\s<=]+)/gm)].map(
    (match) => match[1],
  );
  if (declared.length !== 1 || declared[0] !== PLACEHOLDER) {
    throw new Error(
      `internal error: json-schema-to-typescript declared ${JSON.stringify(declared)} for ${typeName}; expected one declaration`,
    );
  }
  const renamed = source.replace(/^(export (?:interface|type) )\$ToolsmithType\b/m, `$1${typeName}`);
  return renamed
    .replace(standIns.pattern, (_, index: string) => PROTOTYPE_KEYS[Number(index)]!)
    .replace(/(^|\n)(\s*)__proto__(\??):/g, '$1$2"__proto__"$3:');
}
