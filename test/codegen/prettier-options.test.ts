import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRETTIER_OPTIONS } from '../../codegen/emit/format.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('formatter options', () => {
  it('the repository formats its own code with the options the generator formats its output with', () => {
    const repository = JSON.parse(readFileSync(path.join(REPO, '.prettierrc.json'), 'utf8')) as object;
    expect(repository).toEqual(PRETTIER_OPTIONS);
  });
});
