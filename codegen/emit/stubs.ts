import type { EmitContext, GeneratedFile, ToolModel } from '../model.js';
import { failureTypeNames } from '../naming.js';
import { docText, importLine, jsDoc, quoted } from './literal.js';

/**
 * The once-only implementation stub of one tool, `<stubs>/<tool>.ts`: `export class <Pascal>Tool
 * extends <Pascal>ToolBase` with a typed `execute` answering a "not implemented" failure. `write`
 * creates it only when the file does not exist; a later generate never touches it (but
 * `--update-stubs`: ../cli/update-stubs.ts). Laid out on fixed lines, each declaration on one line; no
 * formatter runs over it (`preformatted`): prettier costs ~5 ms a stub, a fifth of a full generate's
 * time per tool (bench/README.md).
 */
export function emitStub(tool: ToolModel, ctx: EmitContext): GeneratedFile {
  const names = tool.names;
  const path = `${names.kebab}.ts`;
  const generated = ctx.generatedFromStubs.replace(/\/$/, '');
  const summary = `\`${tool.name}\`: ${tool.description}`;
  const classDoc = docText(summary).includes('\n') ? jsDoc(summary) : `/** ${docText(summary)} */`;
  const baseImport = importLine([names.base], `${generated}/tools/${names.kebab}.base.js`);
  const lines = [
    '/**',
    ` * Implementation of the tool \`${docText(tool.name)}\` (${docText(tool.source.file)}).`,
    ' * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.',
    ' */',
  ];
  if (tool.steps !== undefined)
    lines.push(baseImport, '', classDoc, `export class ${names.impl} extends ${names.base} {}`);
  else {
    // A tool that declares errors answers its failure union (`<Pascal>Failure`), so a declared code type-checks.
    const failure = tool.errors === undefined ? undefined : failureTypeNames(names).failure;
    const result = `ToolExecutionResult<${names.outputType}${failure === undefined ? '' : `, ${failure}`}>`;
    lines.push(
      importLine(['ToolExecutionContext', 'ToolExecutionResult'], ctx.stubsRuntimeImport, true),
      baseImport,
      importLine(
        failure === undefined ? [names.argsType, names.outputType] : [names.argsType, failure, names.outputType],
        `${generated}/types/${names.kebab}.js`,
        true,
      ),
      '',
      classDoc,
      `export class ${names.impl} extends ${names.base} {`,
      `  async execute(args: ${names.argsType}, _context: ToolExecutionContext): Promise<${result}> {`,
      '    void args;',
      `    return { success: false, error: ${quoted(`${tool.name} is not implemented yet: write its execute() in ${path}`)} };`,
      '  }',
      '}',
    );
  }
  return { path, content: `${lines.join('\n')}\n`, kind: 'stub', preformatted: true };
}
