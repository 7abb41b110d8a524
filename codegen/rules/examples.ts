import type { ValidateFunction } from 'ajv';
import { coerceWhereNeeded } from '../../src/schema/validator-runtime.js';
import { compileToolSchema, type SchemaRejection } from '../ajv.js';
import type { ToolExample } from '../model.js';
import { copyJsonValue, isObject } from '../../src/schema/walk.js';
import type { Rule, ToolSubject } from './rule.js';

/**
 * An example output needs an outputSchema. Whether each example validates is checked where the
 * tool's validators are compiled anyway (`exampleRejections`, from emit/validators.ts), so no
 * schema is compiled twice: a failing example is the definition's problem at its place, reported
 * with every other one, and nothing is written. A tool with another problem is not emitted: its
 * examples are checked here, with validators compiled from what the other rules could judge (a
 * schema that still does not compile, or an example not shaped as one, is not judged).
 */
export const examples: Rule<ToolSubject> = {
  name: 'examples',
  run(subject, diagnostics) {
    const list = subject.definition.examples as unknown;
    if (!subject.checkValues || !Array.isArray(list) || list.length === 0) return;
    if (subject.output === undefined)
      list.forEach((example, index) => {
        if (isObject(example) && example.output !== undefined)
          diagnostics.error(
            subject.source,
            `/examples/${index}/output`,
            'the example has an output but the tool has no outputSchema',
            'add an outputSchema or remove the example output',
          );
      });
    if (!subject.failed && diagnostics.errorCount === 0) return;
    const schemas = subject.validatorSchemas;
    if (schemas === undefined) return;
    const ajv = subject.ajv();
    const input = compileToolSchema(ajv, schemas.input, 'input');
    const output = schemas.output === undefined ? undefined : compileToolSchema(ajv, schemas.output, 'output');
    if (!('validate' in input) || (output !== undefined && !('validate' in output))) return;
    const validators = { input: input.validate, ...(output === undefined ? {} : { output: output.validate }) };
    for (const rejection of exampleRejections(list as ToolExample[], validators))
      diagnostics.error(subject.source, rejection.pointer, rejection.message, rejection.hint);
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
    // An example not shaped as one (the definition's check reports it) is not judged.
    if (!isObject(example) || !Object.hasOwn(example, 'input')) return;
    found.push(...checkExample(input, example.input, `/examples/${index}/input`, 'input'));
    if (example.output !== undefined && output !== undefined)
      found.push(...checkExample(output, example.output, `/examples/${index}/output`, 'output'));
  });
  return found;
}

function checkExample(validate: ValidateFunction, value: unknown, pointer: string, what: string): SchemaRejection[] {
  if (validate(copyJsonValue(value))) return [];
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
