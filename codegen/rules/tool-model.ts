import { createHash } from 'node:crypto';
import type { JSONSchema7 } from 'json-schema';
import { compareStrings } from '../../src/manifest-targets/build.js';
import { type DeclaredError, GENERATOR_VERSION, type ToolExample, type ToolModel } from '../model.js';
import { toDisplayName } from '../naming.js';
import { copyJsonValue, sortKeysDeep } from '../../src/schema/walk.js';
import type { ToolSubject } from './rule.js';

/**
 * The content hash of a tool: the generator version, its definition and the shared schemas it uses.
 * Why: the incremental cache reuses a tool's files (and skips its value checks) while it is unchanged.
 */
export function toolHash(subject: Pick<ToolSubject, 'definition' | 'shared' | 'sharedUsed'>): string {
  return createHash('sha256')
    .update(GENERATOR_VERSION)
    .update('\0')
    .update(JSON.stringify(sortKeysDeep(subject.definition)))
    .update('\0')
    .update(
      [...subject.shared.values()]
        .filter((entry) => subject.sharedUsed.has(entry.model.module))
        .map((entry) => `${entry.model.relPath}\0${JSON.stringify(sortKeysDeep(entry.model.schema))}`)
        .sort()
        .join('\0'),
    )
    .digest('hex');
}

/** The optional fields a model keeps as the definition states them (copied). */
const COPIED_FIELDS = [
  'category',
  'version',
  'steps',
  'timeoutMs',
  'contentTypes',
  'taskSupport',
  'annotations',
] as const satisfies readonly (keyof ToolModel)[];

/** The model of a tool whose rules all passed (`ref-bundling` has set its bundled schemas). */
export function assembleToolModel(subject: ToolSubject, hash: string): ToolModel {
  const { definition, source, names } = subject;
  const input = subject.input!;
  const output = subject.output;
  const model: ToolModel = {
    name: definition.name,
    id: definition.id ?? (definition.version ? `${definition.name}@${definition.version}` : definition.name),
    displayName: definition.displayName ?? toDisplayName(definition.name),
    description: definition.description,
    hasSideEffects: definition.hasSideEffects ?? false,
    requiredCapabilities: [...(definition.requiredCapabilities ?? [])],
    inputSchema: input.bundled,
    definitionOrigins: { ...input.origins, ...(output?.origins ?? {}) },
    examples: ((definition.examples ?? []) as ToolExample[]).map((example) => copyJsonValue(example)),
    source: { file: source.file, relPath: source.relPath },
    names,
    sharedRefs: [...subject.sharedUsed].sort(),
    hash,
  };
  for (const field of COPIED_FIELDS)
    if (definition[field] !== undefined) Object.assign(model, { [field]: copyJsonValue(definition[field]) });
  if (output) model.outputSchema = output.bundled;
  if (subject.validatorOmits !== undefined) model.validatorOmits = subject.validatorOmits;
  if (definition.errors !== undefined) model.errors = declaredErrors(definition.errors);
  if (definition.loaded === true) model.loaded = true;
  const targets: Record<string, unknown> = definition.targets ?? {};
  const excluded = Object.keys(targets).filter((target) => targets[target] === false);
  if (excluded.length > 0) model.excludedTargets = excluded.sort();
  return model;
}

/** The definition's `errors` as the model keeps them: sorted by code (plain string order). */
function declaredErrors(
  errors: Record<string, { description: string; data?: unknown; retryable?: boolean }>,
): DeclaredError[] {
  return Object.keys(errors)
    .sort(compareStrings)
    .map((code) => {
      const { description, data, retryable } = errors[code]!;
      const declared: DeclaredError = { code, description };
      if (data !== undefined) declared.data = copyJsonValue(data) as JSONSchema7;
      if (retryable === true) declared.retryable = true;
      return declared;
    });
}
