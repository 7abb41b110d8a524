/**
 * Implementation of the tool `memory_write` (schemas/memory/memory_write.tool.json).
 * Scaffolded once by toolsmith; yours to edit — generate never overwrites it.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../index.js';
import { MemoryWriteToolBase } from '../../generated/tools/memory-write.base.js';
import type { MemoryWriteInput, MemoryWriteOutput } from '../../generated/types/memory-write.js';
import { MemoryStore } from './memory-store.js';

/** Options of the memory tools. */
export interface MemoryToolOptions {
  /** The data folder holding `memory.sqlite` (default `$TOOLSMITH_DATA_DIR` or `.toolsmith-data`). */
  dataDir?: string;
  now?: () => Date;
}

/** `memory_write`: stores a value under a key (side effect: asks approval when a gate is configured). */
export class MemoryWriteTool extends MemoryWriteToolBase {
  readonly #store: MemoryStore;
  readonly #now: () => Date;

  constructor(options: MemoryToolOptions = {}) {
    super();
    this.#store = MemoryStore.forDir(options.dataDir);
    this.#now = options.now ?? (() => new Date());
  }

  async execute(
    args: MemoryWriteInput,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<MemoryWriteOutput>> {
    const output = await this.#store.write({ key: args.key, value: args.value, tags: args.tags ?? [] }, this.#now());
    return { success: true, output };
  }

  /** Closes the data folder's database connection (a later call opens it again). */
  async shutdown(): Promise<void> {
    await this.#store.close();
  }
}
