import type { EmitContext, GeneratedFile, ToolModel } from '../model.js';
import { docBlock, fitsOrInexact, importDeclaration, newLayout, propertyLine } from './layout.js';
import { PRINT_WIDTH, quoted } from './literal.js';
import { docText } from './tool-bases.js';

/**
 * The once-only implementation stub of one tool, `<stubs>/<tool>.ts`: `export class <Pascal>Tool
 * extends <Pascal>ToolBase` with a typed `execute` answering a "not implemented" failure. `write`
 * creates it only when the file does not exist; a later generate never touches it. Laid out as
 * prettier would (layout.ts).
 */
export function emitStub(tool: ToolModel, ctx: EmitContext): GeneratedFile {
  const names = tool.names;
  const path = `${names.kebab}.ts`;
  const layout = newLayout();
  const generated = ctx.generatedFromStubs.replace(/\/$/, '');
  const composed = tool.steps !== undefined;
  const lines: string[] = [
    '/**',
    ` * Implementation of the tool \`${docText(tool.name)}\` (${docText(tool.source.file)}).`,
    ' * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.',
    ' */',
  ];
  if (!composed)
    lines.push(
      importDeclaration(['ToolExecutionContext', 'ToolExecutionResult'], ctx.stubsRuntimeImport, layout, true),
    );
  lines.push(importDeclaration([names.base], `${generated}/tools/${names.kebab}.base.js`, layout));
  if (!composed)
    lines.push(
      importDeclaration([names.argsType, names.outputType], `${generated}/types/${names.kebab}.js`, layout, true),
    );
  lines.push('', docBlock(`\`${docText(tool.name)}\`: ${docText(tool.description)}`, ''));
  // prettier never breaks this line: it has no type arguments to break at.
  const header = `export class ${names.impl} extends ${names.base} {`;
  if (composed) lines.push(`${header}}`);
  else {
    const returns = `Promise<ToolExecutionResult<${names.outputType}>>`;
    const params = [`args: ${names.argsType}`, '_context: ToolExecutionContext'];
    const signature = `  async execute(${params.join(', ')}): ${returns} {`;
    if (signature.length <= PRINT_WIDTH) lines.push(header, signature);
    else {
      fitsOrInexact(layout, `  ): ${returns} {`.length);
      lines.push(header, '  async execute(', ...params.map((param) => `    ${param},`), `  ): ${returns} {`);
    }
    const message = `${tool.name} is not implemented yet: write its execute() in ${path}`;
    const flat = `    return { success: false, error: ${quoted(message)} };`;
    lines.push('    void args;');
    if (flat.length <= PRINT_WIDTH) lines.push(flat);
    else
      lines.push('    return {', '      success: false,', propertyLine('error', message, '      ', layout), '    };');
    lines.push('  }', '}');
  }
  const content = `${lines.join('\n')}\n`;
  return { path, content, kind: 'stub', ...(layout.exact ? { preformatted: true as const } : {}) };
}
