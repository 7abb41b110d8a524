import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { CONFIG_SCHEMA } from './config-schema.js';
import type { ToolsmithConfig } from './generated/config-type.js';
import { validate } from './generated/config-validator.js';
import { fileProblem, parseSource, positionOf, readRegularFile, toPosix } from '../load.js';
import type { Problem } from '../model.js';
import { escapePointerSegment, parsePointer, resolveLocalRef, valueAt } from '../../src/schema/json-pointer.js';
import { nearestName } from '../../src/text/nearest-name.js';

/** The config files looked for in the project root; more than one present is a problem naming them. */
export const CONFIG_FILES = [
  'toolsmith.config.json',
  'toolsmith.config.ts',
  'toolsmith.config.mts',
  'toolsmith.config.js',
  'toolsmith.config.mjs',
] as const;

/** What `loadConfig` read: the config (empty when there is none or it has problems), its file, its problems. */
export interface LoadedConfig {
  config: ToolsmithConfig;
  /** The absolute path of the config file read, when there is one. */
  file?: string;
  problems: Problem[];
}

/** A config's value and where a JSON pointer into it is (line:column in a JSON file; 1:1 in a module). */
interface ReadConfig {
  value: unknown;
  locate: (pointer: string, atKey: boolean) => { line: number; column: number };
}

const checkConfigValue = validate as unknown as { (data: unknown): boolean; errors?: ErrorObject[] | null };

/**
 * Reads the config of a project (or the given file) and checks it against `CONFIG_SCHEMA` with the
 * Ajv standalone validator generated from it. JSON is parsed with positions, so a problem is placed at
 * its key or value; a TypeScript or JavaScript config is imported (TypeScript through jiti, so an
 * installed toolsmith runs one without tsx) and its problems carry the key path.
 */
export async function loadConfig(projectRoot: string, file?: string): Promise<LoadedConfig> {
  const root = path.resolve(projectRoot);
  const found = file
    ? [path.resolve(root, file)]
    : CONFIG_FILES.map((name) => path.join(root, name)).filter((full) => existsSync(full));
  const candidate = found[0];
  if (candidate === undefined) return { config: {}, problems: [] };
  const shown = (full: string) => toPosix(path.relative(root, full)) || full;
  const name = shown(candidate);
  const refused = (message: string, hint: string) => ({ config: {}, problems: [fileProblem(name, message, hint)] });
  if (found.length > 1)
    return refused(
      `${found.length} config files: ${found.map(shown).join(' and ')}; toolsmith reads one`,
      'keep one of them and move what the others say into it',
    );
  if (!existsSync(candidate)) return refused('the config file does not exist', 'check the --config path');
  const read = await readConfig(candidate, name, root);
  const problems = Array.isArray(read) ? read : checkConfig(read, name);
  const config = Array.isArray(read) || problems.length > 0 ? {} : (read.value as ToolsmithConfig);
  return { config, file: candidate, problems };
}

/** A config file's value, or why it cannot be read: JSON parsed with positions, a module imported. */
async function readConfig(file: string, shown: string, root: string): Promise<ReadConfig | Problem[]> {
  if (file.endsWith('.json')) return readJsonConfig(file, shown);
  if (/\.[mc]?[jt]s$/.test(file)) return importConfig(file, shown, root);
  const hint = 'name it toolsmith.config.json, .ts, .mts, .js or .mjs';
  return [fileProblem(shown, 'toolsmith cannot read a config of this kind', hint)];
}

function readJsonConfig(file: string, shown: string): ReadConfig | Problem[] {
  const read = readRegularFile(file);
  if ('error' in read) return [fileProblem(shown, `not read: ${read.error}`, read.hint)];
  const { source, problems } = parseSource(shown, shown, read.bytes.toString('utf8'));
  if (problems.length > 0) return problems;
  return { value: source.value, locate: (pointer, atKey) => positionOf(source, pointer, atKey) };
}

/**
 * Imports a config module's default export through jiti: TypeScript transpiled (Node 20 cannot strip
 * types) without a module cache, so `generate --watch` reads it again on each run; JavaScript jiti
 * hands to Node's own import. A module that throws, or does not parse, is a problem naming the file.
 */
async function importConfig(file: string, shown: string, root: string): Promise<ReadConfig | Problem[]> {
  let module: Record<string, unknown>;
  try {
    const { createJiti } = await import('jiti');
    // The transpiled copy is kept beside toolsmith's own cache in the project (not in the system's temp folder).
    const modules = path.join(root, 'node_modules');
    const fsCache = existsSync(modules) ? path.join(modules, '.cache', 'jiti') : false;
    module = await createJiti(import.meta.url, { moduleCache: false, interopDefault: false, fsCache }).import(file);
  } catch (error) {
    return [loadFailure(file, shown, error)];
  }
  if (module.default === undefined)
    return [
      fileProblem(
        shown,
        'the config module has no default export',
        "export the configuration: `export default defineConfig({ … })` (import { defineConfig } from 'toolsmith-sdk/config')",
      ),
    ];
  return { value: module.default, locate: () => ({ line: 1, column: 1 }) };
}

/**
 * A config module that threw or did not parse, as a problem naming the file; a syntax error is placed
 * at its line:column (jiti's parse errors end with `<file>:<line>:<column>`, the column counted from 0).
 */
function loadFailure(file: string, shown: string, error: unknown): Problem {
  const message = String((error as { message?: unknown } | null)?.message ?? error);
  const lines = message.split('\n');
  const at = lines.map((line) => line.trim()).find((line) => line.startsWith(`${file}:`));
  const position = at === undefined ? undefined : /:(\d+):(\d+)$/.exec(at);
  const problem = fileProblem(
    shown,
    `the config could not be loaded: ${lines[0]!.trim()}`,
    'fix the config module: toolsmith imports it to read the configuration',
  );
  return position ? { ...problem, line: Number(position[1]), column: Number(position[2]) + 1 } : problem;
}

/**
 * The problems the config's schema finds in generator settings given in code (a library caller's
 * options, read from no file), each named as the config's and placed at its first line.
 */
export function settingsProblems(settings: unknown): Problem[] {
  return checkConfig({ value: settings, locate: () => ({ line: 1, column: 1 }) }, 'toolsmith.config.json');
}

/** Every problem the schema finds in a config, at its key (unknown keys) or its value. */
function checkConfig(read: ReadConfig, file: string): Problem[] {
  if (checkConfigValue(read.value)) return conflictingKeys(read, file);
  return (checkConfigValue.errors ?? []).map((error) => describeError(error, read, file));
}

/** What the schema cannot say: keys that exclude each other (a budget needs the token report that counts it). */
function conflictingKeys(read: ReadConfig, file: string): Problem[] {
  const manifests = (read.value as ToolsmithConfig).manifests;
  if (manifests?.tokenReport !== false || manifests.tokenBudget === undefined) return [];
  const pointer = '/manifests/tokenBudget';
  const message =
    '"manifests.tokenBudget" is set while "manifests.tokenReport" is false: a budget is judged on the token report\'s counts, which are then not made';
  const hint = 'remove `manifests.tokenBudget`, or set `manifests.tokenReport` to true (its default)';
  return [{ file, ...read.locate(pointer, true), pointer, message, hint }];
}

/** An Ajv error as a sentence about the config: the key path, what is wanted, what was found, a suggestion. */
function describeError(error: ErrorObject, read: ReadConfig, file: string): Problem {
  const pointer = error.instancePath;
  const label = keyPath(pointer);
  const value = valueAt(read.value, parsePointer(pointer));
  const schema = resolveLocalRef(CONFIG_SCHEMA, error.schemaPath.replace(/\/[^/]*$/, '')) as
    { title?: string; properties?: Record<string, unknown> } | undefined;
  const params = error.params as Record<string, unknown>;
  /** The problem placed at the failing value, or at its key `key` (a key the schema does not know). */
  const problem = (message: string, hint?: string, key?: string): Problem => {
    const at = key === undefined ? pointer : `${pointer}/${escapePointerSegment(key)}`;
    return { file, ...read.locate(at, key !== undefined), pointer: at, message, ...(hint && { hint }) };
  };
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys(schema?.properties ?? {});
      const suggestion = nearestName(key, known);
      return problem(
        pointer === '' ? `unknown config key "${key}"` : `unknown key "${key}" in ${label}`,
        suggestion ? `did you mean \`${suggestion}\`?` : `the keys are: ${known.join(', ')}`,
        key,
      );
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const suggestion = typeof value === 'string' ? nearestName(value, allowed) : undefined;
      const didYouMean = suggestion ? `did you mean \`${suggestion}\`? ` : '';
      return schema?.title
        ? problem(
            `unknown ${schema.title} ${shownValue(value)}`,
            `${didYouMean}the ${schema.title}s are: ${allowed.join(', ')}`,
          )
        : problem(
            `${label} must be ${allowed.map((item) => JSON.stringify(item)).join(' or ')}, not ${shownValue(value)}`,
            suggestion && `did you mean \`${suggestion}\`?`,
          );
    }
    case 'type':
      return problem(
        `${label} must be ${TYPE_WORDS.get(String(params.type)) ?? params.type}, not ${shownValue(value)}`,
      );
    case 'minimum':
      return problem(`${label} must be at least ${params.limit}, not ${shownValue(value)}`);
    case 'minLength':
      return problem(`${label} must not be empty`);
    default:
      return problem(`${label} ${error.message ?? 'is invalid'}`);
  }
}

const TYPE_WORDS = new Map([
  ['string', 'a string'],
  ['boolean', 'true or false'],
  ['integer', 'a whole number'],
  ['number', 'a number'],
  ['array', 'an array'],
  ['object', 'an object'],
]);

/** `/manifests/targets/1` → `"manifests.targets[1]"`; the root is "the config". */
function keyPath(pointer: string): string {
  if (pointer === '') return 'the config';
  const path = parsePointer(pointer)
    .map((segment, index) =>
      /^(0|[1-9][0-9]*)$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
  return JSON.stringify(path);
}

/** A value as the message shows it: JSON for what JSON can hold, else its kind (`a function`). */
function shownValue(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return JSON.stringify(value) ?? String(value);
}
