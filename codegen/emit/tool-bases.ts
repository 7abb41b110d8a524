import type { EmitContext, GeneratedFile, ToolModel } from '../model.js';
import { relativeImport, runtimeSpecifier } from '../naming.js';
import { banner } from './banner.js';
import {
  assignmentLine,
  callWithFlatObject,
  callWithLiteral,
  docBlock,
  fitsOrInexact,
  flatObject,
  importDeclaration,
  type Layout,
  newLayout,
  propertyLine,
} from './layout.js';
import { PRINT_WIDTH, quoted } from './literal.js';

/** Text safe inside a JSDoc description: no `*\/` ends it, every line break is LF, no line starts a tag. */
export function docText(text: string): string {
  return text
    .replace(/\*\//g, '*\\/')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/(^|\n)(\s*)@/g, '$1$2\\@');
}

/**
 * The base class file of one tool, `tools/<tool>.base.ts`: `export abstract class <Pascal>ToolBase implements ITool<Input, Output>`
 * with every metadata field, the frozen bundled schemas, the generated validators, and `execute`
 * abstract — or, for a composed tool, implemented by running its declared steps. Laid out as
 * prettier would (layout.ts); `preformatted` unless some part was not sure to be.
 */
export function emitToolBase(tool: ToolModel, ctx: EmitContext): GeneratedFile {
  const path = `tools/${tool.names.kebab}.base.ts`;
  const layout = newLayout();
  const names = tool.names;
  const composed = tool.steps !== undefined;
  const runtimeNames = composed
    ? ['ComposedTool', 'deepFreeze', 'type ComposedStep', 'type JSONSchemaObject']
    : ['deepFreeze', 'type ITool', 'type JSONSchemaObject', 'type ToolExecutionContext', 'type ToolExecutionResult'];
  if (tool.annotations !== undefined) runtimeNames.push('type ToolAnnotations');
  if (tool.contentTypes !== undefined) runtimeNames.push('type ContentKind');
  const validatorNames = tool.outputSchema ? [names.inputValidator, names.outputValidator] : [names.inputValidator];
  const parts = [
    importDeclaration(runtimeNames.sort(byName), runtimeSpecifier(path, ctx.runtimeImport), layout),
    importDeclaration(
      composed ? [names.inputType, names.outputType] : [names.argsType, names.inputType, names.outputType],
      relativeImport(path, `types/${names.kebab}.js`),
      layout,
      true,
    ),
    importDeclaration(validatorNames, relativeImport(path, `validators/${names.kebab}.js`), layout),
    '',
  ];
  const frozenConst = (doc: string, name: string, type: string, value: unknown) => {
    const left = `export const ${name}: ${type} = `;
    parts.push(docBlock(doc, ''), `${left}${callWithLiteral('deepFreeze', value, '', left.length, 1, layout)};`);
  };
  const schemaDoc = (which: string) =>
    `The ${which} schema of \`${docText(tool.name)}\`, bundled (every \`$ref\` local) and frozen.`;
  frozenConst(schemaDoc('input'), names.inputSchemaConstant, 'JSONSchemaObject', tool.inputSchema);
  if (tool.outputSchema)
    frozenConst(schemaDoc('output'), names.outputSchemaConstant, 'JSONSchemaObject', tool.outputSchema);
  if (composed)
    frozenConst(
      `The steps of the composed tool \`${docText(tool.name)}\`, as declared in its definition.`,
      names.stepsConstant,
      'readonly ComposedStep[]',
      tool.steps,
    );
  const description = [
    docText(tool.description),
    '',
    `Generated base of the tool \`${docText(tool.name)}\` (${docText(tool.source.file)}).` +
      (composed
        ? ' A composed tool: `execute` runs its steps through the orchestrator.'
        : ' Extend it and implement `execute`.'),
  ].join('\n');
  parts.push('', docBlock(description, ''));
  parts.push(...(composed ? composedClass(tool, layout) : abstractClass(tool, layout)));
  const content = `${banner(tool.source.file, ctx)}${parts.join('\n')}\n`;
  return { path, content, kind: 'generated', ...(layout.exact ? { preformatted: true as const } : {}) };
}

/** One field of the base: its name, declared type (none: inferred), value and doc. */
interface Field {
  name: string;
  type?: string;
  /** The value: a string, a JSON value frozen with `deepFreeze`, or code written as is. */
  string?: string;
  frozen?: unknown;
  code?: string;
  /** The string is a literal type (`'name' as const`) in the abstract class. */
  asConst?: true;
  doc?: string;
}

/** The metadata fields every base carries, in order. */
function fields(tool: ToolModel): Field[] {
  const names = tool.names;
  const list: Field[] = [
    { name: 'id', type: 'string', string: tool.id },
    { name: 'name', string: tool.name, asConst: true },
    { name: 'displayName', type: 'string', string: tool.displayName },
    { name: 'description', type: 'string', string: tool.description },
    { name: 'inputSchema', type: 'JSONSchemaObject', code: names.inputSchemaConstant },
  ];
  if (tool.outputSchema)
    list.push({ name: 'outputSchema', type: 'JSONSchemaObject', code: names.outputSchemaConstant });
  list.push({
    name: 'requiredCapabilities',
    type: 'readonly string[]',
    frozen: tool.requiredCapabilities,
    ...(tool.requiredCapabilities.length > 0
      ? { doc: 'Capabilities the calling persona must hold (exact strings).' }
      : {}),
  });
  if (tool.category !== undefined) list.push({ name: 'category', type: 'string', string: tool.category });
  if (tool.version !== undefined) list.push({ name: 'version', type: 'string', string: tool.version });
  list.push({ name: 'hasSideEffects', type: 'boolean', code: String(tool.hasSideEffects) });
  if (tool.annotations !== undefined)
    list.push({
      name: 'annotations',
      type: 'ToolAnnotations',
      frozen: tool.annotations,
      doc: 'MCP annotation hints from the definition.',
    });
  if (tool.timeoutMs !== undefined) list.push({ name: 'timeoutMs', type: 'number', code: String(tool.timeoutMs) });
  if (tool.taskSupport !== undefined)
    list.push({
      name: 'taskSupport',
      type: "'optional' | 'required'",
      string: tool.taskSupport,
      doc: 'May run as an MCP task (a long call the client polls).',
    });
  if (tool.contentTypes !== undefined)
    list.push({
      name: 'contentTypes',
      type: 'readonly ContentKind[]',
      frozen: tool.contentTypes,
      doc: 'The content block kinds results may carry (a result with another kind is OUTPUT_INVALID).',
    });
  return list;
}

/** `input: validateXInput, output: validateXOutput`. */
function validatorEntries(tool: ToolModel): string[] {
  const names = tool.names;
  return [`input: ${names.inputValidator}`, ...(tool.outputSchema ? [`output: ${names.outputValidator}`] : [])];
}

/**
 * `<start>Input, Output> {` on one line when it fits, else prettier's layout: the type arguments
 * one per line (no trailing comma), `> {` on a line of its own.
 */
function classHeader(start: string, tool: ToolModel, layout: Layout): string[] {
  const { inputType, outputType } = tool.names;
  const header = `${start}${inputType}, ${outputType}> {`;
  if (header.length <= PRINT_WIDTH) return [header];
  fitsOrInexact(layout, start.length);
  return [start, `  ${inputType},`, `  ${outputType}`, '> {'];
}

/** The abstract class of a tool the user implements. */
function abstractClass(tool: ToolModel, layout: Layout): string[] {
  const names = tool.names;
  const lines = classHeader(`export abstract class ${names.base} implements ITool<`, tool, layout);
  const indent = '  ';
  for (const field of fields(tool)) {
    if (field.doc !== undefined) lines.push(docBlock(field.doc, indent));
    const left = `readonly ${field.name}${field.type === undefined ? '' : `: ${field.type}`}`;
    if (field.string !== undefined)
      lines.push(assignmentLine(left, `${quoted(field.string)}${field.asConst ? ' as const' : ''}`, indent, layout));
    else if (field.code !== undefined) lines.push(assignmentLine(left, field.code, indent, layout));
    else {
      const head = `${indent}${left} = `;
      lines.push(`${head}${callWithLiteral('deepFreeze', field.frozen, indent, head.length, 1, layout)};`);
    }
  }
  lines.push(docBlock('The generated standalone validators: no schema is compiled at run time.', indent));
  const validators = `${indent}readonly validators = `;
  lines.push(
    `${validators}${callWithFlatObject('Object.freeze', validatorEntries(tool), indent, validators.length, 1, layout)};`,
    '',
    docBlock(
      `Runs \`${docText(tool.name)}\` on validated arguments (defaults filled in); answer \`{ success: true, output }\` or \`{ success: false, error }\`.`,
      indent,
    ),
  );
  const returns = `Promise<ToolExecutionResult<${names.outputType}>>`;
  const params = [`args: ${names.argsType}`, 'context: ToolExecutionContext'];
  const execute = `${indent}abstract execute(${params.join(', ')}): ${returns};`;
  if (execute.length <= PRINT_WIDTH) lines.push(execute);
  else {
    fitsOrInexact(layout, `${indent}): ${returns};`.length);
    lines.push(
      `${indent}abstract execute(`,
      ...params.map((param) => `${indent}  ${param},`),
      `${indent}): ${returns};`,
    );
  }
  lines.push('}');
  return lines;
}

/** The class of a composed tool: its constructor hands every field and its steps to `ComposedTool`. */
function composedClass(tool: ToolModel, layout: Layout): string[] {
  const names = tool.names;
  const indent = '      ';
  const lines = [
    ...classHeader(`export class ${names.base} extends ComposedTool<`, tool, layout),
    '  constructor() {',
    '    super({',
  ];
  for (const field of fields(tool)) {
    if (field.string !== undefined) lines.push(propertyLine(field.name, field.string, indent, layout));
    else if (field.code !== undefined) {
      fitsOrInexact(layout, `${indent}${field.name}: ${field.code},`.length);
      lines.push(`${indent}${field.name}: ${field.code},`);
    } else {
      const head = `${indent}${field.name}: `;
      lines.push(`${head}${callWithLiteral('deepFreeze', field.frozen, indent, head.length, 1, layout)},`);
    }
  }
  const head = `${indent}validators: `;
  lines.push(
    `${head}${flatObject(validatorEntries(tool), indent, head.length, 1)},`,
    `${indent}steps: ${names.stepsConstant},`,
    '    });',
    '  }',
    '}',
  );
  return lines;
}
function byName(a: string, b: string): number {
  const left = a.replace(/^type /, '');
  const right = b.replace(/^type /, '');
  return left < right ? -1 : left > right ? 1 : 0;
}
