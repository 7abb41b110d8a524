import path from 'node:path';
import { toPosix } from '../load.js';
import { GENERATOR_VERSION, type EmitContext } from '../model.js';
import { CONFIG_SCHEMA } from './config-schema.js';
import type { ToolsmithConfig } from './generated/config-type.js';

/** The config keys that are not the generator's: the rest of `ToolsmithConfig` is `GenerateOptions` as it is. */
const NOT_GENERATOR_KEYS = ['$schema', 'entry', 'capabilities', 'injectedArguments', 'toolFailureMeta'] as const;

/** The config keys the generator reads. */
const GENERATOR_KEYS: ReadonlySet<string> = new Set(
  Object.keys(CONFIG_SCHEMA.properties).filter((key) => !(NOT_GENERATOR_KEYS as readonly string[]).includes(key)),
);

/** The generator's part of a config: every key of `config-schema.ts` the generator reads, by its config name. */
type GeneratorConfig = Omit<ToolsmithConfig, (typeof NOT_GENERATOR_KEYS)[number]>;

/**
 * Where generate reads and writes and how it emits: the config's generator keys (`toolsmith.config.json`,
 * `manifests` nested as there), every path absolute or relative to `root`.
 */
export interface GenerateOptions extends GeneratorConfig {
  /** The project root: paths in messages and banners are relative to it. */
  root: string;
  /** The fewest tools to emit for which workers are started (default 200, or `TOOLSMITH_WORKER_THRESHOLD`). */
  workerThreshold?: number;
}

/** The keys of a schema's `properties` that declare a `default`. */
type DefaultedKeys<P> = { [K in keyof P]: P[K] extends { default: unknown } ? K : never }[keyof P];

/**
 * `T` as `withDefaults` returns it for the schema `S`: a key whose schema declares a default is present,
 * and an object whose schema has properties is filled the same way (anything else is `T` as it is), so
 * readers never repeat a default.
 */
type WithDefaults<T, S> = S extends { properties: infer P }
  ? { [K in keyof T & DefaultedKeys<P>]-?: WithDefaults<NonNullable<T[K]>, P[K]> } & {
      [K in Exclude<keyof T, DefaultedKeys<P>>]?: K extends keyof P ? WithDefaults<NonNullable<T[K]>, P[K]> : T[K];
    }
  : T;

/** The generator's settings: its config keys with the defaults `config-schema.ts` declares filled in. */
export type GeneratorSettings = WithDefaults<GeneratorConfig, typeof CONFIG_SCHEMA>;

interface SchemaNode {
  default?: unknown;
  properties?: Record<string, SchemaNode>;
}

/**
 * The keys of `value` that `schema` declares, with every `default` of `schema` filled where absent, and
 * each object with properties filled in turn where it is present or declares a default itself (an absent
 * `deferLoading` stays absent: its presence is the switch). Copies; `value` is not changed.
 */
export function withDefaults(schema: SchemaNode, value: Record<string, unknown> = {}): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const given = value[key] === undefined ? structuredClone(property.default) : value[key];
    if (given !== undefined)
      filled[key] = property.properties ? withDefaults(property, given as Record<string, unknown>) : given;
  }
  return filled;
}

/**
 * The generator's settings from its options: its config keys only (not `root`, nor what a caller adds,
 * such as a progress callback), with the defaults of `config-schema.ts`, the one place they are written.
 */
export function generatorSettings(options: GenerateOptions): GeneratorSettings {
  return withDefaults(CONFIG_SCHEMA as unknown as SchemaNode, { ...options }) as unknown as GeneratorSettings;
}

/**
 * The generator's options from a checked config, with the command-line flags (given by their config
 * names: `--out` is `out`; a flag that is no generator key, or not given, is left out) over it: the one
 * place a config becomes `GenerateOptions`.
 */
export function optionsFromConfig(root: string, config: ToolsmithConfig, flags: ToolsmithConfig = {}): GenerateOptions {
  const options: Record<string, unknown> = { root };
  for (const [key, value] of [...Object.entries(config), ...Object.entries(flags)])
    if (value !== undefined && GENERATOR_KEYS.has(key)) options[key] = value;
  return options as unknown as GenerateOptions;
}

/** Absolute folders, the emit context and the settings derived from the options. */
export interface ResolvedOptions {
  root: string;
  schemasDir: string;
  outDir: string;
  stubsDir: string;
  templatesDir?: string;
  /** The token report relative to the root (where budget warnings are placed). */
  tokenReportFile: string;
  ctx: EmitContext;
  /** Every generator key, defaults filled. */
  settings: GeneratorSettings;
}

/** Resolves folders and import paths. */
export function resolveOptions(options: GenerateOptions): ResolvedOptions {
  const settings = generatorSettings(options);
  const root = path.resolve(options.root);
  const outDir = path.resolve(root, settings.out);
  const stubsDir = path.resolve(root, settings.stubs);
  const runtime = settings.runtimeImport;
  const relative = (from: string, to: string) => {
    const rel = toPosix(path.relative(from, to));
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  const runtimeFrom = (dir: string) => (runtime.startsWith('.') ? relative(dir, path.resolve(root, runtime)) : runtime);
  return {
    root,
    schemasDir: path.resolve(root, settings.schemas),
    outDir,
    stubsDir,
    ...(settings.templates !== undefined ? { templatesDir: path.resolve(root, settings.templates) } : {}),
    tokenReportFile: toPosix(path.relative(root, path.join(outDir, 'manifests', 'token-report.json'))),
    ctx: {
      runtimeImport: runtimeFrom(outDir),
      stubsRuntimeImport: runtimeFrom(stubsDir),
      stubsFromGenerated: relative(outDir, stubsDir),
      generatedFromStubs: relative(stubsDir, outDir),
      regenerateCommand: settings.regenerateCommand,
      generatorVersion: GENERATOR_VERSION,
    },
    settings,
  };
}
