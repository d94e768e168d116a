/**
 * `bnity mcp events [--server NAME] [--bot SLUG]`: follow `/api/events` until Ctrl-C, one line an event
 * (`--json`: the event as one JSON line). It ends with exit 1 if the service goes away.
 * @module
 */
import type { ServerStatus } from '../hub/server-status.js';
import { readSse, type SseEvent } from './read-sse.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';

/** Run `bnity mcp events`. */
export async function mcpEventsCommand(
  flags: TargetFlags & { server?: string; bot?: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  const stop = new AbortController();
  const quit = () => stop.abort();
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  const params = new URLSearchParams();
  if (flags.server) params.set('server', flags.server);
  if (flags.bot) params.set('bot', flags.bot);
  const query = params.size > 0 ? `?${params}` : '';
  try {
    const stream = await needService('following events', () => client.open(`/api/events${query}`, stop.signal));
    for await (const event of readSse(stream)) {
      process.stdout.write(
        `${json ? JSON.stringify({ event: event.event, id: event.id, data: event.data }) : describeEvent(event)}\n`,
      );
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    process.off('SIGINT', quit);
    process.off('SIGTERM', quit);
  }
  if (stop.signal.aborted) return 0;
  process.stderr.write(`bnity: the service at ${client.baseUrl} closed the event stream\n`);
  return 1;
}

/** `12:00:01  fs  connected  transport=stdio pid=123 toolCount=14 …`, for people. */
function describeEvent({ event, data }: SseEvent): string {
  const fields = (data && typeof data === 'object' ? data : { data }) as Record<string, unknown>;
  if (event === 'snapshot') {
    const servers = (fields.servers ?? []) as ServerStatus[];
    const states = servers.map((s) => `${s.name}=${s.state}`).join(' ');
    return `${time(new Date().toISOString())}  -  snapshot  ${states || '(no servers)'}`;
  }
  const { type: _type, server, at, ...rest } = fields;
  const details = Object.entries(rest)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
  return `${time(typeof at === 'string' ? at : new Date().toISOString())}  ${server ?? '-'}  ${event}  ${details}`.trimEnd();
}

function time(iso: string): string {
  return iso.slice(11, 19);
}
