/**
 * Implementation of the tool `memory_read` (schemas/memory/memory_read.tool.json).
 * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../index.js';
import { MemoryReadToolBase } from '../../generated/tools/memory-read.base.js';
import type { MemoryReadInput, MemoryReadOutput } from '../../generated/types/memory-read.js';
import { MemoryStore } from './memory-store.js';
import type { MemoryToolOptions } from './memory-write.js';

/** `memory_read`: one entry by key, or the newest entries matching a prefix or a tag. */
export class MemoryReadTool extends MemoryReadToolBase {
  readonly #store: MemoryStore;

  constructor(options: MemoryToolOptions = {}) {
    super();
    this.#store = MemoryStore.forDir(options.dataDir);
  }

  async execute(args: MemoryReadInput, _context: ToolExecutionContext): Promise<ToolExecutionResult<MemoryReadOutput>> {
    const entries = [...(await this.#store.readAll()).values()];
    const query = args.query;
    const matches = entries.filter((entry) =>
      'key' in query ? entry.key === query.key : 'prefix' in query ? entry.key.startsWith(query.prefix) : (entry.tags ?? []).includes(query.tag),
    );
    matches.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.key < b.key ? -1 : 1));
    return { success: true, output: { entries: matches.slice(0, args.limit ?? 20), total: matches.length } };
  }
}
