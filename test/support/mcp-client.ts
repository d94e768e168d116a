/**
 * SDK clients for gateway tests: one through a boternity endpoint over Streamable HTTP,
 * and one straight to an upstream over stdio, to compare against.
 * @module
 */
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TEST_TOKEN } from './test-service.js';

const INFO = { name: 'boternity-test-agent', version: '1.0.0' };

/**
 * The fetch for a client that makes thousands of requests: the SDK's HTTP transport hands one
 * long-lived AbortSignal to every fetch, whose listeners pile up (Node's MaxListeners warning);
 * POSTs go without it, as the benches' client does.
 */
export const leanFetch: typeof fetch = (url, init) =>
  fetch(url, init?.method === 'POST' ? { ...init, signal: undefined } : init);

/** Connect an SDK client to `url` with the admin token (or `token`). */
export async function connectHttpClient(url: string, options: ClientOptions = {}, token = TEST_TOKEN): Promise<Client> {
  const client = new Client(INFO, options);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** Connect an SDK client straight to a stdio server. */
export async function connectStdioClient(
  command: string,
  args: string[],
  options: ClientOptions = {},
): Promise<Client> {
  const client = new Client(INFO, options);
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return client;
}
