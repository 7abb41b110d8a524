import type { MethodDeclarationStructure, OptionalKind } from 'ts-morph';
import type { EmitContext, ToolModel } from '../model.js';
import { failureTypeNames } from '../naming.js';
import { docText, jsDoc, quoted } from './literal.js';
import { importPart, type PrintableFile } from './pool/printer.js';

/**
 * The once-only implementation stub of one tool, `<stubs>/<tool>.ts`: `export class <Pascal>Tool
 * extends <Pascal>ToolBase` with a typed `execute` answering a "not implemented" failure. `write`
 * creates it only when the file does not exist; a later generate never touches it (but
 * `--update-stubs`: ../cli/update-stubs.ts). Its imports and class are ts-morph structures, laid out by
 * ts-morph's printer (the printing thread, pool/printer.ts); no formatter runs over it
 * (`preformatted`): prettier costs ~5 ms a stub (bench/README.md).
 */
export function emitStub(tool: ToolModel, ctx: EmitContext): PrintableFile {
  const names = tool.names;
  const path = `${names.kebab}.ts`;
  const generated = ctx.generatedFromStubs.replace(/\/$/, '');
  const header = jsDoc(
    `Implementation of the tool \`${tool.name}\` (${tool.source.file}).\n` +
      'Scaffolded once by toolsmith; yours to edit — generate never overwrites it.',
  );
  const base = importPart([names.base], `${generated}/tools/${names.kebab}.base.js`);
  const declared = {
    isExported: true,
    docs: [docText(`\`${tool.name}\`: ${tool.description}`)],
    name: names.impl,
    extends: names.base,
  };
  const stub = (...parts: PrintableFile['parts']): PrintableFile => ({
    path,
    kind: 'stub',
    preformatted: true,
    parts: [`${header}\n`, ...parts],
  });
  if (tool.steps !== undefined) return stub(base, '\n', { class: declared });
  // A tool that declares errors answers its failure union (`<Pascal>Failure`), so a declared code type-checks.
  const failure = tool.errors === undefined ? undefined : failureTypeNames(names).failure;
  const execute: OptionalKind<MethodDeclarationStructure> = {
    name: 'execute',
    isAsync: true,
    parameters: [
      { name: 'args', type: names.argsType },
      { name: '_context', type: 'ToolExecutionContext' },
    ],
    returnType: `Promise<ToolExecutionResult<${names.outputType}${failure === undefined ? '' : `, ${failure}`}>>`,
    statements: [
      'void args;',
      `return { success: false, error: ${quoted(`${tool.name} is not implemented yet: write its execute() in ${path}`)} };`,
    ],
  };
  return stub(
    importPart(['ToolExecutionContext', 'ToolExecutionResult'], ctx.stubsRuntimeImport, true),
    base,
    importPart(
      [names.argsType, ...(failure ? [failure] : []), names.outputType],
      `${generated}/types/${names.kebab}.js`,
      true,
    ),
    '\n',
    { class: { ...declared, methods: [execute] } },
  );
}
