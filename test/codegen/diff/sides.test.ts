import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../codegen/cli/main.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolsmith-diff-sides-'));
  dirs.push(dir);
  for (const [rel, value] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  }
  return dir;
}

async function run(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(['diff', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

describe('toolsmith diff: manifest snapshot sides', () => {
  it("the project's own mcp.json (2020-12) against its definitions (draft-07) is unchanged, both ways", async () => {
    for (const args of [
      ['generated/manifests/mcp.json', 'schemas'],
      ['schemas', 'generated/manifests/mcp.json'],
    ]) {
      const { code, stdout } = await run([...args, '--json'], REPO);
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      expect(report.verdict).toBe('unchanged');
      expect(report.tools.length).toBeGreaterThanOrEqual(7);
      expect(report.tools.every((t: { change: string }) => t.change === 'unchanged')).toBe(true);
    }
  });

  it('a saved tools/list JSON-RPC answer: a narrowed 2020-12 schema and a lost read-only hint are breaking, placed in the snapshot', async () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'generated/manifests/mcp.json'), 'utf8'));
    const calculator = manifest.tools.find((t: { name: string }) => t.name === 'calculator');
    calculator.inputSchema.properties.expression.maxLength = 100;
    calculator.annotations.readOnlyHint = false;
    const text = `${JSON.stringify({ jsonrpc: '2.0', id: 2, result: manifest }, null, 2)}\n`;
    const root = tree({ 'answer.json': text });
    const { code, stdout } = await run([path.join(REPO, 'schemas'), 'answer.json'], root);
    expect(code).toBe(1);
    expect(stdout).toContain('breaking input /inputSchema/properties/expression/maxLength: maxLength 500 → 100');
    expect(stdout).toContain(`after answer.json:${lineOf(text, '"maxLength": 100')}:`);
    expect(stdout).toContain('breaking tool /annotations/readOnlyHint: readOnlyHint true → false');
    const json = JSON.parse((await run([path.join(REPO, 'schemas'), 'answer.json', '--json'], root)).stdout);
    const change = json.tools.find((t: { name: string }) => t.name === 'calculator').changes[0];
    expect(change.witness).toEqual({ expression: 'a'.repeat(101) });
  });

  it('{ tools } with draft-07 schemas against a 2020-12 one: $defs and prefixItems read as definitions and items', async () => {
    const draft07 = {
      type: 'object',
      properties: {
        p: { $ref: '#/definitions/P' },
        t: { type: 'array', items: [{ type: 'string' }], additionalItems: false },
      },
      definitions: { P: { type: 'integer', maximum: 9 } },
    };
    const v2020 = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { p: { $ref: '#/$defs/P' }, t: { type: 'array', prefixItems: [{ type: 'string' }], items: false } },
      $defs: { P: { type: 'integer', maximum: 3 } },
    };
    const root = tree({
      'a.json': {
        tools: [{ name: 'x', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...draft07 } }],
      },
      'b.json': { tools: [{ name: 'x', inputSchema: v2020 }] },
    });
    const report = JSON.parse((await run(['a.json', 'b.json', '--json'], root)).stdout);
    expect(report.tools[0].changes.map((c: { pointer: string; verdict: string }) => [c.pointer, c.verdict])).toEqual([
      ['/inputSchema/properties/p/maximum', 'breaking'],
    ]);
  });

  it('a snapshot schema whose $schema is not a string is read as 2020-12 and placed in its $defs', async () => {
    const schema = (maximum: number, $schema?: unknown) => ({
      ...($schema === undefined ? {} : { $schema }),
      type: 'object',
      properties: { p: { $ref: '#/$defs/P' } },
      $defs: { P: { type: 'integer', maximum } },
    });
    const after = `${JSON.stringify({ tools: [{ name: 'x', inputSchema: schema(3, 7) }] }, null, 2)}\n`;
    const root = tree({ 'a.json': { tools: [{ name: 'x', inputSchema: schema(9) }] }, 'b.json': after });
    const { code, stdout } = await run(['a.json', 'b.json'], root);
    expect(code).toBe(1);
    expect(stdout).toContain('breaking input /inputSchema/properties/p/maximum: maximum 9 → 3');
    expect(stdout).toContain(`after b.json:${lineOf(after, '"maximum": 3')}:`);
  });

  it('a JSON file that is not a snapshot, or a tool without inputSchema: exit 2 with file:line:col', async () => {
    const root = tree({ 'x.json': { hello: 1 }, 'y.json': { tools: [{ name: 'a', inputSchema: {} }, { name: 'b' }] } });
    const notSnapshot = await run(['x.json', 'y.json'], root);
    expect(notSnapshot.code).toBe(2);
    expect(notSnapshot.stderr).toMatch(/^x\.json:1:1: not a manifest snapshot/m);
    expect(notSnapshot.stderr).toMatch(/^y\.json:\d+:\d+ \/tools\/1: tool b has no "inputSchema"/m);
  });

  it("a tool listed twice: exit 2 at the second entry's name", async () => {
    const root = tree({
      'x.json': {
        tools: [
          { name: 'a', inputSchema: {} },
          { name: 'a', inputSchema: {} },
        ],
      },
    });
    const twice = await run(['x.json', 'x.json'], root);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^x\.json:\d+:\d+ \/tools\/1\/name: tool a is listed twice/m);
  });
});

describe('toolsmith diff: a change inside a shared schema file', () => {
  const address = (maxLength: number) => ({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { zip: { $ref: '#/definitions/Zip' }, city: { type: 'string' } },
    definitions: { Zip: { type: 'string', maxLength } },
  });
  const tool = {
    name: 'ship',
    description: 'Ships a parcel.',
    inputSchema: {
      type: 'object',
      required: ['to'],
      properties: { to: { $ref: '../common/address.schema.json' } },
    },
  };

  it('carries the file, the pointer in it and via (the tool $ref reaching it), in --json and in the text', async () => {
    const root = tree({
      'a/tools/ship.tool.json': tool,
      'a/common/address.schema.json': address(10),
      'b/tools/ship.tool.json': tool,
      'b/common/address.schema.json': address(5),
    });
    const json = JSON.parse((await run(['a', 'b', '--json'], root)).stdout);
    expect(json.tools[0].changes).toEqual([
      {
        side: 'input',
        file: 'b/common/address.schema.json',
        pointer: '/definitions/Zip/maxLength',
        via: '/inputSchema/properties/to',
        verdict: 'breaking',
        message: expect.stringContaining('maxLength 10 → 5'),
        witness: { to: { zip: 'aaaaaa' } },
      },
    ]);
    const { code, stdout } = await run(['a', 'b'], root);
    expect(code).toBe(1);
    const shared = readFileSync(path.join(root, 'b/common/address.schema.json'), 'utf8');
    expect(stdout).toContain(
      'breaking input b/common/address.schema.json#/definitions/Zip/maxLength (via /inputSchema/properties/to)',
    );
    expect(stdout).toContain(`after b/common/address.schema.json:${lineOf(shared, '"maxLength": 5')}:`);
    expect(stdout).toContain(`before a/common/address.schema.json:${lineOf(shared, '"maxLength"')}:`);
  });

  it("the bundled example: a maxLength on the shared MemoryKey lowered breaks memory_read, reached through a oneOf alternative's property", async () => {
    const memoryKey = (maxLength: number) => {
      const entry = JSON.parse(readFileSync(path.join(REPO, 'schemas/shared/memory-entry.schema.json'), 'utf8'));
      entry.definitions.MemoryKey.maxLength = maxLength;
      return entry;
    };
    const root = tree({});
    for (const [side, maxLength] of [
      ['a', 10],
      ['b', 5],
    ] as const) {
      cpSync(path.join(REPO, 'schemas'), path.join(root, side), { recursive: true });
      writeFileSync(path.join(root, side, 'shared/memory-entry.schema.json'), JSON.stringify(memoryKey(maxLength)));
    }
    const report = JSON.parse((await run(['a', 'b', '--json'], root)).stdout);
    const memoryRead = report.tools.find((t: { name: string }) => t.name === 'memory_read');
    expect(memoryRead.verdict).toBe('breaking');
    expect(memoryRead.changes[0]).toEqual({
      side: 'input',
      file: 'b/shared/memory-entry.schema.json',
      pointer: '/definitions/MemoryKey/maxLength',
      via: '/inputSchema/properties/query/oneOf/0/properties/key',
      verdict: 'breaking',
      message: expect.stringContaining('maxLength 10 → 5'),
      witness: { query: { key: 'aaaaaa' } },
    });
  });

  it('a change in the tool file itself carries no file', async () => {
    const narrowed = structuredClone(tool);
    (narrowed.inputSchema as { additionalProperties?: boolean }).additionalProperties = false;
    const root = tree({
      'a/tools/ship.tool.json': tool,
      'a/common/address.schema.json': address(10),
      'b/tools/ship.tool.json': narrowed,
      'b/common/address.schema.json': address(10),
    });
    const [change] = JSON.parse((await run(['a', 'b', '--json'], root)).stdout).tools[0].changes;
    expect(change).toMatchObject({ pointer: '/inputSchema/additionalProperties', verdict: 'breaking' });
    expect(change.file).toBeUndefined();
    expect(change.via).toBeUndefined();
  });
});
