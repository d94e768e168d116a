/**
 * Run `bnity serve` as a real child process (bin/bnity.js) and read the URLs it prints.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait-for.js';

export const BNITY = fileURLToPath(new URL('../../bin/bnity.js', import.meta.url));

/** A running `bnity serve`. */
export type ServeProcess = {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Spawn `bnity serve` with `args` (and `nodeArgs` for its node); resolves once it printed its control URL. */
export async function spawnServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
  nodeArgs: readonly string[] = [],
): Promise<ServeProcess> {
  const run = spawnBnity(['serve', ...args], env, cwd, undefined, nodeArgs);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${run.stdout()}${run.stderr()}`)), 20_000);
    const check = () => {
      const match = /control API\s+(http:\/\/\S+)\/api\/servers/.exec(run.stdout());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    run.child.stdout?.on('data', check);
    void run.exit.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${run.stdout()}${run.stderr()}`));
    });
  });
  return { child: run.child, url, stdout: run.stdout, stderr: run.stderr, exited: run.exit };
}

/** A `bnity` command left running (`serve`, `mcp events`, `mcp logs --follow`): its output so far and its exit. */
export function spawnBnity(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
  input?: string,
  nodeArgs: readonly string[] = [],
) {
  const child = spawn(process.execPath, [...nodeArgs, BNITY, ...args], {
    env: { ...process.env, BOTERNITY_LOG_LEVEL: 'warn', ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  if (input !== undefined) child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  // Its end once everything it wrote has been read: 'exit' may come before the last of its
  // output is read from the pipes (under load its last line came after), 'close' after it.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, exit, exited: exit.then(({ code }) => code), stdout: () => stdout, stderr: () => stderr };
}

/** Run `bnity <args>` to completion; `input` is written to its stdin (else stdin is closed). */
export async function runBnity(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnBnity(args, env, cwd, input);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/**
 * `bnity mcp serve --stdio` on its own (no service running): started until it logs
 * `boternity started`, then stopped by SIGTERM; its exit code and what it wrote to stderr.
 */
export async function startAndStopStdioBridge(
  config: string,
  home: string,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BNITY, 'mcp', 'serve', '--stdio', '--config', config, '--home', home], {
    env: { ...process.env, BOTERNITY_LOG_LEVEL: 'info' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  await waitFor(() => stderr.includes('boternity started'), { what: 'the standalone service to start' });
  child.kill('SIGTERM');
  return { code: await exited, stderr };
}
