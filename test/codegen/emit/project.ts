import type { EmitContext, ProjectModel, ToolModel } from '../../../codegen/model.js';
import path from 'node:path';
import { generateCorpus } from '../../../bench/corpus.js';
import { loadDefinitions, parseSource, type SourceFile } from '../../../codegen/load.js';
import { REPO } from '../../helpers/temp-project.js';
import { normalize } from '../../../codegen/normalize.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';

/** The emit context the emitter tests use (fixed version: the banners stay byte-stable). */
export const EMIT_CONTEXT: EmitContext = {
  runtimeImport: 'toolsmith-sdk',
  stubsRuntimeImport: 'toolsmith-sdk',
  stubsFromGenerated: '../src/tools',
  generatedFromStubs: '../../generated',
  regenerateCommand: 'npm run generate',
  generatorVersion: '0.0.0-test',
};

/** Definition files by their path under `schemas/` (`x.tool.json`, `shared/y.schema.json`), as JSON values. */
export type Definitions = Readonly<Record<string, unknown>>;

/**
 * The model the generator builds from these definition files: each is parsed (`parseSource`) and the
 * whole set goes through `normalize`, as `generate` does; a definition with a problem fails the test.
 * Why not a hand-written `ToolModel`: the emitters must be tested on what normalize really gives them.
 */
export function projectOf(definitions: Definitions): ProjectModel {
  const tools: SourceFile[] = [];
  const shared: SourceFile[] = [];
  for (const relPath of Object.keys(definitions).sort(compareStrings)) {
    const text = `${JSON.stringify(definitions[relPath], null, 2)}\n`;
    const { source, problems } = parseSource(relPath, `schemas/${relPath}`, text);
    if (problems.length > 0) throw new Error(`${relPath}: ${problems.map((problem) => problem.message).join('; ')}`);
    (source.kind === 'tool' ? tools : shared).push(source);
  }
  const { project, problems } = normalize({ tools, shared, problems: [] });
  if (problems.length > 0)
    throw new Error(
      problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.message}`).join('\n'),
    );
  return project;
}

/** The one tool of a project, by name. */
export function toolOf(project: ProjectModel, name: string): ToolModel {
  const tool = project.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} among ${project.tools.map((t) => t.name).join(', ')}`);
  return tool;
}

/** Where each shared type is declared (the `homes` map the emit stage builds). */
export { typeHomes } from '../../../codegen/model.js';

/** A minimal tool definition: `name`, a description and the given input schema (plus any other fields). */
export function tool(
  name: string,
  inputSchema: unknown,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return { name, description: `The ${name} tool.`, inputSchema, ...fields };
}

/**
 * The corpora the generator's exactness tests run over, normalized: the field corpus, the repository's
 * examples, and a 150-tool bench corpus written under `scratch` with `seed`.
 */
export function corpora(
  scratch: string,
  seed: number,
): { field: ProjectModel; examples: ProjectModel; bench: ProjectModel } {
  generateCorpus({ dir: path.join(scratch, 'schemas'), count: 150, seed });
  return {
    field: normalize(loadDefinitions(path.join(REPO, 'test/fixtures/field/schemas'), REPO)).project,
    examples: normalize(loadDefinitions(path.join(REPO, 'schemas'), REPO)).project,
    bench: normalize(loadDefinitions(path.join(scratch, 'schemas'), scratch)).project,
  };
}
