import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
import { findNodeAtLocation, parseTree, printParseErrorCode, type JSONPath, type ParseError } from 'jsonc-parser';
import type { MemoryEntry } from '../../generated/types/shared/memory-entry.js';

/** The folder memory lives in when none is given: `$TOOLSMITH_DATA_DIR`, else `.toolsmith-data`. */
function defaultDataDir(): string {
  return path.resolve(process.env.TOOLSMITH_DATA_DIR ?? '.toolsmith-data');
}

/** The SQLite database of a data folder. */
export const MEMORY_DATABASE_FILE = 'memory.sqlite';

/** The JSON file earlier versions kept memory in; imported once into the database, then renamed. */
export const LEGACY_MEMORY_FILE = 'memory.json';

/** How long a write waits for another connection's write lock before failing `SQLITE_BUSY`. */
const MEMORY_BUSY_TIMEOUT_MS = 5000;

/** What `memory_read` looks up: exactly one of a key, a key prefix or a tag. */
export type MemoryQuery = { key: string } | { prefix: string } | { tag: string };

/**
 * A row of `entries`. The value and tags are stored as JSON text: SQLite holds UTF-8, which has no
 * lone UTF-16 surrogate, and JSON's `\uD800` escape keeps every JavaScript string unchanged.
 */
interface EntryRow {
  key: string;
  value_json: string;
  tags_json: string;
  updated_at: string;
}

function toRow(entry: MemoryEntry): EntryRow {
  return {
    key: entry.key,
    value_json: JSON.stringify(entry.value),
    tags_json: JSON.stringify(entry.tags ?? []),
    updated_at: entry.updatedAt,
  };
}

function fromRow(row: EntryRow): MemoryEntry {
  return {
    key: row.key,
    value: JSON.parse(row.value_json) as string,
    tags: JSON.parse(row.tags_json) as string[],
    updatedAt: row.updated_at,
  };
}

interface Statements {
  write: BetterSqlite3.Transaction<(entry: MemoryEntry) => boolean>;
  read: BetterSqlite3.Transaction<(query: MemoryQuery, limit: number) => { entries: MemoryEntry[]; total: number }>;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS entries (
    key TEXT PRIMARY KEY NOT NULL,
    value_json TEXT NOT NULL,
    tags_json TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS entries_by_recency ON entries (updated_at DESC, key);
  CREATE TABLE IF NOT EXISTS entry_tags (
    tag_json TEXT NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (tag_json, key)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS imports (
    sha256 TEXT PRIMARY KEY NOT NULL,
    file TEXT NOT NULL,
    entries INTEGER NOT NULL,
    imported_at TEXT NOT NULL
  ) STRICT;
`;

/** The `WHERE` clause and its parameter for each kind of query. */
function condition(query: MemoryQuery): { where: string; parameter: string } {
  if ('key' in query) return { where: 'key = @parameter', parameter: query.key };
  if ('prefix' in query) return { where: 'substr(key, 1, length(@parameter)) = @parameter', parameter: query.prefix };
  return {
    where: 'key IN (SELECT key FROM entry_tags WHERE tag_json = @parameter)',
    parameter: JSON.stringify(query.tag),
  };
}

/**
 * The agent's persistent working memory: a SQLite database (`memory.sqlite`, WAL mode) in a data
 * folder. Each write is one `BEGIN IMMEDIATE` transaction, answered only once it is committed
 * (`synchronous = FULL`), so any number of processes and connections can share the folder — two
 * `serve`s, `serve` and `call`, or the same folder reached through two paths — without losing a
 * write, and a crash loses nothing that was answered. A writer waits up to
 * {@link MEMORY_BUSY_TIMEOUT_MS} for another's lock. An existing `memory.json` (the earlier format)
 * is imported once, in one transaction, and renamed `memory.json.imported-<16 hex digits of its SHA-256>`.
 *
 * better-sqlite3 is synchronous: a call holds the event loop for the duration of its statement
 * (a commit and its fsync when uncontended, at most the busy timeout under contention).
 */
export class MemoryStore {
  static readonly #stores = new Map<string, MemoryStore>();
  #opening: Promise<Connection> | undefined;

  /** `dir` is the data folder; the database is `dir/memory.sqlite`. */
  constructor(readonly dir: string) {}

  /** The database file. */
  get file(): string {
    return path.join(this.dir, MEMORY_DATABASE_FILE);
  }

  /** The one store of a data folder (as given, resolved) in this process: memory_read and memory_write share its connection. */
  static forDir(dataDir: string = defaultDataDir()): MemoryStore {
    const dir = path.resolve(dataDir);
    let store = MemoryStore.#stores.get(dir);
    if (!store) {
      store = new MemoryStore(dir);
      MemoryStore.#stores.set(dir, store);
    }
    return store;
  }

  /** Writes one entry in its own transaction, resolving once it is committed; `created` tells whether the key was new. */
  async write(
    entry: Omit<MemoryEntry, 'updatedAt'>,
    now: Date = new Date(),
  ): Promise<{ entry: MemoryEntry; created: boolean }> {
    const { statements } = (await this.#open(true))!;
    const stored: MemoryEntry = {
      key: entry.key,
      value: entry.value,
      tags: [...(entry.tags ?? [])],
      updatedAt: now.toISOString(),
    };
    const created = statements.write.immediate(stored);
    return { entry: stored, created };
  }

  /** The entries matching `query`, newest first (then by key), at most `limit`, with how many matched. */
  async read(query: MemoryQuery, limit: number): Promise<{ entries: MemoryEntry[]; total: number }> {
    const connection = await this.#open(false);
    return connection ? connection.statements.read(query, limit) : { entries: [], total: 0 };
  }

  /** Closes the connection (the next call opens it again); the last connection to a database to close checkpoints its WAL. */
  async close(): Promise<void> {
    const opening = this.#opening;
    this.#opening = undefined;
    const connection = await opening?.catch(() => undefined);
    connection?.database.close();
  }

  /** The connection, opening it first; `undefined` when `create` is false and the folder holds no memory yet (reading creates nothing). */
  #open(create: boolean): Promise<Connection | undefined> {
    if (this.#opening) return this.#opening;
    if (!create && !exists(this.file) && !exists(path.join(this.dir, LEGACY_MEMORY_FILE)))
      return Promise.resolve(undefined);
    const opening = connect(this.dir, this.file);
    this.#opening = opening;
    opening.catch(() => {
      if (this.#opening === opening) this.#opening = undefined;
    });
    return opening;
  }
}

interface Connection {
  database: BetterSqlite3.Database;
  statements: Statements;
}

/** Opens (creating) the database of `dir` in WAL mode, creates its tables and imports a legacy `memory.json`. */
async function connect(dir: string, file: string): Promise<Connection> {
  const { default: Database } = await import('better-sqlite3');
  mkdirSync(dir, { recursive: true });
  const database = new Database(file, { timeout: MEMORY_BUSY_TIMEOUT_MS });
  try {
    await untilNotBusy(() => {
      if (database.pragma('journal_mode', { simple: true }) !== 'wal') database.pragma('journal_mode = WAL');
    });
    database.pragma('synchronous = FULL');
    database.transaction(() => database.exec(SCHEMA)).immediate();
    importLegacyFile(database, dir);
    return { database, statements: prepare(database) };
  } catch (error) {
    database.close();
    throw error;
  }
}

function prepare(database: BetterSqlite3.Database): Statements {
  const exists = database.prepare<[string], unknown>('SELECT 1 FROM entries WHERE key = ?');
  const upsert = database.prepare<[EntryRow]>(
    'INSERT INTO entries (key, value_json, tags_json, updated_at) ' +
      'VALUES (@key, @value_json, @tags_json, @updated_at) ' +
      'ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, tags_json = excluded.tags_json, ' +
      'updated_at = excluded.updated_at',
  );
  const tagsOf = tagWriter(database);
  type Parameters = [{ parameter: string; limit?: number }];
  const queries = new Map<
    string,
    {
      select: BetterSqlite3.Statement<Parameters, EntryRow>;
      count: BetterSqlite3.Statement<Parameters, { total: number }>;
    }
  >();
  const read = (query: MemoryQuery, limit: number) => {
    const { where, parameter } = condition(query);
    let prepared = queries.get(where);
    if (!prepared) {
      prepared = {
        select: database.prepare<Parameters, EntryRow>(
          `SELECT key, value_json, tags_json, updated_at FROM entries WHERE ${where} ORDER BY updated_at DESC, key LIMIT @limit`,
        ),
        count: database.prepare<Parameters, { total: number }>(`SELECT count(*) AS total FROM entries WHERE ${where}`),
      };
      queries.set(where, prepared);
    }
    return {
      entries: prepared.select.all({ parameter, limit }).map(fromRow),
      total: prepared.count.get({ parameter })!.total,
    };
  };
  return {
    write: database.transaction((entry: MemoryEntry) => {
      const created = exists.get(entry.key) === undefined;
      upsert.run(toRow(entry));
      tagsOf(entry);
      return created;
    }),
    read: database.transaction(read),
  };
}

/** Replaces an entry's rows in `entry_tags` (the index `memory_read` finds a tag by). */
function tagWriter(database: BetterSqlite3.Database): (entry: MemoryEntry) => void {
  const clear = database.prepare<[string]>('DELETE FROM entry_tags WHERE key = ?');
  const add = database.prepare<[string, string]>('INSERT OR IGNORE INTO entry_tags (tag_json, key) VALUES (?, ?)');
  return (entry) => {
    clear.run(entry.key);
    for (const tag of entry.tags ?? []) add.run(JSON.stringify(tag), entry.key);
  };
}

/**
 * Imports `memory.json` of `dir` when there is one: its entries in one transaction (an entry
 * already in the database is replaced only by a newer or equally new one), recorded by the file's
 * SHA-256 so that the same file is never imported twice (two processes opening at once, a crash
 * between the commit and the rename), then the file is renamed `memory.json.imported-<16 hex digits of the hash>`.
 */
function importLegacyFile(database: BetterSqlite3.Database, dir: string): void {
  const file = path.join(dir, LEGACY_MEMORY_FILE);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const entries = parseLegacyFile(bytes.toString('utf8'), file);
  const keepNewer = database.prepare<[EntryRow]>(
    'INSERT INTO entries (key, value_json, tags_json, updated_at) ' +
      'VALUES (@key, @value_json, @tags_json, @updated_at) ' +
      'ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, tags_json = excluded.tags_json, ' +
      'updated_at = excluded.updated_at ' +
      'WHERE excluded.updated_at >= entries.updated_at',
  );
  const tagsOf = tagWriter(database);
  database
    .transaction(() => {
      if (database.prepare('SELECT 1 FROM imports WHERE sha256 = ?').get(sha256) !== undefined) return;
      for (const entry of entries) if (keepNewer.run(toRow(entry)).changes > 0) tagsOf(entry);
      database
        .prepare('INSERT INTO imports (sha256, file, entries, imported_at) VALUES (?, ?, ?, ?)')
        .run(sha256, file, entries.length, new Date().toISOString());
    })
    .immediate();
  try {
    renameSync(file, `${file}.imported-${sha256.slice(0, 16)}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The entries of a `memory.json`, or an error naming the file, line:column and JSON pointer of the first problem. */
export function parseLegacyFile(text: string, file: string): MemoryEntry[] {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const fail = (offset: number, problem: string): never => {
    const before = text.slice(0, offset).split('\n');
    throw new Error(
      `${file}:${before.length}:${before[before.length - 1]!.length + 1}: ${problem}. The memory ` +
        `tools import this file once into ${MEMORY_DATABASE_FILE}: fix it, or move it out of the data ` +
        `folder to start without it.`,
    );
  };
  if (errors.length > 0 || !tree)
    return fail(
      errors[0]?.offset ?? 0,
      `not valid JSON (${errors[0] ? printParseErrorCode(errors[0].error) : 'empty'})`,
    );
  const at = (location: JSONPath) => findNodeAtLocation(tree, location) ?? tree;
  const pointer = (location: JSONPath) =>
    location.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
  const list = at(['entries']);
  if (tree.type !== 'object' || list === tree || list.type !== 'array')
    return fail(list.offset, 'expected an object with an "entries" array (at /entries)');
  const entries: MemoryEntry[] = [];
  list.children!.forEach((_, index) => {
    const node = (field: string) => findNodeAtLocation(tree, ['entries', index, field]);
    const expectString = (field: string): string => {
      const found = node(field);
      if (found?.type !== 'string')
        return fail(
          (found ?? at(['entries', index])).offset,
          `expected a string at ${pointer(['entries', index, field])}`,
        );
      return found.value as string;
    };
    const entry: MemoryEntry = {
      key: expectString('key'),
      value: expectString('value'),
      updatedAt: expectString('updatedAt'),
    };
    const tags = node('tags');
    if (tags !== undefined) {
      const items = tags.type === 'array' ? tags.children! : [];
      if (tags.type !== 'array' || items.some((item) => item.type !== 'string'))
        return fail(tags.offset, `expected an array of strings at ${pointer(['entries', index, 'tags'])}`);
      entry.tags = items.map((item) => item.value as string);
    }
    entries.push(entry);
  });
  return entries;
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `action`, retrying while SQLite answers `SQLITE_BUSY`: switching a new database to WAL
 * needs an exclusive lock and is not covered by the busy timeout when several processes open the
 * folder's database at once.
 */
async function untilNotBusy(action: () => void): Promise<void> {
  const deadline = Date.now() + MEMORY_BUSY_TIMEOUT_MS;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      return action();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      await sleep(delay);
    }
  }
}
