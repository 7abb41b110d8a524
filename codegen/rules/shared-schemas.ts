import type { JSONSchema7 } from 'json-schema';
import type { Diagnostics } from '../problems.js';
import type { SourceFile } from '../load.js';
import { definitionTypeName, sharedModuleStem, sharedRootTypeName } from '../naming.js';
import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { DEFINITION_CONTAINERS } from '../../src/schema/keywords.js';
import { isObject } from '../../src/schema/walk.js';
import { ignoredDefaults } from './ignored-defaults.js';
import { keywordLint } from './keyword-lint.js';
import { unsatisfiableRequired } from './unsatisfiable-required.js';
import { RefBundler } from './ref-bundling.js';
import type { Rule, RuleEnvironment, SharedEntry } from './rule.js';
import { checkDialect } from './schema-dialects.js';

/** The shared schema files of a project and the entries the accepted ones become (filled by the rule). */
export interface SharedSubject {
  sources: readonly SourceFile[];
  env: RuleEnvironment;
  shared: Map<string, SharedEntry>;
}

/**
 * Every shared schema file (`*.schema.json`): a JSON object of a supported dialect that passes its
 * meta-schema and the keyword lint, whose type names (the file's root and each definition) are
 * not taken by another file. Accepted files become `subject.shared` entries, each type bundled
 * with the shared types it refers to.
 */
export const sharedSchemas: Rule<SharedSubject> = {
  name: 'shared-schemas',
  run(subject, diagnostics) {
    const typeOwners = new Map<string, string>();
    for (const source of subject.sources) {
      const entry = checkSharedFile(source, subject.env, diagnostics);
      if (entry !== undefined && claimTypeNames(entry, typeOwners, diagnostics))
        subject.shared.set(source.relPath, entry);
    }
    for (const entry of subject.shared.values()) bundleSharedTypes(entry, subject.shared, diagnostics);
  },
};

/** One shared file checked on its own; its entry (types not yet bundled) when it has no error. */
function checkSharedFile(source: SourceFile, env: RuleEnvironment, diagnostics: Diagnostics): SharedEntry | undefined {
  if (source.value === undefined) return undefined;
  if (!isObject(source.value)) {
    diagnostics.error(source, '', 'a shared schema must be a JSON object');
    return undefined;
  }
  const schema = source.value;
  const file = diagnostics.child();
  const dialect = checkDialect(source, schema, '', env.metaAjv, file);
  if (dialect === undefined) return undefined;
  for (const rule of [keywordLint, ignoredDefaults, unsatisfiableRequired])
    rule.check(source, schema, '', file, dialect);
  if (file.errorCount > 0) return undefined;
  const typeNames: Record<string, string> = { '#': sharedRootTypeName(source.relPath) };
  for (const container of DEFINITION_CONTAINERS) {
    const definitions = schema[container];
    if (!Object.hasOwn(schema, container) || !isObject(definitions)) continue;
    for (const key of Object.keys(definitions).sort())
      typeNames[`#/${container}/${escapePointerSegment(key)}`] = definitionTypeName(key);
  }
  return {
    source,
    dialect,
    model: {
      relPath: source.relPath,
      source: source.file,
      schema: schema as JSONSchema7,
      module: sharedModuleStem(source.relPath),
      typeNames,
      types: [],
    },
  };
}

/** Records the entry's type names as taken; false (each clash an error) when another file took one. */
function claimTypeNames(entry: SharedEntry, typeOwners: Map<string, string>, diagnostics: Diagnostics): boolean {
  let clash = false;
  for (const [pointer, typeName] of Object.entries(entry.model.typeNames)) {
    const owner = typeOwners.get(typeName);
    if (owner) {
      diagnostics.error(
        entry.source,
        pointer === '#' ? '' : pointer.slice(1),
        `shared type name "${typeName}" is already taken by ${owner}`,
        'rename the file or the definition: generated type names must be unique',
      );
      clash = true;
    } else typeOwners.set(typeName, `${entry.source.file}${pointer === '#' ? '' : ` ${pointer}`}`);
  }
  return !clash;
}

/** Fills `entry.model.types`: each type of the file with the shared types it refers to bundled in. */
function bundleSharedTypes(entry: SharedEntry, shared: Map<string, SharedEntry>, diagnostics: Diagnostics): void {
  const bundler = new RefBundler(shared, entry.dialect, diagnostics);
  const { typeNames } = entry.model;
  for (const key of Object.keys(typeNames)) bundler.copySharedType(entry, key, typeNames[key]!);
  entry.model.types = Object.values(typeNames).map((typeName) => ({
    typeName,
    schema: bundler.definitions.get(typeName) as JSONSchema7,
  }));
}
