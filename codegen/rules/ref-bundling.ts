import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { DEFINITION_CONTAINERS, type SchemaDialect } from '../../src/schema/keywords.js';
import type { Diagnostics } from '../problems.js';
import { nearestName } from '../../src/text/nearest-name.js';
import { dictionary } from '../dictionary.js';
import type { SourceFile } from '../load.js';
import { definitionTypeName } from '../naming.js';
import {
  decodeFragment,
  decodePercent,
  escapePointerSegment,
  parsePointer,
  valueAt,
} from '../../src/schema/json-pointer.js';
import { copyJsonValue, isObject, mapSchema, setOwn } from '../../src/schema/walk.js';
import type { BundledSchema, Rule, SchemaField, SharedEntry, ToolSubject } from './rule.js';

/**
 * Bundles a tool's schemas (`subject.input`, `subject.output`): local `#/definitions/X` and
 * `#/$defs/X` refs stay; refs into shared files are copied under `definitions[<type name>]`
 * (`$defs` in a 2020-12 schema, or in a draft-07 one that keeps its definitions there) and
 * rewritten to point there, so each schema is self-contained. A ref that does not resolve, points
 * outside the schemas folder or into another dialect is an error at it. Hand-written rather than
 * json-schema-ref-parser's `bundle()`, which points later uses of a schema at its first place
 * (`#/properties/a`): unreadable manifests and no stable type names.
 */
export const refBundling: Rule<ToolSubject> = {
  name: 'ref-bundling',
  run(subject, diagnostics) {
    const { definition } = subject;
    const bundle = (field: SchemaField): BundledSchema => {
      const bundler = new RefBundler(subject.shared, subject.dialect, diagnostics, subject.sharedUsed);
      const bundled = bundler.bundleToolSchema(subject.source, definition[field], `/${field}`, subject.names.pascal);
      return { bundled, origins: bundler.origins };
    };
    subject.input = bundle('inputSchema');
    if (definition.outputSchema !== undefined) subject.output = bundle('outputSchema');
  },
};

/** Why a `$ref` does not resolve: what the problem at it says. */
interface RefFailure {
  message: string;
  hint: string;
}

/** Where a `$ref` is written: in a tool schema (resolved against its `root`) or in a shared file. */
type RefHome = { source: SourceFile; root: JSONSchema7 } | { source: SourceFile; entry: SharedEntry };

const REF_FRAGMENT_HINT =
  'a `$ref` is a URI reference: its fragment is a JSON pointer (`#/definitions/Name`) in which `~0` is `~`, `~1` is `/` and `%25` is `%`';

/**
 * Copies the shared types one schema uses into it, each once under its type name, rewriting the
 * `$ref`s that point at them; each ref that fails is an error at it, and the ref is left out of the
 * copy (the tool is not emitted; its other values are judged against what is left: see
 * `ToolSubject.failed`).
 */
export class RefBundler {
  /** The shared types copied in so far, by type name (a boolean one as it is). */
  readonly definitions = new Map<string, JSONSchema7Definition>();
  /** Each bundled definition's origin: a shared type, or the schema's own (`local`). */
  readonly origins: BundledSchema['origins'] = dictionary();
  /** Where shared types go: `definitions`, or `$defs` (2020-12, or a draft-07 schema that keeps its definitions there). */
  #container: 'definitions' | '$defs' = 'definitions';

  constructor(
    readonly shared: Map<string, SharedEntry>,
    /** The dialect of the schema being bundled (a shared schema it uses must have the same). */
    readonly dialect: SchemaDialect,
    readonly diagnostics: Diagnostics,
    /** The shared modules used, filled as their types are copied in. */
    readonly sharedUsed = new Set<string>(),
  ) {}

  /**
   * One tool schema, self-contained: its own definitions kept (their type names start with
   * `toolPascal`; a key in both `definitions` and `$defs` is an error), the shared types it uses
   * added, all of them last, in name order.
   */
  bundleToolSchema(source: SourceFile, schema: JSONSchema7, rootPointer: string, toolPascal: string): JSONSchema7 {
    const container =
      this.dialect === '2020-12' || (Object.hasOwn(schema, '$defs') && !Object.hasOwn(schema, 'definitions'))
        ? '$defs'
        : 'definitions';
    this.#container = container;
    const error = (where: string, key: string, message: string, hint: string) =>
      this.diagnostics.error(source, `${rootPointer}/${where}/${escapePointerSegment(key)}`, message, hint);
    for (const local of DEFINITION_CONTAINERS) {
      const definitions = schema[local];
      if (!Object.hasOwn(schema, local) || !isObject(definitions)) continue;
      for (const key of Object.keys(definitions)) {
        if (Object.hasOwn(this.origins, key))
          error(
            local,
            key,
            `the definition "${key}" is in both \`definitions\` and \`$defs\``,
            'keep one of them: both would become the same generated type',
          );
        else setOwn(this.origins, key, { kind: 'local', typeName: definitionTypeName(key, toolPascal) });
      }
    }
    const home: RefHome = { source, root: schema };
    const { [container]: own, ...out } = mapSchema<JSONSchema7, JSONSchema7Definition>(
      schema,
      rootPointer,
      (node, at) => this.#rewriteRef(node, at, home),
    ) as Record<string, unknown>;
    const definitions = new Map(isObject(own) ? Object.entries(own) : []);
    for (const [key, value] of this.definitions) {
      if (definitions.has(key))
        error(
          container,
          key,
          `the definition "${key}" has the name of a shared type it also uses`,
          'rename the local definition',
        );
      else definitions.set(key, value);
    }
    if (definitions.size > 0)
      setOwn(
        out,
        container,
        Object.fromEntries([...definitions.keys()].sort().map((key) => [key, definitions.get(key)])),
      );
    return out as JSONSchema7;
  }

  /**
   * Copies the shared type at `key` (`#`, or `#/definitions/<name>`) of `entry` in as `typeName`,
   * unless it is there already, its own refs rewritten in turn.
   */
  copySharedType(entry: SharedEntry, key: string, typeName: string): void {
    if (this.definitions.has(typeName)) return;
    this.definitions.set(typeName, {});
    this.origins[typeName] = { kind: 'shared', module: entry.model.module, typeName };
    const target = valueAt(entry.model.schema, parsePointer(key));
    if (typeof target === 'boolean') {
      // A boolean definition is copied as it is: `false` must go on rejecting everything, not become `{}`.
      this.definitions.set(typeName, target);
      return;
    }
    // The file's root as a type leaves out its definitions (types of their own) and its identity.
    const { definitions: _definitions, $defs: _defs, $schema: _schema, $id: _id, ...root } = target as JSONSchema7;
    const body = key === '#' ? root : target;
    const home: RefHome = { source: entry.source, entry };
    const rewritten = mapSchema<JSONSchema7, JSONSchema7Definition>(body, key.slice(1), (node, at) =>
      this.#rewriteRef(node, at, home),
    );
    this.definitions.set(typeName, rewritten);
  }

  /** A node with a `$ref` as it is bundled: its ref rewritten, or left out with an error; `undefined` keeps the node. */
  #rewriteRef(node: JSONSchema7, at: string, home: RefHome): JSONSchema7 | undefined {
    if (!Object.hasOwn(node, '$ref') || typeof node.$ref !== 'string') return undefined;
    const target = this.#resolve(node.$ref, home);
    if (target === undefined) return undefined;
    if (typeof target !== 'string') this.diagnostics.error(home.source, `${at}/$ref`, target.message, target.hint);
    const out = copyJsonValue(node);
    if (typeof target === 'string') out.$ref = target;
    else delete out.$ref;
    return out;
  }

  /** What a `$ref` becomes: its new target, `undefined` to keep it (a local ref of a tool schema), or why it fails. */
  #resolve(ref: string, home: RefHome): string | undefined | RefFailure {
    if (ref.startsWith('#')) {
      const fragment = decodeFragment(ref);
      if ('error' in fragment) return { message: `the $ref "${ref}" ${fragment.error}`, hint: REF_FRAGMENT_HINT };
      if ('entry' in home) return this.#includeShared(home.entry, fragment.pointer);
      if (valueAt(home.root, parsePointer(fragment.pointer)) !== undefined) return undefined;
      return {
        message: `the $ref "${ref}" does not resolve: there is nothing at that pointer in the schema`,
        hint: 'a `#/...` reference is resolved against the input or output schema it appears in; define the target under `definitions` (or `$defs`)',
      };
    }
    const fromRelPath = home.source.relPath;
    let url: URL;
    try {
      url = new URL(ref, `file:///schemas/${fromRelPath}`);
    } catch {
      return {
        message: `the $ref "${ref}" is not a valid URI reference`,
        hint: 'use a relative path such as `./shared/geo-point.schema.json#/definitions/Point`',
      };
    }
    if (url.protocol !== 'file:' || !url.pathname.startsWith('/schemas/'))
      return {
        message: `the $ref "${ref}" points outside the schemas folder`,
        hint: 'shared schemas must live under the schemas folder and be referenced by a relative path',
      };
    const filePart = decodePercent(url.pathname.slice('/schemas/'.length));
    if ('error' in filePart) return { message: `the $ref "${ref}" ${filePart.error}`, hint: REF_FRAGMENT_HINT };
    const entry = this.shared.get(filePart.text);
    if (!entry) {
      const suggestion = nearestName(filePart.text, this.shared.keys());
      return {
        message: `the $ref "${ref}" does not resolve: no shared schema file "${filePart.text}"`,
        hint: suggestion
          ? `did you mean "${suggestion}"? (paths are relative to ${fromRelPath})`
          : 'shared schemas are `*.schema.json` files under the schemas folder',
      };
    }
    const fragment = decodeFragment(url.hash);
    if ('error' in fragment) return { message: `the $ref "${ref}" ${fragment.error}`, hint: REF_FRAGMENT_HINT };
    return this.#includeShared(entry, fragment.pointer);
  }

  /** The shared type at `pointer` of `entry` (the file itself or one of its definitions), copied in: the `$ref` to it. */
  #includeShared(entry: SharedEntry, pointer: string): string | RefFailure {
    const key = pointer === '' || pointer === '/' ? '#' : `#${pointer}`;
    const typeName = entry.model.typeNames[key];
    if (typeName === undefined && valueAt(entry.model.schema, parsePointer(key)) === undefined)
      return {
        message: `the $ref does not resolve: ${entry.source.file} has nothing at "${key}"`,
        hint: `available: ${Object.keys(entry.model.typeNames).join(', ')}`,
      };
    if (typeName === undefined)
      return {
        message: `the $ref points at "${key}" inside ${entry.source.file}`,
        hint: 'point at the file itself or at one of its `#/definitions/<name>` (or `#/$defs/<name>`)',
      };
    if (entry.dialect !== this.dialect)
      return {
        message: `the $ref points into ${entry.source.file}, a ${entry.dialect} schema, from a ${this.dialect} schema`,
        hint: 'one schema is one dialect: give both the same `$schema` (draft-07 when absent)',
      };
    this.sharedUsed.add(entry.model.module);
    this.copySharedType(entry, key, typeName);
    return `#/${this.#container}/${escapePointerSegment(typeName)}`;
  }
}
