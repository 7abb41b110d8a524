import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate } from '../../codegen/generate.js';
import { createTempProject, REPO, type TempProject } from './temp-project.js';

const FIXTURE = path.join(REPO, 'test/fixtures/failures');

/**
 * A temp project generated from test/fixtures/failures (tools declaring errors) with the fixture's
 * implementations in `tools/` (and `rejected.ts`, which must not compile), importing the repo's runtime.
 */
export async function createFailuresProject(): Promise<TempProject> {
  const project = createTempProject({ schemas: 'test/fixtures/failures/schemas' });
  const report = await generate({ root: project.root, runtimeImport: project.runtimeImport, stubs: 'stubs' });
  if (report.problems.length > 0) throw new Error(JSON.stringify(report.problems));
  const runtime = `../${project.runtimeImport}`;
  for (const file of readdirSync(path.join(FIXTURE, 'tools')))
    project.write(
      `tools/${file}`,
      readFileSync(path.join(FIXTURE, 'tools', file), 'utf8').replace("'RUNTIME'", `'${runtime}'`),
    );
  project.write(
    'rejected/rejected.ts',
    readFileSync(path.join(FIXTURE, 'rejected.ts'), 'utf8').replace("'RUNTIME'", `'${runtime}'`),
  );
  return project;
}

/** Imports a module of the project (TypeScript, through vitest's transform). */
export function importFrom<T>(project: TempProject, file: string): Promise<T> {
  return import(pathToFileURL(path.join(project.root, file)).href) as Promise<T>;
}
