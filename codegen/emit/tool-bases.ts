import type { ClassDeclarationStructure, OptionalKind, PropertyDeclarationStructure } from 'ts-morph';
import { compareStrings } from '../../src/manifest-targets/build.js';
import type { EmitContext, ToolModel } from '../model.js';
import { failureTypeNames, relativeImport, runtimeSpecifier } from '../naming.js';
import { errorsField, failureValidators } from './failures.js';
import { banner } from './banner.js';
import { docText, quoted, valueLiteral } from './literal.js';
import { importPart, type PrintableFile } from './pool/printer.js';

/**
 * The base class file of one tool, `tools/<tool>.base.ts`: `export abstract class <Pascal>ToolBase
 * implements ITool<Input, Output>` with every metadata field, the frozen bundled schemas, the
 * generated validators, and `execute` abstract — or, for a composed tool, implemented by running its
 * declared steps. Its imports and class are ts-morph structures, laid out by ts-morph's printer (the
 * printing thread, pool/printer.ts); no formatter runs over it (`preformatted`): prettier would cost
 * ~6.4 ms a tool (bench/README.md).
 */
export function emitToolBase(tool: ToolModel, ctx: EmitContext): PrintableFile {
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
  const typeNames = composed
    ? [names.inputType, names.outputType]
    : [names.argsType, ...(declaresErrors ? [failureTypeNames(names).failure] : []), names.inputType, names.outputType];
  const validatorNames = [
    ...(tool.outputSchema ? [names.inputValidator, names.outputValidator] : [names.inputValidator]),
    ...(declaresErrors ? failureValidators(tool) : []),
  ];
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
  const description = docText(
    [
      tool.description,
      '',
      `Generated base of the tool \`${tool.name}\` (${tool.source.file}).` +
        (composed
          ? ' A composed tool: `execute` runs its steps through the orchestrator.'
          : ' Extend it and implement `execute`.'),
    ].join('\n'),
  );
  const declared = composed ? composedClass(tool) : abstractClass(tool);
  return {
    path,
    kind: 'generated',
    preformatted: true,
    parts: [
      banner(tool.source.file, ctx),
      importPart(runtimeNames.sort(byName), runtimeSpecifier(path, ctx.runtimeImport)),
      importPart(typeNames, relativeImport(path, `types/${names.kebab}.js`), true),
      importPart(validatorNames, relativeImport(path, `validators/${names.kebab}.js`)),
      '\n',
      // Text, not a structure: ts-morph would indent a schema literal's lines after the first one level deeper.
      `${constants.join('\n\n')}\n\n`,
      { class: { isExported: true, docs: [description], ...declared } },
    ],
  };
}

/** `export const name: type = deepFreeze(value);` under its doc (`doc` safe in a comment). */
function frozenConstant(doc: string, name: string, type: string, value: unknown): string {
  return `/** ${doc} */\nexport const ${name}: ${type} = deepFreeze(${valueLiteral(value)});`;
}

/** One field of the base: its name, declared type (none: inferred), value as code and doc. */
type Field = OptionalKind<PropertyDeclarationStructure> & { initializer: string };

/** The metadata fields every base carries, in order. */
function fields(tool: ToolModel): Field[] {
  const names = tool.names;
  const frozen = (value: unknown) => `deepFreeze(${valueLiteral(value, true)})`;
  const field = (name: string, type: string | undefined, initializer: string, doc?: string): Field => ({
    name,
    isReadonly: true,
    ...(type === undefined ? {} : { type }),
    initializer,
    ...(doc === undefined ? {} : { docs: [doc] }),
  });
  const list = [
    field('id', 'string', quoted(tool.id)),
    field('name', undefined, `${quoted(tool.name)} as const`),
    field('displayName', 'string', quoted(tool.displayName)),
    field('description', 'string', quoted(tool.description)),
    field('inputSchema', 'JSONSchemaObject', names.inputSchemaConstant),
  ];
  if (tool.outputSchema) list.push(field('outputSchema', 'JSONSchemaObject', names.outputSchemaConstant));
  const capabilities = 'Capabilities the calling persona must hold (exact strings).';
  list.push(
    field(
      'requiredCapabilities',
      'readonly string[]',
      frozen(tool.requiredCapabilities),
      tool.requiredCapabilities.length > 0 ? capabilities : undefined,
    ),
  );
  if (tool.category !== undefined) list.push(field('category', 'string', quoted(tool.category)));
  if (tool.version !== undefined) list.push(field('version', 'string', quoted(tool.version)));
  list.push(field('hasSideEffects', 'boolean', String(tool.hasSideEffects)));
  if (tool.annotations !== undefined)
    list.push(
      field('annotations', 'ToolAnnotations', frozen(tool.annotations), 'MCP annotation hints from the definition.'),
    );
  if (tool.timeoutMs !== undefined) list.push(field('timeoutMs', 'number', String(tool.timeoutMs)));
  if (tool.taskSupport !== undefined)
    list.push(
      field(
        'taskSupport',
        "'optional' | 'required'",
        quoted(tool.taskSupport),
        'May run as an MCP task (a long call the client polls).',
      ),
    );
  if (tool.contentTypes !== undefined)
    list.push(
      field(
        'contentTypes',
        'readonly ContentKind[]',
        frozen(tool.contentTypes),
        'The content block kinds results may carry (a result with another kind is OUTPUT_INVALID).',
      ),
    );
  return list;
}

/** `{ input: validateXInput, output: validateXOutput }`. */
function validatorsObject(tool: ToolModel): string {
  const names = tool.names;
  const output = tool.outputSchema ? `, output: ${names.outputValidator}` : '';
  return `{ input: ${names.inputValidator}${output} }`;
}

/** The abstract class of a tool the user implements. */
function abstractClass(tool: ToolModel): OptionalKind<ClassDeclarationStructure> {
  const names = tool.names;
  const properties = fields(tool);
  properties.push({
    name: 'validators',
    isReadonly: true,
    initializer: `Object.freeze(${validatorsObject(tool)})`,
    docs: ['The generated standalone validators: no schema is compiled at run time.'],
  });
  const failure = tool.errors === undefined ? undefined : failureTypeNames(names).failure;
  if (failure !== undefined)
    properties.push({
      name: 'errors',
      isReadonly: true,
      type: 'Readonly<Record<string, DeclaredToolError>>',
      initializer: errorsField(tool),
      docs: [
        'The errors the definition declares: a failure with another code, or data that does not fit, is OUTPUT_INVALID.',
      ],
    });
  const answer =
    failure === undefined
      ? '`{ success: true, output }` or `{ success: false, error }`'
      : '`{ success: true, output }`, or `{ success: false, error, code, data }` with a declared code (`toolFailure`)';
  return {
    name: names.base,
    isAbstract: true,
    implements: [`ITool<${names.inputType}, ${names.outputType}>`],
    properties,
    methods: [
      {
        name: 'execute',
        isAbstract: true,
        docs: [`Runs \`${docText(tool.name)}\` on validated arguments (defaults filled in); answer ${answer}.`],
        parameters: [
          { name: 'args', type: names.argsType },
          { name: 'context', type: 'ToolExecutionContext' },
        ],
        returnType: `Promise<ToolExecutionResult<${names.outputType}${failure === undefined ? '' : `, ${failure}`}>>`,
      },
    ],
  };
}

/** The class of a composed tool: its constructor hands every field and its steps to `ComposedTool`. */
function composedClass(tool: ToolModel): OptionalKind<ClassDeclarationStructure> {
  const names = tool.names;
  const entries = [
    ...fields(tool).map((field) => `${field.name}: ${field.initializer.replace(/ as const$/, '')}`),
    `validators: ${validatorsObject(tool)}`,
    `steps: ${names.stepsConstant}`,
  ];
  return {
    name: names.base,
    extends: `ComposedTool<${names.inputType}, ${names.outputType}>`,
    ctors: [{ statements: [`super({\n${entries.map((entry) => `  ${entry},`).join('\n')}\n});`] }],
  };
}

/** Import names in plain string order, `type ` markers aside. */
function byName(a: string, b: string): number {
  return compareStrings(a.replace(/^type /, ''), b.replace(/^type /, ''));
}
