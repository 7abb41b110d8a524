/**
 * `emitToolBase`, table-driven: each row is one tool of the catalog, its whole base file compared
 * with `test/fixtures/emit/<tool>/base.ts.snap` (the emitter's text, final: no formatter runs over it), plus the lines
 * that make the row's point, so an update of the expected files (`-u`) cannot silently lose them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitToolBase } from '../../../codegen/emit/tool-bases.js';
import { catalogProject } from './catalog.js';
import { EMIT_CONTEXT, toolOf } from './project.js';
import { printFiles } from '../model-factory.js';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'emit');

interface Case {
  tool: string;
  name: string;
  /** Lines the base must hold, exactly. */
  lines: string[];
}

const CASES: Case[] = [
  {
    tool: 'weather_lookup',
    name: 'every metadata field, the bundled schemas with the shared type copied in, both validators',
    lines: [
      'export abstract class WeatherLookupToolBase implements ITool<WeatherLookupInput, WeatherLookupOutput> {',
      "  readonly id: string = 'weather_lookup@2.1.0';",
      '  readonly outputSchema: JSONSchemaObject = weatherLookupOutputSchema;',
      "  readonly version: string = '2.1.0';",
      '  readonly timeoutMs: number = 5000;',
      '  readonly annotations: ToolAnnotations = deepFreeze({ openWorldHint: true });',
      "      $ref: '#/definitions/GeoPoint',",
      '  readonly validators = Object.freeze({ input: validateWeatherLookupInput, output: validateWeatherLookupOutput });',
      '  abstract execute(args: WeatherLookupArgs, context: ToolExecutionContext): Promise<ToolExecutionResult<WeatherLookupOutput>>;',
    ],
  },
  {
    tool: 'send_email',
    name: 'a side-effect tool without an output schema: no output validator, capabilities documented',
    lines: [
      '  readonly hasSideEffects: boolean = true;',
      '  /** Capabilities the calling persona must hold (exact strings). */',
      '  readonly validators = Object.freeze({ input: validateSendEmailInput });',
      "import { validateSendEmailInput } from '../validators/send-email.js';",
    ],
  },
  {
    tool: 'forecast_mail',
    name: 'a composed tool: a concrete class over ComposedTool, its steps frozen, no execute to write',
    lines: [
      "import { type ComposedStep, ComposedTool, type JSONSchemaObject, deepFreeze } from 'toolsmith-sdk';",
      'export const forecastMailSteps: readonly ComposedStep[] = deepFreeze([',
      'export class ForecastMailToolBase extends ComposedTool<ForecastMailInput, ForecastMailOutput> {',
      '      steps: forecastMailSteps,',
      '    timeoutMs: 2000,',
    ],
  },
  {
    tool: 'odd_text',
    name: 'schema text stays data: `*/` and a leading `@` escaped in JSDoc, quotes, backslashes and U+2028 in literals, `__proto__` a computed key',
    lines: [
      ' * Ends *\\/ here, `ticks`, "quotes", back\\slash, ${x},',
      ' * \\@internal not a tag',
      '  readonly description: string = \'Ends */ here, `ticks`, "quotes", back\\\\slash, ${x},\\nline\\u2028two\\r@internal not a tag\';',
      "    ['__proto__']: {",
      "      enum: ['\"quoted\"', \"it's\", 'back\\\\slash'],",
      '    constructor: {',
    ],
  },
  {
    tool: 'constructor',
    name: 'a tool named `constructor` with an empty input object',
    lines: [
      'export abstract class ConstructorToolBase implements ITool<ConstructorInput, ConstructorOutput> {',
      "  readonly name = 'constructor' as const;",
      '  properties: {},',
    ],
  },
];

describe('emitToolBase', () => {
  const project = catalogProject();

  it.each(CASES)('$tool: $name', async ({ tool, lines }) => {
    const model = toolOf(project, tool);
    const [file] = await printFiles([emitToolBase(model, EMIT_CONTEXT)]);
    expect(file!.path).toBe(`tools/${model.names.kebab}.base.ts`);
    expect(file!.kind).toBe('generated');
    expect(file!.preformatted).toBe(true);
    const content = file!.content.split('\n');
    for (const line of lines) expect(content).toContain(line);
    await expect(file!.content).toMatchFileSnapshot(path.join(FIXTURES, tool, 'base.ts.snap'));
  });
});
