import type { EmitContext, GeneratedFile, ToolModel } from '../model.js';
import type { ManifestEmission } from './manifests/index.js';
import type { DocTemplates } from '../templates/names.js';
import { createDocRenderer } from './docs.js';
import { formatFiles, normalizeLineEndings } from './format.js';
import { emitToolSchemaFile } from './registry.js';
import { emitToolBase } from './tool-bases.js';
import { emitToolTypes, type TypeHomes } from './types.js';
import { emitToolValidators } from './validators.js';

/** What every tool's emission shares. */
export interface ToolEmitterOptions {
  homes: TypeHomes;
  ctx: EmitContext;
  templates: DocTemplates;
  losses: ManifestEmission['losses'];
  unavailable: ManifestEmission['unavailable'];
  format: boolean;
}

/**
 * The per-tool emitters (types, validators, base class, schema file, doc page, stub), formatted.
 * Why one place: `emitAll` runs it in process and each worker thread (emit-worker.ts) runs the same
 * code, so both give the same bytes.
 */
export function createToolEmitter(options: ToolEmitterOptions): {
  toolFiles(tool: ToolModel): Promise<GeneratedFile[]>;
  stub(tool: ToolModel, emit: (tool: ToolModel, ctx: EmitContext) => GeneratedFile): Promise<GeneratedFile>;
} {
  const pages = createDocRenderer(options.templates);
  const format = (files: GeneratedFile[]) =>
    options.format ? formatFiles(files) : Promise.resolve(files.map(normalizeLineEndings));
  const { ctx } = options;
  return {
    async toolFiles(tool) {
      // Everything that depends on this tool alone: reused as a whole while its hash is unchanged.
      const files = [
        await emitToolTypes(tool, options.homes, ctx),
        ...emitToolValidators(tool, ctx),
        emitToolBase(tool, ctx),
        emitToolSchemaFile(tool),
        pages.toolPage(tool, ctx, { losses: options.losses, unavailable: options.unavailable }),
      ];
      return format(files);
    },
    async stub(tool, emit) {
      return (await format([emit(tool, ctx)]))[0]!;
    },
  };
}
