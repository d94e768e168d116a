import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** An HTTP request refused with a JSON-RPC error that answers no request in particular. */
export type RpcRefusal = {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly headers?: OutgoingHttpHeaders;
};

/** Answer `res` with a JSON body: status line, headers and body leave in one write. */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Answer `res` with a refusal's JSON-RPC error (id null unless given, `data` when given). */
export function writeRefusal(
  res: ServerResponse,
  { status, code, message, headers }: RpcRefusal,
  { id = null, data }: { id?: string | number | null; data?: unknown } = {},
): void {
  writeJson(
    res,
    status,
    { jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) }, id },
    headers,
  );
}
