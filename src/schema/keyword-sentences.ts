/*
 * The short, fixed sentences that tell a model in a description what a schema keyword said (a bound, a
 * default, a pattern, "exactly one of"), for the manifest targets that drop the keyword and for the
 * portable MCP profile that moves it into prose; and what a loss report says the model is not told.
 */
import { isObject } from './walk.js';

/** A number or value as the description states it. */
function stated(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
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

/** The sentence for a keyword that has words only for one value (`uniqueItems: true`). */
function ofValue(expected: unknown, sentence: string): Sentence {
  return (value) => (value === expected ? sentence : undefined);
}

/** What the model is not told when a manifest drops a keyword, and the sentence that tells it instead. */
type KeywordWords = readonly [notTold: string, sentence?: Sentence];

/**
 * keyword → what the model is not told when a manifest drops it ("the length limit", for the loss
 * report) and, when its value has words, the sentence a description carries instead.
 */
const KEYWORD_WORDS: ReadonlyMap<string, KeywordWords> = new Map<string, KeywordWords>([
  ['minLength', ['the length limit', ofNumber((value) => `At least ${plural(value, 'character')}.`)]],
  ['maxLength', ['the length limit', ofNumber((value) => `At most ${plural(value, 'character')}.`)]],
  ['pattern', ['the pattern', ofString((value) => `Matches the pattern ${value}.`)]],
  ['format', ['the format', ofString((value) => `Format: ${value}.`)]],
  ['minimum', ['the bound', ofNumber((value) => `At least ${value}.`)]],
  ['maximum', ['the bound', ofNumber((value) => `At most ${value}.`)]],
  ['exclusiveMinimum', ['the bound', ofNumber((value) => `Greater than ${value}.`)]],
  ['exclusiveMaximum', ['the bound', ofNumber((value) => `Less than ${value}.`)]],
  ['multipleOf', ['the step', ofNumber((value) => `A multiple of ${value}.`)]],
  ['minItems', ['the size limit', ofNumber((value) => `At least ${plural(value, 'item')}.`)]],
  ['maxItems', ['the size limit', ofNumber((value) => `At most ${plural(value, 'item')}.`)]],
  ['minProperties', ['the size limit', ofNumber((value) => `At least ${plural(value, 'property', 'properties')}.`)]],
  ['maxProperties', ['the size limit', ofNumber((value) => `At most ${plural(value, 'property', 'properties')}.`)]],
  ['uniqueItems', ['that items must be unique', ofValue(true, 'Items are unique.')]],
  ['contains', ['what the array must contain']],
  ['propertyNames', ['the rule for property names']],
  ['patternProperties', ['the properties matched by pattern']],
  ['additionalProperties', ['whether other properties are allowed', ofValue(false, 'No other properties.')]],
  ['dependencies', ['which properties depend on others', dependencySentences]],
  ['allOf', ['these extra constraints']],
  ['not', ['what is excluded']],
  ['if', ['the conditional constraint']],
  ['then', ['the conditional constraint']],
  ['else', ['the conditional constraint']],
  [
    'enum',
    ['the allowed values', (value) => (Array.isArray(value) ? `One of ${value.map(stated).join(', ')}.` : undefined)],
  ],
  ['const', ['the required value', (value) => `Always ${stated(value)}.`]],
  ['items', ['the position of each item']],
  ['additionalItems', ['the rule for extra items']],
  ['contentMediaType', ['the content type']],
  ['contentEncoding', ['the content encoding']],
  ['default', ['the default', (value) => `Default: ${stated(value)}.`]],
]);

/** What the model is not told when `keyword` is dropped ("the length limit"; "this constraint" for the rest). */
export function notToldOf(keyword: string): string {
  return KEYWORD_WORDS.get(keyword)?.[0] ?? 'this constraint';
}

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
  return KEYWORD_WORDS.get(keyword)?.[1]?.(value);
}

/** `description` with `notes` appended (a sentence break added after text without one). */
export function appendDescription(description: unknown, notes: readonly string[]): string {
  const text = typeof description === 'string' ? description.trimEnd() : '';
  if (text === '') return notes.join(' ');
  return `${text}${/[.!?:)]$/.test(text) ? '' : '.'} ${notes.join(' ')}`;
}
