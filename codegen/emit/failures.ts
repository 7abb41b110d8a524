/**
 * What a tool's declared errors (the definition's `errors`) add to its generated files: in its
 * types, each error's data type, `<Pascal>Errors` (code → data type) and `<Pascal>Failure` (what
 * `execute` may fail with); in its base, the `errors` field the runtime checks a failure against
 * (each error's description, `retryable` and generated data validator).
 */
import type { JSONSchema7 } from 'json-schema';
import type { ToolModel } from '../model.js';
import { errorDataNames, failureTypeNames } from '../naming.js';
import { docText, jsDoc, quoted } from './literal.js';

/**
 * The declarations of `tool`'s declared errors for its types file; `compileData` turns one data
 * schema into its declaration under the given name. Empty when the tool declares none.
 */
export async function failureTypes(
  tool: ToolModel,
  compileData: (schema: JSONSchema7, typeName: string) => Promise<string>,
): Promise<string[]> {
  if (tool.errors === undefined) return [];
  const declarations: string[] = [];
  const members: string[] = [];
  for (const error of tool.errors) {
    let type = 'undefined';
    if (error.data !== undefined) {
      type = errorDataNames(tool.names, error.code).type;
      declarations.push(
        `/** The data of the \`${docText(tool.name)}\` error ${error.code}. */\n${await compileData(error.data, type)}`,
      );
    }
    members.push(`  ${jsDoc(error.description).replace(/\n/g, '\n  ')}\n  ${error.code}: ${type};`);
  }
  const names = failureTypeNames(tool.names);
  declarations.push(
    `/** The errors \`${docText(tool.name)}\` declares: each code and the type of its data (\`undefined\`: none). */\nexport interface ${names.errors} {\n${members.join('\n')}\n}\n`,
    `/** What \`${docText(tool.name)}\` may fail with: one of its declared errors with its data, or a failure without a code. */\nexport type ${names.failure} = ToolFailure<${names.errors}>;\n`,
  );
  return declarations;
}

/** The validator names a tool's base imports for its declared errors' data. */
export function failureValidators(tool: ToolModel): string[] {
  return (tool.errors ?? []).flatMap((error) =>
    error.data === undefined ? [] : [errorDataNames(tool.names, error.code).validator],
  );
}

/** The value of a base's `errors` field, on one line as its other fields: a frozen object of the declared errors, by code. */
export function errorsField(tool: ToolModel): string {
  const entries = (tool.errors ?? []).map((error) => {
    const fields = [`description: ${quoted(error.description)}`];
    if (error.retryable === true) fields.push('retryable: true');
    if (error.data !== undefined) fields.push(`data: ${errorDataNames(tool.names, error.code).validator}`);
    return `${error.code}: Object.freeze({ ${fields.join(', ')} })`;
  });
  return `Object.freeze({ ${entries.join(', ')} })`;
}
