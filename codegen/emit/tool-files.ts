import { typeHomes, type GeneratedFile, type SharedSchemaModel, type ToolModel } from '../model.js';
import { type ToolManifests, toolManifests } from './manifests/index.js';
import type { PrintableFile } from './pool/printer.js';
import { emitStub } from './stubs.js';
import type { EmitSettings } from './settings.js';
import { createDocRenderer } from './docs.js';
import { formatFiles } from './format.js';
import { emitToolSchemaFile } from './registry.js';
import { emitToolBase } from './tool-bases.js';
import { emitToolTypes } from './types.js';
import { sharedValidators } from './shared-validators.js';
import { emitToolValidators } from './validators.js';

/** What every tool's emission shares: the run's settings and the project's shared schemas. */
export interface ToolEmitterOptions extends EmitSettings {
  /** The project's shared schemas: their types are imported from their modules, their validators called in the shared module. */
  shared: readonly SharedSchemaModel[];
}

/** A tool's formatted files and its part of the manifests (assembled by the caller, see `createManifestAssembler`). */
export interface ToolOutput {
  files: GeneratedFile[];
  manifests: ToolManifests;
}

/**
 * The per-tool emitters (types, validators, schema file, doc page formatted; base class and stub as
 * structures the printing thread lays out). Why one place: `emitToolUnits` (project.ts) runs it in
 * process and each worker thread (emit/pool/worker.ts) runs the same code, so both give the same bytes.
 */
export function createToolEmitter(options: ToolEmitterOptions): {
  toolFiles(tool: ToolModel): Promise<ToolOutput>;
  /** The tool's base class file, for the printing thread (pool/printer.ts). */
  base(tool: ToolModel): PrintableFile;
  /** The tool's stub, for the printing thread. */
  stub(tool: ToolModel): PrintableFile;
} {
  const pages = createDocRenderer(options.templates);
  const { ctx } = options;
  const homes = typeHomes({ shared: options.shared });
  const shared = sharedValidators(options.shared);
  return {
    async toolFiles(tool) {
      // Its manifest entries and losses first: its doc page lists the losses.
      const { manifests, losses } = toolManifests(tool, options.manifests);
      // Everything that depends on this tool alone: reused as a whole while its hash is unchanged.
      const files = [
        await emitToolTypes(tool, homes, ctx),
        ...emitToolValidators(tool, ctx, shared),
        emitToolSchemaFile(tool),
        pages.toolPage(tool, ctx, { losses, unavailable: manifests.unavailable }),
      ];
      return { files: await formatFiles(files, options.format), manifests };
    },
    base: (tool) => emitToolBase(tool, ctx),
    stub: (tool) => emitStub(tool, ctx),
  };
}
