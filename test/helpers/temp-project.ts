import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from '../../bench/corpus.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const run = promisify(execFile);

/** A throwaway project folder with the repo's node_modules linked in and its runtime importable. */
export interface TempProject {
  root: string;
  /** `runtimeImport` for generate: the repository's runtime, relative to the temp root. */
  runtimeImport: string;
  write(file: string, content: string | object): void;
  read(file: string): string;
  /** Every file under a folder with its content (for byte-identity checks). */
  snapshot(dir: string): Record<string, string>;
  dispose(): void;
}

/**
 * A `node_modules` of the project's own whose entries link to the repo's packages: the generator's
 * cache (`node_modules/.cache/toolsmith`) then lands in the temp project and goes with it, instead of
 * piling up in the repo's node_modules, one file per temp folder ever generated.
 */
function linkRepoModules(root: string): void {
  const modules = path.join(root, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(REPO, 'node_modules'))) {
    if (entry !== '.cache') symlinkSync(path.join(REPO, 'node_modules', entry), path.join(modules, entry), 'dir');
  }
}

/**
 * A temp project holding the bench's synthetic corpus of `count` tools (shared schemas, composed
 * refs, examples) and a config pointing at the runtime; dispose it after use.
 */
export function createCorpusProject(count: number): TempProject {
  const project = createTempProject();
  generateCorpus({ dir: path.join(project.root, 'schemas'), count });
  project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
  return project;
}

/** Creates a temp project; `schemas` copies a folder (relative to the repo) into `schemas/`. */
export function createTempProject(options: { schemas?: string } = {}): TempProject {
  const root = mkdtempSync(path.join(tmpdir(), 'toolsmith-test-'));
  linkRepoModules(root);
  writeFileSync(
    path.join(root, 'package.json'),
    '{ "name": "toolsmith-test-project", "private": true, "type": "module" }\n',
  );
  if (options.schemas) cpSync(path.join(REPO, options.schemas), path.join(root, 'schemas'), { recursive: true });
  const write = (file: string, content: string | object) => {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  };
  const snapshot = (dir: string): Record<string, string> => {
    const out: Record<string, string> = {};
    const base = path.join(root, dir);
    const walk = (current: string) => {
      let entries: string[];
      try {
        entries = readdirSync(current).sort();
      } catch {
        return;
      }
      for (const name of entries) {
        const full = path.join(current, name);
        if (statSync(full).isDirectory()) walk(full);
        else out[path.relative(base, full).split(path.sep).join('/')] = readFileSync(full, 'utf8');
      }
    };
    walk(base);
    return out;
  };
  return {
    root,
    runtimeImport: path.relative(root, path.join(REPO, 'src/index.js')).split(path.sep).join('/'),
    write,
    read: (file) => readFileSync(path.join(root, file), 'utf8'),
    snapshot,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs `tsc --noEmit` (strict, NodeNext) over the given folders of a temp project; resolves to its output and exit code. */
export async function typeCheck(project: TempProject, include: string[]): Promise<{ code: number; output: string }> {
  return typeCheckFolder(project.root, include);
}

/**
 * tsc (strict, NodeNext, no emit) over `include` in `root`, through a tsconfig.json written there;
 * `compilerOptions` adds to or overrides the defaults. Resolves to tsc's exit code and output.
 */
export async function typeCheckFolder(
  root: string,
  include: string[],
  compilerOptions: Record<string, unknown> = {},
): Promise<{ code: number; output: string }> {
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        types: ['node'],
        ...compilerOptions,
      },
      include,
    }),
  );
  try {
    const { stdout, stderr } = await run(
      path.join(REPO, 'node_modules/.bin/tsc'),
      ['--noEmit', '-p', 'tsconfig.json'],
      { cwd: root },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failure.code === 'number' ? failure.code : 1,
      output: `${failure.stdout ?? ''}${failure.stderr ?? ''}`,
    };
  }
}
