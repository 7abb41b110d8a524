import { keywordsWhere, type SubschemaPosition } from './keywords.js';
import { unescapePointerSegment, valueAt } from './json-pointer.js';
import { isObject, mapSubschemas, mergeEntries, setOwn } from './walk.js';

/** The 2020-12 meta-schema URI, as `$schema` declares it. */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

type Node = Record<string, unknown>;

/** Draft-07 keywords whose value is a map of name → schema (the keyword table's). */
const SCHEMA_MAPS = draft07At('map');
/** Draft-07 keywords whose value is an array of schemas. */
const SCHEMA_ARRAYS = draft07At('list');
/**
 * Keywords of 2019-09 and 2020-12 that draft-07 ignores and that validate: they must not start to
 * apply (annotations such as `contentSchema` are kept, meaning nothing in either).
 */
const NOT_IN_DRAFT_07: ReadonlySet<string> = new Set(
  keywordsWhere(
    (info) =>
      (info.origin === '2019-09' || info.origin === '2020-12') &&
      !info.dialects.includes('draft-07') &&
      info.kind !== 'annotation',
  ),
);

function draft07At(position: SubschemaPosition): ReadonlySet<string> {
  return new Set(keywordsWhere((info) => info.subschemas === position && info.dialects.includes('draft-07')));
}

const INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * The 2020-12 tokens of a draft-07 JSON pointer into a schema: keyword tokens renamed as the translation
 * renames them, names and indexes kept.
 */
export function translatePointerTokens(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    const keyword = next === undefined ? undefined : keywordBeforeName(token, next);
    if (keyword === undefined) out.push(token === 'additionalItems' ? 'items' : token);
    else out.push(keyword, tokens[++index]!);
  }
  return out;
}

/** The 2020-12 name of a keyword followed by a name or index in a pointer (`definitions/X` → `$defs/X`); undefined for any other token. */
function keywordBeforeName(token: string, next: string): string | undefined {
  if (SCHEMA_MAPS.has(token)) return token === 'definitions' ? '$defs' : token;
  if (token === 'dependencies') return 'dependentSchemas';
  if (SCHEMA_ARRAYS.has(token)) return token;
  return token === 'items' && INDEX.test(next) ? 'prefixItems' : undefined;
}

/**
 * The tokens of a pointer into the 2020-12 copy of `source` read back in `source`'s own words: where
 * `source` (a draft-07 schema) has no such keyword, `$defs` is its `definitions`, `prefixItems` its
 * tuple `items`, the `items` after a tuple its `additionalItems`, `dependentSchemas` and
 * `dependentRequired` its `dependencies`. Tokens past what `source` holds are kept as they are.
 */
export function sourcePointerTokens(source: unknown, tokens: readonly string[]): string[] {
  const out: string[] = [];
  let node: unknown = source;
  for (const token of tokens) {
    let own = token;
    if (isObject(node) && !Object.hasOwn(node, token)) {
      if (token === '$defs' && Object.hasOwn(node, 'definitions')) own = 'definitions';
      else if (token === 'prefixItems' && Array.isArray(node.items)) own = 'items';
      else if (token === 'items' && Array.isArray(node.items)) own = 'additionalItems';
      else if ((token === 'dependentSchemas' || token === 'dependentRequired') && Object.hasOwn(node, 'dependencies'))
        own = 'dependencies';
    }
    out.push(own);
    node = valueAt(node, [own]);
  }
  return out;
}

/**
 * A `$ref` with its fragment's JSON pointer repointed; other refs (anchors, none) unchanged. Tokens that
 * are not renamed keep their spelling (percent-encoding included).
 */
export function translateRef(ref: string): string {
  const hash = ref.indexOf('#');
  if (hash < 0) return ref;
  const fragment = ref.slice(hash + 1);
  if (!fragment.startsWith('/')) return ref;
  const raw = fragment.slice(1).split('/');
  let decoded: string[];
  try {
    decoded = raw.map((token) => unescapePointerSegment(decodeURIComponent(token)));
  } catch {
    return ref;
  }
  // One token out for each token in: a renamed keyword replaces its token, every other token is kept as written.
  const translated = translatePointerTokens(decoded);
  return `${ref.slice(0, hash)}#/${raw.map((token, index) => (translated[index] === decoded[index] ? token : translated[index]!)).join('/')}`;
}

/**
 * The 2020-12 form of a draft-07 schema object, keyword by keyword in source order, its subschemas
 * translated first; `root`: its `$schema` is kept.
 */
function translate(node: unknown, root: boolean): unknown {
  if (!isObject(node)) return node;
  const translated = mapSubschemas(node, '', (child) => translate(child, false));
  const out: Node = {};
  // `items` is an array: draft-07's tuple form.
  const tuple = Array.isArray(node.items);
  // A `definitions` name is also a `$defs` name: merging would lose one, so `definitions` keeps its own name.
  const defsTaken =
    isObject(node.$defs) &&
    isObject(node.definitions) &&
    Object.keys(node.definitions).some((name) => Object.hasOwn(node.$defs as Node, name));
  for (const key of Object.keys(translated)) {
    const value = translated[key];
    // Left out: what does not apply here (draft-07 reads `additionalItems` only beside a tuple `items`).
    if (NOT_IN_DRAFT_07.has(key) || (key === '$schema' && !root) || (key === 'additionalItems' && !tuple)) continue;
    if (key === '$ref' && typeof value === 'string') setOwn(out, key, translateRef(value));
    else if (key === '$id' && typeof value === 'string' && value.includes('#')) translateIdWithFragment(out, value);
    else if ((key === '$defs' || (key === 'definitions' && !defsTaken)) && isObject(value))
      mergeEntries(out, '$defs', value);
    // A tuple becomes `prefixItems` (an empty tuple constrains nothing).
    else if (key === 'items' && tuple) {
      if ((value as unknown[]).length > 0) setOwn(out, 'prefixItems', value);
    } else if (key === 'additionalItems') setOwn(out, 'items', value);
    else if (key === 'dependencies' && isObject(value)) splitDependencies(out, value);
    else setOwn(out, key, value);
  }
  return out;
}

/** `$id: "base#name"`: the base stays the `$id`, a plain-name fragment becomes `$anchor`. */
function translateIdWithFragment(out: Node, value: string): void {
  const [id, anchor] = [value.slice(0, value.indexOf('#')), value.slice(value.indexOf('#') + 1)];
  if (id !== '') setOwn(out, '$id', id);
  if (/^[A-Za-z][-A-Za-z0-9.:_]*$/.test(anchor)) setOwn(out, '$anchor', anchor);
}

/** Translated `dependencies` split by kind: name arrays into `dependentRequired`, schemas into `dependentSchemas`. */
function splitDependencies(out: Node, value: Node): void {
  for (const name of Object.keys(value))
    mergeEntries(out, Array.isArray(value[name]) ? 'dependentRequired' : 'dependentSchemas', { [name]: value[name] });
}

/**
 * A 2020-12 copy of a draft-07 schema with the same meaning under toolsmith's validators (rules above);
 * `$schema` at the root, if any, is left for the caller to set.
 */
export function toJsonSchema2020(schema: unknown): unknown {
  return translate(schema, true);
}
