/**
 * JSON pointers (RFC 6901), the one module that builds and reads them, for the runtime and the
 * generator (`codegen/pointer.ts` re-exports it). A pointer's segments are
 * escaped with `~0` (`~`) and `~1` (`/`) only: a property named `50%` is `/properties/50%`. Percent
 * escapes belong to URI fragments (`"$ref": "#/definitions/a%20b"`), which `decodeFragment` decodes
 * once, where a `$ref` is read; nothing else decodes.
 */

/** Escapes one segment: `~` → `~0`, `/` → `~1`. */
export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one segment: `~1` → `/`, `~0` → `~` (in that order, so `~01` stays `~1`). */
export function unescapePointerSegment(segment: string): string {
  return segment.indexOf('~') === -1 ? segment : segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A pointer from unescaped segments: `['properties', 'a/b']` → `/properties/a~1b`. */
export function formatPointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${escapePointerSegment(segment)}`).join('');
}

/**
 * Splits a JSON pointer into unescaped segments. A leading `#` is allowed as a notation for "in this
 * document" and is dropped; the rest is taken as a pointer, never percent-decoded (a `$ref`'s
 * fragment goes through `decodeFragment` first).
 */
export function parsePointer(pointer: string): string[] {
  const body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (body === '') return [];
  return body.split('/').slice(1).map(unescapePointerSegment);
}

/** The result of decoding a URI fragment: the JSON pointer it spells, or why it spells none. */
export type DecodedFragment = { pointer: string } | { error: string };

/** Percent-decodes a part of a URI once; a malformed escape (`%zz`, a lone `%`, bytes that are not UTF-8) is an error. */
export function decodePercent(text: string): { text: string } | { error: string } {
  try {
    return { text: decodeURIComponent(text) };
  } catch {
    const bad = /%(?![0-9A-Fa-f]{2})/.exec(text);
    return {
      error: bad
        ? `has a malformed percent escape "${text.slice(bad.index, bad.index + 3)}" (a literal % is written %25)`
        : 'has percent escapes that do not spell UTF-8 text',
    };
  }
}

/**
 * Decodes a URI fragment (`#/definitions/a%20b`, with or without its `#`) into a JSON pointer, once.
 * A malformed percent escape and a fragment that is not a pointer (`#foo`, an `$id` anchor this
 * generator does not resolve) give an error instead.
 */
export function decodeFragment(fragment: string): DecodedFragment {
  const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  const decoded = decodePercent(body);
  if ('error' in decoded) return decoded;
  if (decoded.text !== '' && !decoded.text.startsWith('/'))
    return { error: `has the fragment "#${body}", which is not a JSON pointer (it must be empty or start with "/")` };
  return { pointer: decoded.text };
}

/** The segments of a local `$ref` (`#/definitions/A~1B` → [definitions, A/B]); undefined when not local or malformed. */
export function parseLocalRef(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined;
  const fragment = decodeFragment(ref);
  return 'error' in fragment ? undefined : parsePointer(fragment.pointer);
}

/** The key of a `#/definitions/<key>` (or `#/$defs/<key>`) ref; undefined for any other ref. */
export function definitionKey(ref: string): string | undefined {
  const segments = parseLocalRef(ref);
  return segments?.length === 2 && (segments[0] === 'definitions' || segments[0] === '$defs') ? segments[1] : undefined;
}

/**
 * The value a local `$ref` (`#`, `#/definitions/X`) points at inside `root`, through own properties
 * and array indices only; undefined when the ref is not local, malformed or points at nothing.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  const segments = parseLocalRef(ref);
  return segments === undefined ? undefined : valueAt(root, segments);
}

/**
 * The value at `segments` inside `root`, through own properties and array indices only (`"01"`,
 * `"-"` or `"length"` on an array is nothing); undefined when absent.
 */
export function valueAt(root: unknown, segments: readonly string[]): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (
      Array.isArray(node)
        ? !/^(0|[1-9][0-9]*)$/.test(segment)
        : node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, segment)
    )
      return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
