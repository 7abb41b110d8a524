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

function plural(count: unknown, word: string): string {
  return `${stated(count)} ${word}${count === 1 ? '' : 's'}`;
}

/** The sentence for a keyword whose value is a number (a limit, a bound, a step), by keyword. */
const NUMBER_SENTENCES: ReadonlyMap<string, (value: number) => string> = new Map([
  ['minLength', (value: number) => `At least ${plural(value, 'character')}.`],
  ['maxLength', (value: number) => `At most ${plural(value, 'character')}.`],
  ['minimum', (value: number) => `At least ${value}.`],
  ['maximum', (value: number) => `At most ${value}.`],
  ['exclusiveMinimum', (value: number) => `Greater than ${value}.`],
  ['exclusiveMaximum', (value: number) => `Less than ${value}.`],
  ['multipleOf', (value: number) => `A multiple of ${value}.`],
  ['minItems', (value: number) => `At least ${plural(value, 'item')}.`],
  ['maxItems', (value: number) => `At most ${plural(value, 'item')}.`],
  ['minProperties', (value: number) => `At least ${plural(value, 'property').replace(/propertys$/, 'properties')}.`],
  ['maxProperties', (value: number) => `At most ${plural(value, 'property').replace(/propertys$/, 'properties')}.`],
]);

/** `dependencies`' property lists as sentences ("With a, also give b."); schema dependencies have no words. */
function dependencySentences(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const sentences = Object.keys(value)
    .filter((name) => Array.isArray(value[name]) && (value[name] as unknown[]).length > 0)
    .map((name) => `With ${name}, also give ${(value[name] as unknown[]).join(', ')}.`);
  return sentences.length > 0 ? sentences.join(' ') : undefined;
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
  if (action === 'rewritten' && keyword !== 'oneOf') return undefined;
  const numberSentence = NUMBER_SENTENCES.get(keyword);
  if (numberSentence !== undefined) return typeof value === 'number' ? numberSentence(value) : undefined;
  switch (keyword) {
    case 'default':
      return `Default: ${stated(value)}.`;
    case 'pattern':
      return typeof value === 'string' ? `Matches the pattern ${value}.` : undefined;
    case 'format':
      return typeof value === 'string' ? `Format: ${value}.` : undefined;
    case 'uniqueItems':
      return value === true ? 'Items are unique.' : undefined;
    case 'additionalProperties':
      return value === false ? 'No other properties.' : undefined;
    case 'const':
      return `Always ${stated(value)}.`;
    case 'enum':
      return Array.isArray(value) ? `One of ${value.map(stated).join(', ')}.` : undefined;
    case 'oneOf':
      return action === 'rewritten' ? 'Exactly one of the alternatives.' : undefined;
    case 'dependencies':
      return dependencySentences(value);
    default:
      return undefined;
  }
}

/** `description` with `notes` appended (a sentence break added after text without one). */
export function appendDescription(description: unknown, notes: readonly string[]): string {
  const text = typeof description === 'string' ? description.trimEnd() : '';
  if (text === '') return notes.join(' ');
  return `${text}${/[.!?:)]$/.test(text) ? '' : '.'} ${notes.join(' ')}`;
}
