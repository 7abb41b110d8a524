import { compareStrings } from '../../src/manifest-targets/build.js';
import type { EmitContext, GeneratedFile, ToolModel } from '../model.js';
import { failureTypeNames, relativeImport, runtimeSpecifier } from '../naming.js';
import { errorsField, failureValidators } from './failures.js';
import { banner } from './banner.js';
import { docText, importLine, jsDoc, quoted, valueLiteral } from './literal.js';

/**
 * The base class file of one tool, `tools/<tool>.base.ts`: `export abstract class <Pascal>ToolBase
 * implements ITool<Input, Output>` with every metadata field, the frozen bundled schemas, the
 * generated validators, and `execute` abstract — or, for a composed tool, implemented by running its
 * declared steps. Laid out by this emitter in one fixed way (a declaration on one line, a schema one
 * property per line); no formatter runs over it (`preformatted`): ts-morph's printer or prettier
 * would cost the figures in bench/README.md.
 */
export function emitToolBase(tool: ToolModel, ctx: EmitContext): GeneratedFile {
  const path = `tools/${tool.names.kebab}.base.ts`;
  const names = tool.names;
  const composed = tool.steps !== undefined;
  const runtimeNames = composed
    ? ['ComposedTool', 'deepFreeze', 'type ComposedStep', 'type JSONSchemaObject']
    : ['deepFreeze', 'type ITool', 'type JSONSchemaObject', 'type ToolExecutionContext', 'type ToolExecutionResult'];
  if (tool.annotations !== undefined) runtimeNames.push('type ToolAnnotations');
  if (tool.contentTypes !== undefined) runtimeNames.push('type ContentKind');
  const declaresErrors = !composed && tool.errors !== undefined;
  if (declaresErrors) runtimeNames.push('type DeclaredToolError');
  const schemaDoc = (which: string) =>
    `The ${which} schema of \`${docText(tool.name)}\`, bundled (every \`$ref\` local) and frozen.`;
  const constants = [
    frozenConstant(schemaDoc('input'), names.inputSchemaConstant, 'JSONSchemaObject', tool.inputSchema),
  ];
  if (tool.outputSchema)
    constants.push(
      frozenConstant(schemaDoc('output'), names.outputSchemaConstant, 'JSONSchemaObject', tool.outputSchema),
    );
  if (composed)
    constants.push(
      frozenConstant(
        `The steps of the composed tool \`${docText(tool.name)}\`, as declared in its definition.`,
        names.stepsConstant,
        'readonly ComposedStep[]',
        tool.steps,
      ),
    );
  const description = [
    tool.description,
    '',
    `Generated base of the tool \`${tool.name}\` (${tool.source.file}).` +
      (composed
        ? ' A composed tool: `execute` runs its steps through the orchestrator.'
        : ' Extend it and implement `execute`.'),
  ].join('\n');
  const lines = [
    importLine(runtimeNames.sort(byName), runtimeSpecifier(path, ctx.runtimeImport)),
    importLine(
      composed
        ? [names.inputType, names.outputType]
        : [
            names.argsType,
            ...(declaresErrors ? [failureTypeNames(names).failure] : []),
            names.inputType,
            names.outputType,
          ],
      relativeImport(path, `types/${names.kebab}.js`),
      true,
    ),
    importLine(
      [
        ...(tool.outputSchema ? [names.inputValidator, names.outputValidator] : [names.inputValidator]),
        ...(declaresErrors ? failureValidators(tool) : []),
      ],
      relativeImport(path, `validators/${names.kebab}.js`),
    ),
    '',
    constants.join('\n\n'),
    '',
    jsDoc(description),
    ...(composed ? composedClass(tool) : abstractClass(tool)),
  ];
  return {
    path,
    content: `${banner(tool.source.file, ctx)}${lines.join('\n')}\n`,
    kind: 'generated',
    preformatted: true,
  };
}

/** `export const name: type = deepFreeze(value);` under its doc (`doc` safe in a comment). */
function frozenConstant(doc: string, name: string, type: string, value: unknown): string {
  return `/** ${doc} */\nexport const ${name}: ${type} = deepFreeze(${valueLiteral(value)});`;
}

/** One field of the base: its name, declared type (none: inferred), value as code and doc. */
interface Field {
  name: string;
  type?: string;
  value: string;
  doc?: string;
}

/** The metadata fields every base carries, in order. */
function fields(tool: ToolModel): Field[] {
  const names = tool.names;
  const frozen = (value: unknown) => `deepFreeze(${valueLiteral(value, true)})`;
  const list: Field[] = [
    { name: 'id', type: 'string', value: quoted(tool.id) },
    { name: 'name', value: `${quoted(tool.name)} as const` },
    { name: 'displayName', type: 'string', value: quoted(tool.displayName) },
    { name: 'description', type: 'string', value: quoted(tool.description) },
    { name: 'inputSchema', type: 'JSONSchemaObject', value: names.inputSchemaConstant },
  ];
  if (tool.outputSchema)
    list.push({ name: 'outputSchema', type: 'JSONSchemaObject', value: names.outputSchemaConstant });
  list.push({
    name: 'requiredCapabilities',
    type: 'readonly string[]',
    value: frozen(tool.requiredCapabilities),
    ...(tool.requiredCapabilities.length > 0
      ? { doc: 'Capabilities the calling persona must hold (exact strings).' }
      : {}),
  });
  if (tool.category !== undefined) list.push({ name: 'category', type: 'string', value: quoted(tool.category) });
  if (tool.version !== undefined) list.push({ name: 'version', type: 'string', value: quoted(tool.version) });
  list.push({ name: 'hasSideEffects', type: 'boolean', value: String(tool.hasSideEffects) });
  if (tool.annotations !== undefined)
    list.push({
      name: 'annotations',
      type: 'ToolAnnotations',
      value: frozen(tool.annotations),
      doc: 'MCP annotation hints from the definition.',
    });
  if (tool.timeoutMs !== undefined) list.push({ name: 'timeoutMs', type: 'number', value: String(tool.timeoutMs) });
  if (tool.taskSupport !== undefined)
    list.push({
      name: 'taskSupport',
      type: "'optional' | 'required'",
      value: quoted(tool.taskSupport),
      doc: 'May run as an MCP task (a long call the client polls).',
    });
  if (tool.contentTypes !== undefined)
    list.push({
      name: 'contentTypes',
      type: 'readonly ContentKind[]',
      value: frozen(tool.contentTypes),
      doc: 'The content block kinds results may carry (a result with another kind is OUTPUT_INVALID).',
    });
  return list;
}

/** `{ input: validateXInput, output: validateXOutput }`. */
function validatorsObject(tool: ToolModel): string {
  const names = tool.names;
  const output = tool.outputSchema ? `, output: ${names.outputValidator}` : '';
  return `{ input: ${names.inputValidator}${output} }`;
}

/** The abstract class of a tool the user implements. */
function abstractClass(tool: ToolModel): string[] {
  const names = tool.names;
  const lines = [`export abstract class ${names.base} implements ITool<${names.inputType}, ${names.outputType}> {`];
  for (const field of fields(tool)) {
    if (field.doc !== undefined) lines.push(`  /** ${field.doc} */`);
    lines.push(`  readonly ${field.name}${field.type === undefined ? '' : `: ${field.type}`} = ${field.value};`);
  }
  lines.push(
    '  /** The generated standalone validators: no schema is compiled at run time. */',
    `  readonly validators = Object.freeze(${validatorsObject(tool)});`,
  );
  const failure = tool.errors === undefined ? undefined : failureTypeNames(names).failure;
  if (failure !== undefined)
    lines.push(
      '  /** The errors the definition declares: a failure with another code, or data that does not fit, is OUTPUT_INVALID. */',
      `  readonly errors: Readonly<Record<string, DeclaredToolError>> = ${errorsField(tool)};`,
    );
  lines.push(
    '',
    failure === undefined
      ? `  /** Runs \`${docText(tool.name)}\` on validated arguments (defaults filled in); answer \`{ success: true, output }\` or \`{ success: false, error }\`. */`
      : `  /** Runs \`${docText(tool.name)}\` on validated arguments (defaults filled in); answer \`{ success: true, output }\`, or \`{ success: false, error, code, data }\` with a declared code (\`toolFailure\`). */`,
    `  abstract execute(args: ${names.argsType}, context: ToolExecutionContext): Promise<ToolExecutionResult<${names.outputType}${failure === undefined ? '' : `, ${failure}`}>>;`,
    '}',
  );
  return lines;
}

/** The class of a composed tool: its constructor hands every field and its steps to `ComposedTool`. */
function composedClass(tool: ToolModel): string[] {
  const names = tool.names;
  return [
    `export class ${names.base} extends ComposedTool<${names.inputType}, ${names.outputType}> {`,
    '  constructor() {',
    '    super({',
    ...fields(tool).map((field) => `      ${field.name}: ${field.value.replace(/ as const$/, '')},`),
    `      validators: ${validatorsObject(tool)},`,
    `      steps: ${names.stepsConstant},`,
    '    });',
    '  }',
    '}',
  ];
}

/** Import names in plain string order, `type ` markers aside. */
function byName(a: string, b: string): number {
  return compareStrings(a.replace(/^type /, ''), b.replace(/^type /, ''));
}
