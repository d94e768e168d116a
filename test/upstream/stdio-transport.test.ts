import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { spawnUpstream } from '../../src/upstream/spawn-stdio.js';
import { createStderrLog } from '../../src/upstream/stderr-log.js';
import { ChildStdioTransport } from '../../src/upstream/stdio-transport.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;

/** A child that writes one message and a line of stderr, then exits. */
const SAY_AND_EXIT = `process.stderr.write('bye\\n'); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/hello' }) + '\\n');`;

async function spawnChild(script: string) {
  const { spawned, stderr } = await spawnUpstream({
    config: { command: node, args: ['-e', script], env: {} },
    stderrLines: 10,
  });
  if (spawned instanceof Error) throw spawned;
  return { child: spawned, stderr };
}

describe('ChildStdioTransport', () => {
  it('delivers what a child wrote before the transport started, then its close', async () => {
    const { child, stderr } = await spawnChild(SAY_AND_EXIT);
    // The child is gone before anything reads its stdout, as when it exits while the SDK loads.
    await waitFor(() => child.process.exitCode !== null, { what: 'the child to exit' });
    await waitFor(() => stderr.last() === 'bye', { what: 'its stderr' });
    const transport = new ChildStdioTransport(child);
    const events: (JSONRPCMessage | 'closed')[] = [];
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => {
        events.push('closed');
        resolve();
      };
    });
    transport.onmessage = (message) => events.push(message);
    await transport.start();
    await closed;
    expect(events).toEqual([{ jsonrpc: '2.0', method: 'notifications/hello' }, 'closed']);
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/x' })).rejects.toThrow('Not connected');
  });

  it('reads long lines as JSON.parse does, cut or not, and reports one that is not JSON with its own text', async () => {
    // A child's long answers: a 64 KiB plain text, the same with an escape, a long key, a
    // long text under a duplicate key, then a long line that is not JSON.
    const text = 'x'.repeat(65536);
    const lines = [
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: `${text}\u0007é` }] } }),
      JSON.stringify({ jsonrpc: '2.0', id: 3, result: { [text]: 1 } }),
      `{"jsonrpc":"2.0","id":4,"result":{"a":"${text}","a":"short"}}`,
      `{"jsonrpc":"2.0","id":5,"result":{"a":"${text}"}`,
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'bnity-lines-')), 'lines.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const { child } = await spawnChild(
      `process.stdout.write(require('node:fs').readFileSync(${JSON.stringify(file)}));`,
    );
    const transport = new ChildStdioTransport(child);
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    transport.onmessage = (message) => messages.push(message);
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    await waitFor(() => messages.length === 4 && errors.length === 1, { what: 'four messages and one error' });
    expect(messages).toEqual(lines.slice(0, 4).map((line) => JSON.parse(line)));
    expect(errors[0]?.message).toContain('not JSON');
    expect(errors[0]?.message).toContain('{\\"jsonrpc\\":\\"2.0\\",\\"id\\":5,\\"result\\":{\\"a\\":\\"xxxx');
    await transport.close();
    rmSync(dirname(file), { recursive: true, force: true });
  });

  it('refuses a message nested too deeply to serialize, and stays usable', async () => {
    const { child } = await spawnChild(`process.stdin.on('data', (d) => process.stdout.write(d));`);
    const transport = new ChildStdioTransport(child);
    const got: JSONRPCMessage[] = [];
    transport.onmessage = (message) => got.push(message);
    await transport.start();
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { deep };
    const tooDeep = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { deep } };
    await expect(transport.send(tooDeep as JSONRPCMessage)).rejects.toThrow('nested too deeply');
    await transport.send({ jsonrpc: '2.0', method: 'notifications/ok' });
    await waitFor(() => got.length === 1, { what: 'the echo' });
    expect(got).toEqual([{ jsonrpc: '2.0', method: 'notifications/ok' }]);
    await transport.close();
    expect(child.process.exitCode ?? child.process.signalCode).not.toBeNull();
  });

  it('refuses a message over maxMessageBytes unsent with one line, and writes one exactly at the bound', async () => {
    const { child } = await spawnChild(`process.stdin.on('data', (d) => process.stdout.write(d));`);
    const at = { jsonrpc: '2.0' as const, method: 'notifications/x', params: { text: 'é'.repeat(100) } };
    // The bound is on the UTF-8 bytes of the message as written (its line feed aside).
    const maxMessageBytes = Buffer.byteLength(JSON.stringify(at));
    const transport = new ChildStdioTransport(child, { server: 'small', maxAnswerBytes: 1_000_000, maxMessageBytes });
    const got: JSONRPCMessage[] = [];
    transport.onmessage = (message) => got.push(message);
    await transport.start();
    const over = { ...at, params: { text: `${at.params.text}x` } };
    const refused = transport.send(over);
    await expect(refused).rejects.toThrow(
      `the request is ${maxMessageBytes + 1} bytes, over the ${maxMessageBytes} bytes server "small" takes (maxMessageBytes); it was not sent`,
    );
    await expect(refused).rejects.toMatchObject({
      code: 'payload_too_large',
      message: expect.not.stringMatching(/\n/),
    });
    await transport.send(at);
    await waitFor(() => got.length === 1, { what: 'the echo' });
    // Only the message at the bound reached the child: the refused one was never written.
    expect(got).toEqual([at]);
    await transport.close();
  });

  it('returns a missing command as an ENOENT error naming it, spawning nothing', async () => {
    const stderr = createStderrLog(10);
    const { spawned } = await spawnUpstream({
      config: { command: 'no-such-command-bnity', args: [], env: {} },
      stderr,
      stderrLines: 10,
    });
    expect(spawned).toBeInstanceOf(Error);
    expect((spawned as Error).message).toBe('spawn no-such-command-bnity ENOENT');
  });
});
