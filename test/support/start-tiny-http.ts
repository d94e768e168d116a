/**
 * Runs test/support/tiny-http-server.mjs (one `echo` tool over Streamable HTTP) as a child
 * process on a free 127.0.0.1 port.
 * @module
 */
import { spawn } from 'node:child_process';
import { fixtureServer } from './fixtures.js';

const TINY_HTTP_SERVER = fixtureServer('tiny-http-server.mjs');

/** A running tiny HTTP upstream. */
export type TinyHttp = { readonly url: string; readonly pid: number; stop(): Promise<void> };

/**
 * Start it (or another server `script` of the same kind), with `env` added to the environment
 * (e.g. `BEARER`); resolves with its `/mcp` URL once it listens.
 */
export async function startTinyHttp(script = TINY_HTTP_SERVER, env: NodeJS.ProcessEnv = {}): Promise<TinyHttp> {
  const child = spawn(process.execPath, [script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    void exited.then(() => reject(new Error(`tiny-http-server exited: ${output}`)));
  });
  return {
    url,
    pid: child.pid ?? -1,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
