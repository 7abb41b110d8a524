/**
 * Tasks for long MCP calls: the store interface and its two implementations. `RedisTaskStore`
 * loads the `redis` package only when it connects.
 */
export { MemoryTaskStore } from './memory-task-store.js';
export { openTaskStore } from './open-task-store.js';
export { RedisTaskStore } from './redis-task-store.js';
export {
  type CreateTaskInput,
  isTerminalTaskStatus,
  type StoredTask,
  TASK_INTERNAL_ERROR,
  TaskAbortedError,
  type TaskStore,
  TaskStoreError,
  type TaskStoreTimings,
  type TaskTransition,
} from './task-store.js';
export {
  TASKS_EXTENSION_ID,
  toCreateTaskResult,
  toGetTaskResult,
  toLegacyCreateTaskResult,
  toLegacyTask,
  toLegacyTaskPayload,
} from './task-wire.js';
export { waitForTaskEnd } from './wait-for-task-end.js';
