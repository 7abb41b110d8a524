import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  modelCacheText,
  openModelCache,
  parseModelCache,
  readModels,
  sharedInputsHash,
} from '../../../codegen/incremental/model-cache.js';
import { makeTool } from '../model-factory.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(path.join(os.tmpdir(), 'toolsmith-models-'));
  folders.push(made);
  return made;
}

const tool = () => makeTool({ name: 'add' });

describe('the model cache', () => {
  it('is a header line and one line per definition, parsed back to frozen models equal to those written', () => {
    const text = modelCacheText({ key: 'k', shared: 's', tools: { 'add.tool.json': { raw: 'r', model: tool() } } });
    expect(text.split('\n')).toHaveLength(3);
    const parsed = parseModelCache(text);
    expect(parsed.key).toBe('k');
    expect(parsed.shared).toBe('s');
    const entry = parsed.tools['add.tool.json']!;
    expect(entry.raw).toBe('r');
    expect(entry.model).toEqual(JSON.parse(JSON.stringify(tool())));
    expect(Object.isFrozen(entry.model)).toBe(true);
    // A model read from a line is written back as that line.
    expect(modelCacheText({ key: 'k', shared: 's', tools: parsed.tools })).toBe(text);
  });

  it('is streamed to a temporary file and put in place on commit; an abandoned one keeps the last cache', () => {
    const file = path.join(folder(), 'cache.models.jsonl');
    const first = openModelCache(file, 'k', 's');
    first.add('add.tool.json', 'r', tool());
    expect(existsSync(file)).toBe(false);
    first.commit();
    expect(readModels(file, 'k', 's')['add.tool.json']?.raw).toBe('r');
    const written = readFileSync(file, 'utf8');
    const second = openModelCache(file, 'k', 's');
    second.add('add.tool.json', 'other', tool());
    second.abandon();
    expect(readFileSync(file, 'utf8')).toBe(written);
    expect(readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
  });

  it('gives nothing back for another key or other shared schemas, or when unreadable', () => {
    const file = path.join(folder(), 'cache.models.jsonl');
    const writer = openModelCache(file, 'k', 's');
    writer.add('add.tool.json', 'r', tool());
    writer.commit();
    expect(readModels(file, 'other', 's')).toEqual({});
    expect(readModels(file, 'k', 'other')).toEqual({});
    writeFileSync(file, 'not json\n');
    expect(readModels(file, 'k', 's')).toEqual({});
    expect(readModels(undefined, 'k', 's')).toEqual({});
  });

  it('is keyed by every shared schema path and its content hash', () => {
    const shared = [{ relPath: 'a.schema.json' }];
    expect(sharedInputsHash(shared, { 'a.schema.json': 'h1' })).toBe(
      sharedInputsHash(shared, { 'a.schema.json': 'h1' }),
    );
    expect(sharedInputsHash(shared, { 'a.schema.json': 'h2' })).not.toBe(
      sharedInputsHash(shared, { 'a.schema.json': 'h1' }),
    );
    expect(sharedInputsHash([{ relPath: 'b.schema.json' }], { 'b.schema.json': 'h1' })).not.toBe(
      sharedInputsHash(shared, { 'a.schema.json': 'h1' }),
    );
  });
});
