import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeSnapshot, unchangedFile, untouchedSinceSnapshot } from '../../../codegen/incremental/snapshot.js';
import { sha256 } from '../../../codegen/incremental/store.js';

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
    const snapshot = takeSnapshot({ 'a.tool.json': 'h' }, out, ['a.ts'], ['a.ts'], 1)!;
    expect(snapshot.inputs).toEqual({ 'a.tool.json': 'h' });
    expect(snapshot.outputs['a.ts']![0]).toBe(3);
    expect(snapshot.stubs).toEqual(['a.ts']);
    expect(untouchedSinceSnapshot(snapshot, out, 'a.ts')).toBe(true);
    writeFileSync(path.join(out, 'a.ts'), 'three');
    expect(untouchedSinceSnapshot(snapshot, out, 'a.ts')).toBe(false);
    expect(untouchedSinceSnapshot(snapshot, out, 'b.ts')).toBe(false);
  });

  it('is not taken when an output cannot be read', () => {
    expect(takeSnapshot({}, outDir(), ['missing.ts'], [], 0)).toBeUndefined();
  });

  it('lets a file whose stat changed count as unchanged only when its bytes have the recorded hash', () => {
    const out = outDir();
    writeFileSync(path.join(out, 'a.ts'), 'one');
    const snapshot = takeSnapshot({}, out, ['a.ts'], [], 0)!;
    const untouched = new Set<string>();
    expect(unchangedFile('a.ts', '', out, snapshot, untouched)).toBe(true);
    expect([...untouched]).toEqual(['a.ts']);
    writeFileSync(path.join(out, 'a.ts'), 'two!');
    expect(unchangedFile('a.ts', sha256('two!'), out, snapshot)).toBe(true);
    expect(unchangedFile('a.ts', sha256('one'), out, snapshot)).toBe(false);
    expect(unchangedFile('a.ts', '', out, snapshot)).toBe(false);
  });
});
