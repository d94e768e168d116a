/**
 * A raw MCP `initialize` POST, for tests that look at HTTP statuses an SDK client hides.
 * Uses node:http so that `Host` can be set (fetch forbids it).
 * @module
 */
import { request } from 'node:http';

/** The JSON-RPC initialize request body. */
export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

/** POST an initialize to `url` with extra headers; resolves with the status and body text. */
export function postInitialize(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      // An SSE response stays open: the status and first chunk are enough.
      res.once('data', () => {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(INITIALIZE_BODY);
  });
}

/**
 * The same initialize (id 0, client `raw`) sent with `fetch`, protocol `version`: the Response
 * itself, for tests that read its `mcp-session-id` and go on with raw requests.
 */
export function fetchInitialize(url: string, version = '2025-11-25'): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
}
