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
import { cloneJson, hasOwn, isObject, mapSchema, setOwn } from '../../src/schema/walk.js';
import type { BundledSchema, Rule, SharedEntry, ToolSubject } from './rule.js';

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
    const tool = { sharedUsed: subject.sharedUsed, toolPascal: subject.names.pascal };
    const bundle = (schema: JSONSchema7, rootPointer: string): BundledSchema => {
      const state = bundleState(subject.source, rootPointer, subject.shared, subject.dialect, diagnostics, tool);
      return { bundled: bundleSchema(schema, state), origins: state.origins };
    };
    const { definition } = subject;
    subject.input = bundle(definition.inputSchema, '/inputSchema');
    if (definition.outputSchema !== undefined) subject.output = bundle(definition.outputSchema, '/outputSchema');
  },
};

/** What bundling one schema carries along. */
export interface BundleState {
  source: SourceFile;
  rootPointer: string;
  definitions: Map<string, JSONSchema7Definition>;
  origins: BundledSchema['origins'];
  sharedUsed: Set<string>;
  diagnostics: Diagnostics;
  shared: Map<string, SharedEntry>;
  /** The tool's type name, which its local definitions' type names start with (`''` for a shared file). */
  toolPascal: string;
  /** The dialect of the schema being bundled (a shared schema it uses must have the same). */
  dialect: SchemaDialect;
  /** Where shared schemas are copied to: `definitions`, or `$defs` (2020-12, or a draft-07 schema that uses it). */
  container: 'definitions' | '$defs';
}

/** A fresh state for bundling one schema of `source` at `rootPointer`. */
export function bundleState(
  source: SourceFile,
  rootPointer: string,
  shared: Map<string, SharedEntry>,
  dialect: SchemaDialect,
  diagnostics: Diagnostics,
  tool: { sharedUsed: Set<string>; toolPascal: string } = { sharedUsed: new Set(), toolPascal: '' },
): BundleState {
  return {
    source,
    rootPointer,
    definitions: new Map(),
    origins: dictionary(),
    diagnostics,
    shared,
    dialect,
    container: 'definitions',
    ...tool,
  };
}

/** Bundles one tool schema (see `refBundling`). */
function bundleSchema(schema: JSONSchema7, state: BundleState): JSONSchema7 {
  const record = schema as Record<string, unknown>;
  const container =
    state.dialect === '2020-12' || (hasOwn(record, '$defs') && !hasOwn(record, 'definitions'))
      ? '$defs'
      : 'definitions';
  state.container = container;
  recordLocalDefinitions(record, state);
  const { [container]: own, ...out } = mapSchema<JSONSchema7, JSONSchema7Definition>(
    schema,
    state.rootPointer,
    (node, at) => rewriteRef(node, at, state, { kind: 'tool', root: schema }),
  ) as Record<string, unknown>;
  const definitions = new Map(isObject(own) ? Object.entries(own) : []);
  for (const [key, value] of state.definitions) {
    if (definitions.has(key)) {
      state.diagnostics.error(
        state.source,
        `${state.rootPointer}/${container}/${escapePointerSegment(key)}`,
        `the definition "${key}" has the name of a shared type it also uses`,
        'rename the local definition',
      );
      continue;
    }
    definitions.set(key, value);
  }
  // The definitions last, in name order.
  if (definitions.size > 0)
    setOwn(
      out,
      container,
      Object.fromEntries([...definitions.keys()].sort().map((key) => [key, definitions.get(key)])),
    );
  return out as JSONSchema7;
}

/** The schema's own definitions, as `local` origins; a key in both `definitions` and `$defs` is an error. */
function recordLocalDefinitions(record: Record<string, unknown>, state: BundleState): void {
  for (const container of DEFINITION_CONTAINERS) {
    const local = record[container];
    if (!hasOwn(record, container) || !isObject(local)) continue;
    for (const key of Object.keys(local)) {
      if (hasOwn(state.origins, key)) {
        state.diagnostics.error(
          state.source,
          `${state.rootPointer}/${container}/${escapePointerSegment(key)}`,
          `the definition "${key}" is in both \`definitions\` and \`$defs\``,
          'keep one of them: both would become the same generated type',
        );
        continue;
      }
      setOwn(state.origins, key, { kind: 'local', typeName: definitionTypeName(key, state.toolPascal) });
    }
  }
}

type RefContext = { kind: 'tool'; root: JSONSchema7 } | { kind: 'shared'; entry: SharedEntry };

/**
 * What a failed ref resolution answers: the node without its `$ref`, with the error reported at it (the
 * tool is not emitted; its other values are judged against what is left: see `ToolSubject.failed`).
 */
type Fail = (message: string, hint: string) => JSONSchema7;

function rewriteRef(node: JSONSchema7, at: string, state: BundleState, context: RefContext): JSONSchema7 | undefined {
  if (!hasOwn(node, '$ref') || typeof node.$ref !== 'string') return undefined;
  const ref = node.$ref;
  const where = context.kind === 'tool' ? state.source : context.entry.source;
  const copy = (target: string | undefined): JSONSchema7 => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      if (key !== '$ref') setOwn(out, key, cloneJson((node as Record<string, unknown>)[key]));
      else if (target !== undefined) setOwn(out, key, target);
    }
    return out as JSONSchema7;
  };
  const fail: Fail = (message, hint) => {
    state.diagnostics.error(where, `${at}/$ref`, message, hint);
    return copy(undefined);
  };
  if (ref.startsWith('#')) return rewriteLocalRef(ref, state, context, copy, fail);
  return rewriteFileRef(
    ref,
    context.kind === 'tool' ? state.source.relPath : context.entry.source.relPath,
    state,
    copy,
    fail,
  );
}

function rewriteLocalRef(
  ref: string,
  state: BundleState,
  context: RefContext,
  copy: (target: string) => JSONSchema7,
  fail: Fail,
): JSONSchema7 | undefined {
  const fragment = decodeFragment(ref);
  if ('error' in fragment) return fail(`the $ref "${ref}" ${fragment.error}`, REF_FRAGMENT_HINT);
  if (context.kind === 'shared') return includeShared(context.entry, fragment.pointer, state, copy, fail);
  if (valueAt(context.root, parsePointer(fragment.pointer)) === undefined) {
    return fail(
      `the $ref "${ref}" does not resolve: there is nothing at that pointer in the schema`,
      'a `#/...` reference is resolved against the input or output schema it appears in; define the target under `definitions` (or `$defs`)',
    );
  }
  return undefined;
}

function rewriteFileRef(
  ref: string,
  fromRelPath: string,
  state: BundleState,
  copy: (target: string) => JSONSchema7,
  fail: Fail,
): JSONSchema7 {
  let url: URL;
  try {
    url = new URL(ref, `file:///schemas/${fromRelPath}`);
  } catch {
    return fail(
      `the $ref "${ref}" is not a valid URI reference`,
      'use a relative path such as `./shared/geo-point.schema.json#/definitions/Point`',
    );
  }
  if (url.protocol !== 'file:' || !url.pathname.startsWith('/schemas/')) {
    return fail(
      `the $ref "${ref}" points outside the schemas folder`,
      'shared schemas must live under the schemas folder and be referenced by a relative path',
    );
  }
  const filePart = decodePercent(url.pathname.slice('/schemas/'.length));
  if ('error' in filePart) return fail(`the $ref "${ref}" ${filePart.error}`, REF_FRAGMENT_HINT);
  const relPath = filePart.text;
  const entry = state.shared.get(relPath);
  if (!entry) {
    const suggestion = nearestName(relPath, state.shared.keys());
    return fail(
      `the $ref "${ref}" does not resolve: no shared schema file "${relPath}"`,
      suggestion
        ? `did you mean "${suggestion}"? (paths are relative to ${fromRelPath})`
        : 'shared schemas are `*.schema.json` files under the schemas folder',
    );
  }
  const fragment = decodeFragment(url.hash);
  if ('error' in fragment) return fail(`the $ref "${ref}" ${fragment.error}`, REF_FRAGMENT_HINT);
  return includeShared(entry, fragment.pointer, state, copy, fail);
}

const REF_FRAGMENT_HINT =
  'a `$ref` is a URI reference: its fragment is a JSON pointer (`#/definitions/Name`) in which `~0` is `~`, `~1` is `/` and `%25` is `%`';

/**
 * The shared type at `pointer` of `entry` (the file itself or one of its definitions), copied into
 * the schema being bundled once, its own refs rewritten in turn; answers the rewritten `$ref` node.
 */
export function includeShared(
  entry: SharedEntry,
  pointer: string,
  state: BundleState,
  copy: (target: string) => JSONSchema7,
  fail: Fail,
): JSONSchema7 {
  const key = pointer === '' || pointer === '/' ? '#' : `#${pointer}`;
  const typeName = entry.model.typeNames[key];
  if (typeName === undefined) {
    const segments = parsePointer(key);
    if (valueAt(entry.schema, segments) === undefined) {
      return fail(
        `the $ref does not resolve: ${entry.source.file} has nothing at "${key}"`,
        `available: ${Object.keys(entry.model.typeNames).join(', ')}`,
      );
    }
    return fail(
      `the $ref points at "${key}" inside ${entry.source.file}`,
      'point at the file itself or at one of its `#/definitions/<name>` (or `#/$defs/<name>`)',
    );
  }
  if (entry.dialect !== state.dialect) {
    return fail(
      `the $ref points into ${entry.source.file}, a ${entry.dialect} schema, from a ${state.dialect} schema`,
      `one schema is one dialect: give both the same \`$schema\` (draft-07 when absent)`,
    );
  }
  state.sharedUsed.add(entry.model.module);
  if (!state.definitions.has(typeName)) copySharedType(entry, key, typeName, state);
  return copy(`#/${state.container}/${escapePointerSegment(typeName)}`);
}

function copySharedType(entry: SharedEntry, key: string, typeName: string, state: BundleState): void {
  state.definitions.set(typeName, {});
  state.origins[typeName] = { kind: 'shared', module: entry.model.module, typeName };
  const target = key === '#' ? entry.schema : valueAt(entry.schema, parsePointer(key));
  if (typeof target === 'boolean') {
    // A boolean definition is copied as it is: `false` must go on rejecting everything, not become `{}`.
    state.definitions.set(typeName, target);
    return;
  }
  const body: Record<string, unknown> = {};
  for (const name of Object.keys(target as object))
    if (!(key === '#' && (name === 'definitions' || name === '$defs' || name === '$schema' || name === '$id')))
      setOwn(body, name, (target as Record<string, unknown>)[name]);
  const rewritten = mapSchema<JSONSchema7, JSONSchema7Definition>(body, key === '#' ? '' : key.slice(1), (node, at) =>
    rewriteRef(node, at, state, { kind: 'shared', entry }),
  );
  state.definitions.set(typeName, rewritten);
}
