/**
 * Run `bnity <args>` in this process: the CLI's `main(argv, env)`, with what it writes to
 * stdout and stderr caught. The same answer as `runBnity` (a spawned bin/bnity.js) for a
 * command whose subject is what it prints and changes, not the process: without the 0.35 s
 * of CPU a node start and the loading of the CLI cost. Keep a spawned run for what only the
 * process shows (its exit code as the shell sees it, signals, the real binary's stdout).
 * @module
 */
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

type Run = { code: number; stdout: string; stderr: string };

/** The run before the next: runs started together (`Promise.all`) take turns, each catching only its own output. */
let last: Promise<unknown> = Promise.resolve();

/** What `bnity <args>` exited with and printed; `env` is laid over this process's, as `runBnity` does. */
export function runMain(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const run = last.then(() => runOne(args, env));
  last = run.catch(() => {});
  return run;
}

async function runOne(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(args, { ...process.env, BOTERNITY_LOG_LEVEL: 'warn', ...env });
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
