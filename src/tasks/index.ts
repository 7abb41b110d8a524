/**
 * Tasks for long MCP calls: the store interface and its two implementations. `RedisTaskStore`
 * loads the `redis` package only when it connects.
 */
export { MemoryTaskStore, type MemoryTaskStoreOptions } from './memory-task-store.js';
export { openTaskStore } from './open-task-store.js';
export { RedisTaskStore, type RedisTaskClient, type RedisTaskStoreOptions } from './redis-task-store.js';
export {
  type CreateTaskInput,
  DEFAULT_TASK_PAGE_SIZE,
  isTerminalTaskStatus,
  type RunningTask,
  type StoredTask,
  TASK_INTERNAL_ERROR,
  TaskAbortedError,
  type TaskAbortCause,
  type TaskDrainReport,
  type TaskError,
  type TaskPage,
  type TaskRefusal,
  type TaskStatus,
  type TaskStore,
  TaskStoreError,
  type TaskStoreErrorCode,
  type TaskStoreTimings,
  type ResolvedTaskStoreTimings,
  type TaskTransition,
  TERMINAL_TASK_STATUSES,
} from './task-store.js';
export {
  RELATED_TASK_META_KEY,
  TASKS_EXTENSION_ID,
  toCreateTaskResult,
  toGetTaskResult,
  toLegacyCreateTaskResult,
  toLegacyTask,
  toLegacyTaskPayload,
} from './task-wire.js';
export { waitForTaskEnd } from './wait-for-task-end.js';
