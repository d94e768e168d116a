/**
 * Run `bnity serve` as a real child process (bin/bnity.js) and read the URLs it prints.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BNITY = fileURLToPath(new URL('../../bin/bnity.js', import.meta.url));

/** A running `bnity serve`. */
export type ServeProcess = {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Spawn `bnity serve` with `args`; resolves once it printed its control URL. */
export async function spawnServe(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BNITY, 'serve', ...args], {
    env: { ...process.env, BOTERNITY_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}${err}`)), 20_000);
    const check = () => {
      const match = /control API\s+(http:\/\/\S+)\/api\/servers/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${out}${err}`));
    });
  });
  return { child, url, stdout: () => out, stderr: () => err, exited };
}

/** A `bnity` command left running (`mcp events`, `mcp logs --follow`): its output so far and its exit. */
export function spawnBnity(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BNITY, ...args], {
    env: { ...process.env, BOTERNITY_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Run `bnity <args>` to completion; `input` is written to its stdin (else stdin is closed). */
export function runBnity(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BNITY, ...args], {
      env: { ...process.env, BOTERNITY_LOG_LEVEL: 'warn', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin?.end(input);
  });
}
