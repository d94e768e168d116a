// Types of serve-streamable-http.mjs, for the TypeScript test support that uses it.
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export function serveStreamableHttp(options: {
  port: number;
  announce?: boolean;
  bearer?: string;
  guard?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  newSession: () => { server: Server; onClose?: () => void };
}): HttpServer;
