// A minimal MCP server over stdio with one `echo` tool, for upstream tests.
// Env knobs: TINY_STDERR_LINES=N writes N numbered lines to stderr at start;
// TINY_IGNORE_SIGTERM=1 ignores SIGTERM and stays alive after stdin closes;
// TINY_START_DELAY_MS=N waits N ms before it answers anything (a server slow to start);
// TINY_START_AFTER_FILE=PATH answers nothing until PATH exists.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'tiny', version: '1.0.0' }, { capabilities: { tools: {} } });
const echo = {
  name: 'echo',
  description: 'Returns its text argument',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [echo] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name !== 'echo') throw new Error(`unknown tool ${request.params.name}`);
  return { content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }] };
});

for (let i = 1; i <= Number(process.env.TINY_STDERR_LINES ?? 0); i++) process.stderr.write(`stderr line ${i}\n`);
if (process.env.TINY_IGNORE_SIGTERM === '1') {
  process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\n'));
  setInterval(() => {}, 1_000);
}
const delay = Number(process.env.TINY_START_DELAY_MS ?? 0);
if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
// TINY_START_AFTER_FILE=PATH: answers nothing (not even initialize) until PATH exists.
const startAfter = process.env.TINY_START_AFTER_FILE;
if (startAfter) {
  const { existsSync } = await import('node:fs');
  while (!existsSync(startAfter)) await new Promise((resolve) => setTimeout(resolve, 20));
}
await server.connect(new StdioServerTransport());
