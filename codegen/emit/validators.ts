import { schemaDialect } from '../../src/schema/dialect.js';
import {
  allowUnknownFormats,
  compileToolSchema,
  createGeneratorAjv,
  type SchemaRejection,
  standaloneCode,
} from '../ajv.js';
import { unplacedProblem } from '../problems.js';
import type { EmitContext, GeneratedFile, Problem, SharedSchemaModel, ToolModel } from '../model.js';
import { errorDataNames, relativeImport, runtimeSpecifier, SHARED_VALIDATORS_FILE } from '../naming.js';
import type { ValidateFunction } from 'ajv';
import type { JSONSchema7 } from 'json-schema';
import { prepareValidatorSchema, withoutDefaults } from '../../src/schema/defaults.js';
import { exampleRejections } from '../rules/examples.js';
import { banner } from './banner.js';
import { docText, importLine } from './literal.js';
import {
  addSharedKeyword,
  sharedModuleCode,
  sharedValidators,
  type SharedValidators,
  withSharedCalls,
} from './shared-validators.js';

/** How Ajv's ESM standalone output exports a validator: `export const validateXInput = validate0;`. */
const EXPORTED_VALIDATOR = /^export const ([A-Za-z_$][\w$]*) = ([A-Za-z_$][\w$]*);$/gm;

/** Ajv's standalone output `require`s these CommonJS helpers even in ESM mode (ajv#2209, ajv-formats#68). */
const REQUIRE_CALL = /require\("([^"]+)"\)(\.[A-Za-z_$][\w$]*)?(\[[^\]]+\])?/g;

/**
 * The validator module of one tool, `validators/<tool>.js` (Ajv standalone ESM: `validate<Pascal>Input`, `validate<Pascal>Output`)
 * and a `.d.ts` declaring them as type guards of the generated types. The module graph loads only
 * `ajv/dist/runtime/*` and `ajv-formats/dist/formats.js`, never Ajv's compiler.
 */
export function emitToolValidators(tool: ToolModel, ctx: EmitContext, shared?: SharedValidators): GeneratedFile[] {
  const jsPath = `validators/${tool.names.kebab}.js`;
  const dtsPath = `validators/${tool.names.kebab}.d.ts`;
  const js = `${banner(tool.source.file, ctx)}${indentCode(toEsm(compileToolValidators(tool, shared), runtimeSpecifier(jsPath, ctx.runtimeImport)))}`;
  const name = docText(tool.name);
  const inPlace = 'in place: fills defaults, coerces only values that do not fit as sent; problems on `.errors`';
  // Each validator the module exports, the type it guards and its doc.
  const { inputValidator, inputType, outputValidator, outputType } = tool.names;
  const declared = [{ validator: inputValidator, type: inputType, doc: `Validates \`${name}\` arguments ${inPlace}.` }];
  if (tool.outputSchema)
    declared.push({ validator: outputValidator, type: outputType, doc: `Validates a \`${name}\` output ${inPlace}.` });
  for (const { code, data } of tool.errors ?? []) {
    const doc = `Validates the data of the \`${name}\` error ${code} in place; problems on \`.errors\`.`;
    if (data !== undefined) declared.push({ ...errorDataNames(tool.names, code), doc });
  }
  const types = importLine(
    declared.map((entry) => entry.type),
    relativeImport(dtsPath, `types/${tool.names.kebab}.js`),
    true,
  );
  const dts = [
    banner(tool.source.file, ctx),
    `${importLine(['ValidateFunction'], runtimeSpecifier(dtsPath, ctx.runtimeImport), true)}\n${types}\n`,
    ...declared.map(
      ({ validator, type, doc }) => `\n/** ${doc} */\nexport declare const ${validator}: ValidateFunction<${type}>;\n`,
    ),
  ].join('');
  return [
    { path: jsPath, content: js, kind: 'generated', preformatted: true },
    { path: dtsPath, content: dts, kind: 'generated', preformatted: true },
  ];
}

/**
 * Ajv's standalone code of a tool's validators, compiled here on whichever thread emits the tool.
 * A schema Ajv rejects, or an example its validators reject, throws a `SchemaRejectedError` naming
 * each, which generate reports as that definition's problems. The order of the calls is part of the
 * output: Ajv numbers its functions across every compile of an instance. With `shared`, the shared
 * types it can share are called in the shared module (shared-validators.ts) instead of compiled here.
 */
export function compileToolValidators(tool: ToolModel, shared?: SharedValidators): string {
  const { ajv, exports, rejections } = compileSchemas(tool, true, shared);
  if (rejections.length > 0) throw new SchemaRejectedError(rejections);
  return standaloneCode(ajv, exports);
}

/**
 * The schemas of a tool Ajv rejects, compiled as `compileToolValidators` does but without
 * standalone code. Why: a run that already has problems emits nothing, and reports these with them.
 */
export function schemaRejections(tool: ToolModel): Problem[] {
  return rejectionProblems(tool, compileSchemas(tool, false).rejections);
}

/** Rejections as the definition's problems, each at its schema field's value, as normalize places the same problem. */
function rejectionProblems(tool: ToolModel, rejections: readonly SchemaRejection[]): Problem[] {
  return rejections.map((rejection) =>
    unplacedProblem(tool.source.file, rejection.pointer, rejection.message, rejection.hint, { atKey: false }),
  );
}

/** The shared module as a tool's validator module (`validators/<tool>.js`) imports it. */
const SHARED_FROM_TOOL = relativeImport('validators/tool.js', SHARED_VALIDATORS_FILE);

/**
 * `validators/shared/index.js`, the validators every tool module calls for the shared schemas it
 * shares (shared-validators.ts), laid out as a tool's module is but not wrapped (the tools' exported
 * validators coerce); undefined when the project shares none. (A run whose shared schemas are
 * unchanged keeps the last run's module instead: incremental/plan.ts.)
 */
export function emitSharedValidators(
  shared: readonly SharedSchemaModel[],
  ctx: EmitContext,
): GeneratedFile | undefined {
  const made = sharedValidators(shared);
  const code = made === undefined ? undefined : sharedModuleCode(made);
  if (code === undefined) return undefined;
  const runtime = runtimeSpecifier(SHARED_VALIDATORS_FILE, ctx.runtimeImport);
  const sources = shared.map((entry) => entry.source);
  return {
    path: SHARED_VALIDATORS_FILE,
    content: `${banner(sources, ctx)}${indentCode(toEsm(code, runtime, { wrap: false }))}`,
    kind: 'generated',
    preformatted: true,
  };
}

/** One Ajv instance with a tool's input (and output) schema compiled, and what it rejected. */
function compileSchemas(tool: ToolModel, code: boolean, shared?: SharedValidators) {
  // The schema was checked against its meta-schema in normalize; Ajv's own pass is skipped.
  const dialect = schemaDialect(tool.inputSchema) ?? 'draft-07';
  const ajv = createGeneratorAjv({ code, overrides: { validateSchema: false }, dialect });
  // normalize checked the defaults and names the ones to leave out; a model it did not check (an
  // unchanged tool emitted again) is checked here, on an Ajv of its own: compiles on this one would
  // renumber the generated functions, and the bytes must not depend on which path made them.
  const omits = tool.validatorOmits;
  let checker: ReturnType<typeof createGeneratorAjv> | undefined;
  const prepare = (schema: JSONSchema7, omitted: readonly string[] | undefined) => {
    if (omitted !== undefined) return withoutDefaults(schema, omitted);
    checker ??= createGeneratorAjv({ overrides: { validateSchema: false }, dialect });
    allowUnknownFormats(checker, schema);
    return prepareValidatorSchema(checker, schema).schema;
  };
  // The shared module is draft-07: a tool of another dialect keeps its own copies.
  const sharing = dialect === 'draft-07' ? shared : undefined;
  const calls = (schema: JSONSchema7) => (sharing === undefined ? schema : withSharedCalls(schema, sharing));
  const input = calls(prepare(tool.inputSchema, omits?.input));
  const output = tool.outputSchema ? calls(prepare(tool.outputSchema, omits && (omits.output ?? []))) : undefined;
  if (sharing !== undefined) addSharedKeyword(ajv, sharing, SHARED_FROM_TOOL);
  const exports: Record<string, string> = { [tool.names.inputValidator]: 'input' };
  const outcomes = [compileToolSchema(ajv, input, 'input')];
  if (output) {
    outcomes.push(compileToolSchema(ajv, output, 'output'));
    exports[tool.names.outputValidator] = 'output';
  }
  // Each declared error's data, compiled after the tool's schemas (Ajv numbers its functions in compile order).
  for (const error of tool.errors ?? []) {
    if (error.data === undefined) continue;
    const id = `errors/${error.code}/data`;
    const outcome = compileToolSchema(ajv, error.data, id);
    if ('rejection' in outcome) outcomes.push(outcome);
    else exports[errorDataNames(tool.names, error.code).validator] = id;
  }
  const rejections = outcomes.flatMap((outcome) => ('rejection' in outcome ? [outcome.rejection] : []));
  // The examples, with the validators just compiled (running them leaves the generated code as it is).
  if (rejections.length === 0 && tool.examples.length > 0) {
    const [input, output] = outcomes.map((outcome) => (outcome as { validate: ValidateFunction }).validate);
    rejections.push(
      ...exampleRejections(tool.examples, { input: input!, ...(output !== undefined ? { output } : {}) }),
    );
  }
  return { ajv, exports, rejections };
}

/**
 * A tool schema Ajv rejected, thrown by `emitToolValidators`. Its message is the rejections as JSON,
 * since an error crosses the emit-worker boundary as its name and message only (emit/pool/worker.ts).
 */
export class SchemaRejectedError extends Error {
  override readonly name = 'SchemaRejectedError';
  constructor(readonly rejections: readonly SchemaRejection[]) {
    super(JSON.stringify(rejections));
  }
}

/**
 * The definition problems a failed emission stands for when it is a `SchemaRejectedError` (thrown in
 * process, or its name and message back from a worker); undefined for any other failure. Each is at
 * its schema field's value, as normalize places the same problem (`unplacedProblem`).
 */
export function rejectedSchemaProblems(tool: ToolModel, error: unknown): Problem[] | undefined {
  if (!(error instanceof Error) || error.name !== 'SchemaRejectedError') return undefined;
  try {
    return rejectionProblems(tool, JSON.parse(error.message) as SchemaRejection[]);
  } catch {
    return undefined;
  }
}

/** Ajv's runtime helpers that toolsmith's runtime carries in `validatorRuntime` (src/schema/validator-runtime.ts), by `require` specifier and member. */
const RUNTIME_HELPERS: Readonly<Record<string, string>> = {
  'ajv/dist/runtime/ucs2length.default': 'ucs2length',
  'ajv/dist/runtime/equal.default': 'equal',
  'ajv-formats/dist/formats.fullFormats': 'fullFormats',
};

/**
 * Rewrites the `require(...)` calls Ajv leaves in "ESM" output into imports. With `runtime` (the
 * runtime's specifier, as generated code imports it), every exported validator is wrapped in the
 * runtime's `coerceWhereNeeded` (Ajv validates without coercion; the wrapper coerces only where a
 * value does not validate as sent), and the helpers the runtime carries come from
 * its `validatorRuntime` — one import, and no CommonJS module to load when the runtime is the
 * bundled package. Any other `require` (or every one, without `runtime`) becomes a direct import
 * (with `.js`): `require(x).default` becomes a default import read as `(m.default ?? m)`, since
 * Node gives a CommonJS module's `module.exports` as the default import while bundlers (vite,
 * esbuild) that honour `__esModule` give `exports.default`; any other member becomes a named import.
 */
export function toEsm(code: string, runtime?: string, options: { wrap?: boolean } = {}): string {
  const defaults = new Map<string, string>();
  const named = new Map<string, Map<string, string>>();
  let usesRuntime = false;
  let count = 0;
  /** The local name `key` is imported under, a new `runtime<n>` on its first use. */
  const localFor = (locals: Map<string, string>, key: string): string => {
    if (!locals.has(key)) locals.set(key, `runtime${count++}`);
    return locals.get(key)!;
  };
  const body = code.replace(REQUIRE_CALL, (_match, specifier: string, member = '', index = '') => {
    const helper = runtime === undefined ? undefined : RUNTIME_HELPERS[`${specifier.replace(/\.js$/, '')}${member}`];
    if (helper !== undefined) {
      usesRuntime = true;
      return `validatorRuntime.${helper}${index}`;
    }
    const file = specifier.endsWith('.js') ? specifier : `${specifier}.js`;
    if (member === '' || member === '.default') {
      const local = localFor(defaults, file);
      return member === '.default' ? `(${local}.default ?? ${local})${index}` : `${local}${index}`;
    }
    if (!named.has(file)) named.set(file, new Map());
    return `${localFor(named.get(file)!, member.slice(1))}${index}`;
  });
  if (/\brequire\(/.test(body)) throw new Error('Ajv standalone output still contains require(): update toEsm');
  let wrapped = body;
  if (runtime !== undefined && options.wrap !== false) {
    // Every exported validator coerces only where the value does not validate as sent (the runtime's `coerceWhereNeeded`).
    wrapped = body.replace(
      EXPORTED_VALIDATOR,
      (_match, name: string, local: string) => `export const ${name} = validatorRuntime.coerceWhereNeeded(${local});`,
    );
    usesRuntime ||= wrapped !== body;
  }
  const header = [
    ...(usesRuntime ? [`import { validatorRuntime } from ${JSON.stringify(runtime)};\n`] : []),
    ...[...defaults].map(([file, local]) => `import ${local} from ${JSON.stringify(file)};\n`),
    ...[...named].map(
      ([file, members]) =>
        `import { ${[...members].map(([name, local]) => `${name} as ${local}`).join(', ')} } from ${JSON.stringify(file)};\n`,
    ),
  ].join('');
  return `${header}${wrapped.replace(/^"use strict";/, '')}`;
}

/**
 * Lays out Ajv's code (one statement per line) with two-space indentation by brace depth, so the
 * module reads like code without the cost of prettier. Braces inside string and regex literals
 * are not counted; the code itself is unchanged but for leading whitespace.
 */
export function indentCode(code: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const raw of code.split('\n')) {
    const line = raw.trim();
    const { opened, closedFirst } = braceBalance(line);
    out.push(line === '' ? '' : `${'  '.repeat(Math.max(0, depth - closedFirst))}${line}`);
    depth = Math.max(0, depth + opened);
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** Net `{`/`}` balance of a line outside string literals, and how many `}` lead it. */
function braceBalance(line: string): { opened: number; closedFirst: number } {
  let opened = 0;
  let closedFirst = 0;
  let leading = true;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote !== undefined) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') {
      quote = char;
      leading = false;
    } else if (char === '{') {
      opened++;
      leading = false;
    } else if (char === '}') {
      opened--;
      if (leading) closedFirst++;
    } else if (char !== ' ' && char !== ')' && char !== ';') leading = false;
  }
  return { opened, closedFirst };
}
