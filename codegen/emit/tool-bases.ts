import {
  Project,
  StructureKind,
  VariableDeclarationKind,
  type StatementStructures,
  type WriterFunction,
} from 'ts-morph';
import type { EmitContext, GeneratedFile, ToolModel } from '../model.js';
import { relativeImport, runtimeSpecifier } from '../naming.js';
import { banner } from './banner.js';
import { stringLiteral, toLiteral } from './literal.js';

/** One in-memory ts-morph project for a run: emitters never touch the disk. */
export function createEmitProject(): Project {
  return new Project({ useInMemoryFileSystem: true, skipFileDependencyResolution: true, skipLoadingLibFiles: true });
}

/** Text safe inside a ts-morph JSDoc description: no `*\/` ends it, every line break is LF, no line starts a tag. */
export function docText(text: string): string {
  return text
    .replace(/\*\//g, '*\\/')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/(^|\n)(\s*)@/g, '$1$2\\@');
}

/**
 * The base class file of one tool, `tools/<tool>.base.ts`: `export abstract class <Pascal>ToolBase implements ITool<Input, Output>`
 * with every metadata field, the frozen bundled schemas, the generated validators, and `execute`
 * abstract — or, for a composed tool, implemented by running its declared steps.
 */
export function emitToolBase(tool: ToolModel, ctx: EmitContext, tsProject = createEmitProject()): GeneratedFile {
  const path = `tools/${tool.names.kebab}.base.ts`;
  const statements: Statement[] = [];
  const names = tool.names;
  const composed = tool.steps !== undefined;
  const runtimeNames = [
    'deepFreeze',
    'type ITool',
    'type JSONSchemaObject',
    'type ToolExecutionContext',
    'type ToolExecutionResult',
  ];
  if (composed)
    runtimeNames.splice(
      0,
      runtimeNames.length,
      'ComposedTool',
      'deepFreeze',
      'type ComposedStep',
      'type JSONSchemaObject',
    );
  if (tool.annotations !== undefined) runtimeNames.push('type ToolAnnotations');
  statements.push(
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: runtimeSpecifier(path, ctx.runtimeImport),
      namedImports: runtimeNames.sort(byName),
    },
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: relativeImport(path, `types/${names.kebab}.js`),
      isTypeOnly: true,
      namedImports: composed
        ? [names.inputType, names.outputType]
        : [names.argsType, names.inputType, names.outputType],
    },
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: relativeImport(path, `validators/${names.kebab}.js`),
      namedImports: tool.outputSchema ? [names.inputValidator, names.outputValidator] : [names.inputValidator],
    },
  );

  statements.push(BLANK_LINE);
  const schemaConst = (which: 'Input' | 'Output', schema: unknown) => ({
    kind: StructureKind.VariableStatement as const,
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: [
      {
        description: `The ${which.toLowerCase()} schema of \`${docText(tool.name)}\`, bundled (every \`$ref\` local) and frozen.`,
      },
    ],
    declarations: [
      {
        name: which === 'Input' ? names.inputSchemaConstant : names.outputSchemaConstant,
        type: 'JSONSchemaObject',
        initializer: `deepFreeze(${toLiteral(schema)})`,
      },
    ],
  });
  statements.push(schemaConst('Input', tool.inputSchema));
  if (tool.outputSchema) statements.push(schemaConst('Output', tool.outputSchema));
  if (composed) {
    statements.push({
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      isExported: true,
      docs: [
        { description: `The steps of the composed tool \`${docText(tool.name)}\`, as declared in its definition.` },
      ],
      declarations: [
        {
          name: names.stepsConstant,
          type: 'readonly ComposedStep[]',
          initializer: `deepFreeze(${toLiteral(tool.steps)})`,
        },
      ],
    });
  }

  const property = (name: string, type: string | undefined, initializer: string, docs?: string) => ({
    kind: StructureKind.Property as const,
    name,
    isReadonly: true,
    ...(type ? { type } : {}),
    initializer,
    ...(docs ? { docs: [{ description: docs }] } : {}),
  });
  const properties = [
    property('id', 'string', stringLiteral(tool.id)),
    property('name', undefined, `${stringLiteral(tool.name)} as const`),
    property('displayName', 'string', stringLiteral(tool.displayName)),
    property('description', 'string', stringLiteral(tool.description)),
    property('inputSchema', 'JSONSchemaObject', names.inputSchemaConstant),
    ...(tool.outputSchema ? [property('outputSchema', 'JSONSchemaObject', names.outputSchemaConstant)] : []),
    property(
      'requiredCapabilities',
      'readonly string[]',
      `deepFreeze(${toLiteral(tool.requiredCapabilities)})`,
      tool.requiredCapabilities.length > 0 ? 'Capabilities the calling persona must hold (exact strings).' : undefined,
    ),
    ...(tool.category !== undefined ? [property('category', 'string', stringLiteral(tool.category))] : []),
    ...(tool.version !== undefined ? [property('version', 'string', stringLiteral(tool.version))] : []),
    property('hasSideEffects', 'boolean', String(tool.hasSideEffects)),
    ...(tool.annotations !== undefined
      ? [
          property(
            'annotations',
            'ToolAnnotations',
            `deepFreeze(${toLiteral(tool.annotations)})`,
            'MCP annotation hints from the definition.',
          ),
        ]
      : []),
    ...(tool.timeoutMs !== undefined ? [property('timeoutMs', 'number', String(tool.timeoutMs))] : []),
    property(
      'validators',
      undefined,
      `Object.freeze({ input: ${names.inputValidator}${tool.outputSchema ? `, output: ${names.outputValidator}` : ''} })`,
      'The generated standalone validators: no schema is compiled at run time.',
    ),
    ...(composed ? [property('steps', 'readonly ComposedStep[]', names.stepsConstant)] : []),
  ];
  const description = [
    docText(tool.description),
    '',
    `Generated base of the tool \`${docText(tool.name)}\` (${docText(tool.source.file)}).${composed ? ' A composed tool: `execute` runs its steps through the orchestrator.' : ' Extend it and implement `execute`.'}`,
  ].join('\n');
  if (composed) {
    const fields = properties
      .filter((entry) => entry.name !== 'validators' && entry.name !== 'steps')
      .map((entry) => `${entry.name}: ${entry.initializer.replace(/ as const$/, '')}`);
    fields.push(
      `validators: { input: ${names.inputValidator}${tool.outputSchema ? `, output: ${names.outputValidator}` : ''} }`,
      `steps: ${names.stepsConstant}`,
    );
    statements.push({
      kind: StructureKind.Class,
      name: names.base,
      isExported: true,
      extends: `ComposedTool<${names.inputType}, ${names.outputType}>`,
      docs: [{ description }],
      ctors: [{ statements: `super({\n${fields.map((field) => `  ${field},`).join('\n')}\n});` }],
    });
  } else {
    statements.push({
      kind: StructureKind.Class,
      name: names.base,
      isExported: true,
      isAbstract: true,
      implements: [`ITool<${names.inputType}, ${names.outputType}>`],
      docs: [{ description }],
      properties,
      methods: [
        {
          name: 'execute',
          isAbstract: true,
          docs: [
            {
              description: `Runs \`${docText(tool.name)}\` on validated arguments (defaults filled in); answer \`{ success: true, output }\` or \`{ success: false, error }\`.`,
            },
          ],
          parameters: [
            { name: 'args', type: names.argsType },
            { name: 'context', type: 'ToolExecutionContext' },
          ],
          returnType: `Promise<ToolExecutionResult<${names.outputType}>>`,
        },
      ],
    });
  }
  return {
    path,
    content: printStatements(tsProject, path, banner(tool.source.file, ctx), statements),
    kind: 'generated',
  };
}

/** A statement of a file ts-morph prints from structures. */
export type Statement = StatementStructures | WriterFunction;

/** Between the imports and the rest (ts-morph leaves one there when imports are added one by one). */
export const BLANK_LINE: WriterFunction = (writer) => void writer.blankLine();

/**
 * The text of a file made of `statements` under `header`, printed by ts-morph from the structures
 * in one go: one print and one parse, where adding them one by one re-parsed the file after each
 * (most of ts-morph's share of a full generate).
 */
export function printStatements(tsProject: Project, path: string, header: string, statements: Statement[]): string {
  const file = tsProject.createSourceFile(`/${path}`, { statements }, { overwrite: true });
  const text = file.getFullText();
  // Done with it: keeping every file in the in-memory project made large runs hold gigabytes.
  tsProject.removeSourceFile(file);
  return header + text;
}

function byName(a: string, b: string): number {
  const left = a.replace(/^type /, '');
  const right = b.replace(/^type /, '');
  return left < right ? -1 : left > right ? 1 : 0;
}
