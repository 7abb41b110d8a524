/*
 * npm runs a package's command (`npx --no toolsmith …`, `npm run <script>`) under `sh -c`: a process
 * manager's signal to the npm process stops npm and that shell, but not toolsmith, which would keep
 * serving with a new parent (ppid 1). The long-running commands (`serve`, `generate --watch`)
 * therefore follow their launcher: when npm launched them and their parent goes away, they stop as
 * if they had been sent SIGTERM themselves (a server drains its calls in flight, then exits).
 */

/** True when npm (or npx) started this process: npm sets `npm_lifecycle_event` for what it runs. */
export function launchedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_lifecycle_event !== undefined && env.npm_lifecycle_event !== '';
}

/**
 * When npm launched this process, checks every 250 ms whether the parent is still the one it started
 * with; once it is not, sends this process SIGTERM (once) and stops checking. Returns a function that
 * stops checking. The timer never keeps the process alive on its own.
 */
export function followLauncher(): () => void {
  if (!launchedByNpm()) return () => {};
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 250);
  timer.unref();
  return () => clearInterval(timer);
}
