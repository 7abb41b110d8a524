import type { JSONSchema7 } from 'json-schema';
import { resolveOptions } from '../../codegen/config/options.js';
import { type EmitSettings, emitSettings } from '../../codegen/emit/settings.js';
import type { EmitContext, ProjectModel, SharedSchemaModel, ToolModel } from '../../codegen/model.js';
import { compareStrings, toDisplayName, toolNames } from '../../codegen/naming.js';
import { loadTemplates } from '../../codegen/templates/index.js';

/** The emit context tests use. */
export const TEST_CONTEXT: EmitContext = {
  runtimeImport: 'toolsmith',
  stubsRuntimeImport: 'toolsmith',
  stubsFromGenerated: '../src/tools',
  generatedFromStubs: '../../generated',
  regenerateCommand: 'npm run generate',
  generatorVersion: '0.0.0-test',
};

/**
 * The emission settings tests use: every setting at its config default (as generate makes them), the
 * test context, the default templates, no prettier, the default manifest targets, with `fields` over
 * them. A setting declared in the config schema is here with no edit.
 */
export function makeSettings(fields: Partial<EmitSettings> = {}): EmitSettings {
  const defaults = emitSettings(resolveOptions({ root: '/project' }), loadTemplates());
  return { ...defaults, ctx: TEST_CONTEXT, format: false, manifests: {}, ...fields };
}

/** A ToolModel with every field filled from a few given ones, independent of the loader. */
export function makeTool(fields: Partial<ToolModel> & { name: string }): ToolModel {
  const inputSchema: JSONSchema7 = fields.inputSchema ?? { type: 'object', properties: {} };
  return {
    id: `${fields.name}@1.0.0`,
    displayName: toDisplayName(fields.name),
    description: `The ${fields.name} tool.`,
    hasSideEffects: false,
    requiredCapabilities: [],
    examples: [],
    definitionOrigins: {},
    source: { file: `schemas/${fields.name}.tool.json`, relPath: `${fields.name}.tool.json` },
    names: toolNames(fields.name),
    sharedRefs: [],
    hash: 'test',
    ...fields,
    inputSchema,
  } as ToolModel;
}

/** A shared schema model (`shared/<stem>.schema.json`), with its root type named after the file. */
export function makeShared(stem: string, typeName: string, schema: JSONSchema7): SharedSchemaModel {
  return {
    relPath: `shared/${stem}.schema.json`,
    source: `schemas/shared/${stem}.schema.json`,
    schema,
    module: `shared/${stem}`,
    typeNames: { '#': typeName },
    types: [{ typeName, schema }],
  } as SharedSchemaModel;
}

/** A project of the given tools (sorted by name, as normalize leaves them). */
export function makeProject(tools: ToolModel[], shared: SharedSchemaModel[] = []): ProjectModel {
  return { tools: [...tools].sort((a, b) => compareStrings(a.name, b.name)), shared };
}
