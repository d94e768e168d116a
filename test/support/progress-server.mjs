// A stdio MCP server for test-tool calls from the API and the web UI: `count` reports progress
// (with a message) after each step when the caller sent a progress token, notices being
// cancelled, and can fail part-way; `cancellations` lists the cancels it heard (each with the
// reason the notification carried); `weather` takes enum arguments and answers with
// structured content and the same JSON as text.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'progress-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
const tools = [
  {
    name: 'count',
    description: 'Counts to `steps`, one step every `stepMs`, reporting progress as it goes',
    inputSchema: {
      type: 'object',
      properties: {
        steps: { type: 'integer', default: 5, description: 'How many steps' },
        stepMs: { type: 'integer', default: 100, description: 'How long each step takes, in ms' },
        failAt: { type: 'integer', description: 'Fail (a protocol error) after this step' },
      },
    },
  },
  { name: 'cancellations', description: 'The cancellations heard so far', inputSchema: { type: 'object' } },
  {
    name: 'weather',
    description: "A city's weather, made up",
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', enum: ['Paris', 'Lisbon', 'New York'], description: 'Where' },
        units: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        days: { type: 'integer', enum: [1, 3, 7], description: 'How many days ahead' },
      },
      required: ['city'],
    },
  },
];
/** Each `count` cancelled: `{ step, reason }`. */
const cancellations = [];
const json = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args = {} } = request.params;
  if (name === 'cancellations') return json({ cancellations });
  if (name === 'weather') {
    const units = args.units ?? 'celsius';
    return json({
      city: args.city,
      units,
      days: args.days ?? 1,
      temperature: units === 'celsius' ? 21.5 : 70.7,
      sunny: true,
      note: null,
    });
  }
  if (name !== 'count') throw new Error(`unknown tool ${name}`);
  const steps = Number(args.steps ?? 5);
  const stepMs = Number(args.stepMs ?? 100);
  const token = request.params._meta?.progressToken;
  for (let step = 1; step <= steps; step++) {
    const cancelled = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), stepMs);
      extra.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve(true);
        },
        { once: true },
      );
      if (extra.signal.aborted) resolve(true);
    });
    if (cancelled) {
      cancellations.push({ step, reason: String(extra.signal.reason ?? '') });
      return json({ counted: step - 1, cancelled: true });
    }
    if (token !== undefined)
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: step, total: steps, message: `step ${step} done` },
      });
    if (args.failAt === step) throw new Error(`gave up after step ${step}`);
  }
  return json({ counted: steps, progressAsked: token !== undefined });
});
await server.connect(new StdioServerTransport());
