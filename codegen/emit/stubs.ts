import { StructureKind } from 'ts-morph';
import type { EmitContext, GeneratedFile, ToolModel } from '../model.js';
import { BLANK_LINE, createEmitProject, docText, printStatements, type Statement } from './tool-bases.js';

/**
 * The once-only implementation stub of one tool, `<stubs>/<tool>.ts`: `export class <Pascal>Tool
 * extends <Pascal>ToolBase` with a typed `execute` answering a "not implemented" failure. `write`
 * creates it only when the file does not exist; a later generate never touches it.
 */
export function emitStub(tool: ToolModel, ctx: EmitContext, tsProject = createEmitProject()): GeneratedFile {
  const names = tool.names;
  const path = `${names.kebab}.ts`;
  const statements: Statement[] = [];
  const generated = ctx.generatedFromStubs.replace(/\/$/, '');
  const composed = tool.steps !== undefined;
  if (!composed) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: ctx.stubsRuntimeImport,
      isTypeOnly: true,
      namedImports: ['ToolExecutionContext', 'ToolExecutionResult'],
    });
  }
  statements.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: `${generated}/tools/${names.kebab}.base.js`,
    namedImports: [names.base],
  });
  if (!composed) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: `${generated}/types/${names.kebab}.js`,
      isTypeOnly: true,
      namedImports: [names.argsType, names.outputType],
    });
  }
  statements.push(BLANK_LINE, {
    kind: StructureKind.Class,
    name: names.impl,
    isExported: true,
    extends: names.base,
    docs: [{ description: `\`${docText(tool.name)}\`: ${docText(tool.description)}` }],
    methods: composed
      ? []
      : [
          {
            name: 'execute',
            isAsync: true,
            parameters: [
              { name: 'args', type: names.argsType },
              { name: '_context', type: 'ToolExecutionContext' },
            ],
            returnType: `Promise<ToolExecutionResult<${names.outputType}>>`,
            statements: [
              `void args;`,
              `return { success: false, error: ${JSON.stringify(`${tool.name} is not implemented yet: write its execute() in ${path}`)} };`,
            ],
          },
        ],
  });
  const header = `/**\n * Implementation of the tool \`${docText(tool.name)}\` (${docText(tool.source.file)}).\n * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.\n */\n`;
  return { path, content: printStatements(tsProject, `stubs/${path}`, header, statements), kind: 'stub' };
}
