// Clients that open an SSE stream and stop reading (issue 17, item 8). A session subscribes
// to a resource that an upstream updates without pause (8 KB URIs); for SLOW_SECONDS (45)
// its /mcp GET stream is read by a client (the control: what the flood itself costs), then
// for as long by a raw socket that reads the first event and nothing more. Then, with a
// larger resumption buffer, a fresh non-reading GET stream gets a burst of SLOW_BURST (800)
// updates and is resumed with Last-Event-ID. Then /api/events, read and then not read,
// while three upstreams whose tool lists never stay the same keep the bus busy.
// Figures: the service's RSS before and at its peak in each phase, whether and when the
// stream was closed (`boternity_sse_streams_closed_slow_reader_total`), what the resume got.
import { connect } from 'node:net';
import { join } from 'node:path';
import { allConnected, mb, round, sleep, stdioServer, UPSTREAMS, until, within } from '../harness.mjs';

const SECONDS = Number(process.env.SLOW_SECONDS ?? 45);
const BURST = Number(process.env.SLOW_BURST ?? 800);
const VERSION = '2025-11-25';
const BIG_BUFFER = 32 * 1024 * 1024;
// Enough catalog changes that a phase outlasts the bus's window (1000 events) several times.
const CHURNS = ['churn1', 'churn2', 'churn3'];

export default {
  name: 'slow-reader',
  what: `SSE clients that stop reading: /mcp GET with a busy subscription, then /api/events, ${SECONDS} s each`,
  timeoutMs: 180_000 + SECONDS * 4 * 3_000,
  async run({ start }) {
    const config = (buffer) => (marker) => ({
      mcpServers: {
        busy: stdioServer(join(UPSTREAMS, 'updates.mjs'), marker),
        ...Object.fromEntries(
          CHURNS.map((name) => [name, stdioServer(join(UPSTREAMS, 'churn.mjs'), marker, { enabled: buffer !== null })]),
        ),
      },
      ...(buffer ? { gateway: { maxBufferBytesPerSession: buffer } } : {}),
    });
    const service = await start(config(null));
    if (!(await allConnected(service, ['busy']))) return { error: 'busy did not connect' };
    const control = await service.client();
    const flood = () =>
      control.callTool({ name: 'busy__flood', arguments: { seconds: SECONDS } }, undefined, {
        timeout: (SECONDS + 60) * 1_000,
      });
    const burst = (count) =>
      control.callTool({ name: 'busy__burst', arguments: { count } }, undefined, { timeout: 120_000 });
    const session = await subscribedSession(service);

    const mcpGetRead = await phase(service, {
      open: () => readingGet(service, '/mcp', session.headers),
      first: () => burst(1),
      load: flood,
      stream: 'mcp_get',
    });
    const mcpGet = await phase(service, {
      open: () => rawGet(service, '/mcp', session.headers),
      first: () => burst(1),
      load: flood,
      stream: 'mcp_get',
    });

    // A session's buffer is sized when it opens: a new one, after the reload.
    service.writeConfig(config(BIG_BUFFER));
    await until(async () => JSON.stringify((await service.api('/api/config')).body).includes(String(BIG_BUFFER)), {
      timeoutMs: 10_000,
      intervalMs: 200,
    });
    const resume = await burstAndResume(service, await subscribedSession(service), burst);

    if (!(await allConnected(service, CHURNS))) return { error: 'the churn servers did not connect' };
    const eventsBefore = await busEvents(service);
    const apiEventsRead = await phase(service, {
      open: () => readingGet(service, '/api/events', {}),
      first: async () => undefined,
      load: () => sleep(SECONDS * 1_000),
      stream: 'api_events',
    });
    const apiEvents = await phase(service, {
      open: () => rawGet(service, '/api/events', {}),
      first: async () => undefined,
      load: () => sleep(SECONDS * 1_000),
      stream: 'api_events',
    });
    const busPerSecond = round(((await busEvents(service)) - eventsBefore) / (2 * SECONDS));
    const apiResume = await resumeEvents(service, apiEvents.firstId);

    const heapAfter = await within(service.heap(), 15_000);
    await within(control.close(), 5_000);
    const stopped = await service.stop();
    return {
      mcpGet: { readByClient: mcpGetRead, notRead: mcpGet, resume },
      apiEvents: {
        busEventsPerSecond: busPerSecond,
        readByClient: apiEventsRead,
        notRead: apiEvents,
        resume: apiResume,
      },
      heapAfterMb: heapAfter.value ? mb(heapAfter.value.heapUsed) : null,
      stop: stopped,
    };
  },
};

/** One stream under `load` after its first event: the RSS each second, and whether it was closed. */
async function phase(service, { open, first, load, stream }) {
  const client = await open();
  await client.until(/^HTTP\/1\.1 200|^200$/);
  await first();
  const firstId = (await client.until(/^id: (\S+)$/m))?.[1] ?? null;
  client.stopReading();
  await sleep(1_000);
  const heldBefore = await held(service);
  const rssBefore = service.rssMb();
  const closesBefore = await closedSlowReaders(service, stream);
  const t0 = performance.now();
  let closedAtS = null;
  const rss = [];
  let done = false;
  const loading = load()
    .catch((error) => ({ error: String(error?.message ?? error) }))
    .finally(() => {
      done = true;
    });
  while (!done && performance.now() - t0 < (SECONDS + 30) * 1_000) {
    await sleep(1_000);
    rss.push(service.rssMb());
    if (closedAtS === null && (await closedSlowReaders(service, stream)) > closesBefore)
      closedAtS = round((performance.now() - t0) / 1_000);
  }
  const loadResult = await loading;
  // Before the client goes: what its stream still holds is in the heap, or the buffers outside it.
  const heldAfter = await held(service);
  const received = client.close();
  const peak = Math.max(...rss.filter((x) => x !== null));
  return {
    firstId,
    rssMb: { before: rssBefore, peak, last: rss.at(-1) ?? null, growthPeak: round(peak - rssBefore) },
    heldAfterGcMb: {
      before: heldBefore,
      after: heldAfter,
      growth: heldBefore === null || heldAfter === null ? null : round(heldAfter - heldBefore),
    },
    closedForNotReading: closedAtS !== null,
    closedAfterS: closedAtS,
    ...(received === null ? {} : { receivedMb: mb(received) }),
    load: loadResult?.content?.[0]?.text ?? loadResult ?? null,
  };
}

/** A fresh GET stream that stops reading, a burst of BURST updates, then a resume with Last-Event-ID. */
async function burstAndResume(service, session, burst) {
  const client = await rawGet(service, '/mcp', session.headers);
  await client.until(/^HTTP\/1\.1 200/);
  await burst(1);
  const firstId = (await client.until(/^id: (\S+)$/m))?.[1];
  client.stopReading();
  const closesBefore = await closedSlowReaders(service, 'mcp_get');
  await burst(BURST);
  const closed = await until(async () => (await closedSlowReaders(service, 'mcp_get')) > closesBefore, {
    timeoutMs: 5_000,
    intervalMs: 200,
  });
  client.close();
  if (!closed) await sleep(500);
  const response = await fetch(`${service.url}/mcp`, {
    headers: { ...service.auth, ...session.headers, accept: 'text/event-stream', 'last-event-id': firstId },
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status !== 200)
    return {
      burst: BURST,
      closed: Boolean(closed),
      status: response.status,
      body: (await response.text()).slice(0, 200),
    };
  const ids = new Set();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const deadline = performance.now() + 20_000;
  while (ids.size < BURST && performance.now() < deadline) {
    const { value, done } = await within(reader.read(), 5_000).then((r) => r.value ?? { done: true });
    if (done) break;
    text += value;
    // Whole lines only: an id cut in two by a chunk's end is read with its next part.
    const end = text.lastIndexOf('\n') + 1;
    for (const m of text.slice(0, end).matchAll(/^id: (\S+)\n/gm)) ids.add(m[1]);
    text = text.slice(end);
  }
  await reader.cancel().catch(() => undefined);
  const numbers = [...ids].map(Number);
  return {
    burst: BURST,
    closed: Boolean(closed),
    status: 200,
    replayed: ids.size,
    ids: { after: Number(firstId), first: Math.min(...numbers), last: Math.max(...numbers) },
  };
}

/** /api/events resumed after `firstId`: a replay when the bus's window still holds it, else a snapshot. */
async function resumeEvents(service, firstId) {
  const response = await fetch(`${service.url}/api/events`, {
    headers: { ...service.auth, 'last-event-id': firstId ?? '' },
    signal: AbortSignal.timeout(10_000),
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const { value } = (await within(reader.read(), 5_000)).value ?? {};
  await reader.cancel().catch(() => undefined);
  return {
    status: response.status,
    got: value?.startsWith('event: snapshot') ? 'snapshot' : value ? 'replay' : 'nothing',
  };
}

/** A session opened with raw requests (an SDK client reads its GET stream), subscribed to the busy resource. */
async function subscribedSession(service) {
  const base = { ...service.auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(`${service.url}/mcp`, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'slow-reader', version: '1' } },
    }),
  });
  const headers = { 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': VERSION };
  await init.text();
  let id = 0;
  const post = (body) =>
    fetch(`${service.url}/mcp`, { method: 'POST', headers: { ...base, ...headers }, body: JSON.stringify(body) });
  const rpc = async (method, params) => (await post({ jsonrpc: '2.0', id: ++id, method, params })).json();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  const [resource] = (await rpc('resources/list', {})).result.resources;
  await rpc('resources/subscribe', { uri: resource.uri });
  return { headers };
}

/** A GET on `path` read to the end by fetch, as a client that keeps up does; `until` matches the status, then the text. */
async function readingGet(service, path, headers) {
  const abort = new AbortController();
  const response = await fetch(`${service.url}${path}`, {
    headers: { ...service.auth, ...headers, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  let seen = String(response.status);
  let bytes = 0;
  let waiter = null;
  const check = () => {
    const found = waiter?.re.exec(seen);
    if (waiter && found) {
      waiter.resolve(found);
      waiter = null;
    }
  };
  void (async () => {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      bytes += value.length;
      if (seen.length < 65_536) seen += decoder.decode(value, { stream: true });
      check();
    }
  })().catch(() => undefined);
  return {
    until: (re) =>
      within(
        new Promise((resolve) => {
          waiter = { re, resolve };
          check();
        }),
        15_000,
      ).then((r) => r.value ?? null),
    stopReading: () => undefined,
    close() {
      abort.abort();
      return bytes;
    },
  };
}

/** A raw GET on `path`: `until(re)` waits for what came to match; `stopReading()` takes nothing more. */
function rawGet(service, path, headers) {
  const { hostname, port } = new URL(service.url);
  const socket = connect(Number(port), hostname);
  let seen = '';
  let waiter = null;
  const check = () => {
    const found = waiter?.re.exec(seen);
    if (waiter && found) {
      waiter.resolve(found);
      waiter = null;
    }
  };
  const onData = (chunk) => {
    if (seen.length < 65_536) seen += chunk.toString('latin1');
    check();
  };
  socket.on('data', onData);
  socket.on('error', () => undefined);
  const all = { host: `${hostname}:${port}`, accept: 'text/event-stream', ...service.auth, ...headers };
  socket.write(
    `GET ${path} HTTP/1.1\r\n${Object.entries(all)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
  );
  return {
    socket,
    until: (re, timeoutMs = 15_000) =>
      within(
        new Promise((resolve) => {
          waiter = { re, resolve };
          check();
        }),
        timeoutMs,
      ).then((r) => r.value ?? null),
    stopReading() {
      socket.off('data', onData);
      socket.pause();
    },
    close() {
      socket.destroy();
      return null;
    },
  };
}

/** Streams of `stream` closed for not reading, from /metrics (0 where the metric does not exist). */
async function closedSlowReaders(service, stream) {
  const { body } = await service.api('/metrics');
  const match = new RegExp(`^boternity_sse_streams_closed_slow_reader_total\\{stream="${stream}"\\} (\\d+)`, 'm').exec(
    String(body),
  );
  return match ? Number(match[1]) : 0;
}

/** Heap used plus memory outside it (socket buffers among it) after a forced GC, in MB; null: no answer. */
async function held(service) {
  const heap = await within(service.heap(), 30_000);
  return heap.value ? mb(heap.value.heapUsed + heap.value.external) : null;
}

/** Every event published on the bus so far, from /metrics. */
async function busEvents(service) {
  const { body } = await service.api('/metrics');
  let total = 0;
  for (const m of String(body).matchAll(/^boternity_events_total\{[^}]*\} (\d+)/gm)) total += Number(m[1]);
  return total;
}
