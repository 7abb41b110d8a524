/**
 * The formatter's one measured choice: the types files go through prettier's `babel-ts` parser
 * (faster) instead of its `typescript` parser, which must give the same bytes — checked on every
 * tool and shared type of the field corpus, the repository's examples and a 150-tool bench corpus.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { format } from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import { formatFile, PRETTIER_OPTIONS } from '../../../codegen/emit/format.js';
import { emitSharedTypes, emitToolTypes } from '../../../codegen/emit/types.js';
import type { ProjectModel } from '../../../codegen/model.js';
import { corpora, EMIT_CONTEXT, typeHomes } from './project.js';

const prettier = (text: string) => format(text, { ...PRETTIER_OPTIONS, parser: 'typescript' });

/** Each types file of a project formatted as the generator formats it and with the `typescript` parser: the same bytes. */
async function checkTypes(project: ProjectModel): Promise<number> {
  const homes = typeHomes(project);
  for (const tool of project.tools) {
    const file = await emitToolTypes(tool, homes, EMIT_CONTEXT);
    expect(file.path.startsWith('types/')).toBe(true);
    expect((await formatFile(file)).content, `${tool.name}: ${file.path}`).toBe(await prettier(file.content));
  }
  for (const shared of project.shared) {
    const file = await emitSharedTypes(shared, homes, EMIT_CONTEXT);
    expect((await formatFile(file)).content, file.path).toBe(await prettier(file.content));
  }
  return project.tools.length + project.shared.length;
}

describe('formatFile', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'toolsmith-format-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('formats the types files with babel-ts into the bytes the typescript parser gives', async () => {
    const { field, examples, bench } = corpora(scratch, 5);
    let files = 0;
    for (const project of [field, examples, bench]) files += await checkTypes(project);
    expect(files).toBeGreaterThan(160);
  }, 180_000);
});
