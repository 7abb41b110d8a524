import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { JSONSchema7 } from 'json-schema';
import { mcpAnnotations, type McpToolAnnotations } from '../../src/mcp/tool.js';
import { loadDefinitions, parseSource, problemAt, toPosix, type LoadedFiles, type SourceFile } from '../load.js';
import type { Problem, ProjectModel, ToolModel } from '../model.js';
import { normalize, ruleEnvironment, type NormalizeHooks } from '../normalize.js';
import type { RuleEnvironment } from '../rules/rule.js';
import { fromJsonSchema2020, is2020 } from './dialect.js';

/** Where a bundled definition of a tool came from: a shared schema file, at a pointer in it. */
export interface SharedOrigin {
  /** The file, relative to the project root (as problems name it). */
  file: string;
  /** The pointer of the type in that file (`` for the file itself, `/definitions/X`). */
  pointer: string;
  source: SourceFile;
}

/**
 * One tool of a side, as the comparison reads it: from a definition (its normalized model) or from a
 * manifest snapshot (an `mcp.json` / saved `tools/list` entry). Schemas are draft-07 and bundled.
 */
export interface DiffTool {
  name: string;
  /** The title MCP lists (a definition's `displayName`, else its name). */
  title?: string;
  description: string;
  inputSchema: JSONSchema7;
  outputSchema?: JSONSchema7;
  kind: 'definition' | 'snapshot';
  /** A definition's fields a snapshot does not carry. */
  hasSideEffects?: boolean;
  requiredCapabilities?: readonly string[];
  timeoutMs?: number;
  version?: string;
  /** The annotations as MCP lists them (a definition's: `mcpAnnotations`, completed from `hasSideEffects`). */
  annotations: McpToolAnnotations;
  /** The hints the definition itself states (a snapshot: all it lists). */
  ownAnnotations: McpToolAnnotations;
  /** Bundled definition keys (`definitions/<key>`) that are copies of shared types. */
  shared: ReadonlyMap<string, SharedOrigin>;
  /** The file the tool is in, and the pointer of the tool in it (`` for a definition, `/tools/3` in a snapshot). */
  source?: SourceFile;
  base: string;
  /** The schemas were translated from 2020-12 (positions go through `pointerIn2020`). */
  translated: boolean;
}

/** One side of a diff, loaded: its tools by name. */
export interface LoadedSide {
  /** What the user passed (`schemas`, `git:main`, `published/mcp.json`). */
  label: string;
  tools: Map<string, DiffTool>;
  problems: Problem[];
  /** A definitions side's files and models by `relPath` (for the other side's `reuse`). */
  loaded?: LoadedFiles;
  models?: ReadonlyMap<string, ToolModel>;
  /** The rules' Ajv instances the side was normalized with (the other side's normalize shares them). */
  environment?: RuleEnvironment;
}

/**
 * The project's last `toolsmith generate`, as a definitions side may reuse it: the schemas folder it
 * read (absolute) and, for that folder's loaded files, the models it built that still hold
 * (`lastRunModels` of the incremental layer: same generator, settings, shared schemas and bytes).
 */
export interface LastGenerate {
  schemasDir: string;
  models: (loaded: LoadedFiles) => NormalizeHooks['cached'] | undefined;
}

/** Options of `loadSide`. */
export interface LoadSideOptions {
  /** The schemas folder of a `git:<ref>` side, relative to the project (default `schemas`). */
  schemasFolder?: string;
  /** The other side, already loaded: its models of byte-identical definitions are reused. */
  reuse?: LoadedSide;
  /** The last generate: a side that is its schemas folder reuses the models it built. */
  generated?: LastGenerate;
}

/**
 * Loads one side: `git:<ref>` reads that ref's schemas folder with `git ls-tree`/`git show` (no
 * checkout), `git:<ref>:<file>.json` a snapshot committed at that ref; a `.json` file is a manifest
 * snapshot (`mcp.json`, a saved `tools/list` answer: `{ tools }` or a JSON-RPC response with
 * `result.tools`); anything else is a definitions folder. Definitions go through the generator's
 * loader and normalizer, so a side that does not load is what `toolsmith generate` would refuse.
 */
export function loadSide(spec: string, cwd: string, options: LoadSideOptions = {}): LoadedSide {
  const { schemasFolder = 'schemas', reuse, generated } = options;
  if (spec.startsWith('git:')) {
    const rest = spec.slice(4);
    const colon = rest.indexOf(':');
    if (colon > 0) return loadSnapshotFromGit(spec, rest.slice(0, colon), rest.slice(colon + 1), cwd);
    return fromDefinitions(spec, loadFromGit(rest, cwd, schemasFolder), reuse);
  }
  const full = path.resolve(cwd, spec);
  if (isSnapshotFile(full)) {
    const file = toPosix(path.relative(cwd, full));
    return loadSnapshot(spec, file, readFileSync(full, 'utf8'));
  }
  const loaded = loadDefinitions(full, cwd);
  const fromGenerate = generated !== undefined && generated.schemasDir === full ? generated.models(loaded) : undefined;
  return fromDefinitions(spec, loaded, reuse, fromGenerate);
}

/** True when a side names a definitions folder (not `git:` nor a file): the only kind a generate can have read. */
export function isFolderSide(spec: string, cwd: string): boolean {
  return !spec.startsWith('git:') && !isSnapshotFile(path.resolve(cwd, spec));
}

/** True when `full` is a file (a manifest snapshot); a missing path is a folder the loader reports missing. */
function isSnapshotFile(full: string): boolean {
  try {
    return statSync(full).isFile();
  } catch {
    return false;
  }
}

/**
 * Normalizes a definitions side. With `reuse` (the other side, already loaded), a definition whose
 * bytes are the same as there, when every shared schema file is too, gets that side's model back
 * (normalize's `cached` hook, as the incremental cache uses it): the model is a function of those bytes.
 * Else `fromGenerate` (the last generate's models of this very folder) may have it.
 */
function fromDefinitions(
  label: string,
  loaded: LoadedFiles,
  reuse?: LoadedSide,
  fromGenerate?: NormalizeHooks['cached'],
): LoadedSide {
  const fromOtherSide = reuseHooks(loaded, reuse).cached;
  const cached =
    fromOtherSide === undefined || fromGenerate === undefined
      ? (fromOtherSide ?? fromGenerate)
      : (source: SourceFile) => fromOtherSide(source) ?? fromGenerate(source);
  const environment = reuse?.environment ?? ruleEnvironment();
  const result = normalize(loaded, cached === undefined ? {} : { cached }, environment);
  const sources = new Map<string, SourceFile>();
  for (const source of loaded.tools) {
    const name = (source.value as { name?: unknown } | null)?.name;
    if (typeof name === 'string') sources.set(name, source);
  }
  const sharedSources = new Map(loaded.shared.map((source) => [source.relPath, source]));
  const tools = new Map<string, DiffTool>();
  for (const tool of result.project.tools) {
    // A model reused from the other side: its entry too, but at this side's file.
    const same = reuse?.models?.get(tool.source.relPath) === tool ? reuse.tools.get(tool.name) : undefined;
    const source = sources.get(tool.name);
    tools.set(
      tool.name,
      same !== undefined ? { ...same, source } : definitionTool(tool, result.project, source, sharedSources),
    );
  }
  return {
    label,
    tools,
    problems: result.problems,
    loaded,
    models: new Map(result.project.tools.map((t) => [t.source.relPath, t])),
    environment,
  };
}

function reuseHooks(loaded: LoadedFiles, reuse: LoadedSide | undefined): NormalizeHooks {
  const other = reuse?.loaded;
  if (other === undefined || reuse?.models === undefined) return {};
  const sharedText = (files: readonly SourceFile[]) =>
    JSON.stringify(files.map((f) => [f.relPath, f.text]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)));
  if (sharedText(loaded.shared) !== sharedText(other.shared)) return {};
  const texts = new Map(other.tools.map((source) => [source.relPath, source.text]));
  const models = reuse.models;
  return {
    cached: (source) => (texts.get(source.relPath) === source.text ? models.get(source.relPath) : undefined),
  };
}

function definitionTool(
  tool: ToolModel,
  project: ProjectModel,
  source: SourceFile | undefined,
  sharedSources: Map<string, SourceFile>,
): DiffTool {
  const shared = new Map<string, SharedOrigin>();
  for (const [key, origin] of Object.entries(tool.definitionOrigins)) {
    if (origin.kind !== 'shared') continue;
    const model = project.shared.find((s) => s.module === origin.module);
    const file = model && sharedSources.get(model.relPath);
    if (model === undefined || file === undefined) continue;
    const at = Object.keys(model.typeNames).find((k) => model.typeNames[k] === origin.typeName) ?? '#';
    shared.set(key, { file: file.file, pointer: at === '#' ? '' : at.slice(1), source: file });
  }
  const translated = is2020(tool.inputSchema);
  const read = (schema: JSONSchema7) => (is2020(schema) ? fromJsonSchema2020(schema) : schema);
  const annotations = mcpAnnotations(tool);
  const out: DiffTool = {
    name: tool.name,
    title: annotations.title,
    description: tool.description,
    inputSchema: read(tool.inputSchema),
    kind: 'definition',
    hasSideEffects: tool.hasSideEffects,
    requiredCapabilities: tool.requiredCapabilities,
    annotations,
    ownAnnotations: { ...tool.annotations },
    shared,
    source,
    base: '',
    translated,
  };
  if (tool.outputSchema !== undefined) out.outputSchema = read(tool.outputSchema);
  if (tool.timeoutMs !== undefined) out.timeoutMs = tool.timeoutMs;
  if (tool.version !== undefined) out.version = tool.version;
  return out;
}

/** Reads `<ref>:<schemas>` from git: the tree's `*.tool.json`/`*.schema.json` files, parsed as the loader parses a file. */
function loadFromGit(ref: string, cwd: string, schemasFolder: string): LoadedFiles {
  const problems: Problem[] = [];
  const tools: SourceFile[] = [];
  const shared: SourceFile[] = [];
  let prefix: string;
  let listing: string;
  try {
    prefix = git(cwd, 'rev-parse', '--show-prefix').trim();
    listing = git(
      cwd,
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
    problems.push(gitProblem(`git:${ref}`, `cannot read ${schemasFolder} at ${ref}`, error));
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
    const text = git(cwd, 'show', `${ref}:${file}`);
    const relPath = path.posix.relative(base, file);
    const parsed = parseSource(relPath, `${ref}:${file}`, text);
    problems.push(...parsed.problems);
    (parsed.source.kind === 'tool' ? tools : shared).push(parsed.source);
  }
  return { tools, shared, problems };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
}

function gitProblem(file: string, what: string, error: unknown): Problem {
  const message = String((error as { stderr?: unknown }).stderr ?? error)
    .trim()
    .split('\n')[0];
  return {
    file,
    line: 1,
    column: 1,
    pointer: '',
    message: `${what}: ${message}`,
    hint: 'pass a branch, tag or commit of this repository (git:main), or git:<ref>:<path> of a committed mcp.json',
  };
}

function loadSnapshotFromGit(label: string, ref: string, file: string, cwd: string): LoadedSide {
  let text: string;
  try {
    const prefix = git(cwd, 'rev-parse', '--show-prefix').trim();
    text = git(cwd, 'show', `${ref}:${toPosix(path.posix.join(prefix, file))}`);
  } catch (error) {
    return { label, tools: new Map(), problems: [gitProblem(label, `cannot read ${file} at ${ref}`, error)] };
  }
  return loadSnapshot(label, `${ref}:${file}`, text);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SNAPSHOT_HINT =
  'pass an mcp.json (generated/manifests/mcp.json), a saved tools/list result ({ "tools": [...] }) ' +
  'or JSON-RPC response ({ "result": { "tools": [...] } }), or a definitions folder';

/** A manifest snapshot as a side: each listed tool with its schemas read as draft-07. */
export function loadSnapshot(label: string, file: string, text: string): LoadedSide {
  const parsed = parseSource(path.posix.basename(file), file, text);
  const tools = new Map<string, DiffTool>();
  if (parsed.problems.length > 0) return { label, tools, problems: parsed.problems };
  const source = parsed.source;
  const value = source.value;
  const problems: Problem[] = [];
  let list: unknown;
  let at = '/tools';
  if (isObject(value) && Array.isArray(value.tools)) list = value.tools;
  else if (isObject(value) && isObject(value.result) && Array.isArray(value.result.tools)) {
    list = value.result.tools;
    at = '/result/tools';
  } else {
    problems.push(problemAt(source, '', 'not a manifest snapshot: no "tools" array', SNAPSHOT_HINT));
    return { label, tools, problems };
  }
  (list as unknown[]).forEach((entry, index) => {
    const base = `${at}/${index}`;
    if (!isObject(entry) || typeof entry.name !== 'string') {
      problems.push(
        problemAt(source, base, 'a listed tool has no "name"', 'each entry of "tools" is { name, inputSchema, ... }'),
      );
      return;
    }
    if (!isObject(entry.inputSchema)) {
      problems.push(
        problemAt(source, base, `tool ${entry.name} has no "inputSchema" object`, 'MCP requires an object inputSchema'),
      );
      return;
    }
    if (tools.has(entry.name)) {
      problems.push(
        problemAt(
          source,
          `${base}/name`,
          `tool ${entry.name} is listed twice`,
          'a tools/list answer names each tool once',
        ),
      );
      return;
    }
    const read = (schema: Record<string, unknown>): JSONSchema7 => {
      // MCP reads a schema without `$schema` as 2020-12 (since 2025-11-25); a declared draft-07 one is draft-07.
      const declared = typeof schema.$schema === 'string' ? schema.$schema : undefined;
      if (declared === undefined || is2020(schema)) return fromJsonSchema2020(schema);
      const { $schema: _, ...rest } = schema;
      return rest as JSONSchema7;
    };
    const annotations = isObject(entry.annotations) ? (entry.annotations as McpToolAnnotations) : {};
    const tool: DiffTool = {
      name: entry.name,
      title: typeof entry.title === 'string' ? entry.title : annotations.title,
      description: typeof entry.description === 'string' ? entry.description : '',
      inputSchema: read(entry.inputSchema),
      kind: 'snapshot',
      annotations,
      ownAnnotations: annotations,
      shared: new Map(),
      source,
      base,
      translated: is2020(entry.inputSchema) || entry.inputSchema.$schema === undefined,
    };
    if (isObject(entry.outputSchema)) tool.outputSchema = read(entry.outputSchema);
    tools.set(entry.name, tool);
  });
  return { label, tools, problems };
}
