import { compile, type Options } from 'json-schema-to-typescript';
import type { JSONSchema7 } from 'json-schema';
import type { EmitContext, GeneratedFile, ProjectModel, SharedSchemaModel, ToolModel } from '../model.js';
import { compareStrings, relativeImport } from '../naming.js';
import { DEFINITION_CONTAINERS, hasOwn, isObject, mapSchema, setOwn } from '../schema-walk.js';
import { schemaDialect } from '../../src/schema-dialect.js';
import { banner } from './banner.js';

/** json-schema-to-typescript, configured to avoid its known traps (see ARCHITECTURE.md). */
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

/** json-schema-to-typescript loses `__proto__` keys; they pass through it under this stand-in name. */
const PROTO_STAND_IN = '__toolsmith_proto_key__';

/** Where each type name is declared: the module stem under `types/`. */
type TypeHomes = ReadonlyMap<string, string>;

/** The types of one tool, `types/<tool>.ts`: `<Pascal>Input`, `<Pascal>Output` and the tool's own definitions. */
export async function emitToolTypes(tool: ToolModel, homes: TypeHomes, ctx: EmitContext): Promise<GeneratedFile> {
  const path = `types/${tool.names.kebab}.ts`;
  const used = new Set<string>();
  const declarations: string[] = [];
  const localTypeName = (key: string): string | undefined => {
    const origin = hasOwn(tool.definitionOrigins, key) ? tool.definitionOrigins[key] : undefined;
    return origin?.typeName;
  };
  const emitRoot = async (schema: JSONSchema7, typeName: string) => {
    declarations.push(await compileType(prepare(stripDefinitions(schema), typeName, localTypeName, used, tuples2020), typeName));
    const definitions: Record<string, unknown> = {};
    for (const container of DEFINITION_CONTAINERS) {
      const entries = (schema as Record<string, unknown>)[container];
      if (hasOwn(schema, container) && isObject(entries)) for (const key of Object.keys(entries)) setOwn(definitions, key, entries[key]);
    }
    for (const key of Object.keys(definitions)) {
      const origin = tool.definitionOrigins[key];
      if (!origin || origin.kind !== 'local' || emitted.has(origin.typeName)) continue;
      emitted.add(origin.typeName);
      declarations.push(await compileType(prepare(definitions[key] as JSONSchema7, typeName, localTypeName, used, tuples2020), origin.typeName));
    }
  };
  const emitted = new Set<string>();
  const tuples2020 = schemaDialect(tool.inputSchema) === '2020-12';
  await emitRoot(tool.inputSchema, tool.names.inputType);
  if (tool.outputSchema) await emitRoot(tool.outputSchema, tool.names.outputType);
  else declarations.push(`/** \`${tool.name}\` declares no outputSchema, so its output is not checked. */\nexport type ${tool.names.outputType} = unknown;\n`);
  const content = [banner(tool.source.file, ctx), importsFor(path, used, homes, emitted), ...declarations].filter((part) => part !== '').join('\n');
  return { path, content, kind: 'generated' };
}

/** The types of one shared schema file, `types/<module>.ts`: one declaration per schema and definition, imported by every tool that uses it — never copied. */
export async function emitSharedTypes(shared: SharedSchemaModel, homes: TypeHomes, ctx: EmitContext): Promise<GeneratedFile> {
  const path = `types/${shared.module}.ts`;
  const used = new Set<string>();
  const own = new Set(shared.types.map((type) => type.typeName));
  const declarations: string[] = [];
  for (const { typeName, schema } of shared.types) {
    declarations.push(await compileType(prepare(schema, typeName, (key) => key, used, schemaDialect(shared.schema) === '2020-12'), typeName));
  }
  const content = [banner(shared.source, ctx), importsFor(path, used, homes, own), ...declarations].filter((part) => part !== '').join('\n');
  return { path, content, kind: 'generated' };
}

function importsFor(fromPath: string, used: Set<string>, homes: TypeHomes, local: Set<string>): string {
  const byModule = new Map<string, string[]>();
  for (const typeName of used) {
    const home = homes.get(typeName);
    if (home === undefined || local.has(typeName) || `types/${home}.ts` === fromPath) continue;
    byModule.set(home, [...(byModule.get(home) ?? []), typeName]);
  }
  return [...byModule.keys()]
    .sort(compareStrings)
    .map((home) => `import type { ${byModule.get(home)!.sort(compareStrings).join(', ')} } from '${relativeImport(fromPath, `types/${home}.js`)}';\n`)
    .join('');
}

function stripDefinitions(schema: JSONSchema7): JSONSchema7 {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) if (key !== 'definitions' && key !== '$defs') setOwn(out, key, (schema as Record<string, unknown>)[key]);
  return out as JSONSchema7;
}

/**
 * Rewrites a bundled schema for json-schema-to-typescript: every `$ref` becomes a `tsType` naming
 * our type (so names come from naming.ts, never `Foo1`, and shared types are imported), titles and
 * ids are dropped (they would rename types), `__proto__` keys get a stand-in.
 */
function prepare(schema: JSONSchema7, rootTypeName: string, typeNameOf: (key: string) => string | undefined, used: Set<string>, tuples2020 = false): JSONSchema7 {
  return mapSchema(schema, '', (node) => {
    const record = node as Record<string, unknown>;
    const needsRewrite = hasOwn(record, '$ref') || (tuples2020 && (hasOwn(record, 'prefixItems') || record.unevaluatedProperties === false)) || hasOwn(record, 'title') || hasOwn(record, '$id') || hasOwn(record, '$schema') || (isObject(record.properties) && hasOwn(record.properties, '__proto__')) || (Array.isArray(record.required) && record.required.includes('__proto__'));
    if (!needsRewrite) return undefined;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      if (key === 'title' || key === '$id' || key === '$schema') continue;
      setOwn(out, key, record[key]);
    }
    if (tuples2020 && record.unevaluatedProperties === false && !hasOwn(record, 'additionalProperties') && !['allOf', 'anyOf', 'oneOf', 'if', 'dependentSchemas', '$ref'].some((keyword) => hasOwn(record, keyword))) {
      // Without composition, 2020-12's `unevaluatedProperties: false` closes the object as `additionalProperties: false` does.
      setOwn(out, 'additionalProperties', false);
    }
    if (tuples2020 && Array.isArray(record.prefixItems)) {
      // 2020-12 tuples in the draft-07 form json-schema-to-typescript reads: `prefixItems` → `items`, `items` → `additionalItems`.
      delete out.prefixItems;
      setOwn(out, 'items', record.prefixItems);
      if (hasOwn(record, 'items')) setOwn(out, 'additionalItems', record.items);
      else delete out.additionalItems;
    }
    if (typeof record.$ref === 'string') {
      const ref = record.$ref;
      delete out.$ref;
      const key = ref === '#' ? undefined : /^#\/(?:definitions|\$defs)\/([^/]+)$/.exec(ref)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
      const typeName = ref === '#' ? rootTypeName : key === undefined ? undefined : typeNameOf(key);
      if (typeName === undefined) return { ...(out as JSONSchema7), tsType: 'unknown' } as JSONSchema7;
      used.add(typeName);
      for (const keyword of ['type', 'properties', 'items', 'required', 'additionalProperties', 'enum', 'const', 'allOf', 'anyOf', 'oneOf']) delete out[keyword];
      setOwn(out, 'tsType', typeName);
      return out as JSONSchema7;
    }
    if (isObject(record.properties) && hasOwn(record.properties, '__proto__')) {
      const properties: Record<string, unknown> = {};
      for (const key of Object.keys(record.properties)) setOwn(properties, key === '__proto__' ? PROTO_STAND_IN : key, record.properties[key]);
      setOwn(out, 'properties', properties);
    }
    if (Array.isArray(record.required)) setOwn(out, 'required', record.required.map((key) => (key === '__proto__' ? PROTO_STAND_IN : key)));
    return mapSchema(out as JSONSchema7, '', (child) => (child === (out as JSONSchema7) ? undefined : prepare(child, rootTypeName, typeNameOf, used, tuples2020))) as JSONSchema7;
  }) as JSONSchema7;
}

async function compileType(schema: JSONSchema7, typeName: string): Promise<string> {
  const source = await compile(schema as never, typeName, COMPILE_OPTIONS);
  return source.split(PROTO_STAND_IN).join('__proto__').replace(/(^|\n)(\s*)__proto__(\??):/g, '$1$2"__proto__"$3:');
}
