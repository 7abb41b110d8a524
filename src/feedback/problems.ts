/**
 * The problems of a call's arguments in words a model can act on: each once, at its path, saying
 * what fits there (the type, the allowed values, the bound, the nearest allowed name) and what was
 * received. Made by the arguments step from the validator's issues, the tool's input schema and
 * the arguments, only when a call fails; `render.ts` lays them out for a model.
 */
import { truncateText } from '../errors.js';
import { nearestName } from '../text/nearest-name.js';
import { parsePointer, valueAt } from '../schema/json-pointer.js';
import { isObject } from '../schema/walk.js';
import type { ValidationIssue } from '../schema/validation.js';
import { foldBranches } from './branches.js';
import {
  count,
  describeSchema,
  formatWords,
  jsonText,
  MAX_ALTERNATIVES,
  MAX_PATTERN_LENGTH,
  MAX_VALUE_LENGTH,
  schemasAt,
  typesOf,
  typeWords,
  valueList,
} from './schema-words.js';

/** One problem of a call's arguments. */
export interface ArgumentProblem {
  /** JSON pointer to the value; for a missing or unknown property, to that property. */
  readonly path: string;
  /** What is wrong and what fits, in plain words: `expected a number >= 0`, `unknown property; did you mean "unit"?`. */
  readonly message: string;
  /** The value found there, as JSON, truncated; absent for a missing property. */
  readonly received?: string;
}

/** Most problems described for one call (the validator reports at most 100 issues). */
const MAX_PROBLEMS = 50;
/** Longest JSON of a received value. */
const MAX_RECEIVED_LENGTH = 60;
/** Longest description of one alternative of an `anyOf`/`oneOf`. */
const MAX_ALTERNATIVE_LENGTH = 120;

/**
 * The problems of `args` against `schema`, from the validator's `issues` (as `toValidationIssues`
 * gives them): the issues of an `anyOf`/`oneOf`'s branches folded into that keyword's problem (or
 * the one fitting branch's issues kept instead: `branches.ts`), a `propertyNames` issue's reasons
 * told with it, an `if`'s own issue dropped (its `then`/`else` issues say what is wrong),
 * duplicates once.
 */
export function describeArgumentProblems(
  issues: readonly ValidationIssue[],
  schema: unknown,
  args: unknown,
): ArgumentProblem[] {
  const { folded, dropped } = foldBranches(issues, schema);
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < issues.length && problems.length < MAX_PROBLEMS; index++) {
    const issue = issues[index]!;
    if (folded.has(index) || dropped.has(index) || issue.keyword === 'if' || isPropertyNameReason(issue, issues))
      continue;
    const received = valueAt(args, parsePointer(issue.path));
    const message = problemMessage(issue, { schema, received, issues });
    const key = `${issue.path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(
      received === undefined
        ? { path: issue.path, message }
        : { path: issue.path, message, received: jsonText(received, MAX_RECEIVED_LENGTH) },
    );
  }
  return problems;
}

interface IssueContext {
  schema: unknown;
  /** The value at the issue's path (undefined: none there). */
  received: unknown;
  issues: readonly ValidationIssue[];
}

/** The plain-words message of one issue, by its keyword; an unknown keyword keeps the validator's words. */
function problemMessage(issue: ValidationIssue, context: IssueContext): string {
  const params = issue.params;
  const limit = params.limit as number;
  switch (issue.keyword) {
    case 'type':
      return `expected ${typeWords(params.type)}`;
    case 'enum':
      return `expected one of ${valueList(params.allowedValues)}${didYouMean(context.received, params.allowedValues)}`;
    case 'const':
      return `expected exactly ${jsonText(params.allowedValue, MAX_VALUE_LENGTH)}`;
    case 'required':
    case 'dependencies':
    case 'dependentRequired':
      return missingProperty(issue, context);
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return unknownProperty(issue, context.schema);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `expected ${numberWord(context.schema, issue.path)} ${params.comparison} ${limit}`;
    case 'multipleOf':
      return `expected a multiple of ${params.multipleOf}`;
    case 'minLength':
      return `expected a string of at least ${count(limit, 'character')}`;
    case 'maxLength':
      return `expected a string of at most ${count(limit, 'character')}`;
    case 'pattern':
      return `expected a string matching the pattern ${jsonText(params.pattern, MAX_PATTERN_LENGTH)}`;
    case 'format':
      return `expected ${formatWords(String(params.format))}`;
    case 'minItems':
      return `expected an array of at least ${count(limit, 'item')}`;
    case 'maxItems':
    case 'additionalItems':
    case 'items':
    case 'unevaluatedItems':
      return `expected an array of at most ${count(limit, 'item')}`;
    case 'uniqueItems':
      return `expected unique items; items ${params.j} and ${params.i} are equal`;
    case 'minProperties':
      return `expected an object with at least ${count(limit, 'property', 'properties')}`;
    case 'maxProperties':
      return `expected an object with at most ${count(limit, 'property', 'properties')}`;
    case 'contains':
      return containsWords(params);
    case 'anyOf':
      return `expected any of: ${alternatives(context.schema, issue.path, 'anyOf')}`;
    case 'oneOf':
      return oneOfWords(issue, context.schema);
    case 'not':
      return notWords(context.schema, issue.path);
    case 'false schema':
      return 'no value is allowed here';
    case 'propertyNames':
      return propertyNameWords(issue, context);
    default:
      return withoutPath(issue);
  }
}

/** The validator's own message without the path it starts with (`/a must be …` → `must be …`). */
function withoutPath(issue: ValidationIssue): string {
  const message = issue.message;
  const shown = issue.path === '' ? '(root)' : issue.path;
  return message.startsWith(`${shown} `) ? message.slice(shown.length + 1) : message;
}

function missingProperty(issue: ValidationIssue, context: IssueContext): string {
  // What the first subschema at the place that says anything useful accepts.
  const expected = schemasAt(context.schema, issue.path)
    .map((node) => describeSchema(node, context.schema, 0))
    .find((words) => words !== undefined);
  const because =
    issue.keyword === 'required' ? '' : ` (required when ${JSON.stringify(String(issue.params.property))} is present)`;
  return `required property missing${because}${expected === undefined ? '' : `; expected ${expected}`}`;
}

function unknownProperty(issue: ValidationIssue, schema: unknown): string {
  const segments = parsePointer(issue.path);
  const name = segments.pop() ?? '';
  const allowed = new Set<string>();
  for (const node of schemasAt(schema, segments)) {
    if (isObject(node.properties)) for (const key of Object.keys(node.properties)) allowed.add(key);
  }
  const names = [...allowed].sort();
  return `unknown property${didYouMean(name, names)}${names.length === 0 ? '' : ` (allowed: ${valueList(names)})`}`;
}

function oneOfWords(issue: ValidationIssue, schema: unknown): string {
  const passing = issue.params.passingSchemas;
  const choices = alternatives(schema, issue.path, 'oneOf');
  if (!Array.isArray(passing)) return `expected exactly one of: ${choices}`;
  const which = passing.map((index) => `${Number(index) + 1}`).join(' and ');
  return `matches alternatives ${which} at once; expected exactly one of: ${choices}`;
}

/** `expected a value other than exactly "admin"`, from the `not` that applies at `path`. */
function notWords(schema: unknown, path: string): string {
  const node = schemasAt(schema, path).find((candidate) => Object.hasOwn(candidate, 'not'));
  const excluded = node === undefined ? undefined : describeSchema(node.not, schema, 1);
  return excluded === undefined ? 'this value is not allowed here' : `expected a value other than ${excluded}`;
}

function containsWords(params: Record<string, unknown>): string {
  const min = typeof params.minContains === 'number' ? params.minContains : 1;
  if (typeof params.maxContains === 'number')
    return `expected an array with ${min} to ${count(params.maxContains, 'matching item')}`;
  return `expected an array with at least ${count(min, 'matching item')}`;
}

/** True for an issue a `propertyNames` issue at the same place reports as its reason (told with it). */
function isPropertyNameReason(issue: ValidationIssue, issues: readonly ValidationIssue[]): boolean {
  return issues.some((names) => names.keyword === 'propertyNames' && isReasonOf(issue, names));
}

function isReasonOf(issue: ValidationIssue, names: ValidationIssue): boolean {
  return issue !== names && issue.path === names.path && issue.schemaPath?.startsWith(`${names.schemaPath}/`) === true;
}

function propertyNameWords(issue: ValidationIssue, context: IssueContext): string {
  const name = JSON.stringify(String(issue.params.propertyName));
  const reasons = context.issues
    .filter((inner) => isReasonOf(inner, issue))
    .map((inner) => problemMessage(inner, { schema: undefined, received: undefined, issues: [] }));
  return `property name ${name} is not allowed${reasons.length === 0 ? '' : `: ${reasons.join('; ')}`}`;
}

/** The alternatives of the `keyword` (anyOf/oneOf) that applies at `path`, each in a few words. */
function alternatives(schema: unknown, path: string, keyword: 'anyOf' | 'oneOf'): string {
  const node = schemasAt(schema, path).find((candidate) => Array.isArray(candidate[keyword]));
  if (node === undefined) return 'one of the allowed forms';
  const branches = node[keyword] as unknown[];
  const shown = branches
    .slice(0, MAX_ALTERNATIVES)
    .map((branch) => truncateText(describeSchema(branch, schema, 1) ?? 'any value', MAX_ALTERNATIVE_LENGTH));
  if (branches.length > MAX_ALTERNATIVES) shown.push(`… and ${branches.length - MAX_ALTERNATIVES} more`);
  return shown.join('; ');
}

/** `a number`, or `an integer` where the schema at `path` asks for one. */
function numberWord(schema: unknown, path: string): string {
  const integer = schemasAt(schema, path).some((node) => typesOf(node).includes('integer'));
  return integer ? 'an integer' : 'a number';
}

/**
 * `; did you mean "kelvin"?` for a word near one of the allowed strings (`nearestName`); nothing for
 * a word under three characters, where one edit makes anything "near".
 */
function didYouMean(word: unknown, allowed: unknown): string {
  if (typeof word !== 'string' || word.length < 3 || !Array.isArray(allowed)) return '';
  const nearest = nearestName(
    word,
    allowed.filter((value): value is string => typeof value === 'string'),
  );
  return nearest === undefined ? '' : `; did you mean ${JSON.stringify(nearest)}?`;
}
