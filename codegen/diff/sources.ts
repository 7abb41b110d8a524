import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadDefinitions, parseSource, toPosix, type LoadedFiles } from '../load.js';
import type { Problem, ToolModel } from '../model.js';
import { normalize } from '../normalize.js';
import type { SourceFile } from '../load.js';

/** One side of a diff, loaded: its tools by name and the files they came from (for positions). */
export interface LoadedSide {
  /** What the user passed (`schemas`, `git:main`). */
  label: string;
  tools: Map<string, ToolModel>;
  /** Tool definition files by name, for `file:line:col`. */
  sources: Map<string, SourceFile>;
  problems: Problem[];
}

/**
 * Loads one side: `git:<ref>` reads that ref's schemas folder with `git ls-tree`/`git show` (no
 * checkout); anything else is a definitions folder. Both go through the generator's loader and
 * normalizer, so a side that does not load is what `toolsmith generate` would refuse.
 */
export function loadSide(spec: string, cwd: string, schemasFolder = 'schemas'): LoadedSide {
  const loaded = spec.startsWith('git:')
    ? loadFromGit(spec.slice(4), cwd, schemasFolder)
    : loadFolder(path.resolve(cwd, spec), cwd);
  const result = normalize(loaded);
  const sources = new Map<string, SourceFile>();
  for (const source of loaded.tools) {
    const name = (source.value as { name?: unknown } | null)?.name;
    if (typeof name === 'string') sources.set(name, source);
  }
  return {
    label: spec,
    tools: new Map(result.project.tools.map((tool) => [tool.name, tool])),
    sources,
    problems: result.problems,
  };
}

function loadFolder(dir: string, cwd: string): LoadedFiles {
  return loadDefinitions(dir, cwd);
}

/** Reads `<ref>:<schemas>` from git: the tree's `*.tool.json`/`*.schema.json` files, parsed as the loader parses a file. */
function loadFromGit(ref: string, cwd: string, schemasFolder: string): LoadedFiles {
  const problems: Problem[] = [];
  const tools: SourceFile[] = [];
  const shared: SourceFile[] = [];
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  let prefix: string;
  let listing: string;
  try {
    prefix = git('rev-parse', '--show-prefix').trim();
    listing = git(
      'ls-tree',
      '-r',
      '-z',
      '--name-only',
      '--full-tree',
      ref,
      '--',
      toPosix(path.posix.join(prefix, schemasFolder)),
    );
  } catch (error) {
    const message = String((error as { stderr?: unknown }).stderr ?? error)
      .trim()
      .split('\n')[0];
    problems.push({
      file: `git:${ref}`,
      line: 1,
      column: 1,
      pointer: '',
      message: `cannot read ${schemasFolder} at ${ref}: ${message}`,
      hint: 'pass a branch, tag or commit of this repository (git:main)',
    });
    return { tools, shared, problems };
  }
  const base = toPosix(path.posix.join(prefix, schemasFolder));
  const files = listing
    .split('\0')
    .filter((f) => f.endsWith('.tool.json') || f.endsWith('.schema.json'))
    .sort();
  if (files.length === 0) {
    problems.push({
      file: `git:${ref}:${base}`,
      line: 1,
      column: 1,
      pointer: '',
      message: `no definitions under ${base} at ${ref}`,
      hint: 'check the ref and the schemas folder',
    });
  }
  for (const file of files) {
    const text = git('show', `${ref}:${file}`);
    const relPath = path.posix.relative(base, file);
    const parsed = parseSource(relPath, `${ref}:${file}`, text);
    problems.push(...parsed.problems);
    (parsed.source.kind === 'tool' ? tools : shared).push(parsed.source);
  }
  return { tools, shared, problems };
}
