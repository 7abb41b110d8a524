/**
 * Stubs that keep compiling when names change (`toolsmith generate --update-stubs`). A stub — any
 * `.ts` file directly in the stubs folder that imports from the generated folder — names generated
 * modules and identifiers; when a tool is renamed (or its `typeName` changes) or a shared type is
 * renamed, some of them no longer exist.
 *
 * How a stub is tied to what it imported: a record beside the cache (`<cache>.stubs.json`) keeps
 * what every generated name stood for at the last generate: a tool's name by the tool's definition
 * file and the name's role (`base`, `argsType`, …), a shared type's by the hash of its schema. A
 * name a stub still imports stays recorded after it is gone, until the stub is updated. A name that
 * no longer exists is looked up there: the tool with the same definition file (its name or
 * `typeName` changed), or the one shared type with the same schema (its file or definition key
 * renamed), gives the new name. Without the flag a generate names the stubs that no longer match
 * (a note, not a warning).
 *
 * With the flag, ts-morph rewrites only the import declarations, the class's `extends` clause and
 * the type names of `execute`'s signature; every other line is kept byte for byte. A tool's own stub
 * (`<kebab>.ts`) follows its tool to the new file name with its class renamed — the registry imports
 * `<Pascal>Tool` from there — replacing the scaffold generate created there while it is untouched.
 * This module and write.ts are the only ones that write into the stubs folder.
 */
import { existsSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Node, SourceFile, SyntaxKind } from 'ts-morph';
import type { ResolvedOptions } from '../config/options.js';
import { cacheFile, sha256, writeAtomically } from '../incremental/store.js';
import { typeHomes, type ProjectModel, type ToolModel, type ToolNames } from '../model.js';

/** What a name a stub imports from the generated folder stands for. */
type Meaning = { tool: string; role: keyof ToolNames } | { shared: string };

/** The record: what each generated name stands for, and the hash of each scaffold generate created (by stub path). */
interface StubsRecord {
  names: Map<string, Meaning>;
  created: Map<string, string>;
  /** The record file's text, as read. */
  text?: string;
}

/** A generated module a stub imports, by kind: `tools/<stem>.base.js`, `types/<stem>.js`, `validators/<stem>.js`. */
interface GeneratedImport {
  specifier: string;
  kind: 'tools' | 'types' | 'validators';
  stem: string;
  /** The imported names (not their local aliases). */
  names: string[];
}

/** A stub rewritten by `--update-stubs`. */
interface UpdatedStub {
  path: string;
  /** Where it is now (another path when it followed its tool). */
  to: string;
  /** `old → new` for every name, module and class name rewritten. */
  changes: string[];
  /** Why it stayed where it was, when it could not follow its tool. */
  note?: string;
}

/** What `updateStubs` found and did. */
export interface StubsReport {
  stale: StaleStub[];
  updated: UpdatedStub[];
}

/** The parts of a tool's names (naming.ts) that its generated modules do not export: the rest are its roles. */
const NOT_EXPORTED: ReadonlySet<string> = new Set(['pascal', 'camel', 'kebab', 'impl']);

/** `import { a, type b, c as d } from '...'` (named imports only: generated modules have no default export). */
const NAMED_IMPORT = /\bimport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*(['"])([^'"\n]+)\2/g;

/**
 * Checks every stub against the project just generated and keeps the record; with `apply`, rewrites
 * each stub whose every stale name the record can tell. `created` are the stubs this run scaffolded.
 */
export async function updateStubs(
  resolved: ResolvedOptions,
  run: { project: Pick<ProjectModel, 'tools' | 'shared'>; created: readonly string[]; apply: boolean },
): Promise<StubsReport> {
  const { stubsDir } = resolved;
  const recordFile = cacheFile(resolved.root, resolved.outDir)?.replace(/\.json$/, '.stubs.json');
  const previous = readRecord(recordFile);
  const output = indexOutput(run.project);
  // No generated name gone since the last generate: no stub can have lost one; only new scaffolds are read (hashed).
  const scan =
    run.apply || previous.text === undefined || [...previous.names.keys()].some((name) => !output.names.has(name));
  const files = scan && existsSync(stubsDir) ? readdirSync(stubsDir).sort() : run.created;
  const texts = new Map<string, string>();
  for (const file of files)
    if (file.endsWith('.ts') && !file.endsWith('.d.ts'))
      texts.set(file, readFileSync(path.join(stubsDir, file), 'utf8'));
  for (const file of run.created) {
    const text = texts.get(file);
    if (text !== undefined) previous.created.set(file, sha256(text));
  }
  const record: StubsRecord = { names: new Map(output.names), created: scan ? new Map() : previous.created };
  const generated = `${resolved.ctx.generatedFromStubs.replace(/\/$/, '')}/`;
  const report: StubsReport = { stale: [], updated: [] };
  for (const [file, text] of texts) {
    const created = previous.created.get(file);
    if (created !== undefined) record.created.set(file, created);
    const stale = staleStub(file, text, generated, previous.names, output);
    if (stale === undefined) continue;
    report.stale.push(stale);
    if (!run.apply || [...stale.renames.values()].includes(undefined)) {
      // A gone name a stub still imports stays recorded until the stub is updated.
      for (const name of stale.renames.keys()) {
        const meaning = previous.names.get(name);
        if (meaning !== undefined && !record.names.has(name)) record.names.set(name, meaning);
      }
      continue;
    }
    const place = stubPlace(stale, output, texts, record.created);
    const { content, changes } = await rewriteStub(text, stale, place.impl);
    // Written atomically (a temporary file renamed over it); a moved stub's old file is removed.
    const temporary = path.join(stubsDir, `.${place.to}.toolsmith-update`);
    writeFileSync(temporary, content);
    renameSync(temporary, path.join(stubsDir, place.to));
    if (place.to !== file) {
      unlinkSync(path.join(stubsDir, file));
      texts.delete(file);
      record.created.delete(file);
    }
    // No longer the scaffold, and checked again if the loop has yet to reach it (it then matches).
    record.created.delete(place.to);
    texts.set(place.to, content);
    report.updated.push({ path: file, to: place.to, changes, note: place.note });
  }
  // Written when it changed, best effort as the cache: without a record a later rename is reported, not followed.
  const recordText = `${JSON.stringify({ names: [...record.names], created: [...record.created] })}\n`;
  if (recordText !== previous.text) writeAtomically(recordFile, recordText);
  return report;
}

/** A stub whose imports name generated code that no longer exists. */
interface StaleStub {
  /** Relative to the stubs folder. */
  path: string;
  /** Its generated imports. */
  imports: GeneratedImport[];
  /** Of their names, those gone from the output: old name → new name; `undefined` when the record cannot tell what it became. */
  renames: Map<string, string | undefined>;
  /** The new module of each import with a renamed name. */
  modules: Map<string, string>;
}

/** Stub `file` (its `text`) as stale; undefined when every generated name it imports exists. */
function staleStub(
  file: string,
  text: string,
  generated: string,
  meanings: ReadonlyMap<string, Meaning>,
  output: OutputIndex,
): StaleStub | undefined {
  const imports = generatedImports(text, generated);
  const renames = new Map<string, string | undefined>();
  const modules = new Map<string, string>();
  for (const imported of imports) {
    for (const name of imported.names) {
      if (exists(imported, name, output)) continue;
      const meaning = meanings.get(name);
      const resolved = meaning && resolve(meaning, output);
      renames.set(name, resolved?.name);
      if (resolved) modules.set(imported.specifier, `${generated}${modulePath(imported.kind, resolved.stem)}`);
    }
  }
  return renames.size === 0 ? undefined : { path: file, imports, renames, modules };
}

/** The current output: what each generated name stands for, the tools by file stem and by definition file, the shared types' modules by type name and by schema hash. */
interface OutputIndex {
  names: Map<string, Meaning>;
  tools: Map<string, ToolModel>;
  byDefinition: Map<string, ToolModel>;
  typeHomes: Map<string, string>;
  /** Hash of a shared type's schema → the shared type with that schema (null: more than one). */
  sharedTypes: Map<string, { typeName: string; module: string } | null>;
}

function indexOutput(project: Pick<ProjectModel, 'tools' | 'shared'>): OutputIndex {
  const index: OutputIndex = {
    names: new Map(),
    tools: new Map(),
    byDefinition: new Map(),
    typeHomes: typeHomes(project),
    sharedTypes: new Map(),
  };
  for (const tool of project.tools) {
    index.tools.set(tool.names.kebab, tool);
    index.byDefinition.set(tool.source.relPath, tool);
    for (const [role, name] of Object.entries(tool.names) as [keyof ToolNames, string][])
      if (!NOT_EXPORTED.has(role)) index.names.set(name, { tool: tool.source.relPath, role });
  }
  for (const shared of project.shared) {
    for (const type of shared.types) {
      const hash = sha256(JSON.stringify(type.schema));
      index.names.set(type.typeName, { shared: hash });
      index.sharedTypes.set(
        hash,
        index.sharedTypes.has(hash) ? null : { typeName: type.typeName, module: shared.module },
      );
    }
  }
  return index;
}

/**
 * Whether `name` imported from `imported` exists in the current output. A name of a tool's types
 * module that is none of its roles is one of its own definitions' types (`<Pascal><Key>`): taken as
 * existing (tsc tells if it is not).
 */
function exists(imported: GeneratedImport, name: string, output: OutputIndex): boolean {
  const tool = output.tools.get(imported.stem);
  if (tool === undefined) return imported.kind === 'types' && output.typeHomes.get(name) === imported.stem;
  const meaning = output.names.get(name);
  const exported = meaning !== undefined && 'tool' in meaning && meaning.tool === tool.source.relPath;
  return exported || (imported.kind === 'types' && name.startsWith(tool.names.pascal));
}

/** What a recorded meaning is called now, and the stem of the module declaring it; undefined when nothing is that. */
function resolve(meaning: Meaning, output: OutputIndex): { name: string; stem: string } | undefined {
  if ('tool' in meaning) {
    const tool = output.byDefinition.get(meaning.tool);
    return tool === undefined ? undefined : { name: tool.names[meaning.role], stem: tool.names.kebab };
  }
  const type = output.sharedTypes.get(meaning.shared);
  return type ? { name: type.typeName, stem: type.module } : undefined;
}

function modulePath(kind: GeneratedImport['kind'], stem: string): string {
  return kind === 'tools' ? `tools/${stem}.base.js` : `${kind}/${stem}.js`;
}

/** The named imports of a stub from the generated folder (`generated` ends with `/`). */
function generatedImports(text: string, generated: string): GeneratedImport[] {
  const imports: GeneratedImport[] = [];
  for (const [, list, , specifier] of text.matchAll(NAMED_IMPORT)) {
    if (!specifier!.startsWith(generated)) continue;
    const module = /^(tools|types|validators)\/(.+?)(\.base)?\.js$/.exec(specifier!.slice(generated.length));
    if (module === null || (module[1] === 'tools') !== (module[3] !== undefined)) continue;
    const names = list!.split(',').flatMap((part) => /^\s*(?:type\s+)?([\w$]+)/.exec(part)?.[1] ?? []);
    imports.push({ specifier: specifier!, kind: module[1] as GeneratedImport['kind'], stem: module[2]!, names });
  }
  return imports;
}

/**
 * Rewrites one stub with ts-morph: its imports' names and modules, its class's `extends` clause and
 * the type names of `execute`'s signature; the class of a tool's own stub takes its tool's new
 * implementation name when the stub must move. A renamed name the stub uses anywhere else is
 * imported under its old name instead (`New as Old`), so those lines stay as they are and compile.
 * Nothing else in the text changes.
 */
async function rewriteStub(
  text: string,
  stale: StaleStub,
  impl: string | undefined,
): Promise<{ content: string; changes: string[] }> {
  // Loaded here only: ts-morph brings its own TypeScript (~85 MB of a process), too much for every generate.
  const { Project, SyntaxKind } = await import('ts-morph');
  const source = new Project({ useInMemoryFileSystem: true }).createSourceFile(stale.path, text);
  const { renames, modules } = stale;
  const changes: string[] = [];
  const edits: [Node, string][] = [];
  const spots = renamedSpots(source, SyntaxKind.Identifier);
  const usedElsewhere = (name: string) =>
    source
      .getDescendantsOfKind(SyntaxKind.Identifier)
      .some(
        (identifier) =>
          identifier.getText() === name &&
          !spots.has(identifier) &&
          identifier.getFirstAncestorByKind(SyntaxKind.ImportDeclaration) === undefined,
      );
  /** Old local name → new: the renamed names imported without an alias and used only in the spots. */
  const locals = new Map<string, string>();
  for (const declaration of source.getImportDeclarations()) {
    const specifier = declaration.getModuleSpecifierValue();
    if (!stale.imports.some((imported) => imported.specifier === specifier)) continue;
    const moved = modules.get(specifier);
    if (moved !== undefined && moved !== specifier) {
      const literal = declaration.getModuleSpecifier();
      const quote = literal.getText()[0]!;
      edits.push([literal, `${quote}${moved}${quote}`]);
      changes.push(`'${specifier}' → '${moved}'`);
    }
    for (const named of declaration.getNamedImports()) {
      const old = named.getName();
      const renamed = renames.get(old);
      if (renamed === undefined) continue;
      if (named.getAliasNode() !== undefined || !usedElsewhere(old)) {
        if (named.getAliasNode() === undefined) locals.set(old, renamed);
        edits.push([named.getNameNode(), renamed]);
        changes.push(`${old} → ${renamed}`);
      } else {
        edits.push([named, `${named.isTypeOnly() ? 'type ' : ''}${renamed} as ${old}`]);
        changes.push(`${old} → ${renamed} (imported as ${old}: the stub uses it elsewhere too)`);
      }
    }
  }
  for (const declared of source.getClasses()) {
    const name = declared.getNameNode();
    const oldImpl = declared.getExtends()?.getExpression().getText().replace(/Base$/, '');
    if (impl !== undefined && name !== undefined && name.getText() === oldImpl && oldImpl !== impl) {
      edits.push([name, impl]);
      changes.push(`class ${oldImpl} → ${impl}`);
    }
  }
  for (const identifier of spots) {
    const renamed = locals.get(identifier.getText());
    if (renamed !== undefined) edits.push([identifier, renamed]);
  }
  // Last first: an edit never moves a node still to be edited.
  edits.sort(([a], [b]) => b.getStart() - a.getStart());
  for (const [node, replacement] of edits) node.replaceWithText(replacement);
  return { content: source.getFullText(), changes };
}

/** The identifiers renamed in step with the imports: in each class's `extends` clause and `execute`'s parameter and return types. */
function renamedSpots(source: SourceFile, identifierKind: SyntaxKind.Identifier): Set<Node> {
  const spots = new Set<Node>();
  for (const declared of source.getClasses()) {
    const execute = declared.getMethod('execute');
    const types = [
      declared.getExtends(),
      ...(execute?.getParameters() ?? []).map((parameter) => parameter.getTypeNode()),
      execute?.getReturnTypeNode(),
    ];
    for (const node of types)
      for (const identifier of node?.getDescendantsOfKind(identifierKind) ?? []) spots.add(identifier);
  }
  return spots;
}

/**
 * A tool's own stub (`<old kebab>.ts`, importing that tool's base) goes to its tool's new file name
 * when that is free or still the scaffold generate created there (untouched); any other stub, or one
 * that cannot move, stays: where it goes, with its class's new name when it moves; why it stays,
 * when it must but cannot.
 */
function stubPlace(
  { path: file, imports, modules }: StaleStub,
  output: OutputIndex,
  texts: ReadonlyMap<string, string>,
  created: ReadonlyMap<string, string>,
): { to: string; impl?: string; note?: string } {
  const base = imports.find((imported) => imported.kind === 'tools' && file === `${imported.stem}.ts`);
  const stem = base && /tools\/(.+)\.base\.js$/.exec(modules.get(base.specifier) ?? '')?.[1];
  const tool = stem !== undefined && stem !== base?.stem ? output.tools.get(stem) : undefined;
  if (tool === undefined) return { to: file };
  const target = `${tool.names.kebab}.ts`;
  const there = texts.get(target);
  if (there === undefined || sha256(there) === created.get(target)) return { to: target, impl: tool.names.impl };
  return {
    to: file,
    note: `stays at ${file}: ${target} exists and is not the untouched scaffold (merge the two by hand)`,
  };
}

function readRecord(file: string | undefined): StubsRecord {
  if (file !== undefined && existsSync(file)) {
    try {
      const text = readFileSync(file, 'utf8');
      const parsed = JSON.parse(text) as { names: [string, Meaning][]; created: [string, string][] };
      return { names: new Map(parsed.names), created: new Map(parsed.created), text };
    } catch {
      // Unreadable: as none.
    }
  }
  return { names: new Map(), created: new Map() }; // a gone name is then reported as unknown
}

/**
 * What a generate prints of the stubs (`stubsDir` as shown, e.g. `src/tools`): each stub updated and
 * how; without `--update-stubs`, one note naming the stubs that no longer match and the flag; and
 * each name nothing in the record can tell, to fix by hand.
 */
export function stubsReportText(report: StubsReport, stubsDir: string): string {
  const shown = (file: string) => `${stubsDir}/${file}`;
  const lines: string[] = [];
  for (const updated of report.updated) {
    const where = updated.to === updated.path ? shown(updated.path) : `${shown(updated.path)} → ${shown(updated.to)}`;
    lines.push(`toolsmith: updated ${where}: ${updated.changes.join(', ')}`);
    if (updated.note !== undefined) lines.push(`  ${updated.note}`);
  }
  const done = new Set(report.updated.map((updated) => updated.path));
  const waiting = report.stale.filter((stale) => !done.has(stale.path));
  const followable = waiting.filter((stale) => ![...stale.renames.values()].includes(undefined));
  if (followable.length > 0)
    lines.push(
      `toolsmith: note: ${followable.length === 1 ? 'this stub imports' : `${followable.length} stubs import`} generated names ` +
        `that were renamed: ${followable.map((stale) => shown(stale.path)).join(', ')}; ` +
        '`toolsmith generate --update-stubs` rewrites their imports, extends clause and execute signature to the new names',
    );
  for (const stale of waiting)
    for (const [name, renamed] of stale.renames)
      if (renamed === undefined)
        lines.push(
          `toolsmith: note: ${shown(stale.path)} imports ${name}, which the generated code no longer has, and toolsmith cannot tell what it became: fix it by hand`,
        );
  return lines.map((line) => `${line}\n`).join('');
}
