import { schemaDialect } from './dialect.js';
import {
  cloneJson,
  hasOwn,
  isObject,
  SCHEMA_ARRAY_KEYWORDS,
  SCHEMA_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  setOwn,
} from './walk.js';

const SINGLE = new Set<string>(SCHEMA_KEYWORDS);
const ARRAYS = new Set<string>(SCHEMA_ARRAY_KEYWORDS);
const MAPS = new Set<string>(SCHEMA_MAP_KEYWORDS);

/**
 * The draft-07 form of a 2020-12 schema, same meaning where draft-07 has the words: `prefixItems`
 * → tuple `items` (and `items` beside it → `additionalItems`), `dependentRequired` and
 * `dependentSchemas` → `dependencies`, the root `$schema` dropped. `$defs` stays (draft-07 tools
 * resolve `$ref`s into it); keywords draft-07 cannot say (`unevaluatedProperties`, `$dynamicRef`)
 * are kept for the reader to report. A draft-07 schema is returned as it is. The provider
 * manifests are built from this form (their converters speak draft-07).
 */
export function toDraft07<T extends object>(schema: T): T {
  if (schemaDialect(schema) !== '2020-12') return schema;
  const out = convert(schema) as Record<string, unknown>;
  delete out.$schema;
  return out as T;
}

function convert(node: unknown): unknown {
  if (!isObject(node)) return cloneJson(node);
  const out: Record<string, unknown> = {};
  const tuple = Array.isArray(node.prefixItems);
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (key === 'prefixItems' && tuple) setOwn(out, 'items', (value as unknown[]).map(convert));
    else if (key === 'items') setOwn(out, tuple ? 'additionalItems' : 'items', convert(value));
    else if (key === 'dependentRequired' || key === 'dependentSchemas') {
      const dependencies = (out.dependencies as Record<string, unknown> | undefined) ?? {};
      if (isObject(value))
        for (const name of Object.keys(value))
          setOwn(dependencies, name, key === 'dependentSchemas' ? convert(value[name]) : cloneJson(value[name]));
      setOwn(out, 'dependencies', dependencies);
    } else if (MAPS.has(key) && isObject(value)) {
      const map: Record<string, unknown> = {};
      for (const name of Object.keys(value)) setOwn(map, name, convert(value[name]));
      setOwn(out, key, map);
    } else if (ARRAYS.has(key) && Array.isArray(value)) setOwn(out, key, value.map(convert));
    else if (SINGLE.has(key)) setOwn(out, key, convert(value));
    else setOwn(out, key, cloneJson(value));
  }
  if (hasOwn(out, 'dependencies') && !isObject(out.dependencies)) delete out.dependencies;
  return out;
}
