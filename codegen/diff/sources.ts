import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { JSONSchema7 } from 'json-schema';
import type { McpToolAnnotations } from '../../src/mcp/tool.js';
import { fileProblem, loadDefinitions, parseSource, problemAt, scanSchemasFolder, toPosix } from '../load.js';
import type { LoadedFiles, SourceFile } from '../load.js';
import { sharedTypeOf, type Problem, type ProjectModel, type ToolModel } from '../model.js';
import { normalize, ruleEnvironment, type NormalizeHooks } from '../normalize.js';
import type { RuleEnvironment } from '../rules/rule.js';
import { compareStrings } from '../../src/manifest-targets/build.js';
import { isObject } from '../../src/schema/walk.js';
import { schemaDialect } from '../../src/schema/dialect.js';
import { fromJsonSchema2020 } from '../../src/schema/json-schema-draft-07.js';

/** Where a bundled definition of a tool came from: a shared schema file, at a pointer in it. */
export interface SharedOrigin {
  /** The pointer of the type in that file (`` for the file itself, `/definitions/X`). */
  pointer: string;
  /** The file (`source.file` is its path relative to the project root, as problems name it). */
  source: SourceFile;
}

/** A definition's fields a snapshot does not carry (the errors it declares: a snapshot lists none). */
type DefinitionFields = Partial<
  Pick<ToolModel, 'hasSideEffects' | 'requiredCapabilities' | 'timeoutMs' | 'version' | 'errors'>
>;

/**
 * One tool of a side, as the comparison reads it: from a definition (its normalized model) or from a
 * manifest snapshot (an `mcp.json` / saved `tools/list` entry). Schemas are draft-07 and bundled.
 */
export interface DiffTool extends DefinitionFields {
  name: string;
  /** The title MCP lists (a definition's `displayName`, else its name). */
  title?: string;
  description: string;
  inputSchema: JSONSchema7;
  outputSchema?: JSONSchema7;
  kind: 'definition' | 'snapshot';
  /** The annotation hints the side states: a definition's own (not completed from `hasSideEffects`), a snapshot's as listed. */
  annotations: McpToolAnnotations;
  /** Bundled definition keys (`definitions/<key>`) that are copies of shared types. */
  shared: ReadonlyMap<string, SharedOrigin>;
  /** The file the tool is in, and the pointer of the tool in it (`` for a definition, `/tools/3` in a snapshot). */
  source?: SourceFile;
  base: string;
  /** The schemas were translated from 2020-12 (positions translate their pointers back: `translatePointerTokens`). */
  translated: boolean;
}

/** One side of a diff, loaded: its tools by name. */
export interface LoadedSide {
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
interface LastGenerate {
  schemasDir: string;
  models: (loaded: LoadedFiles) => NormalizeHooks['cached'] | undefined;
}

/** The most bytes a side's files may add up to unless `--max-bytes` says otherwise (64 MiB). */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** Options of `loadSide`. */
export interface LoadSideOptions {
  /** The schemas folder of a `git:<ref>` side, relative to the project (default `schemas`). */
  schemasFolder?: string;
  /** The other side, already loaded: its models of byte-identical definitions are reused. */
  reuse?: LoadedSide;
  /** The last generate: a side that is its schemas folder reuses the models it built. */
  generated?: LastGenerate;
  /** The most bytes the side's files may add up to: a larger side is refused before it is read. */
  maxBytes?: number;
}

/**
 * Loads one side: `git:<ref>` reads that ref's schemas folder with `git ls-tree`/`git cat-file` (no
 * checkout), `git:<ref>:<file>.json` a snapshot committed at that ref; a `.json` file is a manifest
 * snapshot (`mcp.json`, a saved `tools/list` answer: `{ tools }` or a JSON-RPC response with
 * `result.tools`); anything else is a definitions folder. Definitions go through the generator's
 * loader and normalizer, so a side that does not load is what `toolsmith generate` would refuse.
 * Either way the side's files are sized first: a side over `maxBytes` is refused before any is read.
 */
export function loadSide(spec: string, cwd: string, options: LoadSideOptions = {}): LoadedSide {
  const { schemasFolder = 'schemas', reuse, generated, maxBytes = DEFAULT_MAX_BYTES } = options;
  const found = spec.startsWith('git:') ? findInGit(spec, cwd, schemasFolder) : findOnDisk(spec, cwd);
  if ('line' in found) return { tools: new Map(), problems: [found] };
  const bytes = found.sizes.reduce((sum, file) => sum + file.size, 0);
  if (bytes > maxBytes) {
    const message = `${bytes} bytes to read, over the limit of ${maxBytes} bytes per side; nothing of it was read`;
    const hint = `pass --max-bytes ${bytes} if a side this large is expected`;
    return { tools: new Map(), problems: [fileProblem(found.label, message, hint)] };
  }
  const read = found.read();
  if (!('tools' in read)) return loadSnapshot(read.file, read.text);
  const fromGenerate =
    generated !== undefined && generated.schemasDir === found.folder ? generated.models(read) : undefined;
  return fromDefinitions(read, reuse, fromGenerate);
}

/** A side found and sized, not read yet: a snapshot's text or a definitions side's loaded files. */
interface FoundSide {
  /** Where a problem with the whole side is placed. */
  label: string;
  sizes: readonly { size: number }[];
  /** The absolute folder of a definitions side on disk (the last generate may have its models). */
  folder?: string;
  read(): LoadedFiles | { file: string; text: string };
}

/** A file (a manifest snapshot) or a definitions folder; a missing path is a folder the loader reports missing. */
function findOnDisk(spec: string, cwd: string): FoundSide {
  const full = path.resolve(cwd, spec);
  const label = toPosix(path.relative(cwd, full)) || '.';
  const stats = statOf(full);
  if (stats?.isFile())
    return { label, sizes: [stats], read: () => ({ file: label, text: readFileSync(full, 'utf8') }) };
  // A listed file that cannot be stat'ed counts 0 bytes: the loader reports why it is not read.
  const sizes = scanSchemasFolder(full, cwd).files.map((file) => statOf(path.join(full, file)) ?? { size: 0 });
  return { label, sizes, folder: full, read: () => loadDefinitions(full, cwd) };
}

/** A path's stats, undefined when it has none (missing, a dangling or looping link). */
function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Normalizes a definitions side. With `reuse` (the other side, already loaded), a definition whose
 * bytes are the same as there, when every shared schema file is too, gets that side's model back
 * (normalize's `cached` hook, as the incremental cache uses it): the model is a function of those bytes.
 * Else `fromGenerate` (the last generate's models of this very folder) may have it.
 */
function fromDefinitions(loaded: LoadedFiles, reuse?: LoadedSide, fromGenerate?: NormalizeHooks['cached']): LoadedSide {
  const fromOtherSide = reusedModels(loaded, reuse);
  const cached = (source: SourceFile) => fromOtherSide?.(source) ?? fromGenerate?.(source);
  const environment = reuse?.environment ?? ruleEnvironment();
  const result = normalize(loaded, { cached }, environment);
  const sources = new Map([...loaded.tools, ...loaded.shared].map((source) => [source.relPath, source]));
  const tools = new Map<string, DiffTool>();
  for (const tool of result.project.tools) {
    // A model reused from the other side: its entry too, but at this side's file.
    const same = reuse?.models?.get(tool.source.relPath) === tool ? reuse.tools.get(tool.name) : undefined;
    const source = sources.get(tool.source.relPath);
    tools.set(tool.name, same !== undefined ? { ...same, source } : definitionTool(tool, result.project, sources));
  }
  return {
    tools,
    problems: result.problems,
    loaded,
    models: new Map(result.project.tools.map((t) => [t.source.relPath, t])),
    environment,
  };
}

/** The other side's model of a definition with the same bytes, when both sides' shared schema files are the same. */
function reusedModels(loaded: LoadedFiles, reuse: LoadedSide | undefined): NormalizeHooks['cached'] {
  const other = reuse?.loaded;
  const models = reuse?.models;
  if (other === undefined || models === undefined) return undefined;
  // Each side's shared files as one text, in a fixed order (any fixed order does).
  const sharedText = (files: readonly SourceFile[]) => JSON.stringify(files.map((f) => [f.relPath, f.text]).sort());
  if (sharedText(loaded.shared) !== sharedText(other.shared)) return undefined;
  const texts = new Map(other.tools.map((source) => [source.relPath, source.text]));
  return (source) => (texts.get(source.relPath) === source.text ? models.get(source.relPath) : undefined);
}

/** A definition's tool (`sources`: the side's files by `relPath`, for positions). */
function definitionTool(tool: ToolModel, project: ProjectModel, sources: ReadonlyMap<string, SourceFile>): DiffTool {
  const shared = new Map<string, SharedOrigin>();
  for (const [key, origin] of Object.entries(tool.definitionOrigins)) {
    const type = sharedTypeOf(origin, project.shared);
    // Every shared file of the side was loaded: `sources` has it.
    if (type !== undefined) shared.set(key, { pointer: type.pointer, source: sources.get(type.model.relPath)! });
  }
  const read = (schema: JSONSchema7) => (schemaDialect(schema) === '2020-12' ? asDraft07(schema) : schema);
  // The model's own fields (name, description, side effects, hints, …) as they are; the rest as MCP lists them.
  return {
    ...tool,
    title: tool.displayName,
    annotations: tool.annotations ?? {},
    inputSchema: read(tool.inputSchema),
    outputSchema: tool.outputSchema && read(tool.outputSchema),
    kind: 'definition',
    shared,
    source: sources.get(tool.source.relPath),
    base: '',
    translated: schemaDialect(tool.inputSchema) === '2020-12',
  };
}

/** A blob of a commit's tree, as `git ls-tree -l` lists it. */
interface GitBlob {
  path: string;
  object: string;
  size: number;
}

const REF_HINT =
  'pass a branch, tag or commit of this repository (git:main, git:v1.4.0, git:HEAD~1), or git:<ref>:<path> of a committed mcp.json';

/**
 * The blobs under `relPath` (relative to `cwd`) at `ref`, each with its path in the tree, object id
 * and size. The ref is checked first: one starting with `-` is refused, and git resolves it with
 * options ended (`--end-of-options`), so no ref is ever read as an option (`git:--output=/tmp/x`
 * writes nothing); the listing names the commit by its id.
 */
function gitBlobs(
  label: string,
  ref: string,
  cwd: string,
  relPath: string,
): { base: string; blobs: GitBlob[] } | Problem {
  if (ref.startsWith('-')) return fileProblem(label, `the git ref ${JSON.stringify(ref)} starts with "-"`, REF_HINT);
  let base = relPath;
  let listing: string;
  try {
    base = toPosix(path.posix.join(git(cwd, 'rev-parse', '--show-prefix').trim(), relPath));
    const commit = git(cwd, 'rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`).trim();
    listing = git(cwd, 'ls-tree', '-r', '-z', '-l', '--full-tree', commit, '--', base);
  } catch (error) {
    const message = String((error as { stderr?: unknown }).stderr ?? error)
      .trim()
      .split('\n')[0];
    return fileProblem(label, `cannot read ${relPath} at ${ref}: ${message}`, REF_HINT);
  }
  const blobs: GitBlob[] = [];
  for (const line of listing.split('\0')) {
    const tab = line.indexOf('\t');
    const [, type, object, size] = line.slice(0, tab).split(/ +/);
    if (type === 'blob') blobs.push({ path: line.slice(tab + 1), object: object!, size: Number(size) });
  }
  return { base, blobs: blobs.sort((a, b) => compareStrings(a.path, b.path)) };
}

/**
 * `git:<ref>` (the schemas folder at that ref: its `*.tool.json`/`*.schema.json` files, parsed as the
 * loader parses a file) or `git:<ref>:<file>` (a snapshot committed at that ref).
 */
function findInGit(spec: string, cwd: string, schemasFolder: string): FoundSide | Problem {
  const rest = spec.slice(4);
  const colon = rest.indexOf(':'); // `git:<ref>:<file>`; a colon at the start is part of no ref
  const [ref, file] = colon > 0 ? [rest.slice(0, colon), rest.slice(colon + 1)] : [rest, undefined];
  const listed = gitBlobs(spec, ref, cwd, file ?? schemasFolder);
  if (!('blobs' in listed)) return listed;
  const { base, blobs } = listed;
  const text = (blob: GitBlob) => git(cwd, 'cat-file', 'blob', blob.object);
  if (file !== undefined) {
    const [blob] = blobs;
    if (blob === undefined || blobs.length !== 1 || blob.path !== base)
      return fileProblem(spec, `cannot read ${file} at ${ref}: not a file there`, REF_HINT);
    return { label: spec, sizes: blobs, read: () => ({ file: `${ref}:${file}`, text: text(blob) }) };
  }
  const files = blobs.filter((blob) => blob.path.endsWith('.tool.json') || blob.path.endsWith('.schema.json'));
  if (files.length === 0) {
    const hint = 'check the ref and the schemas folder';
    return fileProblem(`git:${ref}:${base}`, `no definitions under ${base} at ${ref}`, hint);
  }
  const read = (): LoadedFiles => {
    const loaded: LoadedFiles = { tools: [], shared: [], problems: [] };
    for (const blob of files) {
      const parsed = parseSource(path.posix.relative(base, blob.path), `${ref}:${blob.path}`, text(blob));
      loaded.problems.push(...parsed.problems);
      (parsed.source.kind === 'tool' ? loaded.tools : loaded.shared).push(parsed.source);
    }
    return loaded;
  };
  return { label: spec, sizes: files, read };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
}

const SNAPSHOT_HINT =
  'pass an mcp.json (generated/manifests/mcp.json), a saved tools/list result ({ "tools": [...] }) ' +
  'or JSON-RPC response ({ "result": { "tools": [...] } }), or a definitions folder';

/** A manifest snapshot as a side: each listed tool with its schemas read as draft-07. */
function loadSnapshot(file: string, text: string): LoadedSide {
  const { source, problems: parseProblems } = parseSource(path.posix.basename(file), file, text);
  const tools = new Map<string, DiffTool>();
  if (parseProblems.length > 0) return { tools, problems: parseProblems };
  const { value } = source;
  // `{ tools }`, or a JSON-RPC response's `{ result: { tools } }`.
  const rpc = isObject(value) && !Array.isArray(value.tools) && isObject(value.result);
  const [answer, at] = rpc ? [value.result, '/result/tools'] : [value, '/tools'];
  if (!isObject(answer) || !Array.isArray(answer.tools))
    return { tools, problems: [problemAt(source, '', 'not a manifest snapshot: no "tools" array', SNAPSHOT_HINT)] };
  const problems: Problem[] = [];
  answer.tools.forEach((entry, index) => {
    const tool = snapshotTool(entry, `${at}/${index}`, source);
    if ('line' in tool) problems.push(tool);
    else if (!tools.has(tool.name)) tools.set(tool.name, tool);
    else {
      const message = `tool ${tool.name} is listed twice`;
      problems.push(problemAt(source, `${at}/${index}/name`, message, 'a tools/list answer names each tool once'));
    }
  });
  return { tools, problems };
}

/** One listed tool of a snapshot (`base`: its pointer in the file), or the problem with it. */
function snapshotTool(entry: unknown, base: string, source: SourceFile): DiffTool | Problem {
  if (!isObject(entry) || typeof entry.name !== 'string') {
    const hint = 'each entry of "tools" is { name, inputSchema, ... }';
    return problemAt(source, base, 'a listed tool has no "name"', hint);
  }
  const { name, inputSchema, outputSchema } = entry;
  if (!isObject(inputSchema))
    return problemAt(source, base, `tool ${name} has no "inputSchema" object`, 'MCP requires an object inputSchema');
  const annotations = isObject(entry.annotations) ? (entry.annotations as McpToolAnnotations) : {};
  return {
    name,
    title: typeof entry.title === 'string' ? entry.title : annotations.title,
    description: typeof entry.description === 'string' ? entry.description : '',
    inputSchema: readSnapshotSchema(inputSchema),
    outputSchema: isObject(outputSchema) ? readSnapshotSchema(outputSchema) : undefined,
    kind: 'snapshot',
    annotations,
    shared: new Map(),
    source,
    base,
    translated: readsAs2020(inputSchema),
  };
}

/**
 * Whether a snapshot's schema is read as 2020-12: MCP reads one without a `$schema` string as 2020-12
 * (since 2025-11-25); one that declares another dialect is read as draft-07.
 */
function readsAs2020(schema: Record<string, unknown>): boolean {
  return typeof schema.$schema !== 'string' || schemaDialect(schema) === '2020-12';
}

/** A snapshot's schema as draft-07 (`readsAs2020` decides whether it is translated). */
function readSnapshotSchema(schema: Record<string, unknown>): JSONSchema7 {
  if (readsAs2020(schema)) return asDraft07(schema);
  const { $schema: _, ...rest } = schema;
  return rest as JSONSchema7;
}

/**
 * The draft-07 reading of a 2020-12 schema, so the comparison's rules (written for draft-07, the
 * definitions' dialect) see one shape: `fromJsonSchema2020` with `$defs` read as `definitions`.
 */
export function asDraft07(schema: unknown): JSONSchema7 {
  return fromJsonSchema2020(schema, { definitions: true }) as JSONSchema7;
}
