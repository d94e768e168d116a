/**
 * The Hono app as a `node:http` listener: a module of its own so that the app, the control
 * API and their schemas load in a chunk of their own, after the MCP endpoints answer.
 * @module
 */
import type { RequestListener } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { type AppDeps, createApp } from './create-app.js';

/** The app over `deps`, answering requests for `host`. */
export function appListener(deps: AppDeps, host: string): RequestListener {
  return getRequestListener(createApp(deps).fetch, { hostname: host });
}
