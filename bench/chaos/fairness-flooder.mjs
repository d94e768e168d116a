// The fairness scenario's flooding client, a process of its own (forked), as a real
// flooding client is: run in a worker thread of the harness, its work slowed the client
// that times the bystander (B's p50 ×1.6–2.7 of its baseline against ×1.5–1.8 with the same
// service), which measured the harness rather than the service. One MCP session on /mcp with its token,
// raw HTTP (the big argument is one Buffer written into every request, not a string
// serialized per call); waves of `calls` concurrent `tools/call`s of `name` with a `text`
// of `megabytes` MB, one wave after another until `seconds` have passed.
import { Agent, request } from 'node:http';

const { url, token, name, calls, megabytes, seconds } = JSON.parse(process.argv[2]);
// No keep-alive: a socket idle through a long wave would be closed by the server as it is reused.
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const big = Buffer.alloc(Math.round(megabytes * 1024 * 1024), 'a');
let sessionId = null;

/** POST `parts` (Buffers) to /mcp; resolves with { status, headers, messages } (JSON or SSE answers). */
function post(parts) {
  const length = parts.reduce((n, p) => n + p.length, 0);
  return new Promise((resolve) => {
    const req = request(`${url}/mcp`, {
      method: 'POST',
      agent,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': String(length),
        ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const sse = String(res.headers['content-type'] ?? '').includes('text/event-stream');
        const bodies = sse
          ? text
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trim())
          : [text];
        const messages = [];
        for (const b of bodies) {
          try {
            if (b) messages.push(JSON.parse(b));
          } catch {
            messages.push({ unparsed: b.slice(0, 200) });
          }
        }
        resolve({ status: res.statusCode, headers: res.headers, messages });
      });
      res.on('error', (error) => resolve({ status: 0, headers: {}, messages: [], error: String(error.message) }));
    });
    req.on('error', (error) => resolve({ status: 0, headers: {}, messages: [], error: String(error.message) }));
    for (const part of parts) req.write(part);
    req.end();
  });
}

let nextId = 1;
const json = (value) => Buffer.from(JSON.stringify(value));

async function open() {
  const init = await post([
    json({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flooder', version: '1' } },
    }),
  ]);
  sessionId = init.headers['mcp-session-id'] ?? null;
  if (!sessionId) throw new Error(`initialize failed: ${init.status} ${JSON.stringify(init.messages).slice(0, 300)}`);
  await post([json({ jsonrpc: '2.0', method: 'notifications/initialized' })]);
}

/** One call: 'answered', or { refused | failed: message }, with its time. */
async function call() {
  const id = nextId++;
  const head = Buffer.from(
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":{"text":"`,
  );
  const started = performance.now();
  const answer = await post([head, big, Buffer.from('"}}}')]);
  const ms = performance.now() - started;
  // A refusal before the body was read answers no id in particular (null).
  const message = answer.messages.find((m) => m.id === id) ?? answer.messages.find((m) => m.id === null && m.error);
  if (!message) return { ms, failed: `HTTP ${answer.status}${answer.error ? ` ${answer.error}` : ''}` };
  if (message.error) {
    const text = `${message.error.code}: ${String(message.error.message).slice(0, 160)}`;
    // A refusal by a cap says which setting (limits.inFlight.*) refused it.
    return /limits\.inFlight|maxConcurrentRequests/.test(message.error.message)
      ? { ms, refused: text }
      : { ms, failed: text };
  }
  if (message.result?.isError) return { ms, failed: String(message.result.content?.[0]?.text ?? '').slice(0, 160) };
  return { ms, answered: true };
}

await open();
const until = performance.now() + seconds * 1000;
const outcomes = { waves: 0, answered: 0, refused: {}, failed: {}, answeredMs: [] };
while (performance.now() < until) {
  const wave = await Promise.all(Array.from({ length: calls }, () => call()));
  outcomes.waves += 1;
  for (const o of wave) {
    if (o.answered) {
      outcomes.answered += 1;
      outcomes.answeredMs.push(o.ms);
    } else if (o.refused) outcomes.refused[o.refused] = (outcomes.refused[o.refused] ?? 0) + 1;
    else outcomes.failed[o.failed] = (outcomes.failed[o.failed] ?? 0) + 1;
  }
}
process.send(outcomes, () => process.exit(0));
agent.destroy();
