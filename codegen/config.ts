import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MANIFEST_TARGETS } from '../src/manifest-targets/table.js';
import { parseSource, problemAt, readRegularFile } from './load.js';
import type { Problem } from './model.js';
import { closest } from './problems.js';

/** `toolsmith.config.json` (or `.mjs` exporting the same object as default). Flags override it. */
export interface ToolsmithConfig {
  /** Definitions folder (default `schemas`). */
  schemas?: string;
  /** Generated output folder (default `generated`). */
  out?: string;
  /** Implementation stubs folder (default `src/tools`). */
  stubs?: string;
  /** Where generated code imports the runtime from (default `toolsmith`). */
  runtimeImport?: string;
  /** The command generated banners quote (default `npx toolsmith generate`). */
  regenerateCommand?: string;
  /** A folder of handlebars templates overriding the default docs templates. */
  templates?: string;
  /**
   * Manifest targets to emit (default all but `gemini-legacy`), and what to do with a tool a target cannot
   * take: `"unrepresentable": "omit"` (default: left out of that target, warned, in the loss report) or `"error"`.
   */
  manifests?: { targets?: string[]; unrepresentable?: 'omit' | 'error'; describeLosses?: boolean };
  /**
   * The module `call` and `serve` take the orchestrator from (relative to the project): its default
   * export is a `ToolOrchestrator`, its options, or a function returning either. A `.ts` entry runs
   * through tsx in development and from what `tsc` built of it (tsconfig `outDir`) otherwise.
   */
  entry?: string;
  /** Capabilities of the persona `call` and `serve` act as. */
  capabilities?: string[];
  /** Format generated TypeScript with prettier (default true); false is faster and keeps the emitters' layout. */
  format?: boolean;
  /** Warnings are errors (for CI), as with `--strict`. */
  strict?: boolean;
}

/** Every key a config may have. */
export const CONFIG_KEYS = [
  'schemas',
  'out',
  'stubs',
  'runtimeImport',
  'regenerateCommand',
  'templates',
  'manifests',
  'capabilities',
  'format',
  'strict',
  'entry',
] as const;

/** The config files looked for, in order. */
export const CONFIG_FILES = ['toolsmith.config.json', 'toolsmith.config.mjs'] as const;

/** Reads the config of a project (or the given file); unknown keys and wrong types are problems. */
export async function loadConfig(
  root: string,
  file?: string,
): Promise<{ config: ToolsmithConfig; file?: string; problems: Problem[] }> {
  const candidate = file
    ? path.resolve(root, file)
    : CONFIG_FILES.map((name) => path.join(root, name)).find((full) => existsSync(full));
  if (!candidate) return { config: {}, problems: [] };
  const shown = path.relative(root, candidate) || candidate;
  if (!existsSync(candidate))
    return {
      config: {},
      problems: [
        {
          file: shown,
          line: 1,
          column: 1,
          pointer: '',
          message: 'the config file does not exist',
          hint: 'check the --config path',
        },
      ],
    };
  if (candidate.endsWith('.mjs') || candidate.endsWith('.js')) {
    const module = (await import(pathToFileURL(candidate).href)) as { default?: unknown };
    return {
      config: (module.default ?? {}) as ToolsmithConfig,
      file: candidate,
      problems: checkConfig(module.default ?? {}, shown, undefined),
    };
  }
  const read = readRegularFile(candidate);
  if ('error' in read)
    return {
      config: {},
      file: candidate,
      problems: [{ file: shown, line: 1, column: 1, pointer: '', message: `not read: ${read.error}`, hint: read.hint }],
    };
  const parsed = parseSource(shown, shown, read.bytes.toString('utf8'));
  if (parsed.problems.length > 0) return { config: {}, file: candidate, problems: parsed.problems };
  const problems = checkConfig(parsed.source.value, shown, parsed.source);
  return { config: parsed.source.value as ToolsmithConfig, file: candidate, problems };
}

function checkConfig(
  value: unknown,
  file: string,
  source: ReturnType<typeof parseSource>['source'] | undefined,
): Problem[] {
  const at = (pointer: string, message: string, hint?: string): Problem =>
    source
      ? problemAt(source, pointer, message, hint, true)
      : hint === undefined
        ? { file, line: 1, column: 1, pointer, message }
        : { file, line: 1, column: 1, pointer, message, hint };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [at('', 'the config must be an object')];
  const problems: Problem[] = [];
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
      const suggestion = closest(key, CONFIG_KEYS);
      problems.push(
        at(
          `/${key}`,
          `unknown config key "${key}"`,
          suggestion ? `did you mean \`${suggestion}\`?` : `the keys are: ${CONFIG_KEYS.join(', ')}`,
        ),
      );
      continue;
    }
    const entry = record[key];
    if (key === 'manifests') {
      const targets = (entry as { targets?: unknown } | null)?.targets;
      const policy = (entry as { unrepresentable?: unknown } | null)?.unrepresentable;
      const describe = (entry as { describeLosses?: unknown } | null)?.describeLosses;
      const valid =
        typeof entry === 'object' &&
        entry !== null &&
        !Array.isArray(entry) &&
        Object.keys(entry).every(
          (name) => name === 'targets' || name === 'unrepresentable' || name === 'describeLosses',
        ) &&
        (targets === undefined || (Array.isArray(targets) && targets.every((target) => typeof target === 'string'))) &&
        (policy === undefined || policy === 'omit' || policy === 'error') &&
        (describe === undefined || typeof describe === 'boolean');
      if (!valid)
        problems.push(
          at(
            `/${key}`,
            '"manifests" must be `{ "targets": ["openai", …], "unrepresentable": "omit" | "error", "describeLosses": true | false }`',
          ),
        );
      else if (Array.isArray(targets)) {
        targets.forEach((target: string, index: number) => {
          if ((MANIFEST_TARGETS as readonly string[]).includes(target)) return;
          const suggestion = closest(target, MANIFEST_TARGETS);
          problems.push(
            at(
              `/manifests/targets/${index}`,
              `unknown manifest target "${target}"`,
              `${suggestion ? `did you mean \`${suggestion}\`? ` : ''}the targets are: ${MANIFEST_TARGETS.join(', ')}`,
            ),
          );
        });
      }
    } else if (key === 'capabilities') {
      if (!Array.isArray(entry) || !entry.every((item) => typeof item === 'string'))
        problems.push(at(`/${key}`, '"capabilities" must be an array of strings'));
    } else if (key === 'format' || key === 'strict') {
      if (typeof entry !== 'boolean') problems.push(at(`/${key}`, `"${key}" must be true or false`));
    } else if (typeof entry !== 'string') problems.push(at(`/${key}`, `"${key}" must be a string`));
  }
  return problems;
}
