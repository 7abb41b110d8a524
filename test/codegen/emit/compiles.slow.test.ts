/**
 * The type checker as the oracle over the emitters' own output: every project of the emitter tables
 * (each types row, the catalog, tools named after prototype members, long names, no tools) is emitted
 * file by file (types, validators, bases, registry, schemas, stubs: the text each emitter returns,
 * unformatted) into one temp folder and checked by one strict `tsc` run, with a few uses whose
 * expected errors are marked `@ts-expect-error` (an unused one is an error too).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitRegistry, emitToolSchemaFile } from '../../../codegen/emit/registry.js';
import { emitStub } from '../../../codegen/emit/stubs.js';
import { emitToolBase } from '../../../codegen/emit/tool-bases.js';
import { emitSharedTypes, emitToolTypes } from '../../../codegen/emit/types.js';
import { emitToolValidators } from '../../../codegen/emit/validators.js';
import type { EmitContext, GeneratedFile, ProjectModel } from '../../../codegen/model.js';
import { createTempProject, REPO, typeCheck } from '../../helpers/temp-project.js';
import { catalogProject, LONG_NAMES, PROTOTYPE_NAMES } from './catalog.js';
import { EMIT_CONTEXT, projectOf, typeHomes } from './project.js';
import { TOOL_CASES } from './type-cases.js';
import { printFiles } from '../model-factory.js';

const temp = createTempProject();
afterAll(() => temp.dispose());

/** The context generate gives a project whose output is `<folder>/generated` and stubs `<folder>/src/tools`. */
function contextFor(folder: string): EmitContext {
  const runtime = path.relative(path.join(temp.root, folder, 'generated'), path.join(REPO, 'src/index.js'));
  const stubsRuntime = path.relative(path.join(temp.root, folder, 'src/tools'), path.join(REPO, 'src/index.js'));
  return {
    ...EMIT_CONTEXT,
    runtimeImport: runtime.split(path.sep).join('/'),
    stubsRuntimeImport: stubsRuntime.split(path.sep).join('/'),
  };
}

/** Every file the emitters make for `project`, written under `folder` (generated/ and src/tools/). */
async function writeEmitted(folder: string, project: ProjectModel): Promise<string[]> {
  const ctx = contextFor(folder);
  const homes = typeHomes(project);
  const generated: GeneratedFile[] = [];
  for (const shared of project.shared) generated.push(await emitSharedTypes(shared, homes, ctx));
  for (const tool of project.tools) {
    generated.push(await emitToolTypes(tool, homes, ctx), ...emitToolValidators(tool, ctx));
    generated.push(emitToolSchemaFile(tool));
  }
  generated.push(...(await printFiles(project.tools.map((tool) => emitToolBase(tool, ctx)))));
  generated.push(...emitRegistry(project, ctx));
  for (const file of generated) temp.write(`${folder}/generated/${file.path}`, file.content);
  for (const stub of await printFiles(project.tools.map((tool) => emitStub(tool, ctx))))
    temp.write(`${folder}/src/tools/${stub.path}`, stub.content);
  return generated.map((file) => file.path);
}

/** Uses of the catalog's generated API: what must compile, and what must not. */
const CATALOG_USE = `import { createToolClient, createTools, toolNames, type ToolInput, type ToolOutput } from './generated/registry.js';
import { createLazyTools } from './generated/lazy-registry.js';
import type { ToolCallDefaults, ToolOrchestrator } from '${path.relative(path.join(temp.root, 'catalog'), path.join(REPO, 'src/index.js')).split(path.sep).join('/')}';

export const tools = createTools();
export const lazy = createLazyTools();
export const names: readonly ('constructor' | 'forecast_mail' | 'odd_text' | 'send_email' | 'weather_lookup')[] = toolNames;
export const near: ToolInput<'weather_lookup'> = { at: { lat: 1, lon: 2 }, units: 'metric' };
// @ts-expect-error: lon is required in the shared GeoPoint
export const noLon: ToolInput<'weather_lookup'> = { at: { lat: 1 } };
// @ts-expect-error: the input is closed (additionalProperties: false)
export const extra: ToolInput<'weather_lookup'> = { at: { lat: 1, lon: 2 }, extra: true };
// @ts-expect-error: units is an enum
export const units: ToolInput<'weather_lookup'> = { at: { lat: 1, lon: 2 }, units: 'kelvin' };
export const out: ToolOutput<'weather_lookup'> = { forecasts: [{ day: '2026-01-01', celsius: 3 }] };
export const odd: ToolInput<'odd_text'> = { constructor: 'x' };
// @ts-expect-error: not one of the enum values
export const oddEnum: ToolInput<'odd_text'> = { constructor: 'x', ['__proto__']: 'other' };
export async function call(orchestrator: ToolOrchestrator, defaults: ToolCallDefaults) {
  const client = createToolClient(orchestrator, defaults);
  // @ts-expect-error: send_email needs a body
  await client.call('send_email', { to: 'a@b.c' });
  return client.call('send_email', { to: 'a@b.c', body: 'hi' });
}
`;

describe('the emitters’ output type-checks (tsc, strict, NodeNext)', () => {
  it('every table project, and the catalog’s API as a user calls it', { timeout: 120_000 }, async () => {
    const folders: string[] = [];
    const add = async (folder: string, project: ProjectModel) => {
      const written = await writeEmitted(folder, project);
      expect(written).toContain('registry.ts');
      folders.push(folder);
    };
    for (const [index, row] of TOOL_CASES.entries()) await add(`types-${index}`, projectOf(row.definitions));
    await add('catalog', catalogProject());
    await add('prototype-names', projectOf(PROTOTYPE_NAMES));
    await add('long-names', projectOf(LONG_NAMES));
    await add('empty', { tools: [], shared: [] });
    temp.write('catalog/use.ts', CATALOG_USE);
    const result = await typeCheck(temp, [...folders, 'catalog/use.ts']);
    expect(result).toEqual({ code: 0, output: '' });
  });
});
