import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MemoryEntry } from '../../generated/types/shared/memory-entry.js';

/** The folder memory lives in when none is given: `$TOOLSMITH_DATA_DIR`, else `.toolsmith-data`. */
export function defaultDataDir(): string {
  return path.resolve(process.env.TOOLSMITH_DATA_DIR ?? '.toolsmith-data');
}

/**
 * The agent's persistent working memory: one JSON file (`memory.json`) in a data folder, replaced
 * atomically on each write; writes are serialized so concurrent calls never lose an update.
 */
export class MemoryStore {
  static readonly #stores = new Map<string, MemoryStore>();
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly file: string) {}

  /** The one store of a data folder in this process (memory_read and memory_write share it). */
  static forDir(dataDir: string = defaultDataDir()): MemoryStore {
    const file = path.join(path.resolve(dataDir), 'memory.json');
    let store = MemoryStore.#stores.get(file);
    if (!store) {
      store = new MemoryStore(file);
      MemoryStore.#stores.set(file, store);
    }
    return store;
  }

  /** Every entry, by key. */
  async readAll(): Promise<Map<string, MemoryEntry>> {
    await this.#queue.catch(() => undefined);
    return this.#load();
  }

  /** Writes one entry; `created` tells whether the key was new. */
  write(entry: Omit<MemoryEntry, 'updatedAt'>, now: Date = new Date()): Promise<{ entry: MemoryEntry; created: boolean }> {
    const run = async () => {
      const entries = await this.#load();
      const created = !entries.has(entry.key);
      const stored: MemoryEntry = { key: entry.key, value: entry.value, tags: [...(entry.tags ?? [])], updatedAt: now.toISOString() };
      entries.set(entry.key, stored);
      await mkdir(path.dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      const sorted = [...entries.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      await writeFile(temporary, `${JSON.stringify({ version: 1, entries: sorted }, null, 2)}\n`);
      await rename(temporary, this.file);
      return { entry: stored, created };
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #load(): Promise<Map<string, MemoryEntry>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw error;
    }
    const data = JSON.parse(text) as { entries?: MemoryEntry[] };
    return new Map((data.entries ?? []).map((entry) => [entry.key, entry]));
  }
}
