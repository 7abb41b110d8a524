/**
 * A deterministic synthetic corpus of tool definitions for the benchmarks: N realistic
 * `<name>.tool.json` files (nested objects, arrays of objects, enums, ajv-formats formats, defaults,
 * local `definitions`, shared `$ref`s, optional output schemas) plus the shared `*.schema.json`
 * files they reference. The same seed and size give the same bytes.
 *
 * Every tool also gets a sample input and output that its schemas accept, so the benchmarks can
 * make valid calls and write trivial implementations that answer a valid output.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** What a corpus generator run wrote. */
export interface Corpus {
  /** The schemas folder (contains `<category>/<name>.tool.json` and `common/*.schema.json`). */
  dir: string;
  tools: CorpusTool[];
  /** Shared schema files, relative to `dir`. */
  shared: string[];
}

/** One generated tool definition and a call it accepts. */
export interface CorpusTool {
  name: string;
  /** The definition file, relative to the schemas folder. */
  file: string;
  /** The input and output schemas exactly as written (with file `$ref`s). */
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  /** An input the input schema accepts (required and optional fields filled). */
  sampleInput: JsonObject;
  /** An output the output schema accepts (absent when the tool has no output schema). */
  sampleOutput?: JsonObject;
  hasSideEffects: boolean;
  requiredCapabilities: string[];
}

/** Options of {@link generateCorpus}. */
export interface CorpusOptions {
  /** The folder to write into (created; existing files with the same names are replaced). */
  dir: string;
  /** How many tool definitions to write. */
  count: number;
  /** PRNG seed (default 0x5eed). */
  seed?: number;
}

/** mulberry32: small, fast, good enough for synthetic data, and identical on every platform. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)]!,
    sample: <T>(items: readonly T[], n: number) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, Math.min(n, copy.length));
    },
  };
}

/** The PRNG interface the corpus uses. */
export interface Random {
  next(): number;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  sample<T>(items: readonly T[], n: number): T[];
}

/** A schema together with a value it accepts. */
interface Field {
  schema: JsonObject;
  sample: Json;
}

/** Formats from ajv-formats only (the generator rejects unknown formats), with a valid value each. */
const FORMATS: readonly (readonly [string, string])[] = [
  ['date-time', '2026-01-02T03:04:05Z'],
  ['date', '2026-01-02'],
  ['time', '03:04:05Z'],
  ['email', 'someone@example.com'],
  ['uri', 'https://example.com/a/b?c=d'],
  ['uuid', '2f1b7e0a-3c4d-4e5f-8a9b-0c1d2e3f4a5b'],
  ['ipv4', '192.0.2.17'],
  ['hostname', 'api.example.com'],
];

const CATEGORIES = [
  'crm',
  'billing',
  'files',
  'calendar',
  'search',
  'messaging',
  'devops',
  'analytics',
  'inventory',
  'support',
] as const;
const VERBS = [
  'get',
  'list',
  'create',
  'update',
  'delete',
  'search',
  'sync',
  'export',
  'import',
  'archive',
  'validate',
  'summarize',
  'schedule',
  'assign',
  'merge',
] as const;
const NOUNS = [
  'contact',
  'invoice',
  'document',
  'event',
  'ticket',
  'order',
  'deployment',
  'report',
  'product',
  'message',
  'account',
  'shipment',
  'dataset',
  'incident',
  'subscription',
  'folder',
  'meeting',
  'payment',
  'customer',
  'build',
] as const;
const PROPERTY_WORDS = [
  'query',
  'limit',
  'owner',
  'status',
  'priority',
  'title',
  'notes',
  'region',
  'language',
  'channel',
  'reason',
  'source',
  'target',
  'label',
  'mode',
  'scope',
  'format',
  'level',
  'amount',
  'quantity',
  'window',
  'filter',
  'sort',
  'cursor',
  'project',
  'team',
  'assignee',
  'deadline',
  'contact',
  'reference',
  'comment',
  'threshold',
  'category',
  'kind',
  'timezone',
  'currency',
  'version',
  'environment',
  'metric',
  'recipient',
] as const;
const ENUM_SETS: readonly (readonly string[])[] = [
  ['low', 'normal', 'high', 'urgent'],
  ['draft', 'open', 'pending', 'closed', 'archived'],
  ['asc', 'desc'],
  ['json', 'csv', 'markdown', 'html'],
  ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'],
  ['email', 'sms', 'push', 'slack', 'webhook'],
  ['dev', 'staging', 'production'],
  ['en', 'de', 'fr', 'es', 'ja', 'pt'],
];
const DESCRIPTION_PHRASES = [
  'Looks up the matching records and returns them with their metadata.',
  'Applies the change and reports what was modified.',
  'Runs against the connected workspace of the current user.',
  'Results are paginated; pass the cursor from the previous page to continue.',
  'Times are interpreted in UTC unless a time zone is given.',
  'Fails when the caller lacks access to the target resource.',
  'Safe to retry: repeating the call with the same arguments has the same effect.',
  'Large results are truncated to the configured limit.',
];

/** The corpus folder of the shared schemas, beside the category folders (its tools `$ref` `../common/x.schema.json`). */
export const SHARED_FOLDER = 'common';

/**
 * The shared schemas: a fixed set, so their number does not grow with N (as in a real project).
 * Each entry is the file content and a value its root accepts; `defs` gives values for
 * `#/definitions/<key>` references.
 */
function sharedSchemas(): Record<string, { schema: JsonObject; sample: Json; defs?: Record<string, Json> }> {
  return {
    'geo-point.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'A point on the earth (WGS 84).',
        type: 'object',
        required: ['lat', 'lon'],
        additionalProperties: false,
        properties: {
          lat: { type: 'number', minimum: -90, maximum: 90, description: 'Latitude in degrees.' },
          lon: { type: 'number', minimum: -180, maximum: 180, description: 'Longitude in degrees.' },
        },
      },
      sample: { lat: 48.8566, lon: 2.3522 },
    },
    'address.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'A postal address.',
        type: 'object',
        required: ['street', 'city', 'country'],
        additionalProperties: false,
        properties: {
          street: { type: 'string', minLength: 1, maxLength: 200 },
          city: { type: 'string', minLength: 1, maxLength: 100 },
          postalCode: { type: 'string', pattern: '^[A-Z0-9 -]{3,10}$' },
          country: {
            type: 'string',
            enum: ['US', 'GB', 'DE', 'FR', 'JP', 'BR'],
            description: 'ISO 3166-1 alpha-2 code.',
          },
          location: { $ref: './geo-point.schema.json' },
        },
      },
      sample: {
        street: '1 Main Street',
        city: 'Springfield',
        postalCode: 'AB1 2CD',
        country: 'US',
        location: { lat: 48.8566, lon: 2.3522 },
      },
    },
    'money.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'An amount of money in a currency.',
        type: 'object',
        required: ['amount', 'currency'],
        additionalProperties: false,
        properties: {
          amount: { type: 'number', minimum: 0, description: 'The amount in the currency unit.' },
          currency: { $ref: '#/definitions/CurrencyCode' },
        },
        definitions: {
          CurrencyCode: {
            type: 'string',
            enum: ['USD', 'EUR', 'GBP', 'JPY', 'BRL'],
            description: 'ISO 4217 currency code.',
          },
        },
      },
      sample: { amount: 19.99, currency: 'EUR' },
      defs: { CurrencyCode: 'EUR' },
    },
    'pagination.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'Cursor-based pagination.',
        type: 'object',
        additionalProperties: false,
        properties: {
          cursor: { type: 'string', maxLength: 200, description: 'Opaque cursor from the previous page.' },
        },
        definitions: {
          PageRequest: {
            type: 'object',
            additionalProperties: false,
            properties: {
              page: { type: 'integer', minimum: 1, default: 1 },
              pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            },
          },
          PageInfo: {
            type: 'object',
            required: ['total', 'hasMore'],
            additionalProperties: false,
            properties: {
              total: { type: 'integer', minimum: 0 },
              hasMore: { type: 'boolean' },
              nextCursor: { type: 'string' },
            },
          },
        },
      },
      sample: { cursor: 'abc' },
      defs: { PageRequest: { page: 2, pageSize: 50 }, PageInfo: { total: 120, hasMore: true, nextCursor: 'abc' } },
    },
    'user-ref.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'A reference to a user of the workspace.',
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid' },
          email: { type: 'string', format: 'email' },
          displayName: { type: 'string', maxLength: 120 },
        },
      },
      sample: { id: '2f1b7e0a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', email: 'someone@example.com', displayName: 'Some One' },
    },
    'time-range.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'A half-open interval of time.',
        type: 'object',
        required: ['from'],
        additionalProperties: false,
        properties: {
          from: { type: 'string', format: 'date-time', description: 'Start, inclusive.' },
          to: { type: 'string', format: 'date-time', description: 'End, exclusive.' },
        },
      },
      sample: { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' },
    },
    'file-ref.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'A file stored somewhere reachable by URI.',
        type: 'object',
        required: ['uri'],
        additionalProperties: false,
        properties: {
          uri: { type: 'string', format: 'uri' },
          mediaType: { type: 'string', enum: ['text/plain', 'application/pdf', 'image/png', 'application/json'] },
          sizeBytes: { type: 'integer', minimum: 0 },
        },
      },
      sample: { uri: 'https://example.com/files/report.pdf', mediaType: 'application/pdf', sizeBytes: 1024 },
    },
    'audit.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'Who changed something, and when.',
        type: 'object',
        required: ['at', 'by'],
        additionalProperties: false,
        properties: {
          at: { type: 'string', format: 'date-time' },
          by: { $ref: './user-ref.schema.json' },
          note: { type: 'string', maxLength: 500 },
        },
      },
      sample: { at: '2026-01-02T03:04:05Z', by: { id: '2f1b7e0a-3c4d-4e5f-8a9b-0c1d2e3f4a5b' }, note: 'ok' },
    },
    'tags.schema.json': {
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        description: 'A set of labels.',
        type: 'array',
        items: { $ref: '#/definitions/Tag' },
        uniqueItems: true,
        maxItems: 20,
        definitions: {
          Tag: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,31}$', description: 'A lower-case label.' },
        },
      },
      sample: ['alpha', 'beta'],
      defs: { Tag: 'alpha' },
    },
  };
}

/** References a tool may use, with a value each accepts. */
function sharedRefs(shared: ReturnType<typeof sharedSchemas>): Field[] {
  const refs: Field[] = [];
  for (const [file, entry] of Object.entries(shared)) {
    refs.push({ schema: { $ref: `../${SHARED_FOLDER}/${file}` }, sample: entry.sample });
    for (const [key, sample] of Object.entries(entry.defs ?? {}))
      refs.push({ schema: { $ref: `../${SHARED_FOLDER}/${file}#/definitions/${key}` }, sample });
  }
  return refs;
}

/** Builds fields at random; every field comes with a value it accepts. */
class FieldFactory {
  constructor(
    private readonly random: Random,
    private readonly refs: Field[],
  ) {}

  /** A property schema of any kind; `depth` limits nesting. */
  any(depth: number): Field {
    const r = this.random;
    const roll = r.next();
    if (roll < 0.14) return this.string();
    if (roll < 0.26) return this.formatted();
    if (roll < 0.38) return this.enumeration();
    if (roll < 0.48) return this.integer();
    if (roll < 0.53) return this.number();
    if (roll < 0.6) return this.boolean();
    if (roll < 0.66) return this.stringArray();
    if (roll < 0.76 && depth > 0) return this.objectArray(depth - 1);
    if (roll < 0.85 && depth > 0) return this.object(depth - 1, r.int(2, 4));
    return r.pick(this.refs);
  }

  string(): Field {
    const max = this.random.pick([40, 80, 200, 1000]);
    return {
      schema: { type: 'string', minLength: 1, maxLength: max, description: 'Free text.' },
      sample: 'hello world',
    };
  }

  formatted(): Field {
    const [format, sample] = this.random.pick(FORMATS);
    return { schema: { type: 'string', format, description: `A ${format} value.` }, sample };
  }

  enumeration(): Field {
    const values = this.random.pick(ENUM_SETS);
    const schema: JsonObject = { type: 'string', enum: [...values], description: `One of ${values.join(', ')}.` };
    if (this.random.chance(0.5)) schema.default = values[0]!;
    return { schema, sample: values[values.length - 1]! };
  }

  integer(): Field {
    const max = this.random.pick([10, 100, 1000, 100000]);
    const schema: JsonObject = { type: 'integer', minimum: 0, maximum: max };
    if (this.random.chance(0.5)) schema.default = Math.min(10, max);
    return { schema, sample: Math.min(7, max) };
  }

  number(): Field {
    return {
      schema: { type: 'number', minimum: 0, exclusiveMaximum: 1e9, description: 'A non-negative number.' },
      sample: 3.5,
    };
  }

  boolean(): Field {
    const schema: JsonObject = { type: 'boolean' };
    if (this.random.chance(0.6)) schema.default = false;
    return { schema, sample: true };
  }

  stringArray(): Field {
    return {
      schema: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 64 },
        uniqueItems: true,
        maxItems: 50,
        default: [],
      },
      sample: ['one', 'two'],
    };
  }

  objectArray(depth: number): Field {
    const item = this.object(depth, this.random.int(2, 4));
    return {
      schema: { type: 'array', items: item.schema, maxItems: 100, description: 'A list of entries.' },
      sample: [item.sample, item.sample],
    };
  }

  /** An object with `count` properties, a random required subset and no extra properties. */
  object(depth: number, count: number): Field & { schema: JsonObject; sample: JsonObject } {
    const names = this.random.sample(PROPERTY_WORDS, count);
    const properties: JsonObject = {};
    const sample: JsonObject = {};
    const required: string[] = [];
    for (const name of names) {
      const field = this.any(depth);
      properties[name] = field.schema;
      sample[name] = field.sample;
      if (!('default' in field.schema) && this.random.chance(0.5)) required.push(name);
    }
    const schema: JsonObject = { type: 'object', additionalProperties: false, properties };
    if (required.length > 0) schema.required = required.sort();
    return { schema, sample };
  }
}

function toolDescription(random: Random, verb: string, noun: string): string {
  const phrases = random.sample(DESCRIPTION_PHRASES, random.int(1, 3));
  return [`${verb[0]!.toUpperCase()}${verb.slice(1)}s ${noun} records in the connected system.`, ...phrases].join(' ');
}

/** Builds (without writing) the tool definitions of a corpus. */
function buildCorpus(
  count: number,
  seed = 0x5eed,
): { tools: (CorpusTool & { definition: JsonObject })[]; shared: Record<string, JsonObject> } {
  const random = createRandom(seed);
  const shared = sharedSchemas();
  const factory = new FieldFactory(random, sharedRefs(shared));
  const tools: (CorpusTool & { definition: JsonObject })[] = [];
  for (let i = 0; i < count; i++) {
    const verb = random.pick(VERBS);
    const noun = random.pick(NOUNS);
    const category = random.pick(CATEGORIES);
    // The index keeps names unique; the prefix keeps them realistic.
    const name = `${verb}_${noun}_${String(i).padStart(4, '0')}`;
    const input = factory.object(2, random.int(3, 8));
    // A third of the tools keep a helper type in local definitions.
    if (random.chance(0.33)) {
      const local = factory.object(1, random.int(2, 3));
      input.schema.definitions = { Options: local.schema };
      (input.schema.properties as JsonObject).options = { $ref: '#/definitions/Options' };
      input.sample.options = local.sample;
    }
    const hasOutput = random.chance(0.7);
    const output = hasOutput ? factory.object(2, random.int(2, 6)) : undefined;
    if (output && random.chance(0.3)) {
      (output.schema.properties as JsonObject).page = {
        $ref: `../${SHARED_FOLDER}/pagination.schema.json#/definitions/PageInfo`,
      };
      output.sample.page = shared['pagination.schema.json']!.defs!.PageInfo!;
    }
    const hasSideEffects = [
      'create',
      'update',
      'delete',
      'sync',
      'import',
      'archive',
      'merge',
      'assign',
      'schedule',
    ].includes(verb);
    const requiredCapabilities = random.chance(0.25)
      ? [`capability:${category}:${hasSideEffects ? 'write' : 'read'}`]
      : [];
    const definition: JsonObject = {
      $schema: '../../tool-definition.schema.json',
      name,
      description: toolDescription(random, verb, noun),
      category,
      version: `1.${random.int(0, 9)}.0`,
      inputSchema: input.schema,
    };
    if (output) definition.outputSchema = output.schema;
    if (hasSideEffects) definition.hasSideEffects = true;
    if (requiredCapabilities.length > 0) definition.requiredCapabilities = requiredCapabilities;
    // Examples are checked by the generator: one per tenth tool proves the samples are valid.
    if (i % 10 === 0)
      definition.examples = [
        { description: 'A typical call', input: input.sample, ...(output ? { output: output.sample } : {}) },
      ];
    tools.push({
      name,
      file: `${category}/${name}.tool.json`,
      definition,
      inputSchema: input.schema,
      ...(output ? { outputSchema: output.schema, sampleOutput: output.sample } : {}),
      sampleInput: input.sample,
      hasSideEffects,
      requiredCapabilities,
    });
  }
  return { tools, shared: Object.fromEntries(Object.entries(shared).map(([file, entry]) => [file, entry.schema])) };
}

/** Writes a corpus of `count` tools into `dir` and describes it. */
export function generateCorpus(options: CorpusOptions): Corpus {
  const { tools, shared } = buildCorpus(options.count, options.seed);
  mkdirSync(path.join(options.dir, SHARED_FOLDER), { recursive: true });
  for (const [file, schema] of Object.entries(shared))
    writeFileSync(path.join(options.dir, SHARED_FOLDER, file), `${JSON.stringify(schema, null, 2)}\n`);
  for (const tool of tools) {
    const target = path.join(options.dir, tool.file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify(tool.definition, null, 2)}\n`);
  }
  return {
    dir: options.dir,
    tools: tools.map(({ definition: _definition, ...tool }) => tool),
    shared: Object.keys(shared).map((file) => `${SHARED_FOLDER}/${file}`),
  };
}
