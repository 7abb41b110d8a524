import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../codegen/cli/main.js';
import { resolveOptions } from '../../../codegen/config/options.js';
import { modelCacheText, modelsFile, parseModelCache } from '../../../codegen/incremental/index.js';
import { createTempProject, type TempProject } from '../../helpers/temp-project.js';

/*
 * A side that is the project's schemas folder takes the models the last `toolsmith generate` built
 * (its model cache) instead of normalizing every definition again, under generate's own rules.
 */
/** How many times a diff read the model cache (`lastRunModels`, counted on its way through). */
const cacheReads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../codegen/incremental/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../codegen/incremental/index.js')>();
  return {
    ...original,
    lastRunModels: (...args: Parameters<typeof original.lastRunModels>) => {
      cacheReads.count++;
      return original.lastRunModels(...args);
    },
  };
});

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.dispose();
});

const search = (maximum: number) => ({
  name: 'search',
  description: 'Searches.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { query: { $ref: './common/query.schema.json' }, limit: { type: 'integer', minimum: 1, maximum } },
    required: ['query'],
  },
});
const lookup = (maxLength: number) => ({
  name: 'lookup',
  description: 'Looks up.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { key: { type: 'string', maxLength } },
    required: ['key'],
  },
});
const query = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });

async function run(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

/** A generated project (`schemas`, its model cache) and an `after` folder with `search`'s maximum lowered. */
async function generatedProject() {
  const project = createTempProject();
  projects.push(project);
  project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
  project.write('schemas/search.tool.json', search(100));
  project.write('schemas/lookup.tool.json', lookup(40));
  project.write('schemas/common/query.schema.json', query(200));
  const generated = await run(['generate'], project.root);
  expect(generated.stderr).toBe('');
  expect(generated.code).toBe(0);
  cpSync(path.join(project.root, 'schemas'), path.join(project.root, 'after'), { recursive: true });
  project.write('after/search.tool.json', search(50));
  const resolved = resolveOptions({ root: project.root });
  const modelCache = modelsFile(resolved.root, resolved.outDir)!;
  return { project, modelCache };
}

/** Every way the schemas folder meets the `after` folder, text and `--json`. */
const COMMANDS = [
  ['diff', 'schemas', 'after'],
  ['diff', 'after', 'schemas'],
  ['diff', 'after'],
  ['diff', 'schemas', 'after', '--json'],
  ['diff', 'after', '--json'],
];

async function reports(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const args of COMMANDS) {
    const { code, stdout, stderr } = await run(args, root);
    out.push(`${code}\n${stdout}${stderr}`);
  }
  return out;
}

/**
 * Rewrites a definition's model in the model cache so that one property of its input takes other
 * keywords (`extra`); the line keeps the hash of the definition's bytes, so the model is served as
 * built from them.
 */
function tamper(modelCache: string, file: string, property: string, extra: object): void {
  const cache = parseModelCache(readFileSync(modelCache, 'utf8'));
  const entry = cache.tools[file]!;
  const inputSchema = entry.model.inputSchema as { properties: Record<string, object> };
  const properties = { ...inputSchema.properties, [property]: { ...inputSchema.properties[property], ...extra } };
  cache.tools[file] = { ...entry, model: { ...entry.model, inputSchema: { ...inputSchema, properties } } };
  writeFileSync(modelCache, modelCacheText(cache));
}

type Report = { tools: { name: string; verdict: string; changes: { pointer: string; message: string }[] }[] };
const toolOf = (report: Report, name: string) => report.tools.find((tool) => tool.name === name)!;

describe('toolsmith diff: the models of the last generate', () => {
  it('gives the report of a cold run, and takes the unchanged definitions of the schemas folder from the model cache', async () => {
    const { project, modelCache } = await generatedProject();
    const warm = await reports(project.root);
    expect(warm[0]).toContain('breaking input /inputSchema/properties/limit/maximum: maximum 100 → 50');
    const written = readFileSync(modelCache, 'utf8');

    // The cache is what the schemas side reads: a model made to differ from its definition (the
    // same bytes recorded) shows through. (`search` differs between the sides, so the other side
    // has no model of its bytes to lend.)
    tamper(modelCache, 'search.tool.json', 'limit', { maximum: 70 });
    const tampered = JSON.parse((await run(['diff', 'schemas', 'after', '--json'], project.root)).stdout) as Report;
    expect(toolOf(tampered, 'search').changes[0]).toMatchObject({
      pointer: '/inputSchema/properties/limit/maximum',
      message: expect.stringContaining('maximum 70 → 50'),
    });

    // So the untampered cache gave the cold run's reports.
    writeFileSync(modelCache, written);
    expect(await reports(project.root)).toEqual(warm);
    rmSync(modelCache);
    expect(await reports(project.root)).toEqual(warm);
  }, 60_000);

  it('reads the model cache once per run: `diff schemas schemas` loads the one side once', async () => {
    const { project } = await generatedProject();
    cacheReads.count = 0;
    const same = await run(['diff', 'schemas', 'schemas', '--json'], project.root);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).verdict).toBe('unchanged');
    expect(cacheReads.count).toBe(1);
    cacheReads.count = 0;
    expect((await run(['diff', 'schemas', 'after'], project.root)).code).toBe(1);
    expect(cacheReads.count).toBe(1);
  }, 60_000);

  it('normalizes again a definition or shared schema edited after the generate, and ignores a cache made for other settings', async () => {
    const { project, modelCache } = await generatedProject();
    // Edited since the generate: its bytes are not those its cached model was built from.
    project.write('schemas/lookup.tool.json', lookup(10));
    const edited = JSON.parse((await run(['diff', 'after', 'schemas', '--json'], project.root)).stdout) as Report;
    expect(toolOf(edited, 'lookup').changes[0]).toMatchObject({
      pointer: '/inputSchema/properties/key/maxLength',
      verdict: 'breaking',
      message: expect.stringContaining('maxLength 40 → 10'),
    });

    // A shared schema edited since (search bundles it): no model of the cache holds, lookup's neither.
    project.write('schemas/lookup.tool.json', lookup(40));
    project.write('schemas/common/query.schema.json', query(20));
    tamper(modelCache, 'lookup.tool.json', 'key', { maxLength: 3 });
    const shared = JSON.parse((await run(['diff', 'after', 'schemas', '--json'], project.root)).stdout) as Report;
    expect(toolOf(shared, 'lookup').verdict).toBe('unchanged');
    expect(toolOf(shared, 'search').changes.map((change) => change.message)).toEqual([
      expect.stringContaining('maxLength 200 → 20'),
      expect.stringContaining('maximum 50 → 100'),
    ]);

    // Another config (the settings are part of the cache key): the last generate's models are not used.
    project.write('schemas/common/query.schema.json', query(200));
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport, regenerateCommand: 'make sdk' });
    tamper(modelCache, 'search.tool.json', 'limit', { maximum: 70 });
    const settings = JSON.parse((await run(['diff', 'schemas', 'after', '--json'], project.root)).stdout) as Report;
    expect(toolOf(settings, 'search').changes[0]?.message).toContain('maximum 100 → 50');

    // A config that does not load stops the diff as it stops every command: its problems, exit 2.
    project.write('toolsmith.config.json', '{ "schemas": 5 }\n');
    const broken = await run(['diff', 'schemas', 'after', '--json'], project.root);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^toolsmith\.config\.json:1:\d+/m);
    expect(JSON.parse(broken.stdout)).toMatchObject({ error: 'the config does not load' });
  }, 60_000);
});
