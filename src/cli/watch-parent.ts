/**
 * Ending with the launcher (docs/adr/009-reliability.md): a service started by
 * npm (`npm start`, `npm run …`, `npx`) lives only as long as the process that started it.
 * When that process goes away without passing a signal on (npm killed with SIGKILL, or a
 * `sh -c` in between that dies of the SIGTERM npm forwards), the service is re-parented
 * and would otherwise run on, holding the port and the home's lock.
 * @module
 */

/** Options of {@link watchParent}. */
export type WatchParentOptions = {
  /** Called once, when the parent is gone. */
  readonly onGone: () => void;
  readonly env?: NodeJS.ProcessEnv;
  /** How often the parent is checked (default 500 ms). */
  readonly intervalMs?: number;
  /** The current parent pid (default `process.ppid`, read at each check). */
  readonly ppid?: () => number;
};

/** True when npm (or npx) launched this process: npm sets `npm_lifecycle_event` for its scripts. */
export function launchedByNpm(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.npm_lifecycle_event);
}

/**
 * Under npm, call `onGone` once this process's parent changes (it was re-parented: the
 * launcher is gone). Elsewhere (a shell, systemd, a container) nothing is watched: a
 * supervisor signals the service itself, and `nohup bnity serve &` is meant to outlive
 * its shell. Returns a function that stops watching.
 */
export function watchParent({
  onGone,
  env = process.env,
  intervalMs = 500,
  ppid = () => process.ppid,
}: WatchParentOptions): () => void {
  if (!launchedByNpm(env)) return () => undefined;
  const launcher = ppid();
  // There is no parent-death signal in Node: polling one getter is the cheap portable way.
  const timer = setInterval(() => {
    if (ppid() === launcher) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
