import type { Ajv, ValidateFunction } from 'ajv';
import type { SchemaDialect } from '../../src/schema/keywords.js';
import type { Diagnostics } from '../problems.js';
import type { SourceFile } from '../load.js';
import type { JSONSchema7 } from 'json-schema';
import type { SharedSchemaModel, ToolModel, ToolNames } from '../model.js';

/**
 * A named normalize rule: one check (or one change) over one kind of subject, reporting through
 * the collector. Why named units: normalize runs them from lists (see normalize.ts), each is
 * tested alone with in/out fixtures, and a new check is one new file plus one list entry.
 */
export interface Rule<Subject> {
  readonly name: string;
  run(subject: Subject, diagnostics: Diagnostics): void;
}

/** One of the two schema fields of a definition. */
export type SchemaField = 'inputSchema' | 'outputSchema';

/** What every rule of one normalize run shares: the Ajv instances that check definitions and schemas. */
export interface RuleEnvironment {
  /** Checks a whole definition file (tool-definition.schema.json, schema fields only as objects). */
  checkDefinition: ValidateFunction;
  /** Each dialect's Ajv, for its meta-schema (the 2020-12 one made on first use). */
  metaAjv: Record<SchemaDialect, Ajv>;
}

/** One definition file as the definition rules see it. */
export interface DefinitionSubject {
  source: SourceFile;
  definition: Record<string, any>;
  env: RuleEnvironment;
  /** Each schema field's dialect, once the `schema-dialects` rule has decided it (absent: unsupported or not an object). */
  dialects: Map<SchemaField, SchemaDialect>;
}

/** A shared schema file that passed its checks, and the model it becomes. */
export interface SharedEntry {
  source: SourceFile;
  /** The model it becomes (`model.schema` is the file's schema as written). */
  model: SharedSchemaModel;
  dialect: SchemaDialect;
}

/**
 * A check of one schema, wherever it is: as a definition rule, on each schema field whose dialect
 * the `schema-dialects` rule decided (at `/inputSchema`, `/outputSchema`); through `check`, on a
 * whole shared schema file (at `''`).
 */
export interface SchemaRule extends Rule<DefinitionSubject> {
  check(
    source: SourceFile,
    schema: Record<string, unknown>,
    pointer: string,
    diagnostics: Diagnostics,
    dialect: SchemaDialect,
  ): void;
}

/** The schema rule `name` that runs `check`. */
export function schemaRule(name: string, check: SchemaRule['check']): SchemaRule {
  return {
    name,
    check,
    run({ source, definition, dialects }, diagnostics) {
      for (const [key, dialect] of dialects) check(source, definition[key], `/${key}`, diagnostics, dialect);
    },
  };
}

/** One tool schema after `$ref` bundling: self-contained, and where each bundled definition came from. */
export interface BundledSchema {
  bundled: JSONSchema7;
  origins: Record<string, ToolModel['definitionOrigins'][string]>;
}

/** One named, accepted definition as the tool rules (bundling, defaults, examples) see it. */
export interface ToolSubject {
  source: SourceFile;
  definition: Record<string, any>;
  shared: Map<string, SharedEntry>;
  names: ToolNames;
  /** The tool's dialect (its input schema's; the definition rules checked that both agree). */
  dialect: SchemaDialect;
  /** The shared modules the bundled schemas use (filled by `ref-bundling`). */
  sharedUsed: Set<string>;
  /** Set by `ref-bundling`. */
  input?: BundledSchema;
  output?: BundledSchema;
  /** False for a tool whose hash matches the last successful run: its defaults and examples passed then. */
  checkValues: boolean;
  /**
   * An earlier rule reported an error in this definition: nothing is emitted for it, so the value rules
   * judge here what they can (a `$ref` that failed is left out of the bundle), and report nothing a
   * part they cannot judge would cause.
   */
  failed: boolean;
  /** The schemas a validator is compiled from (`default-values` leaves out a `default: null` the schema forbids). */
  validatorSchemas?: { input: JSONSchema7; output?: JSONSchema7 };
  /** Set by `default-values` when it checked: the pointers of the defaults it left out of each validator (the model keeps them). */
  validatorOmits?: { input: string[]; output?: string[] };
  /** This tool's Ajv (the generator's options, its dialect), made on first use. */
  ajv(): Ajv;
}
