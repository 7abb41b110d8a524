import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeSnapshot, untouchedSinceSnapshot } from '../../../codegen/incremental/snapshot.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function outDir(): string {
  const made = mkdtempSync(path.join(os.tmpdir(), 'toolsmith-snapshot-'));
  folders.push(made);
  return made;
}

describe('the snapshot', () => {
  it('records every output by stat, and a file is untouched while its size, mtime and inode are those', () => {
    const out = outDir();
    writeFileSync(path.join(out, 'a.ts'), 'one');
    const recorded = { inputs: { 'a.tool.json': 'h' }, stubs: ['a.ts'], tools: 1, budget: 'null' };
    const snapshot = takeSnapshot(out, recorded, ['a.ts'])!;
    expect(snapshot.inputs).toEqual({ 'a.tool.json': 'h' });
    expect(snapshot.outputs['a.ts']![0]).toBe(3);
    expect(snapshot.stubs).toEqual(['a.ts']);
    expect(untouchedSinceSnapshot(snapshot, out, 'a.ts')).toBe(true);
    writeFileSync(path.join(out, 'a.ts'), 'three');
    expect(untouchedSinceSnapshot(snapshot, out, 'a.ts')).toBe(false);
    expect(untouchedSinceSnapshot(snapshot, out, 'b.ts')).toBe(false);
  });

  it('is not taken when an output cannot be read', () => {
    expect(takeSnapshot(outDir(), { inputs: {}, stubs: [], tools: 0, budget: 'null' }, ['missing.ts'])).toBeUndefined();
  });
});
