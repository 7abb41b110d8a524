import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeMarkdown, escapeMarkdownParagraph, tableCell } from '../../codegen/emit/docs.js';
import { loadTemplates } from '../../codegen/templates/index.js';
import { docsProject } from '../fixtures/docs/fixture-tools.js';
import { makeProject, makeTool, TEST_CONTEXT, emitDocs, emitManifests } from './model-factory.js';

const expectedDir = join(import.meta.dirname, '..', 'fixtures', 'docs', 'expected');

function render(project = docsProject, templates = loadTemplates()) {
  const manifests = emitManifests(project, TEST_CONTEXT, { describeLosses: false });
  return emitDocs(project, TEST_CONTEXT, { templates, losses: manifests.losses, unavailable: manifests.unavailable });
}

function page(files: ReturnType<typeof render>, path: string): string {
  const found = files.find((file) => file.path === path);
  if (found === undefined) throw new Error(`no ${path} among ${files.map((file) => file.path).join(', ')}`);
  return found.content;
}

describe('emitDocs', () => {
  const files = render();

  // File snapshots: a change to what the pages say is reviewed in the diff (`npx vitest run -u <this file>` rewrites them).
  it('renders the fixture tool page exactly as expected', async () => {
    await expect(page(files, 'docs/tools/place-search.md')).toMatchFileSnapshot(join(expectedDir, 'place-search.md'));
  });

  it('renders the index by category exactly as expected', async () => {
    await expect(page(files, 'docs/index.md')).toMatchFileSnapshot(join(expectedDir, 'index.md'));
  });

  it('emits one page per tool and per shared schema module', () => {
    expect(files.map((file) => file.path)).toEqual([
      'docs/index.md',
      'docs/tools/ping.md',
      'docs/tools/place-search.md',
      'docs/types/shared/geo-point.md',
    ]);
  });

  it('links shared $ref types to their types page and local definitions to a section', () => {
    const tool = page(files, 'docs/tools/place-search.md');
    expect(tool).toContain('| `near` | [GeoPoint](../types/shared/geo-point.md#geopoint) | yes |');
    expect(tool).toContain('| `area` | [PlaceSearchArea](#placesearcharea) | no |');
    expect(tool).toContain('### PlaceSearchArea');
    expect(page(files, 'docs/types/shared/geo-point.md')).toContain('## GeoPoint\n\nA point on Earth.\n\n| Property |');
  });

  it('says what each provider manifest loses for the tool', () => {
    const tool = page(files, 'docs/tools/place-search.md');
    expect(tool).toContain('- **Anthropic**: nothing lost.');
    expect(tool).toContain(
      '  - `maxLength: 200` at `/inputSchema/properties/query` dropped for openai-strict: the model is not told the length limit; the runtime still enforces it',
    );
    expect(tool).toContain('  - `format: "uuid"` at `/inputSchema/definitions/Area/oneOf/0` dropped for gemini');
  });

  it('shows a target that cannot take the tool, and one turned off', () => {
    const project = makeProject([
      makeTool({ name: 'web.search', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }),
    ]);
    const manifests = emitManifests(project, TEST_CONTEXT, { targets: ['openai', 'gemini'] });
    const tool = page(
      emitDocs(project, TEST_CONTEXT, {
        templates: loadTemplates(),
        losses: manifests.losses,
        unavailable: manifests.unavailable,
      }),
      'docs/tools/web-search.md',
    );
    expect(tool).toContain(
      "- **OpenAI (function calling)**: not available. Tool name 'web.search' cannot be sent to openai",
    );
    expect(tool).toContain('- **Gemini (JSON Schema)**: nothing lost.');
    expect(tool).toContain('- **Anthropic**: not generated (target turned off).');
  });

  it('lists the declared errors: code, retryable, data and what each means', () => {
    const project = makeProject([
      makeTool({
        name: 'quote',
        errors: [
          {
            code: 'RATE_LIMITED',
            description: 'Too many lookups | wait',
            retryable: true,
            data: {
              type: 'object',
              required: ['retryAfterMs'],
              properties: { retryAfterMs: { type: 'integer' }, scope: { type: 'string' } },
            },
          },
          { code: 'UNKNOWN_SYMBOL', description: 'No such symbol.' },
        ],
      }),
    ]);
    const tool = page(render(project), 'docs/tools/quote.md');
    expect(tool).toContain(
      [
        '| Code | Retryable | Data | What it means |',
        '| --- | --- | --- | --- |',
        '| `RATE_LIMITED` | yes | `retryAfterMs` integer, `scope` string (optional) | Too many lookups \\| wait |',
        '| `UNKNOWN_SYMBOL` | no | none | No such symbol. |',
      ].join('\n'),
    );
    expect(page(render(makeProject([makeTool({ name: 'plain' })])), 'docs/tools/plain.md')).not.toContain('## Errors');
  });

  it('is byte-stable and LF-only', () => {
    expect(render()).toEqual(files);
    for (const file of files) {
      expect(file.content).not.toContain('\r');
      expect(file.content.endsWith('\n')).toBe(true);
      expect(file.content.endsWith('\n\n')).toBe(false);
    }
  });
});

describe('Markdown escaping of schema text', () => {
  it.each([
    ['a | b', 'a \\| b'],
    ['line one\nline two', 'line one<br>line two'],
    ['use `rm -rf`', 'use \\`rm -rf\\`'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['[click](http://x) *bold* _it_', '\\[click\\](http://x) \\*bold\\* \\_it\\_'],
    ['back\\slash|', 'back\\\\slash\\|'],
  ])('table cell %j → %j', (text, expected) => {
    expect(tableCell(escapeMarkdownParagraph(text))).toBe(expected);
  });

  it('a paragraph cannot open a heading, list or quote', () => {
    expect(escapeMarkdownParagraph('# title\n- item\n> quote\n1. one')).toBe(
      '\\# title\n\\- item\n&gt; quote\n1\\. one',
    );
  });

  it('inline text keeps no HTML or entities', () => {
    expect(escapeMarkdown('&amp; <b>')).toBe('&amp;amp; &lt;b&gt;');
  });

  it('a description with a pipe and a newline stays inside its table row', () => {
    const project = makeProject([
      makeTool({
        name: 'probe',
        inputSchema: {
          type: 'object',
          properties: { q: { type: 'string', description: 'a|b\n`c`', enum: ['x|y', 'with `tick`'] } },
        },
      }),
    ]);
    const tool = page(render(project), 'docs/tools/probe.md');
    expect(tool).toContain('| `q` | string | no |  | one of `"x\\|y"`, ``"with `tick`"`` | a\\|b<br>\\`c\\` |');
  });
});

describe('loadTemplates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolsmith-templates-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the defaults', () => {
    const templates = loadTemplates();
    expect(Object.keys(templates)).toEqual(['index', 'tool', 'types']);
    expect(templates.tool).toContain('## Input');
  });

  it('takes a user file where present and falls back to the default per file', () => {
    writeFileSync(join(dir, 'index.hbs'), 'Custom index: {{#each categories}}{{name}};{{/each}}\n');
    const templates = loadTemplates(dir);
    expect(templates.index).toBe('Custom index: {{#each categories}}{{name}};{{/each}}\n');
    expect(templates.tool).toBe(loadTemplates().tool);
    expect(page(render(docsProject, templates), 'docs/index.md')).toBe('Custom index: Geo;Other;\n');
  });

  it('names a missing template', () => {
    expect(() => emitDocs(docsProject, TEST_CONTEXT, { templates: { index: '' }, losses: {} })).toThrow(
      "Docs template 'tool' is missing. Given: index.",
    );
  });
});
