import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../../codegen/config/options.js';
import { optionsCacheKey } from '../../../codegen/incremental/fingerprint.js';
import { modelsFile, writeAtomically } from '../../../codegen/incremental/store.js';
import {
  inputHashes,
  lastRunModels,
  modelCacheText,
  parseModelCache,
  readModels,
  sharedInputsHash,
} from '../../../codegen/incremental/model-cache.js';
import { parseSource, type LoadedFiles } from '../../../codegen/load.js';
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

  it('is written through a temporary file put in place, and read back for its key and shared schemas', () => {
    const file = path.join(folder(), 'cache.models.jsonl');
    writeAtomically(
      file,
      modelCacheText({ key: 'k', shared: 's', tools: { 'add.tool.json': { raw: 'r', model: tool() } } }),
    );
    expect(readModels(file, 'k', 's')['add.tool.json']?.raw).toBe('r');
    expect(readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
  });

  it('gives nothing back for another key or other shared schemas, or when unreadable', () => {
    const file = path.join(folder(), 'cache.models.jsonl');
    writeAtomically(
      file,
      modelCacheText({ key: 'k', shared: 's', tools: { 'add.tool.json': { raw: 'r', model: tool() } } }),
    );
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

describe('lastRunModels: the models of the last run, for a command that does not generate', () => {
  const definition = (maximum: number) =>
    `${JSON.stringify({ name: 'add', description: 'Adds.', inputSchema: { type: 'object', properties: { n: { type: 'integer', maximum } } } })}\n`;
  const shared = '{ "type": "string" }\n';
  const loadedFiles = (text: string, sharedText = shared, file = 'schemas/add.tool.json'): LoadedFiles => ({
    tools: [parseSource('add.tool.json', file, text).source],
    shared: [parseSource('common/id.schema.json', 'schemas/common/id.schema.json', sharedText).source],
    problems: [],
  });

  /** A project whose model cache holds `add`'s model, built (as a run records it) from `definition(100)`. */
  function project(fingerprint: string) {
    const root = folder();
    mkdirSync(path.join(root, 'node_modules'));
    const resolved = resolveOptions({ root, runtimeImport: 'toolsmith-sdk' });
    const loaded = loadedFiles(definition(100));
    const inputs = inputHashes(loaded);
    writeAtomically(
      modelsFile(root, resolved.outDir),
      modelCacheText({
        key: optionsCacheKey(resolved, fingerprint),
        shared: sharedInputsHash(loaded.shared, inputs),
        tools: { 'add.tool.json': { raw: inputs['add.tool.json']!, model: tool() } },
      }),
    );
    return resolved;
  }

  it('gives a definition its model back only for the bytes and file it was built from, under the same key and shared schemas', () => {
    const resolved = project('generator-1');
    const cached = lastRunModels(resolved, loadedFiles(definition(100)), 'generator-1');
    expect(cached?.(loadedFiles(definition(100)).tools[0]!)).toEqual(JSON.parse(JSON.stringify(tool())));
    // Edited after the run: another hash, so no model (it is normalized again).
    const edited = loadedFiles(definition(50));
    expect(lastRunModels(resolved, edited, 'generator-1')?.(edited.tools[0]!)).toBeUndefined();
    // The same bytes read from another file (another schemas folder) are not the file the model names.
    const elsewhere = loadedFiles(definition(100), shared, 'other/add.tool.json');
    expect(lastRunModels(resolved, elsewhere, 'generator-1')?.(elsewhere.tools[0]!)).toBeUndefined();
    // Another generator, or a shared schema edited since: nothing at all.
    expect(lastRunModels(resolved, loadedFiles(definition(100)), 'generator-2')).toBeUndefined();
    expect(
      lastRunModels(resolved, loadedFiles(definition(100), '{ "type": "integer" }\n'), 'generator-1'),
    ).toBeUndefined();
    // Other settings are another key.
    const otherSettings = resolveOptions({ root: resolved.root, runtimeImport: 'other-runtime' });
    expect(lastRunModels(otherSettings, loadedFiles(definition(100)), 'generator-1')).toBeUndefined();
  });
});
