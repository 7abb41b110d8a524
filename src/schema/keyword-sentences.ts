/*
 * The short, fixed sentences that tell a model in a description what a schema keyword said (a bound, a
 * default, a pattern, "exactly one of"), for the manifest targets that drop the keyword and for the
 * portable MCP profile that moves it into prose.
 */
import { isObject } from './walk.js';

/** A number or value as the description states it. */
function stated(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

function plural(count: number, word: string, words = `${word}s`): string {
  return `${stated(count)} ${count === 1 ? word : words}`;
}

/** The sentence for one keyword's value; undefined when its value has no words. */
type Sentence = (value: unknown) => string | undefined;

/** The sentence for a keyword whose value is a number (a limit, a bound, a step). */
function ofNumber(say: (value: number) => string): Sentence {
  return (value) => (typeof value === 'number' ? say(value) : undefined);
}

/** The sentence for a keyword whose value is a string. */
function ofString(say: (value: string) => string): Sentence {
  return (value) => (typeof value === 'string' ? say(value) : undefined);
}

/** `dependencies`' property lists as sentences ("With a, also give b."); schema dependencies have no words. */
function dependencySentences(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const sentences = Object.keys(value)
    .filter((name) => Array.isArray(value[name]) && (value[name] as unknown[]).length > 0)
    .map((name) => `With ${name}, also give ${(value[name] as unknown[]).join(', ')}.`);
  return sentences.length > 0 ? sentences.join(' ') : undefined;
}

/** The sentence of each keyword a description can carry when the keyword is dropped. */
const SENTENCES: ReadonlyMap<string, Sentence> = new Map([
  ['minLength', ofNumber((value) => `At least ${plural(value, 'character')}.`)],
  ['maxLength', ofNumber((value) => `At most ${plural(value, 'character')}.`)],
  ['minimum', ofNumber((value) => `At least ${value}.`)],
  ['maximum', ofNumber((value) => `At most ${value}.`)],
  ['exclusiveMinimum', ofNumber((value) => `Greater than ${value}.`)],
  ['exclusiveMaximum', ofNumber((value) => `Less than ${value}.`)],
  ['multipleOf', ofNumber((value) => `A multiple of ${value}.`)],
  ['minItems', ofNumber((value) => `At least ${plural(value, 'item')}.`)],
  ['maxItems', ofNumber((value) => `At most ${plural(value, 'item')}.`)],
  ['minProperties', ofNumber((value) => `At least ${plural(value, 'property', 'properties')}.`)],
  ['maxProperties', ofNumber((value) => `At most ${plural(value, 'property', 'properties')}.`)],
  ['default', (value) => `Default: ${stated(value)}.`],
  ['pattern', ofString((value) => `Matches the pattern ${value}.`)],
  ['format', ofString((value) => `Format: ${value}.`)],
  ['uniqueItems', (value) => (value === true ? 'Items are unique.' : undefined)],
  ['additionalProperties', (value) => (value === false ? 'No other properties.' : undefined)],
  ['const', (value) => `Always ${stated(value)}.`],
  ['enum', (value) => (Array.isArray(value) ? `One of ${value.map(stated).join(', ')}.` : undefined)],
  ['dependencies', dependencySentences],
]);

/**
 * The short, fixed sentence that tells the model what a dropped keyword said, or undefined when there is
 * none (the keyword is then really lost). Kept short: descriptions count against the model's context.
 */
export function carriedText(
  keyword: string,
  value: unknown,
  action: 'dropped' | 'rewritten' | 'omitted' = 'dropped',
): string | undefined {
  // A rewritten keyword has a weaker form in the schema: only `oneOf` sent as `anyOf` has words for the rest.
  if (action === 'rewritten') return keyword === 'oneOf' ? 'Exactly one of the alternatives.' : undefined;
  return SENTENCES.get(keyword)?.(value);
}

/** `description` with `notes` appended (a sentence break added after text without one). */
export function appendDescription(description: unknown, notes: readonly string[]): string {
  const text = typeof description === 'string' ? description.trimEnd() : '';
  if (text === '') return notes.join(' ');
  return `${text}${/[.!?:)]$/.test(text) ? '' : '.'} ${notes.join(' ')}`;
}
