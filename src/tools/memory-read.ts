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
    return { success: true, output: await this.#store.read(args.query, args.limit ?? 20) };
  }

  /** Closes the data folder's database connection (a later call opens it again). */
  async shutdown(): Promise<void> {
    await this.#store.close();
  }
}
