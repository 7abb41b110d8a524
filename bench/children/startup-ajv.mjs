/**
 * P2/P6, baseline: loads the same bundled input and output schemas from one JSON file, compiles
 * every one with Ajv at run time (the options toolsmith uses: draft-07, coerceTypes, useDefaults,
 * allErrors, ajv-formats, strict), then validates one call. Reports the time since process start
 * and the peak RSS.
 *
 * argv: <bundled-schemas.json> <tool name> <arguments JSON> <Ajv options JSON (src/schema/ajv-options.ts AJV_OPTIONS)>
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { peakRssMb, report } from './report.mjs';

const addFormats = addFormatsModule.default ?? addFormatsModule;
const [schemasPath, toolName, argumentsJson, optionsJson] = process.argv.slice(2);
const started = performance.now();
const schemas = JSON.parse(readFileSync(schemasPath, 'utf8'));
// Exactly toolsmith's options (passed by bench/run.ts from src/schema/ajv-options.ts), so both sides validate alike.
const ajv = new Ajv(JSON.parse(optionsJson));
addFormats(ajv);
const validators = new Map();
for (const tool of schemas) {
  validators.set(tool.name, {
    input: ajv.compile(tool.inputSchema),
    output: tool.outputSchema === null ? undefined : ajv.compile(tool.outputSchema),
  });
}
const compiled = performance.now();
const args = JSON.parse(argumentsJson);
const valid = validators.get(toolName).input(args);
const firstCallMs = performance.now();
report({
  firstCallMs,
  bootMs: started,
  compileMs: compiled - started,
  tools: schemas.length,
  isError: !valid,
  errorDetails: valid ? null : validators.get(toolName).input.errors,
  ...peakRssMb(),
});
