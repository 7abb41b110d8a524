/**
 * A schema in a few words, for the call feedback: which subschemas apply at a place of the
 * arguments (`schemasAt`), and what they accept (`describeSchema`: `an integer >= 0`, `one of "a",
 * "b"`, `a date such as "2024-01-31"`). Bounded: a few subschemas per level, a few alternatives.
 */
import { truncateText } from '../errors.js';
import { parsePointer, resolveLocalRef } from '../schema/json-pointer.js';
import { isObject } from '../schema/walk.js';

/** Most allowed values listed; the rest are counted. */
const MAX_LISTED_VALUES = 10;
/** Longest JSON of one listed value, and of a pattern. */
export const MAX_VALUE_LENGTH = 40;
export const MAX_PATTERN_LENGTH = 100;
/** Most alternatives of an `anyOf`/`oneOf` described. */
export const MAX_ALTERNATIVES = 5;
/** Most subschemas followed at one level of the arguments (`$ref`, `allOf`, branches), and `$ref` hops. */
const MAX_NODES = 32;
const MAX_REF_HOPS = 16;

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** `a string or null` for Ajv's `type` parameter (a name, names joined by commas, or a list). */
export function typeWords(type: unknown): string {
  const names = Array.isArray(type) ? type.map(String) : String(type).split(',');
  return names.map((name) => TYPE_WORDS[name] ?? JSON.stringify(name)).join(' or ');
}

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  date: 'a date such as "2024-01-31"',
  time: 'a time such as "09:30:00Z"',
  'date-time': 'a date and time such as "2024-01-31T09:30:00Z"',
  duration: 'an ISO 8601 duration such as "P3DT4H"',
  email: 'an email address such as "name@example.com"',
  hostname: 'a host name such as "example.com"',
  ipv4: 'an IPv4 address such as "192.0.2.1"',
  ipv6: 'an IPv6 address such as "2001:db8::1"',
  uri: 'an absolute URI such as "https://example.com/page"',
  url: 'an absolute URL such as "https://example.com/page"',
  'uri-reference': 'a URI or a relative reference such as "/page"',
  uuid: 'a UUID such as "123e4567-e89b-12d3-a456-426614174000"',
  'json-pointer': 'a JSON pointer such as "/items/0"',
  regex: 'a regular expression',
};

/** A string of `format` in words, with an example for the common formats. */
export function formatWords(format: string): string {
  return FORMAT_WORDS[format] ?? `a string in the ${jsonText(format, MAX_VALUE_LENGTH)} format`;
}

export function count(amount: unknown, singular: string, plural = `${singular}s`): string {
  return `${amount} ${amount === 1 ? singular : plural}`;
}

/** Values as JSON, each truncated, at most `MAX_LISTED_VALUES` (`"a", "b", … and 3 more`). */
export function valueList(values: unknown): string {
  const list = Array.isArray(values) ? values : [];
  const shown = list.slice(0, MAX_LISTED_VALUES).map((value) => jsonText(value, MAX_VALUE_LENGTH));
  const more = list.length > MAX_LISTED_VALUES ? `, … and ${list.length - MAX_LISTED_VALUES} more` : '';
  return `${shown.join(', ')}${more}`;
}

/** JSON text of a value, truncated (`undefined` and what JSON cannot write as their own words). */
export function jsonText(value: unknown, max: number): string {
  return truncateText(safeJson(value) ?? String(typeof value), max);
}

/** JSON text of `value`; undefined for `undefined` and for what cannot be written (a BigInt, a cycle). */
export function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * The subschemas of `root` that apply to the value at an instance path (a pointer, or its
 * segments): from the root through `properties`, `patternProperties`, `additionalProperties`,
 * `items`, `prefixItems`, `additionalItems`, with every `$ref`, `allOf`, `anyOf`, `oneOf`, `then`
 * and `else` on the way followed (a union: enough to name the allowed properties and the expected
 * type). Bounded: at most `MAX_NODES` subschemas per level.
 */
export function schemasAt(root: unknown, path: string | readonly string[]): Array<Record<string, unknown>> {
  let nodes = expand([root], root);
  for (const segment of typeof path === 'string' ? parsePointer(path) : path) {
    const next: unknown[] = [];
    for (const node of nodes) next.push(...childSchemas(node, segment));
    nodes = expand(next, root);
    if (nodes.length === 0) break;
  }
  return nodes;
}

function childSchemas(node: Record<string, unknown>, segment: string): unknown[] {
  const children: unknown[] = [];
  if (isObject(node.properties) && Object.hasOwn(node.properties, segment)) children.push(node.properties[segment]);
  if (isObject(node.patternProperties))
    for (const [pattern, child] of Object.entries(node.patternProperties))
      if (matches(pattern, segment)) children.push(child);
  // Only a name neither `properties` nor a pattern covers falls to `additionalProperties`.
  if (children.length === 0 && isObject(node.additionalProperties)) children.push(node.additionalProperties);
  if (/^(0|[1-9]\d*)$/.test(segment)) {
    const index = Number(segment);
    const tuple = Array.isArray(node.prefixItems)
      ? node.prefixItems
      : Array.isArray(node.items)
        ? node.items
        : undefined;
    if (tuple !== undefined && index < tuple.length) children.push(tuple[index]);
    else if (tuple !== undefined && Array.isArray(node.items)) children.push(node.additionalItems);
    else if (node.items !== undefined) children.push(node.items);
  }
  return children;
}

function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/** The schema objects `nodes` stand for: `$ref`s resolved, `allOf`/`anyOf`/`oneOf`/`then`/`else` added. */
function expand(nodes: readonly unknown[], root: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const seen = new Set<unknown>();
  const queue = [...nodes];
  while (queue.length > 0 && out.length < MAX_NODES) {
    const node = followRefs(queue.shift(), root);
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    out.push(node);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = node[keyword];
      if (Array.isArray(list)) queue.push(...list);
    }
    if (node.then !== undefined) queue.push(node.then);
    if (node.else !== undefined) queue.push(node.else);
  }
  return out;
}

function followRefs(node: unknown, root: unknown): unknown {
  let current = node;
  for (let hops = 0; hops < MAX_REF_HOPS && isObject(current) && typeof current.$ref === 'string'; hops++) {
    const target = resolveLocalRef(root, current.$ref);
    if (target === undefined) return current;
    current = target;
  }
  return current;
}

export function typesOf(node: Record<string, unknown>): string[] {
  const type = node.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((name): name is string => typeof name === 'string');
  return [];
}

/**
 * One schema in a few words: `exactly "circle"`, `one of "a", "b"`, `an integer >= 0`, `a date such
 * as "2024-01-31"`, `an object with "kind": "circle"`, alternatives joined by `or` (one level deep).
 */
export function describeSchema(schema: unknown, root: unknown, depth: number): string | undefined {
  const node = followRefs(schema, root);
  if (node === true) return 'any value';
  if (!isObject(node)) return undefined;
  if (Object.hasOwn(node, 'const')) return `exactly ${jsonText(node.const, MAX_VALUE_LENGTH)}`;
  if (Array.isArray(node.enum)) return `one of ${valueList(node.enum)}`;
  let types = typesOf(node);
  if (types.length === 0 && isObject(node.properties)) types = ['object'];
  if (types.length === 0 && node.items !== undefined) types = ['array'];
  if (types.length === 0) {
    const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (branches === undefined || depth > 1) return undefined;
    const words = branches.map((branch) => describeSchema(branch, root, depth + 1) ?? 'any value');
    return words.slice(0, MAX_ALTERNATIVES).join(' or ');
  }
  return types.map((type) => describeType(node, type)).join(' or ');
}

function describeType(node: Record<string, unknown>, type: string): string {
  if (type === 'string') {
    if (typeof node.format === 'string') return formatWords(node.format);
    const bounds: string[] = [];
    if (typeof node.minLength === 'number') bounds.push(`at least ${count(node.minLength, 'character')}`);
    if (typeof node.maxLength === 'number') bounds.push(`at most ${count(node.maxLength, 'character')}`);
    if (typeof node.pattern === 'string') bounds.push(`matching ${jsonText(node.pattern, MAX_PATTERN_LENGTH)}`);
    return bounds.length === 0 ? 'a string' : `a string of ${bounds.join(', ')}`.replace('of matching', 'matching');
  }
  if (type === 'number' || type === 'integer') {
    const bounds: string[] = [];
    for (const [keyword, comparison] of NUMBER_BOUNDS) {
      const limit = node[keyword];
      if (typeof limit === 'number') bounds.push(`${comparison} ${limit}`);
    }
    return [TYPE_WORDS[type], ...bounds].join(' ');
  }
  if (type === 'object') return `an object${objectShape(node)}`;
  return TYPE_WORDS[type] ?? JSON.stringify(type);
}

const NUMBER_BOUNDS = [
  ['minimum', '>='],
  ['exclusiveMinimum', '>'],
  ['maximum', '<='],
  ['exclusiveMaximum', '<'],
] as const;

/** ` with "kind": "circle"` for a property held to one value, else ` with "a", "b"` for its required ones. */
function objectShape(node: Record<string, unknown>): string {
  const properties = isObject(node.properties) ? node.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (isObject(property) && Object.hasOwn(property, 'const'))
      return ` with ${JSON.stringify(name)}: ${jsonText(property.const, MAX_VALUE_LENGTH)}`;
  }
  const required = Array.isArray(node.required) ? node.required.filter((name) => typeof name === 'string') : [];
  return required.length === 0 ? '' : ` with ${valueList(required)}`;
}
