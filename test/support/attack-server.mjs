// A stdio MCP server built from the sanitizer corpus (test/support/attack-corpus).
// MODE=attack: one tool `attack_<i>` per attack sample (its description is the sample) and
// `leak`, which returns attack sample `index` as text content and in structured content.
// MODE=clean: one tool `clean_<i>` per clean sample and `echo_clean`, which returns clean
// sample `index` the same way.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const mode = process.env.MODE === 'clean' ? 'clean' : 'attack';
const corpus = (file) => JSON.parse(readFileSync(new URL(`./attack-corpus/${file}`, import.meta.url), 'utf8'));
const samples = corpus(mode === 'clean' ? 'clean.json' : 'attacks.json');
const prefix = mode === 'clean' ? 'clean' : 'attack';
const returner = mode === 'clean' ? 'echo_clean' : 'leak';

const indexSchema = {
  type: 'object',
  properties: { index: { type: 'integer', minimum: 0, maximum: samples.length - 1 } },
  required: ['index'],
};
const tools = [
  ...samples.map((s, i) => ({
    name: `${prefix}_${i}`,
    description: s.text,
    inputSchema: { type: 'object', properties: {} },
  })),
  {
    name: returner,
    description: `Returns ${mode} sample number index.`,
    inputSchema: indexSchema,
  },
];

const server = new Server({ name: `${mode}-corpus-fixture`, version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  if (name !== returner) {
    if (tools.some((t) => t.name === name)) return { content: [{ type: 'text', text: 'ok' }] };
    throw new Error(`unknown tool ${name}`);
  }
  const sample = samples[Number(args.index)];
  if (!sample) throw new Error(`no sample ${args.index}`);
  return {
    content: [{ type: 'text', text: sample.text }],
    structuredContent: { index: Number(args.index), text: sample.text, nested: { list: [sample.text] } },
  };
});
await server.connect(new StdioServerTransport());
