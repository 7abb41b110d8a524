import { formatPointer } from './pointer.js';

/**
 * One pass over a JSON text, outside the parsers, for what they cannot be trusted with: how deep it
 * nests (JSON.parse, jsonc-parser, Ajv, json-schema-to-typescript, ts-morph and prettier all recurse
 * and overflow the stack somewhere between 140 and 5,000 levels) and how many object keys it
 * spells (a parsed value with fewer has lost a duplicate key).
 */
export interface JsonScan {
  /** Object keys in the text: string literals followed by a colon. */
  keys: number;
  /** Offset of the first `{` or `[` opened deeper than the limit, if any. */
  tooDeepAt?: number;
}

/**
 * The deepest nesting a definition or shared schema file may have: objects and arrays inside one
 * another, the file's root being level 1. Measured with one tool per nesting keyword (`properties`,
 * `items`, `additionalProperties`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`,
 * `patternProperties`, `dependencies`, tuple `items`), each nested as deep as a limit allows:
 * generate succeeds at 160 levels and overflows the stack in prettier at 200 (json-schema-to-typescript
 * and ts-morph give out near 300 levels of schema, Ajv near 600, JSON.parse near 5,000); but `tsc`
 * on the generated base classes reports "excessive stack depth" for `anyOf` nested 40 deep (84
 * levels) and passes at 32 (68 levels). 64 keeps every accepted file type-checking.
 */
export const MAX_JSON_DEPTH = 64;

/** Counts keys and finds the first container deeper than `maxDepth` (quotes occur in JSON only around strings). */
export function scanJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonScan {
  let keys = 0;
  let depth = 0;
  let tooDeepAt: number | undefined;
  const length = text.length;
  for (let at = 0; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code === 34) {
      const end = stringEnd(text, at);
      if (end === -1) break;
      let next = end + 1;
      let after = text.charCodeAt(next);
      while (after === 32 || after === 10 || after === 13 || after === 9) after = text.charCodeAt(++next);
      if (after === 58) keys++;
      at = end;
    } else if (code === 123 || code === 91) {
      depth++;
      if (depth > maxDepth && tooDeepAt === undefined) tooDeepAt = at;
    } else if (code === 125 || code === 93) {
      depth--;
    }
  }
  return tooDeepAt === undefined ? { keys } : { keys, tooDeepAt };
}

/** The offset of the quote that closes the string opened at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let end = start + 1;
  for (;;) {
    end = text.indexOf('"', end);
    if (end === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return end;
    end++;
  }
}

/** The JSON pointer of the value that starts at `offset` in a JSON text (read up to there, without a parser). */
export function pointerAt(text: string, offset: number): string {
  const path: (string | number)[] = [];
  // Per open container: an object's current key (undefined before its first), or an array's index.
  const frames: ('object' | 'array')[] = [];
  for (let at = 0; at < offset && at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 34) {
      const end = stringEnd(text, at);
      if (end === -1) break;
      let next = end + 1;
      let after = text.charCodeAt(next);
      while (after === 32 || after === 10 || after === 13 || after === 9) after = text.charCodeAt(++next);
      if (after === 58 && frames[frames.length - 1] === 'object') {
        let key: string;
        try {
          key = JSON.parse(text.slice(at, end + 1)) as string;
        } catch {
          key = text.slice(at + 1, end);
        }
        path[frames.length - 1] = key;
      }
      at = end;
    } else if (code === 123 || code === 91) {
      frames.push(code === 123 ? 'object' : 'array');
      if (code === 91) path[frames.length - 1] = 0;
      else path.length = frames.length - 1;
    } else if (code === 125 || code === 93) {
      frames.pop();
      path.length = frames.length;
    } else if (code === 44 && frames[frames.length - 1] === 'array') {
      path[frames.length - 1] = (path[frames.length - 1] as number) + 1;
    }
  }
  return formatPointer(path.slice(0, frames.length));
}
