/**
 * The field corpus (test/fixtures/field/): tool definitions in the shapes real projects write —
 * pydantic v2 (`Optional[str] = None`, titles, `$defs`), zod-to-json-schema (`.nullable()`, a
 * draft-07 `$schema`), vendor annotations, `optional: true`, `markdownDescription`, `format: "json"`,
 * defaults Ajv never fills in, a JSON Schema 2020-12 definition, and two names that differ only in
 * case (`typeName`). Generated into a temporary project with hand-written implementations, the
 * output type-checks (tsc, strict), every call in `calls.json` answers as listed, and the warnings
 * printed are exactly `expected-warnings.txt`; `--strict` turns them into errors and writes nothing.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { generate } from '../../codegen/generate.js';
import { createTempProject, REPO, run, typeCheck, type TempProject } from '../helpers/temp-project.js';

const FIXTURE = path.join(REPO, 'test/fixtures/field');

interface CorpusCall {
  tool: string;
  arguments: Record<string, unknown>;
  output?: unknown;
  error?: string;
}

async function cli(project: TempProject, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    cwd: project.root,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** Runs each call through a `ToolOrchestrator` over the project's generated registry (imported through tsx); the answers in the shape of `calls.json`. */
async function callAll(project: TempProject, calls: CorpusCall[]): Promise<CorpusCall[]> {
  project.write('check/calls.json', calls);
  project.write(
    'check/call.mjs',
    `import { readFileSync } from 'node:fs';
import { ToolOrchestrator } from '${path.posix.join('..', project.runtimeImport)}';
import { createTools } from '../generated/registry.js';
const orchestrator = new ToolOrchestrator({ tools: createTools() });
const results = [];
for (const call of JSON.parse(readFileSync(new URL('./calls.json', import.meta.url), 'utf8'))) {
  const result = await orchestrator.processToolCall({
    toolCallRequest: { id: 'c', name: call.tool, arguments: JSON.stringify(call.arguments) },
    gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' },
  });
  results.push(result.isError ? { tool: call.tool, arguments: call.arguments, error: result.errorDetails.code } : { tool: call.tool, arguments: call.arguments, output: result.output });
}
await orchestrator.shutdown();
console.log(JSON.stringify(results));
`,
  );
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/call.mjs'], { cwd: project.root });
  return JSON.parse(stdout) as CorpusCall[];
}

/** A temp project with the corpus's schemas and implementations (their runtime import pointed at this repository). */
function corpusProject(): TempProject {
  const project = createTempProject();
  cpSync(path.join(FIXTURE, 'schemas'), path.join(project.root, 'schemas'), { recursive: true });
  const runtime = path
    .relative(path.join(project.root, 'src/tools'), path.join(REPO, 'src/index.js'))
    .split(path.sep)
    .join('/');
  for (const file of readdirSync(path.join(FIXTURE, 'tools'))) {
    project.write(
      `src/tools/${file}`,
      readFileSync(path.join(FIXTURE, 'tools', file), 'utf8').replace('__RUNTIME__', runtime),
    );
  }
  project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
  return project;
}

describe('the field corpus generates, type-checks and calls correctly', () => {
  let project: TempProject;
  let first: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    project = corpusProject();
    first = await cli(project, ['generate']);
  }, 120_000);
  afterAll(() => project.dispose());

  it('generates (exit 0) and prints every warning with file:line:column, pointer and hint', () => {
    expect(first.stderr).toBe(readFileSync(path.join(FIXTURE, 'expected-warnings.txt'), 'utf8'));
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^toolsmith: 7 tools \(0 unchanged, skipped\), \d+ files written/);
    // Real positions only: no warning falls back to the top of a file.
    expect(first.stderr).not.toMatch(/:1:1 /);
  });

  it('names the case-only twin by its typeName', () => {
    const files = Object.keys(project.snapshot('generated'));
    expect(files).toContain('tools/calculate-bmi.base.ts');
    expect(files).toContain('tools/calculate-bmi-imperial.base.ts');
    expect(project.read('generated/types/calculate-bmi-imperial.ts')).toContain(
      'export interface CalculateBmiImperialInput',
    );
  });

  it('gives $defs types of their own and 2020-12 tuples tuple types', () => {
    const notes = project.read('generated/types/search-notes.ts');
    expect(notes).toContain('order?: SearchNotesSortOrder;');
    expect(notes).toContain('filter?: SearchNotesFilter | null;');
    expect(notes).toContain("export type SearchNotesSortOrder = 'newest' | 'oldest';");
    expect(notes).toContain('hits: SearchNotesHit[];');
    const range = project.read('generated/types/parse-range.ts');
    expect(range).toContain('bounds: [number, number];');
    // `unevaluatedProperties: false` closes the input type; the output (no such keyword) stays open.
    expect(
      range.slice(
        range.indexOf('export interface ParseRangeInput'),
        range.indexOf('export interface ParseRangeOutput'),
      ),
    ).not.toContain('[k: string]: unknown');
    expect(range.slice(range.indexOf('export interface ParseRangeOutput'))).toContain('[k: string]: unknown');
    // A shared schema's `$defs` become shared types, imported (never copied) by the tool that uses them.
    const place = project.read('generated/types/find-place.ts');
    expect(place).toContain("import type { Geo, Point } from './shared/geo.js';");
    expect(place).toContain('near: Point;');
    expect(project.read('generated/types/shared/geo.ts')).toContain('export interface Point {');
  });

  it('documents $defs types and links them', () => {
    const page = project.read('generated/docs/tools/search-notes.md');
    expect(page).toContain('| `order` | [SearchNotesSortOrder](#searchnotessortorder) | no | `"newest"` |');
    expect(page).toContain('### SearchNotesFilter');
  });

  it('bundles shared schemas into the $defs a draft-07 tool schema already uses', () => {
    const base = project.read('generated/schemas/find-place.json');
    const schemas = JSON.parse(base) as { inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown> };
    expect(Object.keys(schemas.outputSchema.$defs as object)).toEqual(['Geo', 'Place', 'Point']);
    expect(schemas.outputSchema.definitions).toBeUndefined();
    expect((schemas.outputSchema.$defs as Record<string, unknown>).Place).toEqual({ $ref: '#/$defs/Geo' });
    expect(schemas.inputSchema.definitions).toEqual({
      Point: {
        type: 'object',
        properties: { lat: { type: 'number' }, lon: { type: 'number' } },
        required: ['lat', 'lon'],
        additionalProperties: false,
      },
    });
  });

  it('type-checks the output and the implementations (tsc, strict)', async () => {
    const result = await typeCheck(project, ['generated', 'src']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('answers every call of calls.json as listed, through the orchestrator and the generated validators', async () => {
    const calls = JSON.parse(readFileSync(path.join(FIXTURE, 'calls.json'), 'utf8')) as CorpusCall[];
    expect(await callAll(project, calls)).toEqual(calls);
  }, 120_000);

  it('publishes every tool to MCP in 2020-12 (the 2020-12 tool as written, the others translated)', () => {
    const mcp = JSON.parse(project.read('generated/manifests/mcp.json')) as {
      tools: { name: string; inputSchema: { $schema: string }; outputSchema?: { $schema: string } }[];
    };
    const dialects = Object.fromEntries(
      mcp.tools.map((tool) => [tool.name, [tool.inputSchema.$schema, tool.outputSchema?.$schema]]),
    );
    expect(dialects.parse_range).toEqual([
      'https://json-schema.org/draft/2020-12/schema',
      'https://json-schema.org/draft/2020-12/schema',
    ]);
    expect(dialects.search_notes).toEqual([
      'https://json-schema.org/draft/2020-12/schema',
      'https://json-schema.org/draft/2020-12/schema',
    ]);
    // The providers get the draft-07 form: the tuple as `items` + `additionalItems` (OpenAI), `prefixItems` again for Anthropic.
    const openai = project.read('generated/manifests/openai.json');
    expect(openai).not.toContain('prefixItems');
    expect(project.read('generated/manifests/anthropic.json')).toContain('"prefixItems"');
  });

  it('with --strict, the warnings are errors: exit 1 and nothing is written', async () => {
    const before = { generated: project.snapshot('generated'), tools: project.snapshot('src/tools') };
    writeFileSync(
      path.join(project.root, 'schemas/score_text.tool.json'),
      readFileSync(path.join(project.root, 'schemas/score_text.tool.json'), 'utf8').replace(
        '"minLength": 1',
        '"minLength": 2',
      ),
    );
    const strict = await cli(project, ['generate', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    expect(strict.stderr.split('\n')[0]).toBe(
      'toolsmith: 6 problems (6 of them warnings, errors under --strict); nothing was written.',
    );
    expect(strict.stderr).toContain(
      'schemas/render_chart.tool.json:9:37 /inputSchema/properties/width/optional: warning: unknown keyword "optional" is ignored',
    );
    expect({ generated: project.snapshot('generated'), tools: project.snapshot('src/tools') }).toEqual(before);
    // The config key does the same; `check` honours it too.
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport, strict: true });
    const check = await cli(project, ['check']);
    expect(check.code).toBe(1);
    expect(check.stderr.split('\n')[0]).toBe(
      'toolsmith: 6 problems (6 of them warnings, errors under --strict); nothing was written.',
    );
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
    // Without strict the edited definition generates, and the warnings are printed again (a run with warnings records no shortcut).
    const again = await cli(project, ['generate']);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(readFileSync(path.join(FIXTURE, 'expected-warnings.txt'), 'utf8'));
    const cached = await cli(project, ['generate']);
    expect(cached.stdout).toMatch(/\(7 unchanged, skipped\), 0 files written/);
    expect(cached.stderr).toBe(readFileSync(path.join(FIXTURE, 'expected-warnings.txt'), 'utf8'));
  }, 120_000);

  it('re-emits a cached 2020-12 tool with the same Ajv 2020 validator', async () => {
    const file = 'generated/validators/parse-range.js';
    const before = project.read(file);
    expect(before).toContain('evaluated'); // Ajv 2020's unevaluatedProperties bookkeeping
    rmSync(path.join(project.root, file));
    const result = await cli(project, ['generate']);
    expect(result.stdout).toMatch(/\(6 unchanged, skipped\), 1 files written/);
    expect(project.read(file)).toBe(before);
  }, 120_000);
});

describe('the programmatic API', () => {
  it('returns the warnings beside the files, and with strict as problems without files', async () => {
    const project = corpusProject();
    try {
      const result = await generate({ root: project.root, runtimeImport: project.runtimeImport });
      expect(result.problems).toEqual([]);
      expect(result.diff.missing.length).toBeGreaterThan(0);
      expect(
        result.warnings.map((warning) => `${warning.file}:${warning.line}:${warning.column} ${warning.pointer}`),
      ).toEqual([
        'schemas/render_chart.tool.json:6:16 /inputSchema/default',
        'schemas/render_chart.tool.json:8:45 /inputSchema/properties/spec/format',
        'schemas/render_chart.tool.json:8:53 /inputSchema/properties/spec/markdownDescription',
        'schemas/render_chart.tool.json:9:37 /inputSchema/properties/width/optional',
        'schemas/render_chart.tool.json:13:92 /inputSchema/properties/theme/anyOf/1/properties/background/default',
        'schemas/search_notes.tool.json:20:111 /inputSchema/$defs/Filter/properties/exact/default',
      ]);
      expect(result.warnings.every((warning) => warning.severity === 'warning')).toBe(true);
      const strict = await generate({
        root: project.root,
        runtimeImport: project.runtimeImport,
        strict: true,
      });
      expect(strict.replaced).toBe(false);
      expect(strict.warnings).toEqual([]);
      expect(strict.problems).toEqual(result.warnings);
    } finally {
      project.dispose();
    }
  }, 120_000);
});

/**
 * Tool names with a digit followed by a lower-case letter (`md5sum`, `base64decode`,
 * `get_v2beta_item`). Their implementations are the generated stubs with a body written in, so
 * they use whatever names the generator chose.
 */
describe('names with digits', () => {
  const DIGITS = path.join(REPO, 'test/fixtures/field-digit-names');
  let project: TempProject;

  beforeAll(async () => {
    project = createTempProject();
    cpSync(path.join(DIGITS, 'schemas'), path.join(project.root, 'schemas'), { recursive: true });
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
    const result = await cli(project, ['generate']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const bodies = JSON.parse(readFileSync(path.join(DIGITS, 'bodies.json'), 'utf8')) as Record<string, string>;
    for (const file of readdirSync(path.join(project.root, 'src/tools'))) {
      const stub = project.read(`src/tools/${file}`);
      const name = /Implementation of the tool `([^`]+)`/.exec(stub)![1]!;
      const filled = stub.replace(/void args;\s*return \{\s*success: false,[\s\S]*?\};/, bodies[name]!);
      expect(filled).not.toBe(stub);
      project.write(`src/tools/${file}`, filled);
    }
  }, 120_000);
  afterAll(() => project.dispose());

  it('calls each tool correctly', async () => {
    const calls = JSON.parse(readFileSync(path.join(DIGITS, 'calls.json'), 'utf8')) as CorpusCall[];
    expect(await callAll(project, calls)).toEqual(calls);
  }, 120_000);

  // One naming rule serves every emitter: json-schema-to-typescript would name `md5sum`'s input
  // `Md5SumInput` while the base and registry import `Md5sumInput` (TS2724) without it.
  it('type-checks (tsc, strict)', async () => {
    const result = await typeCheck(project, ['generated', 'src']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});
