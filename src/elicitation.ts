/**
 * Asking the user something in the middle of a call (MCP elicitation): a message and the form to
 * fill (`requestedSchema`, a flat object of primitives as MCP requires), answered with an action
 * and, when accepted, the form's content. toolsmith checks the form before anything is sent and
 * the answer against the form before the tool sees it.
 */

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
 * Why an elicitation failed before the tool got an answer: a form MCP does not allow, an answer that
 * does not fit it, or a client that turned out not to be able to ask (it refused the request).
 */
export class ElicitationError extends Error {
  constructor(
    readonly code:
      'ELICITATION_FORM_INVALID' | 'ELICITATION_ANSWER_INVALID' | 'ELICITATION_UNAVAILABLE' | 'SAMPLING_UNAVAILABLE',
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

const PRIMITIVE_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean']);
const STRING_FORMATS: ReadonlySet<string> = new Set(['email', 'uri', 'date', 'date-time']);
/** Keywords of MCP's form schemas Ajv does not know: annotations, dropped before the answer is checked. */
const ANNOTATION_ONLY: ReadonlySet<string> = new Set(['enumNames']);

/** What is wrong with `schema` as an elicitation form, or `undefined` when MCP allows it. */
export function elicitationSchemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return 'requestedSchema must be an object schema ({ type: "object", properties: { ... } }).';
  const { type, properties, required } = schema as Record<string, unknown>;
  if (type !== 'object') return `requestedSchema must have type "object"; got ${JSON.stringify(type)}.`;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties))
    return 'requestedSchema.properties must be an object naming the form fields.';
  if (required !== undefined && (!Array.isArray(required) || required.some((name) => typeof name !== 'string')))
    return 'requestedSchema.required must be an array of field names.';
  for (const [name, field] of Object.entries(properties as Record<string, unknown>)) {
    const problem = fieldProblem(field);
    if (problem !== undefined) return `requestedSchema.properties.${name}: ${problem}`;
  }
  for (const name of (required as string[] | undefined) ?? [])
    if (!(name in (properties as object))) return `requestedSchema.required names '${name}', which is not a field.`;
  return undefined;
}

function fieldProblem(field: unknown): string | undefined {
  if (field === null || typeof field !== 'object' || Array.isArray(field)) return 'a field must be a schema object.';
  const { type, format, items } = field as Record<string, unknown>;
  if (type === 'array') {
    const options = items as Record<string, unknown> | undefined;
    const isEnum = options !== undefined && (Array.isArray(options.enum) || Array.isArray(options.anyOf));
    return isEnum ? undefined : 'an array field must be a multi-select: items with enum (or anyOf of titled consts).';
  }
  if (typeof type !== 'string' || !PRIMITIVE_TYPES.has(type))
    return `a field must be a string, number, integer or boolean (MCP forms are flat); got type ${JSON.stringify(type)}.`;
  if (format !== undefined && (type !== 'string' || typeof format !== 'string' || !STRING_FORMATS.has(format)))
    return `format ${JSON.stringify(format)} is not one MCP forms allow (email, uri, date, date-time on strings).`;
  return undefined;
}

/** `schema` without the keywords Ajv does not know, for checking answers. */
function checkable(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !ANNOTATION_ONLY.has(key))
        .map(([key, entry]) => [key, copy(entry)]),
    );
  };
  return copy(schema) as Record<string, unknown>;
}

/** How many distinct forms keep their compiled answer check (least recently asked dropped first). */
export const FORM_VALIDATORS_KEPT = 64;

/**
 * The compiled check of a form's answers, as `compileSchema` makes it (spelled out here: importing
 * its type from tool.ts would put this module, which the call pipeline loads, on an import cycle).
 */
export interface AnswerCheck {
  (data: unknown): boolean;
  errors?: null | Array<{ instancePath: string; keyword: string; params: Record<string, unknown>; message?: string }>;
}

const formValidators = new Map<string, AnswerCheck>();

/**
 * The compiled check of answers to `form`, one per distinct form (equal forms share it whatever
 * their key order, so a tool that builds its form on every call compiles it once), at most
 * `FORM_VALIDATORS_KEPT` kept. Compiled transient: a dropped form's check is freed, so forms built
 * from run-time data (choices from a database) cannot grow the process.
 */
export async function formValidator(form: Record<string, unknown>): Promise<AnswerCheck> {
  const [{ compileSchema }, { sortKeysDeep }] = await Promise.all([
    import('./schema/validation.js'),
    import('./schema/walk.js'),
  ]);
  const key = JSON.stringify(sortKeysDeep(form));
  let validate = formValidators.get(key);
  if (validate !== undefined) formValidators.delete(key);
  else validate = compileSchema(checkable(form), { transient: true });
  formValidators.set(key, validate);
  if (formValidators.size > FORM_VALIDATORS_KEPT) formValidators.delete(formValidators.keys().next().value!);
  return validate;
}

/**
 * Wraps `ask` (the caller's way to reach the user) into the `context.elicit` a tool gets: the form is
 * checked before it is sent (`ELICITATION_FORM_INVALID` naming the field), the answer after (an
 * accepted answer whose content does not fit the form is `ELICITATION_ANSWER_INVALID`, and the tool
 * never sees it; the content is a copy with the form's defaults filled in).
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
      throw new ElicitationError(
        'ELICITATION_ANSWER_INVALID',
        `elicit: the client answered action ${JSON.stringify(action)}.`,
      );
    if (action !== 'accept') return { action };
    // Loaded here: validation.ts sits below the call pipeline, which hands tools this function.
    const { toValidationIssues } = await import('./schema/validation.js');
    const validate = await formValidator(request.requestedSchema);
    const content = structuredClone(answer.content ?? {});
    if (!validate(content)) {
      const issues = toValidationIssues(validate.errors)
        .slice(0, 5)
        .map((issue) => issue.message)
        .join('; ');
      throw new ElicitationError('ELICITATION_ANSWER_INVALID', `elicit: the answer does not fit the form: ${issues}.`);
    }
    return { action, content };
  };
}
