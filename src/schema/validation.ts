import { createRequire } from 'node:module';
import { escapePointerSegment, resolveLocalRef } from './json-pointer.js';
import type { Ajv } from 'ajv';
import { AJV_OPTIONS, EXTENSION_KEYWORD } from './ajv-options.js';
import { describeThrown, ToolsmithError, truncateText } from '../errors.js';
import { classifyFormat, lenientStrictLogger, schemaDialect } from './dialect.js';
import type { SchemaDialect } from './keywords.js';
import { describeDefaultMismatch, prepareValidatorSchema } from './defaults.js';
import { copyJsonValue, isObject, mapValues, schemaEntries } from './walk.js';
import { type AjvError, coerceWhereNeeded, type StrictValidate, type ValueCoercion } from './validator-runtime.js';

/** A JSON Schema object as tools carry it (draft-07). */
export type JSONSchemaObject = Record<string, any>;

/** One validation problem, with `path` a JSON pointer into the validated value. */
export interface ValidationIssue {
  path: string;
  message: string;
  keyword: string;
  params: Record<string, unknown>;
  /** Where in the schema the keyword sits, as Ajv reports it (for programs; never shown to a model). */
  schemaPath?: string;
}

/**
 * A compiled validator as Ajv (standalone or runtime) produces it: a type guard that coerces and
 * fills defaults in place and leaves its problems on `.errors`. The runtime calls it as
 * `validate(data, { instancePath: '' })`, with Ajv's data context for a root value.
 */
export interface ValidateFunction<T = unknown> {
  (data: unknown): data is T;
  errors?: null | AjvError[];
}

/** Most validation problems reported for one value; the rest are counted, not listed. */
const MAX_VALIDATION_ISSUES = 100;

/**
 * Ajv's compiler is loaded on first use only: a process whose tools all carry generated
 * validators never loads it (about 70 modules, and the memory they take: P6). Both packages are
 * CommonJS, so `require` loads them synchronously when a hand-written tool is registered.
 */
const requireCommonJs = createRequire(import.meta.url);

/** The runtime Ajv of each dialect, made on first use (`createAjv`). */
const sharedAjv: { [dialect in SchemaDialect]?: Ajv } = {};

/**
 * A runtime Ajv (draft-07, or 2020-12: Ajv's class of its own module) with the one option set
 * (`AJV_OPTIONS`) and ajv-formats; both classes know every annotation keyword of the table. Strict mode
 * goes through `lenientStrictLogger`, as in the generator: what the dialect ignores compiles (and
 * nothing is printed), any other strict complaint throws.
 */
function createAjv(dialect: SchemaDialect): Ajv {
  const AjvClass: typeof Ajv =
    dialect === '2020-12'
      ? (requireCommonJs('ajv/dist/2020') as { Ajv2020: typeof Ajv }).Ajv2020
      : (requireCommonJs('ajv') as { Ajv: typeof Ajv }).Ajv;
  const addFormats = requireCommonJs('ajv-formats') as (ajv: Ajv) => Ajv;
  return addFormats(new AjvClass({ ...AJV_OPTIONS, strictSchema: 'log', logger: lenientStrictLogger(dialect) }));
}

/**
 * Compiles a draft-07 (or, by its `$schema`, 2020-12) schema once with runtime Ajv and the options
 * the generator uses, into a validator that fills defaults and coerces only where the value does not
 * validate as sent (`coerceWhereNeeded`). A `default: null` the schema does not allow is left out
 * (never filled in). Throws a `ToolsmithError` with code `SCHEMA_INVALID` when it does not compile
 * (a near-typo keyword or format, unresolvable `$ref`, a `default` that breaks its own schema, ...).
 * An Ajv instance keeps everything it ever compiled: for schemas that live as long as the process.
 */
export function compileSchema<T = unknown>(schema: JSONSchemaObject | boolean): ValidateFunction<T> {
  const dialect = schemaDialect(schema);
  if (dialect === undefined) {
    const declared = truncateText(JSON.stringify((schema as { $schema?: unknown }).$schema), 200);
    throw new ToolsmithError(
      'SCHEMA_INVALID',
      `Schema does not compile: unsupported $schema ${declared} (draft-07 and 2020-12 are supported).`,
    );
  }
  const ajv = readyFor(schema, (sharedAjv[dialect] ??= createAjv(dialect)));
  const prepared = prepareValidatorSchema(ajv, schema);
  const wrong = prepared.mismatches.filter((entry) => !entry.noDefaultIdiom);
  if (wrong.length > 0) {
    const more = wrong.length > 1 ? ` (and ${wrong.length - 1} more)` : '';
    throw new ToolsmithError(
      'SCHEMA_INVALID',
      `Schema does not compile: ${describeDefaultMismatch(wrong[0]!)}${more}. Fix the default or the schema: it would be filled in and then rejected.`,
    );
  }
  const compile = (fresh: Ajv) => coerceWhereNeeded(fresh.compile(prepared.schema)) as unknown as ValidateFunction<T>;
  try {
    try {
      return compile(ajv);
    } catch (error) {
      // Another schema with the same `$id` was compiled before: this one gets an instance of its own.
      if (!(error instanceof Error && /already exists/.test(error.message))) throw error;
      return compile(readyFor(schema, createAjv(dialect)));
    }
  } catch (error) {
    throw new ToolsmithError('SCHEMA_INVALID', `Schema does not compile: ${describeThrown(error, 500)}`, {
      cause: error,
    });
  }
}

/** `ajv` with the `x-` keywords (annotations) and the formats the dialect ignores (always valid) of `schema` declared. */
function readyFor(schema: unknown, ajv: Ajv): Ajv {
  for (const [key, value] of schemaEntries(schema)) {
    if (EXTENSION_KEYWORD.test(key) && !ajv.getKeyword(key)) {
      try {
        ajv.addKeyword(key);
      } catch {
        // A name Ajv cannot take (e.g. `x-a.b`): `lenientStrictLogger` lets it through as an extension.
      }
    }
    if (key !== 'format' || typeof value !== 'string' || ajv.formats[value] !== undefined) continue;
    if (classifyFormat(value).kind === 'ignored') ajv.addFormat(value, true);
  }
  return ajv;
}

/** The keywords whose error names a property (in `params[param]`): the issue's path ends with it and `text` says what is wrong. */
const NAMED_PROPERTY: ReadonlyMap<string, { readonly param: string; readonly text: string }> = new Map([
  ['required', { param: 'missingProperty', text: 'is required' }],
  ['dependencies', { param: 'missingProperty', text: 'is required' }],
  ['additionalProperties', { param: 'additionalProperty', text: 'is not allowed' }],
  ['unevaluatedProperties', { param: 'unevaluatedProperty', text: 'is not allowed' }],
]);

/** `params` with every string longer than 1,000 characters truncated (the same object when none is). */
function boundedParams(params: Record<string, unknown> | undefined): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (!Object.values(params).some((value) => typeof value === 'string' && value.length > 1000)) return params;
  return mapValues(params, (value) => (typeof value === 'string' ? truncateText(value, 1000) : value));
}

/**
 * Maps Ajv errors to `{ path, message, keyword, params, schemaPath }`: `path` is a JSON pointer into
 * the validated value; for `required` (and `dependencies`, `additionalProperties`,
 * `unevaluatedProperties`) it ends with the property concerned. The message starts with the path so
 * it reads on its own.
 */
export function toValidationIssues(errors: readonly AjvError[] | null | undefined): ValidationIssue[] {
  if (!errors || errors.length === 0)
    return [{ path: '', message: '(root) is invalid', keyword: 'unknown', params: {} }];
  const count = Math.min(errors.length, MAX_VALIDATION_ISSUES);
  const issues: ValidationIssue[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const error = errors[index];
    const { keyword } = error;
    const named = NAMED_PROPERTY.get(keyword);
    const property = named === undefined ? undefined : error.params?.[named.param];
    const [path, text] =
      typeof property === 'string'
        ? [`${error.instancePath ?? ''}/${escapePointerSegment(property)}`, named!.text]
        : [error.instancePath ?? '', error.message ?? `fails "${keyword}"`];
    const issue: ValidationIssue = {
      path: truncateText(path, 1000),
      message: `${path === '' ? '(root)' : truncateText(path)} ${text}`,
      keyword,
      params: boundedParams(error.params),
    };
    if (typeof error.schemaPath === 'string') issue.schemaPath = truncateText(error.schemaPath, 1000);
    issues[index] = issue;
  }
  return issues;
}

/**
 * Where `null` may stand for an omitted optional property (OpenAI strict mode sends `null` for
 * them): the optional, non-nullable properties of an object schema, and the same for nested
 * objects described by `properties`.
 */
export interface NullPlan {
  readonly optional: readonly string[];
  readonly nested: ReadonlyArray<readonly [string, NullPlan]>;
}

const MAX_SCHEMA_DEPTH = 32;

/** Whether a value valid against `schema` may be `null` (unknown or unresolvable: assume it may). */
function allowsNull(schema: unknown, root: unknown, depth: number): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema) || depth > MAX_SCHEMA_DEPTH) return true;
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    return target === undefined || allowsNull(target, root, depth + 1); // draft-07 ignores $ref siblings
  }
  const mayBeNull = (part: unknown) => allowsNull(part, root, depth + 1);
  if ('type' in schema && ![schema.type].flat().includes('null')) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if ('const' in schema && schema.const !== null) return false;
  if (Array.isArray(schema.allOf) && !schema.allOf.every(mayBeNull)) return false;
  return [schema.anyOf, schema.oneOf].every((branches) => !Array.isArray(branches) || branches.some(mayBeNull));
}

/**
 * Builds the `NullPlan` of an input schema once (at registration), so removing `null`s at call
 * time is a few property reads. `undefined` when there is nothing to remove.
 */
export function buildNullPlan(schema: unknown, root = schema, ancestors = new Set<unknown>()): NullPlan | undefined {
  let node = schema;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string'; hops++) {
    if (hops > MAX_SCHEMA_DEPTH) return undefined;
    node = resolveLocalRef(root, node.$ref);
  }
  if (!isObject(node) || !isObject(node.properties) || ancestors.has(node) || ancestors.size > MAX_SCHEMA_DEPTH)
    return undefined;
  const { properties } = node;
  const required = Array.isArray(node.required) ? node.required : [];
  ancestors.add(node);
  const optional: string[] = [];
  const nested: Array<readonly [string, NullPlan]> = [];
  for (const key of Object.keys(properties)) {
    if (!required.includes(key) && !allowsNull(properties[key], root, 0)) optional.push(key);
    const child = buildNullPlan(properties[key], root, ancestors);
    if (child !== undefined) nested.push([key, child]);
  }
  ancestors.delete(node);
  return optional.length === 0 && nested.length === 0 ? undefined : { optional, nested };
}

/**
 * Deletes, in place, the `null` values of optional properties whose schema does not allow `null`,
 * so their defaults apply; only at the top level and in nested objects described by `properties`.
 */
export function stripOptionalNulls(data: unknown, plan: NullPlan): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
  const record = data as Record<string, unknown>;
  for (const key of plan.optional) if (Object.hasOwn(record, key) && record[key] === null) delete record[key];
  for (const [key, child] of plan.nested) if (Object.hasOwn(record, key)) stripOptionalNulls(record[key], child);
}

/** The answer of `SchemaValidator.validate`: the checked copy (defaults filled, coerced where needed), and the problems when invalid. */
export type ValidationOutcome<T> =
  | { readonly valid: true; readonly value: T; readonly errors?: undefined }
  | { readonly valid: false; readonly value: unknown; readonly errors: ValidationIssue[] };

/** How a `SchemaValidator` is made: a generated validator, a schema to compile, or both. */
export interface SchemaValidatorSource<T = unknown> {
  /** The schema; compiled once when there is no generated validator. */
  schema?: JSONSchemaObject | boolean;
  /** A generated (Ajv standalone) validator: used as is, nothing is compiled. */
  generated?: ValidateFunction<T>;
  /** Remove `null` for optional non-nullable properties before validating (input schemas). */
  stripOptionalNulls?: boolean;
}

/**
 * Ajv's data context for a root value. Passed explicitly (and shared) because an Ajv validator's
 * second parameter is destructured from a default `{}` that would otherwise be allocated on every
 * call (a visible part of a trivial call, P1). A validator that takes one parameter ignores it.
 */
const ROOT_DATA_CONTEXT = Object.freeze({ instancePath: '' });

/**
 * One shape for every validator the runtime uses: a generated Ajv standalone function or a schema
 * compiled once with runtime Ajv. A schema that does not compile gives a validator whose
 * `schemaError` says why (the tool can still be registered; its calls fail `SCHEMA_INVALID`).
 */
export class SchemaValidator<T = unknown> {
  /** What `check` removes before validating, when `stripOptionalNulls` was asked for. */
  readonly nullPlan: NullPlan | undefined;
  #validate: ValidateFunction<T> | undefined;
  #schemaError: string | undefined;
  /** The schema still to compile (a tool without a generated validator), until the first use. */
  #pending: JSONSchemaObject | boolean | undefined;

  constructor(source: SchemaValidatorSource<T>) {
    this.#validate = source.generated;
    if (this.#validate === undefined) {
      if (source.schema === undefined) this.#schemaError = 'No schema and no validator given.';
      // Compiled on first use, not at registration: a process with many hand-written tools starts
      // without compiling every schema, and a tool that is never called never costs a compile.
      else this.#pending = source.schema;
    }
    this.nullPlan = source.stripOptionalNulls && source.schema !== undefined ? buildNullPlan(source.schema) : undefined;
  }

  /** The validate function (fills defaults, coerces only where needed, in place); absent when `schemaError` is set. */
  get validateFunction(): ValidateFunction<T> | undefined {
    if (this.#pending !== undefined) this.#compile();
    return this.#validate;
  }

  /** Why the schema did not compile, or `undefined`. */
  get schemaError(): string | undefined {
    if (this.#pending !== undefined) this.#compile();
    return this.#schemaError;
  }

  #compile(): void {
    const schema = this.#pending!;
    this.#pending = undefined;
    try {
      this.#validate = compileSchema<T>(schema);
    } catch (error) {
      this.#schemaError = describeThrown(error, 500);
    }
  }

  /**
   * Validates `data` **in place** (removing optional `null`s, filling defaults, coercing only what
   * does not validate as sent) and returns the problems, or `undefined` when valid. Pass a copy you
   * own (`copyJsonValue`). A root value (not an object) cannot be replaced in place: use `validate`.
   */
  check(data: unknown): ValidationIssue[] | undefined {
    return this.run(data, ROOT_DATA_CONTEXT);
  }

  /** The values the last `check` or `validate` converted to fit the schema (`"212"` → `212`); undefined when none. */
  get lastCoercions(): readonly ValueCoercion[] | undefined {
    return (this.#validate as StrictValidate | undefined)?.coerced ?? undefined;
  }

  private run(data: unknown, dataContext: object): ValidationIssue[] | undefined {
    const validateFunction = this.validateFunction;
    if (validateFunction === undefined)
      throw new ToolsmithError('SCHEMA_INVALID', this.schemaError ?? 'Schema does not compile.');
    if (this.nullPlan !== undefined) stripOptionalNulls(data, this.nullPlan);
    let valid: boolean;
    try {
      valid = (validateFunction as StrictValidate)(data, dataContext);
    } catch (error) {
      // A validator that throws on some data (Ajv's fast-deep-equal does, on an object whose
      // `toString` is a string) rejects it rather than failing the call with an internal error.
      const message = `(root) could not be validated: ${describeThrown(error, 300)}`;
      return [{ path: '', message, keyword: 'exception', params: {} }];
    }
    return valid ? undefined : toValidationIssues(validateFunction.errors);
  }

  /**
   * Validates a copy of `value`; the caller's value is never changed. Unlike `check`, a root value
   * that needed coercion (`"3"` for `type: number`) is answered coerced.
   */
  validate(value: unknown): ValidationOutcome<T> {
    const holder = [copyJsonValue(value)];
    const errors = this.run(holder[0], {
      instancePath: '',
      parentData: holder,
      parentDataProperty: 0,
      rootData: holder[0],
    });
    const result = holder[0];
    return errors === undefined ? { valid: true, value: result as T } : { valid: false, value: result, errors };
  }
}
