import { watch as chokidarWatch } from 'chokidar';

/** A running watch; `close()` stops it. */
export interface Watcher {
  close(): Promise<void>;
  /** Resolves after the run in progress (if any) has finished. */
  idle(): Promise<void>;
}

/**
 * Runs `run` once, then again after changes under `paths` settle for `debounceMs`, with the files
 * changed since the previous run (sorted; none for the first). Runs never overlap: changes during a
 * run schedule exactly one more. `run` reports its own errors; a failing run leaves the previous
 * output (generate writes nothing when it fails).
 */
export function watchAndRun(
  paths: string[],
  run: (changed: string[]) => Promise<unknown>,
  options: {
    debounceMs?: number;
    onError?: (error: unknown) => void;
    /** Called for each file-system event as it arrives, before the debounce (for logs and tests). */
    onEvent?: (file: string) => void;
  } = {},
): Watcher {
  const debounceMs = options.debounceMs ?? 150;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  // A run waits for the one before it; while one waits, further changes join it instead of queueing more.
  let queued = false;
  const changed = new Set<string>();
  const start = () => {
    if (queued) return;
    queued = true;
    running = running.then(async () => {
      queued = false;
      const files = [...changed].sort();
      changed.clear();
      try {
        await run(files);
      } catch (error) {
        options.onError?.(error);
      }
    });
  };
  const watcher = chokidarWatch(paths, { ignoreInitial: true, awaitWriteFinish: false });
  watcher.on('all', (_event, file) => {
    options.onEvent?.(file);
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(start, debounceMs);
  });
  start();
  return {
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
    idle: () => running,
  };
}
