/**
 * The docs renderer (`createDocRenderer`) with the bundled templates, table-driven: each catalog
 * tool's page and the project pages compared with `test/fixtures/emit/.../*.md.snap`, plus the lines
 * each row is about (Markdown escaping of schema text, links to shared and local types, the facts
 * table of side-effect and composed tools).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDocRenderer } from '../../../codegen/emit/docs.js';
import { loadTemplates } from '../../../codegen/templates/index.js';
import { catalogProject } from './catalog.js';
import { EMIT_CONTEXT, projectOf, tool, toolOf } from './project.js';
import { emitManifests } from '../model-factory.js';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'emit');

interface Case {
  tool: string;
  name: string;
  lines: string[];
}

const CASES: Case[] = [
  {
    tool: 'weather_lookup',
    name: 'every fact, a shared type linked to its page, a local definition to its section, output rows, an example, the losses',
    lines: [
      '| Id | `weather_lookup@2.1.0` |',
      '| Timeout | 5000 ms |',
      '| `at` | [GeoPoint](../types/shared/geo-point.md#geopoint) | yes |  |  |  |',
      '| `units` | [WeatherLookupUnits](#weatherlookupunits) | no |  |  |  |',
      '| `days` | integer | no | `1` | `minimum: 1`, `maximum: 7` | How many days ahead. |',
      '| `forecasts[].day` | string | yes |  | `format: "date"` |  |',
      '### WeatherLookupUnits',
      '### Tomorrow in Paris',
    ],
  },
  {
    tool: 'send_email',
    name: 'a side-effect tool: approval asked, destructive by default, an array default',
    lines: [
      '| Side effects | yes |',
      '| Approval | every call needs a decision (the default policy, `side-effects`): the approval gate, or over MCP the user when the client can ask; without one it is refused unless side effects are allowed |',
      '| `cc` | array of string | no | `[]` |  |  |',
    ],
  },
  {
    tool: 'forecast_mail',
    name: 'a composed tool',
    lines: [
      '# Forecast Mail (`forecast_mail`)',
      '| `at` | [GeoPoint](../types/shared/geo-point.md#geopoint) | yes |  |  |  |',
    ],
  },
  {
    tool: 'odd_text',
    name: 'schema text is escaped for Markdown: code, emphasis, a pipe and a line break in a table cell',
    lines: [
      'Ends \\*/ here, \\`ticks\\`, "quotes", back\\\\slash, ${x},',
      '| `constructor` | string | no |  |  | Closes \\*/ a comment? \\`not\\` code \\| a pipe<br>second line |',
      '| `__proto__` | string | no |  | one of `"\\"quoted\\""`, `"it\'s"`, `"back\\\\slash"` |  |',
    ],
  },
  {
    tool: 'constructor',
    name: 'a tool named `constructor` with no properties',
    lines: ['# Constructor (`constructor`)'],
  },
];

describe('createDocRenderer', () => {
  const project = catalogProject();
  const renderer = createDocRenderer(loadTemplates());
  const { losses, unavailable } = emitManifests(project, EMIT_CONTEXT, { describeLosses: false });

  it.each(CASES)('toolPage $tool: $name', async ({ tool, lines }) => {
    const model = toolOf(project, tool);
    const page = renderer.toolPage(model, EMIT_CONTEXT, { losses: losses[tool], unavailable: unavailable[tool] });
    expect(page.path).toBe(`docs/tools/${model.names.kebab}.md`);
    const content = page.content.split('\n');
    for (const line of lines) expect(content).toContain(line);
    await expect(page.content).toMatchFileSnapshot(path.join(FIXTURES, tool, 'page.md.snap'));
  });

  it('projectPages: the index by category (uncategorized last) and one page per shared module', async () => {
    const pages = renderer.projectPages(project, EMIT_CONTEXT);
    expect(pages.map((page) => page.path)).toEqual(['docs/index.md', 'docs/types/shared/geo-point.md']);
    const index = pages[0]!.content.split('\n');
    expect(index).toContain(
      '| [`odd_text`](./tools/odd-text.md) | Ends \\*/ here, \\`ticks\\`, "quotes", back\\\\slash, ${x}, | no |',
    );
    expect(index.indexOf('## mail')).toBeLessThan(index.indexOf('## web'));
    expect(index.indexOf('## web')).toBeLessThan(index.indexOf('## Other'));
    await expect(pages[0]!.content).toMatchFileSnapshot(path.join(FIXTURES, 'docs-catalog', 'index.md.snap'));
    await expect(pages[1]!.content).toMatchFileSnapshot(path.join(FIXTURES, 'docs-catalog', 'geo-point.md.snap'));
  });
});

describe('createDocRenderer: schema shapes', () => {
  it('`definitions` and `$defs` sections, a nullable type, a map, an array of objects with its item rows', async () => {
    const project = projectOf({
      'shapes.tool.json': tool('shapes', {
        type: 'object',
        additionalProperties: false,
        required: ['rows'],
        properties: {
          a: { $ref: '#/definitions/Point' },
          b: { $ref: '#/$defs/Size' },
          m: { type: 'object', additionalProperties: { type: 'number' } },
          n: { type: ['string', 'null'] },
          rows: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } },
        },
        definitions: { Point: { type: 'object', properties: { x: { type: 'number' } } } },
        $defs: { Size: { enum: ['s', 'm'] } },
      }),
    });
    const { losses, unavailable } = emitManifests(project, EMIT_CONTEXT, { describeLosses: false });
    const page = createDocRenderer(loadTemplates()).toolPage(toolOf(project, 'shapes'), EMIT_CONTEXT, {
      losses: losses.shapes,
      unavailable: unavailable.shapes,
    });
    const content = page.content.split('\n');
    for (const line of [
      '| `a` | [ShapesPoint](#shapespoint) | no |  |  |  |',
      '| `b` | [ShapesSize](#shapessize) | no |  |  |  |',
      '| `n` | string or null | no |  |  |  |',
      '| `rows[].id` | string | yes |  |  |  |',
      '### ShapesSize',
    ])
      expect(content).toContain(line);
    await expect(page.content).toMatchFileSnapshot(path.join(FIXTURES, 'shapes', 'page.md.snap'));
  });
});
