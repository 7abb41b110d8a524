/**
 * The JSON Schema dialects toolsmith accepts (draft-07, the default, and 2020-12, which MCP and
 * pydantic emit) and the one rule for keywords and formats neither the dialect nor Ajv knows:
 * a near-typo of a known one (`requried`, `emial`) is an error, anything else (`optional`,
 * `markdownDescription`, a vendor annotation, `format: "json"`) is ignored, as the specification
 * says, and only warned about by the generator. Shared by the generator and the runtime compiler
 * so both accept exactly the same schemas. Its keyword lists come from the keyword table.
 */
import type { Logger } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { nearestName } from '../text/nearest-name.js';
import { resolveLocalRef } from './json-pointer.js';
import { keywordsOfDialect, SCHEMA_KEYWORDS, type SchemaDialect } from './keywords.js';
import { forEachSubschema, isObject, schemaEntries } from './walk.js';

/** The `$schema` URI of each dialect, as toolsmith writes it. */
export const DIALECT_URIS: Readonly<Record<SchemaDialect, string>> = Object.freeze({
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
});

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * The dialect a schema declares with its root `$schema`: draft-07 when it declares none, `undefined`
 * for any other `$schema` (draft-04, 2019-09, a custom meta-schema), which is not supported.
 */
export function schemaDialect(schema: unknown): SchemaDialect | undefined {
  if (!isObject(schema) || !Object.hasOwn(schema, '$schema')) return 'draft-07';
  const uri = schema.$schema;
  if (typeof uri !== 'string') return undefined;
  return DRAFT_07.test(uri) ? 'draft-07' : DRAFT_2020_12.test(uri) ? '2020-12' : undefined;
}

/**
 * The keywords of each dialect (the keyword table's): draft-07's with `$defs` (Ajv's draft-07 class
 * knows it and `$ref` resolves into it) and `deprecated`; 2020-12's with `definitions` (still written
 * by many tools; Ajv resolves `$ref` into it).
 */
const DIALECT_KEYWORDS: Readonly<Record<SchemaDialect, ReadonlySet<string>>> = {
  'draft-07': keywordsOfDialect('draft-07'),
  '2020-12': keywordsOfDialect('2020-12'),
};

/** Keywords of other specifications that are never typos, though one edit from a JSON Schema keyword. */
const FOREIGN_ANNOTATIONS = new Set(['example']);

/** How a keyword of a schema object is treated. */
export type KeywordVerdict =
  | { kind: 'known' }
  /** Not the dialect's, not a near-typo: ignored (the generator warns). */
  | { kind: 'ignored' }
  /** A near-typo of `suggestion`: an error. */
  | { kind: 'typo'; suggestion: string }
  /** Given a meaning by Ajv that the dialect does not have (`ajvMeaning` in the keyword table): an error. */
  | { kind: 'ajv-only' }
  /** Of the other supported dialect (`prefixItems` in draft-07, `additionalItems` in 2020-12): ignored there. */
  | { kind: 'other-dialect'; dialect: SchemaDialect };

/** The verdict on one keyword; `x-` extension keywords are known. */
export function classifyKeyword(keyword: string, dialect: SchemaDialect): KeywordVerdict {
  const known = DIALECT_KEYWORDS[dialect];
  if (known.has(keyword) || keyword.startsWith('x-')) return { kind: 'known' };
  // Outside the dialect but given a meaning by Ajv (`nullable`, ajv-formats' `formatMaximum`, 2020-12's `dependencies`).
  if (SCHEMA_KEYWORDS.get(keyword)?.ajvMeaning?.includes(dialect) === true) return { kind: 'ajv-only' };
  const other: SchemaDialect = dialect === '2020-12' ? 'draft-07' : '2020-12';
  if (DIALECT_KEYWORDS[other].has(keyword)) return { kind: 'other-dialect', dialect: other };
  if (FOREIGN_ANNOTATIONS.has(keyword)) return { kind: 'ignored' };
  const suggestion = nearestName(keyword, known);
  return suggestion === undefined ? { kind: 'ignored' } : { kind: 'typo', suggestion };
}

/** Formats ajv-formats validates (its full set, as the generator's Ajv and the runtime's validators know them). */
export const KNOWN_FORMATS: readonly string[] = Object.freeze(Object.keys(fullFormats));

/**
 * The verdict on a `format` value: known, a near-typo of a known one (an error), or unknown and so
 * ignored (every value passes; the generator warns).
 */
export function classifyFormat(
  format: string,
): { kind: 'known' } | { kind: 'ignored' } | { kind: 'typo'; suggestion: string } {
  if (KNOWN_FORMATS.includes(format)) return { kind: 'known' };
  const suggestion = nearestName(format, KNOWN_FORMATS);
  return suggestion === undefined ? { kind: 'ignored' } : { kind: 'typo', suggestion };
}

const UNKNOWN_KEYWORD_MESSAGE = /^strict mode: unknown keyword: "([\s\S]*)"$/; // [\s\S]: a keyword may hold line breaks
const IGNORED_DEFAULT_MESSAGE = /^strict mode: default is ignored (in the schema root|for: )/;

/**
 * An Ajv `logger` for `strictSchema: "log"` that keeps strict mode's errors but for what draft-07
 * (and 2020-12) say is ignored: unknown keywords that are no near-typo and defaults Ajv never fills
 * in (at a schema root, inside `anyOf`/`oneOf`/`not`/`if`). Any other strict-mode complaint is
 * thrown, exactly as `strict: true` would. The generator reports the ignored ones as warnings, with
 * their positions, before it compiles.
 */
export function lenientStrictLogger(dialect: SchemaDialect): Logger {
  return {
    log: () => {},
    warn: (...args: unknown[]) => {
      const message = args.map(String).join(' ');
      if (IGNORED_DEFAULT_MESSAGE.test(message)) return;
      const unknown = UNKNOWN_KEYWORD_MESSAGE.exec(message);
      if (unknown !== null) {
        const verdict = classifyKeyword(unknown[1]!, dialect);
        // `known`: an `x-` extension or an annotation of the dialect that Ajv has no code for.
        if (verdict.kind === 'known' || verdict.kind === 'ignored' || verdict.kind === 'other-dialect') return;
        if (verdict.kind === 'typo') throw new Error(`${message} (did you mean "${verdict.suggestion}"?)`);
      }
      throw new Error(message);
    },
    error: (...args: unknown[]) => {
      throw new Error(args.map(String).join(' '));
    },
  };
}

/** Every `format` string used anywhere in a schema (a superset: any `format` key with a string value). */
export function formatsIn(schema: unknown): Set<string> {
  const formats = new Set<string>();
  for (const [key, value] of schemaEntries(schema))
    if (key === 'format' && typeof value === 'string') formats.add(value);
  return formats;
}

/** Where a `default` Ajv never fills in sits, and why (see `findIgnoredDefaults`). */
export interface IgnoredDefault {
  /** JSON pointer of the schema node that carries the `default`. */
  readonly pointer: string;
  readonly value: unknown;
  /**
   * `composite`: inside `keyword` (anyOf, oneOf, not, if, contains, propertyNames); `root`;
   * `definition`; `other`: under `keyword` (items, additionalProperties, an anyOf branch itself, ...).
   */
  readonly reason:
    | { kind: 'composite'; keyword: string }
    | { kind: 'root' }
    | { kind: 'definition' }
    | { kind: 'other'; keyword: string };
}

const COMPOSITE = new Set(['anyOf', 'oneOf', 'not', 'if', 'contains', 'propertyNames']);

function containsRef(schema: unknown): boolean {
  for (const [key, value] of schemaEntries(schema)) if (key === '$ref' && typeof value === 'string') return true;
  return false;
}

/**
 * Every `default` Ajv never fills in. Ajv fills in a default only where it is a property's schema
 * (or a draft-07 tuple item's), and only outside `anyOf`, `oneOf`, `not`, `if`, `contains` and
 * `propertyNames`, where the value's shape is certain (`assignDefaults` in Ajv; its strict-mode
 * message names a generated variable, "default is ignored for: data5.exact", not a position). So a
 * default at the root, on a definition (rather than beside the `$ref` that uses it), on an `items`
 * or `additionalProperties` schema, or inside one of those keywords is valid but never used. A
 * `$ref` met inside such a keyword is followed when Ajv inlines its target (one without `$ref`s of
 * its own). The generator warns about each (with its position); neither it nor the runtime checks
 * them against their schemas, since they can never be filled in and then rejected.
 */
export function findIgnoredDefaults(schema: unknown): IgnoredDefault[] {
  const found = new Map<string, IgnoredDefault>();
  const followed = new Set<string>();
  const visit = (
    node: unknown,
    pointer: string,
    place: { keyword: string; fillable: boolean; composite?: string },
    depth: number,
  ) => {
    if (!isObject(node) || depth > 256) return;
    if (Object.hasOwn(node, 'default') && !(place.fillable && place.composite === undefined) && !found.has(pointer)) {
      const reason: IgnoredDefault['reason'] =
        place.composite !== undefined
          ? { kind: 'composite', keyword: place.composite }
          : pointer === ''
            ? { kind: 'root' }
            : place.keyword === 'definitions' || place.keyword === '$defs'
              ? { kind: 'definition' }
              : { kind: 'other', keyword: place.keyword };
      found.set(pointer, { pointer, value: node.default, reason });
    }
    // A local `$ref` inside one of those keywords, followed once.
    const ref = place.composite === undefined ? undefined : node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && !followed.has(ref)) {
      followed.add(ref);
      const target = resolveLocalRef(schema, ref);
      if (isObject(target) && !containsRef(target))
        visit(target, ref.slice(1), { keyword: '$ref', fillable: true, composite: place.composite }, depth + 1);
    }
    const tuple = Array.isArray(node.items);
    forEachSubschema(node, pointer, (child, childPointer, { keyword }) => {
      const composite = place.composite ?? (COMPOSITE.has(keyword) ? keyword : undefined);
      const fillable = keyword === 'properties' || (keyword === 'items' && tuple);
      visit(child, childPointer, { keyword, fillable, composite }, depth + 1);
    });
  };
  visit(schema, '', { keyword: '', fillable: false }, 0);
  return [...found.values()];
}
