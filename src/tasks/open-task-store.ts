import { MemoryTaskStore } from './memory-task-store.js';
import { RedisTaskStore, type RedisTaskStoreOptions } from './redis-task-store.js';
import type { TaskStore } from './task-store.js';

/**
 * The store a `--task-store` value names: `memory` (the default: one process; of `options`, the
 * timings and `replicaId`), or a `redis://` / `rediss://` URL (replicas; `RedisTaskStoreOptions`).
 * A bad value throws a `RangeError` saying what is accepted.
 */
export async function openTaskStore(
  spec: string,
  options: Omit<RedisTaskStoreOptions, 'url'> = {},
): Promise<TaskStore> {
  if (spec === 'memory') return new MemoryTaskStore(options);
  if (/^rediss?:\/\//.test(spec)) return RedisTaskStore.connect({ url: spec, ...options });
  throw new RangeError(
    `--task-store must be 'memory' or a Redis URL (redis://host:port or rediss://host:port), got '${spec.slice(0, 200)}'.`,
  );
}
