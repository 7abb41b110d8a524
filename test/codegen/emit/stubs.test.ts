/**
 * `emitStub`, table-driven with the exact stub each tool gets (no formatter runs over it): imports relative
 * to the stubs folder, a typed `execute` answering "not implemented", none for a composed tool, and
 * the tool's description kept from closing or tagging the JSDoc.
 */
import { describe, expect, it } from 'vitest';
import { emitStub } from '../../../codegen/emit/stubs.js';
import type { EmitContext } from '../../../codegen/model.js';
import { catalogProject } from './catalog.js';
import { EMIT_CONTEXT, toolOf } from './project.js';
import { printFiles } from '../model-factory.js';

const lines = (...text: string[]) => `${text.join('\n')}\n`;
const header = (name: string) =>
  lines(
    '/**',
    ` * Implementation of the tool \`${name}\` (schemas/${name}.tool.json).`,
    ' * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.',
    ' */',
  );

interface Case {
  name: string;
  tool: string;
  ctx?: EmitContext;
  path: string;
  expected: string;
}

const CASES: Case[] = [
  {
    name: 'a tool with an output schema: typed args, output and a "not implemented" failure naming the file',
    tool: 'weather_lookup',
    path: 'weather-lookup.ts',
    expected: lines(
      "import type { ToolExecutionContext, ToolExecutionResult } from 'toolsmith-sdk';",
      "import { WeatherLookupToolBase } from '../../generated/tools/weather-lookup.base.js';",
      "import type { WeatherLookupArgs, WeatherLookupOutput } from '../../generated/types/weather-lookup.js';",
      '',
      '/** `weather_lookup`: Looks up the weather forecast near a point. */',
      'export class WeatherLookupTool extends WeatherLookupToolBase {',
      '  async execute(args: WeatherLookupArgs, _context: ToolExecutionContext): Promise<ToolExecutionResult<WeatherLookupOutput>> {',
      '    void args;',
      "    return { success: false, error: 'weather_lookup is not implemented yet: write its execute() in weather-lookup.ts' };",
      '  }',
      '}',
    ),
  },
  {
    name: 'a composed tool: the base runs the steps, the stub only extends it',
    tool: 'forecast_mail',
    path: 'forecast-mail.ts',
    expected: lines(
      "import { ForecastMailToolBase } from '../../generated/tools/forecast-mail.base.js';",
      '',
      '/** `forecast_mail`: Mails the forecast near a point. */',
      'export class ForecastMailTool extends ForecastMailToolBase {',
      '}',
    ),
  },
  {
    name: 'a description with `*/`, a leading `@`, U+2028 and quotes stays inside the JSDoc',
    tool: 'odd_text',
    path: 'odd-text.ts',
    expected: lines(
      "import type { ToolExecutionContext, ToolExecutionResult } from 'toolsmith-sdk';",
      "import { OddTextToolBase } from '../../generated/tools/odd-text.base.js';",
      "import type { OddTextArgs, OddTextOutput } from '../../generated/types/odd-text.js';",
      '',
      '/**',
      ' * `odd_text`: Ends *\\/ here, `ticks`, "quotes", back\\slash, ${x},',
      ' * line',
      ' * two',
      ' * \\@internal not a tag',
      ' */',
      'export class OddTextTool extends OddTextToolBase {',
      '  async execute(args: OddTextArgs, _context: ToolExecutionContext): Promise<ToolExecutionResult<OddTextOutput>> {',
      '    void args;',
      "    return { success: false, error: 'odd_text is not implemented yet: write its execute() in odd-text.ts' };",
      '  }',
      '}',
    ),
  },
  {
    name: 'a relative runtime import and a generated folder given with a trailing slash',
    tool: 'constructor',
    ctx: { ...EMIT_CONTEXT, stubsRuntimeImport: '../../lib/runtime.js', generatedFromStubs: '../out/' },
    path: 'constructor.ts',
    expected: lines(
      "import type { ToolExecutionContext, ToolExecutionResult } from '../../lib/runtime.js';",
      "import { ConstructorToolBase } from '../out/tools/constructor.base.js';",
      "import type { ConstructorArgs, ConstructorOutput } from '../out/types/constructor.js';",
      '',
      '/** `constructor`: The constructor tool. */',
      'export class ConstructorTool extends ConstructorToolBase {',
      '  async execute(args: ConstructorArgs, _context: ToolExecutionContext): Promise<ToolExecutionResult<ConstructorOutput>> {',
      '    void args;',
      "    return { success: false, error: 'constructor is not implemented yet: write its execute() in constructor.ts' };",
      '  }',
      '}',
    ),
  },
];

describe('emitStub', () => {
  const project = catalogProject();

  it.each(CASES)('$tool: $name', async ({ tool, ctx, path, expected }) => {
    const [file] = await printFiles([emitStub(toolOf(project, tool), ctx ?? EMIT_CONTEXT)]);
    expect(file).toEqual({ path, kind: 'stub', content: `${header(tool)}${expected}`, preformatted: true });
  });
});
