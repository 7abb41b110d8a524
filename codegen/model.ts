import type { JSONSchema7 } from 'json-schema';
import type { ComposedStep } from '../src/composed.js';
import type { ManifestProblem } from '../src/manifest-targets/build.js';
import type { ToolAnnotations } from '../src/tool-description.js';

/** Bumped when generated output changes shape: part of every tool's content hash and every banner. */
export const GENERATOR_VERSION = '0.1.0';

/** A problem found in the definitions: one shape with the manifest builders' (src/manifest-targets/build.ts). */
export type Problem = ManifestProblem;

/** One example of a tool's use, checked against its schemas at generate time. */
export interface ToolExample {
  description?: string;
  input: Record<string, unknown>;
  output?: unknown;
}

/** One error a tool declares (its definition's `errors`), as the emitters read it. */
export interface DeclaredError {
  /** `RATE_LIMITED` */
  code: string;
  description: string;
  /** The schema of the data the failure carries (self-contained, the tool's dialect). */
  data?: JSONSchema7;
  retryable?: true;
}

/** Every identifier and file name generated for one tool (all from codegen/naming.ts). */
export interface ToolNames {
  /** `WebSearch` */
  pascal: string;
  /** `webSearch` */
  camel: string;
  /** `web-search`: the file stem in generated/ and src/tools/ */
  kebab: string;
  /** `WebSearchInput` */
  inputType: string;
  /** `WebSearchArgs`: the input as `execute` gets it, with the defaults the validator fills in present */
  argsType: string;
  /** `WebSearchOutput` */
  outputType: string;
  /** `validateWebSearchInput` */
  inputValidator: string;
  /** `validateWebSearchOutput` */
  outputValidator: string;
  /** `WebSearchToolBase` */
  base: string;
  /** `WebSearchTool` */
  impl: string;
  /** `webSearchInputSchema`: the frozen bundled input schema the base exports */
  inputSchemaConstant: string;
  /** `webSearchOutputSchema` */
  outputSchemaConstant: string;
  /** `webSearchSteps`: a composed tool's frozen steps */
  stepsConstant: string;
}

/** A shared schema file (`schemas/**\/*.schema.json`) and the types it becomes. */
export interface SharedSchemaModel {
  /** Path relative to the schemas folder, e.g. `shared/geo-point.schema.json`. */
  relPath: string;
  /** Path relative to the project root. */
  source: string;
  /** The file's schema as written (its own `#/definitions/...` refs kept; other refs as written). */
  schema: JSONSchema7;
  /** Output module stem, e.g. `shared/geo-point` (generated/types/shared/geo-point.ts). */
  module: string;
  /** `#` (the root) and `#/definitions/X` pointers → type names. */
  typeNames: Readonly<Record<string, string>>;
  /**
   * The types this file declares, in `typeNames` order, each a schema whose refs all read
   * `#/definitions/<TypeName>` (type names of shared schemas are unique across the project).
   */
  types: readonly { typeName: string; schema: JSONSchema7 }[];
}

/** One tool, as every emitter sees it. Frozen after normalize; emitters never open files. */
export interface ToolModel {
  name: string;
  id: string;
  displayName: string;
  description: string;
  category?: string;
  version?: string;
  hasSideEffects: boolean;
  requiredCapabilities: readonly string[];
  /** The MCP annotation hints the definition states (`annotations`). */
  annotations?: ToolAnnotations;
  /** Manifest targets the definition turns off for itself (`"targets": { "gemini": false }`), sorted. */
  excludedTargets?: readonly string[];
  /** The definition's `loaded: true`: kept loaded under deferred loading. */
  loaded?: true;
  /**
   * Self-contained, bundled schemas: every `$ref` is local (`#/definitions/...`). A shared schema a tool
   * uses is copied under `definitions[<its type name>]`; the tool's own definitions keep their keys.
   */
  inputSchema: JSONSchema7;
  outputSchema?: JSONSchema7;
  /**
   * The `default`s normalize's defaults check left out of each validator (pointers into the bundled
   * schema: a `default: null` the schema forbids), so the emitter compiles without checking again.
   * Absent when the check was skipped (an unchanged tool): the emitter then checks itself.
   */
  validatorOmits?: { readonly input: readonly string[]; readonly output?: readonly string[] };
  /** Bundled definition key → where it came from (`shared` with the shared module, or `local`). */
  definitionOrigins: Readonly<
    Record<string, { kind: 'shared'; module: string; typeName: string } | { kind: 'local'; typeName: string }>
  >;
  examples: readonly ToolExample[];
  /** The errors the tool declares, sorted by code; absent when it declares none. */
  errors?: readonly DeclaredError[];
  /** A composed tool's steps: the runtime's type (src/composed.ts), so the model and the generated bases agree. */
  steps?: readonly ComposedStep[];
  timeoutMs?: number;
  /** Whether the tool may run as an MCP task (`taskSupport`). */
  taskSupport?: 'optional' | 'required';
  /** The content block kinds the tool's results may carry (`contentTypes`), in the definition's order. */
  contentTypes?: readonly ('text' | 'image' | 'audio' | 'resource' | 'resource_link')[];
  source: { file: string; relPath: string };
  names: ToolNames;
  /** Shared modules this tool uses (sorted). */
  sharedRefs: readonly string[];
  /** Content hash of the definition, the shared schemas it uses and the generator version. */
  hash: string;
  /** The warnings its definition file gave (kept with a cached model, so every run reports them). */
  warnings?: Problem[];
}

/** The whole normalized input of the emitters. */
export interface ProjectModel {
  tools: readonly ToolModel[];
  shared: readonly SharedSchemaModel[];
}

/** Type names of the shared schemas → the module declaring each (`types/<module>.ts`). */
export function typeHomes(project: Pick<ProjectModel, 'shared'>): Map<string, string> {
  const homes = new Map<string, string>();
  for (const shared of project.shared) for (const { typeName } of shared.types) homes.set(typeName, shared.module);
  return homes;
}

/**
 * The shared schema a bundled definition of `origin` copies, and the pointer of its type in that file
 * (`` for the file's root, `/definitions/X`); undefined for a tool's own definition.
 */
export function sharedTypeOf(
  origin: ToolModel['definitionOrigins'][string] | undefined,
  shared: Iterable<SharedSchemaModel>,
): { model: SharedSchemaModel; pointer: string } | undefined {
  if (origin?.kind !== 'shared') return undefined;
  for (const model of shared)
    for (const [pointer, typeName] of Object.entries(model.typeNames))
      if (model.module === origin.module && typeName === origin.typeName) return { model, pointer: pointer.slice(1) };
  return undefined;
}

/** One file an emitter produces: a path and its content (text, or bytes). `stub` files are written only when absent. */
export interface GeneratedFile {
  /** Relative to the output root (`generated`) or, for stubs, to the stubs root. */
  path: string;
  content: string;
  kind: 'generated' | 'stub';
  /**
   * Laid out by its emitter (validator modules, tool bases, stubs, the listings): the formatter
   * leaves it alone. Why: prettier over the validator modules would be most of a full generate, over
   * a base or a stub ~5–6 ms a tool (bench/README.md).
   */
  preformatted?: true;
  /**
   * The content as UTF-8 bytes, for a file made as bytes (a file back from an emit worker): then
   * `content` is decoded from them only when read.
   */
  bytes?: Buffer;
  /**
   * The bytes as pieces, for a manifest spliced from the last run's bytes: written piece by piece,
   * never joined (joining tens of MB cost a copy and the allocation's garbage collections, P4).
   */
  chunks?: readonly Buffer[];
  /**
   * How these bytes compare with the output on disk, when the emitter already knows (a spliced
   * manifest: made from the disk's bytes, and it knows whether any part changed): staging then
   * neither reads the file again nor compares.
   */
  onDisk?: 'same' | 'differs';
}

/** A file written as it is made (`EmitOutput.open`): its bytes in order, then `close` once. */
export interface FileWriter {
  write(bytes: Buffer): void;
  close(): void;
}

/** What emitters get besides the model. */
export interface EmitContext {
  /** Module specifier generated TypeScript imports the runtime from (e.g. `toolsmith-sdk`). */
  runtimeImport: string;
  /** Module specifier stubs import the runtime from (bare, or relative to the stubs folder). */
  stubsRuntimeImport: string;
  /** Import path from generated/ to the stubs folder (e.g. `../src/tools`). */
  stubsFromGenerated: string;
  /** Import path from the stubs folder to generated/ (e.g. `../../generated`). */
  generatedFromStubs: string;
  /** The command that regenerates, quoted in banners. */
  regenerateCommand: string;
  generatorVersion: string;
}

/** Where each tool's part lies in a file that lists every tool (a manifest, a loss report): tool names in file order and `[start, end)` byte offsets. */
export interface FileSegments {
  tools: string[];
  /** `start0, end0, start1, end1, …` in bytes. */
  ranges: number[];
}
