/**
 * The generated standalone validators against the official JSON-Schema-Test-Suite (draft-07 and
 * optional/format). Every test schema is compiled the way the generator compiles a tool schema
 * (`createGeneratorAjv({ code: true })`, `addValidatorSchema`, `standaloneCode`, `toEsm`), written to a
 * real `.mjs` file and imported. Its verdicts must equal runtime Ajv's on the same schema, and runtime
 * Ajv's failures must be exactly the known ones listed below (a new failure or a new pass both fail).
 *
 * Two option profiles:
 * - `suite`: `AJV_OPTIONS` with `coerceTypes: false` and `useDefaults: false` (the suite expects plain
 *   validation: `"1"` is not an integer, nothing is filled in) and `strict: false` / `strictSchema: false`
 *   (the suite uses unknown keywords and formats on purpose; strict mode is a schema lint, it never
 *   changes a verdict). Used for this comparison only.
 *   Compared with the suite's expected results.
 * - `production`: `AJV_OPTIONS` unchanged (coercion, defaults, strict mode). Standalone and runtime
 *   must agree on every verdict, on the errors and on the value after coercion/defaults; a schema
 *   strict mode rejects must be rejected by both.
 *
 * The suite (vendored in test/fixtures/json-schema-test-suite, see its ORIGIN) and its `remotes/` are added to each Ajv under `http://localhost:1234/<path>` (the suite's
 * convention) before compiling. One standalone module per suite file (split only where two schemas
 * of a file declare the same `$id`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyJsonValue } from '../../src/schema/walk.js';
import { createAjvLikeGenerator, createModuleDir, importStandalone, type ModuleDir } from '../helpers/standalone.js';
import { REPO } from '../helpers/temp-project.js';

const SUITE = path.join(REPO, 'test/fixtures/json-schema-test-suite');
const TESTS = path.join(SUITE, 'tests/draft7');

/**
 * Where runtime Ajv 8.20 (with ajv-formats 3.0.1 and the `suite` options) disagrees with the suite:
 * `file / group` → test descriptions. Every one is a known Ajv/ajv-formats limitation, noted per file.
 */
const KNOWN_AJV_FAILURES_BY_GROUP: Readonly<Record<string, readonly string[]>> = {
  // ajv-formats' date-time accepts an offset without minutes and more than 9 fraction digits, and checks a leap second's hour only for 23:59:60.
  'optional/format/date-time.json / validation of date-time strings': [
    'a numeric offset without minutes is invalid',
    'a second fraction of fifteen nines is valid',
    'hour 24 is invalid even with a leap second',
  ],
  // the `regex` format compiles with `new RegExp(x)` (no `u` flag), where `\a` is an identity escape.
  'optional/format/ecmascript-regex.json / \\a is not an ECMA 262 control escape': ['when used as a pattern'],
  // ajv-formats checks host names by RFC 1123 syntax only: no IDNA2008 (punycode) rules; it accepts a trailing dot.
  'optional/format/hostname.json / validation of A-label (punycode) host names': [
    'Arabic-Indic digits mixed with Extended Arabic-Indic digits',
    'Begins with a Nonspacing Mark',
    'Begins with a Spacing Combining Mark',
    'Begins with an Enclosing Mark',
    'Exceptions that are DISALLOWED, left-to-right chars',
    'Exceptions that are DISALLOWED, right-to-left chars',
    'Greek KERAIA not followed by Greek',
    'Greek KERAIA not followed by anything',
    'Hebrew GERESH not preceded by Hebrew',
    'Hebrew GERESH not preceded by anything',
    'Hebrew GERSHAYIM not preceded by Hebrew',
    'Hebrew GERSHAYIM not preceded by anything',
    'KATAKANA MIDDLE DOT with no Hiragana, Katakana, or Han',
    'KATAKANA MIDDLE DOT with no other characters',
    "MIDDLE DOT with no following 'l'",
    "MIDDLE DOT with no preceding 'l'",
    'MIDDLE DOT with nothing following',
    'MIDDLE DOT with nothing preceding',
    'ZERO WIDTH JOINER not preceded by Virama',
    'ZERO WIDTH JOINER not preceded by anything',
    'contains "--" in the 3rd and 4th position',
    'contains illegal char U+302E Hangul single dot tone mark',
    'invalid Punycode',
  ],
  'optional/format/hostname.json / validation of host names': ['trailing dot'],
  // ajv-formats has no idn-email format (unknown formats are ignored when strict is off).
  'optional/format/idn-email.json / validation of an internationalized e-mail addresses': [
    'a fullwidth commercial at is not a local-part separator',
    'an invalid e-mail/idn e-mail address',
  ],
  // ajv-formats has no idn-hostname format (unknown formats are ignored when strict is off).
  'optional/format/idn-hostname.json / validation of internationalized host names': [
    'A-label that decodes to a Bidi rule violation is invalid',
    'A-label that decodes to a disallowed code point is invalid',
    'A-label that decodes to only ASCII is invalid',
    'Arabic-Indic digits mixed with Extended Arabic-Indic digits',
    'Begins with a Nonspacing Mark',
    'Begins with a Spacing Combining Mark',
    'Begins with an Enclosing Mark',
    'Bidi domain name with a digit-first label is invalid',
    'Exceptions that are DISALLOWED, left-to-right chars',
    'Exceptions that are DISALLOWED, right-to-left chars',
    'Greek KERAIA not followed by Greek',
    'Greek KERAIA not followed by anything',
    'Hebrew GERESH not preceded by Hebrew',
    'Hebrew GERESH not preceded by anything',
    'Hebrew GERSHAYIM not preceded by Hebrew',
    'Hebrew GERSHAYIM not preceded by anything',
    'KATAKANA MIDDLE DOT with no Hiragana, Katakana, or Han',
    'KATAKANA MIDDLE DOT with no other characters',
    "MIDDLE DOT with no following 'l'",
    "MIDDLE DOT with no preceding 'l'",
    'MIDDLE DOT with nothing following',
    'MIDDLE DOT with nothing preceding',
    'U-label contains "--" in the 3rd and 4th position',
    'U-label ends with a dash',
    'U-label starts and ends with a dash',
    'U-label starts with a dash',
    'ZERO WIDTH JOINER not preceded by Virama',
    'ZERO WIDTH JOINER not preceded by anything',
    'a U-label whose A-label form is longer than 63 octets is invalid',
    'a name longer than 253 characters is invalid',
    'a single label of 64 characters is too long',
    'contains illegal char U+302E Hangul single dot tone mark',
    'empty label between two dots is invalid',
    'empty string',
    'illegal first char U+302E Hangul single dot tone mark',
    'invalid Punycode',
    'invalid label, correct Punycode',
    'label starting with a digit before a right-to-left letter is invalid',
    'left-to-right label containing a right-to-left letter is invalid',
    'non-canonical Punycode that does not re-encode to itself is invalid',
    'right-to-left label mixing both digit types is invalid',
    'zero width non-joiner must pass at every occurrence',
  ],
  'optional/format/idn-hostname.json / validation of separators in internationalized host names': [
    'leading dot',
    'leading fullwidth full stop',
    'leading halfwidth ideographic full stop',
    'leading ideographic full stop',
    'single dot',
    'single fullwidth full stop',
    'single halfwidth ideographic full stop',
    'single ideographic full stop',
    'trailing dot',
    'trailing fullwidth full stop',
    'trailing halfwidth ideographic full stop',
    'trailing ideographic full stop',
  ],
  // ajv-formats has no iri-reference format (unknown formats are ignored when strict is off).
  'optional/format/iri-reference.json / validation of IRI References': [
    'an invalid IRI Reference',
    'an invalid IRI fragment',
  ],
  // ajv-formats has no iri format (unknown formats are ignored when strict is off).
  'optional/format/iri.json / validation of IRIs': [
    'a trailing newline after a valid IRI is invalid',
    'an IPv6 address without enclosing brackets is invalid',
    'an IPv6 host whose embedded IPv4 has a leading zero is invalid',
    'an invalid IRI',
    'an invalid IRI though valid IRI reference',
    'an invalid relative IRI Reference',
  ],
  // ajv-formats' uri-reference regex is more lenient than RFC 3986 in edge cases (ports, brackets, quotes, `@`).
  'optional/format/uri-reference.json / validation of URI References': [
    'a colon in the first segment of a relative-path reference',
    'a double quote in a path',
    'a leading zero in the IPv4 part of an IPv6 literal',
    'a non-numeric port in a network-path reference',
    'more than one at-sign in the authority',
    'square brackets outside an authority',
  ],
  // ajv-formats' uri-template regex differs from RFC 6570 in edge cases (both ways).
  'optional/format/uri-template.json / format: uri-template': [
    'a delete character in a literal is invalid',
    'a dotted variable name is valid',
    'an apostrophe in a literal is valid',
  ],
  // ajv-formats' uri regex is more lenient than RFC 3986 in edge cases (ports, brackets, IPv4 in IPv6).
  'optional/format/uri.json / validation of URIs': [
    'leading zero in an embedded IPv4 address is invalid',
    'non-numeric port is invalid',
    'square brackets are not allowed in a path segment',
  ],
  // Ajv never validates a property named `__proto__` (it drops that key from `properties`); with `ownProperties` the inherited `constructor` no longer makes the value invalid.
  'properties.json / properties whose names are Javascript object property names': ['__proto__ not valid'],
  // Ajv applies the keywords beside a `$ref`, `$id` included (draft 2019-09 behaviour); draft-07 says they are ignored.
  'ref.json / $ref prevents a sibling $id from changing the base uri': [
    '$ref resolves to /definitions/base_foo, data does not validate',
    '$ref resolves to /definitions/base_foo, data validates',
  ],
  'ref.json / ref overrides any sibling keywords': ['ref valid, maxItems ignored'],
};

/** The same list as `file / group / test` names. */
const KNOWN_AJV_FAILURES: readonly string[] = Object.entries(KNOWN_AJV_FAILURES_BY_GROUP).flatMap(([group, tests]) =>
  tests.map((test) => `${group} / ${test}`),
);

interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}
interface SuiteGroup {
  description: string;
  schema: object | boolean;
  tests: SuiteTest[];
}
interface SuiteFile {
  name: string;
  groups: SuiteGroup[];
}

/** What one validation did: verdict, errors (reduced to their stable fields) and the value afterwards. */
interface Outcome {
  valid: boolean | 'compile-error' | 'threw';
  errors?: unknown[];
  data?: unknown;
}

function suiteFiles(): SuiteFile[] {
  const names = [
    ...readdirSync(TESTS).filter((name) => name.endsWith('.json')),
    ...readdirSync(path.join(TESTS, 'optional/format'))
      .filter((name) => name.endsWith('.json'))
      .map((name) => `optional/format/${name}`),
  ].sort();
  return names.map((name) => ({
    name,
    groups: JSON.parse(readFileSync(path.join(TESTS, name), 'utf8')) as SuiteGroup[],
  }));
}

/** The remotes a draft-07 run can load: every document without a foreign `$schema`, by its suite URI. */
function suiteRemotes(): Record<string, object> {
  const remotes: Record<string, object> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = `${prefix}${name}`;
      if (statSync(full).isDirectory()) {
        // Documents for other drafts use 2019-09+ keywords or meta-schemas Ajv's draft-07 class lacks.
        if (!/^(draft20|draft-next|v1$)/.test(name)) walk(full, `${rel}/`);
      } else if (name.endsWith('.json')) {
        const document = JSON.parse(readFileSync(full, 'utf8'));
        const schema = typeof document === 'object' && document !== null ? document.$schema : undefined;
        if (schema === undefined || /draft-07/.test(schema)) remotes[`http://localhost:1234/${rel}`] = document;
      }
    }
  };
  walk(path.join(SUITE, 'remotes'), '');
  return remotes;
}

/** Every `$id` string anywhere in a schema (over-approximate: only used to keep a module's ids distinct). */
function idsOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((item) => idsOf(item, out));
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$id' && typeof value === 'string') out.add(value);
      idsOf(value, out);
    }
  }
  return out;
}

function reduceErrors(errors: ErrorObject[] | null | undefined): unknown[] {
  return (errors ?? []).map(({ keyword, instancePath, schemaPath, params, message }) => ({
    keyword,
    instancePath,
    schemaPath,
    params,
    message,
  }));
}

function run(validate: ValidateFunction, data: unknown): Outcome {
  const copy = copyJsonValue(data);
  try {
    const valid = validate(copy);
    return { valid, errors: reduceErrors(validate.errors), data: copy };
  } catch {
    return { valid: 'threw' };
  }
}

function testName(file: string, group: SuiteGroup, test: SuiteTest): string {
  return `${file} / ${group.description} / ${test.description}`;
}

interface ProfileResult {
  /** Test name → outcome, per compiler. */
  runtime: Map<string, Outcome>;
  standalone: Map<string, Outcome>;
  /** Test name → the suite's expected verdict. */
  expected: Map<string, boolean>;
  modules: number;
  compileErrors: string[];
}

/** What one profile compiles with: the Ajv option overrides, the suite's remotes, the module folder. */
interface ProfileSetup {
  remotes: Record<string, object>;
  overrides: Options;
  dir: ModuleDir;
}

/** A suite group with its index in its file. */
interface IndexedGroup {
  group: SuiteGroup;
  index: number;
}

/**
 * Runs every suite file through runtime Ajv (a fresh instance per schema, as a runtime would compile
 * a hand-written tool's schema) and through imported standalone modules (one per file).
 */
async function runProfile(
  files: SuiteFile[],
  remotes: Record<string, object>,
  overrides: Options,
  dir: ModuleDir,
): Promise<ProfileResult> {
  const result: ProfileResult = {
    runtime: new Map(),
    standalone: new Map(),
    expected: new Map(),
    modules: 0,
    compileErrors: [],
  };
  const setup: ProfileSetup = { remotes, overrides, dir };
  for (const file of files) {
    const compiled = runRuntime(file, setup, result);
    await checkStandaloneCompileErrors(file, compiled, setup, result);
    for (const batch of batchesWithoutIdClash(compiled)) await runStandaloneBatch(file, batch, setup, result);
  }
  return result;
}

/** Runtime Ajv on every group of `file`; answers the groups it compiled. */
function runRuntime(file: SuiteFile, { overrides, remotes }: ProfileSetup, result: ProfileResult): IndexedGroup[] {
  const compiled: IndexedGroup[] = [];
  file.groups.forEach((group, index) => {
    for (const test of group.tests) result.expected.set(testName(file.name, group, test), test.valid);
    let validate: ValidateFunction;
    try {
      validate = createAjvLikeGenerator({ code: false, overrides, remotes }).compile(group.schema as object);
    } catch {
      result.compileErrors.push(`${file.name} / ${group.description}`);
      for (const test of group.tests) result.runtime.set(testName(file.name, group, test), { valid: 'compile-error' });
      return;
    }
    for (const test of group.tests) result.runtime.set(testName(file.name, group, test), run(validate, test.data));
    compiled.push({ group, index });
  });
  return compiled;
}

/** Standalone: schemas runtime could not compile must not compile standalone either. */
async function checkStandaloneCompileErrors(
  file: SuiteFile,
  compiled: IndexedGroup[],
  { overrides, remotes, dir }: ProfileSetup,
  result: ProfileResult,
): Promise<void> {
  for (const [index, group] of file.groups.entries()) {
    if (compiled.some((entry) => entry.index === index)) continue;
    let threw = false;
    try {
      await importStandalone(dir, `${file.name}-${index}`, [{ exportName: 'validate', schema: group.schema }], {
        overrides,
        remotes,
      });
    } catch {
      threw = true;
    }
    for (const test of group.tests)
      result.standalone.set(testName(file.name, group, test), threw ? { valid: 'compile-error' } : { valid: 'threw' });
  }
}

/** One module per file, split only where `$id`s would clash inside one Ajv instance. */
function batchesWithoutIdClash(compiled: IndexedGroup[]): IndexedGroup[][] {
  const batches: IndexedGroup[][] = [];
  let batchIds = new Set<string>();
  for (const entry of compiled) {
    const ids = idsOf(entry.group.schema);
    if (batches.length === 0 || [...ids].some((id) => batchIds.has(id))) {
      batches.push([]);
      batchIds = new Set();
    }
    batches.at(-1)!.push(entry);
    ids.forEach((id) => batchIds.add(id));
  }
  return batches;
}

/** The standalone module of one batch, imported, run on every test of its groups. */
async function runStandaloneBatch(
  file: SuiteFile,
  batch: IndexedGroup[],
  { overrides, remotes, dir }: ProfileSetup,
  result: ProfileResult,
): Promise<void> {
  const entries = batch.map(({ group, index }) => ({ exportName: `suiteCase${index}`, schema: group.schema }));
  let module: Record<string, ValidateFunction>;
  try {
    module = await importStandalone(dir, file.name, entries, { overrides, remotes });
    result.modules++;
  } catch {
    // An id clash the static check missed: fall back to one module per schema.
    module = {};
    for (const entry of entries) {
      try {
        Object.assign(module, await importStandalone(dir, file.name, [entry], { overrides, remotes }));
        result.modules++;
      } catch {
        // Left undefined: recorded as a compile error below.
      }
    }
  }
  for (const { group, index } of batch) {
    const validate = module[`suiteCase${index}`];
    for (const test of group.tests) {
      result.standalone.set(
        testName(file.name, group, test),
        validate ? run(validate, test.data) : { valid: 'compile-error' },
      );
    }
  }
}

function failures(result: ProfileResult, outcomes: Map<string, Outcome>): string[] {
  return [...result.expected]
    .filter(([name, valid]) => outcomes.get(name)?.valid !== valid)
    .map(([name]) => name)
    .sort();
}

function mismatches(result: ProfileResult, compareData: boolean): string[] {
  const out: string[] = [];
  for (const [name, runtime] of result.runtime) {
    const standalone = result.standalone.get(name);
    const same = compareData
      ? isDeepStrictEqual(runtime, standalone)
      : runtime.valid === standalone?.valid && isDeepStrictEqual(runtime.errors, standalone?.errors);
    if (!same) out.push(`${name}: runtime ${JSON.stringify(runtime)} standalone ${JSON.stringify(standalone)}`);
  }
  return out;
}

/**
 * `AJV_OPTIONS` minus what the suite does not expect: coercion and defaults change verdicts (`"1"`
 * would pass as an integer), and strict mode (including the explicit `strictSchema`) rejects the
 * suite's deliberate unknown keywords and formats. Strict mode only lints schemas; it never changes
 * the verdict on a value.
 */
const SUITE_OPTIONS: Options = {
  strict: false,
  strictSchema: false,
  coerceTypes: false,
  useDefaults: false,
  logger: false,
};

const files = suiteFiles();
const remotes = suiteRemotes();
let dir: ModuleDir;

beforeAll(() => {
  dir = createModuleDir();
});
afterAll(() => dir.dispose());

describe('JSON-Schema-Test-Suite draft-07 (suite options: no coercion, no defaults, strict off)', () => {
  let result: ProfileResult;
  beforeAll(async () => {
    result = await runProfile(files, remotes, SUITE_OPTIONS, dir);
  }, 120_000);

  it('loads the whole suite and its remotes', () => {
    expect(files.length).toBeGreaterThanOrEqual(55);
    expect(result.expected.size).toBeGreaterThan(1500);
    expect(Object.keys(remotes)).toContain('http://localhost:1234/draft7/subSchemas.json');
    expect(Object.keys(remotes)).toContain('http://localhost:1234/integer.json');
    expect(result.modules).toBeLessThan(files.length * 2);
  });

  it('standalone validators give exactly the verdicts and errors of runtime Ajv', () => {
    expect(result.standalone.size).toBe(result.runtime.size);
    expect(mismatches(result, false)).toEqual([]);
  });

  it('runtime Ajv fails exactly the known tests (a new failure or a new pass fails this test)', () => {
    expect(failures(result, result.runtime)).toEqual([...KNOWN_AJV_FAILURES].sort());
  });

  it('standalone validators pass exactly the tests runtime Ajv passes', () => {
    expect(failures(result, result.standalone)).toEqual(failures(result, result.runtime));
    const total = result.expected.size;
    const passed = total - failures(result, result.standalone).length;
    console.info(
      `JSON-Schema-Test-Suite draft-07: ${passed}/${total} passed (standalone and runtime), ${result.modules} modules`,
    );
  });
});

describe('JSON-Schema-Test-Suite draft-07 (production options: coercion, defaults, strict)', () => {
  let result: ProfileResult;
  beforeAll(async () => {
    result = await runProfile(files, remotes, {}, dir);
  }, 120_000);

  it('compiles most suite schemas in strict mode', () => {
    const groups = files.reduce((sum, file) => sum + file.groups.length, 0);
    expect(result.compileErrors.length).toBeLessThan(groups / 2);
    console.info(
      `production options: ${groups - result.compileErrors.length}/${groups} suite schemas compile in strict mode`,
    );
  });

  it('standalone and runtime agree on every verdict, error and coerced/defaulted value', () => {
    expect(result.standalone.size).toBe(result.runtime.size);
    expect(mismatches(result, true)).toEqual([]);
  });
});
