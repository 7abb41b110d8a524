import { truncateText } from '../../src/errors.js';
import type { JSONSchema7 } from 'json-schema';
import { prepareValidatorSchema, withoutDefaults } from '../../src/schema/defaults.js';
import type { Diagnostics } from '../problems.js';
import type { SourceFile } from '../load.js';
import { ownValue } from '../dictionary.js';
import { sharedTypeOf } from '../model.js';
import { formatPointer, parsePointer } from '../../src/schema/json-pointer.js';
import type { BundledSchema, Rule, ToolSubject } from './rule.js';

/**
 * A `default` that breaks its own schema (checked without coercion) would be filled in and then
 * rejected, or filled in converted: an error. `default: null` where the schema does not allow null
 * (the "no default" idiom) is a warning instead, and is left out of the validator: the rule sets
 * `subject.validatorSchemas`, the schemas to compile (the published schema keeps the default as
 * written). A default inside a shared schema is that file's problem, reported at its position.
 */
export const defaultValues: Rule<ToolSubject> = {
  name: 'default-values',
  run(subject, diagnostics) {
    const { input, output } = subject;
    if (input === undefined) return;
    if (!subject.checkValues) {
      subject.validatorSchemas = { input: input.bundled, ...(output ? { output: output.bundled } : {}) };
      return;
    }
    const fromInput = checkDefaults(subject, input, '/inputSchema', diagnostics);
    const fromOutput = output && checkDefaults(subject, output, '/outputSchema', diagnostics);
    subject.validatorSchemas = { input: fromInput.schema, ...(fromOutput && { output: fromOutput.schema }) };
    subject.validatorOmits = { input: fromInput.omitted, ...(fromOutput && { output: fromOutput.omitted }) };
  },
};

/** The schema to compile, without the wrong defaults, and the pointers of the `default: null`s it leaves out. */
function checkDefaults(
  subject: ToolSubject,
  bundle: BundledSchema,
  pointer: string,
  diagnostics: Diagnostics,
): { schema: JSONSchema7; omitted: string[] } {
  // The tool's Ajv is made only if a default is not plain enough to decide without it.
  const prepared = prepareValidatorSchema(() => subject.ajv(), bundle.bundled);
  const wrong: string[] = [];
  const omitted: string[] = [];
  for (const entry of prepared.mismatches) {
    const [source, at] = placeOf(subject, bundle, pointer, `${pointer}${entry.pointer}/default`);
    if (entry.noDefaultIdiom) {
      omitted.push(entry.pointer);
      diagnostics.warning(
        source,
        at,
        'the default null is not allowed by its own schema: it is not filled in (the property stays absent when omitted)',
        'remove `"default": null`, or allow null (`"type": ["string", "null"]` or `anyOf` with `{ "type": "null" }`) if null is meant',
      );
    } else {
      wrong.push(entry.pointer);
      diagnostics.error(
        source,
        at,
        `the default ${truncateText(JSON.stringify(entry.value), 80)} does not match its own schema: ${entry.instancePath || '/'} ${entry.message}`.trimEnd(),
        'fix the default or the schema: it would be filled in and then rejected',
      );
    }
  }
  // Such a tool is not emitted; its examples are judged without the wrong defaults filled in.
  return { schema: withoutDefaults(prepared.schema, wrong), omitted };
}

/**
 * Where a pointer into a tool's bundled schema is reported: the file and pointer it came from.
 * Bundling copies a shared schema under `definitions/<TypeName>` of every tool that uses it (only
 * `$ref`s rewritten, the root's `definitions`, `$schema` and `$id` left out), so a pointer below that
 * copy maps one to one onto the shared file: a `default` that breaks its schema there is reported at
 * the shared file's line and column, once, not at each tool that happens to use it.
 */
function placeOf(subject: ToolSubject, bundle: BundledSchema, rootPointer: string, at: string): [SourceFile, string] {
  const [container, key, ...rest] = parsePointer(at.slice(rootPointer.length));
  const origin = container === 'definitions' && key !== undefined ? ownValue(bundle.origins, key) : undefined;
  const models = [...subject.shared.values()].map((entry) => entry.model);
  const type = sharedTypeOf(origin, models);
  if (type === undefined) return [subject.source, at];
  return [subject.shared.get(type.model.relPath)!.source, `${type.pointer}${formatPointer(rest)}`];
}
