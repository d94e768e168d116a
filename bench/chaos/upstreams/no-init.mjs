// Fault upstream: reads every message and never answers, `initialize` included.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const transport = new StdioServerTransport();
transport.onmessage = () => undefined;
await transport.start();
// Stay alive whatever the input: a server that hangs, not one that exits.
setInterval(() => undefined, 60_000);
