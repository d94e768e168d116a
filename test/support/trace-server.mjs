// An upstream that tells what trace context reached it (issue 21): its tool `trace` answers
// with the `_meta` of the call and the HTTP `traceparent` header it came with (null over
// stdio). Over stdio by default; `--http` (or TRACE_SERVER_HTTP=1) serves Streamable HTTP on a free port and prints
// `listening <url>`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveStreamableHttp } from './serve-streamable-http.mjs';

const newServer = () => {
  const server = new McpServer({ name: 'trace-server', version: '1.0.0' });
  server.registerTool('trace', { description: 'the trace context this call carried' }, async (extra) => {
    const header = extra.requestInfo?.headers?.traceparent ?? null;
    return { content: [{ type: 'text', text: JSON.stringify({ meta: extra._meta ?? null, header }) }] };
  });
  return server;
};

if (process.argv.includes('--http') || process.env.TRACE_SERVER_HTTP === '1')
  serveStreamableHttp({ port: 0, announce: true, newSession: () => ({ server: newServer().server }) });
else await newServer().connect(new StdioServerTransport());
