import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { nearestName } from '../../src/text/nearest-name.js';
import type { SourceFile } from '../load.js';
import { type ComposedStep, parseReference } from '../../src/composed.js';
import type { ToolModel } from '../model.js';
import { escapePointerSegment, resolveLocalRef } from '../../src/schema/json-pointer.js';
import { isObject } from '../../src/schema/walk.js';
import type { Rule } from './rule.js';
import type { Candidate } from './tool-names.js';

/** The tools of a project as the step check needs them. */
export interface StepsSubject {
  candidates: readonly Candidate[];
  /** Every named definition, by tool name (also those that became no tool). */
  sources: Map<string, SourceFile>;
  /** The tools that were built, by name. */
  tools: Map<string, ToolModel>;
}

/**
 * A composed tool's steps call tools that exist, and their `arguments` reference only fields that
 * exist: `$input.<path>` in the tool's input schema, `$steps.<n>.output.<path>` in the output of an
 * earlier step. Each broken reference is an error at it.
 */
export const composedSteps: Rule<StepsSubject> = {
  name: 'composed-steps',
  run({ candidates, sources, tools }, diagnostics) {
    for (const { source, definition } of candidates) {
      if (!Array.isArray(definition.steps)) continue;
      const steps: ComposedStep[] = definition.steps;
      const inputSchema = tools.get(definition.name)?.inputSchema;
      // Each step's tool, whose output a later step's references may read.
      const called = steps.map((step) => tools.get(step.tool));
      steps.forEach((step, index) => {
        if (!sources.has(step.tool)) {
          const suggestion = nearestName(step.tool, sources.keys());
          diagnostics.error(
            source,
            `/steps/${index}/tool`,
            `step ${index} calls the tool "${step.tool}", which does not exist`,
            suggestion ? `did you mean \`${suggestion}\`?` : `defined tools: ${[...sources.keys()].join(', ')}`,
          );
          return;
        }
        for (const [value, pointer] of referencesIn(step.arguments, `/steps/${index}/arguments`)) {
          const problem = referenceProblem(value, index, inputSchema, called);
          if (problem !== undefined) diagnostics.error(source, pointer, ...problem);
        }
      });
    }
  },
};

/** Every string of `value` that starts with `$` (a reference, or a mistaken one), with its pointer. */
function* referencesIn(value: unknown, pointer: string): Generator<[string, string]> {
  if (typeof value === 'string' && value.startsWith('$')) yield [value, pointer];
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* referencesIn(item, `${pointer}/${i}`);
  else if (isObject(value))
    for (const key of Object.keys(value)) yield* referencesIn(value[key], `${pointer}/${escapePointerSegment(key)}`);
}

/**
 * What is wrong with the reference `value` in step `index` (message and hint), if anything: read as the
 * runtime reads it (`parseReference`), against the tool's input schema and its steps' tools.
 */
function referenceProblem(
  value: string,
  index: number,
  inputSchema: JSONSchema7 | undefined,
  called: readonly (ToolModel | undefined)[],
): [string, string] | undefined {
  const reference = parseReference(value);
  if (reference === undefined && !/^\$steps(\.|$)/.test(value))
    return [`"${value}" is not a reference`, 'use `$input.<field>` or `$steps.<n>.output.<field>`'];
  if (reference === undefined || reference.step >= index)
    return [
      `"${value}" must reference an earlier step's output as \`$steps.<n>.output.<field>\` (n < ${index})`,
      'steps run in order; a step can only use the outputs before it',
    ];
  const fields = (schema: JSONSchema7) => Object.keys(schema.properties ?? {}).join(', ');
  if (reference.step === -1) {
    if (inputSchema === undefined || schemaHasPath(inputSchema, inputSchema, reference.path)) return undefined;
    return [`"${value}" names a field the input schema does not have`, `input fields: ${fields(inputSchema)}`];
  }
  const tool = called[reference.step];
  const output = tool?.outputSchema;
  if (tool === undefined || (output !== undefined && schemaHasPath(output, output, reference.path))) return undefined;
  return [
    `"${value}" names a field the output of "${tool.name}" does not have`,
    output ? `output fields: ${fields(output)}` : `"${tool.name}" has no outputSchema`,
  ];
}

/** Whether `path` (property names, or indices into `items`) leads somewhere inside `schema`, through local refs and composition. */
function schemaHasPath(root: JSONSchema7, schema: JSONSchema7Definition | undefined, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  if (typeof schema !== 'object' || schema === null) return false;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#'))
    return schemaHasPath(root, resolveLocalRef(root, schema.$ref) as JSONSchema7 | undefined, path);
  const [head, ...rest] = path;
  if (isObject(schema.properties) && Object.hasOwn(schema.properties, head!))
    return schemaHasPath(root, schema.properties[head!], rest);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const)
    if ((schema[keyword] ?? []).some((branch) => schemaHasPath(root, branch, path))) return true;
  if (schema.items && !Array.isArray(schema.items) && /^[0-9]+$/.test(head!))
    return schemaHasPath(root, schema.items, rest);
  return false;
}
