/**
 * Asking the user something in the middle of a call (MCP elicitation): a message and the form to
 * fill (`requestedSchema`, a flat object of primitives as MCP requires), answered with an action
 * and, when accepted, the form's content. toolsmith checks the form before anything is sent and
 * the answer against the form before the tool sees it.
 */

import { truncateText } from '../errors.js';
import { isObject } from '../schema/walk.js';

/** What a tool (or the approval gate) asks the user. */
export interface ElicitRequest {
  /** What to show the user. */
  message: string;
  /**
   * The form: `{ type: 'object', properties, required? }` whose properties are strings (optionally
   * with `format` email/uri/date/date-time, `enum`, `oneOf` of titled `const`s), numbers, integers,
   * booleans, or arrays of enum strings (multi-select).
   */
  requestedSchema: Record<string, unknown>;
}

/** The user's answer: `accept` with the form's content, `decline`, or `cancel` (dismissed). */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/**
 * Why an elicitation (or a model call) failed before the tool got an answer: a form MCP does not
 * allow, an answer that does not fit its question, or a client that turned out not to be able to ask
 * (it refused the request).
 */
export class ElicitationError extends Error {
  constructor(
    readonly code:
      | 'ELICITATION_FORM_INVALID'
      | 'ELICITATION_ANSWER_INVALID'
      | 'ELICITATION_UNAVAILABLE'
      | 'SAMPLING_UNAVAILABLE'
      | 'SAMPLING_ANSWER_INVALID',
    message: string,
  ) {
    super(message);
    this.name = 'ElicitationError';
  }
}

/** A model call the tool asks the client to make (MCP sampling, `sampling/createMessage`). */
export interface SampleRequest {
  messages: { role: 'user' | 'assistant'; content: { type: 'text'; text: string } | Record<string, unknown> }[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What the client's model answered. */
export interface SampleResult {
  role: 'assistant' | 'user';
  content: { type: string; text?: string; [key: string]: unknown } | Record<string, unknown>;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** Asks the caller's client for a model call; absent when it cannot. */
export type Sample = (request: SampleRequest) => Promise<SampleResult>;

/** Asks the user through the caller (an MCP client that can elicit); absent when the caller cannot. */
export type Elicit = (request: ElicitRequest) => Promise<ElicitAnswer>;

/** Most fields a form may have. */
export const MAX_FORM_FIELDS = 50;
/** Most choices (enum values, titled consts) a form may offer, all its fields together. */
export const MAX_FORM_CHOICES = 1_000;
/** Most characters an accepted answer's content may take as JSON. */
export const MAX_ANSWER_LENGTH = 64 * 1024;

/** A set of the words of `list`. */
const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));
/** Keywords that only annotate: allowed anywhere in a form, they change nothing the user answers. */
const ANNOTATIONS = words('title description $comment examples deprecated readOnly writeOnly');
const ROOT_KEYWORDS = words('$schema type properties required additionalProperties');
/** The keywords of each kind of field MCP's forms carry (the spec's `PrimitiveSchemaDefinition`). */
const FIELD_KEYWORDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['string', words('type default minLength maxLength format enum enumNames oneOf')],
  ['number', words('type default minimum maximum')],
  ['integer', words('type default minimum maximum')],
  ['boolean', words('type default')],
  ['array', words('type default minItems maxItems items')],
]);
const ITEM_KEYWORDS = words('type enum anyOf');
const CHOICE_KEYWORDS = words('const');
const NUMBER_KEYWORDS = words('minLength maxLength minimum maximum minItems maxItems');
const STRING_FORMATS = words('email uri date date-time');
const FLAT = 'MCP forms are flat objects of string, number, integer, boolean and multi-select fields';

/** The first keyword of `schema` not in `allowed` (annotations aside). */
function unknownKeyword(schema: Record<string, unknown>, allowed: ReadonlySet<string>): string | undefined {
  return Object.keys(schema).find((key) => !allowed.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-'));
}

/**
 * What is wrong with `schema` as an elicitation form, or `undefined` when MCP carries it: a keyword
 * MCP's forms do not have (`$ref`, `allOf`, `if`, `pattern`, a schema as `additionalProperties`…) is
 * named, and nothing under it is read, so a form's depth is bounded by its shape; more than
 * `MAX_FORM_FIELDS` fields or `MAX_FORM_CHOICES` choices is refused before any is read.
 */
export function elicitationSchemaProblem(schema: unknown): string | undefined {
  if (!isObject(schema)) return 'requestedSchema must be an object schema ({ type: "object", properties: { ... } }).';
  const { type, properties, required, additionalProperties } = schema;
  const extra = unknownKeyword(schema, ROOT_KEYWORDS);
  if (extra !== undefined) return `requestedSchema.${extra}: MCP forms do not carry '${extra}' (${FLAT}).`;
  if (type !== 'object') return `requestedSchema must have type "object"; got ${JSON.stringify(type)}.`;
  if (additionalProperties !== undefined && additionalProperties !== false)
    return `requestedSchema.additionalProperties: MCP forms carry only false here (${FLAT}).`;
  if (!isObject(properties)) return 'requestedSchema.properties must be an object naming the form fields.';
  const names = Object.keys(properties);
  if (names.length > MAX_FORM_FIELDS)
    return `requestedSchema.properties has ${names.length} fields, more than a form may have (${MAX_FORM_FIELDS}).`;
  if (required !== undefined && (!Array.isArray(required) || required.some((name) => typeof name !== 'string')))
    return 'requestedSchema.required must be an array of field names.';
  const choices = { left: MAX_FORM_CHOICES };
  for (const name of names) {
    const problem = fieldProblem(properties[name], choices);
    if (problem !== undefined) return `requestedSchema.properties.${name}${problem}`;
  }
  for (const name of (required as string[] | undefined) ?? [])
    if (!Object.hasOwn(properties, name)) return `requestedSchema.required names '${name}', which is not a field.`;
  return undefined;
}

/** What is wrong with one field (`.keyword: sentence` or `: sentence`), counting its choices. */
function fieldProblem(field: unknown, choices: { left: number }): string | undefined {
  if (!isObject(field)) return ': a field must be a schema object.';
  const allowed = typeof field.type === 'string' ? FIELD_KEYWORDS.get(field.type) : undefined;
  if (allowed === undefined)
    return `: a field must be a string, number, integer or boolean, or an array of choices (${FLAT}); got type ${JSON.stringify(field.type)}.`;
  const extra = unknownKeyword(field, allowed);
  if (extra !== undefined)
    return `.${extra}: MCP forms do not carry '${extra}' on a ${String(field.type)} field (${FLAT}).`;
  for (const [keyword, value] of Object.entries(field)) {
    if (NUMBER_KEYWORDS.has(keyword) && typeof value !== 'number') return `.${keyword} must be a number.`;
    if (
      (keyword === 'enum' || keyword === 'enumNames') &&
      !isStringList(value, keyword === 'enum' ? choices : undefined)
    )
      return `.${keyword} must be an array of at most ${MAX_FORM_CHOICES} strings in all the form's fields.`;
    if (keyword === 'oneOf' && !isTitledChoices(value, choices))
      return `.oneOf must be choices { const: string, title: string }, at most ${MAX_FORM_CHOICES} in all the form's fields.`;
  }
  if (field.default !== undefined && !fitsType(field.default, field.type))
    return `.default must be ${field.type === 'integer' ? 'an integer' : field.type === 'array' ? 'an array of strings' : `a ${String(field.type)}`}.`;
  if (field.format !== undefined && (typeof field.format !== 'string' || !STRING_FORMATS.has(field.format)))
    return `.format: ${JSON.stringify(field.format)} is not one MCP forms allow (email, uri, date, date-time).`;
  if (field.type !== 'array') return undefined;
  const items = field.items;
  const multiSelect =
    isObject(items) &&
    unknownKeyword(items, ITEM_KEYWORDS) === undefined &&
    (items.type === undefined || items.type === 'string') &&
    (items.enum === undefined ? isTitledChoices(items.anyOf, choices) : isStringList(items.enum, choices));
  return multiSelect
    ? undefined
    : `.items: an array field is a multi-select, items { type: "string", enum } or { anyOf: [{ const, title }] }, at most ${MAX_FORM_CHOICES} choices in all the form's fields.`;
}

/** True for an array of strings; counted against `choices` (before it is read) when given. */
function isStringList(value: unknown, choices: { left: number } | undefined): boolean {
  if (!Array.isArray(value) || (choices !== undefined && (choices.left -= value.length) < 0)) return false;
  return value.every((item) => typeof item === 'string');
}

/** True for an array of `{ const: string, title: string }`, counted against `choices` before it is read. */
function isTitledChoices(value: unknown, choices: { left: number }): boolean {
  if (!Array.isArray(value) || (choices.left -= value.length) < 0) return false;
  return value.every(
    (choice) =>
      isObject(choice) &&
      typeof choice.const === 'string' &&
      typeof choice.title === 'string' &&
      unknownKeyword(choice, CHOICE_KEYWORDS) === undefined,
  );
}

/**
 * Wraps `ask` (the caller's way to reach the user) into the `context.elicit` a tool gets: the form is
 * checked before it is sent (`ELICITATION_FORM_INVALID` naming the keyword), the answer after (an
 * accepted answer whose content is not the form's fields — no other key, `__proto__` and
 * `constructor` included — or does not fit them, or is over `MAX_ANSWER_LENGTH`, is
 * `ELICITATION_ANSWER_INVALID`, and the tool never sees it; the content is a copy with the form's
 * defaults filled in).
 */
export function checkedElicit(ask: Elicit): Elicit {
  return async (request) => {
    if (request === null || typeof request !== 'object' || typeof request.message !== 'string')
      throw new ElicitationError('ELICITATION_FORM_INVALID', 'elicit needs { message: string, requestedSchema }.');
    const problem = elicitationSchemaProblem(request.requestedSchema);
    if (problem !== undefined) throw new ElicitationError('ELICITATION_FORM_INVALID', `elicit: ${problem}`);
    const answer = await ask(request);
    const action = answer?.action;
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel')
      throw invalidAnswer(`the client answered action ${JSON.stringify(action)}.`);
    if (action !== 'accept') return { action };
    const form = request.requestedSchema as Form;
    const content = answerContent(answer.content, form.properties);
    // Loaded here: the runtime's formats and coercion sit below the call pipeline, which hands tools this function.
    const issues = answerProblems(content, form, await import('../schema/validator-runtime.js'));
    if (issues.length > 0) throw invalidAnswer(`the answer does not fit the form: ${issues.slice(0, 5).join('; ')}.`);
    return { action, content: content as ElicitAnswer['content'] };
  };
}

/** `ELICITATION_ANSWER_INVALID`: the tool never sees an answer that does not fit its question. */
function invalidAnswer(why: string): ElicitationError {
  return new ElicitationError('ELICITATION_ANSWER_INVALID', `elicit: ${why}`);
}

type Runtime = typeof import('../schema/validator-runtime.js');
/** A form `elicitationSchemaProblem` has passed. */
type Form = { properties: Record<string, Record<string, unknown>>; required?: string[] };
/** One of ajv-formats' formats, as its `fullFormats` holds them. */
type Format = RegExp | ((text: string) => boolean) | { validate: (text: string) => boolean };

/**
 * The problems of `content` (a copy, filled in place) as the answer to `form`, field by field —
 * nothing is compiled, so a form costs the same to check however it was built: a missing field gets
 * its default; a value of another type is coerced by the rules arguments are (`coerceValue`); then
 * the field's choices, format and bounds.
 */
function answerProblems(content: Record<string, unknown>, form: Form, runtime: Runtime): string[] {
  const problems: string[] = [];
  for (const [name, field] of Object.entries(form.properties)) {
    if (!Object.hasOwn(content, name)) {
      if (field.default !== undefined) content[name] = structuredClone(field.default);
      else if (form.required?.includes(name) === true) problems.push(`'${name}' is required`);
      continue;
    }
    const problem = valueProblem(content, name, field, runtime);
    if (problem !== undefined) problems.push(`'${name}' ${problem}`);
  }
  return problems;
}

/** What is wrong with `content[name]` as the answer to `field` (coerced in place when it can be). */
function valueProblem(
  content: Record<string, unknown>,
  name: string,
  field: Record<string, unknown>,
  runtime: Runtime,
): string | undefined {
  const type = field.type as string;
  let value = content[name];
  if (type === 'array') {
    const items = field.items as { enum?: string[]; anyOf?: { const: string }[] };
    const choices = items.enum ?? items.anyOf!.map((choice) => choice.const);
    if (!Array.isArray(value)) return 'must be an array of choices';
    const stray = value.find((item) => !choices.includes(item as string));
    if (stray !== undefined)
      return `has ${truncateText(JSON.stringify(stray) ?? String(stray), 60)}, which is not one of the choices`;
    return bounds(value.length, field.minItems, field.maxItems, 'choices');
  }
  if (!fitsType(value, type)) {
    const coerced = runtime.coerceValue(value, type);
    if (coerced === runtime.NOT_COERCIBLE) return `must be ${type === 'integer' ? 'an integer' : `a ${type}`}`;
    content[name] = value = coerced;
  }
  if (typeof value === 'number') return bounds(value, field.minimum, field.maximum);
  if (typeof value !== 'string') return undefined;
  const choices =
    (field.enum as string[] | undefined) ??
    (field.oneOf as { const: string }[] | undefined)?.map((choice) => choice.const);
  if (choices !== undefined && !choices.includes(value))
    return `is ${truncateText(JSON.stringify(value), 60)}, which is not one of the choices`;
  const format =
    typeof field.format === 'string'
      ? (runtime.validatorRuntime.fullFormats[field.format as 'email'] as Format)
      : undefined;
  const valid =
    format === undefined ||
    (format instanceof RegExp
      ? format.test(value)
      : typeof format === 'function'
        ? format(value)
        : format.validate(value));
  if (!valid) return `must be ${field.format === 'email' ? 'an' : 'a'} ${String(field.format)}`;
  const length = (runtime.validatorRuntime.ucs2length as unknown as (text: string) => number)(value);
  return bounds(length, field.minLength, field.maxLength, 'characters');
}

/** True when `value` is of the JSON type `type` (integer: a whole number). */
function fitsType(value: unknown, type: unknown): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'array') return Array.isArray(value) && value.every((item) => typeof item === 'string');
  return typeof value === type;
}

/** The sentence for `size` outside `min`..`max` (each when a number), in `unit` or as a value. */
function bounds(size: number, min: unknown, max: unknown, unit?: string): string | undefined {
  if (typeof min === 'number' && size < min)
    return unit === undefined ? `must be at least ${min}` : `must have at least ${min} ${unit}`;
  if (typeof max === 'number' && size > max)
    return unit === undefined ? `must be at most ${max}` : `must have at most ${max} ${unit}`;
  return undefined;
}

/**
 * A copy of an accepted answer's content, as JSON reads it (own keys only, so nothing from a
 * prototype), refused unless it is an object of the form's `fields` within `MAX_ANSWER_LENGTH`.
 */
function answerContent(content: unknown, fields: Record<string, unknown>): Record<string, unknown> {
  let text: string | undefined;
  try {
    text = JSON.stringify(content ?? {});
  } catch {
    throw invalidAnswer('the answer is not JSON data.');
  }
  if (text === undefined || text.length > MAX_ANSWER_LENGTH)
    throw invalidAnswer(
      `the answer takes ${text?.length ?? 0} characters as JSON, more than an answer may (${MAX_ANSWER_LENGTH}).`,
    );
  const copy: unknown = JSON.parse(text);
  if (!isObject(copy)) throw invalidAnswer("the answer content is not an object of the form's fields.");
  const extra = Object.keys(copy).find((key) => !Object.hasOwn(fields, key));
  if (extra !== undefined)
    throw invalidAnswer(`the answer has '${extra.slice(0, 100)}', which is not a field of the form.`);
  return copy;
}
