import type { ValidateFunction } from 'ajv';
import { coerceWhereNeeded } from '../../src/schema/validator-runtime.js';
import type { SchemaRejection } from '../ajv.js';
import type { ToolExample } from '../model.js';
import { cloneJson } from '../../src/schema/walk.js';
import type { Rule, ToolSubject } from './rule.js';

/**
 * An example output needs an outputSchema. Whether each example validates is checked where the
 * tool's validators are compiled anyway (`exampleRejections`, from emit/validators.ts), so no
 * schema is compiled twice: a failing example is the definition's problem at its place, reported
 * with every other one, and nothing is written.
 */
export const examples: Rule<ToolSubject> = {
  name: 'examples',
  run(subject, diagnostics) {
    const list = (subject.definition.examples ?? []) as ToolExample[];
    if (!subject.checkValues || list.length === 0 || subject.output !== undefined) return;
    list.forEach((example, index) => {
      if (example.output !== undefined)
        diagnostics.error(
          subject.source,
          `/examples/${index}/output`,
          'the example has an output but the tool has no outputSchema',
          'add an outputSchema or remove the example output',
        );
    });
  },
};

/**
 * Each example's input (and output) checked as the generated validator checks it (coercing only
 * where a value does not fit as sent), with the tool's compiled validators: one problem per Ajv
 * error, at the example's value (an output without an outputSchema is the rule's, above).
 */
export function exampleRejections(
  list: readonly ToolExample[],
  validators: { input: ValidateFunction; output?: ValidateFunction },
): SchemaRejection[] {
  const input = coerceWhereNeeded(validators.input);
  const output = validators.output ? coerceWhereNeeded(validators.output) : undefined;
  const found: SchemaRejection[] = [];
  list.forEach((example, index) => {
    found.push(...checkExample(input, example.input, `/examples/${index}/input`, 'input'));
    if (example.output !== undefined && output !== undefined)
      found.push(...checkExample(output, example.output, `/examples/${index}/output`, 'output'));
  });
  return found;
}

function checkExample(validate: ValidateFunction, value: unknown, pointer: string, what: string): SchemaRejection[] {
  if (validate(cloneJson(value))) return [];
  return (validate.errors ?? []).map((error) => {
    const detail =
      error.keyword === 'required'
        ? `the required property "${error.params.missingProperty}" is missing${error.instancePath ? ` at ${error.instancePath}` : ''}`
        : `${error.instancePath || '/'} ${error.message}`;
    return {
      pointer: `${pointer}${error.instancePath}`,
      message: `the example ${what} does not match the ${what} schema: ${detail}`,
      hint: 'fix the example or the schema',
    };
  });
}
