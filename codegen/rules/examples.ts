import type { ValidateFunction } from 'ajv';
import { coerceWhereNeeded } from '../../src/validator-runtime.js';
import { compileToolSchema } from '../ajv.js';
import type { Diagnostics } from '../diagnostics.js';
import type { SourceFile } from '../load.js';
import type { ToolExample } from '../model.js';
import { cloneJson } from '../schema-walk.js';
import type { Rule, ToolSubject } from './rule.js';

/**
 * Each example's input (and output) validates, as the generated validator would check it (coercing
 * only where a value does not fit as sent); an example output needs an outputSchema. The schemas are
 * compiled here only for a tool that has examples: a schema Ajv rejects is then reported here, and
 * otherwise by the validator emitter (emit/validators.ts), with the same words.
 */
export const examples: Rule<ToolSubject> = {
  name: 'examples',
  run(subject, diagnostics) {
    const list = (subject.definition.examples ?? []) as ToolExample[];
    if (!subject.checkValues || list.length === 0 || subject.validatorSchemas === undefined) return;
    const validators = compileValidators(subject, diagnostics);
    if (validators === undefined) return;
    const { source } = subject;
    list.forEach((example, index) => {
      checkExample(validators.input, example.input, source, `/examples/${index}/input`, 'input', diagnostics);
      if (example.output === undefined) return;
      if (validators.output)
        checkExample(validators.output, example.output, source, `/examples/${index}/output`, 'output', diagnostics);
      else
        diagnostics.error(
          source,
          `/examples/${index}/output`,
          'the example has an output but the tool has no outputSchema',
          'add an outputSchema or remove the example output',
        );
    });
  },
};

/** The tool's validators, coercing as generated ones do; undefined (each rejection an error) when Ajv rejects a schema. */
function compileValidators(
  subject: ToolSubject,
  diagnostics: Diagnostics,
): { input: ValidateFunction; output?: ValidateFunction } | undefined {
  const schemas = subject.validatorSchemas!;
  const ajv = subject.ajv();
  const compiled = [compileToolSchema(ajv, schemas.input, 'input')];
  if (schemas.output) compiled.push(compileToolSchema(ajv, schemas.output, 'output'));
  let rejected = false;
  for (const outcome of compiled) {
    if (!('rejection' in outcome)) continue;
    diagnostics.error(subject.source, outcome.rejection.pointer, outcome.rejection.message, outcome.rejection.hint);
    rejected = true;
  }
  if (rejected) return undefined;
  const [input, output] = compiled.map((outcome) =>
    coerceWhereNeeded((outcome as { validate: ValidateFunction }).validate),
  );
  return compiled.length > 1 ? { input: input!, output: output! } : { input: input! };
}

function checkExample(
  validate: ValidateFunction,
  value: unknown,
  source: SourceFile,
  pointer: string,
  what: string,
  diagnostics: Diagnostics,
): void {
  if (validate(cloneJson(value))) return;
  for (const error of validate.errors ?? []) {
    const detail =
      error.keyword === 'required'
        ? `the required property "${error.params.missingProperty}" is missing${error.instancePath ? ` at ${error.instancePath}` : ''}`
        : `${error.instancePath || '/'} ${error.message}`;
    diagnostics.error(
      source,
      `${pointer}${error.instancePath}`,
      `the example ${what} does not match the ${what} schema: ${detail}`,
      'fix the example or the schema',
    );
  }
}
