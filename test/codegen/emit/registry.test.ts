/**
 * `emitRegistry` and `emitToolSchemaFile`, table-driven with exact output: the registry, index,
 * catalog and lazy registry of a project compared with `test/fixtures/emit/registry-<case>/*.snap`
 * (written preformatted: these bytes are what lands on disk), plus the lines each row is about.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitRegistry, emitToolSchemaFile } from '../../../codegen/emit/registry.js';
import type { EmitContext, ProjectModel } from '../../../codegen/model.js';
import { catalogProject, LONG_NAMES, PROTOTYPE_NAMES } from './catalog.js';
import { EMIT_CONTEXT, projectOf, tool, toolOf } from './project.js';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'emit');
const FILES = ['registry.ts', 'index.ts', 'catalog.json', 'lazy-registry.ts'];

interface Case {
  name: string;
  /** Folder of the expected files under test/fixtures/emit/. */
  fixture: string;
  project: () => ProjectModel;
  ctx?: EmitContext;
  /** file → lines it must hold, exactly. */
  lines: Record<string, string[]>;
}

const CASES: Case[] = [
  {
    name: 'the catalog: a typed entry per tool in name order, `constructor` as a tool name, shared types re-exported',
    fixture: 'registry-catalog',
    project: catalogProject,
    lines: {
      'registry.ts': [
        "export const toolNames = ['constructor', 'forecast_mail', 'odd_text', 'send_email', 'weather_lookup'] as const;",
        '  constructor: { input: ConstructorInput; output: ConstructorOutput };',
        '  constructor: typeof ConstructorTool;',
        "  tools.push(makeTool(factories, 'constructor', ConstructorTool));",
        "import { ForecastMailTool } from '../src/tools/forecast-mail.js';",
      ],
      'index.ts': [
        "export type * from './types/shared/geo-point.js';",
        "export * from './tools/forecast-mail.base.js';",
        "export * from './registry.js';",
      ],
      'catalog.json': ['  "constructor": {', '    "id": "weather_lookup@2.1.0",', '    "timeoutMs": 5000'],
      'lazy-registry.ts': [
        "const TOOLS = 'constructor|constructor|ConstructorTool\\nforecast_mail|forecast-mail|ForecastMailTool\\nodd_text|odd-text|OddTextTool\\nsend_email|send-email|SendEmailTool\\nweather_lookup|weather-lookup|WeatherLookupTool';",
        '  const specifier = `../src/tools/${stem}.js`;',
      ],
    },
  },
  {
    name: 'no tools: empty lists that still compile',
    fixture: 'registry-empty',
    project: () => ({ tools: [], shared: [] }),
    lines: {
      'registry.ts': ['export const toolNames = [] as const;', 'export interface ToolTypes {', '  return tools;'],
      'index.ts': ["export * from './registry.js';"],
      'catalog.json': ['{}'],
      'lazy-registry.ts': ["const TOOLS = '';"],
    },
  },
  {
    name: 'tools named after Object.prototype members (`__proto__`, `toString`): plain keys, found by `Object.hasOwn`',
    fixture: 'registry-prototype-names',
    project: () => projectOf(PROTOTYPE_NAMES),
    lines: {
      'registry.ts': [
        "export const toolNames = ['__proto__', 'toString'] as const;",
        '  __proto__: { input: ProtoInput; output: ProtoOutput };',
        '  toString: typeof ToStringTool;',
        "  tools.push(makeTool(factories, '__proto__', ProtoTool));",
      ],
      'catalog.json': ['  "__proto__": {', '    "id": "__proto__",'],
    },
  },
  {
    name: 'a relative runtime, a stubs folder with a trailing slash, and a name too long for one import line',
    fixture: 'registry-layout',
    project: () => projectOf(LONG_NAMES),
    ctx: { ...EMIT_CONTEXT, runtimeImport: './lib/runtime.js', stubsFromGenerated: '../impl/' },
    lines: {
      'registry.ts': [
        "import { ToolClient, type ITool, type ToolCallDefaults, type ToolOrchestrator } from './lib/runtime.js';",
        "import { AToolNameAsLongAsADefinitionAllowsSoImportsMustBreakTool } from '../impl/a-tool-name-as-long-as-a-definition-allows-so-imports-must-break.js';",
        'import type {',
        '  AToolNameAsLongAsADefinitionAllowsSoImportsMustBreakInput,',
        '  AToolNameAsLongAsADefinitionAllowsSoImportsMustBreakOutput,',
        "} from './types/a-tool-name-as-long-as-a-definition-allows-so-imports-must-break.js';",
        "import { BTool } from '../impl/b.js';",
        "import type { BInput, BOutput } from './types/b.js';",
      ],
      'lazy-registry.ts': [
        "import { defineLazyTools, type ITool, type LazyToolMetadata, type LazyToolSchemas, type LazyToolSet } from './lib/runtime.js';",
        '  const specifier = `../impl/${stem}.js`;',
      ],
    },
  },
];

describe('emitRegistry', () => {
  it.each(CASES)('$name', async ({ fixture, project, ctx, lines }) => {
    const files = emitRegistry(project(), ctx ?? EMIT_CONTEXT);
    expect(files.map((file) => [file.path, file.kind, file.preformatted])).toEqual([
      ['registry.ts', 'generated', true],
      ['index.ts', 'generated', true],
      ['catalog.json', 'generated', undefined],
      ['lazy-registry.ts', 'generated', true],
    ]);
    for (const file of files) {
      const content = file.content.split('\n');
      for (const line of lines[file.path] ?? []) expect(content).toContain(line);
      expect(content.filter((line) => line !== line.trimEnd())).toEqual([]);
      await expect(file.content).toMatchFileSnapshot(path.join(FIXTURES, fixture, `${file.path}.snap`));
    }
    expect(FILES).toEqual(files.map((file) => file.path));
  });
});

describe('emitToolSchemaFile', () => {
  const cases = [
    {
      name: 'the bundled input and output schemas, a `__proto__` property kept as data',
      definitions: {
        'x.tool.json': tool(
          'x',
          JSON.parse(
            '{"type":"object","properties":{"__proto__":{"$ref":"#/definitions/D"}},"definitions":{"D":{"type":"string"}}}',
          ),
          { outputSchema: { type: 'string' } },
        ),
      },
      expected: {
        path: 'schemas/x.json',
        kind: 'generated',
        content: `${[
          '{',
          '  "inputSchema": {',
          '    "type": "object",',
          '    "properties": {',
          '      "__proto__": {',
          '        "$ref": "#/definitions/D"',
          '      }',
          '    },',
          '    "definitions": {',
          '      "D": {',
          '        "type": "string"',
          '      }',
          '    }',
          '  },',
          '  "outputSchema": {',
          '    "type": "string"',
          '  }',
          '}',
        ].join('\n')}\n`,
      },
    },
    {
      name: 'no output schema: no `outputSchema` key; a shared type copied under `definitions`',
      definitions: {
        'shared/id.schema.json': { type: 'string', minLength: 1 },
        'get_thing.tool.json': tool('get_thing', {
          type: 'object',
          properties: { id: { $ref: 'shared/id.schema.json' } },
        }),
      },
      expected: {
        path: 'schemas/get-thing.json',
        kind: 'generated',
        content: `${[
          '{',
          '  "inputSchema": {',
          '    "type": "object",',
          '    "properties": {',
          '      "id": {',
          '        "$ref": "#/definitions/Id"',
          '      }',
          '    },',
          '    "definitions": {',
          '      "Id": {',
          '        "type": "string",',
          '        "minLength": 1',
          '      }',
          '    }',
          '  }',
          '}',
        ].join('\n')}\n`,
      },
    },
  ];
  it.each(cases)('$name', ({ definitions, expected }) => {
    const project = projectOf(definitions);
    const name = Object.keys(definitions)
      .find((file) => file.endsWith('.tool.json'))!
      .replace('.tool.json', '');
    expect(emitToolSchemaFile(toolOf(project, name))).toEqual(expected);
  });
});
